"""What a map shows beyond its tile layers' cells, read once for the view: tile objects, image
layers, tile animations, tilesets' transparent colours, and each layer's parallax factor and tint.

No pygame here: pictures are named by :class:`~game.maps.level.TileImage` (file, source
rectangle, flips) and the view cuts them. Everything comes from the map's checked TMX tree (after
``game.maps.formats``), the way Tiled itself draws it:

* layers in file order; a group's opacity, offset, visibility, tint (multiplied) and parallax
  factor (multiplied) apply to everything inside it;
* a tile object is its tile's picture stretched to the object's size, its bottom-left corner at
  the object's position (a tileset's own object alignment was turned into that position when
  the map was loaded: ``game.maps.objects.align_tile_objects``; moved by its tileset's
  drawing offset, stretched alike), turned ``rotation`` degrees clockwise about that
  position, flipped by the flags of its gid (the
  objects the game draws as its own bodies -- walkers, platforms, coins, switches,
  checkpoints, goals, the player's start -- are left to it);
* an animated tile shows frame after frame, each for its own duration, looping; the frames are
  tiles of the same tileset;
* an image layer's picture sits at the layer's offset, repeated along x and/or y if asked;
* a tileset's (or image layer's) transparent colour is drawn see-through.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from game.maps.imagefile import BadImage, probe
from game.maps.records import TileImage

FLIP_H, FLIP_V, FLIP_D = 0x80000000, 0x40000000, 0x20000000
GID_MASK = 0x0FFFFFFF

Colour = tuple[int, int, int, int]  # RGBA, 0-255
ImageKey = tuple[str, tuple[int, int, int, int] | None]  # (file, source rectangle)
WHITE: Colour = (255, 255, 255, 255)


@dataclass(frozen=True)
class Look:
    """How a layer is drawn, its groups' settings folded in."""

    visible: bool = True
    opacity: float = 1.0
    offset: tuple[float, float] = (0.0, 0.0)
    parallax: tuple[float, float] = (1.0, 1.0)
    tint: Colour = WHITE

    def inside(self, el: ET.Element) -> Look:
        """This look for a layer or group ``el`` inside the group this look is of."""
        px, py = (_float(el.get("parallaxx"), 1.0), _float(el.get("parallaxy"), 1.0))
        return Look(self.visible and el.get("visible", "1") != "0",
                    self.opacity * _float(el.get("opacity"), 1.0),
                    (self.offset[0] + _float(el.get("offsetx"), 0.0),
                     self.offset[1] + _float(el.get("offsety"), 0.0)),
                    (self.parallax[0] * px, self.parallax[1] * py),
                    _times(self.tint, colour(el.get("tintcolor")) or WHITE))


@dataclass(frozen=True)
class TileLayerArt:
    index: int  # into Level.layers
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


def key(source: str, rect) -> ImageKey:
    """How a picture is named in :class:`MapArt`: its file's absolute path, its rectangle."""
    return os.path.normpath(os.path.abspath(source)), tuple(rect) if rect else None


# ----------------------------------------------------------------------------------------------

@dataclass
class _Sheet:
    """A tileset, for cutting tiles: where its picture(s) are and how tiles are cut."""

    firstgid: int
    base: Path  # the folder its image paths are relative to
    node: ET.Element
    size: tuple[int, int] = (0, 0)
    margin: int = 0
    spacing: int = 0
    columns: int = 1
    image: str | None = None  # one picture cut into tiles; None: an image collection
    tiles: dict[int, ET.Element] = field(default_factory=dict)
    offset: tuple[int, int] = (0, 0)  # <tileoffset>: every tile drawn this far off its place
    fit: bool = False  # Tiled 1.9+ fillmode preserve-aspect-fit: a stretched tile keeps its shape

    def picture(self, tile_id: int) -> tuple[str, tuple[int, int, int, int] | None] | None:
        if self.image is not None:
            w, h = self.size
            row, col = divmod(tile_id, max(1, self.columns))
            return self.image, (self.margin + col * (w + self.spacing),
                                self.margin + row * (h + self.spacing), w, h)
        tile = self.tiles.get(tile_id)
        image = None if tile is None else tile.find("image")
        if image is None or not image.get("source"):
            return None
        source = os.path.normpath(os.path.abspath(self.base / image.get("source")))
        if tile.get("width") or tile.get("x"):  # Tiled 1.9+: a part of the picture
            return source, (_int(tile.get("x")), _int(tile.get("y")),
                            _int(tile.get("width"), _int(image.get("width"))),
                            _int(tile.get("height"), _int(image.get("height"))))
        return source, None

    def picture_size(self, tile_id: int, picture) -> tuple[int, int]:
        """The size of a tile's picture (``picture``: what :meth:`picture` gave): its part of
        the sheet, or an image collection's image as the file says (else the tile size)."""
        if picture[1]:
            return picture[1][2], picture[1][3]
        image = self.tiles[tile_id].find("image")
        return (_int(image.get("width")) or self.size[0], _int(image.get("height")) or self.size[1])


ReadTileset = Callable[[Path], ET.Element]


def read_art(path: Path, root: ET.Element, read_tileset: ReadTileset) -> MapArt:
    """The map's art (see the module's docstring). ``root`` is the checked, normalised tree;
    ``read_tileset`` reads an external tileset file (already checked by the loader)."""
    sheets = [_sheet(path, ts, read_tileset) for ts in root.findall("tileset")]
    sheets.sort(key=lambda s: s.firstgid)
    transparent: dict[str, tuple[int, int, int]] = {}
    frames: dict[ImageKey, tuple] = {}
    for s in sheets:
        for image in s.node.iter("image"):
            rgb = _rgb(image.get("trans"))
            if rgb and image.get("source"):
                transparent[os.path.normpath(os.path.abspath(s.base / image.get("source")))] = rgb
        for tile_id, tile in s.tiles.items():
            anim = tile.find("animation")
            base = s.picture(tile_id)
            if anim is None or base is None:
                continue
            out = []
            for f in anim.findall("frame"):
                pic = s.picture(_int(f.get("tileid")))
                if pic is not None:
                    out.append((pic[0], pic[1], max(1, _int(f.get("duration"), 100))))
            if len(out) > 1:
                frames[key(*base)] = tuple(out)
    layers: list[LayerArt] = []
    counter = {"tiles": 0, "sprites": False}

    def walk(el: ET.Element, look: Look) -> None:
        for child in el:
            if child.tag not in ("layer", "group", "objectgroup", "imagelayer"):
                continue
            mine = look.inside(child)
            if child.tag == "group":
                walk(child, mine)
            elif child.tag == "layer":
                layers.append(TileLayerArt(counter["tiles"], mine))
                counter["tiles"] += 1
            elif child.tag == "objectgroup":
                first = not counter["sprites"]
                counter["sprites"] = True
                layers.append(ObjectLayerArt(tuple(_tile_objects(child, mine, sheets)), mine,
                                             first))
            else:
                image = child.find("image")
                source = None
                if image is not None and image.get("source"):
                    source = os.path.normpath(os.path.abspath(path.parent / image.get("source")))
                if source is not None and os.path.isfile(source):  # else a note: drawn empty
                    trans = _rgb(image.get("trans"))
                    if trans:
                        transparent[source] = trans
                    layers.append(ImageLayerArt(source, mine, child.get("repeatx") == "1",
                                                child.get("repeaty") == "1", trans))
    walk(root, Look())
    origin = (_float(root.get("parallaxoriginx"), 0.0), _float(root.get("parallaxoriginy"), 0.0))
    return MapArt(tuple(layers), frames, transparent, origin)


def _sheet(path: Path, ts: ET.Element, read_tileset: ReadTileset) -> _Sheet:
    node, base = ts, path.parent
    if ts.get("source"):
        file = Path(os.path.normpath(path.parent / ts.get("source")))
        node, base = read_tileset(file), file.parent
    s = _Sheet(_int(ts.get("firstgid"), 1), base, node,
               (_int(node.get("tilewidth")), _int(node.get("tileheight"))),
               _int(node.get("margin")), _int(node.get("spacing")),
               _int(node.get("columns"), 1))
    image = node.find("image")
    if image is not None and image.get("source"):
        s.image = os.path.normpath(os.path.abspath(base / image.get("source")))
        # the columns Tiled cuts from the picture (as the loader does: game.maps.level)
        width = _int(image.get("width"))
        try:  # Tiled cuts by the picture itself, whatever the file says (game.maps.checks)
            width = probe(Path(s.image)).width
        except (OSError, BadImage):
            pass
        s.columns = max(1, (width - s.margin + s.spacing) // max(1, s.size[0] + s.spacing))
    s.tiles = {_int(t.get("id")): t for t in node.findall("tile")}
    s.fit = node.get("fillmode") == "preserve-aspect-fit"
    shift = node.find("tileoffset")
    if shift is not None:
        s.offset = (_int(shift.get("x")), _int(shift.get("y")))
    return s


def _tile_objects(group: ET.Element, look: Look, sheets: list[_Sheet]) -> list[TileObject]:
    """The group's tile objects in the order Tiled draws them: by their y (the default
    "topdown" draw order; a stable sort, so equal ys keep the file's order), or as the file
    lists them for draw order "index"."""
    objects = list(group.findall("object"))
    if group.get("draworder", "topdown") != "index":
        objects.sort(key=lambda o: _float(o.get("y"), 0.0))
    return list(_pictured(objects, look, sheets))


def _pictured(objects: list[ET.Element], look: Look, sheets: list[_Sheet]):
    ox, oy = look.offset
    for obj in objects:
        raw = _int(obj.get("gid"))
        if not raw or obj.get("visible", "1") == "0" or is_body(obj):
            continue
        gid = raw & GID_MASK
        sheet = next((s for s in reversed(sheets) if s.firstgid <= gid), None)
        pic = None if sheet is None else sheet.picture(gid - sheet.firstgid)
        if pic is None:
            continue
        size = sheet.picture_size(gid - sheet.firstgid, pic)
        w, h = _float(obj.get("width"), 0.0), _float(obj.get("height"), 0.0)
        if not w or not h:  # Tiled 1.0 and older saved no size: the tile's own
            w, h = w or float(size[0]), h or float(size[1])
        image = TileImage(pic[0], pic[1], bool(raw & FLIP_H), bool(raw & FLIP_V),
                          bool(raw & FLIP_D), fit=sheet.fit)
        dx, dy = sheet.offset
        if size[0] and size[1]:
            sx, sy = w / size[0], h / size[1]
            if sheet.fit:  # scaled alike both ways, as its picture is
                sx = sy = min(sx, sy)
            dx, dy = dx * sx, dy * sy
        x, y = _float(obj.get("x"), 0.0), _float(obj.get("y"), 0.0)
        yield TileObject(image, x + ox, y + oy, w, h, _float(obj.get("rotation"), 0.0),
                         (x, y), (dx, dy))


# Objects the game gives a body or a sprite of its own (game.maps.level, game.sim): drawn by the
# game, not as their tile.
BODY_KINDS = {"walker", "platform", "switch", "checkpoint", "coin", "goal"}
START_WORDS = ("player", "spawn", "start")


def is_body(obj: ET.Element) -> bool:
    """Does the game give this object a body or a sprite of its own (so it is not drawn as its
    tile)?"""
    kind = (obj.get("type") or obj.get("class") or "").strip().lower()
    name = (obj.get("name") or "").strip().lower()
    return kind in BODY_KINDS or any(w in kind or w in name for w in START_WORDS)


def colour(value: str | None) -> Colour | None:
    """A Tiled colour (#RRGGBB or #AARRGGBB) as RGBA."""
    if not value:
        return None
    v = value.strip().lstrip("#")
    try:
        if len(v) == 8:
            return int(v[2:4], 16), int(v[4:6], 16), int(v[6:8], 16), int(v[0:2], 16)
        if len(v) == 6:
            return int(v[0:2], 16), int(v[2:4], 16), int(v[4:6], 16), 255
    except ValueError:
        pass
    return None


def _rgb(value: str | None) -> tuple[int, int, int] | None:
    c = colour(value)
    return None if c is None else c[:3]


def _times(a: Colour, b: Colour) -> Colour:
    return tuple(round(x * y / 255) for x, y in zip(a, b))  # type: ignore[return-value]


def _float(text: str | None, default: float) -> float:
    try:
        return float(text) if text is not None else default
    except ValueError:
        return default


def _int(text: str | None, default: int = 0) -> int:
    try:
        return int(float(text)) if text is not None else default
    except ValueError:
        return default
