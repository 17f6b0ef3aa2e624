"""Tests of the ``sweep`` resolver: the direction box shrunk by an inset and stretched by the
motion, tiles nearest first, the ledge bump, slopes and one-way tiles; plus each departure from
its article.

``article_move`` below is a plain reading of the article (half box, inset, stretch, nearest tile
first, its edge is the answer; no slopes). Where the resolver departs from it, the test shows the
article's version getting the case wrong and the resolver getting it right.
"""

from __future__ import annotations

import dataclasses
import math

import pytest

from game.config import check_value
from game.errors import UserError
from game.maps.grid import EPS, EMPTY, ONE_WAY, TileGrid
from game.resolvers import REGISTRY, Body, create, move_body, names
from game.resolvers.base import overlapping_tiles
from game.resolvers.sweep import SweepOptions, SweepResolver

T = 16
INSET = T / 8  # the automatic inset for 16 px tiles
GRAVITY = 0.4  # px per tick, enough to test resting and landing


def no_overlap(grid, body, m, drop=False):
    hits = overlapping_tiles(grid, m.x, m.y, body.w, body.h, body.bottom, True)
    return [c for c in hits if not (drop and grid.kind(*c) == ONE_WAY)] == []


def run(grid, body, dx, dy, drop=False, was_on_ground=False, resolver=None):
    """One call through the mover, as the game makes it, checked for overlap."""
    m = move_body(resolver or create("sweep"), grid, body, dx, dy, drop_through=drop,
                  was_on_ground=was_on_ground)
    assert no_overlap(grid, body, m, drop), (m, overlapping_tiles(
        grid, m.x, m.y, body.w, body.h, body.bottom, True))
    return m


def walk(grid, body, dx, ticks, dy=GRAVITY, resolver=None):
    """``ticks`` ticks of walking with gravity; returns the list of moves."""
    x, y, on_ground, out = body.x, body.y, True, []
    for _ in range(ticks):
        m = run(grid, Body(x, y, body.w, body.h), dx, dy, was_on_ground=on_ground,
                resolver=resolver)
        x, y, on_ground = m.x, m.y, m.contacts.on_ground
        out.append(m)
    return out


def article_move(grid, body, dx, dy, inset=INSET):
    """The article as written, for solid tiles only: returns (x, y)."""
    x, y, w, h = body.x, body.y, body.w, body.h
    if dx:
        left, right = (x + w / 2, x + w + dx) if dx > 0 else (x + dx, x + w / 2)
        cols = grid.cols_between(left, right)
        cols = cols if dx > 0 else cols[::-1]
        for col in cols:  # nearest first
            if any(grid.kind(col, r) != EMPTY
                   for r in grid.rows_between(y + inset, y + h - inset)):
                x = col * T - w if dx > 0 else (col + 1) * T
                break
        else:
            x += dx
    if dy:
        top, bottom = (y + h / 2, y + h + dy) if dy > 0 else (y + dy, y + h / 2)
        rows = grid.rows_between(top, bottom)
        rows = rows if dy > 0 else rows[::-1]
        for row in rows:
            if any(grid.kind(c, row) != EMPTY
                   for c in grid.cols_between(x + inset, x + w - inset)):
                y = row * T - h if dy > 0 else (row + 1) * T
                break
        else:
            y += dy
    return x, y


# A ledge: its top at y = 48, its left side at x = 64; the floor is at y = 80.
LEDGE = TileGrid.from_rows([
    "..........",
    "..........",
    "..........",
    "....######",
    "....######",
    "##########",
])


# ------------------------------------------------------------------------------------------------
# The ledge bump ("almost made it")
# ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("miss", [0.25, 1.0, INSET - 1e-3, INSET])
@pytest.mark.parametrize("dy", [GRAVITY, 0.0, -3.0])
def test_sweeps_ledge_bump_lifts_a_body_that_misses_a_ledge_by_no_more_than_its_inset(miss, dy):
    """sweep's ledge bump lifts a body that misses a ledge by no more than its inset."""
    body = Body(64 - 12 - 0.5, 48 + miss - 14, 12, 14)  # bottom `miss` px below the ledge top
    m = run(LEDGE, body, 3.0, dy)
    assert m.x == pytest.approx(body.x + 3.0)
    assert not m.contacts.hit_right
    expected_bottom = 48.0 + min(dy, 0.0)  # on the ledge, then the rise of this tick if any
    assert m.y + body.h == pytest.approx(expected_bottom)
    if dy > 0:
        assert m.contacts.on_ground
        # standing on it: the next ticks stay there, on the ground
        for _ in range(3):
            m2 = run(LEDGE, Body(m.x, m.y, 12, 14), 0.0, GRAVITY, was_on_ground=True)
            assert m2.contacts.on_ground and m2.y == m.y


@pytest.mark.parametrize("miss", [INSET + 0.01, 3.0, 8.0, 20.0])
def test_a_body_that_misses_by_more_than_the_inset_is_stopped_by_the_ledges_side(miss):
    body = Body(64 - 12 - 0.5, 48 + miss - 14, 12, 14)
    m = run(LEDGE, body, 3.0, 0.0)
    assert m.contacts.hit_right
    assert m.x == 64 - 12  # exactly on the ledge's side
    assert m.y == body.y  # not lifted


def test_the_bump_follows_the_inset_option():
    body = Body(64 - 12 - 0.5, 48 + 3.0 - 14, 12, 14)  # misses by 3 px
    small = SweepResolver(SweepOptions(inset_y=2.0))
    big = SweepResolver(SweepOptions(inset_y=4.0))
    none = SweepResolver(SweepOptions(inset_y=0.0))
    assert run(LEDGE, body, 3.0, 0.0, resolver=small).contacts.hit_right
    m = run(LEDGE, body, 3.0, 0.0, resolver=big)
    assert not m.contacts.hit_right and m.y + 14 == 48.0
    tiny_miss = Body(body.x, 48 + 0.1 - 14, 12, 14)
    assert run(LEDGE, tiny_miss, 3.0, 0.0, resolver=none).contacts.hit_right


def test_the_article_leaves_a_rising_body_inside_the_ledge_the_resolver_lifts_it():
    """Departure: the bump belongs to the sideways move, not to a later fall."""
    body = Body(64 - 12 - 0.5, 48 + 1.0 - 14, 12, 14)
    for dy in (0.0, -0.5):
        ax, ay = article_move(LEDGE, body, 3.0, dy)
        assert overlapping_tiles(LEDGE, ax, ay, 12, 14, body.bottom, True)  # the article: inside
        m = run(LEDGE, body, 3.0, dy)
        assert m.y + 14 == pytest.approx(48.0 + dy)


def test_no_headroom_over_the_ledge_makes_it_a_wall():
    grid = TileGrid.from_rows([
        "..........",
        "....######",  # ceiling: bottom at y = 32, so 14 px high body does not fit on the ledge
        "..........",  # 16 px gap above the ledge... minus 1 px of lift is not enough
        "....######",
        "##########",
    ])
    body = Body(64 - 12 - 0.5, 48 + 1.0 - 15.5, 12, 15.5)  # top at 33.5: lifting 1 px fits...
    m = run(grid, body, 3.0, 0.0)
    assert not m.contacts.hit_right and m.y == pytest.approx(32.5)
    tall = Body(64 - 12 - 0.5, 48 + 1.0 - 16.5, 12, 16.5)  # ...lifting this one would not
    m = run(grid, tall, 3.0, 0.0)
    assert m.contacts.hit_right and m.x == 64 - 12 and m.y == tall.y


def test_a_head_in_the_top_strip_is_pushed_under_a_ceiling_corner():
    grid = TileGrid.from_rows([
        "..........",
        "....######",  # bottom at y = 32
        "..........",
        "..........",
        "##########",
    ])
    body = Body(64 - 12 - 0.5, 32 - 1.5, 12, 14)  # head 1.5 px into the ceiling's row
    m = run(grid, body, 3.0, 0.0)
    assert not m.contacts.hit_right and m.y == 32.0 and m.x == body.x + 3.0
    deep = Body(64 - 12 - 0.5, 32 - 3.0, 12, 14)
    m = run(grid, deep, 3.0, 0.0)
    assert m.contacts.hit_right and m.x == 64 - 12 and m.y == deep.y


def test_a_gap_lower_than_the_body_is_a_wall_even_within_both_strips():
    grid = TileGrid.from_rows([
        "..........",
        "....######",  # bottom at 32
        "..........",  # gap 32..48 = 16 px
        "....######",
        "##########",
    ])
    body = Body(64 - 12 - 0.5, 31.0, 12, 18)  # 18 px: 1 px into each strip, cannot fit
    m = run(grid, body, 3.0, 0.0)
    assert m.contacts.hit_right and m.x == 64 - 12


# ------------------------------------------------------------------------------------------------
# Nearest first, exact placement, no tunnelling
# ------------------------------------------------------------------------------------------------

def test_a_stretched_box_touching_two_walls_stops_at_the_nearer():
    grid = TileGrid.from_rows([
        "...........",
        "....#..#...",
        "...........",
    ])
    body = Body(84.0, 18.0, 12, 12)  # between the walls at cols 4 and 7
    assert run(grid, body, 60.0, 0.0).x == 7 * T - 12
    assert run(grid, body, -60.0, 0.0).x == 5 * T
    # the box in front reaches both walls at once; the nearer one wins
    assert run(grid, Body(20.0, 18.0, 12, 12), 60.0, 0.0).x == 4 * T - 12


def test_nearest_first_vertically():
    grid = TileGrid.from_rows([
        "....",
        "#...",
        "....",
        "....",
        "####",
        "....",
        "####",
    ])
    m = run(grid, Body(10.0, 34.0, 12, 12), 0.0, 60.0)
    assert m.y == 64 - 12 and m.contacts.on_ground
    m = run(grid, Body(20.0, 90.0, 12, 12), 0.0, -60.0)
    assert m.y == 80 and m.contacts.hit_ceiling


@pytest.mark.parametrize("speed", [16.0, 33.3, 47.0, 64.0])
@pytest.mark.parametrize("size", [(2.0, 2.0), (12.0, 14.0), (40.0, 36.0)])
def test_no_tunnelling_through_thin_walls_floors_and_ceilings(speed, size):
    w, h = size
    rows = [["."] * 20 for _ in range(10)]
    for r in range(10):
        rows[r][9] = "#"
    for c in range(20):
        rows[0][c] = rows[9][c] = "#"
    wall = TileGrid.from_rows(["".join(r) for r in rows])
    resolver = SweepResolver()
    # sideways, called directly (the mover does not sub-step a swept resolver)
    m = resolver.move(wall, Body(9 * T - w - 0.3, 40.0, w, h), speed, 0.0, False)
    assert m.x == 9 * T - w and m.contacts.hit_right
    m = resolver.move(wall, Body(10 * T + 0.3, 40.0, w, h), -speed, 0.0, False)
    assert m.x == 10 * T and m.contacts.hit_left
    # down onto and up into a one-tile floor / ceiling
    m = resolver.move(wall, Body(20.0, 9 * T - h - 0.7, w, h), 0.0, speed, False)
    assert m.y == 9 * T - h and m.contacts.on_ground
    m = resolver.move(wall, Body(20.0, T + 0.7, w, h), 0.0, -speed, False)
    assert m.y == T and m.contacts.hit_ceiling
    # diagonally into the wall, the floor behind it never reached
    m = resolver.move(wall, Body(9 * T - w - 0.3, 40.0, w, h), speed, speed, False)
    assert m.x == 9 * T - w


def test_a_fast_body_does_not_skip_a_small_bump_it_passes_over():
    """A ledge low enough to be bumped onto lifts the body even when it is crossed in one tick."""
    grid = TileGrid.from_rows([
        "..........",
        "..........",
        "..........",
        "....#.....",
        "##########",
    ])
    body = Body(20.0, 48 + 1.0 - 14, 12, 14)  # bottom 1 px into the row of the lone block
    m = run(grid, body, 60.0, 0.0)
    assert m.y + 14 == 48.0  # lifted onto the block on the way, and left there (no fall in x)


def test_touching_is_not_overlapping_and_a_resting_body_never_moves():
    grid = TileGrid.from_rows(["....", "....", "####"])
    body = Body(7.3, 32 - 14.0, 12, 14)
    for _ in range(5):
        m = run(grid, body, 0.0, GRAVITY)
        assert m.contacts.on_ground and m.y == body.y and m.x == body.x
    wall = TileGrid.from_rows(["..#.", "..#.", "####"])
    body = Body(32 - 12.0, 2.0, 12, 14)
    for _ in range(3):
        m = run(wall, body, 2.0, 0.0)
        assert m.contacts.hit_right and m.x == body.x


def test_seams_do_not_snag():
    floor = TileGrid.from_rows(["." * 12, "." * 12, "#" * 12])
    body = Body(3.0, 32 - 14.0, 12, 14)
    for m in walk(floor, body, 2.5, 40):
        assert not (m.contacts.hit_left or m.contacts.hit_right)
    ms = walk(floor, body, 2.5, 3)
    assert ms[0].x == body.x + 2.5
    wall = TileGrid.from_rows(["#..."] * 8)
    x, y = 16.0, 2.0
    for _ in range(10):
        m = run(wall, Body(x, y, 12, 14), -1.0, 3.0)
        assert m.contacts.hit_left and m.y == pytest.approx(y + 3.0)
        x, y = m.x, m.y


def test_exact_sizes_fit_exact_gaps():
    gap = TileGrid.from_rows(["....", "....", "##.#", "...."])
    m = run(gap, Body(32.0, 10.0, 16, 16), 0.0, 20.0)
    assert m.y == 30.0 and not m.contacts.on_ground
    tunnel = TileGrid.from_rows(["######", "......", "######"])
    m = run(tunnel, Body(0.0, 16.0, 16, 16), 40.0, 0.0)
    assert m.x == 40.0 and not m.contacts.hit_right


# ------------------------------------------------------------------------------------------------
# Vertical strips: land on a ledge met by a side strip; slide off a ceiling corner when rising
# ------------------------------------------------------------------------------------------------

def test_a_falling_body_lands_on_a_tile_under_its_side_strip():
    grid = TileGrid.from_rows(["....", "....", "..#.", "...."])
    body = Body(32 - 12 + 1.0, 0.0, 12, 14)  # 1 px of its right side over the block
    ax, ay = article_move(grid, body, 0.0, 30.0)
    assert overlapping_tiles(grid, ax, ay, 12, 14, body.bottom, True)  # the article sinks in
    m = run(grid, body, 0.0, 30.0)
    assert m.contacts.on_ground and m.y == 32 - 14 and m.x == body.x


def test_a_rising_body_slides_off_a_ceiling_corner_met_by_a_side_strip():
    grid = TileGrid.from_rows(["..#.", "....", "....", "...."])
    body = Body(32 - 12 + 1.5, 40.0, 12, 14)  # 1.5 px of its right side under the block
    m = run(grid, body, 0.0, -30.0)
    assert not m.contacts.hit_ceiling
    assert m.x == 32 - 12 and m.y == pytest.approx(10.0)
    left = Body(48 - 1.5, 40.0, 12, 14)  # under the block's right corner
    m = run(grid, left, 0.0, -30.0)
    assert not m.contacts.hit_ceiling and m.x == 48.0
    deep = Body(32 - 12 + 2.5, 40.0, 12, 14)  # more than the inset: a ceiling
    m = run(grid, deep, 0.0, -30.0)
    assert m.contacts.hit_ceiling and m.y == 16.0 and m.x == deep.x


def test_no_slide_without_room():
    grid = TileGrid.from_rows(["..#.", ".#..", "....", "...."])  # a wall left of the slide
    body = Body(32 - 12 + 1.5, 40.0, 12, 14)
    m = run(grid, body, 0.0, -30.0)
    assert m.contacts.hit_ceiling and m.y == 32.0 and m.x == body.x
    corners = TileGrid.from_rows(["#..#", "....", "...."])  # both strips at once
    m = run(corners, Body(16 - 1.0, 40.0, 34, 8), 0.0, -30.0)
    assert m.contacts.hit_ceiling and m.y == 16.0


# ------------------------------------------------------------------------------------------------
# Slopes
# ------------------------------------------------------------------------------------------------

RAMP = TileGrid.from_rows([
    "..............",
    "..............",
    "....../##\\....",
    "...../####\\...",
    "##############",
])


def highest_surface(grid, x, w):
    """The bottom a body resting on RAMP should have: the highest point under it."""
    best = math.inf
    for row in range(grid.rows):
        for col in grid.cols_between(x + EPS, x + w - EPS):
            kind = grid.kind(col, row)
            if kind == 3:
                lo, hi = max(x, col * T), min(x + w, (col + 1) * T)
                best = min(best, grid.surface_top(col, row, lo, hi))
            elif kind == 1:
                best = min(best, row * T)
    return best


@pytest.mark.parametrize("dx", [2.1666, -2.1666, 4.0, -4.0, 9.0, -9.0])
def test_walking_over_a_hill_of_slopes_keeps_the_ground(dx):
    """Up and down both slopes in both directions: grounded, resting on the highest point."""
    start = Body(34.0 if dx > 0 else 13 * T - 12 - 2.0, 64 - 14.0, 12, 14)
    ticks = int(9 * T / abs(dx))
    for m in walk(RAMP, start, dx, ticks):
        assert m.contacts.on_ground
        assert not (m.contacts.hit_left or m.contacts.hit_right)
        assert m.y + 14 == pytest.approx(highest_surface(RAMP, m.x, 12), abs=1e-6)


def test_climbing_lifts_by_at_most_the_slope_of_the_tile():
    body = Body(5 * T - 12.0, 64 - 14.0, 12, 14)  # at the foot of the '/'
    m = SweepResolver().move(RAMP, body, 3.0, 0.0, False)
    assert m.x == body.x + 3.0 and m.y == pytest.approx(body.y - 3.0)


@pytest.mark.parametrize("char,side", [("\\", "left"), ("/", "right")])
def test_the_full_height_side_of_a_slope_is_a_wall(char, side):
    grid = TileGrid.from_rows(["....", "....", ".." + char + ".", "####"])
    if side == "left":  # '\' is full height on its left: come from the left
        body, dx = Body(32 - 12.0 - 0.5, 48 - 14.0, 12, 14), 4.0
    else:  # '/' is full height on its right: come from the right
        body, dx = Body(48 + 0.5, 48 - 14.0, 12, 14), -4.0
    m = run(grid, body, dx, GRAVITY)
    assert m.contacts.hit_right if dx > 0 else m.contacts.hit_left
    assert m.x == (32 - 12.0 if dx > 0 else 48.0)
    fast = SweepResolver().move(grid, body, 4 * dx * 4, 0.0, False)  # 4 tiles in one go
    assert fast.x == (32 - 12.0 if dx > 0 else 48.0)


def test_the_top_of_a_slope_joins_a_flat_floor_without_a_snag():
    grid = TileGrid.from_rows([
        "..........",
        "....../###",
        "...../####",
        "##########",
    ])
    body = Body(5 * T - 12.0, 48 - 14.0, 12, 14)
    ms = walk(grid, body, 2.0, 30)
    for i, m in enumerate(ms):
        assert m.contacts.on_ground and not m.contacts.hit_right, i
        assert m.x == pytest.approx(body.x + 2.0 * (i + 1))
    assert ms[-1].y + 14 == 16.0  # on the flat top
    # and back down, the other way
    back = walk(grid, Body(ms[-1].x, ms[-1].y, 12, 14), -2.0, 40)
    for m in back:
        assert m.contacts.on_ground and not m.contacts.hit_left
    assert back[-1].y + 14 == 48.0


def test_a_fast_climb_crosses_the_joint_in_one_tick():
    grid = TileGrid.from_rows([
        "..........",
        "....../###",
        "...../####",
        "##########",
    ])
    body = Body(5 * T - 12.0, 48 - 14.0, 12, 14)
    m = run(grid, body, 60.0, GRAVITY)
    assert m.x == body.x + 60.0 and m.y + 14 == 16.0 and m.contacts.on_ground


def test_landing_on_a_slope_and_hitting_its_underside():
    grid = TileGrid.from_rows(["......", "......", "../...", "......", "######"])
    m = run(grid, Body(36.0, 0.0, 8, 8), 0.0, 40.0)  # lands on the surface under its span
    assert m.contacts.on_ground and m.y + 8 == pytest.approx(grid.surface_top(2, 2, 36, 44))
    m = run(grid, Body(36.0, 56.0, 8, 8), 0.0, -30.0)  # from below: the tile's bottom
    assert m.contacts.hit_ceiling and m.y == 48.0


def test_a_climb_into_a_low_ceiling_stops_where_the_head_touches():
    grid = TileGrid.from_rows([
        "..........",
        "..........",
        ".....#####",  # bottom at y = 48
        "...../....",
        "##########",
    ])
    body = Body(5 * T - 12.0, 64 - 10.0, 12, 10)  # head at 54: 6 px below the ceiling
    m = run(grid, body, 12.0, 0.0)
    assert m.contacts.hit_right and not m.contacts.hit_ceiling
    assert m.x == pytest.approx(74.0, abs=1e-5) and m.y == pytest.approx(48.0, abs=1e-5)


def test_partial_slopes_are_climbed_from_their_low_side():
    grid = TileGrid.from_rows(["........", "...ab...", "########"], slope_chars={
        "a": (0.0, 8.0), "b": (8.0, 16.0)})
    body = Body(3 * T - 12.0, 32 - 14.0, 12, 14)
    ms = walk(grid, body, 1.5, 24)
    assert all(m.contacts.on_ground and not m.contacts.hit_right for m in ms)
    high_step = TileGrid.from_rows(["........", "....b...", "########"],
                                   slope_chars={"b": (8.0, 16.0)})
    body = Body(4 * T - 12 - 0.5, 32 - 14.0, 12, 14)
    m = run(high_step, body, 10.0, GRAVITY)  # an 8 px step at its low side: a wall
    assert m.contacts.hit_right and m.x == 4 * T - 12


def test_a_large_body_on_a_slope():
    body = Body(2 * T, 64 - 36.0, 40, 36)
    for m in walk(RAMP, body, 3.0, 40):
        assert m.contacts.on_ground
        assert m.y + 36 == pytest.approx(highest_surface(RAMP, m.x, 40), abs=1e-6)


# ------------------------------------------------------------------------------------------------
# One-way tiles
# ------------------------------------------------------------------------------------------------

ONE_WAY_MAP = TileGrid.from_rows(["......", "......", "..==..", "......", "######"])


def test_one_way_tiles():
    m = run(ONE_WAY_MAP, Body(34.0, 10.0, 12, 14), 0.0, 20.0)  # from above: lands
    assert m.contacts.on_ground and m.y == 32 - 14 and m.contacts.on_one_way
    m = run(ONE_WAY_MAP, Body(34.0, 50.0, 12, 14), 0.0, -30.0)  # from below: passes
    assert m.y == 20.0 and not m.contacts.hit_ceiling
    m = run(ONE_WAY_MAP, Body(10.0, 26.0, 12, 14), 40.0, 0.0)  # sideways: passes
    assert m.x == 50.0 and not m.contacts.hit_right
    m = run(ONE_WAY_MAP, Body(34.0, 32 - 14.0, 12, 14), 0.0, 3.0, drop=True)  # drop through
    assert m.y == 32 - 14 + 3.0 and not m.contacts.on_ground
    m = run(ONE_WAY_MAP, Body(34.0, 33 - 14.0, 12, 14), 0.0, 3.0)  # started below its top
    assert m.y == 33 - 14 + 3.0


def test_a_head_bump_never_pushes_a_body_into_the_one_way_it_stands_on():
    grid = TileGrid.from_rows(["......", "...###", "......", "======", "......"])
    body = Body(48 - 12 - 0.5, 48 - 17.0, 12, 17)  # on the '=' at 48, head 1 px into row 1
    m = run(grid, body, 3.0, 0.0)
    assert m.contacts.hit_right and m.x == 48 - 12


# ------------------------------------------------------------------------------------------------
# Departures, options and metadata
# ------------------------------------------------------------------------------------------------

def test_a_body_already_inside_a_tile_is_not_yanked_back():
    grid = TileGrid.from_rows(["......", "..#...", "......"])
    body = Body(30.0, 18.0, 12, 12)  # overlaps the block at col 2
    ax, _ = article_move(grid, body, 3.0, 0.0)
    assert ax == 32 - 12  # the article snaps it back to the block's left edge
    m = SweepResolver().move(grid, body, 3.0, 0.0, False)
    assert m.x == 33.0  # moves on and out


def test_an_inset_bigger_than_half_the_body_is_capped():
    huge = SweepResolver(SweepOptions(inset_x=100.0, inset_y=100.0))
    body = Body(64 - 12 - 0.5, 48 + 6.5 - 14, 12, 14)  # 6.5 px below the ledge top (< 7)
    m = huge.move(LEDGE, body, 3.0, 0.0, False)
    assert not m.contacts.hit_right and m.y + 14 == 48.0
    body = Body(64 - 12 - 0.5, 48 + 7.5 - 14, 12, 14)  # more than half the body: a wall
    m = huge.move(LEDGE, body, 3.0, 0.0, False)
    assert m.contacts.hit_right


def test_registry_entry_and_class_attributes():
    assert "sweep" in names()
    order = [n for n in names() if n in ("axis", "corners", "routing", "sweep", "overlap")]
    assert order.index("sweep") == len(order) - 2  # just before overlap
    cls = REGISTRY["sweep"]
    assert cls is SweepResolver and "prime31" in cls.article.author
    assert cls.axis_order == "x then y" and cls.supports_slopes and not cls.destination_only


def test_options_are_checked_like_config_values():
    fields = {f.name: f for f in dataclasses.fields(SweepOptions)}
    assert set(fields) == {"inset_x", "inset_y"}
    for f in fields.values():
        assert f.metadata["unit"] and f.type == "float"
        assert check_value(f, -1, f.name, "test") == -1.0
        assert check_value(f, 3, f.name, "test") == 3.0
        with pytest.raises(UserError):
            check_value(f, -2.0, f.name, "test")
        with pytest.raises(UserError):
            check_value(f, "big", f.name, "test")
    defaults = SweepOptions()
    assert defaults.inset_x < 0 and defaults.inset_y < 0  # auto: tile size / 8
    with pytest.raises(dataclasses.FrozenInstanceError):
        defaults.inset_x = 1.0  # type: ignore[misc]


def test_auto_inset_scales_with_the_tile():
    big = TileGrid.from_rows(["....", "....", ".###", "####"], tile_w=32)  # inset 4 px
    body = Body(32 - 12 - 0.5, 64 + 3.5 - 14, 12, 14)
    m = run(big, body, 3.0, 0.0)
    assert not m.contacts.hit_right and m.y + 14 == 64.0


def test_probed_cells_follow_the_path_and_outside_the_map_is_empty():
    grid = TileGrid.from_rows(["........", "......#.", "########"])
    m = SweepResolver().move(grid, Body(10.0, 18.0, 12, 14), 100.0, 0.0, False)
    assert m.x == 6 * T - 12 and m.contacts.hit_right
    cols = [c for c, _ in m.contacts.probed]
    assert cols[0] == 1  # the column the leading edge starts in comes first
    assert cols[-1] == 6 and set(cols) == set(range(1, 7))  # column by column to the wall
    assert all(cols[i] <= cols[i + 1] + 1 for i in range(len(cols) - 1))
    m = SweepResolver().move(grid, Body(-30.0, -80.0, 12, 14), -20.0, -50.0, False)
    assert m.x == -50.0 and m.y == -130.0
    m = SweepResolver().move(grid, Body(100.0, 200.0, 12, 14), 30.0, 60.0, False)
    assert m.x == 130.0 and m.y == 260.0


def test_one_way_tiles_judge_the_bottom_at_the_start_of_the_tick():
    # lifted above the platform's top earlier in the tick, but it started the tick below it
    body = Body(34.0, 20.0, 12, 10, tick_bottom=33.0)
    m = SweepResolver().move(ONE_WAY_MAP, body, 0.0, 5.0, False)
    assert m.y == 25.0 and not m.contacts.on_ground
    m = SweepResolver().move(ONE_WAY_MAP, Body(34.0, 20.0, 12, 10), 0.0, 5.0, False)
    assert m.y == 22.0 and m.contacts.on_ground
