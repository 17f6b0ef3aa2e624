"""Checked against real Tiled: every shipped level exports, and renders exactly as Tiled does.

Needs Debian's ``tiled`` package (``tiled``, ``tmxrasterizer``), run with QT_QPA_PLATFORM=offscreen.
Where it is absent these tests skip and say why; with TILECOLLIDE_REQUIRE_TILED=1 (set by
.ci/run) a missing Tiled fails them instead.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pygame
import pytest

from game.maps.level import load_level
from game.view.render import TileImages, render_map

ROOT = Path(__file__).resolve().parent.parent
LEVELS = sorted((ROOT / "levels").glob("*.tmx"))
FEATURES = ROOT / "tests" / "data" / "tiled_features.tmx"


def tiled_tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        if os.environ.get("TILECOLLIDE_REQUIRE_TILED"):
            pytest.fail(f"{name} not found, and TILECOLLIDE_REQUIRE_TILED is set: "
                        "install Debian's tiled package")
        pytest.skip(f"{name} not found: install Debian's tiled package to run this check")
    return path


def run_tool(args: list[str], tmp_path: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_RUNTIME_DIR=str(tmp_path))
    return subprocess.run(args, capture_output=True, text=True, env=env, timeout=120)


def test_levels_exist():
    assert len(LEVELS) >= 2


@pytest.mark.tiled
@pytest.mark.parametrize("tmx", LEVELS, ids=lambda p: p.name)
def test_tiled_exports_every_level(tmx: Path, tmp_path: Path):
    out = tmp_path / "map.json"
    proc = run_tool([tiled_tool("tiled"), "--export-map", "json", str(tmx), str(out)], tmp_path)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(out.read_text())
    level = load_level(tmx)
    assert (data["width"], data["height"]) == (level.grid.cols, level.grid.rows)
    assert (data["tilewidth"], data["tileheight"]) == level.tile_size
    assert data["infinite"] is False and data["orientation"] == "orthogonal"


def rgba_bytes(surface: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surface, "RGBA")


def compare(ours: pygame.Surface, ref: pygame.Surface) -> tuple[int, int]:
    """(pixels more than 1 apart on some channel, largest difference); clear pixels match any."""
    a, b = rgba_bytes(ours), rgba_bytes(ref)
    if a == b:
        return 0, 0
    bad = worst = 0
    for i in range(0, len(a), 4):
        if a[i + 3] == 0 and b[i + 3] == 0:
            continue
        d = max(abs(a[i + k] - b[i + k]) for k in range(4))
        worst = max(worst, d)
        bad += d > 1
    return bad, worst


@pytest.mark.tiled
@pytest.mark.parametrize("tmx", [*LEVELS, FEATURES], ids=lambda p: p.name)
def test_renderer_matches_tmxrasterizer(tmx: Path, tmp_path: Path):
    out = tmp_path / "tiled.png"
    hide = []
    for group in ET.parse(tmx).getroot().iter("objectgroup"):
        hide += ["--hide-layer", group.get("name", "")]
    proc = run_tool([tiled_tool("tmxrasterizer"), "--no-smoothing", *hide, str(tmx), str(out)],
                    tmp_path)
    assert proc.returncode == 0 and out.exists(), proc.stderr
    level = load_level(tmx)
    ours = render_map(level, TileImages(level, convert=False))
    ref = pygame.image.load(str(out))
    assert ours.get_size() == ref.get_size()
    bad, worst = compare(ours, ref)
    assert bad == 0, f"{bad} pixels differ by more than 1 (worst {worst})"


def test_compare_sees_a_changed_pixel_and_ignores_clear_ones():
    a = pygame.Surface((3, 3), pygame.SRCALPHA)
    b = a.copy()
    b.set_at((1, 1), (0, 0, 5, 0))  # a different colour under zero alpha: still clear
    assert compare(a, b) == (0, 0)
    b.set_at((2, 2), (10, 0, 0, 255))
    assert compare(a, b) == (1, 255)


@pytest.mark.tiled
@pytest.mark.parametrize("embed", [False, True], ids=["external-tsx", "embedded-tileset"])
@pytest.mark.parametrize("tmx", LEVELS, ids=lambda p: p.name)
def test_levels_saved_by_tiled_itself_load_and_play_the_same(tmx: Path, embed: bool,
                                                             tmp_path: Path):
    """Round trip through Tiled's own TMX writer: what Tiled saves is what the game plays."""
    from game import config, resolvers
    from game.sim.inputs import parse_script
    from game.runs.headless import run
    from game.sim.world import World

    shutil.copytree(ROOT / "assets", tmp_path / "assets")
    (tmp_path / "levels").mkdir()
    shutil.copy(ROOT / "levels" / "terrain.tsx", tmp_path / "levels" / "terrain.tsx")
    saved = tmp_path / "levels" / tmx.name
    args = [tiled_tool("tiled"), *(["--embed-tilesets"] if embed else []), "--export-map", "tmx",
            str(tmx), str(saved)]
    proc = run_tool(args, tmp_path)
    assert proc.returncode == 0 and saved.exists(), proc.stderr
    ours, theirs = load_level(tmx), load_level(saved)
    assert theirs.grid.kinds == ours.grid.kinds and dict(theirs.grid.slopes) == dict(ours.grid.slopes)
    assert theirs.spawn == ours.spawn and theirs.goals == ours.goals
    assert [layer.gids for layer in theirs.view.layers] == [layer.gids for layer in ours.view.layers]
    cfg = config.load()
    script = parse_script(["0 right", "40 right+jump", "70 right"], "inline")
    traces = [list(run(World(lv, cfg.physics, resolvers.create("axis")),
                       script.frames(240))) for lv in (ours, theirs)]
    assert traces[0] == traces[1]


@pytest.mark.tiled
def test_saving_with_tiled_shows_the_change_in_the_running_game(tmp_path: Path):
    """The whole authoring loop with Tiled's own writer: export the level to JSON, change a tile
    and the title there, let Tiled save it back over the .tmx, and the running game reloads it."""
    from dataclasses import replace

    from game import config
    from game.view.app import App

    shutil.copytree(ROOT / "assets", tmp_path / "assets")
    shutil.copytree(ROOT / "levels", tmp_path / "levels")
    level = tmp_path / "levels" / "01_first_steps.tmx"
    c = config.load(ROOT / "config.toml")
    app = App(replace(c, display=replace(c.display, width=640, height=360, vsync=False)), level,
              max_frames=1)
    try:
        before = app.world.level
        as_json = tmp_path / "levels" / "edit.json"
        proc = run_tool([tiled_tool("tiled"), "--export-map", "json", str(level), str(as_json)],
                        tmp_path)
        assert proc.returncode == 0, proc.stderr
        data = json.loads(as_json.read_text())
        for prop in data["properties"]:
            if prop["name"] == "title":
                prop["value"] = "Saved by Tiled"
        ground = next(layer for layer in data["layers"] if layer.get("name") == "ground")
        col = 10
        row = int(before.spawn.y // before.grid.tile_h) - 3  # a block in the air, off the spawn
        ground["data"][row * data["width"] + col] = 1  # gid 1: a solid grass tile
        as_json.write_text(json.dumps(data))
        proc = run_tool([tiled_tool("tiled"), "--export-map", "tmx", str(as_json), str(level)],
                        tmp_path)
        assert proc.returncode == 0, proc.stderr
        app.play.hot_reload_check()
        after = app.world.level
        assert app.play.error_line is None
        assert after.title == "Saved by Tiled"
        assert before.grid.kind(col, row) == 0 and after.grid.kind(col, row) == 1
    finally:
        pygame.quit()
        pygame.init()
