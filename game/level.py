"""Loading a Tiled map into the game's own level data (no pygame, no images).

``load_level`` checks the file first with ElementTree, so that every mistake pytmx would meet
with a bare exception (an infinite map, a zstd layer, a missing tileset, ...) gets a message that
says what to change in Tiled. Then pytmx parses the map *without images*, and the result is
turned once into a :class:`Level`: a :class:`~game.grid.TileGrid` of tile kinds, the spawn, the
goals, the map's properties and, for the view, its tile layers in file order with the source
rectangle of every tile image.

Everything the game later trusts is checked here, so that ``--headless`` passing means the window
will run too: numbers parse, tile gids belong to a tileset, tileset images exist and (for PNG)
are as large as their tiles need, the spawn is inside the map and free, ``next_level`` exists.
"""

from __future__ import annotations

import math
import os
import struct
import sys
import xml.etree.ElementTree as ET
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.errors import UserError
from game.grid import EMPTY, KIND_STRENGTH, ONE_WAY, SLOPE, SOLID, TileGrid
from game.resolvers.base import overlapping_tiles

COLLISION_KINDS = {"solid": SOLID, "one_way": ONE_WAY, "slope": SLOPE}
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
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


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
class _MapInfo:
    tilesets: tuple[_Tileset, ...]
    files: tuple[Path, ...]

    def tileset_of(self, tiled_gid: int) -> _Tileset | None:
        """The tileset of a gid, as Tiled decides: the one with the largest firstgid <= gid."""
        below = [ts for ts in self.tilesets if ts.firstgid <= tiled_gid]
        return max(below, key=lambda ts: ts.firstgid) if below else None


def load_level(path: str | os.PathLike, player_size: tuple[float, float] = (12.0, 14.0)) -> Level:
    """Read a Tiled .tmx file, or raise UserError saying what to change in Tiled.

    ``player_size`` is the hitbox of a point spawn: config.toml's ``[player] width/height``.
    """
    path = Path(path)
    root = _read_xml(path, "map", "a Tiled map (.tmx)")
    info = _check_map(path, root)
    tmx = _parse_with_pytmx(path)
    return _build_level(path, root, tmx, info, player_size)


# ----------------------------------------------------------------------------------------------
# Checks before pytmx sees the file
# ----------------------------------------------------------------------------------------------

def _read_xml(path: Path, tag: str, what: str) -> ET.Element:
    if path.is_dir():
        raise UserError(path, f"is a folder; give the path of {what}")
    if not path.is_file():
        raise UserError(path, f"file not found; check the path (expected {what})")
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as exc:
        raise UserError(path, f"not {what}: the XML is broken ({exc}); re-save it from Tiled, "
                        "as .tmx (JSON maps are not supported)") from None
    except OSError as exc:
        raise UserError(path, f"cannot read the file ({exc})") from None
    if root.tag != tag:
        raise UserError(path, f"not {what}: its root element is <{root.tag}>, not <{tag}>")
    return root


def _check_map(path: Path, root: ET.Element) -> _MapInfo:
    orientation = root.get("orientation", "orthogonal")
    if orientation != "orthogonal":
        raise UserError(path, f"the map is {orientation}; only orthogonal maps are supported "
                        "(in Tiled: Map > Map Properties > Orientation: Orthogonal)")
    if root.get("infinite", "0") == "1" or root.find(".//chunk") is not None:
        raise UserError(path, "the map is infinite; untick Map > Map Properties > Infinite in "
                        "Tiled and save again")
    for data in root.iter("data"):
        if data.get("compression") == "zstd":
            raise UserError(path, "a tile layer is zstd-compressed, which cannot be read; in "
                            "Tiled set Map > Map Properties > Tile Layer Format to CSV or "
                            "Base64 (zlib) and save again")
    resize = "set the map's size in Tiled with Map > Resize Map"
    retile = "set the map's tile size in Tiled in Map > Map Properties"
    _whole(path, root, "width", "the map", resize)
    _whole(path, root, "height", "the map", resize)
    tw = _whole(path, root, "tilewidth", "the map", retile)
    th = _whole(path, root, "tileheight", "the map", retile)
    files = [path]
    tilesets = tuple(_check_tileset(path, ts, tw, th, files) for ts in root.iter("tileset"))
    _check_reserved_names(path, root)
    return _MapInfo(tilesets, tuple(dict.fromkeys(f.resolve() for f in files)))


def _whole(where: Path, el: ET.Element, attr: str, what: str, fix: str, least: int = 1,
           default: int | None = None) -> int:
    """Attribute ``attr`` of ``el`` as a whole number >= ``least`` (absent: ``default``)."""
    raw = el.get(attr)
    if raw is None and default is not None:
        return default
    try:
        value = int(raw) if raw is not None else None
    except ValueError:
        value = None
    if value is None or value < least:
        shown = f"no {attr}" if raw is None else f"{attr}={raw!r}"
        must = "a whole number above 0" if least == 1 else f"a whole number from {least} up"
        raise UserError(where, f"{what} has {shown}; it must be {must}; {fix}")
    return value


def _check_tileset(map_path: Path, ts: ET.Element, tw: int, th: int,
                   files: list[Path]) -> _Tileset:
    where, node, base = map_path, ts, map_path.parent
    source = ts.get("source")
    firstgid = _whole(map_path, ts, "firstgid", f"tileset {source or ts.get('name', '?')}",
                      "re-save the map from Tiled")
    if source:
        tsx = Path(os.path.normpath(map_path.parent / source))
        if not tsx.is_file():
            raise UserError(map_path, f"tileset {source} not found (looked in {tsx.parent}); "
                            "put the .tsx file there or fix the path with Tiled's "
                            "Map > Replace Tileset")
        node = _read_xml(tsx, "tileset", "a Tiled tileset (.tsx)")
        where, base = tsx, tsx.parent
        files.append(tsx)
        _check_reserved_names(tsx, node)
    name = node.get("name") or source or "?"
    what = f"tileset {name}"
    fix = "fix it in Tiled's Tileset Properties (or in the file) and save the tileset again"
    size = (_whole(where, node, "tilewidth", what, fix),
            _whole(where, node, "tileheight", what, fix))
    margin = _whole(where, node, "margin", what, fix, least=0, default=0)
    spacing = _whole(where, node, "spacing", what, fix, least=0, default=0)
    count = _whole(where, node, "tilecount", what, fix, least=0, default=-1)
    columns = _whole(where, node, "columns", what, fix, least=0, default=-1)
    ids = set()
    for tile in node.iter("tile"):
        tile_id = _whole(where, tile, "id", f"a <tile> of tileset {name}", fix, least=0)
        image = tile.find("image")
        if image is not None and _check_image(where, base, image, name, files) is not None:
            ids.add(tile_id)
    sheet = node.find("image")
    if sheet is None:  # an image collection: every tile has its own picture
        return _Tileset(firstgid, name, where, size, ids=frozenset(ids))
    if size != (tw, th):
        raise UserError(where, f"tileset {name} has {size[0]}x{size[1]} px tiles but the map uses "
                        f"{tw}x{th} px; use a tileset with the map's tile size")
    real = _check_image(where, base, sheet, name, files)
    if real is None:  # image data inside the file, which pytmx does not read
        return _Tileset(firstgid, name, where, size, margin, spacing, max(count, 0), 1)
    label = f"tileset image {sheet.get('source')} of tileset {name}"
    redo = "re-save the tileset from Tiled"
    declared = (_whole(where, sheet, "width", label, redo),
                _whole(where, sheet, "height", label, redo))
    if real and (real[0] < declared[0] or real[1] < declared[1]):
        raise UserError(where, f"{label} is {real[0]}x{real[1]} px but the tileset says "
                        f"{declared[0]}x{declared[1]} px; put the full image back, or pick the "
                        "image again in Tiled's Tileset Properties and check the tiles")
    # What Tiled cuts from the image (it goes by the real picture), and what the counts need.
    def grid_of(w: int, h: int) -> tuple[int, int]:
        return (max(0, (w - margin + spacing) // (size[0] + spacing)),
                max(0, (h - margin + spacing) // (size[1] + spacing)))
    fit_cols, fit_rows = grid_of(*declared)
    if real and grid_of(*real) != (fit_cols, fit_rows):  # the picture grew by whole tiles
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
        real_note = (f" (the file itself is {real[0]}x{real[1]} px)"
                     if real and real != declared else "")
        raise UserError(where, f"tileset {name} has {tiles} tiles of {size[0]}x{size[1]} px in "
                        f"{cols} columns{extra}, which need an image of at least "
                        f"{need[0]}x{need[1]} px, but its image {sheet.get('source')} is "
                        f"{declared[0]}x{declared[1]} px{real_note}; use the full image, or fix "
                        "the tile size, margin and spacing in Tiled's Tileset Properties")
    return _Tileset(firstgid, name, where, size, margin, spacing, tiles, max(fit_cols, 1))


def _check_image(where: Path, base: Path, image: ET.Element, tileset: str,
                 files: list[Path]) -> tuple[int, int] | tuple[()] | None:
    """Check a tileset's <image>: None if it has no file, () if not a PNG, else its PNG size."""
    src = image.get("source")
    if not src:
        return None
    file = base / src
    if not file.is_file():
        raise UserError(where, f"tileset image {src} of tileset {tileset} not found (looked in "
                        f"{file.parent}); put the image there or fix the tileset's image path "
                        "in Tiled")
    files.append(file)
    if file.suffix.lower() != ".png":
        return ()
    return _png_size(where, file, f"tileset image {src} of tileset {tileset}")


def _png_size(where: Path, file: Path, label: str) -> tuple[int, int]:
    """A PNG's width and height from its header (the IHDR chunk right after the signature).

    The chunks are walked to IEND with their checksums, so a file cut short or damaged is found
    here too, without decoding the picture (and without pygame).
    """
    try:
        data = file.read_bytes()
    except OSError as exc:
        raise UserError(where, f"cannot read {label} ({exc.strerror or exc})") from None
    size = struct.unpack(">II", data[16:24]) if len(data) >= 24 else (0, 0)
    if data[:8] != PNG_SIGNATURE or data[12:16] != b"IHDR" or 0 in size:
        raise UserError(where, f"{label} is named .png but is not a PNG image; save the picture "
                        "as PNG there, or point the tileset at the right file in Tiled")
    at, whole = 8, False
    while not whole and at + 12 <= len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        end = at + 12 + length
        if end > len(data) or zlib.crc32(data[at + 4:end - 4]) != int.from_bytes(
                data[end - 4:end], "big"):
            break
        whole, at = kind == b"IEND", end
    if not whole:
        raise UserError(where, f"{label} is a damaged PNG (cut short or corrupted); export the "
                        "picture again")
    return size


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
                owner = "the map" if el.tag == "map" else f"{el.tag} {label!r}"
                raise UserError(path, f"custom property {name!r} on {owner} has the "
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


def _parse_with_pytmx(path: Path):
    pytmx = _import_pytmx()

    try:
        return pytmx.TiledMap(str(path))
    except Exception as exc:  # pytmx raises bare Exception/ValueError/KeyError for bad files
        raise UserError(path, f"pytmx could not read the map ({type(exc).__name__}: {exc}); "
                        "open and re-save it in Tiled 1.8 or newer") from None


# ----------------------------------------------------------------------------------------------
# Building the level
# ----------------------------------------------------------------------------------------------

def _build_level(path: Path, root: ET.Element, tmx, info: _MapInfo,
                 player_size: tuple[float, float]) -> Level:
    cols, rows, tw, th = tmx.width, tmx.height, tmx.tilewidth, tmx.tileheight
    flags_of = dict(v for v in tmx.imagemap.values() if isinstance(v, tuple))
    tile_kinds: dict[int, tuple[int, tuple[float, float] | None]] = {0: (EMPTY, None)}

    def kind_of(gid: int, layer, c: int, r: int) -> tuple[int, tuple[float, float] | None]:
        if gid not in tile_kinds:
            tiled_gid = tmx.tiledgidmap.get(gid, gid)
            ts = info.tileset_of(tiled_gid)
            if ts is None or not ts.holds(tiled_gid - ts.firstgid):
                raise UserError(path, f"tile layer {layer.name!r} uses tile gid {tiled_gid} (at "
                                f"column {c}, row {r}), which no tileset holds; remove it or "
                                "add the tileset")
            tile_kinds[gid] = _tile_kind(path, tmx, gid, flags_of.get(gid), th, ts)
        return tile_kinds[gid]

    kinds = bytearray(cols * rows)
    slopes: dict[int, tuple[float, float]] = {}
    layers_by_id = {}
    for layer in tmx.layers:
        if not hasattr(layer, "data") or not isinstance(layer.data, list):
            continue
        if len(layer.data) != rows or any(len(row) != cols for row in layer.data):
            raise UserError(path, f"tile layer {layer.name!r} does not hold {cols}x{rows} tiles "
                            "like the map; in Tiled use Map > Resize Map (or re-save the map)")
        layers_by_id[int(getattr(layer, "id", 0) or 0)] = layer
        for r, row in enumerate(layer.data):
            for c, gid in enumerate(row):
                if not gid:
                    continue
                kind, heights = kind_of(gid, layer, c, r)
                i = r * cols + c
                if KIND_STRENGTH[kind] > KIND_STRENGTH[kinds[i]]:
                    kinds[i] = kind
                    if heights is not None:
                        slopes[i] = heights
                    else:
                        slopes.pop(i, None)
    grid = TileGrid(cols, rows, tw, th, bytes(kinds), slopes)

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
    next_level = props.get("next_level")
    if next_level is not None and not isinstance(next_level, str):
        raise UserError(path, "map property next_level must be a string (a .tmx file name)")
    if next_level and not (path.parent / next_level).is_file():
        raise UserError(path, f"map property next_level names {next_level}, which does not exist "
                        f"(looked in {path.parent}); fix the property in Map > Map Properties")
    return Level(
        path=path,
        title=str(props.get("title") or path.stem.replace("_", " ")),
        grid=grid,
        spawn=spawn,
        spawn_is_point=is_point,
        goals=goals,
        next_level=next_level or None,
        properties=props,
        layers=tuple(_draw_layers(root, layers_by_id)),
        tiles=_tile_images(tmx, flags_of, info),
        background=_colour(root.get("backgroundcolor")),
        objects=objects,
        files=info.files,
    )


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
        raise UserError(ts.file, f"{where} has collision={value!r}; use one of: "
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
                yield {"id": int(child.get("id", 0)), "name": child.get("name", ""),
                       "kind": (child.get("type") or child.get("class") or "").strip().lower(),
                       "shape": shape, "x": x, "y": y, "w": w, "h": h}
    yield from walk(root, 0.0, 0.0)


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
    label = f"'{o['name']}' " if o["name"] else ""
    what = (f"the player's {_px(box.w)}x{_px(box.h)} px hitbox standing on it (size from "
            "config.toml's [player] width/height)" if is_point else "its rectangle")
    raise UserError(path, f"the spawn object {label}(id {o['id']}) at x={_px(o['x'])}, "
                    f"y={_px(o['y'])} is outside the map: {what} spans x {_px(box.x)} to "
                    f"{_px(box.x + box.w)}, y {_px(box.y)} to {_px(box.y + box.h)} and {side}; "
                    f"the map is {map_w}x{map_h} px ({grid.cols}x{grid.rows} tiles); move the "
                    "spawn inside it")


def _draw_layers(root: ET.Element, by_id: Mapping[int, Any]):
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
            layer = by_id.get(int(child.get("id", 0)))
            if layer is None:
                continue
            yield TileLayer(child.get("name", ""), vis, op, (dx, dy),
                            tuple(tuple(row) for row in layer.data), seen_objects)
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
