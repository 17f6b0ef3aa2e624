"""Stage 2 of loading: pytmx's map becomes the game's tile data.

The collision grid (a :class:`~game.maps.grid.TileGrid` of tile kinds, the strongest kind of a
cell over all layers), what each placed tile does beyond blocking (``game.maps.tiles``), and,
for the view, the tile layers in file order with the source rectangle of every tile image.
"""

from __future__ import annotations

import array
from collections import Counter
import math
import os
import re
import sys
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, NamedTuple

from game.errors import UserError, quoted
from game.maps.checks import GID_MASK, HEX_120, LayerData, MapInfo
from game.maps.tileset import Tileset
from game.maps.conventions import (NATIVE, OBJECT, TILE_PROPERTY, TILE_SHAPE, LayerFacts, Marks,
                                  TileMark, read_marks, slope_property, tile_property,
                                  tile_shapes)
from game.maps.grid import EMPTY, KIND_STRENGTH, ONE_WAY, SLOPE, SOLID, TileGrid
from game.maps.limits import MAX_SHAPE_CELLS
from game.maps.records import TileImage, TileLayer
from game.maps.safexml import raw_properties
from game.maps.shapes import Shape, cell_kind, flipped, rect_shape
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
    cells: list[list[int]]  # each tile layer's cells (file order): pytmx gids, row by row
    feature_of: dict[int, tuple]  # pytmx gid -> (hazard box, friction, water): game.maps.tiles
    flags_of: dict[int, Any]  # pytmx gid -> its flip flags
    sources: bytes = b""  # per cell: what made it collide (game.maps.conventions.SOURCE_NAMES)
    marks: Marks | None = None


def build_tiles(path: Path, root: ET.Element, tmx, info: MapInfo) -> Tiles:
    """The collision grid and the cells of every tile layer, from pytmx's map, the cells the
    checks decoded (``info``) and the map's conventions (``game.maps.conventions``)."""
    cols, tw, th = tmx.width, tmx.tilewidth, tmx.tileheight
    flags_of = dict(v for v in tmx.imagemap.values() if isinstance(v, tuple))
    tiled_tile_layer = import_pytmx().TiledTileLayer
    tile_layers = [layer for layer in tmx.layers if isinstance(layer, tiled_tile_layer)]
    # Tiled's gid (flip bits and all) -> pytmx's; pytmx gave each its number while parsing.
    hexagonal = info.orientation.kind == "hexagonal"
    number = {raw: _turned_gid(tmx, raw, flags_of, hexagonal)
              if 0 <= raw < 1 << 32 and raw & HEX_120 else tmx.register_gid_check_flags(raw)
              for data in info.layers for raw in data.new}
    native = any(isinstance(p.get("collision"), str) and p["collision"] in COLLISION_KINDS
                 for p in tmx.tile_properties.values())

    # What each placed tile is, worked out once per gid, in the order the gids are first placed
    # (so that a mistake is reported where it first appears, as a walk over the cells would).
    # A kind is kept as its strength mask (see _MASK_OF_KIND) so that layers combine with "or".
    mask_of = [0] * (max(number.values(), default=0) + 1)  # pytmx gid -> strength mask
    heights_of: dict[int, tuple[float, float]] = {}
    feature_of: dict[int, tuple] = {}  # pytmx gid -> (hazard box, friction, water): game.maps.tiles
    tile_marks: dict[int, TileMark] = {}  # by the game's property, or by other conventions
    sizes: dict[int, tuple[int, int]] = {}  # pytmx gid -> its picture's size, if not a cell's
    ignored: dict[str, dict] = {}  # this game's tile properties another engine uses otherwise
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
            flags = flags_of.get(gid)
            kind, heights = _tile_kind(path, tmx, gid, flags, th, ts, native)
            try:
                feature = tile_feature(f"tile {tiled_gid - ts.firstgid} of tileset {ts.name}",
                                       ts.file, _tile_properties(tmx, gid), flags, tw, th)
            except UserError as exc:
                if native:
                    raise
                # another engine's 'friction' or 'water' means something else: left out, said
                feature = None
                key = re.search(r" has (\w+)=", exc.message)
                ignored.setdefault(key.group(1) if key else "?", {})[ts.name] = None
            if feature is not None:
                feature_of[gid] = feature
            mask_of[gid] = _MASK_OF_KIND[kind]
            if heights is not None:
                heights_of[gid] = heights
            size = ts.size_of(tiled_gid - ts.firstgid)
            if flags is not None and flags.flipped_diagonally:
                size = size[::-1]
            if size != (tw, th):
                sizes[gid] = size
            mark = (TileMark(kind, NATIVE, heights=heights) if native else
                    _foreign_mark(tmx, gid, ts, flags, feature))
            if mark is not None and mark.kind != EMPTY:
                tile_marks[gid] = mark

    cells = [list(map(number.__getitem__, data.gids)) for data in info.layers]
    def tile_of(tiled_gid: int):
        """A tile object's tile: its mark by the conventions and its size, or None."""
        ts = info.tileset_of(tiled_gid & GID_MASK)
        if native or ts is None or not ts.holds((tiled_gid & GID_MASK) - ts.firstgid):
            return None
        gid = tmx.register_gid_check_flags(tiled_gid)
        mark = _foreign_mark(tmx, gid, ts, flags_of.get(gid), None)
        if not mark:
            return None
        tile_id = (tiled_gid & GID_MASK) - ts.firstgid
        if ts.at_grid and mark.shapes is not None:  # back from the cell's box to the tile's own
            sx, sy, dx, dy = ts.drawn(tile_id)
            mark = replace(mark, shapes=tuple(Shape(tuple(((x - dx) / sx, (y - dy) / sy)
                                                          for x, y in shape.points), shape.closed)
                                              for shape in mark.shapes))
        return mark, ts.own_size_of(tile_id), ts.fit

    marks = read_marks(path, root, [_facts(layer, gids, native)
                                    for layer, gids in zip(tile_layers, cells)],
                       tile_marks, native, tile_of)
    marks.notes.extend(f"{path}: tiles of tileset {', '.join(names)} have a property {key!r} "
                       "that is not this game's (the map is not marked this game's way), so it is "
                       "left out" for key, names in ignored.items())
    if native and not sizes:
        grid = _native_grid(tmx, info, tile_layers, cells, number, mask_of, heights_of)
        sources = grid.kinds.translate(bytes([0] + [NATIVE] * 255))
    else:
        grid, sources = _stamped_grid(path, tmx, tile_layers, cells, marks, sizes, info)
    return Tiles(grid, tuple(tile_layers), cells, feature_of, flags_of, sources, marks)


class HexTurn(NamedTuple):
    """pytmx's three flip flags and Tiled's fourth, a hexagonal tile's 120-degree turn."""

    flipped_horizontally: bool
    flipped_vertically: bool
    flipped_diagonally: bool
    turned_120: bool = True


def _turned_gid(tmx, raw: int, flags_of: dict, hexagonal: bool) -> int:
    """pytmx's gid for a tile placed with bit 28 set: on a hexagonal map, a gid of its own (the
    tile, its flips and the turn); elsewhere Tiled ignores the bit, and so does the game."""
    base = tmx.register_gid_check_flags(raw & ~HEX_120)
    if not hexagonal or not base:
        return base
    flags = HexTurn(*(flags_of.get(base) or (False, False, False)))
    gid = tmx.register_gid(tmx.tiledgidmap.get(base, base), flags)
    flags_of[gid] = flags
    return gid


def _facts(layer, gids: list[int], native: bool) -> LayerFacts:
    """What the conventions look at in a tile layer (its tiles counted only where they may
    matter: a layer of another engine's map that fills every cell)."""
    empty = gids.count(0)
    opaque = bool(getattr(layer, "visible", True)) and float(getattr(layer, "opacity", 1.0)) >= 1
    common = ()
    if not native and not empty and gids:
        common = tuple(Counter(gids).most_common(8))
    return LayerFacts(layer.name, layer.properties, len(gids) - empty, len(gids), opaque, common)


def _foreign_mark(tmx, gid: int, ts: Tileset, flags, feature) -> TileMark | None:
    """A placed tile's mark in a map without the game's property: a tile property, else its
    collision shapes (not a hazard's: those say where it hurts, game.maps.tiles)."""
    props = _tile_properties(tmx, gid)
    tile_id = tmx.tiledgidmap.get(gid, gid) - ts.firstgid
    shapes = slope_property(props, ts.size_of(tile_id))
    source, by_class = TILE_PROPERTY, "slope" not in props
    if shapes is None:
        found = tile_property(props)
        if found is not None:
            return TileMark(found[0], TILE_PROPERTY, by_class=found[1].startswith("class "))
        shapes, source = tile_shapes(ts.shapes.get(tile_id)), TILE_SHAPE
    if shapes is None or (feature is not None and feature[0] is not None):
        return None
    if flags is not None and (flags.flipped_horizontally or flags.flipped_vertically
                              or flags.flipped_diagonally):
        size = ts.size_of(tile_id)
        shapes = tuple(flipped(s, size, flags.flipped_horizontally, flags.flipped_vertically,
                               flags.flipped_diagonally) for s in shapes)
    return TileMark(SOLID, source, shapes, by_class=by_class and source == TILE_PROPERTY)


def _native_grid(tmx, info: MapInfo, tile_layers, cells, number, mask_of,
                 heights_of) -> TileGrid:
    """The grid of a map marked with the game's own property, every tile a cell: each cell's
    strongest kind over all layers, or-ing whole layers of strength masks at once."""
    cols, rows, tw, th = tmx.width, tmx.height, tmx.tilewidth, tmx.tileheight
    strong = []  # (strength mask of each cell, pytmx gids) of the layers with collision tiles
    for layer, data, gids in zip(tile_layers, info.layers, cells):
        # a door layer's cells are its door's (game.sim.living), not the grid's
        if "door" not in layer.properties and any(mask_of[number[raw]] for raw in data.used):
            strong.append((_cell_masks(data, gids, number, mask_of), gids))
    masks = bytes(cols * rows)
    if len(strong) == 1:
        masks = strong[0][0]
    elif strong:
        either = 0
        for layer_masks, _ in strong:
            either |= int.from_bytes(layer_masks, "little")
        masks = either.to_bytes(cols * rows, "little")
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
    return TileGrid(cols, rows, tw, th, kinds, slopes)


def _stamped_grid(path: Path, tmx, tile_layers, cells, marks: Marks, sizes, info: MapInfo):
    """The grid of any other map: each placed tile's mark stamped on the cells its picture
    covers (Tiled draws a tile bottom-left on its cell), then the collision objects; the
    strongest kind wins a cell, the first slope its heights. Returns (grid, sources)."""
    cols, rows, tw, th = tmx.width, tmx.height, tmx.tilewidth, tmx.tileheight
    kinds, sources = bytearray(cols * rows), bytearray(cols * rows)
    slopes: dict[int, tuple[float, float]] = {}
    rough: dict[str, None] = {}  # what was approximated, for the note

    def put(c: int, r: int, kind: int, heights, source: int) -> None:
        if 0 <= c < cols and 0 <= r < rows:
            i = r * cols + c
            if KIND_STRENGTH[kind] > KIND_STRENGTH[kinds[i]]:
                kinds[i], sources[i] = kind, source
                if kind == SLOPE:
                    slopes[i] = heights

    for index, (layer, mode, gids) in enumerate(zip(tile_layers, marks.layers, cells)):
        if mode is None or "door" in layer.properties:
            continue
        open_space = marks.open_space.get(index)
        stamps: dict[int, tuple[list, int]] = {}  # pytmx gid -> (its cells, their source)
        for i, gid in enumerate(gids):
            if not gid:
                continue
            found = stamps.get(gid)
            if found is None:
                mark = (mode if isinstance(mode, TileMark) else marks.tiles.get(gid, mode[1])
                        if isinstance(mode, tuple) else marks.tiles.get(gid))
                if open_space and gid in open_space:
                    mark = None
                stamp = _stamp(mark, sizes.get(gid, (tw, th)), tw, th)
                found = stamps[gid] = (stamp, mark.source if stamp else 0)
                if any(not exact for *_k, exact in stamp):
                    rough[_tile_label(tmx, gid, info)] = None
            stamp, source = found
            if stamp:
                r, c = divmod(i, cols)
                for dc, dr, kind, heights, _exact in stamp:
                    put(c + dc, r + dr, kind, heights, source)
    examined = 0
    for shape, kind, label in marks.objects:
        x0, y0, x1, y1 = shape.bounds()
        rect = shape.closed and set(shape.points) == {(x0, y0), (x1, y0), (x1, y1),
                                                       (x0, y1)}  # an upright rectangle
        if not rect:  # each cell under it is clipped against every point: counted first
            examined += len(shape.points) * (
                max(min(math.ceil(y1 / th), rows) - max(math.floor(y0 / th), 0), 0)
                * max(min(math.ceil(x1 / tw), cols) - max(math.floor(x0 / tw), 0), 0))
            if examined > MAX_SHAPE_CELLS:
                raise UserError(path, f"the map's collision objects other than upright "
                                f"rectangles reach more than {MAX_SHAPE_CELLS:,} cells (each "
                                "counted once per point of its shape), far more than any "
                                "real level; use rectangles, or fewer or smaller shapes")
        for r in range(max(math.floor(y0 / th), 0), min(math.ceil(y1 / th), rows)):
            for c in range(max(math.floor(x0 / tw), 0), min(math.ceil(x1 / tw), cols)):
                if rect and x0 <= c * tw and (c + 1) * tw <= x1 and y0 <= r * th and (
                        r + 1) * th <= y1:
                    put(c, r, kind, None, OBJECT)  # a cell inside it: no need to clip
                    continue
                got, heights, exact = cell_kind([shape], c * tw, r * th, tw, th)
                if got != EMPTY:
                    if not exact:
                        rough[label] = None
                    put(c, r, ONE_WAY if kind == ONE_WAY else got, heights, OBJECT)
    if rough:
        marks.notes.append(f"{path}: collision shapes only partly covering a cell were "
                           "rounded out to the whole cell (the player stops at the cell, never "
                           "inside the shape): " + ", ".join(list(rough)[:8])
                           + (f" and {len(rough) - 8} more" if len(rough) > 8 else ""))
    return TileGrid(cols, rows, tw, th, bytes(kinds), slopes), bytes(sources)


def _stamp(mark: TileMark | None, size: tuple[int, int], tw: int, th: int) -> list:
    """The cells a placed tile's mark makes collide, as (dc, dr, kind, heights, exact) from the
    tile's own cell: its picture hangs from the cell's bottom-left corner."""
    if mark is None or mark.kind == EMPTY:
        return []
    w, h = size
    if mark.shapes is None and (w, h) == (tw, th):
        return [(0, 0, mark.kind, mark.heights, True)]
    shapes = [s.moved(0, th - h) for s in (mark.shapes or (rect_shape(0, 0, w, h),))]
    x0 = min(s.bounds()[0] for s in shapes)
    y0 = min(s.bounds()[1] for s in shapes)
    x1 = max(s.bounds()[2] for s in shapes)
    y1 = max(s.bounds()[3] for s in shapes)
    out = []
    for dr in range(math.floor(y0 / th), math.ceil(y1 / th)):
        for dc in range(math.floor(x0 / tw), math.ceil(x1 / tw)):
            kind, heights, exact = cell_kind(shapes, dc * tw, dr * th, tw, th)
            if kind != EMPTY:
                if mark.kind == ONE_WAY:
                    kind, heights = ONE_WAY, None
                out.append((dc, dr, kind, heights, exact))
    return out


def _tile_label(tmx, gid: int, info: MapInfo) -> str:
    tiled_gid = tmx.tiledgidmap.get(gid, gid)
    ts = info.tileset_of(tiled_gid)
    return f"tile {tiled_gid - ts.firstgid} of tileset {ts.name}" if ts else f"tile gid {gid}"


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


def _tile_kind(path: Path, tmx, gid: int, flags, th: int, ts: Tileset,
               native: bool = True) -> tuple[int, tuple[float, float] | None]:
    """(kind, slope heights) of a pytmx gid, from its tile's custom properties. A tile class
    ``slope`` is the game's own only in a map marked the game's way (``native``): Super Dash's
    Slope tiles, say, carry their heights in properties of their own.

    A mistake in the properties is reported in the file where they are edited (``ts.file``: the
    .tsx of an external tileset); one in how the tile is placed, in the map.
    """
    props = _tile_properties(tmx, gid)
    where = f"tile {tmx.tiledgidmap.get(gid, gid) - ts.firstgid} of tileset {ts.name}"
    value = props.get("collision")
    if isinstance(value, bool):  # a bool 'collision' is another engine's mark (conventions)
        value = None
    slope_class = any(str(props.get(k) or "").strip().lower() == "slope" for k in ("type", "class"))
    if value is None or value == "":
        if slope_class and native:
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


def draw_layers(root: ET.Element, cells: Sequence[Sequence[int]], cols: int):
    """Tile layers in file order, with group visibility, opacity and offsets folded in; those
    after the first object layer are marked ``in_front``."""
    seen_objects = False
    index = 0  # the tile layer's place in the file (pre-1.2 layers have no id)

    def walk(el: ET.Element, visible: bool, opacity: float, ox: float, oy: float):
        nonlocal seen_objects, index
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
            gids = cells[index]
            index += 1
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
        tiled_gid = tmx.tiledgidmap.get(gid, gid)
        ts = info.tileset_of(tiled_gid)
        if ts is not None and ts.is_missing(tiled_gid - ts.firstgid):
            continue  # never placed (the checks refuse a placed one): nothing to load
        if not os.path.isfile(source):
            continue  # an image layer's missing picture (a note): the layer is drawn empty
        if ts is not None and ts.count is None and tiled_gid - ts.firstgid in ts.subrects:
            rect = ts.subrects[tiled_gid - ts.firstgid]  # pytmx shows the whole image
        if rect:  # cut from a sheet: where Tiled cuts it, not where pytmx does
            tiled_gid = tmx.tiledgidmap.get(gid, gid)
            ts = info.tileset_of(tiled_gid)
            if ts is not None and ts.count and ts.holds(tiled_gid - ts.firstgid):
                rect = ts.rect(tiled_gid - ts.firstgid)
        flags = flags_of.get(gid)
        size = ts.size_of(tiled_gid - ts.firstgid) if ts is not None and ts.at_grid else None
        out[gid] = TileImage(source, tuple(rect) if rect else None,
                             bool(flags and flags.flipped_horizontally),
                             bool(flags and flags.flipped_vertically),
                             bool(flags and flags.flipped_diagonally),
                             size, bool(size and ts.fit))
    tile_flags = import_pytmx().TileFlags
    for gid, flags in flags_of.items():  # the turned tiles the game numbered itself
        if getattr(flags, "turned_120", False) and gid not in out:
            found = tmx.imagemap.get((tmx.tiledgidmap.get(gid), tile_flags(*flags[:3])))
            if found is not None and found[0] in out:
                out[gid] = replace(out[found[0]], turned_120=True)
    return out


def tile_offsets(tmx, info: MapInfo) -> dict[int, tuple[int, int]]:
    """pytmx gid -> its tileset's drawing offset, for the tiles of tilesets that have one (a
    tile drawn at the grid's size moves by it scaled as its picture is, as in Tiled)."""
    out = {}
    # every gid pytmx numbered, the game's own turned ones too (game.maps.tilelayers._turned_gid)
    for gid, tiled_gid in tmx.tiledgidmap.items():
        ts = info.tileset_of(tiled_gid) if gid else None
        if ts is not None and ts.offset != (0, 0):
            sx, sy, _, _ = ts.drawn(tiled_gid - ts.firstgid) if ts.at_grid else (1, 1, 0, 0)
            out[gid] = (round(ts.offset[0] * sx), round(ts.offset[1] * sy))
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
