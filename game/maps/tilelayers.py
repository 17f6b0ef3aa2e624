"""Stage 2 of loading: pytmx's map becomes the game's tile data.

The collision grid (a :class:`~game.maps.grid.TileGrid` of tile kinds, the strongest kind of a
cell over all layers), what each placed tile does beyond blocking (``game.maps.tiles``), and,
for the view, the tile layers in file order with the source rectangle of every tile image.
"""

from __future__ import annotations

import array
import math
import sys
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.errors import UserError, quoted
from game.maps.checks import LayerData, MapInfo, Tileset
from game.maps.grid import EMPTY, KIND_STRENGTH, ONE_WAY, SLOPE, SOLID, TileGrid
from game.maps.records import TileImage, TileLayer
from game.maps.safexml import raw_properties
from game.maps.tiles import tile_feature
from game.maps.tmxparse import import_pytmx

COLLISION_KINDS = {"solid": SOLID, "one_way": ONE_WAY, "slope": SLOPE}
# A kind's strength as a mask of that many low bits: the "or" of two masks is the mask of the
# stronger kind, so a cell's kind over all layers comes from or-ing whole layers at once.
_MASK_OF_KIND = {kind: (1 << strength) - 1 for kind, strength in KIND_STRENGTH.items()}
_KIND_OF_MASK = bytes(next((k for k, m in _MASK_OF_KIND.items() if m == i), 0)
                      for i in range(256))  # a bytes.translate table


@dataclass(frozen=True)
class Tiles:
    """What the tile layers make of a map: the grid, and what the later stages and the view need."""

    grid: TileGrid
    tile_layers: tuple  # pytmx's tile layers, in file order
    cells: dict[int, list[int]]  # a tile layer's id -> its cells' pytmx gids, row by row
    feature_of: dict[int, tuple]  # pytmx gid -> (hazard box, friction, water): game.maps.tiles
    flags_of: dict[int, Any]  # pytmx gid -> its flip flags


def build_tiles(path: Path, tmx, info: MapInfo) -> Tiles:
    """The collision grid and the cells of every tile layer, from pytmx's map and the cells the
    checks decoded (``info``)."""
    cols, rows, tw, th = tmx.width, tmx.height, tmx.tilewidth, tmx.tileheight
    flags_of = dict(v for v in tmx.imagemap.values() if isinstance(v, tuple))
    tiled_tile_layer = import_pytmx().TiledTileLayer
    tile_layers = [layer for layer in tmx.layers if isinstance(layer, tiled_tile_layer)]
    # Tiled's gid (flip bits and all) -> pytmx's; pytmx gave each its number while parsing.
    number = {raw: tmx.register_gid_check_flags(raw) for data in info.layers for raw in data.new}

    # What each placed tile is, worked out once per gid, in the order the gids are first placed
    # (so that a mistake is reported where it first appears, as a walk over the cells would).
    # A kind is kept as its strength mask (see _MASK_OF_KIND) so that layers combine with "or".
    mask_of = [0] * (max(number.values()) + 1)  # pytmx gid -> strength mask
    heights_of: dict[int, tuple[float, float]] = {}
    feature_of: dict[int, tuple] = {}  # pytmx gid -> (hazard box, friction, water): game.maps.tiles
    for layer, data in zip(tile_layers, info.layers, strict=True):
        for raw in data.new:
            gid = number[raw]
            if not gid:
                continue
            tiled_gid = tmx.tiledgidmap.get(gid, gid)
            ts = info.tileset_of(tiled_gid)
            if ts is None or not ts.holds(tiled_gid - ts.firstgid):
                r, c = divmod(data.gids.index(raw), cols)
                raise UserError(path, f"tile layer {quoted(layer.name)} uses tile gid "
                                f"{tiled_gid} (at column {c}, row {r}), which no tileset "
                                "holds; remove it or add the tileset")
            kind, heights = _tile_kind(path, tmx, gid, flags_of.get(gid), th, ts)
            feature = tile_feature(f"tile {tiled_gid - ts.firstgid} of tileset {ts.name}",
                                   ts.file, _tile_properties(tmx, gid), flags_of.get(gid), tw, th)
            if feature is not None:
                feature_of[gid] = feature
            mask_of[gid] = _MASK_OF_KIND[kind]
            if heights is not None:
                heights_of[gid] = heights

    # The cells: each layer's pytmx gids, and the strongest kind in each cell over all layers.
    cells = cols * rows
    layers_by_id = {}
    strong = []  # (strength mask of each cell, pytmx gids) of the layers with collision tiles
    for layer, data in zip(tile_layers, info.layers):
        gids = list(map(number.__getitem__, data.gids))
        layers_by_id[int(getattr(layer, "id", 0) or 0)] = gids
        # a door layer's cells are its door's (game.sim.living), not the grid's
        if "door" not in layer.properties and any(mask_of[number[raw]] for raw in data.used):
            strong.append((_cell_masks(data, gids, number, mask_of), gids))
    masks = bytes(cells)
    if len(strong) == 1:
        masks = strong[0][0]
    elif strong:
        either = 0
        for layer_masks, _ in strong:
            either |= int.from_bytes(layer_masks, "little")
        masks = either.to_bytes(cells, "little")
    kinds = masks.translate(_KIND_OF_MASK)
    slopes: dict[int, tuple[float, float]] = {}
    if SLOPE in kinds:  # a slope cell's heights come from the first layer with a slope there
        slope = _MASK_OF_KIND[SLOPE]
        for layer_masks, gids in strong:
            i = layer_masks.find(slope)
            while i >= 0:
                if kinds[i] == SLOPE and i not in slopes:
                    slopes[i] = heights_of[gids[i]]
                i = layer_masks.find(slope, i + 1)
    grid = TileGrid(cols, rows, tw, th, kinds, slopes)
    return Tiles(grid, tuple(tile_layers), layers_by_id, feature_of, flags_of)


def _cell_masks(data: LayerData, gids: list[int], number: Mapping[int, int],
                mask_of: list[int]) -> bytes:
    """The strength mask of every cell of a layer. When all its gids are below 256 (one small
    tileset, no flips), the low byte of each gid is picked out and translated at once."""
    if isinstance(data.gids, array.array) and max(data.used) < 256:
        table = bytearray(256)
        for raw in data.used:
            table[raw] = mask_of[number[raw]]
        low = data.gids.tobytes()[0 if sys.byteorder == "little" else 3::4]
        return low.translate(table)
    return bytes(map(mask_of.__getitem__, gids))


def _tile_kind(path: Path, tmx, gid: int, flags, th: int,
               ts: Tileset) -> tuple[int, tuple[float, float] | None]:
    """(kind, slope heights) of a pytmx gid, from its tile's custom properties.

    A mistake in the properties is reported in the file where they are edited (``ts.file``: the
    .tsx of an external tileset); one in how the tile is placed, in the map.
    """
    props = _tile_properties(tmx, gid)
    where = f"tile {tmx.tiledgidmap.get(gid, gid) - ts.firstgid} of tileset {ts.name}"
    value = props.get("collision")
    slope_class = any(str(props.get(k) or "").strip().lower() == "slope" for k in ("type", "class"))
    if value is None or value == "":
        if slope_class:
            raise UserError(ts.file, f"{where} has class 'slope' but no collision property; add "
                            "collision = slope with slope_left and slope_right (Tiled does not "
                            "save class members left at their defaults)")
        heights = [k for k in ("slope_left", "slope_right") if k in props]
        if heights:
            raise UserError(ts.file, f"{where} has {' and '.join(heights)} but no collision "
                            "property; add collision = slope (or remove "
                            f"{' and '.join(heights)} to keep it decoration)")
        return EMPTY, None
    if value not in COLLISION_KINDS:
        raise UserError(ts.file, f"{where} has collision={quoted(value)}; use one of: "
                        + ", ".join(COLLISION_KINDS) + " (or remove the property for decoration)")
    kind = COLLISION_KINDS[value]
    if kind != SLOPE:
        return kind, None
    heights = []
    for key in ("slope_left", "slope_right"):
        h = props.get(key)
        if h is None or isinstance(h, bool) or not isinstance(h, (int, float)):
            note = (" (Tiled does not save class members left at their defaults, so set it "
                    "explicitly)" if slope_class and h is None else "")
            raise UserError(ts.file, f"{where} is a slope but has no int property {key}; add "
                            f"{key} (0 to {th}, the floor's height in px at that edge){note}")
        if not 0 <= h <= th or not math.isfinite(h):
            raise UserError(ts.file, f"{where} has {key}={h}, outside the tile; use 0 to {th}")
        heights.append(float(h))
    left, right = heights
    if flags is not None:
        if flags.flipped_vertically or flags.flipped_diagonally:
            raise UserError(path, f"{where} is a slope flipped vertically or rotated; slope tiles "
                            "can only be flipped horizontally")
        if flags.flipped_horizontally:
            left, right = right, left
    return SLOPE, (left, right)


def _tile_properties(tmx, gid: int) -> dict:
    """A tile's properties; pytmx may not copy them to every flipped variant of a gid."""
    props = tmx.get_tile_properties_by_gid(gid)
    if props and "collision" in props:
        return props
    tiled_gid = tmx.tiledgidmap.get(gid)
    for other, _flags in tmx.gidmap.get(tiled_gid, ()):
        p = tmx.tile_properties.get(other)
        if p:
            return p
    return props or {}


def draw_layers(root: ET.Element, by_id: Mapping[int, Sequence[int]], cols: int):
    """Tile layers in file order, with group visibility, opacity and offsets folded in; those
    after the first object layer are marked ``in_front``."""
    seen_objects = False

    def walk(el: ET.Element, visible: bool, opacity: float, ox: float, oy: float):
        nonlocal seen_objects
        for child in el:
            if child.tag == "objectgroup":
                seen_objects = True
            if child.tag not in ("layer", "group"):
                continue
            vis = visible and child.get("visible", "1") != "0"
            op = opacity * float(child.get("opacity", 1))
            dx, dy = ox + float(child.get("offsetx", 0)), oy + float(child.get("offsety", 0))
            if child.tag == "group":
                yield from walk(child, vis, op, dx, dy)
                continue
            gids = by_id.get(int(child.get("id", 0)))
            if gids is None:
                continue
            door = raw_properties(child).get("door")
            yield TileLayer(child.get("name", ""), vis, op, (dx, dy),
                            tuple(tuple(gids[i:i + cols]) for i in range(0, len(gids), cols)),
                            seen_objects, door[1] if door else None)
    return walk(root, True, 1.0, 0.0, 0.0)


def tile_images(tmx, flags_of: Mapping[int, Any], info: MapInfo) -> dict[int, TileImage]:
    out = {}
    for gid, loaded in enumerate(tmx.images):
        if not loaded:
            continue
        source, rect, _ = loaded
        if rect:  # cut from a sheet: where Tiled cuts it, not where pytmx does
            tiled_gid = tmx.tiledgidmap.get(gid, gid)
            ts = info.tileset_of(tiled_gid)
            if ts is not None and ts.count and ts.holds(tiled_gid - ts.firstgid):
                rect = ts.rect(tiled_gid - ts.firstgid)
        flags = flags_of.get(gid)
        out[gid] = TileImage(source, tuple(rect) if rect else None,
                             bool(flags and flags.flipped_horizontally),
                             bool(flags and flags.flipped_vertically),
                             bool(flags and flags.flipped_diagonally))
    return out


def colour(value: str | None) -> tuple[int, int, int] | None:
    if not value:
        return None
    v = value.lstrip("#")
    if len(v) == 8:  # Tiled writes #AARRGGBB
        v = v[2:]
    try:
        return int(v[0:2], 16), int(v[2:4], 16), int(v[4:6], 16)
    except ValueError:
        return None
