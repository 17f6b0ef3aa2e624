"""Every format Tiled writes, made into the one form the loader reads: a finite TMX tree with its
tilesets' and templates' contents in place.

Run between reading the file and checking it (``game.maps.level``), so that the checks, pytmx
and the level builder see only what a plain TMX map holds:

* **JSON maps** (``.tmj``/``.json``): written as the TMX elements Tiled would have saved
  (``game.maps.tiled_json``), then read by the same bounded XML reader as a ``.tmx``;
* **JSON tilesets** (``.tsj``/``.json``) that a map names in ``source``: put in the map as
  embedded tilesets, their image paths made relative to the map;
* **object templates** (``.tx``, ``.tj``): each instance takes every attribute, property and
  shape of its template that it does not set itself (Tiled saves only what an instance
  changes); a tile template's tile is found in the map's copy of its tileset;
* **infinite maps**: their chunks placed on one fixed grid that covers every chunk of every
  layer; objects, image layers and the parallax origin move with the grid's new origin, so
  everything stays where it was relative to the tiles (the ``note:`` says by how much; on a
  staggered or hexagonal map an odd shift flips the stagger index, so the same rows or columns
  stay shifted: ``game.maps.orientation``);
* **zstd-compressed layers** (and chunks): unpacked with the ``zstandard`` library, never
  further than the map's cells need;
* **layers stored as XML** (a ``<tile gid="...">`` per cell, Tiled's oldest format, still
  offered as "XML (deprecated)"): written as the CSV Tiled would have saved (the map's XML
  element limit bounds them: past it, the message asks for CSV);
* **image layers placed by ``x`` and ``y``** (Tiled before 0.15 or so; libGDX's writer still
  does): given those as their ``offsetx``/``offsety``, as Tiled reads them when a layer has no
  ``offsetx``.

Each function takes what it reads through the loader's bounded readers (``read_xml``,
``read_bytes``), so every file it pulls in counts against the same limits as the map itself.
"""

from __future__ import annotations

import array
import base64
import binascii
import os
import sys
import xml.etree.ElementTree as ET
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from game.errors import UserError, quoted
from game.maps import tiled_json
from game.maps.orientation import lenient, moved_origin

JSON_SUFFIXES = (".tmj", ".json")
JSON_TILESET_SUFFIXES = (".tsj", ".json")
JSON_TEMPLATE_SUFFIXES = (".tj", ".json")
_U32 = next(code for code in "IL" if array.array(code).itemsize == 4)

# What a folder of levels is scanned for (the title screen, the next level, the lab). A ``.json``
# file may be anything (the lab writes one), so it is played only when named.
MAP_SUFFIXES = (".tmx", ".tmj")

ReadXml = Callable[[Path, str, str], ET.Element]  # (path, root tag, what it should be)
ReadBytes = Callable[[Path, str], bytes]  # (path, what it should be)


@dataclass
class Normalised:
    """What :func:`normalise` did: the files it read (for hot reload) and what to tell."""

    files: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def map_files(folder: Path) -> list[Path]:
    """The Tiled maps in ``folder`` (``.tmx`` and ``.tmj``), sorted by name."""
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in MAP_SUFFIXES)


def looks_like_json(path: Path, data: bytes) -> bool:
    """A JSON map: by its suffix, or (any name) by starting with ``{``."""
    return path.suffix.lower() in JSON_SUFFIXES or data.lstrip()[:1] == b"{"


def json_map_as_xml(path: Path, data: bytes) -> bytes:
    """A JSON map's bytes as the TMX text Tiled would have saved for it."""
    try:
        root = tiled_json.map_element(tiled_json.parse_json(data, "a Tiled map"))
    except ValueError as exc:
        raise UserError(path, f"{exc}; re-save it from Tiled (File > Save As, .tmj or .tmx)") \
            from None
    return ET.tostring(root, encoding="utf-8")


def normalise(path: Path, root: ET.Element, read_xml: ReadXml, read_bytes: ReadBytes,
              max_cells: int) -> Normalised:
    """Make ``root`` (the map at ``path``) a finite TMX tree with JSON tilesets and templates
    in place, in place. ``max_cells`` bounds an infinite map's grid (the loader's limit)."""
    done = Normalised()
    _xml_layers_as_csv(path, root)
    _image_layer_positions(root)  # before an infinite map's shift moves the offsets
    _embed_json_tilesets(path, root, read_bytes, done)
    _apply_templates(path, root, read_xml, read_bytes, done)
    if root.get("infinite", "0") == "1" or root.find(".//chunk") is not None:
        _make_finite(path, root, max_cells, done)
    _unpack_zstd(path, root)
    return done


def _xml_layers_as_csv(path: Path, root: ET.Element) -> None:
    """Each tile layer's (or chunk's) ``<tile gid="..."/>`` elements as CSV text."""
    for layer in root.iter("layer"):
        data = layer.find("data")
        if data is None or data.get("encoding") or data.find(".//tile") is None:
            continue
        name = quoted(layer.get("name", ""))
        for part in data.findall("chunk") or [data]:
            gids = []
            for tile in part.findall("tile"):
                value = (tile.get("gid") or "0").strip()
                if not (value.isascii() and value.isdigit() and len(value) <= 10
                        and int(value) < 1 << 32):
                    raise UserError(path, f"tile layer {name} has a <tile> whose gid "
                                    f"{quoted(value)} is not a tile number; re-save the map "
                                    "from Tiled")
                gids.append(value)
            part[:] = [el for el in part if el.tag != "tile"]
            part.text = ",".join(gids)
        data.set("encoding", "csv")


def _image_layer_positions(root: ET.Element) -> None:
    """An image layer with no ``offsetx`` is placed by its ``x`` and ``y`` (whole numbers, as
    Tiled reads them; anything else counts 0), which become its offset."""
    for layer in root.iter("imagelayer"):
        if layer.get("offsetx") is not None or (layer.get("x") is None and layer.get("y") is None):
            continue
        for old, new in (("x", "offsetx"), ("y", "offsety")):
            value = layer.attrib.pop(old, "0").strip()
            layer.set(new, value if value.lstrip("+-").isdigit() else "0")


# --- JSON tilesets ------------------------------------------------------------------------------

def _embed_json_tilesets(path: Path, root: ET.Element, read_bytes: ReadBytes,
                         done: Normalised) -> None:
    for i, ts in enumerate(list(root)):
        source = ts.get("source") if ts.tag == "tileset" else None
        if not source or Path(source).suffix.lower() not in JSON_TILESET_SUFFIXES:
            continue
        file = path.parent / source
        embedded = _json_tileset(file, read_bytes)
        embedded.set("firstgid", ts.get("firstgid", "1"))
        _rebase_images(embedded, file.parent, path.parent)
        root[i] = embedded
        done.files.append(file)


def _json_tileset(file: Path, read_bytes: ReadBytes) -> ET.Element:
    data = read_bytes(file, "a Tiled tileset (.tsj)")
    try:
        doc = tiled_json.parse_json(data, "a Tiled tileset")
        if doc.get("type", "tileset") != "tileset":
            raise ValueError(f"not a Tiled tileset: its JSON \"type\" is {doc.get('type')!r}")
        return tiled_json.tileset_element(doc)
    except ValueError as exc:
        raise UserError(file, f"{exc}; re-save the tileset from Tiled") from None


def _rebase_images(el: ET.Element, was: Path, now: Path) -> None:
    """Image paths written relative to ``was`` made relative to ``now``."""
    if was.resolve() == now.resolve():
        return
    for image in el.iter("image"):
        source = image.get("source")
        if source and not os.path.isabs(source):
            image.set("source", os.path.relpath(was / source, now).replace(os.sep, "/"))


# --- templates ----------------------------------------------------------------------------------

def _apply_templates(path: Path, root: ET.Element, read_xml: ReadXml, read_bytes: ReadBytes,
                     done: Normalised) -> None:
    cache: dict[Path, tuple[ET.Element, ET.Element | None]] = {}
    for obj in root.iter("object"):
        source = obj.get("template")
        if not source:
            continue
        file = (path.parent / source).resolve()
        if file not in cache:
            cache[file] = _read_template(file, read_xml, read_bytes)
            done.files.append(file)
        template, tileset = cache[file]
        _merge(obj, template)
        if template.get("gid") and "gid" not in obj.attrib:
            obj.set("gid", str(_map_gid(path, root, file, tileset, int(template.get("gid")),
                                        read_xml, read_bytes)))
        del obj.attrib["template"]


def _read_template(file: Path, read_xml: ReadXml,
                   read_bytes: ReadBytes) -> tuple[ET.Element, ET.Element | None]:
    """(the template's object, its <tileset> reference or None)."""
    if file.suffix.lower() in JSON_TEMPLATE_SUFFIXES:
        try:
            el = tiled_json.template_element(tiled_json.parse_json(
                read_bytes(file, "a Tiled object template (.tj)"), "a Tiled object template"))
        except ValueError as exc:
            raise UserError(file, f"{exc}; re-save the template from Tiled") from None
    else:
        el = read_xml(file, "template", "a Tiled object template (.tx)")
    obj = el.find("object")
    if obj is None:
        raise UserError(file, "the template holds no object; re-save it from Tiled")
    return obj, el.find("tileset")


_SHAPES = ("ellipse", "point", "polygon", "polyline", "text")


def _merge(obj: ET.Element, template: ET.Element) -> None:
    """``obj`` takes what it does not set itself from ``template`` (its own values win)."""
    for key, value in template.attrib.items():
        if key not in ("id", "x", "y", "gid"):  # an instance's place and id are its own
            obj.attrib.setdefault(key, value)
    if not any(obj.find(s) is not None for s in _SHAPES):
        for shape in _SHAPES:
            found = template.find(shape)
            if found is not None:
                obj.append(_copy(found))
    theirs = template.find("properties")
    if theirs is None:
        return
    mine = obj.find("properties")
    if mine is None:
        mine = ET.Element("properties")
        obj.insert(0, mine)
    have = {p.get("name") for p in mine.findall("property")}
    for p in theirs.findall("property"):
        if p.get("name") not in have:
            mine.append(_copy(p))


def _copy(el: ET.Element) -> ET.Element:
    return ET.fromstring(ET.tostring(el))


def _map_gid(path: Path, root: ET.Element, template_file: Path, ref: ET.Element | None,
             template_gid: int, read_xml: ReadXml, read_bytes: ReadBytes) -> int:
    """The map's gid for a tile template's tile: the same tile of the same tileset file in the
    map's numbering, adding the tileset to the map when the map lacks it."""
    if ref is None or not ref.get("source"):
        raise UserError(template_file, "the template places a tile but names no tileset; "
                        "re-save it from Tiled")
    flags = template_gid & 0xF0000000
    local = (template_gid & 0x0FFFFFFF) - int(ref.get("firstgid", "1"))
    wanted = (template_file.parent / ref.get("source")).resolve()
    tilesets = [ts for ts in root if ts.tag == "tileset"]
    for ts in tilesets:
        if ts.get("source") and (path.parent / ts.get("source")).resolve() == wanted:
            return (int(ts.get("firstgid", "1")) + local) | flags
    # Not in the map yet: after every tileset's gids.
    end = 1
    for ts in tilesets:
        count = ts.get("tilecount")
        if count is None and ts.get("source"):
            count = _external_tileset(path.parent / ts.get("source"), read_xml,
                                      read_bytes).get("tilecount")
        end = max(end, int(ts.get("firstgid", "1")) + int(count or 0))
    added = ET.Element("tileset", firstgid=str(end),
                       source=os.path.relpath(wanted, path.parent.resolve()).replace(os.sep, "/"))
    root.insert(list(root).index(tilesets[-1]) + 1 if tilesets else 0, added)
    if wanted.suffix.lower() in JSON_TILESET_SUFFIXES:
        _embed_json_tilesets(path, root, read_bytes, Normalised())
    return (end + local) | flags


def _external_tileset(file: Path, read_xml: ReadXml, read_bytes: ReadBytes) -> ET.Element:
    if file.suffix.lower() in JSON_TILESET_SUFFIXES:
        return _json_tileset(file, read_bytes)
    return read_xml(file, "tileset", "a Tiled tileset (.tsx)")


# --- infinite maps ------------------------------------------------------------------------------

def _make_finite(path: Path, root: ET.Element, max_cells: int, done: Normalised) -> None:
    """Every layer's chunks on one grid from the top-left chunk to the bottom-right one."""
    layers = [layer for layer in root.iter("layer") if layer.find("data") is not None]
    bounds = [(int(c.get("x", 0)), int(c.get("y", 0)), int(c.get("width", 0)),
               int(c.get("height", 0)))
              for layer in layers for c in layer.find("data").findall("chunk")]
    if not bounds:  # marked infinite, but holding plain layers (Tiled never writes this)
        root.set("infinite", "0")
        done.notes.append("the map is marked infinite but its layers are not in chunks; read "
                          "as the finite map its size says")
        return
    else:
        left, top = min(b[0] for b in bounds), min(b[1] for b in bounds)
        cols = max(b[0] + b[2] for b in bounds) - left
        rows = max(b[1] + b[3] for b in bounds) - top
    if cols * rows > max_cells or cols <= 0 or rows <= 0:
        raise UserError(path, f"the infinite map's chunks span {cols:,}x{rows:,} tiles, more "
                        f"than the {max_cells:,} a map may have; erase the far-away tiles or "
                        "untick Map > Map Properties > Infinite and resize it")
    for layer in layers:
        data = layer.find("data")
        cells = array.array(_U32, bytes(4 * cols * rows))
        name = quoted(layer.get("name", ""))
        for chunk in data.findall("chunk"):
            x, y = int(chunk.get("x", 0)) - left, int(chunk.get("y", 0)) - top
            w, h = int(chunk.get("width", 0)), int(chunk.get("height", 0))
            values = _decode(path, name, data.get("encoding"), data.get("compression"),
                             chunk.text or "", w * h)
            for row in range(h):
                at = (y + row) * cols + x
                cells[at:at + w] = values[row * w:(row + 1) * w]
            data.remove(chunk)
        _set_base64(data, cells)
        layer.set("width", str(cols))
        layer.set("height", str(rows))
    (dx, dy), screen, flip = moved_origin(lenient(root), root, left, top, rows)
    root.set("infinite", "0")
    root.set("width", str(cols))
    root.set("height", str(rows))
    if flip:
        root.set("staggerindex", "odd" if root.get("staggerindex") == "even" else "even")
    if dx or dy or any(screen):
        _shift(root, (dx, dy), screen)
        done.notes.append(f"the infinite map's tiles, from tile ({left}, {top}), are placed on "
                          f"a {cols}x{rows} grid; everything moved by ({_px(dx)}, {_px(dy)}) px "
                          "with them")
    else:
        done.notes.append(f"the infinite map's tiles are placed on a {cols}x{rows} grid")


def _shift(root: ET.Element, objects: tuple[float, float], screen: tuple[float, float]) -> None:
    """Objects (by ``objects``, in the map's pixel coordinates), image layers and the parallax
    origin (by ``screen``) moved with the tiles' new origin: the same on an orthogonal map."""
    dx, dy = objects
    for group in root.iter("objectgroup"):
        for obj in group.findall("object"):
            obj.set("x", _px(float(obj.get("x", 0)) + dx))
            obj.set("y", _px(float(obj.get("y", 0)) + dy))
    dx, dy = screen
    for layer in root.iter("imagelayer"):
        layer.set("offsetx", _px(float(layer.get("offsetx", 0)) + dx))
        layer.set("offsety", _px(float(layer.get("offsety", 0)) + dy))
    for axis, d in (("parallaxoriginx", dx), ("parallaxoriginy", dy)):
        if root.get(axis):
            root.set(axis, _px(float(root.get(axis)) + d))


def _px(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else repr(v)


# --- zstd and chunk data ------------------------------------------------------------------------

def _unpack_zstd(path: Path, root: ET.Element) -> None:
    for layer in root.iter("layer"):
        data = layer.find("data")
        if data is None or data.get("compression") != "zstd":
            continue
        try:
            cells = int(layer.get("width", 0)) * int(layer.get("height", 0))
        except ValueError:
            continue  # the checks say what is wrong with the size
        values = _decode(path, quoted(layer.get("name", "")), data.get("encoding"), "zstd",
                         data.text or "", cells)
        _set_base64(data, values)


def _set_base64(data: ET.Element, values: array.array) -> None:
    if sys.byteorder == "big":
        values = array.array(_U32, values)
        values.byteswap()
    data.attrib.clear()
    data.set("encoding", "base64")
    data.text = base64.b64encode(values.tobytes()).decode("ascii")


def _decode(path: Path, name: str, encoding: str | None, compression: str | None, text: str,
            cells: int) -> array.array:
    """``cells`` gids of a layer's or chunk's data (never unpacking more than that)."""
    fix = ("in Tiled set Map > Map Properties > Tile Layer Format to CSV or Base64 (zlib) and "
           "save again")
    damaged = f"tile layer {name} has damaged {compression or encoding} data; {fix}"
    if encoding == "csv" and not compression:
        try:
            values = array.array(_U32, (int(v) for v in text.split(",") if v.strip()))
        except (ValueError, OverflowError):
            raise UserError(path, f"tile layer {name} has CSV values that are not tile numbers;"
                            " re-save the map from Tiled") from None
    elif encoding == "base64":
        try:
            raw = base64.b64decode(text.strip())
        except (binascii.Error, ValueError):
            raise UserError(path, damaged) from None
        if compression:
            raw = _unpack(path, raw, compression, cells * 4, damaged, fix, name)
        if len(raw) > cells * 4:
            raise UserError(path, f"tile layer {name} holds more than the {cells:,} tiles its "
                            "size says; re-save the map from Tiled")
        if len(raw) % 4:
            raise UserError(path, damaged)
        values = array.array(_U32, raw)
        if sys.byteorder == "big":
            values.byteswap()
    else:
        raise UserError(path, f"tile layer {name} has encoding {quoted(encoding or '')} with "
                        f"compression {quoted(compression or 'none')}, which cannot be read; {fix}")
    if len(values) != cells:
        raise UserError(path, f"tile layer {name} holds {len(values):,} tiles where its size "
                        f"says {cells:,}; re-save the map from Tiled")
    return values


def _unpack(path: Path, raw: bytes, method: str, limit: int, damaged: str, fix: str,
            name: str) -> bytes:
    """``raw`` unpacked, but never past ``limit`` + 1 bytes (a zip bomb stops there)."""
    if method == "zstd":
        try:
            import zstandard
        except ImportError:  # a dependency of the project; missing only in a broken install
            raise UserError(path, f"tile layer {name} is zstd-compressed and the zstandard "
                            f"library is missing (run 'uv sync'); or {fix}") from None
        try:
            parts, total = [], 0
            with zstandard.ZstdDecompressor().stream_reader(raw) as reader:
                while total <= limit:
                    part = reader.read(limit + 1 - total)
                    if not part:
                        break
                    parts.append(part)
                    total += len(part)
        except zstandard.ZstdError:
            raise UserError(path, damaged) from None
        return b"".join(parts)
    if method in ("zlib", "gzip"):
        try:
            stream = zlib.decompressobj(31 if method == "gzip" else 15)
            return stream.decompress(raw, limit + 1)
        except zlib.error:
            raise UserError(path, damaged) from None
    raise UserError(path, f"tile layer {name} has compression {quoted(method)}, which cannot be "
                    f"read; {fix}")
