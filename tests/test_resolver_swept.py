"""``swept`` on its own: the swept-AABB behaviour the shared suite does not ask for.

Continuous motion (a diagonal that passes a corner the axis-at-a-time resolvers catch), the
slide after a hit, seams taken in order of hits, slopes followed at full horizontal speed, the
fall that resumes when a slide leaves a floor, one-way tiles' sides, and the tie-break.
"""

from __future__ import annotations

import math

import pytest
from helpers import Body, floor_below, step

from game.maps.grid import EMPTY, EPS, SOLID, TileGrid
from game.resolvers import create
from game.resolvers.base import HIT_CEILING, HIT_LEFT, HIT_RIGHT, ON_GROUND
from game.resolvers.fast.swept import _off_a_ledge, along_wall, ceiling, enters, landing

T = 16


@pytest.fixture
def swept():
    return create("swept")


def test_a_fast_diagonal_passes_a_corner_that_x_then_y_catches(swept):
    """The body's bottom passes the step's top before its front reaches the step: continuous
    motion misses the step; moving the whole x first (pixel) lands on it."""
    grid = TileGrid.from_rows(["......", "......", "...###", "######"], T)
    body = Body(3 * T - 13, 2 * T - 14 - 1, 12, 14)  # 1 px above the step's top, 1 px short
    m = step(swept, grid, body, 4.0, 20.0)
    assert m.contacts.hit_right and m.x == 3 * T - 12  # stopped by the step's side...
    assert m.y == pytest.approx(3 * T - 14)  # ...and slid down it onto the floor
    assert m.contacts.on_ground
    caught = step(create("pixel"), grid, body, 4.0, 20.0)
    assert caught.y == 2 * T - 14 and caught.x == pytest.approx(3 * T - 9)


def test_the_slide_keeps_the_motion_along_the_face(swept):
    grid = TileGrid.from_rows(["......", "......", "......", "######"], T)
    m = step(swept, grid, Body(T, 3 * T - 14 - 4, 12, 14), 6.0, 12.0)
    # lands a third of the way, then slides the rest of the sideways motion
    assert m.y == 3 * T - 14 and m.x == pytest.approx(T + 6.0) and m.contacts.on_ground


def test_running_over_floor_seams_under_gravity_keeps_full_speed(swept):
    grid = TileGrid.from_rows(["." * 30, "#" * 30], T)
    x = 2.0
    for _ in range(150):
        m = step(swept, grid, Body(x, T - 14, 12, 14), 130 / 60, 25 / 60)
        assert m.contacts.on_ground and not m.contacts.hit_right and m.y == T - 14
        x = m.x
    assert x == pytest.approx(2.0 + 150 * 130 / 60)


def test_walking_up_a_slope_keeps_horizontal_speed(swept):
    grid = TileGrid.from_rows(["........", "...../##", "..../###", "########"], T)
    x = 4 * T + 2
    m = step(swept, grid, Body(x, grid.surface_top(4, 2, x, x + 12) - 14, 12, 14), 3.0, 0.3)
    assert m.x == pytest.approx(x + 3.0) and m.contacts.on_ground
    # resting on the surface's highest point under the body
    assert m.y + 14 == pytest.approx(floor_below(grid, m.x, 12, m.y + 14, True))


def test_a_slide_off_a_floor_s_end_falls_for_the_rest_of_the_tick(swept):
    grid = TileGrid.from_rows(["......", "......", "##....", "......", "......"], T)
    m = step(swept, grid, Body(2 * T - 4, 2 * T - 14, 12, 14), 8.0, 4.0)
    assert not m.contacts.on_ground and m.x == pytest.approx(2 * T + 4)
    # left the floor after 4 of the 8 px: half of the tick's fall is left
    assert m.y == pytest.approx(2 * T - 14 + 4.0 * (8 - 4) / 8)


def test_a_one_way_platform_s_side_stops_a_body_already_below_its_top(swept):
    grid = TileGrid.from_rows(["........", "........", "....====", "........", "########"], T)
    # falling from above its top, past its end: the continuous path meets its side
    m = step(swept, grid, Body(4 * T - 13, 2 * T - 14 - 1, 12, 14), 4.0, 12.0)
    assert m.contacts.hit_right and m.x == 4 * T - 12
    # and from above its top within reach of it: it lands
    m = step(swept, grid, Body(4 * T - 10, 2 * T - 14 - 1, 12, 14), 0.0, 12.0)
    assert m.contacts.on_ground and m.y == 2 * T - 14


def test_an_exact_corner_tie_on_a_lone_tile_is_a_landing(swept):
    # the body's bottom right corner meets the tile's top left corner exactly half way
    lone = TileGrid.from_rows(["......", "......", "...#..", "......"], T)
    m = step(swept, lone, Body(3 * T - 12 - 4, 2 * T - 14 - 4, 12, 14), 8.0, 8.0)
    assert m.contacts.on_ground and m.y == 2 * T - 14 and m.x == pytest.approx(3 * T - 8)
    assert not m.contacts.hit_right


# The usual moves answered without the passes (no probed cells wanted) must give the passes'
# numbers to the last bit: a landing, a wall met sideways, walks by a floor's end, a free fall.
ROOM = TileGrid.from_rows(["........", "........", "#......#", "#......#", "#....###",
                           "########"], T)
USUAL = {
    "landing": (Body(2 * T + 0.3, 5 * T - 14 - 4.7, 12, 14), 2.5, 6.0, ON_GROUND),
    "landing straight down": (Body(2 * T + 0.3, 5 * T - 14 - 4.7, 12, 14), 0.0, 6.0, ON_GROUND),
    "wall, rising": (Body(T + 0.0, 2 * T + 3.0, 12, 14), -5.0, -7.0, HIT_LEFT),
    "wall, falling, from 2 px off": (Body(T + 2.0, 2 * T + 3.0, 12, 14), -5.0, 7.0, HIT_LEFT),
    "wall, ahead": (Body(7 * T - 12 - 1.5, 2 * T + 3.0, 12, 14), 4.0, 3.0, HIT_RIGHT),
    "walk by a floor's end": (Body(5 * T + 1.0, 4 * T - 14, 12, 14), -3.0, 0.5, ON_GROUND),
    "walk": (Body(2 * T + 1.0, 5 * T - 14, 12, 14), 3.0, 0.5, ON_GROUND),
    "free fall": (Body(3 * T + 1.0, T + 0.5, 12, 14), 3.0, 5.0, 0),
    "landing on a floor's end": (Body(5 * T - 10.0, 4 * T - 17.0, 12, 14), -1.0, 6.0,
                                 ON_GROUND),
    "walk off a floor's end": (Body(5 * T - 10.0, 4 * T - 14, 12, 14), -3.0, 0.5, 0),
    "leaving a wall": (Body(T + 0.0, 2 * T + 3.0, 12, 14), 3.0, 2.0, 0),
    "pressed to a wall, falling": (Body(6 * T + 4.0, 2 * T + 3.0, 12, 14), 5.0, 2.0,
                                   HIT_RIGHT),
}


CEILING = TileGrid.from_rows(["###.....", "........", "........", "########"], T)


@pytest.mark.parametrize("body, dx, dy", [
    (Body(T + 1.0, T + 3.0, 12, 14), 2.0, -6.0),  # under the ceiling, sliding on after it
    (Body(T + 1.0, T + 3.0, 12, 14), 0.0, -6.0),  # straight up: no slide, y stays the int
    (Body(2 * T + 2.0, T + 3.0, 12, 14), 3.0, -6.0),  # under its end, going past it
])
def test_a_rise_into_a_ceiling_is_answered_without_the_passes_as_they_answer_it(swept, body,
                                                                                 dx, dy):
    c0, c1 = math.floor((body.x + min(dx, 0.0) - EPS) / T), math.ceil(
        (body.x + body.w + max(dx, 0.0) + EPS) / T)
    r1 = math.ceil((body.y + body.h + EPS) / T)
    met = ceiling(CEILING, body.x, body.y, body.w, body.h, dx, dy, c0, c1, r1)
    assert met is not None and met[1] == T and met[2] == HIT_CEILING
    passes = swept.move_box(CEILING, body.x, body.y, body.w, body.h, dx, dy, body.y + body.h,
                            False, [])
    assert same(met, passes)
    assert same(swept.move_box(CEILING, body.x, body.y, body.w, body.h, dx, dy,
                               body.y + body.h, False, None), passes)


def same(a, b):
    return [(type(v), repr(v)) for v in a] == [(type(v), repr(v)) for v in b]


@pytest.mark.parametrize("name", USUAL)
def test_a_usual_move_answered_without_the_passes_is_theirs_to_the_last_bit(swept, name):
    body, dx, dy, flag = USUAL[name]
    args = (ROOM, body.x, body.y, body.w, body.h, dx, dy, body.y + body.h, False)
    quick, passes = swept.move_box(*args, None), swept.move_box(*args, [])
    assert same(quick, passes)
    assert quick[2] == flag


def test_the_landing_and_wall_shortcuts_are_taken_and_agree(swept):
    """The fast twin's shortcuts answer these (not None), with the passes' numbers."""
    x, y, w, h, dx, dy = 2 * T + 0.3, 5 * T - 14 - 4.7, 12, 14, 2.5, 6.0
    c0, c1 = math.floor((x - EPS) / T), math.ceil((x + w + dx + EPS) / T)
    r0 = math.floor((y - EPS) / T)
    landed = landing(ROOM, x, y, w, h, dx, dy, c0, c1, r0, y + h)
    assert landed is not None
    assert same(landed, swept.move_box(ROOM, x, y, w, h, dx, dy, y + h, False, []))
    # on a floor's end: the row under the broad phase half empty
    x, y, dx = 5 * T - 10.0, 4 * T - 17.0, -1.0
    c0, c1 = math.floor((x + dx - EPS) / T), math.ceil((x + w + EPS) / T)
    r0 = math.floor((y - EPS) / T)
    assert ROOM.kind(c0, 4) == EMPTY
    landed = landing(ROOM, x, y, w, h, dx, dy, c0, c1, r0, y + h)
    assert landed is not None and landed[2] == ON_GROUND
    assert same(landed, swept.move_box(ROOM, x, y, w, h, dx, dy, y + h, False, []))
    x, y, dx, dy = T + 2.0, 2 * T + 3.0, -5.0, 7.0
    c0, c1 = math.floor((x + dx - EPS) / T), math.ceil((x + w + EPS) / T)
    r0, r1 = math.floor((y - EPS) / T), math.ceil((y + h + dy + EPS) / T)
    along = along_wall(ROOM, x, y, w, h, dx, dy, c0, c1, r0, r1)
    assert along is not None and along[0] == T and along[2] == HIT_LEFT
    assert same(along, swept.move_box(ROOM, x, y, w, h, dx, dy, y + h, False, []))
    # leaving a wall it touches: its column is in the broad phase, entered by no motion
    x, y, dx, dy = T + 0.0, 2 * T + 3.0, 3.0, 2.0
    c0, c1 = math.floor((x - EPS) / T), math.ceil((x + w + dx + EPS) / T)
    r0, r1 = math.floor((y - EPS) / T), math.ceil((y + h + dy + EPS) / T)
    assert ROOM.kind(c0, r0) == SOLID
    assert not enters(ROOM, x, y, w, h, dx, dy, c0, c1, r0, r1)
    assert enters(ROOM, x, y, w, h, -dx, dy, 0, c1, r0, r1)  # (back into it)
    # off a floor's end: the slide to it, then the fall, from the passes' numbers
    x, y, dx, dy = 5 * T - 10.0, 4 * T - 14.0, -3.0, 0.5
    fell = _off_a_ledge(ROOM, x, y, w, h, dx, dy, y + h)
    assert fell is not None and fell[2] == 0 and fell[1] > y
    assert same(fell, swept.move_box(ROOM, x, y, w, h, dx, dy, y + h, False, []))


@pytest.mark.parametrize("lesson", [True, False])
@pytest.mark.parametrize("dx", [0.0, 0.5, 1.0])
def test_a_body_in_a_notch_between_steep_slopes_stays_out_of_both(lesson, dx):
    """Issue 34: on 8x24 tiles a body rests in a notch, its bottom left on a steep '\\' slope's
    high corner and its bottom right at a steep '/' slope's foot. The slide down the '\\' meets
    the '/' side, and the snap onto that side (a rounding error back along x) put the body 3 times
    that error under the '\\' surface: once taken as "deeper inside" and let out, it fell in."""
    grid = TileGrid.from_rows(['..........', '..........', '..........', '.../......',
                               '..\\.......', '##########'], 8, 24)
    step(create("swept", lesson=lesson), grid, Body(16.00000066666667, 76.00000200000001, 8.0,
                                                    20.0),
         dx, 0.20833333333333334, was_on_ground=True)
