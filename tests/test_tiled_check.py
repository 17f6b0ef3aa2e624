"""The check inside Tiled (levels/extensions/tilecollide-check.js) and the project's map class.

The extension is run for real: Tiled's command line loads it from the user's extensions folder
(``$XDG_CONFIG_HOME/tiled/extensions``; it has no project there), which each test points at its
tmp_path with the extension linked in, as docs/levels.md tells a user to. Then ``tiled
--export-map tilecollide-check MAP REPORT`` runs the game's loader on the map through Tiled's
Process and writes what it said. Needs Debian's ``tiled`` (see tests/test_tiled.py).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import fields
from pathlib import Path

import pytest

from game.config import PhysicsConfig
from tests.test_tiled import tiled_tool

ROOT = Path(__file__).resolve().parent.parent
LEVELS = ROOT / "levels"
EXTENSION = LEVELS / "extensions" / "tilecollide-check.js"
PROJECT = LEVELS / "tilecollide.tiled-project"
FOREIGN = ROOT / "tests" / "data" / "real_maps" / "melonjs" / "platformer" / "map" / "map1.tmx"


def check(tmp_path: Path, tmx: Path) -> tuple[subprocess.CompletedProcess, str]:
    """``tiled --export-map tilecollide-check tmx REPORT`` with the extension linked into a
    fresh config folder; the process and the report's text."""
    config = tmp_path / "config"
    extensions = config / "tiled" / "extensions"
    if not extensions.exists():
        extensions.mkdir(parents=True)
        (extensions / EXTENSION.name).symlink_to(EXTENSION)
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700, exist_ok=True)
    out = tmp_path / "out" / f"{tmx.stem}.txt"
    out.parent.mkdir(exist_ok=True)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(config),
               HOME=str(tmp_path), XDG_RUNTIME_DIR=str(runtime))
    proc = subprocess.run([tiled_tool("tiled"), "--export-map", "tilecollide-check", str(tmx),
                           str(out)], capture_output=True, text=True, env=env, timeout=120)
    assert [p.name for p in out.parent.iterdir() if p.name.startswith(".tilecollide-check")] \
        == [], "the copy of the map checked is removed"
    return proc, out.read_text("utf-8") if out.exists() else ""


def level_copy(tmp_path: Path, name: str = "01_first_steps.tmx") -> Path:
    """A shipped level in a folder of its own (its tileset and next level still the shipped
    ones), to spoil."""
    folder = tmp_path / "mine"
    folder.mkdir(exist_ok=True)
    text = (LEVELS / name).read_text("utf-8")
    text = text.replace('source="terrain.tsx"', f'source="{LEVELS / "terrain.tsx"}"')
    text = text.replace('value="02_every_tile.tmx"', f'value="{LEVELS / "02_every_tile.tmx"}"')
    path = folder / name
    path.write_text(text, "utf-8")
    return path


@pytest.mark.tiled
def test_a_good_level_passes(tmp_path):
    proc, report = check(tmp_path, LEVELS / "05_features.tmx")
    assert proc.returncode == 0, proc.stderr
    assert report.splitlines()[-1].startswith("ok: the game loads the map (1 ticks on")
    assert "error:" not in proc.stderr and "error:" not in report


@pytest.mark.tiled
def test_a_broken_level_fails_with_the_games_error_line(tmp_path):
    level = level_copy(tmp_path)
    text = level.read_text("utf-8")
    level.write_text(text.replace('<property name="title"',
                                  '<property name="gravty" type="float" value="700"/>\n'
                                  '  <property name="title"', 1), "utf-8")
    proc, report = check(tmp_path, level)
    assert proc.returncode != 0
    line = ("error: the map: map property gravty is not a [physics] key; did you mean gravity? "
            "(rename it in Map > Map Properties)")
    assert line in proc.stderr  # Tiled prints it as "qml: error: ..."
    assert report.splitlines() == [line, "failed: the game cannot load the map"]


@pytest.mark.tiled
def test_a_map_made_elsewhere_shows_the_games_notes(tmp_path):
    proc, report = check(tmp_path, FOREIGN)
    assert proc.returncode == 0, proc.stderr
    notes = [line for line in report.splitlines() if line.startswith("note: ")]
    assert len(notes) >= 2 and any("collision objects" in n for n in notes)
    assert all(n in proc.stderr for n in notes)


@pytest.mark.tiled
def test_a_slope_tile_left_at_its_class_defaults_is_a_warning_only_tiled_can_give(tmp_path):
    """Tile 4 keeps its class ``slope`` but loses its ``slope_left`` (0, the class's default,
    which Tiled does not save). The level does not place tile 4, so the game loads it; only
    Tiled, seeing the class, can tell."""
    level = level_copy(tmp_path)
    tileset = (LEVELS / "terrain.tsx").read_text("utf-8")
    tile4 = tileset.index('<tile id="4" type="slope">')
    left = tileset.index('<property name="slope_left" type="int" value="0"/>', tile4)
    tileset = tileset[:left] + tileset[left:].replace(
        '<property name="slope_left" type="int" value="0"/>', "", 1)
    tileset = tileset.replace('source="../assets/', f'source="{ROOT / "assets"}/')
    (level.parent / "terrain.tsx").write_text(tileset, "utf-8")
    level.write_text(level.read_text("utf-8").replace(str(LEVELS / "terrain.tsx"), "terrain.tsx"),
                     "utf-8")
    proc, report = check(tmp_path, level)
    assert proc.returncode == 0, proc.stderr
    warning = [line for line in report.splitlines() if line.startswith("warning: ")]
    assert warning == ["warning: tile 4 of tileset terrain has the class slope but no slope_left "
                       "of its own: Tiled does not save a class member left at its default, so "
                       "the game never sees it; add slope_left to the tile as a plain property "
                       "(docs/levels.md, section 3)"]


@pytest.mark.tiled
def test_a_map_outside_the_repository_is_checked_by_the_game_the_link_points_at(tmp_path):
    """The extension is found through its link, so a level anywhere can be checked."""
    level = level_copy(tmp_path)
    assert ROOT not in level.parents
    proc, report = check(tmp_path, level)
    assert proc.returncode == 0, proc.stderr + report


def test_the_project_loads_the_extension_and_declares_the_level_map_class():
    project = json.loads(PROJECT.read_text("utf-8"))
    assert (PROJECT.parent / project["extensionsPath"] / EXTENSION.name) == EXTENSION
    source = EXTENSION.read_text("utf-8")
    for needed in ('tiled.registerMapFormat(FORMAT', 'FORMAT = "tilecollide-check"',
                   'action.text = "Check with tilecollide"', 'tiled.extendMenu("Map"',
                   'action.shortcut = "F6"', '"--headless", "--ticks", "1", "--level"'):
        assert needed in source, needed
    level = [t for t in project["propertyTypes"] if t["name"] == "level"]
    assert len(level) == 1 and level[0]["type"] == "class" and level[0]["useAs"] == ["map"]
    members = {m["name"]: m for m in level[0]["members"]}
    assert members.pop("title")["type"] == "string"
    assert members.pop("next_level")["type"] == "file"
    backdrop = members.pop("backdrop")
    assert (backdrop["propertyType"], backdrop["value"]) == ("backdrop", "day")
    # Every [physics] key, with config.toml's default (a member left at its default is not
    # saved, so the map then plays with config.toml's value: the same).
    assert {name: (m["type"], m["value"]) for name, m in members.items()} == {
        f.name: ("float", f.default) for f in fields(PhysicsConfig)}


@pytest.mark.skipif(shutil.which("node") is None, reason="node not found")
def test_the_extension_is_valid_javascript():
    proc = subprocess.run(["node", "--check", str(EXTENSION)], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
