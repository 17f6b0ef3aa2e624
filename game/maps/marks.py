"""Running the conventions (``game.maps.conventions``) over one map: which tiles, layers and
objects collide, in the order the conventions' module lists, with a note for each guess. Apart
from the conventions themselves because this is what changes when the order or the guesses do;
each convention stays a small function there."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from game.errors import UserError, quoted
from game.maps.conventions import (COLLISION_WORDS, DECLARED, LAYER_NAME, LAYER_PROPERTY,
                                   TILE_PROPERTY, TILE_SHAPE, Declared, collision_object,
                                   is_start_like, layer_name, layer_property, option_hint,
                                   scenery, tile_property, tile_shapes, words_of)
from game.maps.grid import EMPTY, ONE_WAY, SOLID
from game.maps.model import MapModel, MapObject, ObjectLayer, TileLayer
from game.maps.objects import GAME_CLASSES  # the game's own objects never collide as walls
from game.maps.shapes import Shape, fit_into, outline, rect_shape, untangled


@dataclass(frozen=True)
class TileMark:
    """How one placed tile collides: ``kind`` over its whole picture, or its ``shapes``."""

    kind: int
    source: int
    shapes: tuple[Shape, ...] | None = None  # in px within the tile, flips applied
    heights: tuple[float, float] | None = None  # a slope's, by the game's own property
    by_class: bool = False  # made by the tile's class (Platform, Slope...), not a property


# How a tile layer collides: the marks of its tiles to use (None: none), and the mark of the
# tiles without one of their own (None: they do not collide). A layer left out is None.
LayerMode = tuple[Mapping[int, TileMark] | None, TileMark | None]


@dataclass
class Marks:
    """What the conventions found, for ``game.maps.collision`` to build the grid from."""

    native: bool
    tiles: dict[int, TileMark] = field(default_factory=dict)  # placed gid -> mark
    layers: list[LayerMode | None] = field(default_factory=list)  # per tile layer, file order
    objects: list[tuple[Shape, int, str]] = field(default_factory=list)  # shape, kind, label
    notes: list[str] = field(default_factory=list)
    one_way_objects: set[int] = field(default_factory=set)  # ids: not moving platforms
    collision_objects: set[int] = field(default_factory=set)  # ids of the objects read as walls
    open_space: dict[int, set[int]] = field(default_factory=dict)  # layer -> gids taken as air


# --- running them ------------------------------------------------------------------------------

@dataclass(frozen=True)
class LayerFacts:
    """What the conventions look at in one tile layer."""

    name: str
    properties: Mapping
    filled: int  # cells with a tile
    cells: int
    opaque: bool  # visible and at full opacity
    common: tuple = ()  # a layer filling every cell: its most common (gid, count), most first
    visible: bool = True
    gids: Any = ()  # its cells, row by row (the model's TileLayer.cells)


def ground_layer(layers: list[LayerFacts]) -> int | None:
    """The last resort, on a map that marks no collision and says nowhere where the player
    starts (so that otherwise there is nowhere to stand): the tile layer most likely to be the
    ground. That is the opaque, visible layer with the most tiles, not filling every cell and not
    named like scenery (``background``, ``sky``, ``details`` ...); failing that, the same drawn
    see-through (ponytiled's demo draws its ``land`` at 80 %: a name saying scenery, ``water``,
    says more than a layer's opacity); then one named like scenery; then a layer filling every
    cell (a picture of the level: see :func:`open_space`). Its index, or None."""
    for full_ok, named_ok, opaque in ((False, True, True), (False, True, False),
                                      (False, False, True), (True, True, True),
                                      (True, False, True)):
        best = [(f.filled, i) for i, f in enumerate(layers)
                if (f.opaque or (not opaque and f.visible)) and f.filled
                and (full_ok or f.filled < f.cells) and not (named_ok and scenery(f.name))]
        if best:
            return max(best)[1]
    return None


OPEN_SHARE = 0.15  # in a layer filling every cell, a tile this common is taken as open space


def open_space(facts: LayerFacts) -> set[int]:
    """A ground layer that fills every cell is a picture of the whole level (maps converted from
    images, as melonJS's jamesbowman examples): its sky and backdrop are tiles too. The tiles
    covering at least OPEN_SHARE of its cells are taken as open space."""
    return {gid for gid, count in facts.common if count >= OPEN_SHARE * facts.cells}


def _open_full_layers(path, layers: list[LayerFacts], marks: Marks) -> None:
    for i, (facts, mode) in enumerate(zip(layers, marks.layers)):
        if mode is not None and mode[0] is None and facts.common:
            air = open_space(facts)
            if air:
                marks.open_space[i] = air
                tiles = "tiles are" if len(air) > 1 else "tile is"
                marks.notes.append(f"{path}: tile layer {facts.name!r} fills every cell, so its "
                                   f"{len(air)} most common {tiles} taken as open space (sky), "
                                   "the rest as solid; mark collision in Tiled, or say it with "
                                   "--solid-layer, to choose")


def read_marks(model: MapModel, layers: list[LayerFacts], tile_marks: dict[int, TileMark],
               native: bool, tile_of, declared: Declared, has_start: bool) -> Marks:
    """Decide, for a map not marked with the game's own property, which conventions make its
    collision (see the module's docstring). ``layers`` are the tile layers' facts in file order;
    ``tile_marks`` the placed tiles' marks by :func:`tile_property` and :func:`tile_shapes`;
    ``tile_of(gid)`` a tile object's tile's mark (by its properties only)."""
    path = model.path
    marks = Marks(native, dict(tile_marks))
    own = marks.tiles
    if native:  # ``layers`` is not needed
        marks.layers = [(own, None)] * len(model.tile_layers)
        return marks
    if declared.collision:
        return _declared(model, layers, tile_marks, declared, marks)
    by_property = [layer_property(f.properties) for f in layers]
    said = []
    marked = any(m.kind != EMPTY for m in own.values()) or any(k in (SOLID, ONE_WAY)
                                                                 for k in by_property)
    if marked:
        marks.layers = [None if k == EMPTY else (None, TileMark(k, LAYER_PROPERTY))
                        if k is not None else (own, None) for k in by_property]
        # A layer named like ground collides whole, its tiles' own marks refining it: Python
        # Arcade's platforms layer (tiles' shapes only refine their hitboxes), Flame Leap's
        # Ground layer (its tiles' classes say Platform, Slope, Hazard). Tiles marked by a bool
        # property (Phaser's way) mark the layer's solid ones themselves.
        by_prop = any(m.source == TILE_PROPERTY and not m.by_class for m in own.values())
        grounds = [i for i, (f, m) in enumerate(zip(layers, marks.layers))
                   if not by_prop and m == (own, None) and layer_name(f.name) is not None]
        for i in grounds:
            marks.layers[i] = (own, TileMark(layer_name(layers[i].name), LAYER_NAME))
        if grounds:
            said.append("the name of tile layer" + ("s " if len(grounds) > 1 else " ")
                        + ", ".join(repr(layers[i].name) for i in grounds)
                        + " (its tiles without a mark of their own)")
        used = {m.source for m in own.values() if m.kind != EMPTY}
        if TILE_PROPERTY in used:
            said.append("tile properties (collides, solid, ...)")
        if TILE_SHAPE in used:
            said.append("the tiles' collision shapes (Tiled's Tile Collision Editor)")
        named = [f.name for f, k in zip(layers, by_property) if k in (SOLID, ONE_WAY)]
        if named:
            said.append("the property of tile layer" + ("s " if len(named) > 1 else " ")
                        + ", ".join(repr(n) for n in named))
    else:
        by_name = [None if k == EMPTY else layer_name(f.name) for f, k in zip(layers, by_property)]
        looks = _only_looks_like_ground(model, layers, by_name)
        if looks:
            by_name = [None if i in looks else k for i, k in enumerate(by_name)]
            named = ", ".join(dict.fromkeys(repr(layers[i].name) for i in looks))
            many = len(looks) > 1
            marks.notes.append(f"{path}: tile layer{'s' if many else ''} {named} only "
                               f"look{'' if many else 's'} like ground: the map has a layer "
                               "named for collision, so that is its collision (to say "
                               f"otherwise, run with --solid-layer {quoted(layers[looks[0]].name)}"
                               ")")
        if any(by_name):
            marks.layers = [(None, TileMark(k, LAYER_NAME)) if k else None for k in by_name]
            named = [f.name for f, k in zip(layers, by_name) if k]
            said.append("the name of tile layer" + ("s " if len(named) > 1 else " ")
                        + ", ".join(repr(n) for n in named))
        elif EMPTY in by_property:  # Flixel: every layer without nocollide collides
            marks.layers = [None if k == EMPTY else (None, TileMark(SOLID, LAYER_PROPERTY))
                            for k in by_property]
            said.append("Flixel's convention (every tile layer without 'nocollide' collides)")
        else:
            marks.layers = [None] * len(layers)
    _read_objects(model, marks, tile_of)
    _open_full_layers(path, layers, marks)
    guess = ground_layer(layers)
    if not said and not marks.objects and not has_start:
        if guess is not None:
            marks.layers[guess] = (None, TileMark(SOLID, LAYER_NAME))
            marks.notes.append(f"{path}: no collision marks and no start object, so the tile layer "
                               f"{layers[guess].name!r} (the layer with the most tiles, not "
                               "named like scenery where one is not) is taken as the ground; to "
                               f"say which layer is, {option_hint(layers[guess].name)}")
            _open_full_layers(path, layers, marks)
            return marks
    if marks.objects:
        said.append(f"{len(marks.objects)} collision object{'s' if len(marks.objects) > 1 else ''}"
                    " (rectangles exact; polygons and polylines cell by cell: see docs/levels.md)")
    if said:
        marks.notes.append(f"{path}: collision read from " + "; ".join(said) + " (the map has no "
                           "tile property 'collision'; give tiles that property, or say it "
                           "with --solid-layer or --solid-property, to decide yourself)")
    else:
        hint = option_hint(layers[guess].name if guess is not None else None)
        marks.notes.append(f"{path}: no collision marks found, so nothing is solid; to say "
                           f"which tile layer is the ground, {hint} (or in Tiled give solid "
                           "tiles the bool property 'collides')")
    return marks


def _only_looks_like_ground(model: MapModel, layers: list[LayerFacts],
                            by_name: list[int | None]) -> list[int]:
    """The tile layers whose names say only what their tiles look like (``forest-ground``,
    ``Terrain``: no word of :data:`COLLISION_WORDS`, no platform or one-way word), on a map with
    a layer named for collision outright (``collision``, ``Solid``, ``geom``: an object layer
    with objects, or a tile layer with tiles) lying over at least :data:`REDRAWN_SHARE` of their
    tiles: its author drew the collision there, and the ground-looking layers are its art
    (tilnewman/platformer's ``forest-ground`` holds trees and grass tufts above its
    ``collision`` rectangles). Their indexes."""
    def outright(name: str) -> bool:
        return any(w in COLLISION_WORDS for w in words_of(name))
    explicit = any(outright(f.name) for f, k in zip(layers, by_name)
                   if k is not None and f.filled) or any(
        isinstance(la, ObjectLayer) and la.objects and outright(la.name) for la in model.layers)
    if not explicit:
        return []
    plain = ("platform", "platforms")
    looks = [i for i, (f, k) in enumerate(zip(layers, by_name))
             if k == SOLID and not outright(f.name) and not any(w in plain
                                                               for w in words_of(f.name))]
    # Only where the collision layers lie over the ground-looking tiles (the author redrew the
    # ground there); a few extra blockers beside a real 'Ground' layer leave it the ground.
    under = _cells_under(model, [la for la in model.layers if la.name and outright(la.name)])
    filled = [{j for j, gid in enumerate(layers[i].gids) if gid} for i in looks]
    total = sum(len(cells) for cells in filled)
    covered = sum(len(cells & under) for cells in filled)
    return looks if total and covered >= REDRAWN_SHARE * total else []


REDRAWN_SHARE = 1 / 3  # of the ground-looking tiles under the collision layers: ground redrawn


def _cells_under(model: MapModel, named: list) -> set[int]:
    """The cells (row * cols + col) the collision layers ``named`` cover: a tile layer's
    tiles, an object layer's objects' boxes."""
    cols, rows, tw, th = model.cols, model.rows, model.tile_w, model.tile_h
    cells: set[int] = set()
    for la in named:
        if isinstance(la, ObjectLayer):
            for o in la.objects:
                shape = outline(o)
                if shape is None:
                    continue
                x0, y0, x1, y1 = shape.bounds()
                for r in range(max(0, math.floor(y0 / th)), min(rows, math.ceil(y1 / th))):
                    cells.update(r * cols + c for c in range(max(0, math.floor(x0 / tw)),
                                                             min(cols, math.ceil(x1 / tw))))
        elif isinstance(la, TileLayer):
            cells.update(j for j, gid in enumerate(la.cells) if gid)
    return cells


def _declared(model: MapModel, layers: list[LayerFacts], tile_marks: dict[int, TileMark],
              declared: Declared, marks: Marks) -> Marks:
    """The collision the author declared, alone: the named tile layers collide whole (their
    tiles' collision shapes refining them), the named object layers' objects are solid, and the
    tiles with the named property."""
    path = model.path
    names = {f.name for f in layers} | {la.name for la in model.layers
                                        if isinstance(la, ObjectLayer)}
    for field_name in ("solid_layers", "one_way_layers"):
        for name in getattr(declared, field_name):
            if name not in names:
                known = ", ".join(sorted(repr(n) for n in names)) or "none"
                raise UserError(path, f"{declared.said.get(field_name, field_name)} names layer "
                                f"{quoted(name)}, which the map does not have (its layers: "
                                f"{known})")
    marks.tiles = {g: m for g, m in tile_marks.items() if m.source == DECLARED}
    refine = {g: m for g, m in tile_marks.items() if m.source == TILE_SHAPE}
    inside = {**refine, **marks.tiles}  # in a declared layer, the tiles' shapes refine it
    marks.layers = []
    for f in layers:
        if f.name in declared.solid_layers:
            marks.layers.append((inside, TileMark(SOLID, DECLARED)))
        elif f.name in declared.one_way_layers:
            marks.layers.append((inside, TileMark(ONE_WAY, DECLARED)))
        else:
            marks.layers.append((marks.tiles, None) if marks.tiles else None)
    for layer in model.layers:
        if isinstance(layer, ObjectLayer) and (layer.name in declared.solid_layers
                                              or layer.name in declared.one_way_layers):
            kind = SOLID if layer.name in declared.solid_layers else ONE_WAY
            for o in layer.objects:
                if is_start_like(o):
                    continue
                shape = outline(o)
                if shape is not None:
                    marks.objects.append((shape, kind, _label(o)))
                    marks.collision_objects.add(o.id)
                    if kind == ONE_WAY:
                        marks.one_way_objects.add(o.id)
    said = [f"{', '.join(repr(n) for n in getattr(declared, k))} "
            f"({declared.said.get(k, k)})" for k in ("solid_layers", "one_way_layers")
            if getattr(declared, k)]
    said += [f"tiles with {getattr(declared, k)} ({declared.said.get(k, k)})"
             for k in ("solid_property", "one_way_property") if getattr(declared, k)]
    marks.notes.append(f"{path}: collision as declared: " + "; ".join(said))
    return marks


def tile_object(o: MapObject, box: Shape, tile_of) -> tuple[int, Shape] | None:
    """A tile object (Insert Tile) collides as its tile's properties mark it (pytmx's test
    track places its ``block``/``slope`` tiles this way): (kind, shape in the map) or None. Its
    tile's collision shapes are not read: on a tile object they are a sprite's hitbox."""
    found = tile_of(o.gid)
    if found is None:
        return None
    mark, size, fit = found
    x0, y0, x1, y1 = box.bounds()
    if o.rotation or (mark.shapes is None and not fit):
        return mark.kind, box  # turned, or the whole picture filling the object
    sx, sy, dx, dy = fit_into(size, (x1 - x0, y1 - y0), fit)
    shape = mark.shapes[0] if mark.shapes is not None else rect_shape(0, 0, *size)
    return mark.kind, Shape(tuple((x0 + dx + px * sx, y0 + dy + py * sy)
                                  for px, py in shape.points), shape.closed)


def _label(o: MapObject) -> str:
    return f"object {o.name} (id {o.id})" if o.name else f"object (id {o.id})"


def _read_objects(model: MapModel, marks: Marks, tile_of) -> None:
    for layer in model.layers:
        if not isinstance(layer, ObjectLayer):
            continue
        for o in layer.objects:
            if o.kind in GAME_CLASSES and o.kind != "platform":
                continue
            kind = collision_object(layer.name, o)
            shape = outline(o)
            if kind is None and shape is not None and o.gid and not is_start_like(o):
                found = tile_object(o, shape, tile_of)
                if found is not None:
                    kind, shape = found
            if kind is None or kind == EMPTY or (kind == ONE_WAY and "path" in o.properties):
                continue  # a platform with a path is the game's moving platform
            if shape is None:
                continue
            shape, tangled = untangled(shape)
            if tangled:
                marks.notes.append(f"{model.path}: the collision polygon of {_label(o)} crosses "
                                   "itself, so it is read as the outline around it (redraw it so "
                                   "that its sides do not cross)")
            if kind == ONE_WAY:
                marks.one_way_objects.add(o.id)
            marks.objects.append((shape, kind, _label(o)))
            marks.collision_objects.add(o.id)
