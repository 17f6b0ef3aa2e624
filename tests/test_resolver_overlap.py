"""Tests of the ``overlap`` resolver: push out of every overlapping tile, largest intersection
first, along the axis of least separation; plus each departure from its article.

``article_resolve`` below is a plain reading of the article (largest area first, least overlap,
side picked by centres, every non-empty tile solid). Each fix is shown twice: the article's
version gets the case wrong, the resolver gets it right.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

import game.resolvers.overlap as overlap_module
from game.maps.grid import EPS, ONE_WAY, SLOPE, TileGrid
from game.resolvers import Body, create, move_body, names
from game.resolvers.fast.overlap import FastOverlap
from game.resolvers.base import (HIT_CEILING, HIT_RIGHT, ON_GROUND, Contacts, Move,
                                 overlapping_tiles)
from game.resolvers.overlap import OverlapOptions, OverlapResolver, overlapping_by_area, resolve

T = 16


def step(grid, body, dx, dy, drop=False):
    """One call to the resolver itself (no sub-steps)."""
    return OverlapResolver().move(grid, body, dx, dy, drop)


def run(grid, body, dx, dy, drop=False):
    """One call through the mover, as the game makes it."""
    m = move_body(create("overlap"), grid, body, dx, dy, drop_through=drop)
    assert no_overlap(grid, body, m, drop), m
    return m


def no_overlap(grid, body, m, drop=False):
    hits = overlapping_tiles(grid, m.x, m.y, body.w, body.h, body.bottom, False)
    return [c for c in hits if not (drop and grid.kind(*c) == ONE_WAY)] == []


def article_resolve(grid, body, dx, dy, largest_first=True):
    """The article as written: move, sort by area, push out along the smaller overlap."""
    x, y, w, h = body.x + dx, body.y + dy, body.w, body.h
    cells = []
    for row in grid.rows_between(y + EPS, y + h - EPS):
        for col in grid.cols_between(x + EPS, x + w - EPS):
            if grid.kind(col, row):
                ox = min(x + w, (col + 1) * T) - max(x, col * T)
                oy = min(y + h, (row + 1) * T) - max(y, row * T)
                cells.append((ox * oy, col, row))
    if largest_first:
        cells.sort(key=lambda c: -c[0])
    flags = {"on_ground": False, "hit_ceiling": False, "hit_left": False, "hit_right": False}
    for _, col, row in cells:
        ox = min(x + w, (col + 1) * T) - max(x, col * T)
        oy = min(y + h, (row + 1) * T) - max(y, row * T)
        if ox <= EPS or oy <= EPS:
            continue
        if ox < oy:
            if x + w / 2 < col * T + T / 2:
                x, flags["hit_right"] = col * T - w, True
            else:
                x, flags["hit_left"] = (col + 1) * T, True
        elif y + h / 2 < row * T + T / 2:
            y, flags["on_ground"] = row * T - h, True
        else:
            y, flags["hit_ceiling"] = (row + 1) * T, True
    return Move(x, y, Contacts(**flags))


# --- registration and shape ------------------------------------------------------------------

def test_registered_and_flags():
    assert "overlap" in names()
    r = create("overlap")
    assert isinstance(r, OverlapResolver)
    assert r.destination_only is True
    assert r.supports_slopes is True
    assert r.article.author == "Geoff Blair" and r.article.year == "2014"


def test_options_fields_state_unit_and_range():
    for f in dataclasses.fields(OverlapOptions):
        assert {"unit", "lo", "hi"} <= set(f.metadata)
        assert f.type in ("float", "int", "bool", "str")
    assert create("overlap", OverlapOptions(tie_px=0.0)).options.tie_px == 0.0


# --- the technique: every tile, largest intersection first -----------------------------------

def test_overlap_resolves_the_largest_area_first():
    # A 20x20 box at (10, 10) overlaps four tiles by 6x6, 14x6, 6x14 and 14x14.
    grid = TileGrid.from_rows(["##..", "##..", "...."])
    hits = overlapping_by_area(grid, 10.0, 10.0, 20.0, 20.0, 1.0, False, 30.0)
    assert [(a, c, r) for a, c, r, _ in hits] == [
        (196.0, 1, 1), (84.0, 1, 0), (84.0, 0, 1), (36.0, 0, 0)]
    natural = overlapping_by_area(grid, 10.0, 10.0, 20.0, 20.0, 1.0, False, 30.0,
                                  largest_first=False)
    assert [(c, r) for _, c, r, _ in natural] == [(0, 0), (1, 0), (0, 1), (1, 1)]


def test_trace_takes_tiles_largest_first_and_skips_freed_ones():
    # Landing on three floor tiles: the middle one (fully under the body) is taken first, and
    # its push frees the body from the two it only clips.
    grid = TileGrid.from_rows(["....", "....", "....", "####"])
    body = Body(12.0, 39.0, 24.0, 8.0)  # bottom 47, 1 px above the floor
    trace = []
    m = resolve(grid, body, 1.0, 3.0, trace=trace)  # x 13..37, bottom 50
    # the right tile (5 px of width) comes before the left one (3 px): area order, not row-major
    assert trace == [(1, 3, "y"), (2, 3, "freed"), (0, 3, "freed")]
    assert m.contacts.on_ground and not (m.contacts.hit_left or m.contacts.hit_right)
    assert (m.x, m.y) == (13.0, 3 * T - 8.0)


# The article's spear: long, thin, moving left and slightly up along a wall of two tiles above it.
SPEAR_MAP = TileGrid.from_rows(["......", "##....", "......", "......"])
SPEAR = Body(19.0, 2 * T, 24.0, 4.0)  # top on the wall's underside, left end 3 px past tile 0


def test_spear_slides_along_the_wall():
    m = run(SPEAR_MAP, SPEAR, -4.0, -2.0)  # clips tile (0, 1) by 1x2, tile (1, 1) by 16x2
    assert not m.contacts.hit_left
    assert m.contacts.hit_ceiling
    assert (m.x, m.y) == (15.0, 2 * T)
    # and it keeps sliding, tick after tick, to the map's edge
    body = Body(m.x, m.y, SPEAR.w, SPEAR.h)
    for _ in range(3):
        m = run(SPEAR_MAP, body, -4.0, -2.0)
        assert not m.contacts.hit_left and m.contacts.hit_ceiling
        assert (m.x, m.y) == (body.x - 4.0, 2 * T)
        body = Body(m.x, m.y, body.w, body.h)


def test_spear_trace_shows_the_big_tile_frees_the_corner_tile():
    trace = []
    resolve(SPEAR_MAP, SPEAR, -4.0, -2.0, trace=trace)
    assert trace == [(1, 1, "y"), (0, 1, "freed")]


def test_spear_in_natural_order_is_stopped_head_on():
    # Row-major order takes the clipped corner tile first; its least separation is sideways, so
    # the spear "hits the wall" and stops: the article's problem.
    trace = []
    m = resolve(SPEAR_MAP, SPEAR, -4.0, -2.0, largest_first=False, trace=trace)
    assert trace[0] == (0, 1, "x")
    assert m.contacts.hit_left and m.x == T
    # the option reaches the same code
    r = create("overlap", OverlapOptions(largest_first=False))
    assert move_body(r, SPEAR_MAP, SPEAR, -4.0, -2.0).contacts.hit_left
    # and the article's own reading agrees on both orders
    assert not article_resolve(SPEAR_MAP, SPEAR, -4.0, -2.0).contacts.hit_left
    assert article_resolve(SPEAR_MAP, SPEAR, -4.0, -2.0, largest_first=False).contacts.hit_left


def test_area_order_is_what_stops_the_seam_snag():
    # Landing on a floor while moving left across a seam: the tile on the left is clipped by
    # 1x3 (least separation: sideways), the one on the right by 11x3. With the inner-edge guard
    # off, area order alone decides.
    grid = TileGrid.from_rows(["....", "....", "####"])
    body = Body(16.5, 2 * T - 14.0 - 1.0, 12.0, 14.0)
    for largest_first, snags in ((True, False), (False, True)):
        m = resolve(grid, body, -1.5, 4.0, largest_first=largest_first, guard=False)
        assert m.contacts.hit_left is snags
        assert m.contacts.on_ground
    m = run(grid, body, -1.5, 4.0)
    assert (m.x, m.y) == (15.0, 2 * T - 14.0)
    assert not m.contacts.hit_left


# --- contacts --------------------------------------------------------------------------------

CONTACT_MAP = TileGrid.from_rows([".....", "..#..", "#...#", "..#.."])


@pytest.mark.parametrize("body, dx, dy, flag, pos", [
    (Body(2 * T + 4.0, 3 * T - 9.0, 8.0, 8.0), 0.0, 3.0, "on_ground", (2 * T + 4.0, 3 * T - 8.0)),
    (Body(2 * T + 4.0, 2 * T + 1.0, 8.0, 8.0), 0.0, -3.0, "hit_ceiling", (2 * T + 4.0, 2 * T)),
    (Body(4 * T - 9.0, 2 * T + 4.0, 8.0, 8.0), 3.0, 0.0, "hit_right", (4 * T - 8.0, 2 * T + 4.0)),
    (Body(T + 1.0, 2 * T + 4.0, 8.0, 8.0), -3.0, 0.0, "hit_left", (T, 2 * T + 4.0)),
])
def test_contacts_follow_the_push_direction(body, dx, dy, flag, pos):
    # pushed up: on_ground; down: hit_ceiling; left: hit_right; right: hit_left
    m = run(CONTACT_MAP, body, dx, dy)
    got = {k for k in ("on_ground", "hit_ceiling", "hit_left", "hit_right")
           if getattr(m.contacts, k)}
    assert got == {flag}
    assert (m.x, m.y) == pos


def test_probed_lists_the_cells_under_the_destination():
    grid = TileGrid.from_rows(["....", "....", "####"])
    m = step(grid, Body(10.0, 2 * T - 14.0, 12.0, 14.0), 0.0, 1.0)
    assert set(m.contacts.probed) == {(0, 1), (1, 1), (0, 2), (1, 2)}


# --- departure: push against the motion, and only on an axis whose edge was crossed ----------

@pytest.mark.parametrize("body, dx, dy, flag, pos", [
    # 4x8 body, 11 px right in one call: its centre passes the tile's, centres would tunnel it
    (Body(T - 4.0 - 0.0, T + 4.0, 4.0, 8.0), 11.0, 0.0, "hit_right", (T - 4.0, T + 4.0)),
    # 8x4 body falling 11 px onto a floor tile in one call: centres would push it down through
    (Body(T + 4.0, T - 4.0, 8.0, 4.0), 0.0, 11.0, "on_ground", (T + 4.0, T - 4.0)),
])
def test_never_pushed_along_its_motion(body, dx, dy, flag, pos):
    grid = TileGrid.from_rows(["....", ".#..", "...."])
    article = article_resolve(grid, body, dx, dy)
    assert not getattr(article.contacts, flag)  # left through the far side
    m = step(grid, body, dx, dy)
    assert getattr(m.contacts, flag)
    assert (m.x, m.y) == pos
    assert no_overlap(grid, body, m)


def test_falling_straight_down_onto_a_ledge_corner_lands():
    # One pixel of the body's width is over the ledge; it falls 4 px and sinks 2 px in: the
    # overlap is 1 wide and 2 tall, so least separation would push it off the ledge sideways.
    grid = TileGrid.from_rows(["....", "....", "..#.", "...."])
    body = Body(2 * T - 7.0, 2 * T - 8.0 - 2.0, 8.0, 8.0)
    assert article_resolve(grid, body, 0.0, 4.0).contacts.hit_right
    m = run(grid, body, 0.0, 4.0)
    assert m.contacts.on_ground and not m.contacts.hit_right
    assert (m.x, m.y) == (body.x, 2 * T - 8.0)


def test_sliding_onto_a_ledge_already_overhanging_lands():
    # The body already hangs 0.5 px over the platform and drifts 0.5 px further while falling
    # 3 px into it: x was never crossed in this move, so it cannot be the way out.
    grid = TileGrid.from_rows(["....", "....", "..#.", "...."])
    body = Body(2 * T - 11.5, 2 * T - 8.0, 12.0, 8.0)  # right edge 32.5, bottom on the top
    assert article_resolve(grid, body, 0.5, 3.0).contacts.hit_right
    m = run(grid, body, 0.5, 3.0)
    assert m.contacts.on_ground and not m.contacts.hit_right
    assert (m.x, m.y) == (body.x + 0.5, 2 * T - 8.0)


def test_rising_past_the_end_of_a_wall_is_not_pushed_down():
    # A wall hanging from above ends at y = 32; the body's top is already 0.5 px above that end.
    # Pressing 3 px into the wall while rising 0.5 px, it overlaps the wall's last tile 3 wide
    # and 1 tall. Least separation pushes it down, back past where it started, as if it had hit
    # a ceiling; but it never crossed that tile's bottom edge in this move, only its side.
    grid = TileGrid.from_rows(["..#.", "..#.", "....", "...."])
    body = Body(2 * T - 8.0, 2 * T - 0.5, 8.0, 8.0)
    assert article_resolve(grid, body, 3.0, -0.5).contacts.hit_ceiling
    m = run(grid, body, 3.0, -0.5)
    assert m.contacts.hit_right and not m.contacts.hit_ceiling
    assert (m.x, m.y) == (2 * T - 8.0, 2 * T - 1.0)


# --- departure: ties and near-ties ------------------------------------------------------------

def test_near_tie_landing_on_a_corner_lands():
    # Falling 4 and moving 2 onto a platform's top-left corner: 1.8 px of its width and 2 px of
    # its height are inside. Least separation (or tie_px = 0) knocks it off the side.
    grid = TileGrid.from_rows(["....", "....", "..#.", "...."])
    body = Body(2 * T - 8.0 - 0.2, 2 * T - 8.0 - 2.0, 8.0, 8.0)
    assert article_resolve(grid, body, 2.0, 4.0).contacts.hit_right
    assert resolve(grid, body, 2.0, 4.0, tie_px=0.0).contacts.hit_right
    m = run(grid, body, 2.0, 4.0)
    assert m.contacts.on_ground and not m.contacts.hit_right
    assert (m.x, m.y) == (body.x + 2.0, 2 * T - 8.0)


def test_near_tie_goes_to_the_axis_moved_farther():
    # Same corner, but running fast and falling slowly: the side was crossed last, it hits it.
    grid = TileGrid.from_rows(["....", "....", "..#.", "...."])
    body = Body(2 * T - 8.0 - 2.2, 2 * T - 8.0 - 0.2, 8.0, 8.0)
    m = step(grid, body, 4.0, 2.0)  # x overlap 1.8, y overlap 1.8: an exact tie
    assert m.contacts.hit_right and not m.contacts.on_ground


def test_exact_tie_with_equal_motion_lands():
    grid = TileGrid.from_rows(["....", "....", "..#.", "...."])
    body = Body(2 * T - 8.0 - 1.0, 2 * T - 8.0 - 1.0, 8.0, 8.0)
    m = step(grid, body, 3.0, 3.0)
    assert m.contacts.on_ground and not m.contacts.hit_right
    assert (m.x, m.y) == (body.x + 3.0, 2 * T - 8.0)


# --- departure: no push into another tile -------------------------------------------------------

def test_equal_areas_at_a_seam_do_not_snag():
    # A 4 px wide body lands while moving left across a seam, 2 px on each side: both tiles are
    # overlapped 2x3, row-major order takes the left one first, and its least separation is
    # sideways, into the right tile. The guard turns that into the push up.
    grid = TileGrid.from_rows(["....", "....", "####"])
    body = Body(float(T), 2 * T - 8.0 - 1.0, 4.0, 8.0)
    unguarded = resolve(grid, body, -2.0, 4.0, guard=False)
    assert unguarded.contacts.hit_left
    m = run(grid, body, -2.0, 4.0)
    assert not m.contacts.hit_left and m.contacts.on_ground
    assert (m.x, m.y) == (T - 2.0, 2 * T - 8.0)


def test_equal_areas_on_a_wall_seam_do_not_snag():
    # The same on a wall: rising while pressed into it, across the seam between two wall tiles,
    # 2 px into each. Row-major order takes the upper tile first; its two pushes tie, and the
    # push down (as if from a ceiling) would sink the body into the lower tile.
    grid = TileGrid.from_rows(["..#.", "..#.", "..#.", "..#."])
    body = Body(2 * T - 4.0, float(T), 4.0, 4.0)  # touching the wall, top on the seam
    assert resolve(grid, body, 2.0, -2.0, guard=False).contacts.hit_ceiling
    m = run(grid, body, 2.0, -2.0)
    assert m.contacts.hit_right and not m.contacts.hit_ceiling
    assert (m.x, m.y) == (body.x, T - 2.0)


def test_a_tile_entered_by_a_push_is_resolved_in_a_further_round():
    # Rising along a wall on its left: the only way out of the wall tile is right (the body was
    # already beside it), and that push moves its right end under a ceiling tile it did not
    # overlap after the move. The re-check finds it and pushes the body down out of it.
    grid = TileGrid.from_rows(["....", "..#.", "#...", "...."])
    body = Body(float(T), 2 * T + 1.0, 18.0, 8.0)  # x 16..34: right end under the ceiling tile
    m = run(grid, body, -2.0, -2.0)  # x 14..32 misses the ceiling tile, y 31..39 enters it
    assert (m.x, m.y) == (T, 2 * T)
    assert m.contacts.hit_left and m.contacts.hit_ceiling


# --- resting, running, sliding: no snag on inner edges -------------------------------------------

@pytest.mark.parametrize("w, h", [(12.0, 14.0), (16.0, 16.0), (5.0, 3.0), (40.0, 40.0)])
def test_resting_on_a_floor_of_many_tiles(w, h):
    grid = TileGrid.from_rows(["." * 8] * 5 + ["#" * 8])
    body = Body(T - w / 2, 5 * T - h, w, h)  # across a seam
    for _ in range(20):
        m = run(grid, body, 0.0, 1500.0 / 3600.0)
        assert m.contacts.on_ground
        assert (m.x, m.y) == (body.x, body.y)


@pytest.mark.parametrize("w, h", [(12.0, 14.0), (16.0, 16.0), (5.0, 3.0), (40.0, 40.0)])
@pytest.mark.parametrize("dx", [130.0 / 60.0, -130.0 / 60.0, 0.3, 7.9])
def test_running_along_a_floor_across_seams(w, h, dx):
    grid = TileGrid.from_rows(["." * 20] * 5 + ["#" * 20])
    body = Body(10 * T - w / 2, 5 * T - h, w, h)
    for _ in range(12):
        m = run(grid, body, dx, 1500.0 / 3600.0)
        assert m.contacts.on_ground
        assert not (m.contacts.hit_left or m.contacts.hit_right)
        assert m.x == pytest.approx(body.x + dx, abs=1e-9) and m.y == body.y
        body = Body(m.x, m.y, w, h)


@pytest.mark.parametrize("w, h", [(12.0, 14.0), (16.0, 16.0), (5.0, 3.0), (40.0, 40.0)])
@pytest.mark.parametrize("side", [1, -1])
def test_sliding_down_a_wall_of_many_tiles(w, h, side):
    grid = TileGrid.from_rows(["#.......#"] * 10)
    x = 8 * T - w if side > 0 else T
    body = Body(x, 0.0, w, h)
    vy = 0.0
    for _ in range(40):
        vy = min(vy + 1500.0 / 3600.0, 8.0)
        m = run(grid, body, side * 2.0, vy)
        assert not m.contacts.on_ground and not m.contacts.hit_ceiling
        assert m.contacts.hit_right if side > 0 else m.contacts.hit_left
        assert m.x == x and m.y == pytest.approx(body.y + vy)
        body = Body(m.x, m.y, w, h)
        if body.bottom > 9 * T:
            break


def test_rising_along_a_wall_of_many_tiles():
    grid = TileGrid.from_rows(["#.......#"] * 10)
    body = Body(8 * T - 12.0, 8 * T, 12.0, 14.0)
    for _ in range(20):
        m = run(grid, body, 2.0, -5.0)
        assert not m.contacts.hit_ceiling and m.contacts.hit_right
        assert (m.x, m.y) == (body.x, body.y - 5.0)
        body = Body(m.x, m.y, body.w, body.h)


def test_tile_sized_body_drops_through_a_one_tile_gap_and_walks_a_tunnel():
    grid = TileGrid.from_rows(["....", "#.##", "#.##", "...."])
    body = Body(T, 0.0, T, T)
    for _ in range(8):
        m = run(grid, body, 0.0, 6.0)
        assert not (m.contacts.hit_left or m.contacts.hit_right or m.contacts.on_ground)
        body = Body(m.x, m.y, T, T)
    grid = TileGrid.from_rows(["######", "......", "######"])
    body = Body(0.0, T, T, T)
    for _ in range(8):
        m = run(grid, body, 5.0, 0.0)
        assert not (m.contacts.hit_left or m.contacts.hit_right)
        assert m.x == body.x + 5.0 and m.y == T
        body = Body(m.x, m.y, T, T)


# --- one-way tiles ---------------------------------------------------------------------------

ONE_WAY_MAP = TileGrid.from_rows(["......", "......", "..==..", "......", "######"])


def test_one_way_lands_from_above():
    body = Body(2 * T + 2.0, 2 * T - 8.0 - 1.0, 8.0, 8.0)
    m = run(ONE_WAY_MAP, body, 0.0, 4.0)
    assert m.contacts.on_ground and m.contacts.on_one_way
    assert m.y == 2 * T - 8.0


def test_one_way_is_never_left_sideways():
    # Landing on the platform's left corner: 1 px of width, 3 px of height inside. A solid tile
    # would be a coin toss; a one-way tile is only ever left upwards.
    body = Body(2 * T - 8.0, 2 * T - 8.0 - 1.0, 8.0, 8.0)
    assert article_resolve(ONE_WAY_MAP, body, 1.0, 4.0).contacts.hit_right
    m = run(ONE_WAY_MAP, body, 1.0, 4.0)
    assert m.contacts.on_ground and not m.contacts.hit_right
    assert (m.x, m.y) == (body.x + 1.0, 2 * T - 8.0)


def test_one_way_does_not_block_sideways_or_from_below():
    side = Body(T, 2 * T + 4.0, 8.0, 8.0)  # at the platform's height, moving into it
    for _ in range(6):
        m = run(ONE_WAY_MAP, side, 3.0, 0.0)
        assert m.contacts == Contacts(probed=m.contacts.probed)
        side = Body(m.x, m.y, 8.0, 8.0)
    below = Body(2 * T + 4.0, 3 * T + 2.0, 8.0, 8.0)
    for _ in range(8):
        m = run(ONE_WAY_MAP, below, 0.0, -4.0)
        assert not m.contacts.hit_ceiling and m.y == below.y - 4.0
        below = Body(m.x, m.y, 8.0, 8.0)


def test_one_way_ignored_when_already_below_its_top_or_dropping():
    inside = Body(2 * T + 4.0, 2 * T - 8.0 + 3.0, 8.0, 8.0)  # bottom 3 px under the top
    m = run(ONE_WAY_MAP, inside, 0.0, 2.0)
    assert not m.contacts.on_ground and m.y == inside.y + 2.0
    resting = Body(2 * T + 4.0, 2 * T - 8.0, 8.0, 8.0)
    m = run(ONE_WAY_MAP, resting, 0.0, 2.0, drop=True)
    assert not m.contacts.on_ground and m.y == resting.y + 2.0


# --- edges and odd starts ----------------------------------------------------------------------

def test_outside_the_map_never_collides_or_crashes():
    grid = TileGrid.from_rows(["####", "....", "####"])
    for body, dx, dy in ((Body(10.0, -40.0, 8.0, 8.0), 3.0, -5.0),
                         (Body(10.0, 3 * T + 5.0, 8.0, 8.0), 0.0, 30.0),
                         (Body(10.0, -8.0, 8.0, 8.0), 2.0, 0.0)):
        m = run(grid, body, dx, dy)
        assert (m.x, m.y) == (body.x + dx, body.y + dy)
        assert not (m.contacts.on_ground or m.contacts.hit_ceiling)


def test_body_starting_inside_a_tile_takes_the_short_way_out():
    grid = TileGrid.from_rows(["....", ".#..", "...."])
    m = step(grid, Body(T + 13.0, T + 4.0, 8.0, 8.0), 0.0, 0.0)  # 3 px in from the right side
    assert (m.x, m.y) == (2 * T, T + 4.0) and m.contacts.hit_left


def test_no_overlap_and_no_tunnelling_on_random_maps():
    rnd = random.Random(4)
    r = create("overlap")
    checked = 0
    while checked < 400:
        grid = TileGrid.from_rows(["".join(rnd.choice("...#") for _ in range(8))
                                   for _ in range(8)])
        w, h = rnd.choice([4.0, 12.0, 16.0, 5.5, 33.0]), rnd.choice([3.0, 14.0, 16.0, 40.0])
        x, y = rnd.uniform(0, 8 * T - w), rnd.uniform(-8, 8 * T)
        if overlapping_tiles(grid, x, y, w, h, y + h, False):
            continue
        dx, dy = rnd.uniform(-4 * T, 4 * T), rnd.uniform(-4 * T, 4 * T)
        body = Body(x, y, w, h)
        m = move_body(r, grid, body, dx, dy)
        assert no_overlap(grid, body, m), (grid.kinds, body, dx, dy, m)
        # never behind where it started on an axis it moved along
        assert (m.x - x) * dx >= -EPS and (m.y - y) * dy >= -EPS
        checked += 1


# --- one-way tiles judged at the tick's start: the lift only when there is room ---------------

def test_one_way_met_from_beside_late_in_a_tick_is_lifted_when_there_is_room():
    # The tick began with the bottom 2 px above the platform; the second sub-step reaches its
    # column with the bottom already 1 px below the top. The platform still counts, and with
    # nothing on it the body is lifted onto it.
    grid = TileGrid.from_rows(["....", "....", "..==", "...."])
    body = Body(20.0, 20.0, 10.0, 10.0)
    m = run(grid, body, 4.0, 6.0)
    assert (m.x, m.y) == (24.0, 22.0) and m.contacts.on_ground
    assert not (m.contacts.hit_left or m.contacts.hit_right)


# The bug: the lift onto the platform put the body inside the solid tile sitting on it, whose
# sideways push then moved it back out of the platform's column, the lift kept.
CAPPED_END = TileGrid.from_rows(["..##", "..==", "....", "...."])


def test_capped_platform_end_is_a_wall_for_the_sub_step_that_meets_it():
    # Third sub-step of the tick below by hand: bottom 3 px above the platform's top at the start
    # of the tick, 1 px below it now, 0.1 px left of its column, moving 0.25 right and 2 down.
    body = Body(27.9, 15.0, 4.0, 4.0, tick_bottom=15.0)
    trace = []
    m = resolve(CAPPED_END, body, 0.25, 2.0, trace=trace)
    assert trace == [(2, 1, "x")]  # the one-way tile itself stops it: no lift, no push back
    assert (m.x, m.y) == (28.0, 17.0)
    assert m.contacts.hit_right and not m.contacts.on_ground
    assert not overlapping_tiles(CAPPED_END, m.x, m.y, 4.0, 4.0, 15.0, False)


def test_small_body_falling_past_a_capped_platform_end_keeps_falling():
    m = run(CAPPED_END, Body(27.4, 11.0, 4.0, 4.0), 1.5, 12.0)
    assert (m.x, m.y) == (28.0, 23.0)  # stopped at the platform's end, the whole fall kept
    assert m.contacts.hit_right and not m.contacts.on_ground
    # the other resolvers agree
    for name in ("axis", "corners", "sweep", "routing"):
        if name in names():
            other = move_body(create(name), CAPPED_END, Body(27.4, 11.0, 4.0, 4.0), 1.5, 12.0)
            assert (other.x, other.y) == pytest.approx((28.0, 23.0)), name


def test_no_ground_over_nothing_beside_a_capped_platform():
    # A run-speed step whose last sub-step reaches the platform's column 2 px below its top:
    # the tick ends beside the platform, falling, not standing on air.
    grid = TileGrid.from_rows(["......", "...#..", "...=..", "......", "######"])
    body = Body(48.0 - 4.0 - (130.0 / 60.0) * 0.875, 28.0, 4.0, 4.0)
    m = run(grid, body, 130.0 / 60.0, 8.0)
    assert (m.x, m.y) == (44.0, 36.0)
    assert m.contacts.hit_right and not m.contacts.on_ground and not m.contacts.on_one_way


# --- slopes: the solid part under the surface is what overlaps --------------------------------

def test_a_slope_overlaps_by_the_area_under_its_surface():
    grid = TileGrid.from_rows(["....", "./..", "####"])
    # a 16x16 box over the whole '/' tile: half of the tile is under the surface
    hits = overlapping_by_area(grid, 16.0, 16.0, 16.0, 16.0, 1.0, False, 32.0)
    assert hits == [(128.0, 1, 1, SLOPE)]
    # a box over the right half, its bottom 4 px under the surface at its left edge (x=24) and
    # 12 px under it at its right edge (x=32): a trapezoid
    hits = overlapping_by_area(grid, 24.0, 12.0, 8.0, 16.0, 1.0, False, 28.0)
    assert hits == [(pytest.approx(8.0 * (4.0 + 12.0) / 2), 1, 1, SLOPE)]
    # above the surface: no overlap at all
    assert overlapping_by_area(grid, 16.0, 10.0, 8.0, 12.0, 1.0, False, 22.0) == []


def test_walking_up_a_slope_leaves_it_through_the_surface():
    """Up a 45-degree slope the push up and the push back are equal: the tie goes to the
    surface, and the body climbs at full speed. A steeper step is left along x (a wall)."""
    grid = TileGrid.from_rows(["....", "./..", "####"])
    trace = []
    m = resolve(grid, Body(8.0, 20.0, 8.0, 12.0), 3.0, 0.5, trace=trace)  # right edge 16 -> 19
    assert (m.x, m.y) == (11.0, 32.0 - 3.0 - 12.0) and m.contacts.on_ground
    assert trace[0] == (1, 1, "y") and {what for _c, _r, what in trace[1:]} == {"freed"}
    # a tall half tile ('h', 12 px high): a step, left along x (a wall)
    grid = TileGrid.from_rows(["....", "..h.", "####"], slope_chars={"h": (12.0, 12.0)})
    m = resolve(grid, Body(22.0, 20.0, 8.0, 12.0), 3.0, 0.5)
    assert m.x == 24.0 and m.contacts.hit_right and m.contacts.on_ground


# --- the short answers: the same as the rounds, and taken where they should be -------------------

def rounds(grid, x, y, w, h, dx, dy, owb, drop, probe, options=OverlapOptions()):
    """The technique's rounds alone (resolve_box), as move_box would call them."""
    return overlap_module.resolve_box(grid, x, y, w, h, dx, dy, owb, drop, options.tie_px,
                                      options.largest_first, True, None, probe)


def test_short_answers_agree_with_the_rounds_on_random_moves():
    # Floors, ceilings, walls and empty space, with slopes and one-way tiles about: the fast
    # twin's move_box (short answers where it can) and the rounds alone give the same position
    # and flags, bit for bit; asked for the probed cells, it hands the move to the rounds.
    rng = random.Random(21)
    kinds = "....####=/\\h"
    for _ in range(300):
        rows = ["".join(rng.choice(kinds) for _c in range(6)) for _r in range(6)]
        if rng.random() < 0.5:
            rows[rng.randrange(6)] = "#" * 6
        grid = TileGrid.from_rows(rows, slope_chars={"h": (8.0, 8.0)})
        options = OverlapOptions(largest_first=rng.random() < 0.8)
        resolver = FastOverlap(options)
        for _ in range(30):
            w, h = rng.choice([4.0, 12.0, 16.0, 20.0, 35.5]), rng.choice([6.0, 14.0, 16.0, 30.0])
            x = rng.choice([rng.uniform(-8, 100), float(rng.randrange(7) * T) - w])
            y = rng.choice([rng.uniform(-8, 100), float(rng.randrange(7) * T) - h])
            dx = rng.choice([0.0, 1e-7, rng.uniform(-8, 8), 5.0, -5.0])
            dy = rng.choice([0.0, rng.uniform(-8, 8), 1.0, 1500.0 / 3600.0, -4.0])
            drop = rng.random() < 0.2
            got = resolver.move_box(grid, x, y, w, h, dx, dy, y + h, drop, None)
            want = rounds(grid, x, y, w, h, dx, dy, y + h, drop, None, options)
            assert repr(got) == repr(want), (rows, x, y, w, h, dx, dy, drop)
            mine, theirs = [], []
            got = resolver.move_box(grid, x, y, w, h, dx, dy, y + h, drop, mine)
            want = rounds(grid, x, y, w, h, dx, dy, y + h, drop, theirs, options)
            assert repr(got) == repr(want) and mine == theirs, (rows, x, y, w, h, dx, dy, drop)


@pytest.mark.parametrize("x, y, dx, dy, expected", [
    (40.0, 20.0, 5.0, 3.0, (45.0, 23.0, 0)),  # nothing there
    (40.0, 5 * T - 14.0, 5.0, 1.0, (45.0, 5 * T - 14.0, ON_GROUND)),  # standing on the floor
    (T - 12.0 + 3.0, 5 * T - 14.0, 3.0, 1.0, (T - 9.0 + 3.0, 5 * T - 14.0, ON_GROUND)),  # a seam
    (40.0, 5 * T - 20.0, -2.0, 9.0, (38.0, 5 * T - 14.0, ON_GROUND)),  # landing
    (40.0, T + 2.0, 1.0, -4.0, (41.0, float(T), HIT_CEILING)),  # a ceiling bumped
    (5 * T - 12.0, 2 * T, 4.0, 2.0, (5 * T - 12.0, 2 * T + 2.0, HIT_RIGHT)),  # a wall
])
def test_plain_floors_ceilings_and_walls(x, y, dx, dy, expected):
    """The lesson's rounds and play's twin give the plain answers (the twin answers these
    without the rounds: tools/bench.py shows what that saves)."""
    grid = TileGrid.from_rows(["######", "......", ".....#", ".....#", "......", "######"])
    assert rounds(grid, x, y, 12.0, 14.0, dx, dy, y + 14.0, False, None) == expected
    assert FastOverlap().move_box(grid, x, y, 12.0, 14.0, dx, dy, y + 14.0, False,
                                  None) == expected
