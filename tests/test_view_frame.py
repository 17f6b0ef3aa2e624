"""A frame draws what it drew before it kept things between frames: the scene surface, text
images, panels and overlays are reused, and the picture is the same as one drawn from nothing."""

from __future__ import annotations

import copy

import time
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from game import config
from game.sim.inputs import parse_script
from game.view.app import App
from game.view.painter import SHADOW, WHITE, TextPainter, make_panel
from game.view.surfaces import Recent, blit_scaled
from game.view.sprites import Background
from game.view.window import auto_scale

ROOT = Path(__file__).resolve().parent.parent
FIRST = ROOT / "levels" / "01_first_steps.tmx"
EVERY_TILE = ROOT / "levels" / "02_every_tile.tmx"
SCRIPT = ["0 right", "20 right+jump", "30 right", "45 left", "60 left+jump", "70 right"]


def make_cfg(width: int, height: int):
    """A window that shows little of the level (scale 3), so that the camera moves."""
    c = config.load(ROOT / "config.toml")
    return replace(c, display=replace(c.display, width=width, height=height, scale=3,
                                      vsync=False, hot_reload=False, debug=False))


@pytest.fixture(autouse=True)
def fresh_pygame():
    yield
    pygame.quit()
    pygame.init()


def key(k):
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0)


def pixels(surface: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surface, "RGB")


def drawn_from_nothing(played: App, size: tuple[int, int], alpha: float, dt: float,
                       effects=None) -> bytes:
    """What a new App, nothing kept from any frame, draws for ``played``'s state (``effects``:
    the played scene's effects as they were before its draw)."""
    fresh = App(make_cfg(*size), EVERY_TILE)
    if effects is not None:
        fresh.play.effects = effects
    fresh.play.world = played.play.world
    fresh.play.camera = played.play.camera
    fresh.play.painter.player_sprite.look = replace(played.play.painter.player_sprite.look)
    for name in ("debug", "show_help", "paused", "error_line", "error_note", "banner", "script",
                 "speed", "hud_bottom", "notes_until", "card"):
        setattr(fresh.play, name, getattr(played.play, name))
    fresh.play.followers.comparison = played.play.followers.comparison
    fresh.play.draw(alpha, dt)
    return pixels(fresh.window)


def test_a_frame_after_many_shows_what_a_first_frame_shows(monkeypatch):
    # A clock that moves by the frame, and stands still while the two draws compared are made
    # (the goal's glow and the banners follow it).
    clock = [1000.0]
    monkeypatch.setattr(time, "monotonic", lambda: clock[0])
    size = (640, 360)
    app = App(make_cfg(*size), EVERY_TILE, script=parse_script(SCRIPT, "test"))
    # Keys pressed before these frames: the HUD's text, panels and overlays come and go.
    events = {10: pygame.K_F3, 25: pygame.K_h, 40: pygame.K_F3, 50: pygame.K_p,
              55: pygame.K_p, 62: pygame.K_TAB}
    checked = 0
    origins = set()
    for frame in range(1, 81):
        if frame in events:
            pygame.event.post(key(events[frame]))
        if frame == 66:
            app.play.error_line = "error: x.tmx: " + "a long complaint " * 6
        if frame == 70:  # another window size: another scene, other fonts and panels
            size = (800, 450)
            app.shared.window.windowed_size = size
            app.shared.window.open()
        if frame == 74:  # just before the goal: its glow, then the end-of-level card
            p, goal = app.world.player, app.world.level.goals[0]
            p.x, p.y = goal.x - 4, goal.y + goal.h - p.h
            app.world.prev = (p.x, p.y)
            app.play.camera = None
        clock[0] += 1 / 60
        app.frame(1 / 60)
        origins.add(app.play.view_origin)
        if frame in (1, 15, 30, 52, 64, 68, 72, 75, 77, 80):
            camera, look = app.play.camera, replace(app.play.painter.player_sprite.look)
            effects = copy.deepcopy(app.play.effects)
            app.play.draw(0.5, 1 / 60)
            shown = pixels(app.window)
            app.play.camera = camera  # the reference starts from the same camera
            assert shown == drawn_from_nothing(app, size, 0.5, 1 / 60, effects), f"frame {frame}"
            app.play.painter.player_sprite.look = look
            app.shared.window.surface = pygame.display.get_surface()
            checked += 1
    assert checked == 10 and len(origins) > 20, "the camera moved"
    assert app.play.card is not None and app.play.card.title == "Level 2: Every Tile"


@pytest.mark.parametrize("src_size, factor, dest_size", [
    ((427, 240), 3, (1280, 720)),  # the usual window: the last column is cut to 2 px
    ((500, 350), 2, (999, 700)),
    ((334, 200), 1, (333, 200)),
    ((1, 240), 3, (2, 720)),  # narrower than one scaled pixel
    ((2, 2), 3, (4, 5)),  # both edges cut
    ((1, 1), 4, (1, 1)),
])
def test_blit_scaled_is_scale_then_blit(src_size, factor, dest_size):
    pygame.display.init()
    src = pygame.Surface(src_size)
    w, h = src_size
    for x in range(w):
        for y in range(0, h, max(1, h // 37)):
            src.set_at((x, y), ((x * 37) % 256, (y * 11) % 256, (x * y) % 256))
    for depth in (32, 24):  # the window's format, and one blit_scaled must convert to
        want = pygame.Surface(dest_size, 0, depth)
        want.fill((9, 9, 9))
        got = want.copy()
        want.blit(pygame.transform.scale(src, (w * factor, h * factor)), (0, 0))
        blit_scaled(src, factor, got)
        assert pixels(got) == pixels(want), depth
        assert not got.get_locked()  # the HUD is blitted onto it next


@pytest.mark.parametrize(("height", "scale"), [(720, 3), (450, 2), (480, 2), (1080, 4),
                                             (360, 2), (600, 2), (240, 1), (180, 1),
                                             (300, 1), (2160, 9)])
def test_the_automatic_scale_is_the_whole_one_nearest_240_px_of_map(height, scale):
    assert auto_scale(height) == scale


def test_the_automatic_scale_never_makes_a_speck():
    """Every window height from the smallest config allows to 4K: the view shows 180 to 300 px
    of map (below 180 px of window, all of it at 1), by a whole scale except where no whole
    one does: then a fractional one, of the same 240 px."""
    for h in range(180, 2161):
        s = auto_scale(h)
        assert 180 <= h / s <= 300 or (s == 1 and h < 180), h
        if s != int(s):
            assert 300 < h < 360 and h / s == pytest.approx(240), h


def test_a_fractional_scale_stays_crisp():
    """Sharp scaling: a checkerboard of 2 x 2 px squares scaled by 1.375 keeps over 40% of the
    window's pixels one of its two colours (a blend only along the squares' edges), twice as
    many as plain smoothing does, and covers the window the scale says."""
    pygame.display.init()
    yellow, blue = (250, 240, 20), (10, 20, 200)
    src = pygame.Surface((64, 48))
    for x in range(64):
        for y in range(48):
            src.set_at((x, y), yellow if (x // 2 + y // 2) % 2 else blue)
    dest = pygame.Surface((88, 66))
    dest.fill((0, 0, 0))
    blit_scaled(src, 1.375, dest, Recent())

    def pure(img) -> int:
        data = pygame.image.tobytes(img, "RGB")
        got = [tuple(data[i:i + 3]) for i in range(0, len(data), 3)]
        assert (0, 0, 0) not in got  # 64 x 1.375 = 88: the window is covered
        return sum(any(all(abs(a - b) <= 4 for a, b in zip(c, want)) for want in (yellow, blue))
                   for c in got)

    assert pure(dest) > 0.4 * 88 * 66
    assert pure(dest) > 1.5 * pure(pygame.transform.smoothscale(src, (88, 66)))


def test_an_800_by_450_window_shows_the_player_twice_as_big(tmp_path):
    c = config.load(ROOT / "config.toml")
    cfg = replace(c, display=replace(c.display, width=800, height=450, vsync=False))
    app = App(cfg, FIRST, max_frames=2, frame_time=1 / 60)
    try:
        assert app.shared.window.scale() == 2
        assert app.shared.window.view_size() == (400, 225)
        app.run()
        assert app.play.painter.scene.get_size() == (400, 225)
    finally:
        pygame.init()


def test_a_translucent_sky_is_drawn_over_black_on_a_reused_view():
    pygame.display.init()
    pygame.display.set_mode((64, 64))
    sky = pygame.Surface((32, 16), pygame.SRCALPHA)
    sky.fill((100, 150, 200, 128))
    hills = pygame.Surface((8, 8), pygame.SRCALPHA)
    bg = Background(sky, hills)
    assert not bg.sky_covers
    new = pygame.Surface((40, 30))
    bg.draw(new, (0, 0), (400, 300))
    reused = pygame.Surface((40, 30))
    reused.fill((255, 0, 255))  # the last frame's pixels
    bg.draw(reused, (0, 0), (400, 300))
    assert pixels(reused) == pixels(new)


def test_recent_keeps_what_the_last_two_frames_asked_for():
    made = []
    recent = Recent()

    def get(key):
        return recent.get(key, lambda: made.append(key) or key)

    get("a"), get("b")
    recent.next_frame()
    get("a")  # still kept
    recent.next_frame()
    get("a"), get("b")  # "b" was asked for two frames ago: made again
    assert made == ["a", "b", "b"]
    assert len(recent) == 2


def test_what_the_hud_keeps_does_not_grow_as_its_numbers_change():
    app = App(make_cfg(640, 360), EVERY_TILE, script=parse_script(["0 right"], "test"))
    app.play.debug = True
    sizes = []
    for _ in range(120):  # the debug numbers (x, tick, ...) are new text every frame
        app.frame(1 / 60)
        sizes.append(len(app.play.made))
    assert max(sizes[60:]) <= max(sizes[:10]) + 5


def test_hills_blitted_encoded_are_the_same_pixels():
    pygame.display.init()
    pygame.display.set_mode((64, 64))
    sky = pygame.Surface((30, 20))
    sky.fill((90, 160, 230))
    hills = pygame.Surface((25, 12), pygame.SRCALPHA)
    for x in range(25):
        for y in range(12):
            if (x * 7 + y * 3) % 5 < 2 or y > 8:  # each pixel opaque or clear
                hills.set_at((x, y), (x * 10, 100 + y * 10, 50, 255))
    encoded = Background(sky, hills)
    assert encoded.hills.get_flags() & pygame.RLEACCELOK  # encoded at its first blit
    plain = Background(sky, hills)
    plain.hills = hills
    for origin in ((0, 0), (7, 3), (40, 90)):
        a, b = pygame.Surface((61, 33)), pygame.Surface((61, 33))
        encoded.draw(a, origin, (200, 150))
        plain.draw(b, origin, (200, 150))
        assert pixels(a) == pixels(b), origin


def test_a_card_shows_the_pixels_of_its_parts_drawn_one_by_one():
    pygame.display.init()
    background = pygame.Surface((320, 120))
    for x in range(0, 320, 4):  # something under the panel for its translucency to show
        background.fill(((x * 3) % 256, 120, 255 - x % 256), (x, 0, 4, 120))
    rows = [("Every Tile", WHITE), ("coins 2/16  (a card)", (150, 235, 160))]
    got = background.copy()
    painter = TextPainter(Recent())
    painter.begin(got)
    panel = painter.block(rows, painter.small, 20, 16, 6)
    want = background.copy()  # the same parts, one blit each, in the same order
    want.blit(make_panel(panel.size), panel)
    line_h = painter.small.get_linesize()
    for i, (text, colour) in enumerate(rows):
        at = (20, 16 + i * line_h)
        want.blit(painter.small.render(text, True, SHADOW), (at[0] + 2, at[1] + 2))
        want.blit(painter.small.render(text, True, colour), at)
    assert pixels(got) == pixels(want)
    assert [t for t, _ in painter.drawn] == [t for t, _ in rows] and painter.panels == [panel]
    # Shown again, the card is not made again: one image kept for it, as for each text.
    kept = len(painter.made)
    painter.made.next_frame()
    painter.begin(got)
    painter.block(rows, painter.small, 20, 16, 6)
    assert len(painter.made) == kept
