"""Animated tiles drawn over a view buffer (game.view.animcells): the same picture as redrawing
them into the buffer, while the buffer itself is never redrawn for an animation."""

from __future__ import annotations

import pygame
import pytest

from game.maps.level import load_level
from game.view import animcells, viewbuffer
from game.view.render import MapRenderer, TileImages
from tiledpicture import differing
from tools import bench_scenario as S

VIEW = (640, 360)


@pytest.fixture(scope="module")
def lively(tmp_path_factory):
    pygame.init()
    path = S.write_lively_tmx(tmp_path_factory.mktemp("lively") / "lively.tmx", 40, 24)
    return load_level(path, (S.PLAYER_W, S.PLAYER_H))


def views(level, times, origins) -> list[pygame.Surface]:
    renderer = MapRenderer(level, TileImages(level, convert=False))
    out = []
    for t in times:
        renderer.update(t)
        for origin in origins:
            view = pygame.Surface(VIEW)
            view.fill((0, 0, 0))
            renderer.draw(view, origin)
            renderer.draw_front(view, origin)
            out.append(view.convert_alpha() if pygame.display.get_surface() else
                       _with_alpha(view))
    return out


def _with_alpha(view: pygame.Surface) -> pygame.Surface:
    out = pygame.Surface(view.get_size(), pygame.SRCALPHA)
    out.blit(view, (0, 0))
    return out


TIMES = [0.0, 0.16, 0.31, 0.47, 0.6, 2.05]
ORIGINS = [(0, 0), (200, 180), (640, 408), (333, 77)]


def test_the_ground_of_the_lively_map_is_drawn_with_its_animations_on_top(lively):
    renderer = MapRenderer(lively, TileImages(lively, convert=False))
    buffers = [item for kind, item, _ in renderer._passes[0] if kind == "tiles"]
    assert [b.overlay is not None for b in buffers] == [False, False, True]  # sky, hills, ground
    ground = buffers[2]
    view = pygame.Surface(VIEW)
    renderer.draw(view, (0, 0))
    before = pygame.image.tobytes(ground.surface, "RGBA")
    renderer.update(0.16)  # every animated cell changes frame
    renderer.draw(view, (0, 0))
    assert pygame.image.tobytes(ground.surface, "RGBA") == before  # the buffer is untouched


def test_drawing_them_on_top_gives_the_picture_of_redrawing_them(lively, monkeypatch):
    on_top = views(lively, TIMES, ORIGINS)
    monkeypatch.setattr(viewbuffer, "plan", lambda *_a: None)  # redraw into the buffer
    redrawn = views(lively, TIMES, ORIGINS)
    # the same pixels (SDL's encoded blits round translucent ones apart by 1)
    assert [differing(a, b, tolerance=1) for a, b in zip(on_top, redrawn)] == [0] * len(on_top)
    n = len(ORIGINS)
    assert all(differing(a, b) for a, b in zip(on_top[:n], on_top[n:2 * n]))  # they animate


def test_a_tile_over_an_animated_cell_keeps_the_buffer_redrawing(lively):
    """Ground and hills in one run (same parallax): a hills tile over an animated ground cell
    would be covered by a picture drawn on top, so the plan declines."""
    images = TileImages(lively, convert=False)
    renderer = MapRenderer(lively, images)
    (_, stamps) = renderer._passes[0][2][1].pairs[0]
    ground = lively.view.layers[2]
    (r, row), = [(r, row) for r, row in enumerate(ground.gids)
                 if set(row) & renderer.animated][:1]
    c = next(c for c, g in enumerate(row) if g in renderer.animated)
    over = [list(rr) for rr in ground.gids]
    over[r][c] = next(g for g in row if g and g not in renderer.animated)
    from dataclasses import replace
    cover = replace(ground, gids=tuple(tuple(rr) for rr in over), name="cover")
    assert animcells.plan(lively, [(ground, stamps), (cover, stamps)],
                          renderer.animated) is None
    assert animcells.plan(lively, [(ground, stamps)], renderer.animated) is not None
