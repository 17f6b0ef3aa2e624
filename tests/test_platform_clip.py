"""The platforms' clip (``game.sim.platforms.clip_to_platforms``) beside fast bodies, with every
resolver, on tiles of any aspect ratio.

The player's move is resolved against the tiles by its resolver, then cut against the moving
platforms' boxes. Where the cut end lies in a tile (the resolver's path was bent by a slope, and
the cut kept a y worked out for another x), the resolver and the cut take turns until they agree.
Whatever the tiles and the motion, the end is inside no tile and no solid platform, and a body
never crosses a solid platform whole in one tick.
"""

from __future__ import annotations

import pytest
from helpers import resolver_names, resolver_params
from hypothesis import given, note
from hypothesis import strategies as st

from game.maps.grid import EPS, TileGrid
from game.maps.platform_spawns import PlatformSpawn
from game.resolvers import create
from game.resolvers.base import move_box, overlapping_tiles
from game.sim.platforms import Platform, clip_to_platforms

SHAPES = [(16, 16), (8, 8), (16, 8), (12, 20), (8, 24)]


class Box:
    """What the clip reads and writes of the player."""

    def __init__(self, x: float, y: float, w: float, h: float) -> None:
        self.x, self.y, self.w, self.h, self.riding = x, y, w, h, None


def platform(x: float, y: float, w: float, h: float, one_way: bool = False) -> Platform:
    """A platform standing still at (x, y)."""
    return Platform(PlatformSpawn(id=1, x=x, y=y, w=w, h=h, path=((x, y), (x, y)), speed=60.0,
                                  wait=0.5, one_way=one_way, loop=False))


def move(name: str, grid: TileGrid, platforms: list[Platform], x: float, y: float, w: float,
         h: float, dx: float, dy: float) -> Box:
    """A tick of the player's move: the tiles with ``name``, then the platforms' clip."""
    resolver = create(name)
    box = Box(x, y, w, h)
    box.x, box.y, flags = move_box(resolver, grid, x, y, w, h, dx, dy, one_way_bottom=y + h)
    clip_to_platforms(platforms, box, x, y, dy, False, flags, False, resolver, grid)
    return box


def crossed(pl: Platform, x0: float, y0: float, x1: float, y1: float, w: float, h: float) -> bool:
    """Did the body go from wholly on one side of the platform to wholly on the other, over or
    beside it all the way (its columns at both ends, or its rows at both ends; touching, within
    EPS, is not overlapping)?"""
    over = (x0 + w > pl.x + EPS and x0 < pl.x + pl.w - EPS
            and x1 + w > pl.x + EPS and x1 < pl.x + pl.w - EPS)
    beside = (y0 + h > pl.y + EPS and y0 < pl.y + pl.h - EPS
              and y1 + h > pl.y + EPS and y1 < pl.y + pl.h - EPS)
    down = y0 + h <= pl.y and y1 >= pl.y + pl.h
    up = y0 >= pl.y + pl.h and y1 + h <= pl.y
    right = x0 + w <= pl.x and x1 >= pl.x + pl.w
    left = x0 >= pl.x + pl.w and x1 + w <= pl.x
    return (over and (down or up)) or (beside and (right or left))


@pytest.mark.parametrize("name", resolver_names())
def test_a_slope_that_lifts_the_body_never_carries_it_through_a_platform_above(name):
    """Walking fast up a 45-degree slope under a solid platform: the tiles lift the body into
    the platform, the platform's cut puts its head under it, inside the slope; the move is
    taken again until the two agree (before: the resolver's second answer was kept, up through
    the platform)."""
    grid = TileGrid.from_rows(["........", "........", "........", "....////", "########"])
    bar = platform(64.0, 32.0, 64.0, 8.0)  # y 32..40, over the slope's columns
    body = move(name, grid, [bar], 40.0, 64.0 - 14.0, 12.0, 14.0, 30.0, 0.4)
    assert not bar.overlaps(body.x, body.y, body.w, body.h), (body.x, body.y)
    assert body.y >= 40.0 - 1e-6, "the head stays under the platform"
    assert not overlapping_tiles(grid, body.x, body.y, 12.0, 14.0, 64.0, True)


@pytest.mark.parametrize("name", resolver_names())
def test_a_platform_s_side_cuts_x_and_the_tiles_answer_y_again_for_that_x(name):
    """A fast 6x6 body falls past a floor's end, moving right: the tiles let it fall at the x
    it asked for, beyond the floor. A platform's side cuts its x back over the floor; the tiles
    answer again for that x, and it lands on the floor (before: it kept the y of the uncut x,
    through the floor)."""
    grid = TileGrid.from_rows(["....."] * 6 + ["####."] + ["....."] * 3)  # floor y 96..112
    wall = platform(60.0, 40.0, 8.0, 40.0)  # x 60..68, in the rows the body starts in
    body = move(name, grid, [wall], 40.0, 56.0, 6.0, 6.0, 40.0, 69.0)
    assert body.x <= 54.0 + 1e-6 and not wall.overlaps(body.x, body.y, 6.0, 6.0)
    assert body.y + 6.0 <= 96.0 + 1e-6, f"through the floor to y {body.y}"


@pytest.mark.parametrize("name", resolver_params())
@given(data=st.data())
def test_platforms_beside_fast_bodies_hold_on_tiles_of_any_aspect(name, data):
    tw, th = data.draw(st.sampled_from(SHAPES), label="tile")
    cols, rows = 12, 10
    w, h = data.draw(st.sampled_from(((6.0, 6.0), (12.0, 14.0), (4.0, 4.0))), label="body")
    x = data.draw(st.floats(0, cols * tw - w), label="x")
    y = data.draw(st.floats(0, rows * th - h), label="y")
    # slopes and walls about, none in the cells the body starts in
    start = {(c, r) for c in range(int(x // tw), int((x + w) // tw) + 1)
             for r in range(int(y // th), int((y + h) // th) + 1)}
    lines = ["".join("." if (c, r) in start else data.draw(st.sampled_from("....##=////\\\\\\"))
                     for c in range(cols)) for r in range(rows)]
    grid = TileGrid.from_rows(lines, tw, th)
    dx = data.draw(st.floats(-4.0 * tw, 4.0 * tw), label="dx")
    dy = data.draw(st.one_of(st.floats(-2.0, 2.0), st.floats(-4.0 * th, 4.0 * th)), label="dy")
    platforms = []
    for _ in range(data.draw(st.integers(1, 3), label="platforms")):
        pw = data.draw(st.sampled_from((8.0, 16.0, 32.0, 64.0)), label="platform w")
        ph = data.draw(st.sampled_from((8.0, 16.0, 24.0)), label="platform h")
        if data.draw(st.booleans(), label="just over the head"):
            py = y - ph - data.draw(st.floats(0.0, th), label="headroom")
            px = x + data.draw(st.floats(min(0.0, dx), max(0.0, dx)), label="over") - pw / 2
        else:  # over a point of the path, shifted by up to its own size
            t = data.draw(st.floats(0.0, 1.0), label="along the path")
            px = x + t * dx + data.draw(st.floats(-pw, w), label="across")
            py = y + t * dy + data.draw(st.floats(-ph, h), label="along")
        pl = platform(px, py, pw, ph, data.draw(st.booleans(), label="one-way"))
        if not pl.overlaps(x, y, w, h):  # the body starts free of everything, as in play
            platforms.append(pl)
    note("\n".join(lines))
    body = move(name, grid, platforms, x, y, w, h, dx, dy)
    where = f"({x!r}, {y!r}) by ({dx!r}, {dy!r}) to ({body.x!r}, {body.y!r})"
    for pl in platforms:
        if pl.one_way:
            continue
        assert not pl.overlaps(body.x, body.y, w, h), f"inside a platform: {where}"
        assert not crossed(pl, x, y, body.x, body.y, w, h), f"through a platform: {where}"
    assert not overlapping_tiles(grid, body.x, body.y, w, h, y + h, True), f"in a tile: {where}"
