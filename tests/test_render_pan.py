"""A view buffer (game.view.viewbuffer) carried far along both axes, there and back, by a
camera in odd steps: every frame is the picture drawn straight from the tiles, and the buffer
never grows."""

from __future__ import annotations

import pygame
import pytest

from game.maps.level import load_level
from game.view import viewbuffer
from game.view.render import MapRenderer, TileImages, render_area
from tests.test_render_cache import drawn_and_whole, write_map
from tools import bench_scenario as S

VIEW = (320, 240)

# The full tier only: long pans drawn frame by frame and compared with whole pictures.
pytestmark = pytest.mark.slow


def there_and_back(width: int, height: int, view: tuple[int, int]) -> list[tuple[int, int]]:
    """Origins from the map's top-left corner to its bottom-right one in odd steps (13, 7),
    partly off the map at both ends, then back in other steps (-29, -11), with a few jumps."""
    out, x, y = [], -40, -30
    while x < width - view[0] + 40 or y < height - view[1] + 30:
        out.append((x, y))
        x, y = min(x + 13, width - view[0] + 40), min(y + 7, height - view[1] + 30)
    out += [(width // 2, 50), (40, height // 2)]  # jumps: all drawn anew
    x, y = width - view[0] + 40, height - view[1] + 30
    while x > -40 or y > -30:
        out.append((x, y))
        x, y = max(x - 29, -40), max(y - 11, -30)
    return out


def tile_buffers(renderer: MapRenderer) -> list[viewbuffer.ViewBuffer]:
    return [item for passes in renderer._passes for kind, item, _ in passes if kind == "tiles"]


@pytest.mark.parametrize("sky_cols", [None, 200], ids=["translucent parts", "opaque"])
def test_a_long_pan_in_both_axes_draws_the_tiles_picture(tmp_path, sky_cols):
    """There and back across a map several buffer sizes long in both axes, with the view
    resized on the way (a new, differently sized buffer): every frame, behind and in front, is
    the picture drawn straight from the tiles, exactly (no run-length encoded blit: the buffer
    never holds the whole map); the buffer moved more than twice its size
    along each axis; what is kept stays the size the view sets."""
    level = load_level(write_map(tmp_path, 200, 160, ' offsetx="5" offsety="-6"',
                                 ' opacity="0.6"', sky_cols=sky_cols))
    images = TileImages(level, convert=False)
    renderer = MapRenderer(level, images)
    bounds = renderer.bounds
    whole = {front: render_area(level, images, bounds, front) for front in (False, True)}
    behind = tile_buffers(renderer)[0]
    path = there_and_back(bounds.w, bounds.h, VIEW)
    views = [VIEW] * len(path)
    views[-80:-40] = [(400, 300)] * 40  # a window resize, and back
    sky = (255, 0, 255)
    sizes, plain, corners = set(), 0, []
    for origin, view in zip(path, views):
        for front in (False, True):
            ours, want = drawn_and_whole(renderer, whole[front], origin, view, front, sky)
            assert pygame.image.tobytes(ours, "RGB") == pygame.image.tobytes(want, "RGB"), (
                f"frame at {origin}, view {view}, front={front}")
        sizes.add((view, behind.rect.size, renderer.cache_bytes))
        plain += behind.opaque  # opaque wherever the map is: blitted as a plain copy
        corners.append(behind.rect.topleft)
    for k in (0, 1):
        travel = max(c[k] for c in corners) - min(c[k] for c in corners)
        assert travel > 2 * behind.size_for(VIEW)[k]
    # the opaque map is copied (but near its edges, where big tiles reach past the sky), the
    # other is blended by rows of cells most of the way
    assert plain > 0.6 * len(path) if sky_cols else plain < 0.4 * len(path), plain
    # one ring per view size, as big as size_for says, never bigger
    assert {(v, s) for v, s, _ in sizes} == {(v, behind.size_for(v)) for v in set(views)}
    assert len({b for v, _, b in sizes if v == VIEW}) == 1


def test_animated_tiles_redrawn_into_a_moving_buffer(tmp_path, monkeypatch):
    """The buffer redrawing its animated cells itself (no overlay), far along a path that
    moves it: each frame is what a fresh renderer draws there at that time."""
    monkeypatch.setattr(viewbuffer, "plan", lambda *_a: None)  # redraw into the buffer
    pygame.init()
    level = load_level(S.write_lively_tmx(tmp_path / "lively.tmx", 160, 60),
                       (S.PLAYER_W, S.PLAYER_H))
    images = TileImages(level, convert=False)
    renderer = MapRenderer(level, images)
    assert renderer.animated
    ground = tile_buffers(renderer)[-1]
    g = level.grid
    path = there_and_back(g.width_px, g.height_px, VIEW)[::3]
    xs = []
    for i, origin in enumerate(path):
        renderer.update(i / 20)
        ours = pygame.Surface(VIEW)
        renderer.draw(ours, origin)
        xs.append(ground.rect.x)
        if i % 10 == 0:
            fresh = MapRenderer(level, images)
            fresh.update(i / 20)
            want = pygame.Surface(VIEW)
            fresh.draw(want, origin)
            assert pygame.image.tobytes(ours, "RGB") == pygame.image.tobytes(want, "RGB"), (
                f"frame {i} at {origin}")
    assert max(xs) - min(xs) > 2 * ground.rect.w


def test_the_buffer_rows_are_not_16_byte_aligned(tmp_path):
    """SDL copies between surfaces whose rows are both 16-byte aligned with streaming stores,
    measured slower here than the ``memcpy`` it uses otherwise (game.view.viewbuffer's
    ``_buffer_surface``): every buffer, opaque or not, keeps its rows apart by a pitch that is
    not a multiple of 16 bytes, and its size stays what size_for says but for that column."""
    level = load_level(write_map(tmp_path, 200, 160, tile=16, sky_cols=200))
    renderer = MapRenderer(level, TileImages(level, convert=False))
    kinds = set()
    for origin in [(0, 0), (700, 300), (1500, 900)]:
        renderer.draw(pygame.Surface(VIEW), origin, False)
        renderer.draw(pygame.Surface(VIEW), origin, True)
        for b in tile_buffers(renderer):
            kinds.add(b.opaque)
            w, h = b.size_for(VIEW)
            assert b.surface.get_size() == (w + 1, h) and b.rect.size == (w, h)
            assert b.surface.get_pitch() % 16
    assert kinds == {True, False}


def test_the_room_goes_ahead_of_a_moving_view(tmp_path):
    """Panning one way, the buffer keeps its room beyond the view ahead of it: it moves about
    once per (its width - the view's) px, not twice as often with the room split on both
    sides, and each time it moves it still holds the view."""
    level = load_level(write_map(tmp_path, 400, 40, tile=16, sky_cols=400))
    renderer = MapRenderer(level, TileImages(level, convert=False))
    behind = tile_buffers(renderer)[0]
    target = pygame.Surface(VIEW)
    for direction in (1, -1):
        rects = []
        for k in range(1000):
            x = 100 + 4 * k if direction > 0 else 4100 - 4 * k
            renderer.draw(target, (x, 200))
            rects.append(tuple(behind.rect))
            assert behind.rect.contains(pygame.Rect((x, 200), VIEW))
        moves = sum(a != b for a, b in zip(rects, rects[1:]))
        room = behind.size_for(VIEW)[0] - VIEW[0]
        assert moves <= 4000 // (room - viewbuffer.CELL[0]) + 1, moves
