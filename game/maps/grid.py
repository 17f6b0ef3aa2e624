"""The collision grid: what each tile of a level *is*, as plain data with no pygame and no pytmx.

A level's tile layers are folded once, at load, into one compact ``bytes`` of tile kinds indexed
``row * cols + col``, plus the floor heights of its slope tiles. Every resolver reads only this.
Coordinates are map pixels: the origin is the map's top-left corner and y grows downward.
Outside the map every tile is ``EMPTY``, so the edges and the space above the top never collide.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

EMPTY = 0
SOLID = 1
ONE_WAY = 2
SLOPE = 3

KIND_NAMES = {EMPTY: "empty", SOLID: "solid", ONE_WAY: "one_way", SLOPE: "slope"}
# When several tile layers put something in one cell, the strongest kind wins.
KIND_STRENGTH = {EMPTY: 0, ONE_WAY: 1, SLOPE: 2, SOLID: 3}

# Float slack for "touching is not overlapping": positions that should sit exactly on a tile edge
# may carry rounding error from sums of per-tick motion.
EPS = 1e-6


@dataclass(frozen=True, eq=False)
class TileGrid:
    cols: int
    rows: int
    tile_w: int
    tile_h: int
    kinds: bytes
    # cell index -> (height at the tile's left edge, height at its right edge), in px above its bottom
    slopes: Mapping[int, tuple[float, float]] = field(default_factory=dict)
    # The cells of ladders (climbable, by the player: game.sim.player). A ladder's top cell (no
    # ladder cell above it) is ONE_WAY in ``kinds``, a floor from above like a one-way platform;
    # its other cells are EMPTY unless another layer puts something there.
    ladders: frozenset[int] = frozenset()
    # Facts about the whole map, worked out once here so that hot loops need not ask again.
    width_px: int = field(init=False, repr=False)
    height_px: int = field(init=False, repr=False)
    has_one_way: bool = field(init=False, repr=False)  # any ONE_WAY cell at all
    right_edge: float = field(init=False, repr=False)  # width_px as a float, for hot comparisons
    # Made by with_kinds: (a weak reference to the grid it was made from, the cells changed).
    _made_from: tuple[weakref.ref, frozenset[int]] | None = field(
        init=False, repr=False, default=None)

    def __post_init__(self) -> None:
        if len(self.kinds) != self.cols * self.rows:
            raise ValueError("kinds must hold cols * rows cells")
        object.__setattr__(self, "width_px", self.cols * self.tile_w)
        object.__setattr__(self, "height_px", self.rows * self.tile_h)
        object.__setattr__(self, "has_one_way", ONE_WAY in self.kinds)
        object.__setattr__(self, "right_edge", float(self.width_px))

    def with_kinds(self, changes: Mapping[int, int]) -> TileGrid:
        """This grid with some cells' kinds changed ({row * cols + col: kind}): a door turning.

        The new grid remembers which grid it was made from and which cells changed
        (:meth:`changed_since`), so that whatever is worked out per grid (routing's tables) is
        brought up to date cell by cell instead of over the whole map.
        """
        kinds = bytearray(self.kinds)
        for i, kind in changes.items():
            kinds[i] = kind
        grid = TileGrid(self.cols, self.rows, self.tile_w, self.tile_h, bytes(kinds), self.slopes,
                        self.ladders)
        object.__setattr__(grid, "_made_from", (weakref.ref(self), frozenset(changes)))
        return grid

    def changed_since(self, other: TileGrid) -> frozenset[int] | None:
        """The cells that may differ from ``other`` if this grid was made from it by
        :meth:`with_kinds`; None if it was not (then anything may differ)."""
        made = self._made_from
        if made is None or made[0]() is not other:
            return None
        return made[1]

    def kind(self, col: int, row: int) -> int:
        if 0 <= col < self.cols and 0 <= row < self.rows:
            return self.kinds[row * self.cols + col]
        return EMPTY

    def ladder(self, col: int, row: int) -> bool:
        return 0 <= col < self.cols and 0 <= row < self.rows and row * self.cols + col in self.ladders

    def slope_heights(self, col: int, row: int) -> tuple[float, float]:
        return self.slopes[row * self.cols + col]

    # --- tile ranges -------------------------------------------------------------------------
    def cols_between(self, left: float, right: float) -> range:
        """Columns a span [left, right) covers; an edge exactly on a tile border stays out."""
        return range(math.floor(left / self.tile_w), math.ceil(right / self.tile_w))

    def rows_between(self, top: float, bottom: float) -> range:
        return range(math.floor(top / self.tile_h), math.ceil(bottom / self.tile_h))

    # --- slope surfaces ----------------------------------------------------------------------
    def surface_y(self, col: int, row: int, x: float) -> float:
        """y of a slope tile's floor surface at map x (clamped to the tile's own span)."""
        left_h, right_h = self.slope_heights(col, row)
        t = min(max((x - col * self.tile_w) / self.tile_w, 0.0), 1.0)
        return (row + 1) * self.tile_h - (left_h + (right_h - left_h) * t)

    def surface_top(self, col: int, row: int, left: float, right: float) -> float:
        """Highest point (smallest y) of a slope tile's surface under the span [left, right]."""
        return min(self.surface_y(col, row, left), self.surface_y(col, row, right))

    # --- building ----------------------------------------------------------------------------
    @classmethod
    def from_rows(cls, rows: Sequence[str], tile_w: int = 16, tile_h: int | None = None,
                  slope_chars: Mapping[str, tuple[float, float]] | None = None) -> TileGrid:
        """A grid from text, for tests and tools: ``#`` solid, ``=`` one-way, ``.`` empty, ``H``
        a ladder (its top cell one-way).

        Slope characters default to ``/`` (rising right, 45 degrees) and ``\\`` (rising left);
        ``slope_chars`` adds others as {char: (left height, right height)} in px.
        """
        tile_h = tile_w if tile_h is None else tile_h
        chars = {"/": (0.0, float(tile_h)), "\\": (float(tile_h), 0.0)}
        chars.update(slope_chars or {})
        width = max((len(r) for r in rows), default=0)
        kinds = bytearray(width * len(rows))
        slopes: dict[int, tuple[float, float]] = {}
        ladders: set[int] = set()
        for r, line in enumerate(rows):
            for c, ch in enumerate(line):
                i = r * width + c
                if ch == "H":
                    ladders.add(i)
                    above = rows[r - 1][c:c + 1] if r else ""
                    kinds[i] = EMPTY if above == "H" else ONE_WAY
                elif ch == "#":
                    kinds[i] = SOLID
                elif ch == "=":
                    kinds[i] = ONE_WAY
                elif ch in chars:
                    kinds[i] = SLOPE
                    slopes[i] = chars[ch]
                elif ch not in ". ":
                    raise ValueError(f"unknown tile character {ch!r}")
        return cls(width, len(rows), tile_w, tile_h, bytes(kinds), slopes, frozenset(ladders))


def with_ladders(grid: TileGrid, ladders: frozenset[int]) -> TileGrid:
    """``grid`` with ladder cells (indices ``row * cols + col``): each ladder's top cell (no ladder
    cell above it) becomes a one-way floor where nothing stronger is; the other cells keep their
    kind (a ladder is not solid)."""
    if not ladders:
        return grid
    cols = grid.cols
    kinds = bytearray(grid.kinds)
    for i in ladders:
        if i - cols not in ladders and kinds[i] == EMPTY:
            kinds[i] = ONE_WAY
    return TileGrid(grid.cols, grid.rows, grid.tile_w, grid.tile_h, bytes(kinds), grid.slopes,
                    ladders)


# The "no overlap" rule: which cells a box overlaps. The map's own geometry, shared by the loader
# (spawn checks), every resolver, the simulation and the tests.

def one_way_counts(bottom_before: float, tile_top: float) -> bool:
    """A one-way tile blocks only a body whose bottom was at or above its top before the move."""
    return bottom_before <= tile_top + EPS


def overlapping_tiles(grid: TileGrid, x: float, y: float, w: float, h: float,
                      bottom_before: float, slopes: bool) -> list[tuple[int, int]]:
    """Cells that the box (x, y, w, h) overlaps by more than EPS: the "no overlap" rule.

    Solid tiles always count. A one-way tile counts only if the body's bottom was at or above its
    top before the move (``bottom_before``). A slope tile counts by its shape (the area under its
    surface) when ``slopes`` is true, and as a full box otherwise.
    """
    hits: list[tuple[int, int]] = []
    _overlapping(grid, x, y, w, h, bottom_before, slopes, hits)
    return hits


def overlaps_any(grid: TileGrid, x: float, y: float, w: float, h: float, bottom_before: float,
                 slopes: bool) -> bool:
    """Does the box overlap any tile by the rule of :func:`overlapping_tiles`? (Stops at one.)"""
    return _overlapping(grid, x, y, w, h, bottom_before, slopes, None)


def _overlapping(grid: TileGrid, x: float, y: float, w: float, h: float, bottom_before: float,
                 slopes: bool, hits: list[tuple[int, int]] | None) -> bool:
    """The "no overlap" rule's scan: appends every overlapped cell to ``hits``, or, if ``hits``
    is None, returns True at the first one."""
    tw, th, cols, kinds = grid.tile_w, grid.tile_h, grid.cols, grid.kinds
    right, bottom = x + w, y + h
    # the cells of the box, clipped to the map (outside it every cell is empty)
    first_col, end_col = math.floor((x + EPS) / tw), math.ceil((right - EPS) / tw)
    first_row, end_row = math.floor((y + EPS) / th), math.ceil((bottom - EPS) / th)
    if first_col < 0:
        first_col = 0
    if end_col > cols:
        end_col = cols
    if first_row < 0:
        first_row = 0
    if end_row > grid.rows:
        end_row = grid.rows
    found = False
    for row in range(first_row, end_row):
        top_y = row * th
        base = row * cols
        for col in range(first_col, end_col):
            kind = kinds[base + col]
            if kind == EMPTY:
                continue
            if kind == ONE_WAY:
                if not (one_way_counts(bottom_before, top_y) and bottom > top_y + EPS):
                    continue
            elif kind == SLOPE and slopes:
                lo = max(x, col * tw)
                hi = min(right, (col + 1) * tw)
                # the box's part in this cell reaches under the surface (a slope of height 0
                # has nothing under it: its surface is the cell's bottom)
                if not min(bottom, top_y + th) > grid.surface_top(col, row, lo, hi) + EPS:
                    continue
            if hits is None:
                return True
            hits.append((col, row))
            found = True
    return found
