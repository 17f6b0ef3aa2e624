"""One read, one model (issue 30): loading a level opens each file it is made of once, the map,
every tileset, template and picture, and pytmx parses the map once, from a document built for
it (it opens no tileset itself). Watched with an audit hook on ``open``, for every shipped level,
every map of tests/data/formats and every map of the corpus of real maps."""

from __future__ import annotations

import os
import sys
import tomllib
from collections import Counter
from pathlib import Path

import pytest

from game.maps.level import load_level
from game.maps.model import import_pytmx

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "data" / "real_maps"
MANIFEST = tomllib.loads((CORPUS / "manifest.toml").read_text("utf-8"))["map"]
MAPS = {**{p.stem: (p, True) for p in sorted((ROOT / "levels").glob("*.tm[xj]"))},
        **{f"formats/{p.name}": (p, True)
           for p in sorted((ROOT / "tests" / "data" / "formats").glob("*.tm[xj]"))},
        **{k: (CORPUS / m["path"], m["kind"] == "platformer") for k, m in MANIFEST.items()}}
MAP_FILES = {".tmx", ".tmj", ".json", ".tsx", ".tsj", ".xml", ".tx", ".tj", ".png", ".gif",
             ".bmp", ".jpg", ".jpeg"}

_opened: Counter | None = None  # the files opened while a load is watched


def _audit(event: str, args: tuple) -> None:
    if _opened is not None and event == "open" and isinstance(args[0], (str, os.PathLike)):
        path = os.fspath(args[0])
        if os.path.splitext(path)[1].lower() in MAP_FILES:
            _opened[os.path.realpath(path)] += 1


sys.addaudithook(_audit)  # an audit hook stays for the process: it counts only when asked


@pytest.mark.parametrize("key", MAPS)
def test_each_file_is_opened_once_and_pytmx_parses_once(key, monkeypatch):
    global _opened
    path, play = MAPS[key]
    tiled_map = import_pytmx().TiledMap
    parses = []
    real_parse = tiled_map.parse_xml

    def counted(self, node):
        parses.append(node)
        return real_parse(self, node)

    monkeypatch.setattr(tiled_map, "parse_xml", counted)
    _opened = Counter()
    try:
        level = load_level(path, play=play)
    finally:
        opened, _opened = _opened, None
    assert len(parses) == 1
    assert opened and max(opened.values()) == 1, {p: n for p, n in opened.items() if n > 1}
    assert set(opened) <= {str(f) for f in level.files}  # each one watched for hot reload
    assert os.path.realpath(path) in opened
