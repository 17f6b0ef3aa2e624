"""In the game: hot reload of a saved level, the goal leading to the next level, restart keys."""

from __future__ import annotations

import os
import shutil
import time
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from game import config
from game.inputs import Held
from game.view.app import App

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the levels (and the art they point at) that the test may edit."""
    shutil.copytree(ROOT / "levels", tmp_path / "levels")
    shutil.copytree(ROOT / "assets", tmp_path / "assets")
    return tmp_path / "levels"


@pytest.fixture
def app(project: Path):
    c = config.load(ROOT / "config.toml")
    c = replace(c, display=replace(c.display, width=640, height=360, vsync=False))
    levels = sorted(project.glob("*.tmx"))
    a = App(c, levels[0], max_frames=1)
    yield a
    pygame.quit()
    pygame.init()


def save(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))  # a later mtime


def key(k):
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0)


def test_saving_the_level_reloads_it_and_keeps_the_player(app: App):
    path = app.world.level.path
    p = app.world.player
    p.x += 5.0
    spot = (p.x, p.y)
    text = path.read_text(encoding="utf-8")
    assert 'name="title" value="' in text
    save(path, text.replace('name="title" value="', 'name="title" value="Edited ', 1))
    app.hot_reload_check()
    assert app.world.level.title.startswith("Edited ")
    assert (app.world.player.x, app.world.player.y) == spot
    assert app.error_line is None


def test_a_broken_save_shows_the_error_and_keeps_the_last_good_level(app: App):
    path = app.world.level.path
    good_title = app.world.level.title
    good = path.read_text(encoding="utf-8")
    save(path, good.replace("</map>", ""))  # half-written XML
    app.hot_reload_check()
    assert app.error_line and app.error_line.startswith("error:") and path.name in app.error_line
    assert app.world.level.title == good_title
    app.draw(0.0)  # the error bar draws without trouble
    save(path, good)
    app.hot_reload_check()
    assert app.error_line is None


def test_reload_moves_the_player_to_the_spawn_when_their_spot_is_now_solid(app: App):
    level = app.world.level
    g = level.grid
    p = app.world.player
    # Lift the player into the air, then paint a floor tile where they are and save.
    p.y -= 40
    spot = (p.x, p.y)
    text = level.path.read_text(encoding="utf-8")
    col, row = int((p.x + 1) // g.tile_w), int((p.y + 1) // g.tile_h)
    # The ground layer is CSV: copy a gid from its bottom row (solid floor) into that cell.
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if 'name="ground"' in line) + 2
    cells = lines[start + row].split(",")
    floor_gid = next(v for v in lines[start + g.rows - 1].split(",") if v.strip() not in ("", "0"))
    cells[col] = floor_gid.strip()
    lines[start + row] = ",".join(cells)
    save(level.path, "\n".join(lines))
    app.hot_reload_check()
    assert app.error_line is None
    assert (app.world.player.x, app.world.player.y) != spot
    assert (app.world.player.x, app.world.player.y) == (level.spawn.x, level.spawn.y)


def test_touching_the_goal_goes_to_the_next_level(app: App):
    first = app.world.level
    goal = first.goals[0]
    p = app.world.player
    p.x, p.y = goal.x + 1, goal.y + 1
    app.world.step(app.keys_seq.frame(Held()))
    assert app.world.goal_reached
    app.complete_level()
    assert app.banner and "complete" in app.banner.text.lower()
    path, _ = app.pending_level
    app.pending_level = (path, time.monotonic())
    app.max_frames = 1
    app.run()
    assert app.world.level.path.name != first.path.name
    assert app.world.level.path.name == (first.next_level or sorted(
        p.name for p in first.path.parent.glob("*.tmx"))[1])


def test_backspace_restarts_and_home_goes_to_the_first_level(app: App, project: Path):
    levels = sorted(project.glob("*.tmx"))
    app.load(levels[1])
    assert app.world.level.path == levels[1]
    p = app.world.player
    p.x += 20
    app.handle_event(key(pygame.K_BACKSPACE))
    assert (p.x, p.y) == (app.world.level.spawn.x, app.world.level.spawn.y)
    app.handle_event(key(pygame.K_HOME))
    assert app.world.level.path == levels[0]


def test_r_reloads_by_hand(app: App):
    path = app.world.level.path
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('name="title" value="', 'name="title" value="Hand ', 1),
                    encoding="utf-8")
    app.handle_event(key(pygame.K_r))
    assert app.world.level.title.startswith("Hand ")
