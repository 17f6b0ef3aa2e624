"""The window on SDL's dummy video driver: frames are drawn, keys do what the HUD says."""

import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from game import config, resolvers
from game.view.app import App
from game.view.keymap import held_keys as read_keys
from game.view.levels import next_level_path
from game.view.tiledraw import flip_tile

ROOT = Path(__file__).resolve().parent.parent
FIRST = ROOT / "levels" / "01_first_steps.tmx"


@pytest.fixture
def cfg():
    c = config.load(ROOT / "config.toml")
    return replace(c, display=replace(c.display, width=640, height=360, vsync=False))


def key(k, mod=0):
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0)


def test_window_draws_frames(cfg, tmp_path):
    shot = tmp_path / "shot.png"
    app = App(cfg, FIRST, max_frames=20, screenshot=str(shot))
    assert app.window.get_size() == (640, 360)
    assert app.run() == 0
    img = pygame.image.load(str(shot))
    assert img.get_size() == (640, 360)
    colours = {tuple(img.get_at((x, y))) for x in range(0, 640, 5) for y in range(0, 360, 5)}
    assert len(colours) > 50, "a real scene has sky, hills, tiles, a player and text"
    pygame.init()


def test_tab_cycles_resolvers_and_keeps_the_player(cfg):
    app = App(cfg, FIRST, max_frames=1)
    p = app.world.player
    p.x += 3.5
    before = (p.x, p.y)
    seen = [app.world.resolver.name]
    for _ in range(len(resolvers.names())):
        app.handle_event(key(pygame.K_TAB))
        seen.append(app.world.resolver.name)
    assert seen[0] == seen[-1] and sorted(set(seen)) == sorted(resolvers.names())
    assert (app.world.player.x, app.world.player.y) == before
    assert app.world.resolver.name in pygame.display.get_caption()[0]
    app.run()
    pygame.init()


def test_p_pauses_and_q_quits(cfg):
    app = App(cfg, FIRST, max_frames=1)
    app.handle_event(key(pygame.K_p))
    assert app.play.paused
    app.handle_event(key(pygame.K_q))
    assert not app.running
    app.run()
    pygame.init()


def test_keyboard_snapshot():
    pressed = {k: False for k in range(512)}

    class Keys(dict):
        def __getitem__(self, k):
            return self.get(k, False)

    keys = Keys(pressed)
    keys[pygame.K_a] = True
    keys[pygame.K_SPACE] = True
    held = read_keys(keys, False)
    assert held.left and held.jump and not held.right
    assert read_keys(Keys(), True).jump  # a tap between two ticks still counts
    assert read_keys(Keys(), False, True).throw


def test_next_level_follows_property_then_file_order():
    from game.maps.level import load_level
    first = load_level(FIRST)
    nxt, wrapped = next_level_path(first)
    assert nxt.exists() and not wrapped
    last = load_level(sorted((ROOT / "levels").glob("*.tmx"))[-1])
    nxt, wrapped = next_level_path(last)
    if last.next_level is None:
        assert wrapped and nxt.name == sorted((ROOT / "levels").glob("*.tmx"))[0].name


@pytest.mark.parametrize("h,v,d", [(h, v, d) for h in (0, 1) for v in (0, 1) for d in (0, 1)])
def test_flip_flags_follow_tiled(h, v, d):
    """Tiled: diagonal flip swaps x and y first, then horizontal, then vertical mirroring."""
    src = pygame.Surface((4, 4))
    for x in range(4):
        for y in range(4):
            src.set_at((x, y), (x * 60, y * 60, 0))
    out = flip_tile(src, bool(h), bool(v), bool(d))
    for x in range(4):
        for y in range(4):
            # undo the vertical, then the horizontal flip, then the x/y swap
            ux, uy = (3 - x if h else x), (3 - y if v else y)
            ox, oy = (uy, ux) if d else (ux, uy)
            assert tuple(out.get_at((x, y)))[:3] == (ox * 60, oy * 60, 0)


def test_sprite_feet_follow_the_slope_under_the_centre():
    from game.maps.grid import TileGrid
    from game.view.world_view import feet_on_slope

    g = TileGrid.from_rows(["....", "./..", "####"])  # 45-degree slope rising right at (1, 1)
    # A 12 px body resting with its right corner on the slope at x = 28 (surface y = 32 - 12 = 20).
    x, w, h = 16.0, 12.0, 14.0
    bottom = g.surface_y(1, 1, x + w)
    drop = feet_on_slope(g, x, bottom - h, w, h)
    assert drop == pytest.approx(g.surface_y(1, 1, x + w / 2) - bottom) and drop > 0
    assert feet_on_slope(g, 40.0, 32.0 - h, w, h) == 0.0  # flat ground: no change


# ----------------------------------------------------------------------------------------------
# Acceptance fixes: bad tileset images, no display, jump taps while paused, long error lines
# ----------------------------------------------------------------------------------------------

@pytest.fixture
def levels_copy(tmp_path):
    """The shipped levels and their art, in a folder the test may spoil."""
    import shutil

    shutil.copytree(ROOT / "levels", tmp_path / "levels")
    shutil.copytree(ROOT / "assets", tmp_path / "assets")
    return tmp_path / "levels"


def test_a_tileset_image_smaller_than_its_tileset_is_a_user_error(levels_copy):
    from game.errors import UserError
    from game.maps.level import load_level
    from game.view.render import TileImages

    # Loaded while the image was whole; replaced by a smaller one before the pictures are cut.
    level = load_level(levels_copy / "01_first_steps.tmx")
    pygame.image.save(pygame.Surface((96, 48)), str(levels_copy.parent / "assets" / "terrain.png"))
    with pytest.raises(UserError) as err:
        TileImages(level)
    line = err.value.line()
    assert line.startswith("error: ") and "terrain.png" in line
    assert "96x48" in line and "needs at least 128x" in line and "export the full tileset image" in line


def test_a_corrupt_tileset_image_is_a_user_error(levels_copy):
    from game.errors import UserError
    from game.maps.level import load_level
    from game.view.render import TileImages

    level = load_level(levels_copy / "01_first_steps.tmx")
    (levels_copy.parent / "assets" / "terrain.png").write_bytes(b"\x89PNG\r\n\x1a\nnot really")
    with pytest.raises(UserError) as err:
        TileImages(level)
    line = err.value.line()
    assert "terrain.png" in line and "cannot read this image" in line and "as PNG" in line


def test_a_truncated_tileset_image_is_a_user_error(levels_copy):
    """A PNG cut short after the level was loaded: pygame cannot read its pixels."""
    from game.errors import UserError
    from game.maps.level import load_level
    from game.view.render import TileImages

    level = load_level(levels_copy / "01_first_steps.tmx")
    image = levels_copy.parent / "assets" / "terrain.png"
    data = image.read_bytes()
    image.write_bytes(data[:len(data) // 2])
    with pytest.raises(UserError) as err:
        TileImages(level)
    assert "terrain.png" in err.value.line() and "cannot read this image" in err.value.line()


def test_a_windowless_driver_nobody_asked_for_is_refused(cfg, monkeypatch):
    """With no display SDL falls back to 'offscreen' by itself: say so instead of running
    invisibly. (Here SDL runs 'dummy', as asked; it is made to report 'offscreen'.)"""
    from game.errors import UserError

    monkeypatch.setattr(pygame.display, "get_driver", lambda: "offscreen")
    with pytest.raises(UserError) as err:
        App(cfg, FIRST, max_frames=1)
    assert err.value.line() == ("error: display: no display to open a window on; play on a "
                                "desktop session, or run without a window with --headless "
                                "--ticks N")
    pygame.init()


def test_a_windowless_driver_asked_for_is_allowed(cfg, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "offscreen")
    pygame.display.quit()  # so that SDL starts again with the driver asked for
    app = App(cfg, FIRST, max_frames=2)
    assert pygame.display.get_driver() == "offscreen"
    assert app.run() == 0
    monkeypatch.undo()  # back to the dummy driver for the tests after this one
    pygame.init()


@pytest.mark.slow  # a process each
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SDL's fallback on Linux")
@pytest.mark.parametrize("driver", [None, ""])
@pytest.mark.parametrize("runtime_dir", [None, "", "relative/dir"])
def test_no_display_from_a_real_process_is_one_error_line(driver, runtime_dir):
    """``env -u DISPLAY main.py``: exit 2 and one line, not a game running where nobody sees it,
    and not libwayland's own "error: XDG_RUNTIME_DIR is invalid or not set" line before it."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER", "XDG_RUNTIME_DIR")}
    if driver is not None:
        env["SDL_VIDEODRIVER"] = driver
    if runtime_dir is not None:
        env["XDG_RUNTIME_DIR"] = runtime_dir
    proc = subprocess.run([sys.executable, "main.py", "--level", str(FIRST)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=30, check=False)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: display: "), proc.stderr


def test_the_runtime_dir_is_only_borrowed_while_sdl_looks_for_a_display(monkeypatch):
    from game.view.window import quiet_wayland

    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    with quiet_wayland():
        private = os.environ["XDG_RUNTIME_DIR"]
        assert os.path.isdir(private) and os.listdir(private) == []
        assert os.stat(private).st_mode & 0o077 == 0, "private to this user"
    assert "XDG_RUNTIME_DIR" not in os.environ and not os.path.exists(private)
    monkeypatch.setenv("XDG_RUNTIME_DIR", "/run/user/4242")
    with quiet_wayland():
        assert os.environ["XDG_RUNTIME_DIR"] == "/run/user/4242"  # a usable one is left alone


def test_a_jump_tapped_while_paused_does_not_jump_on_resume(cfg):
    from game.sim.inputs import Held

    app = App(cfg, FIRST, max_frames=12, frame_time=1 / 60)
    w = app.world
    for _ in range(30):  # settle on the ground
        w.step(app.play.keys_seq.frame(Held()))
    assert w.player.on_ground
    y = w.player.y
    app.handle_event(key(pygame.K_p))
    app.handle_event(key(pygame.K_SPACE))
    app.handle_event(key(pygame.K_z))
    app.handle_event(key(pygame.K_p))
    assert not app.play.paused
    app.run()
    assert w.player.on_ground and w.player.y == y, "no jump after the pause"
    pygame.init()


def test_pausing_forgets_a_jump_tapped_just_before(cfg):
    app = App(cfg, FIRST, max_frames=1)
    app.handle_event(key(pygame.K_SPACE))
    app.handle_event(key(pygame.K_p))
    assert app.play.paused and not app.play.jump_tapped
    app.run()
    pygame.init()


def test_wrap_text_keeps_every_word_and_fits_the_width():
    from game.view.text import wrap_text

    pygame.font.init()
    font = pygame.font.Font(None, 20)
    text = ("error: /a/very/long/path/to/some/levels/folder/02_every_tile.tmx: the XML is broken "
            "(no element found: line 80, column 0); re-save it from Tiled, as .tmx "
            + "x" * 200)
    lines = wrap_text(font, text, 300)
    assert len(lines) > 2
    assert all(font.size(line)[0] <= 300 for line in lines)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    assert " ".join(lines[:-2]).split() == text.split()[:-1] or lines[0].startswith("error:")
    assert wrap_text(font, "short", 300) == ["short"]
    # The help line wraps between its entries (three spaces apart), never inside one.
    from game.view.hud import HELP
    entries = HELP.split("   ")
    lines = wrap_text(font, HELP, 300, "   ")
    assert len(lines) > 1 and all(font.size(line)[0] <= 300 for line in lines)
    assert [e for line in lines for e in line.split("   ")] == entries
    # The title screen's choice: a word too long for a line is cut short with "...".
    cut = wrap_text(font, "see " + "y" * 300 + " end", 300, cut_long=True)
    assert cut[0] == "see" and cut[1].endswith("...") and cut[2] == "end"
    assert all(font.size(line)[0] <= 300 for line in cut)


def test_the_error_bar_grows_upward_to_show_a_long_message(cfg):
    ERROR_BAR = (120, 20, 30)
    app = App(cfg, FIRST, max_frames=1)
    app.play.error_line = "error: " + " ".join(f"word{i}" for i in range(120))
    app.play.draw(0.0)
    win_h = app.window.get_height()
    rows = 0
    while rows < win_h and tuple(app.window.get_at((1, win_h - 1 - rows)))[:3] == ERROR_BAR:
        rows += 1
    line_h = app.play.text.small.get_height()
    assert rows >= 4 * line_h, "several lines, not one cut off at the window's edge"
    app.run()
    pygame.init()


def test_tile_layers_after_the_object_layer_are_drawn_in_front_of_the_player(tmp_path):
    """The object layer marks where the sprites go: tile layers after it cover the player."""
    import shutil

    from game.maps.level import load_level
    from game.view.render import MapRenderer, TileImages

    data = Path(__file__).parent / "data"
    shutil.copy(data / "tiles4.png", tmp_path / "tiles4.png")
    text = (data / "flat.tmx").read_text()
    cells = ["0"] * 60
    cells[3 * 10 + 2] = "2"  # a one-way tile's picture at column 2, row 3: beside the spawn
    front = ('<layer id="9" name="bushes" width="10" height="6"><data encoding="csv">'
             + ",".join(cells) + "</data></layer>\n</map>")
    (tmp_path / "m.tmx").write_text(text.replace("</map>", front))
    level = load_level(tmp_path / "m.tmx")
    assert [(layer.name, layer.in_front) for layer in level.view.layers] == [
        ("ground", False), ("bushes", True)]
    renderer = MapRenderer(level, TileImages(level, convert=False))
    assert renderer.has_front
    back = pygame.Surface((160, 96), pygame.SRCALPHA)
    renderer.draw(back, (0, 0))
    over = pygame.Surface((160, 96), pygame.SRCALPHA)
    renderer.draw_front(over, (0, 0))
    assert over.get_at((40, 56)).a == 255 and back.get_at((40, 56)).a == 0  # the bush, in front
    assert over.get_at((5, 70)).a == 0 and back.get_at((5, 70)).a == 255  # the ground, behind
