"""A map's orientation: how Tiled lays its cells out on screen (``<map orientation=...>`` with
``staggeraxis``, ``staggerindex`` and ``hexsidelength``), read and checked once.

The game *plays* orthogonal maps only (its physics are a grid of upright rectangles); it *draws*
every orientation Tiled has (``--render-map``; ``game.view.projection`` places the cells).
:class:`GridSteps` is the geometry of a staggered or hexagonal grid as Tiled's hexagonal renderer
derives it from the map (Tiled, ``src/libtiled/hexagonalrenderer.cpp``, ``RenderParams``): the
loader needs it to move an infinite map's objects with its tiles, the view to place cells.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from game.errors import UserError, quoted
from game.maps.limits import MAX_TILE_PX

ORIENTATIONS = ("orthogonal", "isometric", "staggered", "hexagonal")
# Tiled 0.9 saved staggered maps as "isometric (staggered)"; Tiled still reads it.
_ALIASES = {"isometric (staggered)": "staggered"}
_FIX = "in Tiled: Map > Map Properties"


@dataclass(frozen=True)
class GridSteps:
    """A staggered or hexagonal grid's steps, px (Tiled rounds the tile size down to even)."""

    tile_w: int
    tile_h: int
    side_x: int  # the length of a hexagon's flat side along x (hexagonal, stagger axis x)
    side_y: int  # ... along y (hexagonal, stagger axis y)
    side_offset_x: int  # (tile_w - side_x) / 2: how far a hexagon's corner is from its box's
    side_offset_y: int
    column_width: int  # from one column to the next (side_offset_x + side_x)
    row_height: int  # from one row to the next (side_offset_y + side_y)


@dataclass(frozen=True)
class Orientation:
    kind: str = "orthogonal"  # one of ORIENTATIONS
    stagger_x: bool = False  # staggeraxis="x": every other column is shifted down (else rows)
    stagger_even: bool = False  # staggerindex="even": the even columns/rows are (else the odd)
    hex_side: int = 0  # hexsidelength, px (hexagonal maps only)

    @property
    def orthogonal(self) -> bool:
        return self.kind == "orthogonal"

    def staggered(self, index: int) -> bool:
        """Is column (stagger axis x) or row (y) ``index`` the shifted one?"""
        return bool(index & 1) != self.stagger_even

    def steps(self, tile_w: int, tile_h: int) -> GridSteps:
        tw, th = tile_w & ~1, tile_h & ~1
        hexagonal = self.kind == "hexagonal"
        side_x = self.hex_side if hexagonal and self.stagger_x else 0
        side_y = self.hex_side if hexagonal and not self.stagger_x else 0
        ox, oy = (tw - side_x) // 2, (th - side_y) // 2
        return GridSteps(tw, th, side_x, side_y, ox, oy, ox + side_x, oy + side_y)


ORTHOGONAL = Orientation()


def read_orientation(path: Path, root: ET.Element, play: bool) -> Orientation:
    """The map's orientation, checked: ``play`` refuses all but orthogonal maps."""
    raw = root.get("orientation", "orthogonal")
    kind = _ALIASES.get(raw, raw)
    if kind not in ORIENTATIONS:
        raise UserError(path, f"the map's orientation is {quoted(raw)}, which Tiled does not "
                        f"know; it must be one of {', '.join(ORIENTATIONS)} ({_FIX})")
    if kind != "orthogonal" and play:
        raise UserError(path, f"the map is {quoted(kind)}; only orthogonal maps are played "
                        "(--render-map draws it; to play it, in Tiled: Map > Map Properties > "
                        "Orientation: Orthogonal)")
    if kind in ("orthogonal", "isometric"):
        return Orientation(kind)
    axis, index = root.get("staggeraxis", "y"), root.get("staggerindex", "odd")
    if axis not in ("x", "y") or index not in ("odd", "even"):
        raise UserError(path, f"the {kind} map has staggeraxis={quoted(axis)} and staggerindex="
                        f"{quoted(index)}; they must be x or y and odd or even ({_FIX} > "
                        "Stagger Axis, Stagger Index)")
    side = 0
    if kind == "hexagonal":
        raw_side = root.get("hexsidelength", "0")
        try:
            side = int(raw_side)
        except ValueError:
            side = -1
        if not 0 <= side <= MAX_TILE_PX:
            raise UserError(path, f"the hexagonal map has hexsidelength={quoted(raw_side)}; it "
                            f"must be a whole number of px from 0 to {MAX_TILE_PX} ({_FIX} > "
                            "Hex Side Length)")
    return Orientation(kind, axis == "x", index == "even", side)


def moved_origin(o: Orientation, tile: tuple[int, int], before: int, left: int, top: int,
                 rows: int) -> tuple[tuple[float, float], tuple[float, float], bool]:
    """What changes when cell (``left``, ``top``) of an infinite map becomes cell (0, 0) of a
    finite one, so that everything keeps its place beside the tiles: how far objects move (in
    the map's own pixel coordinates, which Tiled projects like cells), how far what sits on the
    screen moves (image layers, the parallax origin), and whether the stagger index flips (a
    staggered or hexagonal grid keeps which rows or columns are shifted when an odd number of
    them goes). ``tile`` is the map's tile size, ``before`` the infinite map's nominal height and
    ``rows`` the finite map's, in cells."""
    tw, th = tile
    if o.orthogonal:
        return (-left * tw, -top * th), (-left * tw, -top * th), False
    if o.kind == "isometric":
        # A cell's top corner is at ((x - y) * tw/2 + height * tw/2, (x + y) * th/2) (Tiled's
        # isometric renderer), the height the map's, in cells.
        return ((-left * th, -top * th),
                ((rows - before - left + top) * tw / 2, -(left + top) * th / 2), False)
    s = o.steps(tw, th)
    if o.stagger_x:
        return ((-left * s.column_width, -top * (s.tile_h + s.side_y)),) * 2 + (bool(left & 1),)
    return ((-left * (s.tile_w + s.side_x), -top * s.row_height),) * 2 + (bool(top & 1),)
