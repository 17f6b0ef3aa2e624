"""Stage 1a of loading: reading XML safely and decoding tile layers without trusting them.

ElementTree parses through :class:`_Builder`, which refuses a DOCTYPE (entities), deep nesting
and too many elements while it parses. A tile layer's CSV or base64 data is decoded once, with
its compressed data unpacked no further than the map's cells (no zip bomb gets past).
"""

from __future__ import annotations

import array
import base64
import binascii
import sys
import xml.etree.ElementTree as ET
import zlib
from collections.abc import Sequence
from pathlib import Path
from xml.parsers import expat

from game.errors import UserError, quoted, read_bounded
from game.maps import formats
from game.maps.limits import (MAX_GROUP_DEPTH, MAX_TILE_VARIANTS, MAX_XML_ATTRIBUTES,
                              MAX_XML_ATTRIBUTES_TOTAL, MAX_XML_BYTES, MAX_XML_DEPTH,
                              MAX_XML_ELEMENTS, RESAVE, Budget, file_kind, shown)


class _Builder(ET.TreeBuilder):
    """ElementTree's tree builder, refusing while it parses what no Tiled file holds: a DOCTYPE
    (and so entity declarations, which expat would expand), elements nested too deep, group
    layers nested too deep, and more elements than the budget, before the tree grows large."""

    def __init__(self, path: Path, budget: Budget) -> None:
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
            raise UserError(self.path, f"an XML element <{shown(tag, 30)}> has {len(attrs):,} "
                            f"attributes, more than the {MAX_XML_ATTRIBUTES} read and far more "
                            f"than Tiled writes; {RESAVE}")
        if self.depth > MAX_XML_DEPTH:
            raise UserError(self.path, f"XML elements are nested more than {MAX_XML_DEPTH} deep "
                            f"(at <{shown(tag, 30)}>), far deeper than Tiled writes; "
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



class _Prolog(Exception):
    """The root element began: the prolog held no declaration to refuse."""


def _check_doctype(path: Path, data: bytes) -> None:
    """A ``<!DOCTYPE>`` naming Tiled's DTD is read (Tiled could add one until 2019, and libGDX's
    and Tiled Java's writers still do; the DTD itself is never fetched). One with declarations
    of its own (an internal subset: entities, attribute defaults) is refused before the file is
    parsed: a few kilobytes of them expand to gigabytes. Expat reads the prolog here, in
    whatever encoding the file is, and stops at the root element."""
    said = UserError(path, "the file's <!DOCTYPE> declares entities or other declarations of its "
                     "own, which no map editor writes (and which could expand a few kilobytes of "
                     f"XML to gigabytes); {RESAVE}")

    def doctype(name, system, public, has_internal_subset):
        if has_internal_subset:
            raise said

    def declared(*_):
        raise said

    def root(*_):
        raise _Prolog

    parser = expat.ParserCreate()
    parser.StartDoctypeDeclHandler = doctype
    parser.EntityDeclHandler = declared
    parser.StartElementHandler = root
    try:
        parser.Parse(data, True)
    except (_Prolog, expat.ExpatError):
        pass  # the root began; or the XML is broken, which the parse proper says


def read_bytes(path: Path, what: str, budget: Budget) -> bytes:
    """A map's, tileset's or template's bytes, counted against the shared XML budget."""
    kind = file_kind(path)
    if kind == "folder":
        raise UserError(path, f"is a folder; give the path of {what}")
    if kind != "file":
        raise UserError(path, f"file not found; check the path (expected {what})")
    label = next(f"{k} file" for k in ("map", "template", "tileset") if k in what or k == "tileset")
    data = read_bounded(path, MAX_XML_BYTES, label, "check the path")
    budget.xml_bytes += len(data)
    return data


def read_xml(path: Path, tag: str, what: str, budget: Budget) -> ET.Element:
    """The file's checked XML tree; a JSON map (``.tmj``) is first written as the TMX Tiled
    would have saved for it (game.maps.formats)."""
    data = read_bytes(path, what, budget)
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
    _check_doctype(path, data)
    parser = ET.XMLParser(target=_Builder(path, budget))
    try:
        parser.feed(data)
        root = parser.close()
    except ET.ParseError as exc:
        raise UserError(path, f"not {what}: the XML is broken ({exc}); re-save it from "
                        "Tiled") from None
    if root.tag != tag:
        raise UserError(path, f"not {what}: its root element is <{shown(root.tag, 30)}>, "
                        f"not <{tag}>")
    return root


def check_layer_data(path: Path, layer: ET.Element, cols: int,
                      rows: int) -> tuple[Sequence[int], dict[int, None]]:
    """A tile layer's gids as pytmx would read them (Tiled's numbers with their flip bits, row
    by row), and the different ones in the order they first appear.

    The layer must hold exactly the map's cells, counted before they are built, and its
    compressed data is unpacked no further than that, so nothing meets a zip bomb. It may not
    use more than ``MAX_TILE_VARIANTS`` different gids."""
    name = quoted(layer.get("name", ""))
    wrong = (f"tile layer {name} does not hold {cols}x{rows} tiles like the map; in Tiled use "
             "Map > Resize Map (or re-save the map)")
    if (int_or_none(layer.get("width")), int_or_none(layer.get("height"))) != (cols, rows):
        raise UserError(path, wrong)
    data = layer.find("data")
    fmt = ("in Tiled set Map > Map Properties > Tile Layer Format to CSV or Base64 (zlib) and "
           "save again")
    if data is None:
        raise UserError(path, f"tile layer {name} has no <data>; re-save the map from Tiled")
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
                note_gids(path, [different], used)
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
        raw = inflate(raw, compression, cells * 4)
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
    note_gids(path, (values[i:i + 65536] for i in range(0, len(values), 65536)), used)
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


def note_gids(path: Path, pieces, gids: dict[int, None]) -> None:
    for piece in pieces:
        gids.update(dict.fromkeys(piece))
        if len(gids) > MAX_TILE_VARIANTS + 1:  # + 1: gid 0, an empty cell
            raise UserError(path, f"the map's tile layers use more than {MAX_TILE_VARIANTS:,} "
                            "different tiles (each flip or rotation of a tile counted apart), "
                            "far more than any real level; use fewer different tiles")


def int_or_none(text: str | None) -> int | None:
    try:
        return int(text) if text is not None else None
    except ValueError:
        return None


def inflate(raw: bytes, method: str, limit: int) -> bytes | None:
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


def raw_properties(el: ET.Element) -> dict[str, tuple[str, str]]:
    """An object's own custom properties as {name: (type, value text)}, as the file has them."""
    props = el.find("properties")
    if props is None:
        return {}
    return {prop.get("name", ""): (prop.get("type", "string"),
                                   prop.get("value", prop.text or ""))
            for prop in props.findall("property")}
