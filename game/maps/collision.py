"""The collision grid from the map's model: what each placed tile is (the game's own ``collision``
property, or another engine's marks by ``game.maps.conventions``), what it does beyond blocking
(``game.maps.tiles``), and the :class:`~game.maps.grid.TileGrid` every resolver reads: the
strongest kind of each cell over all layers.

A map marked the game's way, every tile the size of a cell, is built a whole layer at a time.
Any other map has each placed tile's mark stamped on the cells its picture covers (Tiled draws a
tile bottom-left on its cell), its shapes snapped to the grid within a pixel
(``game.maps.shapes.SNAP_PX``) and cut to what the picture covers, then the collision objects.
"""

from __future__ import annotations

import array
import math
import sys
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from game.errors import UserError, quoted
from game.maps.conventions import (DECLARED, NATIVE, OBJECT, TILE_PROPERTY, TILE_SHAPE,
                                   Declared, declared_tile, ladder_name, ladder_tile,
                                   slope_property, tile_property, tile_shapes)
from game.maps.grid import EMPTY, KIND_STRENGTH, ONE_WAY, SLOPE, SOLID, TileGrid, with_ladders
from game.maps.limits import MAX_SHAPE_CELLS
from game.maps.marks import LayerFacts, Marks, TileMark, read_marks
from game.maps.model import FLIP_D, FLIP_H, FLIP_V, FLIPS, GID_MASK, HEX_120, MapModel, TileLayer
from game.maps.shapes import Shape, cell_kind, flipped, rect_shape, snapped
from game.maps.tiles import FeatureError, tile_feature
from game.maps.tilesets import Tileset

COLLISION_KINDS = {"solid": SOLID, "one_way": ONE_WAY, "slope": SLOPE}
LADDER = "ladder"  # the game's own collision value for a ladder tile (not a kind: TileGrid.ladders)
# A kind's strength as a mask of that many low bits: the "or" of two masks is the mask of the
# stronger kind, so a cell's kind over all layers comes from or-ing whole layers at once.
_MASK_OF_KIND = {kind: (1 << strength) - 1 for kind, strength in KIND_STRENGTH.items()}
_KIND_OF_MASK = bytes(next((k for k, m in _MASK_OF_KIND.items() if m == i), 0)
                      for i in range(256))  # a bytes.translate table


@dataclass(frozen=True)
class Collision:
    """What the tiles make of a map: the grid, and what the later stages and the view need."""

    grid: TileGrid
    marks: Marks
    feature_of: dict[int, tuple] = field(default_factory=dict)  # gid -> (hazard, friction, water)
    sources: bytes = b""  # per cell: what made it collide (conventions.SOURCE_NAMES)


def is_native(model: MapModel) -> bool:
    """Is the map marked the game's way: a tile with the game's own ``collision`` property?"""
    return any(isinstance(t.properties.get("collision"), str)
               and (t.properties["collision"] in COLLISION_KINDS
                    or t.properties["collision"] == LADDER)
               for ts in model.tilesets for t in ts.tiles.values())


def build(model: MapModel, declared: Declared, has_start: bool) -> Collision:
    """The grid of the map (see the module's docstring). ``has_start``: the map says where the
    player starts (else, with no mark at all, its ground layer is guessed)."""
    path, tw, th = model.path, model.tile_w, model.tile_h
    native = is_native(model)
    hexagonal = model.orientation.kind == "hexagonal"
    # Another engine's ladder layer (Arcade's 'Ladders') is climbed, never collided with.
    ladder_layers = [] if native else [la for la in model.tile_layers if ladder_name(la.name)]
    layers = [la for la in model.tile_layers if la not in ladder_layers]
    ladder_gids: set[int] = set()
    mask_of: dict[int, int] = {}  # placed gid -> strength mask
    heights_of: dict[int, tuple[float, float]] = {}
    feature_of: dict[int, tuple] = {}
    tile_marks: dict[int, TileMark] = {}
    sizes: dict[int, tuple[int, int]] = {}  # placed gid -> its picture's size, if not a cell's
    ignored: dict[str, dict] = {}  # this game's tile properties another engine uses otherwise
    odd_sizes: dict[str, tuple[int, int]] = {}
    for layer in layers:
        for raw in layer.used:
            if not raw or raw in mask_of:
                continue
            gid, flags = raw & GID_MASK, raw & FLIPS
            if not hexagonal:
                flags &= ~HEX_120
            found = model.tile_of(gid)
            if found is None:
                r, c = divmod(layer.cells.index(raw), model.cols)
                raise UserError(path, f"tile layer {quoted(layer.name)} uses tile gid {gid} (at "
                                f"column {c}, row {r}), which no tileset holds; remove it or "
                                "add the tileset")
            ts, tile_id = found
            tile = ts.tiles.get(tile_id)
            props = tile.properties if tile is not None else {}
            kind_name = tile.kind if tile is not None else ""
            if ladder_tile(props, kind_name, native):
                ladder_gids.add(raw)  # climbed, not collided with
                mask_of[raw] = 0
                continue
            kind, heights = _tile_kind(path, props, kind_name, flags, th, ts, tile_id, native)
            try:
                feature = tile_feature(ts.label(tile_id), ts.file, props, kind_name,
                                       tile.shapes if tile is not None else (), flags, tw, th)
            except FeatureError as exc:
                if native:
                    raise exc.error from None
                feature = None  # another engine's 'friction' or 'water' means something else
                ignored.setdefault(exc.key, {})[ts.name] = None
            if feature is not None:
                feature_of[raw] = feature
            mask_of[raw] = _MASK_OF_KIND[kind]
            if heights is not None:
                heights_of[raw] = heights
            size = ts.size_of(tile_id)
            if flags & FLIP_D:
                size = size[::-1]
            if size != (tw, th):
                sizes[raw] = size
                if ts.count is not None and not ts.at_grid:
                    odd_sizes.setdefault(ts.name, ts.tile_size)
            if native:
                mark = TileMark(kind, NATIVE, heights=heights) if kind != EMPTY else None
            elif declared.collision:
                mark = _declared_mark(ts, tile_id, props, flags, feature, declared)
            else:
                mark = _foreign_mark(ts, tile_id, props, kind_name, flags, feature)
            if mark is not None:
                tile_marks[raw] = mark

    def tile_of(raw: int):
        """A tile object's tile: its mark by its properties (never its shapes: a sprite's
        hitbox) and its picture's size, or None."""
        found = model.tile_of(raw)
        if native or found is None:
            return None
        ts, tile_id = found
        tile = ts.tiles.get(tile_id)
        if tile is None:
            return None
        mark = _foreign_mark(ts, tile_id, tile.properties, tile.kind, raw & FLIPS, None,
                             shapes=False, cell=False)
        if mark is None or mark.kind == EMPTY:
            return None
        if ts.at_grid and mark.shapes is not None:  # back from the cell's box to the tile's own
            sx, sy, dx, dy = ts.drawn(tile_id)
            mark = replace(mark, shapes=tuple(Shape(tuple(((x - dx) / sx, (y - dy) / sy)
                                                          for x, y in s.points), s.closed)
                                              for s in mark.shapes))
        return mark, ts.own_size_of(tile_id), ts.fit

    facts = [] if native else [_facts(layer) for layer in layers]  # the game's own: unasked
    marks = read_marks(model, facts, tile_marks, native, tile_of, declared, has_start)
    marks.notes.extend(f"{path}: tiles of tileset {', '.join(names)} have a property {key!r} "
                       "that is not this game's (the map is not marked this game's way), so it is "
                       "left out" for key, names in ignored.items())
    marks.notes.extend(f"{path}: tileset {quoted(name)} has {w}x{h} px tiles on a map of "
                       f"{tw}x{th} px tiles: Tiled draws each at its cell's bottom-left corner, "
                       "and it collides over the cells it covers, rounded out to whole cells "
                       "(make the tile size the map's in Tiled's Tileset Properties if that is "
                       "not what you meant)" for name, (w, h) in odd_sizes.items())
    if native and not sizes:
        grid = _native_grid(model, layers, mask_of, heights_of)
        sources = grid.kinds.translate(bytes([0] + [NATIVE] * 255))
    else:
        grid, sources = _stamped_grid(model, layers, marks, sizes)
    ladders = _ladder_cells(layers, ladder_gids, ladder_layers)
    if ladders:
        grid = with_ladders(grid, ladders)
        if not native:
            said = [f"tile layer {quoted(la.name)}" for la in ladder_layers] + (
                ["tiles marked as ladders"] if ladder_gids else [])
            marks.notes.append(f"{path}: {len(ladders)} ladder cells read from "
                               f"{' and '.join(said)}: climbed with up and down, the top of each "
                               "ladder a floor from above (the game's own way: collision = "
                               "ladder)")
    return Collision(grid, marks, feature_of, sources)


def _ladder_cells(layers, ladder_gids: set[int], ladder_layers) -> frozenset[int]:
    """The cells of the map's ladders: where a ladder tile is placed (in a layer that is not a
    door's), and every tile of another engine's ladder layer."""
    cells: set[int] = set()
    for layer in layers:
        if ladder_gids and "door" not in layer.properties and ladder_gids & set(layer.used):
            cells.update(i for i, g in enumerate(layer.cells) if g in ladder_gids)
    for layer in ladder_layers:
        cells.update(i for i, g in enumerate(layer.cells) if g)
    return frozenset(cells)


def _facts(layer: TileLayer) -> LayerFacts:
    """What the conventions look at in a tile layer of another engine's map (its tiles counted
    only where they may matter: a layer that fills every cell)."""
    cells = layer.cells
    empty = cells.count(0)
    look = layer.look
    common = ()
    if not empty and len(cells):
        common = tuple(Counter(cells).most_common(8))
    return LayerFacts(layer.name, layer.properties, len(cells) - empty, len(cells),
                      look.visible and look.opacity >= 1, common, look.visible, cells)


def _foreign_mark(ts: Tileset, tile_id: int, props: Mapping, kind: str, flags: int, feature,
                  shapes: bool = True, cell: bool = True) -> TileMark | None:
    """A placed tile's mark in a map without the game's property: a tile property (its
    collision shapes, if it has some, refining it), else its collision shapes (not a hazard's:
    those say where it hurts, game.maps.tiles). ``shapes=False``: its shapes are not read
    (a tile object's). ``cell``: its shapes where its picture is drawn in a cell."""
    size = ts.size_of(tile_id) if cell else ts.own_size_of(tile_id)
    own = (ts.shapes_in_cell(tile_id) if cell else ts.tiles[tile_id].shapes) if shapes else ()
    if feature is not None and feature[0] is not None:
        own = ()  # a hazard's shape says where it hurts
    drawn = slope_property(props, kind, size)
    source, by_class = TILE_PROPERTY, "slope" not in props
    found = None
    if drawn is None:
        found = tile_property(props, kind)
        if found is not None and found[0] == EMPTY:
            return TileMark(EMPTY, TILE_PROPERTY)
        drawn = tile_shapes(own)
        if found is None:
            source = TILE_SHAPE
    if found is None and drawn is None:
        return None
    if feature is not None and feature[0] is not None and found is None:
        return None
    if drawn is not None and flags & (FLIP_H | FLIP_V | FLIP_D):
        drawn = tuple(flipped(s, size, bool(flags & FLIP_H), bool(flags & FLIP_V),
                              bool(flags & FLIP_D)) for s in drawn)
    kind_found = found[0] if found is not None else SOLID
    return TileMark(kind_found, source, drawn,
                    by_class=(found[1].startswith("class ") if found is not None
                              else by_class and source == TILE_PROPERTY))


def _declared_mark(ts: Tileset, tile_id: int, props: Mapping, flags: int, feature,
                   declared: Declared) -> TileMark | None:
    """A placed tile's mark by what the author declared: the declared property's kind, its
    collision shapes refining it; a tile with shapes and no such property keeps them for a
    declared layer (source TILE_SHAPE)."""
    kind = declared_tile(props, declared)
    own = ts.shapes_in_cell(tile_id)
    if feature is not None and feature[0] is not None:
        own = ()
    if own and flags & (FLIP_H | FLIP_V | FLIP_D):
        size = ts.size_of(tile_id)
        own = tuple(flipped(s, size, bool(flags & FLIP_H), bool(flags & FLIP_V),
                            bool(flags & FLIP_D)) for s in own)
    if kind is not None:
        return TileMark(kind, DECLARED, own or None)
    return TileMark(SOLID, TILE_SHAPE, own) if own else None


def _tile_kind(path: Path, props: Mapping, kind_name: str, flags: int, th: int, ts: Tileset,
               tile_id: int, native: bool = True) -> tuple[int, tuple[float, float] | None]:
    """(kind, slope heights) of a tile by the game's own ``collision`` property. A tile class
    ``slope`` is the game's own only in a map marked the game's way (``native``): Super Dash's
    Slope tiles, say, carry their heights in properties of their own.

    A mistake in the properties is reported in the file where they are edited (``ts.file``: the
    .tsx of an external tileset); one in how the tile is placed, in the map.
    """
    where = ts.label(tile_id)
    value = props.get("collision")
    if isinstance(value, bool):  # a bool 'collision' is another engine's mark (conventions)
        value = None
    slope_class = kind_name.strip().lower() == "slope"
    if value is None or value == "":
        if slope_class and native:
            raise UserError(ts.file, f"{where} has class 'slope' but no collision property; add "
                            "collision = slope with slope_left and slope_right (Tiled does not "
                            "save class members left at their defaults)")
        heights = [k for k in ("slope_left", "slope_right") if k in props]
        if heights and native:
            raise UserError(ts.file, f"{where} has {' and '.join(heights)} but no collision "
                            "property; add collision = slope (or remove "
                            f"{' and '.join(heights)} to keep it decoration)")
        return EMPTY, None
    if value not in COLLISION_KINDS:
        if not native:
            return EMPTY, None  # another engine's 'collision' of its own words
        raise UserError(ts.file, f"{where} has collision={quoted(value)}; use one of: "
                        + ", ".join((*COLLISION_KINDS, LADDER))
                        + " (or remove the property for decoration)")
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
    if flags & (FLIP_V | FLIP_D):
        raise UserError(path, f"{where} is a slope flipped vertically or rotated; slope tiles "
                        "can only be flipped horizontally")
    if flags & FLIP_H:
        left, right = right, left
    return SLOPE, (left, right)


def _native_grid(model: MapModel, layers, mask_of, heights_of) -> TileGrid:
    """The grid of a map marked with the game's own property, every tile a cell: each cell's
    strongest kind over all layers, or-ing whole layers of strength masks at once."""
    cols, rows, tw, th = model.cols, model.rows, model.tile_w, model.tile_h
    strong = []  # (strength mask of each cell, gids) of the layers with collision tiles
    for layer in layers:
        # a door layer's cells are its door's (game.sim.living), not the grid's
        if "door" not in layer.properties and any(mask_of.get(g, 0) for g in layer.used):
            strong.append((_cell_masks(layer, mask_of), layer.cells))
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
        for layer_masks, cells in strong:
            i = layer_masks.find(slope)
            while i >= 0:
                if kinds[i] == SLOPE and i not in slopes:
                    slopes[i] = heights_of[cells[i]]
                i = layer_masks.find(slope, i + 1)
    return TileGrid(cols, rows, tw, th, kinds, slopes)


def _cell_masks(layer: TileLayer, mask_of: Mapping[int, int]) -> bytes:
    """The strength mask of every cell of a layer. When all its gids are below 256 (one small
    tileset, no flips), the low byte of each gid is picked out and translated at once."""
    if isinstance(layer.cells, array.array) and max(layer.used) < 256:
        table = bytearray(256)
        for raw in layer.used:
            table[raw] = mask_of.get(raw, 0)
        low = layer.cells.tobytes()[0 if sys.byteorder == "little" else 3::4]
        return low.translate(table)
    get = mask_of.get
    return bytes(get(g, 0) for g in layer.cells)


def _stamped_grid(model: MapModel, layers, marks: Marks, sizes):
    """The grid of any other map: each placed tile's mark stamped on the cells its picture
    covers (Tiled draws a tile bottom-left on its cell), then the collision objects; the
    strongest kind wins a cell, the first slope its heights. Returns (grid, sources)."""
    path = model.path
    cols, rows, tw, th = model.cols, model.rows, model.tile_w, model.tile_h
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

    for index, (layer, mode) in enumerate(zip(layers, marks.layers)):
        if mode is None or "door" in layer.properties:
            continue
        own, fill = mode
        open_space = marks.open_space.get(index)
        stamps: dict[int, tuple[list, int]] = {}  # gid -> (its cells, their source)
        for i, gid in enumerate(layer.cells):
            if not gid:
                continue
            found = stamps.get(gid)
            if found is None:
                mark = own.get(gid, fill) if own is not None else fill
                if open_space and gid in open_space:
                    mark = None
                stamp = _stamp(mark, sizes.get(gid, (tw, th)), tw, th)
                found = stamps[gid] = (stamp, mark.source if stamp else 0)
                if any(not exact for *_k, exact in stamp) and mark.shapes is not None:
                    rough[_tile_label(model, gid)] = None
            stamp, source = found
            if stamp:
                r, c = divmod(i, cols)
                for dc, dr, kind, heights, _exact in stamp:
                    put(c + dc, r + dr, kind, heights, source)
    examined = 0
    for shape, kind, label in marks.objects:
        shape = snapped(shape, tw, th)
        x0, y0, x1, y1 = shape.bounds()
        rect = shape.closed and set(shape.points) == {(x0, y0), (x1, y0), (x1, y1),
                                                       (x0, y1)}  # an upright rectangle
        row_range = range(max(math.floor(y0 / th), 0), min(math.ceil(y1 / th), rows))
        col_range = range(max(math.floor(x0 / tw), 0), min(math.ceil(x1 / tw), cols))
        if not rect:  # each cell under it is clipped against every point: counted first
            examined += len(shape.points) * len(row_range) * len(col_range)
            if examined > MAX_SHAPE_CELLS:
                raise UserError(path, f"the map's collision objects other than upright "
                                f"rectangles reach more than {MAX_SHAPE_CELLS:,} cells (each "
                                "counted once per point of its shape), far more than any "
                                "real level; use rectangles, or fewer or smaller shapes")
        for r in row_range:
            for c in col_range:
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
    tile's own cell: its picture hangs from the cell's bottom-left corner, and its shapes are
    snapped to the grid and cut to the cells the picture covers."""
    if mark is None or mark.kind == EMPTY:
        return []
    w, h = size
    if mark.shapes is None and (w, h) == (tw, th):
        return [(0, 0, mark.kind, mark.heights, True)]
    shapes = [snapped(s.moved(0, th - h), tw, th)
              for s in (mark.shapes or (rect_shape(0, 0, w, h),))]
    x0 = max(min(s.bounds()[0] for s in shapes), 0)
    y0 = max(min(s.bounds()[1] for s in shapes), th - h)
    x1 = min(max(s.bounds()[2] for s in shapes), w)
    y1 = min(max(s.bounds()[3] for s in shapes), th)
    out = []
    for dr in range(math.floor(y0 / th), math.ceil(y1 / th)):
        for dc in range(math.floor(x0 / tw), math.ceil(x1 / tw)):
            kind, heights, exact = cell_kind(shapes, dc * tw, dr * th, tw, th)
            if kind != EMPTY:
                if mark.kind == ONE_WAY:
                    kind, heights = ONE_WAY, None
                out.append((dc, dr, kind, heights, exact))
    return out


def _tile_label(model: MapModel, raw: int) -> str:
    found = model.tile_of(raw)
    return found[0].label(found[1]) if found else f"tile gid {raw & GID_MASK}"


__all__ = ["COLLISION_KINDS", "Collision", "build", "is_native", "DECLARED", "Declared"]
