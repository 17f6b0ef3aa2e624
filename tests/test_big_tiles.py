"""Maps made for other engines with bigger tiles (32, 64, 128 px) are shown as a shipped level is:
as many tiles in the window and the player as big on screen, their physics being scaled
(``Level.physics_scale``); 16 px levels keep their whole scale."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from game import config
from game.view.app import App
from game.view.window import map_scale

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT / "tests" / "data" / "real_maps"
SHIPPED = ROOT / "levels" / "01_first_steps.tmx"  # 16 px tiles
PHASER = REAL / "phaser3-tilemap-posts/post-2/assets/tilemaps/platformer.tmx"  # 32 px
ARCADE = REAL / "arcade/arcade/resources/assets/tiled_maps/map_with_ladders.json"  # 128 px
MAPS = {16: SHIPPED, 32: PHASER, 128: ARCADE}


@pytest.fixture
def cfg():
    c = config.load(ROOT / "config.toml")
    return replace(c, display=replace(c.display, width=1280, height=720, vsync=False,
                                      hot_reload=False))


def app_on(cfg, path: Path, size: tuple[int, int] = (1280, 720), **kwargs) -> App:
    """The game's window on ``path`` (SDL's dummy driver), one frame drawn, no notes bar and no
    banner (both fade with the clock)."""
    w, h = size
    app = App(replace(cfg, display=replace(cfg.display, width=w, height=h)), path, **kwargs)
    app.play.notes_until = 0.0
    app.play.banner = None
    app.play.draw(0.0, 0.0)
    return app


def tiles_in_view(app: App) -> float:
    """How many of its map's tiles the window shows from top to bottom."""
    level = app.world.level
    return app.window.get_height() / (app.shared.window.scale(level.physics_scale)
                                      * level.tile_size[1])


@pytest.mark.parametrize("tile", sorted(MAPS))
def test_the_window_shows_as_many_tiles_whatever_their_size(cfg, tile):
    """At 1280x720 a shipped level shows 15 tiles high; a map of 32 or 128 px tiles as many
    (it showed 7.5 and under 2), and its scene holds that much of the map."""
    app = app_on(cfg, MAPS[tile])
    try:
        assert app.world.level.tile_size[1] == tile
        assert tiles_in_view(app) == pytest.approx(15, abs=0.5)
        scene_h = app.play.painter.scene.get_height()
        assert scene_h / tile == pytest.approx(15, abs=0.5)
    finally:
        pygame.quit()


def test_a_shipped_level_keeps_its_whole_scale(cfg):
    for size, scale in (((1280, 720), 3), ((1920, 1080), 4), ((800, 450), 2)):
        app = app_on(cfg, SHIPPED, size)
        try:
            assert app.shared.window.scale(app.world.level.physics_scale) == scale
        finally:
            pygame.quit()


def test_the_scale_for_bigger_tiles():
    assert map_scale(3, 1.0) == 3
    assert map_scale(3, 8.0) == 3 / 8  # 128 px tiles: drawn below 1x
    assert map_scale(3, 2.0) == 1.5
    assert map_scale(4, 2.0) == 2
    assert map_scale(3, 18 / 16) == 3  # nearly 16 px: a whole scale, crisp


def player_box(app: App) -> pygame.Rect:
    """The window pixels the player's sprite changes: the frame drawn with and without it (the
    panels the HUD draws only then, "Respawning...", left out)."""
    play = app.play
    play.draw(0.0, 0.0)
    shown = app.window.copy()
    play.world.player.respawn_timer = 0.5  # respawning: not drawn
    play.camera = None
    play.draw(0.0, 0.0)
    play.world.player.respawn_timer = 0.0
    a, b = pygame.PixelArray(shown), pygame.PixelArray(app.window)
    diff = a.compare(b)  # black where they differ
    mask = pygame.mask.from_threshold(diff.make_surface(), (0, 0, 0), (1, 1, 1, 255))
    del a, b, diff
    hud = play.text.panels
    rects = [r for r in mask.get_bounding_rects() if r.collidelist(hud) < 0]
    assert rects, "the player is drawn"
    return max(rects, key=lambda r: r.w * r.h)


def test_the_player_is_as_big_on_screen_whatever_the_tile_size(cfg):
    """The player's sprite covers about the same window px on a 16, 32 and 128 px map (on the
    128 px map it filled a third of the window's height)."""
    sizes = {}
    for tile, path in MAPS.items():
        app = app_on(cfg, path)
        try:
            sizes[tile] = player_box(app).size
        finally:
            pygame.quit()
    w16, h16 = sizes[16]
    assert h16 > 20
    for tile in (32, 128):
        w, h = sizes[tile]
        assert h == pytest.approx(h16, rel=0.2), sizes
        assert w == pytest.approx(w16, rel=0.3), sizes


def near(colour, want, tolerance: int = 40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour[:3], want))


def test_the_debug_view_and_the_ghosts_show_on_a_big_tile_map(cfg):
    """F3's contact edge stays a window pixel wide though the view is drawn at 3/8 (a line one
    map px wide would fade into the tiles behind it), and each ghost is as big as the player:
    its picture's top (where its name goes) at the player's head, not a 16 px figure at its
    feet."""
    from game.view.debug import CONTACT_EDGE

    app = app_on(cfg, ARCADE, ghosts=True)
    try:
        play = app.play
        play.debug = True
        play.tick_once()  # standing: the edge under the feet is a contact
        play.draw(0.0, 0.0)
        win = app.window
        edge = sum(near(win.get_at((x, y)), CONTACT_EDGE) for x in range(win.get_width())
                   for y in range(win.get_height()))
        assert edge >= 36  # the edge the player stands on, 36 window px long (and the ghosts'
        # names in a like colour: 18 px; a line one map px wide leaves only those)
        p, (ox, oy) = play.world.player, play.view_origin
        assert play.ghost_labels
        for _, (_, top), _ in play.ghost_labels:
            assert p.y - oy - p.h / 4 <= top <= p.y - oy
    finally:
        pygame.quit()


def test_the_effects_keep_their_size_beside_the_player():
    """A burst and the stomp's shake on a map of 128 px tiles are 8 times the map px."""
    from game.view.effects import SHAKE_TIME, Effects

    small, big = Effects(), Effects()
    big.scale = 8.0
    for fx in (small, big):
        fx.burst(0.0, 0.0, 5, ((255, 0, 0),), speed=100.0, life=1.0, size=2)
        fx.shake_left = SHAKE_TIME  # at its strongest
    assert {p.size for p in big.particles} == {16} and {p.size for p in small.particles} == {2}
    fastest = max(abs(p.vx) + abs(p.vy) for p in small.particles)
    assert max(abs(p.vx) + abs(p.vy) for p in big.particles) == pytest.approx(8 * fastest)
    assert abs(big.shake()[0]) == 8 * abs(small.shake()[0]) > 0


def test_a_reload_keeps_the_big_tile_view(cfg):
    """R (and the hot reload) on a 128 px map: still 15 tiles high, the player as big."""
    app = app_on(cfg, ARCADE)
    try:
        before = player_box(app).size
        assert app.play.reload()
        app.play.banner, app.play.notes_until = None, 0.0  # both fade with the clock
        assert tiles_in_view(app) == pytest.approx(15, abs=0.5)
        assert player_box(app).size == before
    finally:
        pygame.quit()
