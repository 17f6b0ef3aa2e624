"""The window on SDL's dummy video driver: frames are drawn, keys do what the HUD says."""

from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from game import config, resolvers
from game.view.app import App, next_level_path, read_keys
from game.view.render import flip_tile

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
    colours = {tuple(img.get_at((x, y))) for x in range(0, 640, 7) for y in range(0, 360, 7)}
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


def test_escape_pauses_and_q_quits(cfg):
    app = App(cfg, FIRST, max_frames=1)
    app.handle_event(key(pygame.K_ESCAPE))
    assert app.paused
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


def test_next_level_follows_property_then_file_order():
    from game.level import load_level
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
    from game.grid import TileGrid
    from game.view.app import feet_on_slope

    g = TileGrid.from_rows(["....", "./..", "####"])  # 45-degree slope rising right at (1, 1)
    # A 12 px body resting with its right corner on the slope at x = 28 (surface y = 32 - 12 = 20).
    x, w, h = 16.0, 12.0, 14.0
    bottom = g.surface_y(1, 1, x + w)
    drop = feet_on_slope(g, x, bottom - h, w, h)
    assert drop == pytest.approx(g.surface_y(1, 1, x + w / 2) - bottom) and drop > 0
    assert feet_on_slope(g, 40.0, 32.0 - h, w, h) == 0.0  # flat ground: no change
