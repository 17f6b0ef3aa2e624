"""The map as one small typed model: what every stage after reading looks at.

``game.maps.document`` reads the map and everything it pulls in once and builds, side by side,
the plain TMX document pytmx reads and this model's records; pytmx parses that document once,
and its typed custom properties (bool, int, float, colour, file, object) complete the records
(:func:`with_properties`). After that nothing reads XML, JSON or a file again:

* :class:`MapModel`: the map's size, grid, orientation, background colour and properties, its
  tilesets by Tiled's own first gid, and its layers in file order;
* layers (:class:`TileLayer`, :class:`ObjectLayer`, :class:`ImageLayer`), each with its
  :class:`Look`: group layers folded in (visibility, opacity, offsets summed, parallax and tint
  multiplied), as Tiled composes them;
* :class:`MapObject`: an object as a typed record, its template applied, its layer's offset
  added, its shape said;
* a tile layer's cells are Tiled's gids as the file holds them: the tile's gid in the low bits,
  the flips in the high ones (:data:`FLIPS`, ``game.maps.decode``), and a
  :class:`~game.maps.tilesets.Tileset` answers for the gids from its ``firstgid`` on.
"""

from __future__ import annotations

import bisect
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from game.errors import UserError
from game.maps.checked import WHITE, Colour, colour, times  # noqa: F401 (the one parser)
from game.maps.decode import FLIP_D, FLIP_H, FLIP_V, FLIPS, GID_MASK, HEX_120  # noqa: F401
from game.maps.limits import shown
from game.maps.orientation import ORTHOGONAL, Orientation
from game.maps.tilesets import Tileset

# --- Tiled's gids (the constants are game.maps.decode's) -----------------------------------------

# --- layers ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Look:
    """How a layer is drawn, its groups' settings folded in, as Tiled composes them."""

    visible: bool = True
    opacity: float = 1.0
    offset: tuple[float, float] = (0.0, 0.0)  # px, summed over the layer and its groups
    parallax: tuple[float, float] = (1.0, 1.0)
    tint: Colour = WHITE

    def inside(self, other: Look) -> Look:
        """``other`` (a layer's or group's own look) inside the group this look is of."""
        return Look(self.visible and other.visible, self.opacity * other.opacity,
                    (self.offset[0] + other.offset[0], self.offset[1] + other.offset[1]),
                    (self.parallax[0] * other.parallax[0], self.parallax[1] * other.parallax[1]),
                    times(self.tint, other.tint))


@dataclass(frozen=True, eq=False)
class TileLayer:
    name: str
    look: Look
    cells: Any  # array of the layer's gids ('I', 32 bits), row by row, flip bits and all
    used: tuple[int, ...] = ()  # the different gids it places, in the order first placed
    properties: Mapping[str, Any] = field(default_factory=dict)
    kind: str = ""  # its class (Tiled 1.9+)
    id: int = 0  # its place among the map's layers, from 1, file order


@dataclass(frozen=True, eq=False)
class ObjectLayer:
    name: str
    look: Look
    objects: tuple[MapObject, ...] = ()
    properties: Mapping[str, Any] = field(default_factory=dict)
    draw_index: bool = False  # Tiled's draw order "index" (else "topdown": by y)
    kind: str = ""
    id: int = 0


@dataclass(frozen=True, eq=False)
class ImageLayer:
    name: str
    look: Look
    image: str | None  # its picture's path (absolute), None if the file is missing
    repeat_x: bool = False
    repeat_y: bool = False
    trans: Colour | None = None  # its picture's transparent colour
    properties: Mapping[str, Any] = field(default_factory=dict)
    kind: str = ""
    id: int = 0


Layer = TileLayer | ObjectLayer | ImageLayer


# --- objects --------------------------------------------------------------------------------------
SHAPES = ("rectangle", "point", "ellipse", "polygon", "polyline", "text")


@dataclass(frozen=True, eq=False)
class MapObject:
    """An object of an object layer (its template applied), in map px: its layer's offset is
    added to ``x``/``y``. A tile object (``gid``) hangs up from (``x``, ``y``), its bottom-left
    corner, as Tiled places it (its tileset's object alignment has been taken into that)."""

    id: int
    name: str
    kind: str  # its class (``type=``, or Tiled 1.9's ``class=``), as written, spaces stripped
    shape: str  # one of SHAPES
    x: float
    y: float
    w: float = 0.0
    h: float = 0.0
    rotation: float = 0.0  # degrees, clockwise, about (x, y)
    gid: int = 0  # Tiled's gid, flip bits and all; 0: not a tile object
    points: tuple[tuple[float, float], ...] = ()  # polygon/polyline vertices, map px
    visible: bool = True
    layer: str = ""  # its object layer's name
    offset: tuple[float, float] = (0.0, 0.0)  # its layer's (in x/y already)
    properties: Mapping[str, Any] = field(default_factory=dict)
    # (tileset, tile id) the object's template placed its tile from, for messages
    label: str = ""

    @property
    def top(self) -> float:
        """The top of its box: a tile object's box hangs up from its position."""
        return self.y - self.h if self.gid else self.y

    @property
    def at(self) -> tuple[float, float]:
        """Its position as the file has it (its layer's offset not added)."""
        return self.x - self.offset[0], self.y - self.offset[1]

    def named(self) -> str:
        """How a message names it: ``object 'door' (id 4)``."""
        named = f"{shown(self.name)} " if self.name else ""
        return f"object {named}(id {self.id})"


# --- the map --------------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class MapModel:
    path: Path
    cols: int
    rows: int
    tile_w: int
    tile_h: int
    tilesets: tuple[Tileset, ...] = ()  # by firstgid (file order among equals)
    layers: tuple[Layer, ...] = ()  # file order, group layers folded into theirs
    properties: Mapping[str, Any] = field(default_factory=dict)
    background: Colour | None = None
    parallax_origin: tuple[float, float] = (0.0, 0.0)
    orientation: Orientation = ORTHOGONAL
    # every tile placed (layers, then tile objects), Tiled's gid with its flips, first placed first
    placed: tuple[int, ...] = ()
    firstgids: tuple[int, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "firstgids", tuple(ts.firstgid for ts in self.tilesets))

    def tileset_of(self, gid: int) -> Tileset | None:
        """The tileset of a gid (flips split off), as Tiled decides: the one with the largest
        firstgid <= gid (the first of those, in file order, if two share it)."""
        i = bisect.bisect_right(self.firstgids, gid)
        if i == 0:
            return None
        return self.tilesets[bisect.bisect_left(self.firstgids, self.firstgids[i - 1])]

    def tile_of(self, raw: int) -> tuple[Tileset, int] | None:
        """(tileset, tile id) of a placed gid, or None if no tileset holds it."""
        gid = raw & GID_MASK
        ts = self.tileset_of(gid)
        return (ts, gid - ts.firstgid) if ts is not None and ts.holds(gid - ts.firstgid) else None

    @property
    def tile_layers(self) -> tuple[TileLayer, ...]:
        return tuple(la for la in self.layers if isinstance(la, TileLayer))

    @property
    def objects(self) -> Iterator[MapObject]:
        """Every object of every object layer, in file order."""
        for layer in self.layers:
            if isinstance(layer, ObjectLayer):
                yield from layer.objects

    @property
    def width_px(self) -> int:
        return self.cols * self.tile_w

    @property
    def height_px(self) -> int:
        return self.rows * self.tile_h


# --- properties: pytmx's, completing the records -------------------------------------------------


def import_pytmx():
    """pytmx, imported without pulling in pygame when pygame is not loaded yet.

    pytmx imports pygame only for a type hint and for its optional image helpers, and importing
    pygame loads its display, event and key modules. Level data needs none of that (the view
    loads tile images itself), so pygame is hidden while pytmx is first imported, and pytmx takes
    its documented no-pygame path. Loading a level, and so the whole simulation, stays headless.
    """
    if "pytmx" not in sys.modules and "pygame" not in sys.modules:
        hidden = ("pygame", "pytmx.util_pygame")
        for name in hidden:
            sys.modules[name] = None  # type: ignore[assignment]
        try:
            import pytmx
        finally:
            for name in hidden:
                if name in sys.modules and sys.modules[name] is None:
                    del sys.modules[name]
    import pytmx

    return pytmx


def parse(path: Path, tree) -> Any:
    """pytmx's reading of the document (``game.maps.document``): parsed once, with no images
    loaded and no file opened (every tileset is in the document)."""
    pytmx = import_pytmx()
    tmx = pytmx.TiledMap()  # no file name: nothing read yet
    tmx.filename = str(path)
    try:
        tmx.parse_xml(tree)
    except Exception as exc:  # the document is checked: this is a bug, said as one line
        raise UserError(path, f"pytmx could not read the map ({type(exc).__name__}: "
                        f"{shown(str(exc), 200)}); please report it with the map") from None
    return tmx


def with_properties(skeleton: MapModel, tmx, names: Mapping[tuple, tuple[str, ...]]) -> MapModel:
    """The model with every custom property typed as pytmx reads it: the map's, each layer's
    (by its place, pytmx's layers carry it as their ``id``), each tileset's (in order), each
    tile's (by its gid) and each object's (by its id). ``names`` says which properties each
    element has of its own, keyed ``("map",)``, ``("layer", id)``, ``("tileset", i)``,
    ``("tile", gid)`` or ``("object", id)``; a tile object's tile's properties, which pytmx copies
    into the object's, stay the tile's."""
    def own(found: Mapping, key: tuple) -> dict:
        return {n: found[n] for n in names.get(key, ()) if n in found}

    by_id = {getattr(la, "id", 0): la for la in tmx.layers if _has_id(la)}
    tilesets = []
    for i, (ts, theirs) in enumerate(zip(skeleton.tilesets, tmx.tilesets, strict=True)):
        tiles = {}
        for tile_id, tile in ts.tiles.items():
            key = ("tile", ts.firstgid + tile_id)
            if key in names:
                mapped = tmx.gidmap.get(ts.firstgid + tile_id) or ()
                found = tmx.tile_properties.get(mapped[0][0], {}) if mapped else {}
                tile = replace(tile, properties=own(found, key))
            tiles[tile_id] = tile
        tilesets.append(replace(ts, tiles=tiles, properties=own(theirs.properties,
                                                                ("tileset", i))))
    layers = []
    for layer in skeleton.layers:
        theirs = by_id.get(layer.id)
        props = own(theirs.properties, ("layer", layer.id)) if theirs is not None else {}
        if isinstance(layer, ObjectLayer):
            objects = tuple(
                replace(o, properties=own(tmx.objects_by_id[o.id].properties, ("object", o.id)))
                if ("object", o.id) in names else o for o in layer.objects)
            layer = replace(layer, objects=objects)
        layers.append(replace(layer, properties=props))
    return replace(skeleton, tilesets=tuple(tilesets), layers=tuple(layers),
                   properties=own(tmx.properties, ("map",)))


def _has_id(layer) -> bool:
    return isinstance(layer.__dict__.get("id"), int)


# --- values in messages --------------------------------------------------------------------------

def px(v: float) -> str:
    return f"{v:g}"


def written(value: Any) -> str:
    """A property's value as Tiled writes it in the file (``true``, ``0.5``, ``nan``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        text = repr(value)
        return text[:-2] if text.endswith(".0") else text  # 0, not 0.0, as Tiled writes it
    return str(value)


def type_name(value: Any) -> str:
    """A property's type, in Tiled's words."""
    return {bool: "bool", int: "int", float: "float"}.get(type(value), "string")
