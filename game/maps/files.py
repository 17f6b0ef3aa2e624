"""Step 1 of loading: every file a level is made of, read once, within the limits.

A :class:`Reader` opens each file at most once, however many times the map names it (a tileset
used by the map and by ten templates is read once), and keeps what it read: the parsed XML or
JSON document of a map, tileset or template, the size and format of a picture. Everything read
counts against one :class:`~game.maps.limits.Budget`, and the limits are applied before the work
they bound: a file's size before it is read, its XML elements and nesting while it is parsed
(and a DOCTYPE with declarations of its own before that), a JSON document's elements before its
objects are built, a picture's size from its header before the rest of it is walked.

:attr:`Reader.files` is what the level was made of, in the order it was read: what a hot reload
watches.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from xml.parsers import expat

from game.errors import UserError, read_bounded
from game.maps import tiled_json
from game.maps.imagefile import BadImage, ImageInfo, inspect
from game.maps.limits import (MAX_GROUP_DEPTH, MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE,
                              MAX_JSON_KEYS, MAX_JSON_VALUES,
                              MAX_XML_ATTRIBUTES, MAX_XML_ATTRIBUTES_TOTAL, MAX_XML_BYTES,
                              MAX_XML_DEPTH, MAX_XML_ELEMENTS, RESAVE, Budget, file_kind, shown)

JSON_SUFFIXES = (".tmj", ".json", ".tsj", ".tj")
# What a folder of levels is scanned for (the title screen, the next level, the lab). A ``.json``
# file may be anything (the lab writes one), so it is played only when named.
MAP_SUFFIXES = (".tmx", ".tmj")


def map_files(folder: Path) -> list[Path]:
    """The Tiled maps in ``folder`` (``.tmx`` and ``.tmj``), sorted by name."""
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in MAP_SUFFIXES)


def real(path: Path) -> Path:
    """``path`` with every symlink followed, as far as they lead (a loop is left as it is,
    where ``Path.resolve`` would raise); a path no file can have (a NUL in it, from a JSON
    string) is left as it is too, for the reader to find missing."""
    try:
        return Path(os.path.realpath(path))
    except ValueError:
        return Path(path)


@dataclass(frozen=True)
class Kind:
    """What a file is expected to be: its XML root tag, its JSON ``type``, and how it is named
    in messages."""

    tag: str
    what: str  # "a Tiled map (.tmx or .tmj)"
    label: str  # "map file": for read_bounded's messages
    redo: str  # what to do with a broken one


MAP = Kind("map", "a Tiled map (.tmx or .tmj)", "map file",
           "re-save it from Tiled (File > Save As, .tmj or .tmx)")
TILESET = Kind("tileset", "a Tiled tileset (.tsx or .tsj)", "tileset file",
               "re-save the tileset from Tiled")
TEMPLATE = Kind("template", "a Tiled object template (.tx or .tj)", "template file",
                "re-save the template from Tiled")


class Reader:
    """Reads the files of one level, each once (see the module's docstring)."""

    def __init__(self, budget: Budget | None = None) -> None:
        self.budget = budget if budget is not None else Budget()
        self.files: list[Path] = []  # what was read, each once, resolved
        self._documents: dict[Path, ET.Element] = {}
        self._images: dict[Path, ImageInfo] = {}

    def watch(self, path: Path) -> None:
        """A file the level depends on without reading it (a missing picture: putting it back
        reloads the level)."""
        key = real(path)
        if key not in self.files:
            self.files.append(key)

    def document(self, path: Path, kind: Kind) -> ET.Element:
        """The map, tileset or template at ``path`` as a TMX element tree: its XML, or the TMX
        elements Tiled would have saved for its JSON (``game.maps.tiled_json``)."""
        key = real(path)
        found = self._documents.get(key)
        if found is None:
            data = self._bytes(path, kind)
            if path.suffix.lower() in JSON_SUFFIXES or (kind is MAP and data.lstrip()[:1] == b"{"):
                found = _json_document(path, data, kind, self.budget)
            else:
                found = _xml_document(path, data, kind, self.budget)
            self._documents[key] = found
        if found.tag != kind.tag:
            raise UserError(path, f"not {kind.what}: its root element is "
                            f"<{shown(found.tag, 30)}>, not <{kind.tag}>")
        return found

    def image(self, path: Path) -> ImageInfo:
        """A picture's format and size, the whole file checked to load in the window (once per
        file; each counts against the image limits once). Raises :class:`BadImage` or OSError;
        the caller names the tileset or layer."""
        key = real(path)
        found = self._images.get(key)
        if found is not None:
            return found
        self.budget.image_bytes += os.stat(path).st_size
        if self.budget.image_bytes > MAX_IMAGE_BYTES:
            raise _Limit(f"takes the map's image files past {MAX_IMAGE_BYTES // 1_000_000} MB "
                         "together, far more than any real level; check that it is the right "
                         "file, or use smaller images")

        def allow(info: ImageInfo) -> None:
            if info.width > MAX_IMAGE_SIDE or info.height > MAX_IMAGE_SIDE:
                raise _Limit(f"is {info.width}x{info.height} px; at most {MAX_IMAGE_SIDE} px a "
                             "side is read; use a smaller image")
            self.budget.image_pixels += info.width * info.height
            if self.budget.image_pixels > MAX_IMAGE_PIXELS:
                raise _Limit(f"({info.width}x{info.height} px) and the images before it take "
                             f"the pictures the window holds past {MAX_IMAGE_PIXELS // 1_000_000}"
                             " million pixels together (every image file, a copy of every tile "
                             "of an image collection and of every different tile the map "
                             "places), far more than any real level; use fewer or smaller "
                             "images or tiles")
        found = self._images[key] = inspect(path, allow)
        self.watch(path)
        return found

    def _bytes(self, path: Path, kind: Kind) -> bytes:
        found = file_kind(path)
        if found == "folder":
            raise UserError(path, f"is a folder; give the path of {kind.what}")
        if found == "other":
            raise UserError(path, f"is not a regular file (a device or a pipe?); give the path "
                            f"of {kind.what}")
        if found != "file":
            raise UserError(path, f"file not found; check the path (expected {kind.what})")
        data = read_bounded(path, MAX_XML_BYTES, kind.label, "check the path")
        self.budget.xml_bytes += len(data)
        if self.budget.xml_bytes > MAX_XML_BYTES:
            raise UserError(path, f"the map and its tilesets and templates add up to more than "
                            f"{MAX_XML_BYTES // 1_000_000} MB, far more than any real level; use "
                            "fewer or smaller tilesets")
        self.watch(path)
        return data


class _Limit(BadImage):
    """A picture past one of the image limits (the caller names it, as for a damaged one)."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem, "")


def image_problem(exc: BadImage | OSError) -> str:
    """What :meth:`Reader.image` found wrong, said after the picture's name."""
    if isinstance(exc, _Limit):
        return str(exc)
    if isinstance(exc, BadImage):
        return f"{exc}; {exc.fix}"
    return f"cannot be read ({exc.strerror or exc})"


# --- XML ----------------------------------------------------------------------------------------

class _Builder(ET.TreeBuilder):
    """ElementTree's tree builder, refusing while it parses what no Tiled file holds: elements
    nested too deep, group layers nested too deep, too many attributes on one element, and more
    elements than the budget, before the tree grows large."""

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
                            f"(at <{shown(tag, 30)}>), far deeper than Tiled writes; {RESAVE}")
        _check_elements(self.path, self.budget)
        return super().start(tag, attrs)

    def end(self, tag):
        self.depth -= 1
        if self.tags.pop() == "group":
            self.groups -= 1
        return super().end(tag)


def _check_elements(path: Path, budget: Budget, json: bool = False) -> None:
    if budget.xml_elements > MAX_XML_ELEMENTS:
        if json:
            raise UserError(path, f"the map and its tilesets hold more than "
                            f"{MAX_XML_ELEMENTS:,} JSON objects and arrays together, far more "
                            f"than any real level; {RESAVE}")
        raise UserError(path, f"the map and its tilesets hold more than {MAX_XML_ELEMENTS:,} "
                        "XML elements, far more than any real level (a tile layer stored as "
                        "XML? in Tiled set Map > Map Properties > Tile Layer Format to CSV)")


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


def _xml_document(path: Path, data: bytes, kind: Kind, budget: Budget) -> ET.Element:
    if data.count(b"=") > MAX_XML_ATTRIBUTES_TOTAL:
        raise UserError(path, f"the file has more than {MAX_XML_ATTRIBUTES_TOTAL:,} '=' signs, "
                        "so more XML attributes than any real level (each attribute has one); "
                        f"{RESAVE}")
    _check_doctype(path, data)
    parser = ET.XMLParser(target=_Builder(path, budget))
    try:
        parser.feed(data)
        return parser.close()
    except ET.ParseError as exc:
        raise UserError(path, f"not {kind.what}: the XML is broken ({exc}); re-save it from "
                        "Tiled") from None


# --- JSON ---------------------------------------------------------------------------------------

def _json_document(path: Path, data: bytes, kind: Kind, budget: Budget) -> ET.Element:
    """A JSON map, tileset or template as the TMX elements Tiled would have saved. Its objects
    and arrays are counted against the element limit before any is built (each ``{`` and ``[``
    in the text, strings' ones too: never fewer than there are), and so are its values and keys,
    by the commas between them and the colons after keys: a number or a short string takes ten
    times the bytes it takes in the file, so 60 MB of them would take gigabytes."""
    budget.xml_elements += data.count(b"{") + data.count(b"[")
    _check_elements(path, budget, json=True)
    budget.json_values += data.count(b",")
    if budget.json_values > MAX_JSON_VALUES:
        raise UserError(path, f"the map and its tilesets hold more than {MAX_JSON_VALUES:,} JSON "
                        "values together, far more than any real level (big tile layers? in "
                        "Tiled set Map > Map Properties > Tile Layer Format to Base64)")
    budget.json_keys += data.count(b":")
    if budget.json_keys > MAX_JSON_KEYS:
        raise UserError(path, f"the map and its tilesets hold more than {MAX_JSON_KEYS:,} JSON "
                        f"keys together, far more than any real level; {RESAVE}")
    what = kind.what.split(" (")[0]
    try:
        doc = tiled_json.parse_json(data, what)
        if kind is MAP:
            return tiled_json.map_element(doc)
        if kind is TILESET:
            if doc.get("type", "tileset") != "tileset":
                raise ValueError(f"not a Tiled tileset: its JSON \"type\" is "
                                 f"{tiled_json.shown_value(doc.get('type'))}")
            return tiled_json.tileset_element(doc)
        return tiled_json.template_element(doc)
    except ValueError as exc:
        raise UserError(path, f"{exc}; {kind.redo}") from None

