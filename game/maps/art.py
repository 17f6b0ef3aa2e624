"""What only the view needs of a level (:class:`MapView`), made from the map's model: the tile
layers' cells numbered by picture, each picture's file, rectangle and flips, and what a map
shows beyond its cells: tile objects, image layers, tile animations, tilesets' transparent
colours, each layer's parallax and tint, its background and backdrop.

No pygame here: pictures are named by :class:`TileImage` and the view cuts them. Everything is
as Tiled draws it:

* layers in file order; a group's opacity, offset, visibility, tint (multiplied) and parallax
  factor (multiplied) apply to everything inside it (``game.maps.model.Look``);
* a tile object is its tile's picture stretched to the object's size, its bottom-left corner at
  the object's position (a tileset's own object alignment was turned into that position when
  the map was read: ``game.maps.document``; moved by its tileset's drawing offset, stretched
  alike), turned ``rotation`` degrees clockwise about that position, flipped by the flags of its
  gid (the objects the game draws as its own bodies -- walkers, platforms, coins, switches,
  checkpoints, goals, the player's start -- are left to it);
* an animated tile shows frame after frame, each for its own duration, looping; the frames are
  tiles of the same tileset;
* an image layer's picture sits at the layer's offset, repeated along x and/or y if asked;
* a tileset's (or image layer's) transparent colour is drawn see-through.
"""

from __future__ import annotations

import array
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field

# WHITE and Look are the view's too (a layer's tint and look)
from game.maps.model import (FLIP_D, FLIP_H, FLIP_V, HEX_120, WHITE, ImageLayer,  # noqa: F401
                             Look, MapModel, MapObject, ObjectLayer)
from game.maps.model import TileLayer as ModelTileLayer
from game.maps.orientation import ORTHOGONAL, Orientation

ImageKey = tuple[str, tuple[int, int, int, int] | None]  # (file, source rectangle)


@dataclass(frozen=True)
class TileImage:
    """Where a tile's picture is: image file, source rectangle, and Tiled's flip flags; and, for
    a tileset drawn at the map's grid size (Tiled 1.9+ "tilerendersize"), the size its cells
    draw the picture at (None: its own) and whether it keeps its shape there ("fillmode"
    preserve-aspect-fit: scaled alike both ways, centred) or is stretched. ``fit`` is also how
    a tile object stretched to its own size draws it."""

    source: str
    rect: tuple[int, int, int, int] | None
    flip_h: bool = False
    flip_v: bool = False
    flip_d: bool = False
    size: tuple[int, int] | None = None
    fit: bool = False
    turned_120: bool = False  # on a hexagonal map: turned 120 degrees more (Tiled's bit 28)


@dataclass(frozen=True)
class TileLayer:
    """A tile layer as Tiled draws it: its own attributes combined with its groups'.

    ``in_front`` marks a layer that comes after the first object layer in the file: the game
    draws it over the player (the object layer stands for where the sprites are).
    """

    name: str
    visible: bool
    opacity: float
    offset: tuple[float, float]
    gids: tuple[tuple[int, ...], ...]  # [row][col]: the pictures' numbers (0 = empty)
    in_front: bool = False
    door: str | None = None  # the door group the layer paints (game.maps.tiles); the view draws it


@dataclass(frozen=True)
class TileLayerArt:
    index: int  # into MapView.layers
    look: Look


@dataclass(frozen=True)
class TileObject:
    image: TileImage
    x: float  # the bottom-left corner, map px, the layer's offset included
    y: float
    w: float
    h: float
    rotation: float = 0.0  # degrees, clockwise, about (x, y)
    # The object's position as the file has it (Tiled's pixel coordinates): on an orthogonal map
    # (x, y) less the layer's offset; other orientations project it first (game.view.projection).
    at: tuple[float, float] = (0.0, 0.0)
    # Its tileset's drawing offset, stretched as the picture is (Tiled scales it by the object's
    # size over the tile's); it turns with the object.
    shift: tuple[float, float] = (0.0, 0.0)


@dataclass(frozen=True)
class ObjectLayerArt:
    objects: tuple[TileObject, ...]
    look: Look
    sprites: bool = False  # the map's first object layer: where the game draws its bodies


@dataclass(frozen=True)
class ImageLayerArt:
    source: str
    look: Look
    repeat_x: bool = False
    repeat_y: bool = False
    trans: tuple[int, int, int] | None = None


LayerArt = TileLayerArt | ObjectLayerArt | ImageLayerArt


@dataclass(frozen=True)
class MapArt:
    layers: tuple[LayerArt, ...] = ()
    # (file, rect) of an animated tile -> its frames: (file, rect, milliseconds)
    frames: Mapping[ImageKey, tuple[tuple[str, tuple | None, int], ...]] = field(
        default_factory=dict)
    transparent: Mapping[str, tuple[int, int, int]] = field(default_factory=dict)  # file -> RGB
    parallax_origin: tuple[float, float] = (0.0, 0.0)


NO_ART = MapArt()


@dataclass(frozen=True, eq=False)
class MapView:
    """What only the view needs of a level."""

    layers: tuple[TileLayer, ...] = ()  # the tile layers, file order
    tiles: Mapping[int, TileImage] = field(default_factory=dict)  # picture number -> picture
    # picture number -> (dx, dy) px it is drawn off its cell: its tileset's <tileoffset>
    tile_offsets: Mapping[int, tuple[int, int]] = field(default_factory=dict)
    art: MapArt = NO_ART
    background: tuple[int, int, int] | None = None
    backdrop: str = "day"  # the sky and hills behind the map (game.maps.backdrop)
    # How Tiled lays the cells out on screen; only an orthogonal map is played (``play=False``
    # reads the others, to draw them: game.view.projection)
    orientation: Orientation = ORTHOGONAL
    # Per cell (row * cols + col): what made it collide, an index into
    # game.maps.conventions.SOURCE_NAMES (0: nothing), for the debug view; b"": nothing known
    sources: bytes = b""


NO_VIEW = MapView()


def key(source: str, rect) -> ImageKey:
    """How a picture is named in :class:`MapArt`: its file's absolute path, its rectangle."""
    return os.path.normpath(os.path.abspath(source)), tuple(rect) if rect else None


# Objects the game gives a body or a sprite of its own (game.maps.objects, game.sim): drawn by
# the game, not as their tile.
BODY_KINDS = {"walker", "platform", "switch", "checkpoint", "coin", "goal", "player"}
START_WORDS = ("player", "spawn", "start")


def is_body(name: str, kind: str) -> bool:
    """Does the game give an object of this name and class a body or a sprite of its own (so
    it is not drawn as its tile)?"""
    low_kind, low_name = kind.strip().lower(), name.strip().lower()
    return kind.strip() in BODY_KINDS or any(w in low_kind or w in low_name for w in START_WORDS)


# --- the view record from the model -----------------------------------------------------------

def map_view(model: MapModel, backdrop: str, sources: bytes,
             start: int | None = None) -> MapView:
    """The view's record of a map (see the module's docstring). ``start``: the id of the object
    the player starts at, not drawn as its tile (the game draws the player there) whatever it
    is called (pirate-platformer's player sprite sits in a layer named 'player')."""
    hexagonal = model.orientation.kind == "hexagonal"
    plain = ~0 if hexagonal else ~HEX_120  # Tiled reads bit 28 on hexagonal maps only
    number = {0: 0}
    for raw in model.placed:
        number.setdefault(raw & plain, len(number))
    tiles, offsets = {}, {}
    for raw, n in number.items():
        found = model.tile_of(raw) if raw else None
        if found is None or found[0].is_missing(found[1]):
            continue  # a tile object of no tileset's: drawn as nothing
        image = _image(model, raw, *found)
        if image is not None:
            tiles[n] = image
        ts, tile = found
        if ts.offset != (0, 0):
            sx, sy, _, _ = ts.drawn(tile) if ts.at_grid else (1, 1, 0, 0)
            offsets[n] = (round(ts.offset[0] * sx), round(ts.offset[1] * sy))
    layers, order = [], []
    seen_objects = False
    cols = model.cols
    for layer in model.layers:
        if isinstance(layer, ModelTileLayer):
            door = layer.properties.get("door")
            order.append(TileLayerArt(len(layers), layer.look))
            layers.append(TileLayer(layer.name, layer.look.visible, layer.look.opacity,
                                    layer.look.offset, _rows(layer, number, plain, cols),
                                    seen_objects, door if isinstance(door, str) else None))
        elif isinstance(layer, ObjectLayer):
            first = not seen_objects
            seen_objects = True
            order.append(ObjectLayerArt(tuple(_tile_objects(model, layer, start)), layer.look,
                                        first))
        elif isinstance(layer, ImageLayer) and layer.image is not None:
            trans = layer.trans[:3] if layer.trans else None
            order.append(ImageLayerArt(layer.image, layer.look, layer.repeat_x, layer.repeat_y,
                                       trans))
    background = model.background[:3] if model.background else None
    art = MapArt(tuple(order), _frames(model), _transparent(model), model.parallax_origin)
    return MapView(tuple(layers), tiles, offsets, art, background, backdrop, model.orientation,
                   sources)


def _rows(layer: ModelTileLayer, number: Mapping[int, int], plain: int,
          cols: int) -> tuple[tuple[int, ...], ...]:
    """A tile layer's rows of view ids (``number`` of each gid, flips kept, bit 28 as ``plain``
    keeps it). When every gid and id is below 256 (one small tileset, no flips), the low byte of
    each cell is picked out and translated at once."""
    cells = layer.cells
    if isinstance(cells, array.array) and max(layer.used) < 256 and len(number) <= 256:
        table = bytearray(256)
        for raw in layer.used:
            table[raw] = number[raw & plain]
        ids = cells.tobytes()[0 if sys.byteorder == "little" else 3::4].translate(table)
    else:
        if any(g & ~plain for g in layer.used):  # bit 28 on a map not hexagonal: ignored
            cells = [g & plain for g in cells]
        ids = list(map(number.__getitem__, cells))
    return tuple(tuple(ids[i:i + cols]) for i in range(0, len(ids), cols))


def _image(model: MapModel, raw: int, ts, tile: int) -> TileImage | None:
    picture = ts.picture(tile)
    if picture is None:
        return None
    size = ts.size_of(tile) if ts.at_grid else None
    turned = model.orientation.kind == "hexagonal" and bool(raw & HEX_120)
    return TileImage(picture[0], picture[1], bool(raw & FLIP_H), bool(raw & FLIP_V),
                     bool(raw & FLIP_D), size, bool(size and ts.fit), turned)


def _frames(model: MapModel) -> dict:
    frames = {}
    for ts in model.tilesets:
        for tile_id, tile in ts.tiles.items():
            base = ts.picture(tile_id)
            if not tile.frames or base is None:
                continue
            out = [(*pic, ms) for frame_id, ms in tile.frames
                   if (pic := ts.picture(frame_id)) is not None]
            if len(out) > 1:
                frames[key(*base)] = tuple(out)
    return frames


def _transparent(model: MapModel) -> dict:
    found = {}
    for ts in model.tilesets:
        if ts.image and ts.trans:
            found[key(ts.image, None)[0]] = ts.trans[:3]
        for tile in ts.tiles.values():
            if tile.image and tile.trans:
                found[key(tile.image, None)[0]] = tile.trans[:3]
    for layer in model.layers:
        if isinstance(layer, ImageLayer) and layer.image and layer.trans:
            found[key(layer.image, None)[0]] = layer.trans[:3]
    return found


def _tile_objects(model: MapModel, layer: ObjectLayer, start: int | None = None
                  ) -> list[TileObject]:
    """The layer's tile objects in the order Tiled draws them: by their y (the default
    "topdown" draw order; a stable sort, so equal ys keep the file's order), or as the file
    lists them for draw order "index"."""
    objects = list(layer.objects)
    if not layer.draw_index:
        objects.sort(key=lambda o: o.y)
    return [t for o in objects if o.id != start and (t := _pictured(model, o)) is not None]


def _pictured(model: MapModel, o: MapObject) -> TileObject | None:
    if not o.gid or not o.visible or is_body(o.name, o.kind):
        return None
    found = model.tile_of(o.gid)
    if found is None:
        return None
    ts, tile = found
    picture = ts.picture(tile)
    if picture is None or ts.is_missing(tile):
        return None
    size = ts.own_size_of(tile)
    w, h = o.w or float(size[0]), o.h or float(size[1])  # Tiled 1.0 saved no size: the tile's
    image = TileImage(picture[0], picture[1], bool(o.gid & FLIP_H), bool(o.gid & FLIP_V),
                      bool(o.gid & FLIP_D), fit=ts.fit)
    dx, dy = ts.offset
    if size[0] and size[1]:
        sx, sy = w / size[0], h / size[1]
        if ts.fit:  # scaled alike both ways, as its picture is
            sx = sy = min(sx, sy)
        dx, dy = dx * sx, dy * sy
    return TileObject(image, o.x, o.y, w, h, o.rotation, o.at, (dx, dy))

