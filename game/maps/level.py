"""Loading a Tiled map into the game's own level data (no pygame, no images).

``load_level`` checks the file first with ElementTree, so that every mistake pytmx would meet
with a bare exception (an infinite map, a zstd layer, a missing tileset, ...) gets a message that
says what to change in Tiled. Then pytmx reads the checked XML tree *without images*, and the
result is turned once into a :class:`Level`: a :class:`~game.maps.grid.TileGrid` of tile kinds, the spawn, the
goals, the map's properties and, for the view, its tile layers in file order with the source
rectangle of every tile image.

Everything the game later trusts is checked here, so that ``--headless`` passing means the window
will run too: numbers parse and are finite, tile gids belong to a tileset, the spawn is inside
the map and free, ``next_level`` exists, and every image the window will load is a PNG, GIF, BMP
or JPEG (known by its signature, walked through to its end: ``game.maps.imagefile``) as large as its
tiles need, so the window never meets a picture that the headless check let pass.

Hostile files are refused before anything large is read, decoded or parsed: every ``MAX_*``
below is far above any real level (docs/levels.md, "Limits") and low enough that the worst file
within them loads in seconds and well under 1 GB.
"""

from __future__ import annotations

import array
import dataclasses
import base64
import binascii
import bisect
import math
import os
import stat
import sys
import xml.etree.ElementTree as ET
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.errors import UserError, quoted, read_bounded
from game.maps.grid import EMPTY, KIND_STRENGTH, ONE_WAY, SLOPE, SOLID, TileGrid
from game.maps.tiles import (NO_FEATURES, TileFeatures, cell_features, check_clear_of_doors,
                        door_groups, flow_objects, tile_feature)
from game.maps import formats
from game.maps.backdrop import backdrop_of
from game.maps.imagefile import FORMATS, BadImage, ImageInfo, probe, verify
from game.maps.platform_spawns import PlatformSpawn, float_value, platform_spawns
from game.maps.grid import overlapping_tiles

# --- Limits (docs/levels.md, "Limits"), checked before pytmx or pygame sees the file -----------
MAX_XML_BYTES = 64_000_000  # the .tmx and every .tsx it uses (once per use), together
MAX_XML_ELEMENTS = 100_000  # XML elements in the .tmx and its .tsx files, together
MAX_XML_DEPTH = 64  # elements inside elements
MAX_XML_ATTRIBUTES = 256  # attributes of one element
MAX_XML_ATTRIBUTES_TOTAL = 500_000  # attributes of one file, bounded by its '=' signs before
#                                     parsing (expat builds an element's attributes whole)
MAX_GROUP_DEPTH = 32  # group layers inside group layers
MAX_MAP_CELLS = 2_000_000  # the map's width x height, in tiles
MAX_LAYER_CELLS = 4_000_000  # tile layers x the map's cells: what the loader decodes and keeps
MAX_MAP_PX = 1_000_000  # the map's width and height in px; how far objects and offsets reach
MAX_TILE_PX = 4096  # the map's tile width and height
# The smallest tile side: a body crosses one tile per sub-step at most, so tiny tiles under a big
# body at top speed multiply a tick's work (1 px tiles: ~5 s of work per second played).
MIN_TILE_PX = 4
MAX_BODY_PX = 256  # a spawn's or walker's rectangle, width and height; as [player] width/height
MAX_WALKERS = 5000  # objects of class walker in one map (each is stepped every tick)
MAX_TILESETS = 1000  # tilesets of the map (each is read and checked)
MAX_LAYERS = 1000  # layers of every kind: tile, object, image and group layers
MAX_TILES = 262_144  # tiles of all tilesets together (pytmx walks every one)
MAX_TILE_VARIANTS = 65_536  # different gids (a tile with its flips) the layers place
MAX_POINTS = 100_000  # polygon and polyline points in the map and its tilesets, together
MAX_IMAGE_BYTES = 64_000_000  # the image files the map uses, together
MAX_IMAGE_SIDE = 16_384  # an image's width and height, px
MAX_IMAGE_PIXELS = 64_000_000  # what the window holds: every image file, plus a copy of every
#                                tile of an image collection and of every different tile placed

COLLISION_KINDS = {"solid": SOLID, "one_way": ONE_WAY, "slope": SLOPE}
# A kind's strength as a mask of that many low bits: the "or" of two masks is the mask of the
# stronger kind, so a cell's kind over all layers comes from or-ing whole layers at once.
_MASK_OF_KIND = {kind: (1 << strength) - 1 for kind, strength in KIND_STRENGTH.items()}
_KIND_OF_MASK = bytes(next((k for k, m in _MASK_OF_KIND.items() if m == i), 0)
                      for i in range(256))  # a bytes.translate table
FLIP_H, FLIP_V, FLIP_D = 0x80000000, 0x40000000, 0x20000000
GID_MASK = 0x0FFFFFFF  # Tiled also keeps a 120-degree hex flag in bit 28
# Attributes pytmx sets on maps, layers, tilesets and objects: a custom property of one of these
# names makes it raise.
RESERVED = {"id", "name", "type", "class", "x", "y", "width", "height", "visible", "opacity",
            "offsetx", "offsety", "rotation", "gid", "properties", "source", "version",
            "tiledversion", "orientation", "renderorder", "tilewidth", "tileheight", "firstgid",
            "tilecount", "columns", "data", "encoding", "compression", "tintcolor", "parallaxx",
            "parallaxy", "infinite", "nextlayerid", "nextobjectid", "backgroundcolor", "color",
            "draworder", "image", "images", "layers", "objects", "tilesets", "filename", "parent",
            "spacing", "margin", "trans", "points", "closed", "template", "locked"}


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float

    def intersects(self, x: float, y: float, w: float, h: float) -> bool:
        return x < self.x + self.w and self.x < x + w and y < self.y + self.h and self.y < y + h


@dataclass(frozen=True)
class TileImage:
    """Where a tile's picture is: image file, source rectangle, and Tiled's flip flags."""

    source: str
    rect: tuple[int, int, int, int]
    flip_h: bool = False
    flip_v: bool = False
    flip_d: bool = False


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
    gids: tuple[tuple[int, ...], ...]  # [row][col], pytmx gids (0 = empty)
    in_front: bool = False
    door: str | None = None  # the door group the layer paints (game.maps.tiles); the view draws it


@dataclass(frozen=True)
class WalkerSpawn:
    """Where a walker starts: its hitbox at the start, its speed and its first direction.

    ``id`` is the Tiled object id: walkers are stepped in that order (``game.sim.walkers``).
    """

    id: int
    x: float
    y: float
    w: float
    h: float
    speed: float  # px/s
    facing: int  # -1 left, 1 right


# A walker's Tiled properties (the class ``walker`` of levels/tilecollide.tiled-project declares
# them with these defaults: Tiled does not save a class member left at its default).
WALKER_SIZE = (12.0, 12.0)  # a point walker's hitbox, px, feet at the point
WALKER_SPEED = 40.0  # px/s
WALKER_TOP_SPEED = 1000.0  # the most a walker's speed property may say, px/s
WALKER_DIRECTIONS = {"left": -1, "right": 1}
WALKER_DIRECTION = "right"


@dataclass(frozen=True, eq=False)
class Level:
    path: Path
    title: str
    grid: TileGrid
    spawn: Rect  # the player's hitbox at the start
    spawn_is_point: bool
    goals: tuple[Rect, ...]
    next_level: str | None
    properties: Mapping[str, Any]
    layers: tuple[TileLayer, ...]
    tiles: Mapping[int, TileImage]  # pytmx gid -> picture
    background: tuple[int, int, int] | None = None
    objects: tuple[dict, ...] = field(default_factory=tuple)
    # The .tmx, every .tsx it uses and every tileset image, resolved: what a hot reload watches.
    files: tuple[Path, ...] = ()
    walkers: tuple[WalkerSpawn, ...] = ()  # in Tiled object id order
    # Hazards, friction, water, doors, checkpoints, coins, switches (game.maps.tiles). ``grid`` is
    # the grid with every door open; the world closes the closed ones (game.sim.living).
    features: TileFeatures = NO_FEATURES
    platforms: tuple[PlatformSpawn, ...] = ()  # in Tiled object id order (game.maps.platform_spawns)
    notes: tuple[str, ...] = ()  # what the loader had to guess or change: ``note:`` lines
    # Tile objects, image layers, animations, parallax, tints (game.maps.art.MapArt); None: none
    art: Any = None
    backdrop: str = "day"  # the sky and hills behind the map (game.maps.backdrop)

    @property
    def tile_size(self) -> tuple[int, int]:
        return self.grid.tile_w, self.grid.tile_h


@dataclass(frozen=True)
class _Tileset:
    """What the loader needs of one tileset, read from its XML before pytmx sees the map."""

    firstgid: int
    name: str
    file: Path  # where its tiles are edited: the .tsx, or the map for an embedded tileset
    tile_size: tuple[int, int]
    margin: int = 0
    spacing: int = 0
    count: int | None = None  # tiles cut from its image (None: an image collection)
    columns: int = 0  # columns of tiles Tiled cuts from its image
    ids: frozenset[int] = frozenset()  # an image collection's tile ids

    def holds(self, tile_id: int) -> bool:
        if self.count is not None:
            return 0 <= tile_id < self.count
        return tile_id in self.ids

    def rect(self, tile_id: int) -> tuple[int, int, int, int]:
        """Where Tiled cuts a tile from the sheet (pytmx miscounts columns when margin > 0)."""
        (w, h), step = self.tile_size, (self.tile_size[0] + self.spacing,
                                        self.tile_size[1] + self.spacing)
        row, col = divmod(tile_id, self.columns)
        return self.margin + col * step[0], self.margin + row * step[1], w, h


@dataclass(frozen=True)
class _LayerData:
    """A tile layer's cells as decoded once by the checks, for pytmx and the level to share."""

    gids: Sequence[int]  # Tiled's gids with their flip bits, row by row (array 'I' or list)
    used: tuple[int, ...]  # the different ones, in the order they first appear
    new: tuple[int, ...]  # those of ``used`` that no earlier layer holds


@dataclass(frozen=True)
class _MapInfo:
    tilesets: tuple[_Tileset, ...]  # sorted by firstgid, in file order among equals
    files: tuple[Path, ...]
    firstgids: tuple[int, ...] = ()  # of ``tilesets``, for bisecting
    layers: tuple[_LayerData, ...] = ()  # of every <layer>, in file order

    def tileset_of(self, tiled_gid: int) -> _Tileset | None:
        """The tileset of a gid, as Tiled decides: the one with the largest firstgid <= gid
        (the first of those, in file order, if two share it)."""
        i = bisect.bisect_right(self.firstgids, tiled_gid)
        if i == 0:
            return None
        return self.tilesets[bisect.bisect_left(self.firstgids, self.firstgids[i - 1])]


@dataclass
class _Budget:
    """What the map and everything it pulls in have used so far of the shared ``MAX_*`` limits."""

    xml_bytes: int = 0
    xml_elements: int = 0
    tiles: int = 0
    points: int = 0
    image_bytes: int = 0
    image_pixels: int = 0
    images: dict[Path, ImageInfo] = field(default_factory=dict)


def load_level(path: str | os.PathLike, player_size: tuple[float, float] = (12.0, 14.0)) -> Level:
    """Read a Tiled .tmx file, or raise UserError saying what to change in Tiled.

    ``player_size`` is the hitbox of a point spawn: config.toml's ``[player] width/height``.
    """
    path = Path(path)
    budget = _Budget()
    root = _read_xml(path, "map", "a Tiled map (.tmx or .tmj)", budget)
    # JSON tilesets and templates in place, an infinite map made finite, zstd unpacked:
    # from here on the map is a plain TMX tree (game.maps.formats).
    done = formats.normalise(
        path, root, read_xml=lambda p, tag, what: _read_xml(p, tag, what, budget),
        read_bytes=lambda p, what: _read_bytes(p, what, budget), max_cells=MAX_MAP_CELLS)
    info = _check_map(path, root, budget)
    if done.files:
        info = _MapInfo(info.tilesets, tuple(dict.fromkeys(
            [*info.files, *(f.resolve() for f in done.files)])), info.firstgids, info.layers)
    tmx = _parse_with_pytmx(path, root, info)
    level = _build_level(path, root, tmx, info, player_size)
    from game.maps import art  # here: art names pictures with this module's TileImage
    drawn = art.read_art(path, root, lambda p: _read_xml(p, "tileset", "a Tiled tileset (.tsx)",
                                                         _Budget()))
    own = level.background is not None or any(
        isinstance(a, art.ImageLayerArt) for a in drawn.layers)
    return dataclasses.replace(level, notes=(*level.notes, *done.notes), art=drawn,
                               backdrop=backdrop_of(path, level.properties, own))


# ----------------------------------------------------------------------------------------------
# Checks before pytmx sees the file
# ----------------------------------------------------------------------------------------------

RESAVE = "re-save the file from Tiled"


def _file_kind(path: Path) -> str:
    """"file", "folder", "other" (a device, a pipe...) or "missing" (also for a path the system
    refuses, too long or with a NUL in it: Path.is_file raises for some of those)."""
    try:
        mode = path.stat().st_mode
    except (OSError, ValueError):
        return "missing"
    return "file" if stat.S_ISREG(mode) else "folder" if stat.S_ISDIR(mode) else "other"


def _shown(text: str | None, limit: int = 60) -> str:
    """A name or path from the file as an error line shows it: as is, or quoted and cut."""
    text = text or ""
    return text if len(text) <= limit and text.isprintable() else quoted(text, limit)


class _Builder(ET.TreeBuilder):
    """ElementTree's tree builder, refusing while it parses what no Tiled file holds: a DOCTYPE
    (and so entity declarations, which expat would expand), elements nested too deep, group
    layers nested too deep, and more elements than the budget, before the tree grows large."""

    def __init__(self, path: Path, budget: _Budget) -> None:
        super().__init__()
        self.path, self.budget = path, budget
        self.depth = self.groups = 0
        self.tags: list[str] = []

    def start(self, tag, attrs):
        self.depth += 1
        self.budget.xml_elements += 1
        self.tags.append(tag)
        if tag == "group":
            self.groups += 1
        if self.groups > MAX_GROUP_DEPTH:
            raise UserError(self.path, f"group layers are nested more than {MAX_GROUP_DEPTH} "
                            "deep; move the layers out of the innermost groups in Tiled's Layers "
                            "panel")
        if len(attrs) > MAX_XML_ATTRIBUTES:
            raise UserError(self.path, f"an XML element <{_shown(tag, 30)}> has {len(attrs):,} "
                            f"attributes, more than the {MAX_XML_ATTRIBUTES} read and far more "
                            f"than Tiled writes; {RESAVE}")
        if self.depth > MAX_XML_DEPTH:
            raise UserError(self.path, f"XML elements are nested more than {MAX_XML_DEPTH} deep "
                            f"(at <{_shown(tag, 30)}>), far deeper than Tiled writes; "
                            f"{RESAVE}")
        if self.budget.xml_elements > MAX_XML_ELEMENTS:
            raise UserError(self.path, f"the map and its tilesets hold more than "
                            f"{MAX_XML_ELEMENTS:,} XML elements, far more than any real level "
                            "(a tile layer stored as XML? in Tiled set Map > Map Properties > "
                            "Tile Layer Format to CSV)")
        return super().start(tag, attrs)

    def end(self, tag):
        self.depth -= 1
        if self.tags.pop() == "group":
            self.groups -= 1
        return super().end(tag)

    def doctype(self, name, pubid, system):
        raise UserError(self.path, "the file has a <!DOCTYPE> (and may declare entities), which "
                        f"Tiled never writes; {RESAVE}")


def _read_bytes(path: Path, what: str, budget: _Budget) -> bytes:
    """A map's, tileset's or template's bytes, counted against the shared XML budget."""
    kind = _file_kind(path)
    if kind == "folder":
        raise UserError(path, f"is a folder; give the path of {what}")
    if kind != "file":
        raise UserError(path, f"file not found; check the path (expected {what})")
    label = next(f"{k} file" for k in ("map", "template", "tileset") if k in what or k == "tileset")
    data = read_bounded(path, MAX_XML_BYTES, label, "check the path")
    budget.xml_bytes += len(data)
    return data


def _read_xml(path: Path, tag: str, what: str, budget: _Budget) -> ET.Element:
    data = _read_bytes(path, what, budget)
    if tag == "map" and formats.looks_like_json(path, data):
        data = formats.json_map_as_xml(path, data)
    if data.count(b"=") > MAX_XML_ATTRIBUTES_TOTAL:
        raise UserError(path, f"the file has more than {MAX_XML_ATTRIBUTES_TOTAL:,} '=' signs, "
                        "so more XML attributes than any real level (each attribute has one); "
                        f"{RESAVE}")
    if budget.xml_bytes > MAX_XML_BYTES:
        raise UserError(path, f"the map and its tilesets (each counted as often as it is used) "
                        f"add up to more than {MAX_XML_BYTES // 1_000_000} MB, far more than any "
                        "real level; use fewer or smaller tilesets")
    parser = ET.XMLParser(target=_Builder(path, budget))
    try:
        parser.feed(data)
        root = parser.close()
    except ET.ParseError as exc:
        raise UserError(path, f"not {what}: the XML is broken ({exc}); re-save it from "
                        "Tiled") from None
    if root.tag != tag:
        raise UserError(path, f"not {what}: its root element is <{_shown(root.tag, 30)}>, "
                        f"not <{tag}>")
    return root


def _check_map(path: Path, root: ET.Element, budget: _Budget) -> _MapInfo:
    orientation = root.get("orientation", "orthogonal")
    if orientation != "orthogonal":
        raise UserError(path, f"the map is {quoted(orientation)}; only orthogonal maps are "
                        "supported (in Tiled: Map > Map Properties > Orientation: Orthogonal)")
    resize = "set the map's size in Tiled with Map > Resize Map"
    retile = "set the map's tile size in Tiled in Map > Map Properties"
    cols = _whole(path, root, "width", "the map", resize, most=MAX_MAP_CELLS)
    rows = _whole(path, root, "height", "the map", resize, most=MAX_MAP_CELLS)
    tw = _whole(path, root, "tilewidth", "the map", retile, least=MIN_TILE_PX, most=MAX_TILE_PX)
    th = _whole(path, root, "tileheight", "the map", retile, least=MIN_TILE_PX, most=MAX_TILE_PX)
    _check_map_size(path, root, cols, rows, tw, th)
    for what, tags, most in (("tilesets", ("tileset",), MAX_TILESETS),
                             ("layers (tile, object, image and group layers)", _LAYERS,
                              MAX_LAYERS)):
        count = sum(1 for el in root.iter() if el.tag in tags)
        if count > most:
            raise UserError(path, f"the map has {count:,} {what}, far more than any real "
                            f"level; at most {most:,} are read; merge or delete some")
    files = [path]
    tilesets = tuple(_check_tileset(path, ts, tw, th, files, budget)
                     for ts in root.iter("tileset"))
    for layer in root.iter("imagelayer"):
        image = layer.find("image")
        if image is not None:
            _check_image(path, path.parent, image, f"image layer {quoted(layer.get('name', ''))}",
                         files, budget)
    gids: dict[int, None] = {}  # every gid placed, in the order first placed
    layers = []
    for layer in root.iter("layer"):
        values, used = _check_layer_data(path, layer, cols, rows)
        layers.append(_LayerData(values, tuple(used), tuple(g for g in used if g not in gids)))
        _note_gids(path, [used], gids)
    objects = (_int_or_none(o.get("gid")) for o in root.iter("object") if o.get("gid"))
    _note_gids(path, [[o for o in objects if o is not None]], gids)  # tile objects are drawn too
    gids.pop(0, None)
    _spend_pixels(path, f"the {len(gids):,} different tiles the map places", len(gids) * tw * th,
                  budget)
    _check_numbers(path, root, budget)
    _check_reserved_names(path, root)
    tilesets = tuple(sorted(tilesets, key=lambda ts: ts.firstgid))
    return _MapInfo(tilesets, tuple(dict.fromkeys(f.resolve() for f in files)),
                    tuple(ts.firstgid for ts in tilesets), tuple(layers))


def _whole(where: Path, el: ET.Element, attr: str, what: str, fix: str, least: int = 1,
           default: int | None = None, most: int | None = None) -> int:
    """Attribute ``attr`` of ``el`` as a whole number from ``least`` to ``most`` (absent:
    ``default``)."""
    raw = el.get(attr)
    if raw is None and default is not None:
        return default
    try:
        value = int(raw) if raw is not None else None
    except ValueError:  # not a number, or more digits than Python converts
        value = None
    if value is None or value < least or (most is not None and value > most):
        shown = f"no {attr}" if raw is None else f"{attr}={quoted(raw)}"
        if least == 1:
            must = "a whole number above 0" + (f", at most {most:,}" if most is not None else "")
        else:
            must = f"a whole number from {least} " + (f"to {most:,}" if most is not None else "up")
        raise UserError(where, f"{what} has {shown}; it must be {must}; {fix}")
    return value


def _check_map_size(path: Path, root: ET.Element, cols: int, rows: int, tw: int,
                    th: int) -> None:
    """The map's size against the limits, from its attributes alone, before any layer is read."""
    resize = "make it smaller with Map > Resize Map, or split it into several levels"
    if cols * rows > MAX_MAP_CELLS:
        raise UserError(path, f"the map is {cols}x{rows} tiles ({cols * rows:,} cells); at most "
                        f"{MAX_MAP_CELLS:,} cells are read (e.g. 2000x1000); {resize}")
    for side, tiles, size in (("wide", cols, tw), ("high", rows, th)):
        if tiles * size > MAX_MAP_PX:
            raise UserError(path, f"the map is {tiles * size:,} px {side} ({tiles} tiles of "
                            f"{size} px); at most {MAX_MAP_PX:,} px are read; {resize}")
    layers = sum(1 for _ in root.iter("layer"))
    if layers * cols * rows > MAX_LAYER_CELLS:
        raise UserError(path, f"the map has {layers} tile layers of {cols}x{rows} tiles "
                        f"({layers * cols * rows:,} cells); at most {MAX_LAYER_CELLS:,} are read "
                        "(tile layers x map size); merge or delete tile layers, or make the map "
                        "smaller")


def _check_layer_data(path: Path, layer: ET.Element, cols: int,
                      rows: int) -> tuple[Sequence[int], dict[int, None]]:
    """A tile layer's gids as pytmx would read them (Tiled's numbers with their flip bits, row
    by row), and the different ones in the order they first appear.

    The layer must hold exactly the map's cells, counted before they are built, and its
    compressed data is unpacked no further than that, so nothing meets a zip bomb. It may not
    use more than ``MAX_TILE_VARIANTS`` different gids."""
    name = quoted(layer.get("name", ""))
    wrong = (f"tile layer {name} does not hold {cols}x{rows} tiles like the map; in Tiled use "
             "Map > Resize Map (or re-save the map)")
    if (_int_or_none(layer.get("width")), _int_or_none(layer.get("height"))) != (cols, rows):
        raise UserError(path, wrong)
    data = layer.find("data")
    fmt = ("in Tiled set Map > Map Properties > Tile Layer Format to CSV or Base64 (zlib) and "
           "save again")
    if data is None:
        raise UserError(path, f"tile layer {name} has no <data>; re-save the map from Tiled")
    if data.find("tile") is not None:
        raise UserError(path, f"tile layer {name} is stored as XML <tile> elements, which "
                        f"cannot be read; {fmt}")
    encoding, compression = data.get("encoding"), data.get("compression") or None
    text = (data.text or "").strip()
    damaged = f"tile layer {name} has damaged {compression or encoding} data; {fmt}"
    cells = cols * rows
    if encoding == "csv":
        if compression:
            raise UserError(path, f"tile layer {name} is CSV with compression "
                            f"{quoted(compression)}, which Tiled never writes; {fmt}")
        if (text.count(",") + 1 if text else 0) != cells:
            raise UserError(path, wrong)
        values: Sequence[int] = array.array(_U32)
        used: dict[int, None] = {}
        try:
            for piece, different in _csv_pieces(text):
                _note_gids(path, [different], used)
                if isinstance(values, array.array) and not isinstance(piece, array.array):
                    values = values.tolist()
                values.extend(piece)
        except ValueError:
            raise UserError(path, f"tile layer {name} has CSV values that are not tile numbers; "
                            "re-save the map from Tiled") from None
        return values, used
    if encoding != "base64":
        raise UserError(path, f"tile layer {name} has encoding {quoted(encoding or '')}, which "
                        f"cannot be read; {fmt}")
    try:
        raw = base64.b64decode(text)
    except (binascii.Error, ValueError):
        raise UserError(path, damaged) from None
    if compression in ("zlib", "gzip"):
        raw = _inflate(raw, compression, cells * 4)
        if raw is None:
            raise UserError(path, damaged)
    elif compression is not None:
        raise UserError(path, f"tile layer {name} has compression {quoted(compression)}, which "
                        f"cannot be read; {fmt}")
    if len(raw) != cells * 4:
        raise UserError(path, wrong)
    values = array.array(_U32, raw)
    if sys.byteorder == "big":  # Tiled writes little-endian
        values.byteswap()
    used = {}
    _note_gids(path, (values[i:i + 65536] for i in range(0, len(values), 65536)), used)
    return values, used


# The array type code of 32-bit unsigned numbers: a base64 layer's gids.
_U32 = next(code for code in "IL" if array.array(code).itemsize == 4)


def _csv_pieces(text: str):
    """The numbers of a CSV layer, some thousands at a time: each piece an array of 32-bit gids
    (a list if a number does not fit in one: never a gid, but pytmx would take it), with the
    different numbers in it. Each different text is turned into a number once."""
    at = 0
    while at < len(text):
        end = text.find(",", at + 65536)
        end = len(text) if end < 0 else end
        texts = text[at:end].split(",")
        number = {t: int(t) for t in dict.fromkeys(texts)}  # int() as pytmx reads them
        try:
            yield array.array(_U32, map(number.__getitem__, texts)), number.values()
        except OverflowError:
            yield list(map(number.__getitem__, texts)), number.values()
        at = end + 1


def _note_gids(path: Path, pieces, gids: dict[int, None]) -> None:
    for piece in pieces:
        gids.update(dict.fromkeys(piece))
        if len(gids) > MAX_TILE_VARIANTS + 1:  # + 1: gid 0, an empty cell
            raise UserError(path, f"the map's tile layers use more than {MAX_TILE_VARIANTS:,} "
                            "different tiles (each flip or rotation of a tile counted apart), "
                            "far more than any real level; use fewer different tiles")


def _int_or_none(text: str | None) -> int | None:
    try:
        return int(text) if text is not None else None
    except ValueError:
        return None


def _inflate(raw: bytes, method: str, limit: int) -> bytes | None:
    """What zlib or gzip ``raw`` unpacks to, as pytmx will unpack it, but never more than
    ``limit`` + 1 bytes (so a zip bomb stops there). None if it is damaged."""
    out: list[bytes] = []
    total = 0
    try:
        while True:
            stream = zlib.decompressobj(31 if method == "gzip" else 15)
            out.append(stream.decompress(raw, limit + 1 - total))
            total += len(out[-1])
            if total > limit:
                break
            if not stream.eof:
                return None  # cut short
            raw = stream.unused_data.lstrip(b"\0")
            if method == "zlib" or not raw:  # zlib ignores what follows; gzip reads every member
                break
    except zlib.error:
        return None
    return b"".join(out)


_LAYERS = ("layer", "group", "objectgroup", "imagelayer")


def _check_numbers(path: Path, root: ET.Element, budget: _Budget) -> None:
    """Every number the game reads from objects and layers is finite and within the map's reach
    (nan, inf or 1e300 would pass headless and break the window's drawing)."""
    reach = f"from {-MAX_MAP_PX:,} to {MAX_MAP_PX:,} px"
    for el in root.iter():
        if el.tag == "object":
            what = f"object {quoted(el.get('name', ''))} (id {quoted(el.get('id', '?'))})"
            fix = "fix it in Tiled's Properties panel (or in the file)"
            for attr in ("x", "y"):
                _number(path, el, attr, what, -MAX_MAP_PX, MAX_MAP_PX, reach, fix)
            for attr in ("width", "height"):
                _number(path, el, attr, what, 0, MAX_MAP_PX, f"from 0 to {MAX_MAP_PX:,} px", fix)
            _number(path, el, "rotation", what, -360, 360, "from -360 to 360 degrees", fix)
            _whole(path, el, "id", what, fix, least=0, default=0, most=2**31 - 1)
        elif el.tag in _LAYERS:
            what = f"{el.tag} {quoted(el.get('name', ''))}"
            fix = "fix it in Tiled's Properties panel (or in the file)"
            for attr in ("offsetx", "offsety"):
                _number(path, el, attr, what, -MAX_MAP_PX, MAX_MAP_PX, reach, fix)
            _number(path, el, "opacity", what, 0, 1, "from 0 to 1", fix)
        elif el.tag in ("polygon", "polyline"):
            budget.points += (el.get("points") or "").count(" ") + 1
            if budget.points > MAX_POINTS:
                raise UserError(path, f"the map and its tilesets hold more than {MAX_POINTS:,} "
                                "polygon and polyline points, far more than any real level; "
                                "simplify those shapes")


def _number(where: Path, el: ET.Element, attr: str, what: str, least: float, most: float,
            span: str, fix: str) -> None:
    raw = el.get(attr)
    if raw is None:
        return
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not least <= value <= most:  # false for nan too
        raise UserError(where, f"{what} has {attr}={quoted(raw)}; it must be a number {span}; "
                        f"{fix}")


def _check_tileset(map_path: Path, ts: ET.Element, tw: int, th: int, files: list[Path],
                   budget: _Budget) -> _Tileset:
    where, node, base = map_path, ts, map_path.parent
    source = ts.get("source")
    label = _shown(source or ts.get("name", "?"))
    firstgid = _whole(map_path, ts, "firstgid", f"tileset {label}", "re-save the map from Tiled",
                      most=GID_MASK)
    if source:
        tsx = Path(os.path.normpath(map_path.parent / source))
        if _file_kind(tsx) != "file":
            raise UserError(map_path, f"tileset {label} not found (looked in {tsx.parent}); "
                            "put the .tsx file there or fix the path with Tiled's "
                            "Map > Replace Tileset")
        node = _read_xml(tsx, "tileset", "a Tiled tileset (.tsx)", budget)
        where, base = tsx, tsx.parent
        files.append(tsx)
        _check_numbers(tsx, node, budget)
        _check_reserved_names(tsx, node)
    name = _shown(node.get("name") or source or "?")
    what = f"tileset {name}"
    fix = "fix it in Tiled's Tileset Properties (or in the file) and save the tileset again"
    size = (_whole(where, node, "tilewidth", what, fix, most=MAX_IMAGE_SIDE),
            _whole(where, node, "tileheight", what, fix, most=MAX_IMAGE_SIDE))
    margin = _whole(where, node, "margin", what, fix, least=0, default=0, most=MAX_IMAGE_SIDE)
    spacing = _whole(where, node, "spacing", what, fix, least=0, default=0, most=MAX_IMAGE_SIDE)
    count = _whole(where, node, "tilecount", what, fix, least=0, default=-1, most=MAX_TILES)
    columns = _whole(where, node, "columns", what, fix, least=0, default=-1, most=MAX_IMAGE_SIDE)
    ids = set()
    for tile in node.iter("tile"):
        tile_id = _whole(where, tile, "id", f"a <tile> of tileset {name}", fix, least=0,
                         most=GID_MASK)
        _spend_tiles(where, name, 1, budget)
        image = tile.find("image")
        if image is not None:
            real = _check_image(where, base, image, f"tileset {name}", files, budget)
            if real is not None:
                ids.add(tile_id)
                _spend_pixels(where, f"the tiles of tileset {name}",  # a copy per tile
                              real.width * real.height, budget)
    sheet = node.find("image")
    if sheet is None:  # an image collection: every tile has its own picture
        return _Tileset(firstgid, name, where, size, ids=frozenset(ids))
    if size != (tw, th):
        raise UserError(where, f"tileset {name} has {size[0]}x{size[1]} px tiles but the map uses "
                        f"{tw}x{th} px; use a tileset with the map's tile size")
    image = _check_image(where, base, sheet, f"tileset {name}", files, budget)
    if image is None:  # image data inside the file, which pytmx does not read
        return _Tileset(firstgid, name, where, size, margin, spacing, max(count, 0), 1)
    real = (image.width, image.height)
    label = f"tileset image {_shown(sheet.get('source'))} of tileset {name}"
    redo = "re-save the tileset from Tiled"
    declared = (_whole(where, sheet, "width", label, redo, most=MAX_IMAGE_SIDE),
                _whole(where, sheet, "height", label, redo, most=MAX_IMAGE_SIDE))
    if real[0] < declared[0] or real[1] < declared[1]:
        raise UserError(where, f"{label} is {real[0]}x{real[1]} px but the tileset says "
                        f"{declared[0]}x{declared[1]} px; put the full image back, or pick the "
                        "image again in Tiled's Tileset Properties and check the tiles")
    # pytmx registers every tile of the grid it cuts from the declared size, used or not.
    _spend_tiles(where, name, len(range(margin, declared[0] + margin - size[0] + 1,
                                        size[0] + spacing))
                 * len(range(margin, declared[1] + margin - size[1] + 1, size[1] + spacing)),
                 budget)

    # What Tiled cuts from the image (it goes by the real picture), and what the counts need.
    def grid_of(w: int, h: int) -> tuple[int, int]:
        return (max(0, (w - margin + spacing) // (size[0] + spacing)),
                max(0, (h - margin + spacing) // (size[1] + spacing)))
    fit_cols, fit_rows = grid_of(*declared)
    if grid_of(*real) != (fit_cols, fit_rows):  # the picture grew by whole tiles
        now = grid_of(*real)
        raise UserError(where, f"{label} is {real[0]}x{real[1]} px but the tileset says "
                        f"{declared[0]}x{declared[1]} px, so Tiled now cuts it into "
                        f"{now[0]}x{now[1]} tiles, not {fit_cols}x{fit_rows}; open the tileset "
                        "in Tiled, check its tiles and save it again")
    cols = columns if columns > 0 else fit_cols
    tiles = count if count >= 0 else fit_cols * fit_rows
    rows = -(-tiles // cols) if cols else 0
    need = (margin + cols * size[0] + max(cols - 1, 0) * spacing,
            margin + rows * size[1] + max(rows - 1, 0) * spacing)
    if tiles and (cols == 0 or need[0] > declared[0] or need[1] > declared[1]):
        extra = f", margin {margin}, spacing {spacing}" if margin or spacing else ""
        real_note = f" (the file itself is {real[0]}x{real[1]} px)" if real != declared else ""
        raise UserError(where, f"tileset {name} has {tiles} tiles of {size[0]}x{size[1]} px in "
                        f"{cols} columns{extra}, which need an image of at least "
                        f"{need[0]}x{need[1]} px, but its image "
                        f"{_shown(sheet.get('source'))} is {declared[0]}x{declared[1]} "
                        f"px{real_note}; use the full image, or fix the tile size, margin and "
                        "spacing in Tiled's Tileset Properties")
    return _Tileset(firstgid, name, where, size, margin, spacing, tiles, max(fit_cols, 1))


def _spend_tiles(where: Path, name: str, tiles: int, budget: _Budget) -> None:
    budget.tiles += tiles
    if budget.tiles > MAX_TILES:
        raise UserError(where, f"tileset {name} takes the map's tilesets past {MAX_TILES:,} "
                        "tiles together, far more than any real level; use fewer or smaller "
                        "tilesets (or larger tiles)")


def _spend_pixels(where: Path, label: str, pixels: int, budget: _Budget) -> None:
    budget.image_pixels += pixels
    if budget.image_pixels > MAX_IMAGE_PIXELS:
        raise UserError(where, f"{label} take the pictures the window holds past "
                        f"{MAX_IMAGE_PIXELS // 1_000_000} million pixels together (every image "
                        "file, a copy of every tile of an image collection and of every "
                        "different tile the map places), far more than any real level; use "
                        "fewer or smaller images or tiles")


def _check_image(where: Path, base: Path, image: ET.Element, owner: str, files: list[Path],
                 budget: _Budget) -> ImageInfo | None:
    """An <image> of ``owner``: None if it has no file (its data inside the XML, which pytmx
    does not read); else its format and size, once it is known that pygame will load it."""
    src = image.get("source")
    if not src:
        return None
    file = Path(os.path.normpath(base / src))  # the path the window will open (normpath too)
    label = f"tileset image {_shown(src)} of {owner}"
    if owner.startswith("image layer"):
        label = f"image {_shown(src)} of {owner}"
    kind = _file_kind(file)
    if kind == "missing":
        raise UserError(where, f"{label} not found (looked in {file.parent}); put the image "
                        "there or fix the image path in Tiled")
    if kind != "file":
        raise UserError(where, f"{label} is not a file; point it at an image ({FORMATS}) in "
                        "Tiled")
    files.append(file)
    key = file.resolve()
    if key in budget.images:
        return budget.images[key]
    try:
        budget.image_bytes += file.stat().st_size
        if budget.image_bytes > MAX_IMAGE_BYTES:
            raise UserError(where, f"{label} takes the map's image files past "
                            f"{MAX_IMAGE_BYTES // 1_000_000} MB together, far more than any real "
                            "level; check that it is the right file, or use smaller images")
        info = probe(file)
        if info.width > MAX_IMAGE_SIDE or info.height > MAX_IMAGE_SIDE:
            raise UserError(where, f"{label} is {info.width}x{info.height} px; at most "
                            f"{MAX_IMAGE_SIDE} px a side is read; use a smaller image")
        _spend_pixels(where, f"{label} ({info.width}x{info.height} px) and the images "
                      "before it", info.width * info.height, budget)
        verify(file, info)
    except BadImage as exc:
        raise UserError(where, f"{label} {exc}; {exc.fix}") from None
    except OSError as exc:
        raise UserError(where, f"cannot read {label} ({exc.strerror or exc})") from None
    budget.images[key] = info
    return info


def _check_reserved_names(path: Path, root: ET.Element) -> None:
    owners = ("map", "layer", "objectgroup", "imagelayer", "group", "object", "tileset")
    for el in root.iter():
        if el.tag not in owners:
            continue
        props = el.find("properties")
        if props is None:
            continue
        for prop in props.findall("property"):
            name = prop.get("name", "")
            if name in RESERVED or name in el.attrib:
                label = el.get("name") or el.get("id") or ""
                owner = "the map" if el.tag == "map" else f"{el.tag} {quoted(label)}"
                raise UserError(path, f"custom property {quoted(name)} on {owner} has the "
                                "name of a built-in attribute; rename it in Tiled")


def _import_pytmx():
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


def _parse_with_pytmx(path: Path, root: ET.Element, info: _MapInfo):
    """pytmx's map, made from the very tree that was checked (not from the file read again).

    pytmx numbers the gids it meets in the order it meets them, calling Python once per cell of
    every tile layer, which is most of the time a big map takes to load. The checks have decoded
    every layer already, so pytmx gets, in place of each layer's cells, only the gids that layer
    places first, in the order it places them: it numbers them exactly as it would number the
    whole layer, and does the rest of its work (tilesets, tile properties, objects) as usual.
    Its tile layers then hold those few gids, not the cells: :func:`_build_level` reads the
    cells from ``info``. The tree is put back as it was.
    """
    pytmx = _import_pytmx()
    datas = [layer.find("data") for layer in root.iter("layer")]
    kept = [(data.text, dict(data.attrib)) for data in datas]
    for data, layer in zip(datas, info.layers, strict=True):
        data.attrib.clear()
        data.set("encoding", "csv")
        data.text = ",".join(map(str, layer.new)) or "0"
    try:
        tmx = pytmx.TiledMap()  # no file name: nothing parsed yet
        tmx.filename = str(path)  # what it finds .tsx files and images beside
        tmx.parse_xml(root)
        return tmx
    except Exception as exc:  # pytmx raises bare Exception/ValueError/KeyError for bad files
        raise UserError(path, f"pytmx could not read the map ({type(exc).__name__}: "
                        f"{_shown(str(exc), 200)}); open and re-save it in Tiled 1.8 or "
                        "newer") from None
    finally:
        for data, (text, attrib) in zip(datas, kept):
            data.text = text
            data.attrib.clear()
            data.attrib.update(attrib)


# ----------------------------------------------------------------------------------------------
# Building the level
# ----------------------------------------------------------------------------------------------

def _build_level(path: Path, root: ET.Element, tmx, info: _MapInfo,
                 player_size: tuple[float, float]) -> Level:
    cols, rows, tw, th = tmx.width, tmx.height, tmx.tilewidth, tmx.tileheight
    flags_of = dict(v for v in tmx.imagemap.values() if isinstance(v, tuple))
    tiled_tile_layer = _import_pytmx().TiledTileLayer
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

    props = dict(tmx.properties)
    objects = tuple(_objects(root))
    spawn, is_point = _spawn(path, objects, player_size, grid)
    bad = overlapping_tiles(grid, spawn.x, spawn.y, spawn.w, spawn.h, spawn.y + spawn.h, True)
    if bad:
        c, r = bad[0]
        if is_point:
            raise UserError(path, f"the spawn overlaps a collision tile at column {c}, row {r}: "
                            f"the player's {_px(spawn.w)}x{_px(spawn.h)} px hitbox, standing on "
                            "the spawn point, reaches into it (its size comes from config.toml's "
                            "[player] width/height); move the spawn object into free space in "
                            "Tiled, or make [player] width/height smaller")
        raise UserError(path, f"the spawn overlaps a collision tile at column {c}, row {r}; move "
                        "the spawn object into free space in Tiled")
    goals = tuple(Rect(o["x"], o["y"], o["w"], o["h"]) for o in objects if o["kind"] == "goal")
    walkers = _walkers(path, objects, grid)
    features = _features(path, tile_layers, layers_by_id, feature_of, objects, grid, spawn,
                         walkers)
    platforms = platform_spawns(path, objects, grid)
    next_level = props.get("next_level")
    if next_level is not None and not isinstance(next_level, str):
        raise UserError(path, "map property next_level must be a string (a .tmx file name)")
    if next_level and _file_kind(path.parent / next_level) != "file":
        raise UserError(path, f"map property next_level names {_shown(next_level)}, which "
                        f"does not exist (looked in {path.parent}); fix the property in Map > "
                        "Map Properties")
    return Level(
        path=path,
        title=str(props.get("title") or path.stem.replace("_", " ")),
        grid=grid,
        spawn=spawn,
        spawn_is_point=is_point,
        goals=goals,
        next_level=next_level or None,
        properties=props,
        layers=tuple(_draw_layers(root, layers_by_id, cols)),
        tiles=_tile_images(tmx, flags_of, info),
        background=_colour(root.get("backgroundcolor")),
        objects=objects,
        files=info.files,
        walkers=walkers,
        features=features,
        platforms=platforms,
    )


def _features(path: Path, tile_layers, layers_by_id, feature_of, objects, grid: TileGrid,
              spawn: Rect, walkers: tuple[WalkerSpawn, ...]) -> TileFeatures:
    """Hazards, friction, water, doors and the flow objects (game.maps.tiles); none: NO_FEATURES."""
    kinds = {o["kind"] for o in objects}
    if not feature_of and not kinds & {"checkpoint", "coin", "switch"} and not any(
            "door" in layer.properties for layer in tile_layers):
        return NO_FEATURES
    cols, tw, th = grid.cols, grid.tile_w, grid.tile_h
    layers = [(layer.name, layer.properties, layers_by_id[int(getattr(layer, "id", 0) or 0)])
              for layer in tile_layers]
    hazards, friction, water = cell_features(
        [gids for _n, props, gids in layers if "door" not in props], feature_of, cols, tw, th)
    doors = door_groups(path, layers, cols)

    def free(x, y, w, h):
        bad = overlapping_tiles(grid, x, y, w, h, y + h, True)
        return bad[0] if bad else None

    checkpoints, coins, switches = flow_objects(path, objects, grid, (spawn.w, spawn.h), doors,
                                                free)
    if doors:
        pw, ph = spawn.w, spawn.h
        check_clear_of_doors(path, doors, grid, [
            ("spawn", spawn.x, spawn.y, spawn.w, spawn.h),
            *((f"walker (id {w.id})", w.x, w.y, w.w, w.h) for w in walkers),
            *((f"checkpoint (id {c.id})'s respawn point", *c.spawn, pw, ph) for c in checkpoints)])
    return TileFeatures(hazards, friction, water, doors, checkpoints, coins, switches)


def _cell_masks(data: _LayerData, gids: list[int], number: Mapping[int, int],
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
               ts: _Tileset) -> tuple[int, tuple[float, float] | None]:
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


def _px(v: float) -> str:
    return f"{v:g}"


def _objects(root: ET.Element):
    """Every object of every object layer, in map pixels, with ``kind`` from type or class."""
    def walk(el: ET.Element, ox: float, oy: float):
        for child in el:
            if child.tag in ("group", "objectgroup"):
                yield from walk(child, ox + float(child.get("offsetx", 0)),
                                oy + float(child.get("offsety", 0)))
            elif child.tag == "object" and el.tag == "objectgroup":
                x, y = float(child.get("x", 0)) + ox, float(child.get("y", 0)) + oy
                w, h = float(child.get("width", 0)), float(child.get("height", 0))
                if child.get("gid"):
                    y -= h  # tile objects are anchored at their bottom-left corner
                shape = next((s for s in ("point", "ellipse", "polygon", "polyline", "text")
                              if child.find(s) is not None), "rectangle")
                kind = (child.get("type") or child.get("class") or "").strip().lower()
                obj = {"id": int(child.get("id", 0)), "name": child.get("name", ""),
                       "kind": kind, "shape": shape, "x": x, "y": y, "w": w, "h": h}
                if kind in ("walker", "switch", "platform"):
                    obj["props"] = _raw_properties(child)
                if shape == "polyline":
                    obj["points"] = _polyline_points(child.find("polyline"), x, y)
                yield obj
    yield from walk(root, 0.0, 0.0)


def _polyline_points(el: ET.Element, x: float, y: float) -> tuple[tuple[float, float], ...]:
    """A polyline's vertices in map pixels (Tiled writes them relative to the object); a vertex
    that is not two numbers is left out (the platform loader then says the path is too short)."""
    points = []
    for pair in (el.get("points") or "").split():
        try:
            px, py = (float(v) for v in pair.split(","))
        except ValueError:
            continue
        if math.isfinite(px) and math.isfinite(py):
            points.append((x + px, y + py))
    return tuple(points)


def _raw_properties(el: ET.Element) -> dict[str, tuple[str, str]]:
    """An object's own custom properties as {name: (type, value text)}, as the file has them."""
    props = el.find("properties")
    if props is None:
        return {}
    return {prop.get("name", ""): (prop.get("type", "string"),
                                   prop.get("value", prop.text or ""))
            for prop in props.findall("property")}


def _one_edit_apart(a: str, b: str) -> bool:
    """True if a and b differ by one typo: a letter changed, added, dropped or two swapped
    (case aside: 'Speed' is a typo of 'speed')."""
    a, b = a.lower(), b.lower()
    if a == b:
        return True
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                  and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1:] == short for i in range(len(long)))


def _walkers(path: Path, objects: tuple[dict, ...], grid: TileGrid) -> tuple[WalkerSpawn, ...]:
    """The spawns of the objects of class (type) ``walker``, in object id order."""
    found = sorted((o for o in objects if o["kind"] == "walker"), key=lambda o: o["id"])
    if len(found) > MAX_WALKERS:
        raise UserError(path, f"the map has {len(found):,} walker objects, more than the "
                        f"{MAX_WALKERS:,} a level may hold; remove some in Tiled")
    return tuple(_walker(path, o, grid) for o in found)


def _walker(path: Path, o: dict, grid: TileGrid) -> WalkerSpawn:
    label = f"walker {quoted(o['name'])} (id {o['id']})" if o["name"] else f"walker (id {o['id']})"
    if o["shape"] == "point":
        w, h = WALKER_SIZE
        x, y = o["x"] - w / 2, o["y"] - h
    elif o["shape"] != "rectangle" or o["w"] <= 0 or o["h"] <= 0:
        raise UserError(path, f"the {label} is a {o['shape']}; make it a point (the feet of a "
                        f"{_px(WALKER_SIZE[0])}x{_px(WALKER_SIZE[1])} px walker) or a rectangle "
                        "with a size (its hitbox)")
    elif max(o["w"], o["h"]) > MAX_BODY_PX:
        raise UserError(path, f"the {label} is {_px(o['w'])}x{_px(o['h'])} px; a walker's hitbox "
                        f"is at most {MAX_BODY_PX}x{MAX_BODY_PX} px: make it smaller in Tiled")
    else:
        x, y, w, h = o["x"], o["y"], o["w"], o["h"]
    if x < 0 or y < 0 or x + w > grid.width_px or y + h > grid.height_px:
        raise UserError(path, f"the {label} at x={_px(o['x'])}, y={_px(o['y'])} is outside the "
                        f"map: its {_px(w)}x{_px(h)} px hitbox spans x {_px(x)} to {_px(x + w)}, "
                        f"y {_px(y)} to {_px(y + h)}; the map is {grid.width_px}x"
                        f"{grid.height_px} px; move the walker inside it")
    bad = overlapping_tiles(grid, x, y, w, h, y + h, True)
    if bad:
        c, r = bad[0]
        raise UserError(path, f"the {label} overlaps a collision tile at column {c}, row {r}; "
                        "move it into free space in Tiled (a point walker stands on the point)")

    speed, direction = WALKER_SPEED, WALKER_DIRECTION
    for name, (kind, value) in o["props"].items():
        if name == "speed":
            number = float_value(kind, value)
            if number is None or not 0 <= number <= WALKER_TOP_SPEED:  # nan fails too
                raise UserError(path, f"the {label} has speed={quoted(value)} ({kind}); make it "
                                f"a float property from 0 to {WALKER_TOP_SPEED:g} (px/s) in "
                                "Tiled's Properties panel")
            speed = number
        elif name == "direction":
            if value not in WALKER_DIRECTIONS:
                raise UserError(path, f"the {label} has direction={quoted(value)}; use "
                                + " or ".join(WALKER_DIRECTIONS) + " (the enum 'direction' of "
                                "the project lists them)")
            direction = value
        else:
            close = [k for k in ("speed", "direction") if _one_edit_apart(name, k)]
            if close:
                raise UserError(path, f"the {label} has a property {quoted(name)}; did you mean "
                                f"{close[0]}? (rename it in Tiled's Properties panel)")
    return WalkerSpawn(o["id"], x, y, w, h, speed, WALKER_DIRECTIONS[direction])


def _spawn(path: Path, objects: tuple[dict, ...], size: tuple[float, float],
           grid: TileGrid) -> tuple[Rect, bool]:
    found = [o for o in objects if o["name"] == "spawn" or o["kind"] == "player"]
    if not found:
        raise UserError(path, "no spawn: add an object named 'spawn' (or of class 'player') to an "
                        "object layer, as a point at the player's feet or a rectangle")
    if len(found) > 1:
        ids = ", ".join(str(o["id"]) for o in found)
        raise UserError(path, f"{len(found)} spawn objects (ids {ids}); keep exactly one object "
                        "named 'spawn' or of class 'player'")
    o = found[0]
    if o["shape"] == "point":
        w, h = size
        box, is_point = Rect(o["x"] - w / 2, o["y"] - h, w, h), True
    elif o["shape"] != "rectangle" or o["w"] <= 0 or o["h"] <= 0:
        raise UserError(path, f"the spawn object (id {o['id']}) is a {o['shape']}; make it a point "
                        "or a rectangle with a size")
    elif max(o["w"], o["h"]) > MAX_BODY_PX:
        raise UserError(path, f"the spawn rectangle (id {o['id']}) is {_px(o['w'])}x{_px(o['h'])} "
                        f"px; the player's hitbox is at most {MAX_BODY_PX}x{MAX_BODY_PX} px: "
                        "make it smaller in Tiled")
    else:
        box, is_point = Rect(o["x"], o["y"], o["w"], o["h"]), False
    _check_spawn_inside(path, o, box, is_point, grid)
    return box, is_point


def _check_spawn_inside(path: Path, o: dict, box: Rect, is_point: bool, grid: TileGrid) -> None:
    """The player's box must start inside the map; only its top may stick out above the map."""
    map_w, map_h = grid.width_px, grid.height_px
    if box.x < 0:
        side = "reaches left of the map (x < 0)"
    elif box.x + box.w > map_w:
        side = f"reaches right of the map (x > {map_w})"
    elif box.y + box.h > map_h:
        side = f"reaches below the map's bottom (y > {map_h})"
    elif box.y + box.h <= 0:
        side = "is entirely above the map's top (y < 0)"
    else:
        return
    label = f"{quoted(o['name'])} " if o["name"] else ""
    what = (f"the player's {_px(box.w)}x{_px(box.h)} px hitbox standing on it (size from "
            "config.toml's [player] width/height)" if is_point else "its rectangle")
    raise UserError(path, f"the spawn object {label}(id {o['id']}) at x={_px(o['x'])}, "
                    f"y={_px(o['y'])} is outside the map: {what} spans x {_px(box.x)} to "
                    f"{_px(box.x + box.w)}, y {_px(box.y)} to {_px(box.y + box.h)} and {side}; "
                    f"the map is {map_w}x{map_h} px ({grid.cols}x{grid.rows} tiles); move the "
                    "spawn inside it")


def _draw_layers(root: ET.Element, by_id: Mapping[int, Sequence[int]], cols: int):
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
            door = _raw_properties(child).get("door")
            yield TileLayer(child.get("name", ""), vis, op, (dx, dy),
                            tuple(tuple(gids[i:i + cols]) for i in range(0, len(gids), cols)),
                            seen_objects, door[1] if door else None)
    return walk(root, True, 1.0, 0.0, 0.0)


def _tile_images(tmx, flags_of: Mapping[int, Any], info: _MapInfo) -> dict[int, TileImage]:
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


def _colour(value: str | None) -> tuple[int, int, int] | None:
    if not value:
        return None
    v = value.lstrip("#")
    if len(v) == 8:  # Tiled writes #AARRGGBB
        v = v[2:]
    try:
        return int(v[0:2], 16), int(v[2:4], 16), int(v[4:6], 16)
    except ValueError:
        return None
