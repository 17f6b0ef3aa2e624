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
from game.sim.inputs import Held
from game.view.app import App

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the levels (and the art they point at) that the test may edit."""
    shutil.copytree(ROOT / "levels", tmp_path / "levels")
    shutil.copytree(ROOT / "assets", tmp_path / "assets")
    return tmp_path / "levels"


@pytest.fixture
def cfg():
    c = config.load(ROOT / "config.toml")
    return replace(c, display=replace(c.display, width=640, height=360, vsync=False))


@pytest.fixture
def app(project: Path, cfg):
    levels = sorted(project.glob("*.tmx"))
    a = App(cfg, levels[0], max_frames=1)
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
    app.play.hot_reload_check()
    assert app.world.level.title.startswith("Edited ")
    assert (app.world.player.x, app.world.player.y) == spot
    assert app.play.error_line is None


def test_a_broken_save_shows_the_error_and_keeps_the_last_good_level(app: App):
    path = app.world.level.path
    good_title = app.world.level.title
    good = path.read_text(encoding="utf-8")
    save(path, good.replace("</map>", ""))  # half-written XML
    app.play.hot_reload_check()
    line = app.play.error_line
    assert line and line.startswith("error:") and path.name in line
    assert app.world.level.title == good_title
    app.play.draw(0.0)  # the error bar draws without trouble
    save(path, good)
    app.play.hot_reload_check()
    assert app.play.error_line is None


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
    app.play.hot_reload_check()
    assert app.play.error_line is None
    assert (app.world.player.x, app.world.player.y) != spot
    assert (app.world.player.x, app.world.player.y) == (level.spawn.x, level.spawn.y)


def test_touching_the_goal_goes_to_the_next_level(app: App):
    first = app.world.level
    goal = first.goals[0]
    p = app.world.player
    p.x, p.y = goal.x + 1, goal.y + 1
    app.world.step(app.play.keys_seq.frame(Held()))
    assert app.world.goal_reached
    app.play.complete_level()
    assert app.play.card is not None and app.play.card.title == "Level 1: First Steps"
    path, _ = app.play.pending_level
    app.play.pending_level = (path, time.monotonic())
    app.max_frames = 1
    app.run()
    assert app.world.level.path.name != first.path.name
    assert app.world.level.path.name == (first.next_level or sorted(
        p.name for p in first.path.parent.glob("*.tmx"))[1])


def test_backspace_restarts_and_home_goes_to_the_first_level(app: App, project: Path):
    levels = sorted(project.glob("*.tmx"))
    app.play.load(levels[1])
    assert app.world.level.path == levels[1]
    p = app.world.player
    p.x += 20
    app.handle_event(key(pygame.K_BACKSPACE))
    assert (p.x, p.y) == (app.world.level.spawn.x, app.world.level.spawn.y)
    app.handle_event(key(pygame.K_HOME))
    assert app.world.level.path == levels[0]


def test_backspace_starts_the_tick_count_again(app: App):
    for _ in range(30):
        app.play.tick_once()
    assert app.world.tick == 30
    app.handle_event(key(pygame.K_BACKSPACE))
    assert app.world.tick == 0
    app.play.tick_once()
    assert app.world.tick == 1


def test_slow_motion_ends_with_the_level(app: App, project: Path):
    levels = sorted(project.glob("*.tmx"))
    app.handle_event(key(pygame.K_t))
    assert app.play.speed == 1
    app.play.load(levels[1])  # the next level, as after a finish (or Home)
    assert app.play.speed == 0
    app.handle_event(key(pygame.K_t))
    app.play.leave()  # Esc: off to the title
    assert app.play.speed == 0


def test_slow_motion_ends_when_the_goal_leads_on(app: App):
    app.handle_event(key(pygame.K_t))
    app.handle_event(key(pygame.K_t))
    assert app.play.speed == 2
    goal = app.world.level.goals[0]
    p = app.world.player
    p.x, p.y = goal.x + 1, goal.y + 1
    app.play.tick_once()
    app.play.complete_level()
    path, _ = app.play.pending_level
    app.play.load_next(path)
    assert app.world.level.path == path and app.play.speed == 0


def test_r_reloads_by_hand(app: App):
    path = app.world.level.path
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('name="title" value="', 'name="title" value="Hand ', 1),
                    encoding="utf-8")
    app.handle_event(key(pygame.K_r))
    assert app.world.level.title.startswith("Hand ")


# ----------------------------------------------------------------------------------------------
# A level that fails to load, or an image that cannot be used, never ends the game
# ----------------------------------------------------------------------------------------------

def spoil_image(project: Path, how: str) -> Path:
    """Replace the tileset image with one that is too small, with bytes that are no image, or
    with its first half (a good header: only reading the pixels finds the fault)."""
    image = project.parent / "assets" / "terrain.png"
    if how == "small":
        pygame.image.save(pygame.Surface((96, 48)), str(image))
    elif how == "corrupt":
        image.write_bytes(b"\x89PNG\r\n\x1a\n half a file")
    else:
        data = image.read_bytes()
        image.write_bytes(data[:len(data) // 2])
    st = image.stat()
    os.utime(image, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    return image


def touch(path: Path) -> None:
    save(path, path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("how", ["small", "corrupt", "truncated"])
def test_a_bad_tileset_image_at_start_is_one_error_line(project: Path, cfg, capsys, how):
    from game.cli import main
    from game.errors import UserError

    spoil_image(project, how)
    level = sorted(project.glob("*.tmx"))[0]
    with pytest.raises(UserError) as err:
        App(cfg, level, max_frames=1)
    assert "terrain.png" in err.value.line()
    pygame.init()
    quiet = project.parent / "novsync.toml"
    quiet.write_text("[display]\nvsync = false\n", encoding="utf-8")
    assert main(["--config", str(quiet), "--level", str(level)]) == 2
    out = capsys.readouterr()
    lines = out.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "terrain.png" in lines[0]
    pygame.init()


@pytest.mark.parametrize("how", ["small", "corrupt", "truncated"])
@pytest.mark.parametrize("trigger", ["hot reload", "R"])
def test_a_bad_tileset_image_on_reload_keeps_the_last_good_level(app: App, project: Path, how,
                                                                 trigger):
    level, images, renderer = app.world.level, app.play.images, app.play.renderer
    spoil_image(project, how)
    touch(level.path)  # a reload happens however the app watches the image
    if trigger == "R":
        app.handle_event(key(pygame.K_r))
    else:
        app.play.hot_reload_check()
    line = app.play.error_line
    assert line and line.startswith("error: ") and "terrain.png" in line
    # Nothing half-swapped: the level, its images and its renderer are still the old ones.
    assert app.world.level is level and app.play.images is images and app.play.renderer is renderer
    app.play.draw(0.0)


@pytest.mark.parametrize("how", ["small", "corrupt", "truncated"])
def test_an_image_spoilt_after_the_level_loaded_keeps_the_last_good_level(app: App, project: Path,
                                                                          monkeypatch, how):
    """The image goes bad between the level's checks and the cutting of its tiles (an editor
    still writing it): the new world is dropped whole, nothing of it swapped in."""
    import game.view.levels as levels_module

    real = levels_module.load_world

    def racing(*args, **kwargs):
        world = real(*args, **kwargs)
        spoil_image(project, how)
        return world

    monkeypatch.setattr(levels_module, "load_world", racing)
    world, level, images, renderer = app.world, app.world.level, app.play.images, app.play.renderer
    p = app.world.player
    p.x += 3.0
    spot = (p.x, p.y)
    touch(level.path)
    app.play.hot_reload_check()
    line = app.play.error_line
    assert line and line.startswith("error: ") and "terrain.png" in line
    assert app.world is world and app.world.level is level
    assert app.play.images is images and app.play.renderer is renderer and renderer.level is level
    assert (p.x, p.y) == spot
    app.play.draw(0.0)


def test_a_bad_tileset_image_in_another_level_keeps_this_one(app: App, project: Path):
    level = app.world.level
    spoil_image(project, "small")
    app.handle_event(key(pygame.K_HOME))  # the first level again, now with the bad image
    assert app.world.level is level and "terrain.png" in app.play.error_line


def test_any_exception_while_reloading_keeps_the_last_good_level(app: App, monkeypatch):
    import game.view.levels as levels_module

    def broken(*args, **kwargs):
        raise KeyError("layer 7")

    level = app.world.level
    monkeypatch.setattr(levels_module, "load_world", broken)
    touch(level.path)
    app.play.hot_reload_check()
    assert app.world.level is level
    assert app.play.error_line == f"error: {level.path}: could not load (KeyError: 'layer 7')"
    app.play.draw(0.0)
    monkeypatch.undo()
    touch(level.path)
    app.play.hot_reload_check()
    assert app.play.error_line is None and app.world.level is not level


def break_next_level(project: Path) -> tuple[Path, Path]:
    """Level 1 leads to level 2, which exists but is half-written XML."""
    first, second = sorted(project.glob("*.tmx"))[:2]
    text = first.read_text(encoding="utf-8")
    assert f'name="next_level" type="file" value="{second.name}"' in text
    second.write_text(second.read_text(encoding="utf-8").replace("</map>", ""), encoding="utf-8")
    return first, second


def stand_on_goal(app: App) -> None:
    goal = app.world.level.goals[0]
    p = app.world.player
    p.x, p.y = goal.x + 2, goal.y + goal.h - p.h - 4  # lands on the ground inside the goal


def test_a_next_level_that_fails_to_load_is_tried_once_not_every_second(project: Path, cfg):
    first, second = break_next_level(project)
    app = App(cfg, first, max_frames=90, frame_time=1 / 60)
    completions = []
    complete = app.play.complete_level
    # Enter on the card at once: on now, not after CARD_TIME
    app.play.complete_level = lambda: (completions.append(app.world.tick), complete(),
                                       app.play.handle_event(key(pygame.K_RETURN)))
    stand_on_goal(app)
    app.run()  # a second and a half standing on the goal
    pygame.init()
    assert len(completions) == 1, f"level completion fired at ticks {completions}"
    assert app.world.level.path == first
    line = app.play.error_line
    assert line.startswith("next level: error: ") and second.name in line


def test_after_a_failed_next_level_the_goal_counts_again_once_left(project: Path, cfg):
    first, second = break_next_level(project)
    app = App(cfg, first, max_frames=1)
    completions = []
    complete = app.play.complete_level
    app.play.complete_level = lambda: (completions.append(app.world.tick), complete(),
                                       app.play.handle_event(key(pygame.K_RETURN)))

    def frames(n):
        for _ in range(n):
            app.frame(1 / 60)

    stand_on_goal(app)
    frames(30)
    assert len(completions) == 1 and app.play.goal_wait
    p = app.world.player
    p.x, p.y = app.world.level.spawn.x, app.world.level.spawn.y  # walk away
    frames(5)
    assert not app.play.goal_wait and len(completions) == 1
    save(second, second.read_text(encoding="utf-8") + "</map>\n")  # fixed meanwhile
    stand_on_goal(app)  # and back on the goal: now it goes on
    frames(3)
    assert len(completions) == 2
    assert app.world.level.path == second and app.play.error_line is None

    # Backspace (restart) also clears the wait.
    app.play.load(first)
    break_next_level(project)
    stand_on_goal(app)
    frames(3)
    assert app.play.goal_wait and len(completions) == 3
    app.handle_event(key(pygame.K_BACKSPACE))
    assert not app.play.goal_wait
    pygame.quit()
    pygame.init()


def test_a_tileset_image_is_watched_for_hot_reload(app: App, project: Path):
    """Saving the tileset image (in another folder than the level) reloads the level too."""
    images = app.play.images
    image = project.parent / "assets" / "terrain.png"
    assert image.resolve() in {Path(f).resolve() for f in app.world.level.files}
    st = image.stat()
    os.utime(image, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    app.play.hot_reload_check()
    assert app.play.images is not images and app.play.error_line is None


@pytest.mark.parametrize("slope_resolver", ["routing", "sweep"])
def test_switching_resolver_on_a_slope_keeps_the_player_there(app: App, slope_resolver):
    """Tab from one resolver to another while resting on a slope: every resolver reads slopes by
    their shape, so the player stays exactly where it is, standing, and is not shoved away."""
    from game import resolvers as registry
    from game.maps.grid import SLOPE
    from game.resolvers.base import overlapping_tiles

    app.play.load(sorted(app.world.level.path.parent.glob("*.tmx"))[1])  # level 2: hills
    w = app.world
    w.set_resolver(registry.create(slope_resolver))
    g = w.level.grid
    for _ in range(400):  # walk right until standing on a slope, then stop there
        w.step(app.play.keys_seq.frame(Held(right=True)))
        p = w.player
        col = int((p.x + p.w / 2) // g.tile_w)
        row = int((p.y + p.h - 0.01) // g.tile_h)
        if p.on_ground and SLOPE in (g.kind(col, row), g.kind(col, row + 1)):
            break
    for _ in range(30):
        w.step(app.play.keys_seq.frame(Held()))
    p = w.player
    assert p.on_ground and not overlapping_tiles(g, p.x, p.y, p.w, p.h, p.y + p.h, True)
    x0, y0 = p.x, p.y
    for name in ("axis", "corners", "overlap"):
        w.set_resolver(registry.create(name))
        assert not overlapping_tiles(g, p.x, p.y, p.w, p.h, p.y + p.h, True)
        assert (p.x, p.y) == (x0, y0) and p.on_ground
        for _ in range(10):
            w.step(app.play.keys_seq.frame(Held()))
        assert p.on_ground and abs(p.x - x0) < 1e-9, f"{name} shoved the player"
        w.set_resolver(registry.create(slope_resolver))
        for _ in range(30):
            w.step(app.play.keys_seq.frame(Held()))
        x0, y0 = p.x, p.y
