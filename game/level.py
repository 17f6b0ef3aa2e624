"""Loading a Tiled map into the game's own level data (no pygame, no images).

``load_level`` checks the file first with ElementTree, so that every mistake pytmx would meet
with a bare exception (an infinite map, a zstd layer, a missing tileset, ...) gets a message that
says what to change in Tiled. Then pytmx parses the map *without images*, and the result is
turned once into a :class:`Level`: a :class:`~game.grid.TileGrid` of tile kinds, the spawn, the
goals, the map's properties and, for the view, its tile layers in file order with the source
rectangle of every tile image.
"""

from __future__ import annotations

import math
import os
import sys
import xml.etree.ElementTree as ET
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
    """A tile layer as Tiled draws it: its own attributes combined with its groups'."""

    name: str
    visible: bool
    opacity: float
    offset: tuple[float, float]
    gids: tuple[tuple[int, ...], ...]  # [row][col], pytmx gids (0 = empty)


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

    @property
    def tile_size(self) -> tuple[int, int]:
        return self.grid.tile_w, self.grid.tile_h


def load_level(path: str | os.PathLike, player_size: tuple[float, float] = (12.0, 14.0)) -> Level:
    """Read a Tiled .tmx file, or raise UserError saying what to change in Tiled."""
    path = Path(path)
    root = _read_xml(path, "map", "a Tiled map (.tmx)")
    _check_map(path, root)
    tmx = _parse_with_pytmx(path, root)
    return _build_level(path, root, tmx, player_size)


# ----------------------------------------------------------------------------------------------
# Checks before pytmx sees the file
# ----------------------------------------------------------------------------------------------

def _read_xml(path: Path, tag: str, what: str) -> ET.Element:
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


def _check_map(path: Path, root: ET.Element) -> None:
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
    try:
        tw, th = int(root.get("tilewidth", "")), int(root.get("tileheight", ""))
        int(root.get("width", "")), int(root.get("height", ""))
    except ValueError:
        raise UserError(path, "the map has no valid width, height, tilewidth or tileheight; "
                        "re-save it from Tiled") from None
    for ts in root.iter("tileset"):
        _check_tileset(path, ts, tw, th)
    _check_reserved_names(path, root)


def _check_tileset(map_path: Path, ts: ET.Element, tw: int, th: int) -> None:
    where, node, base = map_path, ts, map_path.parent
    source = ts.get("source")
    if source:
        tsx = (map_path.parent / source)
        if not tsx.is_file():
            raise UserError(map_path, f"tileset {source} not found (looked in {tsx.parent}); "
                            "put the .tsx file there or fix the path with Tiled's "
                            "Map > Replace Tileset")
        node = _read_xml(tsx, "tileset", "a Tiled tileset (.tsx)")
        where, base = tsx, tsx.parent
        _check_reserved_names(tsx, node)
    name = node.get("name", source or "?")
    size = (int(node.get("tilewidth", tw)), int(node.get("tileheight", th)))
    if node.find("image") is not None and size != (tw, th):
        raise UserError(where, f"tileset {name} has {size[0]}x{size[1]} px tiles but the map uses "
                        f"{tw}x{th} px; use a tileset with the map's tile size")
    for image in node.iter("image"):
        src = image.get("source")
        if src and not (base / src).is_file():
            raise UserError(where, f"tileset image {src} of tileset {name} not found (looked in "
                            f"{(base / src).parent}); put the image there or fix the tileset's "
                            "image path in Tiled")


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
                raise UserError(path, f"custom property {name!r} on {el.tag} {label!r} has the "
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


def _parse_with_pytmx(path: Path, root: ET.Element):
    pytmx = _import_pytmx()

    try:
        return pytmx.TiledMap(str(path))
    except Exception as exc:  # pytmx raises bare Exception/ValueError/KeyError for bad files
        raise UserError(path, f"pytmx could not read the map ({type(exc).__name__}: {exc}); "
                        "open and re-save it in Tiled 1.8 or newer") from None


# ----------------------------------------------------------------------------------------------
# Building the level
# ----------------------------------------------------------------------------------------------

def _build_level(path: Path, root: ET.Element, tmx, player_size: tuple[float, float]) -> Level:
    cols, rows, tw, th = tmx.width, tmx.height, tmx.tilewidth, tmx.tileheight
    flags_of = dict(v for v in tmx.imagemap.values() if isinstance(v, tuple))
    tile_kinds: dict[int, tuple[int, tuple[float, float] | None]] = {0: (EMPTY, None)}

    def kind_of(gid: int) -> tuple[int, tuple[float, float] | None]:
        if gid not in tile_kinds:
            tile_kinds[gid] = _tile_kind(path, tmx, gid, flags_of.get(gid), th)
        return tile_kinds[gid]

    kinds = bytearray(cols * rows)
    slopes: dict[int, tuple[float, float]] = {}
    layers_by_id = {}
    for layer in tmx.layers:
        if not hasattr(layer, "data") or not isinstance(layer.data, list):
            continue
        layers_by_id[int(getattr(layer, "id", 0) or 0)] = layer
        for r, row in enumerate(layer.data):
            for c, gid in enumerate(row):
                if not gid:
                    continue
                kind, heights = kind_of(gid)
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
    spawn, is_point = _spawn(path, objects, player_size)
    bad = overlapping_tiles(grid, spawn.x, spawn.y, spawn.w, spawn.h, spawn.y + spawn.h, True)
    if bad:
        c, r = bad[0]
        raise UserError(path, f"the spawn overlaps a collision tile at column {c}, row {r}; move "
                        "the spawn object into free space in Tiled")
    goals = tuple(Rect(o["x"], o["y"], o["w"], o["h"]) for o in objects if o["kind"] == "goal")
    next_level = props.get("next_level")
    if next_level is not None and not isinstance(next_level, str):
        raise UserError(path, "map property next_level must be a string (a .tmx file name)")
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
        tiles=_tile_images(tmx, flags_of),
        background=_colour(root.get("backgroundcolor")),
        objects=objects,
    )


def _tile_kind(path: Path, tmx, gid: int, flags, th: int) -> tuple[int, tuple[float, float] | None]:
    """(kind, slope heights) of a pytmx gid, from its tile's custom properties."""
    props = _tile_properties(tmx, gid)
    value = props.get("collision")
    if value is None or value == "":
        return EMPTY, None
    where = _tile_label(tmx, gid)
    if value not in COLLISION_KINDS:
        raise UserError(path, f"{where} has collision={value!r}; use one of: "
                        + ", ".join(COLLISION_KINDS) + " (or remove the property for decoration)")
    kind = COLLISION_KINDS[value]
    if kind != SLOPE:
        return kind, None
    heights = []
    for key in ("slope_left", "slope_right"):
        h = props.get(key)
        if h is None or isinstance(h, bool) or not isinstance(h, (int, float)):
            raise UserError(path, f"{where} is a slope but has no int property {key}; add "
                            f"{key} (0 to {th}, the floor's height in px at that edge)")
        if not 0 <= h <= th or not math.isfinite(h):
            raise UserError(path, f"{where} has {key}={h}, outside the tile; use 0 to {th}")
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


def _tile_label(tmx, gid: int) -> str:
    tiled_gid = tmx.tiledgidmap.get(gid, gid)
    for ts in sorted(tmx.tilesets, key=lambda t: t.firstgid, reverse=True):
        if tiled_gid >= ts.firstgid:
            return f"tile {tiled_gid - ts.firstgid} of tileset {ts.name}"
    return f"tile gid {tiled_gid}"


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


def _spawn(path: Path, objects: tuple[dict, ...], size: tuple[float, float]) -> tuple[Rect, bool]:
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
        return Rect(o["x"] - w / 2, o["y"] - h, w, h), True
    if o["shape"] != "rectangle" or o["w"] <= 0 or o["h"] <= 0:
        raise UserError(path, f"the spawn object (id {o['id']}) is a {o['shape']}; make it a point "
                        "or a rectangle with a size")
    return Rect(o["x"], o["y"], o["w"], o["h"]), False


def _draw_layers(root: ET.Element, by_id: Mapping[int, Any]):
    """Tile layers in file order, with group visibility, opacity and offsets folded in."""
    def walk(el: ET.Element, visible: bool, opacity: float, ox: float, oy: float):
        for child in el:
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
                            tuple(tuple(row) for row in layer.data))
    return walk(root, True, 1.0, 0.0, 0.0)


def _tile_images(tmx, flags_of: Mapping[int, Any]) -> dict[int, TileImage]:
    out = {}
    for gid, loaded in enumerate(tmx.images):
        if not loaded:
            continue
        source, rect, _ = loaded
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
