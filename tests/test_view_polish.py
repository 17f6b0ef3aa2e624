"""The window's rough edges: banners, the camera in the game, the HUD's layout, help and debug."""

from __future__ import annotations

import shutil
import time
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from game import config, resolvers
from game.sim.camera import CameraState, camera_start, px
from game.sim.inputs import InputScript, parse_script
from game.view.app import App
from game.view.debug import debug_lines

ROOT = Path(__file__).resolve().parent.parent
LEVELS = sorted((ROOT / "levels").glob("*.tmx"))


def make_cfg(width=1280, height=720, scale=0, **camera):
    c = config.load(ROOT / "config.toml")
    return replace(c, display=replace(c.display, width=width, height=height, scale=scale,
                                      vsync=False, hot_reload=False),
                   camera=replace(c.camera, **camera))


@pytest.fixture
def cfg():
    return make_cfg()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the levels (and the art they point at) that the test may edit."""
    shutil.copytree(ROOT / "levels", tmp_path / "levels")
    shutil.copytree(ROOT / "assets", tmp_path / "assets")
    return tmp_path / "levels"


@pytest.fixture(autouse=True)
def fresh_pygame():
    yield
    pygame.quit()
    pygame.init()


def key(k, mod=0):
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0)


def showing(app: App) -> str | None:
    """The banner's text if it is up now."""
    b = app.play.banner
    return b.text if b is not None and time.monotonic() < b.until else None


# ----------------------------------------------------------------------------------------------
# Banners
# ----------------------------------------------------------------------------------------------

def test_r_says_reloaded_like_the_hot_reload(project: Path, cfg):
    app = App(cfg, project / "01_first_steps.tmx", max_frames=1)
    assert showing(app) is None
    app.handle_event(key(pygame.K_r))
    assert showing(app) == "Reloaded" and app.play.error_line is None


def test_a_failed_r_shows_the_error_bar_and_no_reloaded(project: Path, cfg):
    path = project / "01_first_steps.tmx"
    app = App(cfg, path, max_frames=1)
    path.write_text(path.read_text(encoding="utf-8").replace("</map>", ""), encoding="utf-8")
    app.handle_event(key(pygame.K_r))
    assert showing(app) is None
    assert app.play.error_line.startswith("error: ") and path.name in app.play.error_line


def test_the_level_card_is_gone_when_the_next_level_comes_in(project: Path, cfg):
    app = App(cfg, project / "01_first_steps.tmx", max_frames=1, frame_time=1 / 60)
    app.play.complete_level()
    assert app.play.card is not None and showing(app) is None
    path, _ = app.play.pending_level
    app.play.pending_level = (path, time.monotonic())  # due now
    app.frame(1 / 60)
    assert app.world.level.path.name == "02_every_tile.tmx" and app.play.card is None
    assert showing(app) == "Level 2: Every Tile"


def test_home_drops_a_level_change_still_to_come(project: Path, cfg):
    levels = sorted(project.glob("*.tmx"))
    app = App(cfg, levels[1], max_frames=1)
    app.play.complete_level()
    app.handle_event(key(pygame.K_HOME))
    assert app.world.level.path == levels[0] and app.play.pending_level is None
    assert showing(app) == "Level 1: First Steps"


# ----------------------------------------------------------------------------------------------
# The camera in the game
# ----------------------------------------------------------------------------------------------

def play(app: App, frames: int, frame_time: float = 1 / 60) -> list[tuple[float, int, int, bool]]:
    """(player y, view top, sprite's feet on screen, in the air) after each frame."""
    out = []
    for _ in range(frames):
        app.frame(frame_time)
        p, w = app.world.player, app.world
        alpha = min(app.play.clock.acc / w.physics.dt, 1.0)
        by = w.prev[1] + (p.y - w.prev[1]) * alpha
        out.append((p.y, app.play.view_origin[1], px(by + p.h) - app.play.view_origin[1],
                    not p.on_ground and not p.respawning))
    return out


def script(text: str) -> InputScript:
    return parse_script(text.splitlines(), "test")


def test_a_jump_does_not_bob_the_world(cfg):
    # a view 180 px high: the band reaches 60 px up, above a full jump's 56
    app = App(make_cfg(640, 360, scale=2), LEVELS[1], script=script("0 -\n10 jump\n60 -\n"),
              frame_time=1 / 60)
    frames = play(app, 75)
    ys = [f[0] for f in frames]
    assert max(ys[:10]) - min(ys) > 50, "the player jumped"
    assert frames[-1][0] == ys[0], "and landed"
    assert {f[1] for f in frames} == {frames[0][1]}, "the view held still, landing too"


def test_with_both_dead_zones_0_the_camera_locks_on_as_before(cfg):
    app = App(make_cfg(640, 360, scale=2, dead_zone_up=0, dead_zone_down=0), LEVELS[1],
              script=script("0 -\n10 jump\n60 -\n"), frame_time=1 / 60)
    frames = play(app, 75)
    assert len({f[1] for f in frames}) > 20
    assert len({f[2] for f in frames}) == 1, "the player stays put on screen"


@pytest.mark.parametrize("height", [14.0, 13.0, 12.5])
@pytest.mark.parametrize("frame_time", [1 / 60, 1 / 144, 1 / 47])
def test_a_followed_sprite_never_jitters_on_screen(height, frame_time):
    """Falling down a pit, the camera follows; the sprite, drawn from the same interpolated
    position and rounded alike, keeps one screen height however the frames fall between ticks,
    whatever its (even fractional) height."""
    cfg = make_cfg(640, 360, scale=2)  # a view 180 px high: a long way to follow the fall
    app = App(cfg, LEVELS[1], frame_time=frame_time)
    g = app.world.level.grid
    p = app.world.player
    app.frame(frame_time)
    p.y, p.vy, p.h = 0.0, 0.0, height  # at the map's top, in the air
    app.world.prev = (p.x, p.y)
    app.play.camera = None
    feet = []
    for _, top, f, flying in play(app, int(1.2 / frame_time), frame_time):
        if 0 < top < g.height_px - app.shared.window.view_size()[1] and flying:
            feet.append(f)
    assert len(feet) > 10 and len(set(feet)) == 1, sorted(set(feet))


def test_the_camera_starts_again_on_restart_level_change_and_respawn(project: Path, cfg):
    levels = sorted(project.glob("*.tmx"))
    app = App(cfg, levels[1], max_frames=1, frame_time=1 / 60)
    app.frame(1 / 60)
    spawned = app.play.camera
    away = CameraState(spawned.y - 70.0)

    app.play.camera = away
    app.handle_event(key(pygame.K_BACKSPACE))
    app.frame(1 / 60)
    assert app.play.camera == spawned

    app.play.camera = away
    app.play.load(levels[2])
    assert app.play.camera is None
    app.frame(1 / 60)
    p = app.world.player
    g = app.world.level.grid
    view, world = app.shared.window.view_size(), (g.width_px, g.height_px)
    assert app.play.camera == camera_start((0.0, p.y + p.h - px(p.h / 2)), view, world)

    p.y = app.world.level.grid.height_px + 5.0  # fell out of the map
    app.frame(1 / 60)
    assert p.respawning
    app.play.camera = away
    for _ in range(90):  # respawn_delay is a second
        app.frame(1 / 60)
    assert not p.respawning
    assert app.play.camera == camera_start((0.0, p.y + p.h - px(p.h / 2)), view, world)


def test_a_hot_reload_that_keeps_the_player_keeps_the_camera(project: Path, cfg):
    app = App(cfg, project / "02_every_tile.tmx", max_frames=1, frame_time=1 / 60)
    app.frame(1 / 60)
    held = CameraState(app.play.camera.y - 10.0)
    app.play.camera = held
    app.handle_event(key(pygame.K_r))
    assert app.play.camera == held


# ----------------------------------------------------------------------------------------------
# The HUD: fits any window, panels behind text over the level, the debug view's key
# ----------------------------------------------------------------------------------------------

def hud(size, resolver, debug=False, help_=False, error=None, app=None) -> App:
    app = app or App(make_cfg(*size), LEVELS[0], max_frames=1)
    app.world.set_resolver(app.resolver(resolver))
    app.play.debug, app.play.show_help, app.play.error_line = debug, help_, error
    app.play.draw(0.0)
    return app


def overlapping(rects):
    """Pairs of text areas that overlap by more than the 2 px of a drop shadow."""
    inner = [r.inflate(-2, -2) for r in rects]
    return [(a, b) for i, a in enumerate(inner) for b in inner[i + 1:] if a.colliderect(b)]


@pytest.mark.parametrize("size", [(1280, 720), (320, 180), (333, 200), (640, 360)])
def test_every_resolvers_hud_fits_the_window(size):
    app = None
    for resolver in resolvers.names():
        app = hud(size, resolver, app=app)
        window = app.window.get_rect()
        assert resolver in [t for t, _ in app.play.text.drawn]  # its name, in the corner
        for text, rect in app.play.text.drawn + [("panel", r) for r in app.play.text.panels]:
            assert window.contains(rect), f"{resolver}: {text!r} at {rect} is outside {size}"
        assert not overlapping([r for _, r in app.play.text.drawn]), resolver
        app = hud(size, resolver, help_=True, app=app)  # the help says what it does
        summary = resolvers.describe(resolver)["summary"]
        shown = " ".join(t for t, _ in app.play.text.drawn)
        assert summary in shown, "the description in full, wrapped, not cut off"
        for text, rect in app.play.text.drawn + [("panel", r) for r in app.play.text.panels]:
            assert window.contains(rect), f"{resolver}: {text!r} at {rect} is outside {size}"
        assert not overlapping([r for _, r in app.play.text.drawn]), resolver


@pytest.mark.parametrize("size", [(1280, 720), (640, 360)])
def test_debug_and_help_fit_beside_each_other(size):
    app = None
    for resolver in resolvers.names():
        app = hud(size, resolver, debug=True, help_=True, error="error: x.tmx: " + "word " * 60,
                  app=app)
        window = app.window.get_rect()
        for text, rect in app.play.text.drawn + [("panel", r) for r in app.play.text.panels]:
            assert window.contains(rect), f"{resolver}: {text!r} at {rect} is outside {size}"
        assert not overlapping([r for _, r in app.play.text.drawn]), resolver


def test_debug_fits_the_smallest_window():
    app = hud((320, 180), "overlap", debug=True)
    window = app.window.get_rect()
    for text, rect in app.play.text.drawn + [("panel", r) for r in app.play.text.panels]:
        assert window.contains(rect), f"{text!r} at {rect} is outside the window"
    assert not overlapping([r for _, r in app.play.text.drawn])


def on_a_panel(app: App, text: str) -> bool:
    rects = [r for t, r in app.play.text.drawn if t == text]
    assert rects, f"{text!r} is not drawn"
    return all(any(p.contains(r.inflate(-2, -2)) for p in app.play.text.panels) for r in rects)


def test_the_help_lines_sit_on_a_dark_panel():
    app = hud((1280, 720), "axis", help_=True)
    lines = [t for t, _ in app.play.text.drawn if "jump" in t or "restart" in t]
    assert lines and all(on_a_panel(app, t) for t in lines)
    panel = next(p for p in app.play.text.panels if p.bottom > 600)
    spot = (panel.left + 3, panel.centery)  # margin of the panel: no text there
    lit = tuple(app.window.get_at(spot))[:3]
    app.play.show_help = False
    app.play.draw(0.0)
    bare = tuple(app.window.get_at(spot))[:3]
    assert sum(lit) < sum(bare) * 0.6, "darker behind the help"


def test_the_debug_view_has_a_key_to_its_colours_and_a_panel_behind_its_text():
    app = hud((1280, 720), "axis", debug=True)
    names = [t for t, _ in app.play.text.drawn]
    for item in ("solid tile", "one-way tile", "slope tile", "probed cell", "contact edge"):
        assert item in names
        assert on_a_panel(app, item)
    assert any(t.startswith("hitbox") for t in names)
    for line in debug_lines(app.world):
        assert on_a_panel(app, line)


@pytest.mark.parametrize("cells,want", [((), "probed: 0 cells"), (((1, 2),), "probed: 1 cell"),
                                        (((1, 2), (1, 3)), "probed: 2 cells"),
                                        (((1, 2), (1, 2)), "probed: 1 cell")])
def test_probed_cells_are_counted_in_good_english(cells, want):
    from game.resolvers import Contacts

    app = App(make_cfg(640, 360), LEVELS[0], max_frames=1)
    assert want in debug_lines(app.world, Contacts(probed=cells))
