"""Step 2 of loading: the map and everything it pulls in, made into one plain TMX document for
pytmx and, side by side, the records of the typed model (``game.maps.model``).

Every form Tiled saves a map in comes out the same:

* **JSON maps, tilesets and templates** were written as TMX elements when they were read
  (``game.maps.files``, ``game.maps.tiled_json``);
* **tilesets** are in the document, external ones too (``game.maps.tilesets``): pytmx opens
  no file; their pictures are checked once and written with their real size;
* **object templates** are applied (``game.maps.templates``);
* **group layers** are folded into their layers as Tiled composes them (visibility, opacity,
  offsets summed, parallax and tint multiplied): the model's layers are in file order;
* **infinite maps**: their chunks are placed on one fixed grid covering every chunk of every
  layer (a map with no tiles at all, on its objects); objects, image layers and the parallax
  origin move with the grid's origin (the ``note:`` says by how much; on a staggered or
  hexagonal map an odd shift flips the stagger index: ``game.maps.orientation``);
* **tile data** in any encoding and compression, and Tiled's oldest ``<tile gid>`` elements,
  decoded once (``game.maps.decode``) into the model's cells; the document's tile layers hold
  the different tiles each places (its palette), which is all pytmx needs of them;
* **image layers placed by x and y** (Tiled before 0.15; libGDX's writer still does): those
  become their offset; an image layer with no picture (Tiled writes one) is left out;
* **tile objects** are moved to where they would stand with Tiled's default object alignment,
  keeping their picture where Tiled shows it; objects that share an id, or have none (maps from
  before Tiled 1.0), get ids of their own (with a note for the first);
* **custom properties** pytmx cannot read (named like one of its attributes; class-typed ones)
  are left out (``game.maps.checked``).

Every number is checked where it is read, before anything is built from it, and every limit
(``game.maps.limits``) is applied before the work it bounds.
"""

from __future__ import annotations

import array
import math
import os
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

from game.errors import UserError, quoted
from game.maps import checked, decode
from game.maps.files import MAP, Reader, image_problem, real
from game.maps.imagefile import FORMATS, BadImage
from game.maps.limits import (MAX_LAYER_CELLS, MAX_LAYERS, MAX_MAP_CELLS, MAX_MAP_PX, MAX_POINTS,
                              MAX_TILE_PX, MAX_TILE_VARIANTS, MAX_TILESETS, MIN_TILE_PX,
                              file_kind, shown)
from game.maps.model import (GID_MASK, HEX_120, WHITE, ImageLayer, Look, MapModel, MapObject,
                             ObjectLayer, TileLayer, colour)
from game.maps.orientation import Orientation, moved_origin, read_orientation
from game.maps.templates import Templates
from game.maps.tilesets import Tileset, read_tileset, spend_pixels

LAYER_TAGS = ("layer", "objectgroup", "imagelayer", "group")
REACH = f"from {-MAX_MAP_PX:,} to {MAX_MAP_PX:,} px"
MAX_PARALLAX = 1000.0  # a layer's parallax factor, either way
# Tiled's object alignments (a tileset's "objectalignment", Tiled 1.4+): the point of a tile
# object's picture that its position gives, as fractions of its width and height.
ALIGNMENTS = {"topleft": (0.0, 0.0), "top": (0.5, 0.0), "topright": (1.0, 0.0),
              "left": (0.0, 0.5), "center": (0.5, 0.5), "right": (1.0, 0.5),
              "bottomleft": (0.0, 1.0), "bottom": (0.5, 1.0), "bottomright": (1.0, 1.0)}


@dataclass
class Document:
    """What normalising a map gives: the document pytmx reads, the model's records (their
    custom properties still to come from pytmx: ``names`` says which each element has), the
    files read and the notes."""

    path: Path
    tree: ET.Element
    model: MapModel
    names: dict[tuple, tuple[str, ...]]
    notes: list[str] = field(default_factory=list)
    files: tuple[Path, ...] = ()
    origin: tuple[int, int] = (0, 0)  # the tile, in Tiled's numbering, at the grid's top left


def normalise(path: Path, reader: Reader, play: bool = True) -> Document:
    """Read the map at ``path`` (and through ``reader`` everything it names) into a
    :class:`Document`. ``play=False``: the map is only drawn, so its orientation may be any."""
    return _Normaliser(path, reader, play).run()


@dataclass
class _Entry:
    """A layer of the map, its groups folded in, on its way to the document."""

    tag: str
    el: ET.Element
    look: Look
    objects: list[ET.Element] = field(default_factory=list)  # an object layer's, templates applied


class _Normaliser:
    def __init__(self, path: Path, reader: Reader, play: bool) -> None:
        self.path, self.reader, self.play = path, reader, play
        self.notes: list[str] = []
        self.dropped: dict = {}  # (file, property name) -> the owners it was left out of
        self.names: dict[tuple, tuple[str, ...]] = {}
        self.reads: list = []  # tilesets.Read, in the map's order
        self.by_file: dict[Path, int] = {}  # an external tileset's file -> its firstgid
        self.infinite_grid: tuple[int, int] | None = None  # an infinite map's top-left tile
        self.chunk_bounds: dict[int, list[tuple[int, int, int, int]]] = {}  # data -> chunks

    # --- the map ------------------------------------------------------------------------------

    def run(self) -> Document:
        path, raw = self.path, self.reader.document(self.path, MAP)
        self.orientation = read_orientation(path, raw, self.play)
        retile = "set the map's tile size in Tiled in Map > Map Properties"
        self.tile = (checked.whole(path, raw, "tilewidth", "the map", retile, least=MIN_TILE_PX,
                                   most=MAX_TILE_PX),
                     checked.whole(path, raw, "tileheight", "the map", retile, least=MIN_TILE_PX,
                                   most=MAX_TILE_PX))
        infinite = raw.get("infinite", "0").strip() == "1" or raw.find(".//chunk") is not None
        self._count(raw)
        tree = ET.Element("map", {k: v for k, v in raw.attrib.items() if k in (
            "version", "tiledversion", "orientation", "renderorder", "staggeraxis",
            "staggerindex", "hexsidelength")})
        props, self.names[("map",)] = checked.properties(path, raw, "the map",
                                                         _reserved("map", raw), self.dropped)
        if props is not None:
            tree.append(props)
        for i, ts in enumerate(raw.findall("tileset")):
            self._tileset(ts, i)
        self.templates = Templates(path, self.reader, self._tileset_for)
        entries = list(self._layers(raw, Look()))
        origin = [checked.number(path, raw, f"parallaxorigin{a}", "the map", -MAX_MAP_PX,
                                 MAX_MAP_PX, 0.0) for a in "xy"]
        if infinite:
            size, shift, screen = self._finite(raw, entries)
            origin = [origin[0] + screen[0], origin[1] + screen[1]]
        else:
            resize = "set the map's size in Tiled with Map > Resize Map"
            size = (checked.whole(path, raw, "width", "the map", resize, most=MAX_MAP_CELLS),
                    checked.whole(path, raw, "height", "the map", resize, most=MAX_MAP_CELLS))
            shift = screen = (0.0, 0.0)
        self.cols, self.rows = size
        if self.orientation.kind in ("staggered", "hexagonal"):  # its index may have flipped
            tree.set("staggerindex", "even" if self.orientation.stagger_even else "odd")
        self._check_size(sum(1 for e in entries if e.tag == "layer"))
        background = colour(raw.get("backgroundcolor"))
        for key, value in (("width", self.cols), ("height", self.rows),
                           ("tilewidth", self.tile[0]), ("tileheight", self.tile[1])):
            tree.set(key, str(value))
        tree.set("infinite", "0")
        if raw.get("backgroundcolor") and background is not None:
            tree.set("backgroundcolor", raw.get("backgroundcolor").strip())
        tree.extend(r.element for r in self.reads)
        layers, placed = self._build_layers(entries, shift, screen, tree)
        tilesets = tuple(sorted((r.tileset for r in self.reads), key=lambda ts: ts.firstgid))
        model = MapModel(path, self.cols, self.rows, self.tile[0], self.tile[1], tilesets,
                         tuple(layers), background=background,
                         parallax_origin=(origin[0], origin[1]), orientation=self.orientation,
                         placed=tuple(placed))
        self._check_tiles(model)
        self.notes += checked.dropped_notes(self.dropped)
        return Document(path, tree, model, self.names, self.notes, tuple(self.reader.files),
                        self.infinite_grid or (0, 0))

    def _count(self, raw: ET.Element) -> None:
        for what, tags, most in (("tilesets", ("tileset",), MAX_TILESETS),
                                 ("layers (tile, object, image and group layers)", LAYER_TAGS,
                                  MAX_LAYERS)):
            count = sum(1 for el in raw.iter() if el.tag in tags)
            if count > most:
                raise UserError(self.path, f"the map has {count:,} {what}, far more than any "
                                f"real level; at most {most:,} are read; merge or delete some")

    def _check_size(self, tile_layers: int) -> None:
        """The map's size against the limits, before any layer is decoded."""
        path, cols, rows, (tw, th) = self.path, self.cols, self.rows, self.tile
        resize = "make it smaller with Map > Resize Map, or split it into several levels"
        if cols * rows > MAX_MAP_CELLS:
            raise UserError(path, f"the map is {cols}x{rows} tiles ({cols * rows:,} cells); at "
                            f"most {MAX_MAP_CELLS:,} cells are read (e.g. 2000x1000); {resize}")
        for side, tiles, size in (("wide", cols, tw), ("high", rows, th)):
            if tiles * size > MAX_MAP_PX:
                raise UserError(path, f"the map is {tiles * size:,} px {side} ({tiles} tiles of "
                                f"{size} px); at most {MAX_MAP_PX:,} px are read; {resize}")
        if tile_layers * cols * rows > MAX_LAYER_CELLS:
            raise UserError(path, f"the map has {tile_layers} tile layers of {cols}x{rows} tiles "
                            f"({tile_layers * cols * rows:,} cells); at most {MAX_LAYER_CELLS:,} "
                            "are read (tile layers x map size); merge or delete tile layers, or "
                            "make the map smaller")

    # --- tilesets -----------------------------------------------------------------------------

    def _tileset(self, ts: ET.Element, index: int) -> None:
        got = read_tileset(self.path, ts, index, self.reader, self.tile, _reserved, self.notes,
                           self.dropped)
        self.reads.append(got)
        self.names.update({k: v for k, v in got.names.items() if v})
        if ts.get("source"):
            self.by_file.setdefault(real(self.path.parent / ts.get("source")),
                                    got.tileset.firstgid)

    def _tileset_for(self, template: Path, file: Path) -> int:
        """The firstgid of the tileset in ``file`` in the map, which gets it (once) if it
        lacks it: after every tileset's gids."""
        key = real(file)
        if key not in self.by_file:
            end = max((r.tileset.firstgid + _extent(r.tileset) for r in self.reads), default=1)
            ref = ET.Element("tileset", firstgid=str(end),
                             source=os.path.relpath(file, self.path.parent))
            if file_kind(file) != "file":
                raise UserError(template, f"its tileset {shown(str(file))} not found; put the "
                                "tileset there or fix the template in Tiled")
            self._tileset(ref, len(self.reads))
            self.by_file[key] = end
        return self.by_file[key]

    # --- layers -------------------------------------------------------------------------------

    def _layers(self, parent: ET.Element, look: Look):
        """The layers under ``parent`` in file order, each with its groups' look folded in."""
        for el in parent:
            if el.tag not in LAYER_TAGS:
                continue
            mine = look.inside(self._look(el))
            if el.tag == "group":
                yield from self._layers(el, mine)
            elif el.tag == "objectgroup":
                yield _Entry(el.tag, el, mine, [self.templates.applied(o)
                                                for o in el.findall("object")])
            elif el.tag == "imagelayer":
                image = el.find("image")
                if image is not None and (image.get("source") or "").strip():
                    yield _Entry(el.tag, el, mine)
                # else an empty image layer (Tiled writes one for a new layer): it draws nothing
            else:
                yield _Entry(el.tag, el, mine)

    def _look(self, el: ET.Element) -> Look:
        path, what = self.path, f"{el.tag} {quoted(el.get('name', ''))}"
        offset = [checked.number(path, el, f"offset{a}", what, -MAX_MAP_PX, MAX_MAP_PX, 0.0)
                  for a in "xy"]
        if el.tag == "imagelayer" and el.get("offsetx") is None:
            # placed by x and y (whole numbers, as Tiled reads them; anything else counts 0)
            offset = [float(v) if v.lstrip("+-").isdigit() and abs(int(v)) <= MAX_MAP_PX else 0.0
                      for v in (checked.text_of(el, "x"), checked.text_of(el, "y"))]
        parallax = tuple(checked.number(path, el, f"parallax{a}", what, -MAX_PARALLAX,
                                        MAX_PARALLAX, 1.0) for a in "xy")
        return Look(checked.flag(el, "visible", True),
                    checked.number(path, el, "opacity", what, 0.0, 1.0, 1.0),
                    (offset[0], offset[1]), parallax, colour(el.get("tintcolor")) or WHITE)

    def _build_layers(self, entries: list[_Entry], shift, screen, tree: ET.Element):
        """The model's layers and the document's, in file order (ids from 1); the gids placed,
        first placed first."""
        layers, placed = [], {}
        objects: list[list[ET.Element]] = []
        for number, e in enumerate(entries, 1):
            if e.tag == "layer":
                cells, used = self._cells(e.el, shift)
                for gid in used:
                    placed.setdefault(gid, None)
                layers.append(TileLayer(e.el.get("name", ""), e.look, cells, used,
                                        kind=_kind(e.el), id=number))
            elif e.tag == "imagelayer":
                look = e.look
                if screen != (0.0, 0.0):
                    look = Look(look.visible, look.opacity, (look.offset[0] + screen[0],
                                                             look.offset[1] + screen[1]),
                                look.parallax, look.tint)
                layers.append(self._image_layer(e.el, look, number))
            else:
                layers.append(ObjectLayer(e.el.get("name", ""), e.look,
                                          draw_index=e.el.get("draworder") == "index",
                                          kind=_kind(e.el), id=number))
                objects.append(e.objects)
            owner = f"{e.tag} {quoted(e.el.get('name', ''))}"
            props, names = checked.properties(self.path, e.el, owner, _reserved(e.tag, e.el),
                                              self.dropped)
            self.names[("layer", number)] = names
            tree.append(_layer_element(e, layers[-1], number, props, self.cols, self.rows))
        self._objects(layers, objects, shift, tree, placed)
        hexagonal = self.orientation.kind == "hexagonal"
        if not hexagonal:  # Tiled ignores bit 28 but on a hexagonal map: so does the game
            placed = dict.fromkeys(g & ~HEX_120 for g in placed)
        placed.pop(0, None)
        if len(placed) > MAX_TILE_VARIANTS:
            raise decode.too_many(self.path)
        spend_pixels(self.path, f"the {len(placed):,} different tiles the map places",
                     len(placed) * self.tile[0] * self.tile[1], self.reader.budget)
        return layers, list(placed)

    def _cells(self, layer: ET.Element, shift) -> tuple[array.array, tuple[int, ...]]:
        """A tile layer's cells (decoded once), and the different gids it places, in the order
        it first places them (as pytmx numbers them)."""
        name = f"tile layer {quoted(layer.get('name', ''))}"
        data = layer.find("data")
        if data is None:
            raise UserError(self.path, f"{name} has no <data>; re-save the map from Tiled")
        chunks = data.findall("chunk")
        if self.infinite_grid is not None:
            left, top = self.infinite_grid
            cells = decode.cells_array(self.cols * self.rows)
            for chunk, (x, y, w, h) in zip(chunks, self.chunk_bounds[id(data)]):
                values, _ = self._data(chunk, data, f"{name}'s chunk at ({x}, {y})", (w, h),
                                       (x, y))
                for row in range(h):
                    at = (y - top + row) * self.cols + x - left
                    cells[at:at + w] = values[row * w:(row + 1) * w]
            used = decode.distinct(self.path, cells)
        else:
            if (_int(layer.get("width")), _int(layer.get("height"))) != (self.cols, self.rows):
                raise UserError(self.path, f"{name} does not hold {self.cols}x{self.rows} tiles "
                                "like the map; in Tiled use Map > Resize Map (or re-save the map)")
            cells, used = self._data(data, data, name, (self.cols, self.rows), (0, 0))
        return cells, tuple(used)

    def _data(self, part: ET.Element, data: ET.Element, where: str, size: tuple[int, int],
              origin: tuple[int, int]) -> tuple[array.array, dict[int, None]]:
        encoding = data.get("encoding") or None
        if encoding is None and part.find("tile") is not None:
            out = self._xml_tiles(part, where, size)
            return out, decode.distinct(self.path, out)
        return decode.cells(self.path, where, encoding, data.get("compression") or None,
                            part.text or "", size, origin)

    def _xml_tiles(self, part: ET.Element, where: str, size: tuple[int, int]) -> array.array:
        """Tiled's oldest layer format: a ``<tile gid>`` element per cell (an empty one: 0)."""
        out = decode.cells_array()
        for tile in part.findall("tile"):
            value = (tile.get("gid") or "0").strip()
            if not (value.isascii() and value.isdigit() and len(value) <= 10
                    and int(value) < 1 << 32):
                raise UserError(self.path, f"{where} has a <tile> whose gid {quoted(value)} is "
                                "not a tile number; re-save the map from Tiled")
            out.append(int(value))
        if len(out) != size[0] * size[1]:
            raise UserError(self.path, f"{where} does not hold {size[0]}x{size[1]} tiles like "
                            "the map; in Tiled use Map > Resize Map (or re-save the map)")
        return out

    def _image_layer(self, el: ET.Element, look: Look, number: int) -> ImageLayer:
        image = el.find("image")
        source = image.get("source").strip()
        file = Path(os.path.normpath(self.path.parent / source))
        label = f"image {shown(source)} of image layer {quoted(el.get('name', ''))}"
        kind = file_kind(file)
        found: str | None = str(file)
        if kind == "missing":  # a picture only: Tiled draws the layer empty
            self.notes.append(f"{self.path}: {label} not found (looked in {file.parent}); put "
                              "the image there or fix the image path in Tiled; the layer is "
                              "drawn empty, as Tiled draws it")
            self.reader.watch(file)  # putting it back reloads the level
            found = None
        elif kind != "file":
            raise UserError(self.path, f"{label} is not a file; point it at an image "
                            f"({FORMATS}) in Tiled")
        else:
            try:
                self.reader.image(file)
            except (BadImage, OSError) as exc:
                raise UserError(self.path, f"{label} {image_problem(exc)}") from None
        return ImageLayer(el.get("name", ""), look, found, checked.flag(el, "repeatx"),
                          checked.flag(el, "repeaty"), colour(image.get("trans")),
                          kind=_kind(el), id=number)

    # --- infinite maps ------------------------------------------------------------------------

    def _finite(self, raw: ET.Element, entries: list[_Entry]):
        """An infinite map's grid: from the top-left chunk to the bottom-right one, or, with no
        tiles at all, around its objects. Returns (cols, rows), how far objects move (map px)
        and how far what sits on the screen moves."""
        path = self.path
        self.chunk_bounds = {}
        bounds = []
        plain = False
        for e in entries:
            data = e.el.find("data") if e.tag == "layer" else None
            if data is None:
                continue
            found = []
            for chunk in data.findall("chunk"):
                what = f"a chunk of tile layer {quoted(e.el.get('name', ''))}"
                fix = "re-save the map from Tiled"
                b = (checked.whole(path, chunk, "x", what, fix, least=-MAX_MAP_CELLS, default=0,
                                   most=MAX_MAP_CELLS),
                     checked.whole(path, chunk, "y", what, fix, least=-MAX_MAP_CELLS, default=0,
                                   most=MAX_MAP_CELLS),
                     checked.whole(path, chunk, "width", what, fix, most=MAX_MAP_CELLS),
                     checked.whole(path, chunk, "height", what, fix, most=MAX_MAP_CELLS))
                found.append(b)
            self.chunk_bounds[id(data)] = found
            bounds += found
            plain = plain or (not found and bool((data.text or "").strip()
                                                 or data.find("tile") is not None))
        tw, th = self.tile
        if plain or (not bounds and not any(e.objects for e in entries)):
            # marked infinite, but holding plain layers (Tiled never writes this)
            self.notes.append(f"{path}: the map is marked infinite but its layers are not in "
                              "chunks; read as the finite map its size says")
            resize = "set the map's size in Tiled with Map > Resize Map"
            self.chunk_bounds = {}
            return ((checked.whole(path, raw, "width", "the map", resize, most=MAX_MAP_CELLS),
                     checked.whole(path, raw, "height", "the map", resize, most=MAX_MAP_CELLS)),
                    (0.0, 0.0), (0.0, 0.0))
        if bounds:
            left, top = min(b[0] for b in bounds), min(b[1] for b in bounds)
            cols = max(b[0] + b[2] for b in bounds) - left
            rows = max(b[1] + b[3] for b in bounds) - top
            said = f"the infinite map's tiles, from tile ({left}, {top}), are placed on a grid"
        else:  # no tile at all: the grid around the objects
            x0, y0, x1, y1 = _objects_box(path, entries)
            left, top = math.floor(x0 / tw), math.floor(y0 / th)
            cols = max(1, math.ceil(x1 / tw) - left)
            rows = max(1, math.ceil(y1 / th) - top)
            said = (f"the infinite map has no tiles, so its grid is sized by its objects, from "
                    f"tile ({left}, {top})")
        if cols * rows > MAX_MAP_CELLS:
            raise UserError(path, f"the infinite map's chunks span {cols:,}x{rows:,} tiles, more "
                            f"than the {MAX_MAP_CELLS:,} a map may have; erase the far-away tiles "
                            "or untick Map > Map Properties > Infinite and resize it")
        self.infinite_grid = (left, top)
        nominal = checked.whole(path, raw, "height", "the map", "re-save the map from Tiled",
                                least=0, default=0, most=MAX_MAP_CELLS)
        shift, screen, flip = moved_origin(self.orientation, self.tile, nominal, left, top, rows)
        if flip:
            o = self.orientation
            self.orientation = Orientation(o.kind, o.stagger_x, not o.stagger_even, o.hex_side)
        if shift != (0, 0) or screen != (0, 0):
            self.notes.append(f"{path}: {said} of {cols}x{rows}; everything moved by "
                              f"({_px(shift[0])}, {_px(shift[1])}) px with them")
        else:
            self.notes.append(f"{path}: the infinite map's tiles are placed on a {cols}x{rows} "
                              "grid")
        return (cols, rows), shift, screen

    # --- objects ------------------------------------------------------------------------------

    def _objects(self, layers: list, groups: list[list[ET.Element]], shift, tree: ET.Element,
                 placed: dict[int, None]) -> None:
        """Each object layer's objects, as records and in the document (ids made unique)."""
        path, budget = self.path, self.reader.budget
        seen: dict[int, int] = {}
        records: list[list[MapObject]] = []
        taken = {_int(o.get("id")) for g in groups for o in g} - {None, 0}
        next_id = max(taken, default=0) + 1
        twice: dict[int, list[int]] = {}
        layer_els = [el for el in tree if el.tag == "objectgroup"]
        object_layers = [la for la in layers if isinstance(la, ObjectLayer)]
        for layer, group, layer_el in zip(object_layers, groups, layer_els):
            found = []
            for obj in group:
                what = f"object {quoted(obj.get('name', ''))} (id {quoted(obj.get('id', '?'))})"
                number = checked.whole(path, obj, "id", what, checked.FIX, least=0, default=0,
                                       most=2**31 - 1)
                if number == 0 or number in seen:
                    if number:
                        twice.setdefault(number, []).append(next_id)
                    number, next_id = next_id, next_id + 1
                seen[number] = 1
                record = self._object(obj, number, layer, shift)
                if record.gid:
                    placed.setdefault(record.gid, None)
                found.append(record)
                layer_el.append(_object_element(record, shift, layer.look.offset,
                                                self._props(obj, record, what)))
            records.append(found)
        if budget.points > MAX_POINTS:
            raise UserError(path, f"the map and its tilesets hold more than {MAX_POINTS:,} "
                            "polygon and polyline points, far more than any real level; "
                            "simplify those shapes")
        for i, (layer, found) in enumerate(zip(object_layers, records)):
            index = layers.index(layer)
            layers[index] = ObjectLayer(layer.name, layer.look, tuple(found),
                                        draw_index=layer.draw_index, kind=layer.kind, id=layer.id)
        if twice:
            listed = "; ".join(f"id {i}: the later ones numbered {', '.join(map(str, new))}"
                               for i, new in list(twice.items())[:5])
            self.notes.append(f"{path}: objects share an id ({listed}), which Tiled never "
                              "writes; a platform's path naming one means the first (give each "
                              "object its own id in Tiled: copy the objects and paste them back)")

    def _props(self, obj: ET.Element, record: MapObject, what: str):
        props, names = checked.properties(self.path, obj, what, _reserved("object", obj),
                                          self.dropped)
        self.names[("object", record.id)] = names
        return props

    def _object(self, obj: ET.Element, number: int, layer: ObjectLayer, shift) -> MapObject:
        path = self.path
        what = f"object {quoted(obj.get('name', ''))} (id {number})"
        x, y = (checked.number(path, obj, a, what, -MAX_MAP_PX, MAX_MAP_PX, 0.0) for a in "xy")
        w, h = (checked.number(path, obj, a, what, 0.0, MAX_MAP_PX, 0.0)
                for a in ("width", "height"))
        rotation = checked.angle(path, obj, "rotation", what)
        gid = 0
        if obj.get("gid") is not None:
            gid = checked.whole(path, obj, "gid", what, "re-save the map from Tiled", least=0,
                                most=(1 << 32) - 1)
        shape = next((s for s in ("point", "ellipse", "polygon", "polyline", "text")
                      if obj.find(s) is not None), "rectangle")
        points: tuple[tuple[float, float], ...] = ()
        if shape in ("polygon", "polyline"):
            points = self._points(obj.find(shape), what, x, y)
        if gid:
            x, y = self._aligned(gid, x, y, w, h, rotation)
        ox, oy = layer.look.offset
        x, y = x + shift[0], y + shift[1]
        points = tuple((px + shift[0] + ox, py + shift[1] + oy) for px, py in points)
        kind = checked.text_of(obj, "type") or checked.text_of(obj, "class")
        return MapObject(number, obj.get("name", ""), kind, shape, x + ox, y + oy, w, h,
                         rotation, gid, points, checked.flag(obj, "visible", True), layer.name,
                         (ox, oy))

    def _points(self, el: ET.Element, what: str, x: float, y: float):
        budget = self.reader.budget
        text = el.get("points") or ""
        budget.points += text.count(" ") + 1
        if budget.points > MAX_POINTS:
            raise UserError(self.path, f"the map and its tilesets hold more than {MAX_POINTS:,} "
                            "polygon and polyline points, far more than any real level; "
                            "simplify those shapes")
        out = []
        for pair in text.split():
            try:
                px, py = (float(v) for v in pair.split(","))
            except ValueError:
                raise UserError(self.path, f"{what} has a point {quoted(pair)} that is not two "
                                "numbers; re-save the map from Tiled") from None
            if not (abs(x + px) <= MAX_MAP_PX and abs(y + py) <= MAX_MAP_PX):
                raise UserError(self.path, f"{what} has a point {quoted(pair)} out of the map's "
                                f"reach ({REACH}); move it in Tiled")
            out.append((x + px, y + py))
        return tuple(out)

    def _aligned(self, gid: int, x: float, y: float, w: float, h: float,
                 rotation: float) -> tuple[float, float]:
        """Where a tile object would stand with Tiled's default object alignment (bottom-left;
        bottom middle on an isometric map), its picture staying where Tiled shows it. A turned
        object turns about its position, so the move turns with it; on an isometric map the
        alignment is on screen, and the move is taken back to the map's own coordinates."""
        ts = max((r.tileset for r in self.reads if r.tileset.firstgid <= gid & GID_MASK),
                 key=lambda t: t.firstgid, default=None)
        iso = self.orientation.kind == "isometric"
        default = ALIGNMENTS["bottom" if iso else "bottomleft"]
        at = None if ts is None else ALIGNMENTS.get(ts.alignment)
        if at is None or at == default:
            return x, y
        if not w or not h:  # saved without a size (Tiled 1.0): its tile's picture's own
            size = ts.own_size_of((gid & GID_MASK) - ts.firstgid)
            w, h = w or size[0], h or size[1]
        a, b = (default[0] - at[0]) * w, (default[1] - at[1]) * h
        turn = math.radians(rotation)
        a, b = a * math.cos(turn) - b * math.sin(turn), a * math.sin(turn) + b * math.cos(turn)
        if iso:  # screen px -> the map's px (a tile is tileheight x tileheight there)
            slope = self.tile[1] / self.tile[0]
            a, b = b + a * slope, b - a * slope
        return x + a, y + b

    # --- what the tiles placed need -------------------------------------------------------

    def _check_tiles(self, model: MapModel) -> None:
        """A placed tile whose picture is missing is refused; a missing picture of tiles never
        placed is a note. Notes for what a tileset says that Tiled reads otherwise."""
        for raw in model.placed:
            gid = raw & GID_MASK
            ts = model.tileset_of(gid)
            if ts is not None and (ts.missing or ts.cut_short) and ts.is_missing(gid - ts.firstgid):
                tile = gid - ts.firstgid
                raise ts.missing.get(tile) or ts.missing.get(-1) or ts.cut_short[1]
        for ts in model.tilesets:
            if ts.grown is not None:
                self.notes.append(f"{ts.file}: {ts.grown}")
            for attr, value, known in (("tilerendersize", ts.render_size, ("tile", "grid")),
                                       ("fillmode", ts.fill_mode,
                                        ("stretch", "preserve-aspect-fit"))):
                if value not in known:
                    self.notes.append(f"{ts.file}: tileset {ts.name}: {attr} {quoted(value)} is "
                                      "not one Tiled knows, so it is read as Tiled reads it, "
                                      f"{quoted(known[0])}; pick one in the Tileset Properties")
            if ts.cut_short is not None:
                self.notes.append(f"{ts.file}: tileset {ts.name}: its image holds only its first "
                                  f"{ts.cut_short[0]} tiles; no tile past them is placed, so the "
                                  "map loads (fix the tile count in Tiled's Tileset Properties "
                                  "to silence this)")
            if ts.missing:
                n = len(ts.missing)
                what = ("its image" if -1 in ts.missing
                        else f"the images of {n} tile{'s' if n > 1 else ''}")
                self.notes.append(f"{ts.file}: tileset {ts.name}: {what} not found; no tile that "
                                  "needs one is placed, so the map loads without them (remove "
                                  "those tiles from the tileset in Tiled, or put the images "
                                  "back, to silence this)")
            if ts.alignment not in ALIGNMENTS and ts.alignment != "unspecified":
                self.notes.append(f"{self.path}: tileset {quoted(ts.name)} sets object alignment "
                                  f"{quoted(ts.alignment)}, which Tiled does not know; its tile "
                                  "objects are placed as Tiled's default (\"unspecified\") "
                                  "places them: pick an alignment in its Tileset Properties")


def _extent(ts: Tileset) -> int:
    """How many gids a tileset takes from its firstgid on."""
    if ts.count is not None:
        return max(ts.count, 1)
    return max(ts.tiles, default=-1) + 1 or 1


def _objects_box(path: Path, entries: list[_Entry]) -> tuple[float, float, float, float]:
    xs, ys = [], []
    for e in entries:
        for o in e.objects:
            try:
                x, y = float(o.get("x", 0)), float(o.get("y", 0))
                w, h = float(o.get("width", 0)), float(o.get("height", 0))
            except ValueError:
                continue  # said when the object is read
            top = y - h if o.get("gid") else y
            xs += [x + e.look.offset[0], x + w + e.look.offset[0]]
            ys += [top + e.look.offset[1], top + h + e.look.offset[1]]
    if not xs:
        return 0.0, 0.0, 1.0, 1.0
    return min(xs), min(ys), max(xs), max(ys)


# --- the document's elements ----------------------------------------------------------------

def _layer_element(e: _Entry, layer, number: int, props, cols: int, rows: int) -> ET.Element:
    """A layer as the document holds it: its look folded in, offsets as whole px (pytmx reads
    them with int(); the view draws every layer on whole pixels), a tile layer's palette as its
    data."""
    look = layer.look
    el = ET.Element(e.tag, id=str(number), name=e.el.get("name", ""))
    if layer.kind:
        el.set("class", layer.kind)
    if not look.visible:
        el.set("visible", "0")
    if look.opacity != 1.0:
        el.set("opacity", repr(look.opacity))
    for axis, value in zip("xy", look.offset):
        if round(value):
            el.set(f"offset{axis}", str(round(value)))
    for axis, value in zip("xy", look.parallax):
        if value != 1.0:
            el.set(f"parallax{axis}", repr(value))
    if look.tint != WHITE:
        r, g, b, a = look.tint
        el.set("tintcolor", f"#{a:02x}{r:02x}{g:02x}{b:02x}")
    if props is not None:
        el.append(props)
    if isinstance(layer, TileLayer):
        el.set("width", str(cols))
        el.set("height", str(rows))
        palette = ",".join(str(g & ~HEX_120) for g in layer.used) or "0"
        ET.SubElement(el, "data", encoding="csv").text = palette
    elif isinstance(layer, ImageLayer):
        image = e.el.find("image")
        out = ET.SubElement(el, "image", source=layer.image or image.get("source").strip())
        if image.get("trans"):
            out.set("trans", image.get("trans").strip().lstrip("#"))
        if layer.repeat_x:
            el.set("repeatx", "1")
        if layer.repeat_y:
            el.set("repeaty", "1")
    elif layer.draw_index:
        el.set("draworder", "index")
    return el


def _object_element(o: MapObject, shift, offset, props) -> ET.Element:
    """An object as the document holds it (in its layer, so without the layer's offset)."""
    x, y = o.x - offset[0], o.y - offset[1]
    el = ET.Element("object", id=str(o.id), x=repr(x), y=repr(y))
    for key, value in (("name", o.name), ("type", o.kind)):
        if value:
            el.set(key, value)
    for key, value in (("width", o.w), ("height", o.h), ("rotation", o.rotation)):
        if value:
            el.set(key, repr(value))
    if o.gid:
        el.set("gid", str(o.gid))
    if not o.visible:
        el.set("visible", "0")
    if props is not None:
        el.append(props)
    if o.shape in ("point", "ellipse", "text"):
        ET.SubElement(el, o.shape)
    elif o.points:
        pts = " ".join(f"{px - o.x!r},{py - o.y!r}" for px, py in o.points)
        ET.SubElement(el, o.shape, points=pts)
    return el


def _kind(el: ET.Element) -> str:
    return checked.text_of(el, "class") or checked.text_of(el, "type")


def _int(text: str | None) -> int | None:
    try:
        return int(text) if text is not None else None
    except ValueError:
        return None


def _px(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else repr(v)


# --- what pytmx refuses as a custom property's name ----------------------------------------

_RESERVED: dict[str, frozenset[str]] = {}


def _reserved(kind: str, el: ET.Element | None = None) -> frozenset[str]:
    """The names pytmx refuses for a custom property of an element of this kind: its
    attributes and methods (pytmx raises on a property named like one), and for a tile the keys
    pytmx sets after its properties in the one dict it keeps both in."""
    if kind not in _RESERVED:
        from game.maps.model import import_pytmx  # pytmx, imported headless, once needed

        pytmx = import_pytmx()
        tmx = pytmx.TiledMap()
        made = {
            "map": lambda: tmx,
            "object": lambda: pytmx.TiledObject(tmx, ET.Element("object"), None),
            "objectgroup": lambda: pytmx.TiledObjectGroup(tmx, ET.Element("objectgroup"), None),
            "layer": lambda: pytmx.TiledTileLayer(tmx, _tiny_layer()),
            "imagelayer": lambda: pytmx.TiledImageLayer(tmx, _tiny_image_layer()),
            "tileset": lambda: pytmx.TiledTileset(tmx, ET.Element("tileset")),
        }
        if kind == "tile":  # the keys pytmx keeps a tile's attributes and picture under
            _RESERVED[kind] = frozenset({"source", "trans", "width", "height", "frames",
                                         "colliders"})
        else:
            _RESERVED[kind] = frozenset(n for n in dir(made[kind]()) if not n.startswith("_"))
    names = _RESERVED[kind]
    if el is not None and kind not in ("map", "tile"):
        names = names | frozenset(el.attrib) | {"type", "class"}
    return names


def _tiny_layer() -> ET.Element:
    el = ET.Element("layer", width="1", height="1")
    ET.SubElement(el, "data", encoding="csv").text = "0"
    return el


def _tiny_image_layer() -> ET.Element:
    el = ET.Element("imagelayer")
    ET.SubElement(el, "image")
    return el

