"""The corpus of real, public Tiled maps (tests/data/real_maps) is whole and says true things.

Every map in the folder is in manifest.toml and SOURCES.md, every file a map names is there, and
what the manifest says a map is (orientation, grid, start object, the features a reader meets) is
what the file holds. With Debian's Tiled installed, tmxrasterizer draws every map.
"""

from __future__ import annotations

import json
import re
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.test_tiled import run_tool, tiled_tool

CORPUS = Path(__file__).resolve().parent / "data" / "real_maps"
MANIFEST = tomllib.loads((CORPUS / "manifest.toml").read_text(encoding="utf-8"))["map"]
ENTRIES = sorted(MANIFEST.items())
IDS = [key for key, _ in ENTRIES]

KINDS = {"platformer", "other"}
ORIENTATIONS = {"orthogonal", "isometric", "staggered", "hexagonal"}
COLLISION = re.compile(r"^(none|nocollide|tile_shapes|(tile_property|tile_class|layer_name|"
                       r"layer_property|object_layer|object_name):.+|object_property:.+=.+)$")
FEATURES = {"json", "json_tileset", "tsx_tileset", "xml_tileset", "pre_1_2", "infinite", "zstd",
            "tile_objects", "animations", "image_layers", "parallax", "templates",
            "image_collection", "big_tiles", "tile_shapes", "tile_subrects", "flipped_tiles",
            "group_layers", "class_attr", "text_objects", "polygons", "points",
            "map_property_name", "reserved_property_name", "missing_image", "flipped_shapes",
            "xml_layers", "doctype"}
# Features read straight from the file: the manifest must list each one exactly when it is there.
DETECTED = {"json", "json_tileset", "tsx_tileset", "xml_tileset", "pre_1_2", "infinite", "zstd",
            "tile_objects", "image_layers", "parallax", "templates", "image_collection",
            "tile_shapes", "group_layers", "animations", "xml_layers", "doctype"}
TILESET_FILES = {".tsx": "tsx_tileset", ".xml": "xml_tileset", ".json": "json_tileset",
                 ".tsj": "json_tileset"}


def is_json(path: Path) -> bool:
    return path.suffix in (".json", ".tmj")


def map_files() -> list[Path]:
    """Every map in the corpus: .tmx, .tmj, and .json files that are maps, not tilesets."""
    found = [*CORPUS.rglob("*.tmx"), *CORPUS.rglob("*.tmj")]
    for path in CORPUS.rglob("*.json"):
        if json.loads(path.read_text(encoding="utf-8")).get("type") == "map":
            found.append(path)
    return sorted(found)


def references(path: Path) -> list[tuple[str, Path]]:
    """(kind, path) of every file a map, tileset or template names, following external ones."""
    out: list[tuple[str, Path]] = []
    if is_json(path) or path.suffix == ".tsj":
        def walk(node):
            if isinstance(node, dict):
                for key, value in node.items():
                    if key in ("image", "source", "template") and isinstance(value, str) and value:
                        out.append((key, path.parent / value))
                    else:
                        walk(value)
            elif isinstance(node, list):
                for value in node:
                    walk(value)
        walk(json.loads(path.read_text(encoding="utf-8")))
    else:
        for el in ET.parse(path).getroot().iter():
            if el.tag in ("image", "tileset") and el.get("source"):
                kind = "image" if el.tag == "image" else "source"
                out.append((kind, path.parent / el.get("source")))
            if el.get("template"):
                out.append(("template", path.parent / el.get("template")))
    return out


def closure(path: Path) -> list[tuple[str, Path]]:
    """references() of the map and of every tileset and template it reaches."""
    seen, todo, out = {path.resolve()}, [path], []
    while todo:
        for kind, ref in references(todo.pop()):
            out.append((kind, ref))
            if kind != "image" and ref.exists() and ref.resolve() not in seen:
                seen.add(ref.resolve())
                todo.append(ref)
    return out


def tileset_roots(path: Path) -> list:
    """The map's tilesets as XML elements or JSON dicts, external ones read from their files."""
    if is_json(path):
        found = []
        for ts in json.loads(path.read_text(encoding="utf-8"))["tilesets"]:
            src = ts.get("source")
            if src and src.endswith((".json", ".tsj")):
                found.append(json.loads((path.parent / src).read_text(encoding="utf-8")))
            elif src:
                found.append(ET.parse(path.parent / src).getroot())
            else:
                found.append(ts)
        return found
    root = ET.parse(path).getroot()
    return [ET.parse(path.parent / ts.get("source")).getroot() if ts.get("source") else ts
            for ts in root.findall("tileset")]


def detected_features(path: Path) -> set[str]:
    """The DETECTED features this map file has."""
    found: set[str] = set()
    suffixes = {ref.suffix for kind, ref in references(path) if kind == "source"}
    found |= {TILESET_FILES[s] for s in suffixes if s in TILESET_FILES}
    for ts in tileset_roots(path):
        if isinstance(ts, dict):
            tiles = ts.get("tiles", [])
            found |= {"image_collection"} if "image" not in ts else set()
            found |= {"tile_shapes"} if any("objectgroup" in t for t in tiles) else set()
            found |= {"animations"} if any("animation" in t for t in tiles) else set()
        else:
            found |= {"image_collection"} if ts.find("image") is None else set()
            found |= {"tile_shapes"} if ts.find("tile/objectgroup") is not None else set()
            found |= {"animations"} if ts.find("tile/animation") is not None else set()
    if is_json(path):
        data = json.loads(path.read_text(encoding="utf-8"))
        found.add("json")
        layers, todo = [], list(data["layers"])
        while todo:
            layer = todo.pop()
            layers.append(layer)
            todo += layer.get("layers", [])
        objects = [o for layer in layers for o in layer.get("objects", [])]
        found |= {"infinite"} if data.get("infinite") else set()
        found |= {"zstd"} if any(la.get("compression") == "zstd" for la in layers) else set()
        kinds = {la["type"] for la in layers}
        parallax = any("parallaxx" in la or "parallaxy" in la for la in layers)
        tile_objects = any("gid" in o for o in objects)
        templates = any("template" in o for o in objects)
    else:
        root = ET.parse(path).getroot()
        top = [el for el in root if el.tag in ("layer", "objectgroup", "imagelayer", "group")]
        layers = [*top, *(el for g in top if g.tag == "group" for el in g.iter() if el is not g
                          and el.tag in ("layer", "objectgroup", "imagelayer", "group"))]
        objects = [o for la in layers if la.tag == "objectgroup" for o in la.findall("object")]
        found |= {"infinite"} if root.get("infinite") == "1" else set()
        found |= {"pre_1_2"} if top and all(el.get("id") is None for el in top) else set()
        zstd = any(d.get("compression") == "zstd" for d in root.iter("data"))
        found |= {"zstd"} if zstd else set()
        found |= {"xml_layers"} if any(d.find(".//tile") is not None
                                       for d in root.iter("data")) else set()
        found |= {"doctype"} if b"<!DOCTYPE" in path.read_bytes() else set()
        kinds = {{"layer": "tilelayer"}.get(la.tag, la.tag) for la in layers}
        parallax = any(la.get("parallaxx") or la.get("parallaxy") for la in layers)
        tile_objects = any(o.get("gid") for o in objects)
        templates = any(o.get("template") for o in objects)
    found |= {"image_layers"} if "imagelayer" in kinds else set()
    found |= {"group_layers"} if "group" in kinds else set()
    found |= {"parallax"} if parallax else set()
    found |= {"tile_objects"} if tile_objects else set()
    found |= {"templates"} if templates else set()
    return found


def header(path: Path) -> tuple[str, list[int]]:
    if is_json(path):
        data = json.loads(path.read_text(encoding="utf-8"))
        return data["orientation"], [data["tilewidth"], data["tileheight"]]
    root = ET.parse(path).getroot()
    return root.get("orientation"), [int(root.get("tilewidth")), int(root.get("tileheight"))]


def named_objects(path: Path) -> list[tuple[set[str], float, float]]:
    """({name, type/class}, x, y) of every object, a template's name counting as the object's."""
    out = []
    if is_json(path):
        todo = list(json.loads(path.read_text(encoding="utf-8"))["layers"])
        while todo:
            layer = todo.pop()
            todo += layer.get("layers", [])
            for o in layer.get("objects", []):
                out.append(({o.get("name"), o.get("type"), o.get("class")}, o["x"], o["y"]))
        return out
    for o in ET.parse(path).getroot().iter("object"):
        names = {o.get("name"), o.get("type"), o.get("class")}
        if o.get("template"):
            tpl = ET.parse(path.parent / o.get("template")).getroot().find("object")
            names |= {tpl.get("name"), tpl.get("type"), tpl.get("class")}
        if o.get("x") is not None:
            out.append((names, float(o.get("x")), float(o.get("y"))))
    return out


def test_the_corpus_has_enough_maps_of_each_kind():
    kinds = [entry["kind"] for _, entry in ENTRIES]
    assert kinds.count("platformer") >= 20 and kinds.count("other") >= 8


def test_every_map_file_is_in_the_manifest_and_every_entry_is_a_file():
    listed = sorted(CORPUS / entry["path"] for _, entry in ENTRIES)
    assert listed == map_files()
    assert len(set(listed)) == len(listed), "two manifest entries name one map"


@pytest.mark.parametrize("key, entry", ENTRIES, ids=IDS)
def test_manifest_entry_is_well_formed(key, entry):
    assert entry["kind"] in KINDS
    assert entry["orientation"] in ORIENTATIONS
    collision = entry["collision"]
    assert collision and all(COLLISION.match(c) for c in collision), collision
    assert set(entry["features"]) <= FEATURES, set(entry["features"]) - FEATURES
    assert entry["note"].strip()
    assert entry["start"] == "none" or entry["start"].startswith("object:")
    assert ("start_xy" in entry) == (entry["start"] != "none")


@pytest.mark.parametrize("key, entry", ENTRIES, ids=IDS)
def test_manifest_says_what_the_file_holds(key, entry):
    path = CORPUS / entry["path"]
    assert list(header(path)) == [entry["orientation"], entry["tile_size"]]
    detected = detected_features(path)
    listed = set(entry["features"]) & DETECTED
    assert listed == detected, f"listed but absent: {listed - detected}; present but unlisted: " \
                               f"{detected - listed}"
    if entry["start"] != "none":
        name = entry["start"].removeprefix("object:")
        spots = [(x, y) for names, x, y in named_objects(path) if name in names]
        assert pytest.approx(entry["start_xy"]) in spots, f"no {name!r} at {entry['start_xy']}"


@pytest.mark.parametrize("key, entry", ENTRIES, ids=IDS)
def test_every_map_has_its_source_recorded(key, entry):
    sources = (CORPUS / "SOURCES.md").read_text(encoding="utf-8")
    assert f"`{entry['path']}`" in sources


@pytest.mark.parametrize("key, entry", ENTRIES, ids=IDS)
def test_every_file_a_map_names_is_there(key, entry):
    missing = [str(ref.relative_to(CORPUS)) for _, ref in closure(CORPUS / entry["path"])
               if not ref.resolve().is_file()]
    assert not missing
    assert all(ref.resolve().is_relative_to(CORPUS) for _, ref in closure(CORPUS / entry["path"]))


def test_the_corpus_stays_small():
    size = sum(p.stat().st_size for p in CORPUS.rglob("*") if p.is_file())
    assert size < 5_000_000, f"{size} bytes: the corpus should stay a few MB"


@pytest.mark.tiled
@pytest.mark.parametrize("key, entry", ENTRIES, ids=IDS)
def test_tmxrasterizer_draws_every_map(key, entry, tmp_path):
    out = tmp_path / "map.png"
    proc = run_tool([tiled_tool("tmxrasterizer"), "--size", "256", str(CORPUS / entry["path"]),
                     str(out)], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert out.is_file() and out.stat().st_size > 0
