"""Tiled's JSON formats (``.tmj``/``.json`` maps, ``.tsj`` tilesets, ``.tj`` templates) written
as the TMX elements Tiled would have saved for the same map, so one reader and one set of checks
serves both (``game.maps.files``, ``game.maps.document``).

The mapping follows Tiled's documentation of the two formats: each JSON key becomes the TMX
attribute or child element of the same meaning. Both the current layout and the older ones are
read: properties as a list of ``{name, type, value}`` (Tiled 1.2+) or as a ``properties`` /
``propertytypes`` pair of objects (before 1.2); an object's or a tile's class as ``type``
(Tiled up to 1.8, and 1.10+) or ``class`` (1.9). Keys this game never reads (Wang sets,
terrains, the editor's settings) are left out.

Anything malformed -- a value of the wrong JSON type, a missing key Tiled always writes -- is a
:class:`ValueError` with a message that names the key; the caller turns it into the user's one
``error:`` line.
"""

from __future__ import annotations

import json
import math
import xml.etree.ElementTree as ET
from typing import Any

from game.errors import quoted
from game.maps.limits import MAX_GROUP_DEPTH

# What a JSON value must be for each property type Tiled writes.
_PROPERTY_TYPES = {"string", "int", "float", "bool", "color", "file", "object", "class"}


def parse_json(data: bytes, what: str) -> dict:
    """The JSON document of a Tiled file, which must be an object."""
    try:
        doc = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise ValueError(f"not {what}: it is not UTF-8 text") from None
    except RecursionError:
        raise ValueError(f"not {what}: its JSON is nested too deeply") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"not {what}: the JSON is broken ({exc})") from None
    if not isinstance(doc, dict):
        raise ValueError(f"not {what}: the JSON is not an object")
    return doc


def map_element(doc: dict) -> ET.Element:
    """``<map>`` for a JSON map document."""
    kind = doc.get("type", "map")
    if kind != "map":
        raise ValueError(f"not a Tiled map: its JSON \"type\" is {shown_value(kind)}, not \"map\"")
    for key in ("width", "height", "tilewidth", "tileheight"):
        if key not in doc:
            raise ValueError(f"the map has no \"{key}\"; re-save it from Tiled")
    el = ET.Element("map")
    _attrs(el, doc, ("version", "tiledversion", "class", "orientation", "renderorder",
                     "compressionlevel", "width", "height", "tilewidth", "tileheight",
                     "hexsidelength", "staggeraxis", "staggerindex", "parallaxoriginx",
                     "parallaxoriginy", "backgroundcolor", "nextlayerid", "nextobjectid"))
    el.set("infinite", "1" if doc.get("infinite") else "0")
    _properties(el, doc, "the map")
    for i, ts in enumerate(_list(doc, "tilesets", "the map")):
        if not isinstance(ts, dict):
            raise ValueError(f"tileset {i + 1} of the map is not a JSON object")
        if "source" in ts:
            child = ET.SubElement(el, "tileset")
            _attrs(child, ts, ("firstgid", "source"))
        else:
            el.append(tileset_element(ts, firstgid=ts.get("firstgid")))
    _layers(el, _list(doc, "layers", "the map"))
    return el


def tileset_element(doc: dict, firstgid: Any = None) -> ET.Element:
    """``<tileset>`` for a JSON tileset (embedded in a map, or a ``.tsj`` file's document)."""
    name = f"tileset {shown_value(doc.get('name', ''))}"
    el = ET.Element("tileset")
    if firstgid is not None:
        el.set("firstgid", _text(firstgid))
    _attrs(el, doc, ("name", "class", "tilewidth", "tileheight", "spacing", "margin",
                     "tilecount", "columns", "objectalignment", "tilerendersize", "fillmode"))
    offset = doc.get("tileoffset")
    if isinstance(offset, dict):
        _attrs(ET.SubElement(el, "tileoffset"), offset, ("x", "y"))
    grid = doc.get("grid")
    if isinstance(grid, dict):
        _attrs(ET.SubElement(el, "grid"), grid, ("orientation", "width", "height"))
    _properties(el, doc, name)
    if "image" in doc:
        _image(el, doc, name)
    for tile in _list(doc, "tiles", name):
        if not isinstance(tile, dict) or "id" not in tile:
            raise ValueError(f"{name} has a tile that is not an object with an \"id\"")
        t = ET.SubElement(el, "tile")
        _attrs(t, tile, ("id",))
        kind = tile.get("type", tile.get("class"))
        if kind:
            t.set("type", _text(kind))
        _attrs(t, tile, ("probability", "x", "y", "width", "height"))
        _properties(t, tile, f"tile {tile['id']} of {name}")
        if "image" in tile:
            _image(t, tile, f"tile {tile['id']} of {name}")
        if isinstance(tile.get("objectgroup"), dict):
            t.append(_layer(tile["objectgroup"], MAX_GROUP_DEPTH))
        frames = tile.get("animation")
        if frames:
            anim = ET.SubElement(t, "animation")
            for frame in _list(tile, "animation", f"tile {tile['id']}'s animation"):
                if not isinstance(frame, dict):
                    raise ValueError(f"tile {tile['id']} of {name} has a broken animation frame")
                _attrs(ET.SubElement(anim, "frame"), frame, ("tileid", "duration"))
    return el


def template_element(doc: dict) -> ET.Element:
    """``<template>`` for a ``.tj`` template document."""
    if doc.get("type", "template") != "template" or not isinstance(doc.get("object"), dict):
        raise ValueError("not a Tiled object template: it has no \"object\"")
    el = ET.Element("template")
    ts = doc.get("tileset")
    if isinstance(ts, dict):
        _attrs(ET.SubElement(el, "tileset"), ts, ("firstgid", "source"))
    el.append(_object(doc["object"]))
    return el


# --- layers and objects ----------------------------------------------------------------------

def _layers(parent: ET.Element, layers: list, depth: int = 0) -> None:
    if depth > MAX_GROUP_DEPTH:
        raise ValueError(f"group layers are nested more than {MAX_GROUP_DEPTH} deep; move the "
                         "layers out of the innermost groups in Tiled's Layers panel")
    for layer in layers:
        if not isinstance(layer, dict):
            raise ValueError("a layer is not a JSON object")
        parent.append(_layer(layer, depth))


_LAYER_ATTRS = ("id", "name", "class", "opacity", "offsetx", "offsety", "parallaxx", "parallaxy",
                "tintcolor")
_TAGS = {"tilelayer": "layer", "objectgroup": "objectgroup", "imagelayer": "imagelayer",
         "group": "group"}


def _layer(doc: dict, depth: int = 0) -> ET.Element:
    kind = doc.get("type", "objectgroup")
    if not isinstance(kind, str) or kind not in _TAGS:
        raise ValueError(f"layer {shown_value(doc.get('name', ''))} has the unknown type "
                         f"{shown_value(kind)}")
    el = ET.Element(_TAGS[kind])
    name = f"layer {shown_value(doc.get('name', ''))}"
    _attrs(el, doc, _LAYER_ATTRS)
    if doc.get("visible") is False:
        el.set("visible", "0")
    if kind == "tilelayer":
        _attrs(el, doc, ("width", "height"))
    elif kind == "objectgroup":
        _attrs(el, doc, ("color", "draworder"))
    elif kind == "imagelayer":
        for key in ("repeatx", "repeaty"):
            if doc.get(key):
                el.set(key, "1")
    _properties(el, doc, name)
    if kind == "tilelayer":
        el.append(_data(doc, name))
    elif kind == "objectgroup":
        for obj in _list(doc, "objects", name):
            if not isinstance(obj, dict):
                raise ValueError(f"{name} has an object that is not a JSON object")
            el.append(_object(obj))
    elif kind == "imagelayer":
        if doc.get("image"):
            image = ET.SubElement(el, "image", source=_text(doc["image"]))
            _attrs(image, doc, ("imagewidth", "imageheight"))
            _rename(image, {"imagewidth": "width", "imageheight": "height"})
            if doc.get("transparentcolor"):
                image.set("trans", _text(doc["transparentcolor"]).lstrip("#"))
    else:
        _layers(el, _list(doc, "layers", name), depth + 1)
    return el


def _data(doc: dict, name: str) -> ET.Element:
    data = ET.Element("data")
    encoding = doc.get("encoding", "csv")
    if encoding not in ("csv", "base64"):
        raise ValueError(f"{name} has the unknown encoding {shown_value(encoding)}")
    data.set("encoding", encoding)
    if doc.get("compression"):
        data.set("compression", _text(doc["compression"]))
    if "chunks" in doc:
        for chunk in _list(doc, "chunks", name):
            if not isinstance(chunk, dict):
                raise ValueError(f"{name} has a chunk that is not a JSON object")
            c = ET.SubElement(data, "chunk")
            _attrs(c, chunk, ("x", "y", "width", "height"))
            c.text = _cells(chunk.get("data"), encoding, name)
    else:
        data.text = _cells(doc.get("data"), encoding, name)
    return data


def _cells(value: Any, encoding: str, name: str) -> str:
    if encoding == "base64":
        if not isinstance(value, str):
            raise ValueError(f"{name}'s base64 \"data\" is not a string")
        return value
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool)
                                              for v in value):
        raise ValueError(f"{name}'s \"data\" is not a list of tile numbers")
    return ",".join(map(str, value))


def _object(doc: dict) -> ET.Element:
    el = ET.Element("object")
    _attrs(el, doc, ("id", "name"))
    kind = doc.get("type", doc.get("class"))
    if kind:
        el.set("type", _text(kind))
    _attrs(el, doc, ("x", "y", "width", "height", "rotation", "gid", "template"))
    if doc.get("visible") is False:
        el.set("visible", "0")
    _properties(el, doc, f"object {doc.get('id', '')}")
    if doc.get("ellipse"):
        ET.SubElement(el, "ellipse")
    if doc.get("point"):
        ET.SubElement(el, "point")
    for shape in ("polygon", "polyline"):
        if shape in doc:
            points = doc[shape]
            if not isinstance(points, list) or not all(
                    isinstance(p, dict) and _number(p.get("x")) and _number(p.get("y"))
                    for p in points):
                raise ValueError(f"object {doc.get('id', '')}'s {shape} is not a list of points")
            ET.SubElement(el, shape, points=" ".join(f"{_text(p['x'])},{_text(p['y'])}"
                                                     for p in points))
    text = doc.get("text")
    if isinstance(text, dict):
        t = ET.SubElement(el, "text")
        for key, value in text.items():
            if key != "text":
                t.set(key, _text(value))
        t.text = _text(text.get("text", ""))
    return el


# --- small pieces ------------------------------------------------------------------------------

def _image(el: ET.Element, doc: dict, name: str) -> None:
    if not isinstance(doc["image"], str):
        raise ValueError(f"{name}'s \"image\" is not a file name")
    image = ET.SubElement(el, "image", source=doc["image"])
    for json_key, xml_key in (("imagewidth", "width"), ("imageheight", "height")):
        if json_key in doc:
            image.set(xml_key, _text(doc[json_key]))
    if doc.get("transparentcolor"):
        image.set("trans", _text(doc["transparentcolor"]).lstrip("#"))


def _properties(el: ET.Element, doc: dict, name: str) -> None:
    props = doc.get("properties")
    if not props:
        return
    out = ET.SubElement(el, "properties")
    if isinstance(props, dict):  # before Tiled 1.2: {name: value} with {name: type} beside it
        types = doc.get("propertytypes") if isinstance(doc.get("propertytypes"), dict) else {}
        props = [{"name": k, "value": v, "type": types.get(k, _type_of(v))}
                 for k, v in props.items()]
    if not isinstance(props, list):
        raise ValueError(f"{name}'s \"properties\" is not a list")
    for p in props:
        if not isinstance(p, dict) or not isinstance(p.get("name"), str):
            raise ValueError(f"{name} has a property without a \"name\"")
        out.append(_property(p, name))


def _property(p: dict, name: str) -> ET.Element:
    kind = p.get("type", "string")
    if not isinstance(kind, str) or kind not in _PROPERTY_TYPES:
        raise ValueError(f"property {shown_value(p['name'])} of {name} has the unknown type "
                         f"{shown_value(kind)}")
    el = ET.Element("property", name=p["name"])
    if kind != "string":
        el.set("type", kind)
    if p.get("propertytype"):
        el.set("propertytype", _text(p["propertytype"]))
    value = p.get("value", "")
    if kind == "class":  # its members are left out: the game reads no class-typed property
        return el
    if isinstance(value, str) and "\n" in value:
        el.text = value
    else:
        el.set("value", _text(value))
    return el


def _type_of(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, dict):
        return "class"
    return "string"


def _attrs(el: ET.Element, doc: dict, keys) -> None:
    for key in keys:
        if key in doc and doc[key] is not None and doc[key] != "":
            el.set(key, _text(doc[key]))


def _rename(el: ET.Element, names: dict[str, str]) -> None:
    for old, new in names.items():
        if old in el.attrib:
            el.set(new, el.attrib.pop(old))


def _list(doc: dict, key: str, name: str) -> list:
    value = doc.get(key, [])
    if not isinstance(value, list):
        raise ValueError(f"{name}'s \"{key}\" is not a list")
    return value


def shown_value(value: Any) -> str:
    """A JSON value as a message shows it: a list or an object by its kind, else quoted."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    return quoted(value)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _text(value: Any) -> str:
    """A JSON value as Tiled writes it in TMX: booleans as true/false, whole floats without .0."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    if isinstance(value, (dict, list)):
        raise ValueError(f"{json.dumps(value)[:40]} where a single value belongs")
    return str(value)
