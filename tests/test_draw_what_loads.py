"""Whatever the headless run accepts, the window and ``--render-map`` draw (issue 34; the
promise of docs/levels.md that a level passing the headless check opens in the window).

Every map: the shipped levels, the maps of tests/data, the corpus of real maps
(tests/data/real_maps), and the hostile maps the command line plays (tests/test_hostile_maps.py,
tests/test_hostile_maps_more.py; tests/test_hostile_drawing.py draws its own the same way, each
in a test that says what it was). Each is drawn in a process of
its own held to 1 GiB (tests/drawing.py): the window plays it and pans its renderer over the
whole map when the headless run accepts it; ``--render-map`` writes its picture (or says in
one ``error:`` line that the picture is over its documented cap), and every file beside the map
is as it was. A hostile map is also hot reloaded into a window playing a good map: the window
goes on and its trace keeps every tick.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from drawing import draws

import test_hostile_maps
import test_hostile_maps_more
from game.config import Config, MapConfig
from game.errors import UserError
from game.maps.level import load_level
from game.sim.world import declared
from test_real_maps_corpus import map_files

pytestmark = pytest.mark.slow  # a process each, some of them drawing big maps

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "data" / "real_maps"
MANIFEST = tomllib.loads((CORPUS / "manifest.toml").read_text("utf-8"))["map"]
DECLARED = {(CORPUS / m["path"]).resolve(): m.get("declare", {}) for m in MANIFEST.values()}
OURS = sorted(p for folder in (ROOT / "levels", ROOT / "tests" / "data")
              for p in folder.rglob("*.tm[xj]") if CORPUS not in p.parents)
MAPS = {str(p.relative_to(ROOT)): p for p in OURS + map_files()}
HOSTILE = {**test_hostile_maps.PLAYED, **test_hostile_maps_more.PLAYED}


def plays(path: Path, declare: dict) -> bool:
    """Does the headless run accept the map (as --level)?"""
    cfg = Config(map=MapConfig(**{k: tuple(v) if isinstance(v, list) else v
                                  for k, v in declare.items()}))
    try:
        load_level(path, declared=declared(cfg))
    except UserError:
        return False
    return True


@pytest.mark.parametrize("name", MAPS)
def test_every_map_the_headless_run_accepts_is_drawn(name, tmp_path):
    path = MAPS[name]
    declare = DECLARED.get(path.resolve(), {})
    draws(path, tmp_path, play=plays(path, declare), declare=declare)


@pytest.mark.parametrize("name", HOSTILE)
def test_every_hostile_map_the_headless_run_accepts_is_drawn_and_hot_reloaded(name, tmp_path):
    folder = tmp_path / "maps"
    folder.mkdir()
    path = HOSTILE[name](folder)
    good = test_hostile_maps.write_map(folder, name="good.tmx")
    assert test_hostile_maps.run_level(path).returncode == 0  # it plays headless
    (tmp_path / "out").mkdir()
    draws(path, tmp_path / "out", reload_from=good)
