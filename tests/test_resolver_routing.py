"""The ``routing`` resolver: its routing table, its per-side functions, the faces it removes
between tiles (and the snag that comes back without that), and its slopes."""

from __future__ import annotations

import math

import pytest
from helpers import RUN_PER_TICK, Walker, examples, floor_below, step
from hypothesis import given, settings
from hypothesis import strategies as st

from game.maps.grid import ONE_WAY, SLOPE, SOLID, TileGrid
from game.resolvers import create, move_body, move_box
from game.resolvers import routing as routing_mod
from game.resolvers.base import (HIT_CEILING, HIT_RIGHT, ON_GROUND, Body,
                                 overlapping_tiles)
from game.resolvers.fast.routing import FastRouting
from game.resolvers.routing import ROUTES, RoutingOptions, RoutingResolver, faces_of

SIDES = ("top", "bottom", "left", "right", "slope")
SHALLOW = {"a": (0.0, 8.0), "b": (8.0, 16.0), "c": (16.0, 8.0), "d": (8.0, 0.0)}


def record_sides(resolver: RoutingResolver) -> list[tuple[int, int, str]]:
    """Wrap the side functions of this one resolver instance; returns the (col, row, side) log."""
    calls: list[tuple[int, int, str]] = []
    for side in SIDES:
        original = getattr(resolver, "side_" + side)

        def wrapper(s, grid, col, row, kind, face, _side=side, _original=original):
            calls.append((col, row, _side))
            return _original(s, grid, col, row, kind, face)

        setattr(resolver, "side_" + side, wrapper)
    return calls


def sides_at(calls, col, row):
    return [side for c, r, side in calls if (c, r) == (col, row)]


# ------------------------------------------------------------------------------------------------
# The routing table
# ------------------------------------------------------------------------------------------------

def test_routing_table_names_the_sides_of_each_kind():
    assert ROUTES[SOLID] == ("top", "bottom", "left", "right")
    assert ROUTES[ONE_WAY] == ("top",)
    assert ROUTES[SLOPE][0] == "slope" and "top" not in ROUTES[SLOPE]


def test_one_way_tile_calls_only_the_top_side():
    grid = TileGrid.from_rows(["....", "....", ".=..", "...."])
    r = create("routing")
    calls = record_sides(r)
    m = r.move(grid, Body(18.0, 20.0, 10.0, 10.0), 2.0, 4.0, False)  # falls onto it, moving right
    assert m.contacts.on_ground and m.y == 32.0 - 10.0
    assert set(sides_at(calls, 1, 2)) == {"top"}


def test_lone_solid_tile_calls_all_four_sides_y_first():
    grid = TileGrid.from_rows(["....", "....", ".#..", "...."])
    r = create("routing")
    calls = record_sides(r)
    r.move(grid, Body(10.0, 20.0, 10.0, 10.0), 3.0, 4.0, False)
    got = sides_at(calls, 1, 2)
    assert set(got) == {"top", "bottom", "left", "right"}
    assert set(got[:2]) == {"top", "bottom"}  # the vertical sides answer first


def test_slope_tile_calls_its_slope_side_and_never_a_top():
    grid = TileGrid.from_rows(["....", "....", "./..", "####"])
    r = create("routing")
    calls = record_sides(r)
    m = r.move(grid, Body(8.0, 48.0 - 10.0, 10.0, 10.0), 3.0, 0.5, False)  # walks onto it
    got = sides_at(calls, 1, 2)
    assert got[0] == "slope" and "top" not in got
    # its full-height right side is a face; the solid tile under it has no top face at all
    assert "right" in got
    assert "top" not in sides_at(calls, 1, 3)
    assert m.contacts.on_ground


def test_sides_hidden_by_neighbours_are_never_called():
    grid = TileGrid.from_rows(["......", ".###..", ".###..", ".###..", "......"])
    r = create("routing")
    calls = record_sides(r)
    # a body resting on the block's top, walking right across it
    r.move(grid, Body(20.0, 16.0 - 12.0, 30.0, 12.0), 2.0, 0.4, False)
    assert sides_at(calls, 2, 1) == ["top"]  # the middle tile of the top row: only its top
    assert sides_at(calls, 1, 1) == ["top", "left"]
    assert sides_at(calls, 3, 1) == ["top", "right"]


# ------------------------------------------------------------------------------------------------
# Faces between tiles are found once per grid
# ------------------------------------------------------------------------------------------------

def test_faces_between_tiles_are_removed():
    grid = TileGrid.from_rows(["....", ".##.", ".#..", "...."])
    faces = faces_of(grid)
    at = lambda c, r: faces[r * grid.cols + c]  # noqa: E731
    assert set(at(1, 1)) == {"top", "left"}  # right: (2,1) solid; bottom: (1,2) solid
    assert set(at(2, 1)) == {"top", "right", "bottom"}
    assert set(at(1, 2)) == {"left", "right", "bottom"}
    assert at(0, 0) is None
    raw = faces_of(grid, raw=True)
    assert set(raw[1 * grid.cols + 1]) == {"top", "bottom", "left", "right"}


def test_slope_sides_are_faces_only_above_the_neighbours_side():
    grid = TileGrid.from_rows(["......", ".ab#..", "######"], slope_chars=SHALLOW)
    faces = faces_of(grid)
    a, b, wall = faces[grid.cols + 1], faces[grid.cols + 2], faces[grid.cols + 3]
    assert "right" not in a and "left" not in b  # 8 px against 8 px: covered
    assert "left" not in wall  # the 'b' slope's right side is full height
    assert "bottom" not in a and "top" not in faces[2 * grid.cols + 1]
    # the 'a' slope starts at height 0 next to nothing: only a corner at its bottom
    assert a["left"] == (16.0, 32.0, 32.0)


def test_setting_up_costs_nothing_on_any_map_size():
    """Routes are worked out cell by cell as moves gather them, never up front: preparing a
    1000 x 1000 map takes an empty slot per cell, about 8 bytes (the whole table worked out at
    once took 80 MB)."""
    import tracemalloc

    grid = TileGrid(1000, 1000, 16, 16, bytes(1000 * 999) + b"\x01" * 1000)
    r = create("routing")
    tracemalloc.start()
    r.prepare(grid)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 10 * 1000 * 1000, f"prepare took {peak:,} bytes"
    body = Body(8.0, 999 * 16.0 - 14.0, 12.0, 14.0)
    for _ in range(20):  # and a walk on its floor then works as anywhere
        m = move_body(r, grid, body, 2.0, 0.4)
        body = Body(m.x, m.y, body.w, body.h)
    assert m.contacts.on_ground and m.y == 999 * 16.0 - 14.0


def test_a_door_turning_drops_only_the_routes_of_its_cells_and_their_neighbours():
    grid = TileGrid.from_rows(["..........", "..........", "##########"])
    r = create("routing")
    r.prepare(grid)
    body = Body(0.0, 32.0 - 14.0, 12.0, 14.0)
    for _ in range(80):  # along the whole floor: every floor cell's route worked out
        m = move_body(r, grid, body, 2.0, 0.4)
        body = Body(m.x, m.y, body.w, body.h)
    later = routing_mod._LATER  # a route not worked out yet
    assert all(r._routes[20 + c] not in (None, later) for c in range(10))
    door = grid.with_kinds({14: SOLID})  # a block closes on the floor at column 4
    assert door.changed_since(grid) == {14}
    r.prepare(door)
    dropped = {i for i in range(30) if r._routes[i] is later and door.kinds[i]}
    assert dropped == {14, 24}  # the door, and the floor under it (its top now covered)
    for i, route in enumerate(r._routes):  # what is kept is what the new grid says
        if route is not later:
            assert route == routing_mod.route_at(door, i), i
    # and the resolver answers as a fresh one on the new grid
    walker = Body(40.0, 32.0 - 14.0, 12.0, 14.0)
    fresh = create("routing")
    for _ in range(30):
        a, b = move_body(r, door, walker, 2.0, 0.4), move_body(fresh, door, walker, 2.0, 0.4)
        assert (a.x, a.y, a.contacts) == (b.x, b.y, b.contacts)
        walker = Body(a.x, a.y, walker.w, walker.h)
    assert a.x == 64.0 - 12.0 and a.contacts.hit_right  # stopped at the door


# ------------------------------------------------------------------------------------------------
# Seams: the default glides, raw_edges brings the article's snag back
# ------------------------------------------------------------------------------------------------

def _walk_floor(resolver, ticks=60):
    grid = TileGrid.from_rows(["." * 20, "." * 20, "." * 20, "#" * 20])
    walker = Walker(resolver, grid, 16.0, 48.0 - 14.0, 12.0, 14.0, vx=RUN_PER_TICK, on_ground=True)
    snags = 0
    for _ in range(ticks):
        x_before = walker.x
        m = walker.tick()
        if m.contacts.hit_right or not math.isclose(m.x, x_before + RUN_PER_TICK):
            snags += 1
    return snags


def test_floor_of_many_tiles_default_glides_raw_edges_snags():
    assert _walk_floor(create("routing")) == 0
    raw = RoutingResolver(RoutingOptions(raw_edges=True))
    assert _walk_floor(raw) > 0


def _slide_wall(resolver):
    rows = ["......##"] * 12 + ["########"]
    grid = TileGrid.from_rows(rows)
    # pressing right into the wall while falling along it
    walker = Walker(resolver, grid, 6 * 16 - 12.0, 0.0, 12.0, 14.0, vx=RUN_PER_TICK)
    stops = 0
    for _ in range(200):
        y_before = walker.y
        m = walker.tick()
        if walker.bottom >= 12 * 16 - 1e-9:
            break
        if m.y <= y_before:
            stops += 1
    return stops, walker


def test_wall_of_many_tiles_default_slides_raw_edges_snags():
    stops, walker = _slide_wall(create("routing"))
    assert stops == 0 and walker.on_ground and walker.bottom == 12 * 16
    stops, _ = _slide_wall(RoutingResolver(RoutingOptions(raw_edges=True)))
    assert stops > 0


def test_wide_body_runs_across_a_one_tile_gap():
    """y-first over all tiles: the far side of the gap has a real left face at floor level, and a
    body pressed a little into the floor by gravity must be put on the floor before that face is
    asked (the article's tile-by-tile order asks it with the body still in the floor)."""
    grid = TileGrid.from_rows(["." * 20, "." * 20, "." * 20, "#" * 8 + "." + "#" * 11])
    walker = Walker(create("routing"), grid, 16.0, 48.0 - 30.0, 30.0, 30.0, vx=RUN_PER_TICK,
                    on_ground=True)
    for _ in range(40):
        x_before = walker.x
        m = walker.tick()
        assert math.isclose(m.x, x_before + RUN_PER_TICK) and not m.contacts.hit_right, m
        assert m.contacts.on_ground and m.y == 48.0 - 30.0


# ------------------------------------------------------------------------------------------------
# The side functions
# ------------------------------------------------------------------------------------------------

def test_top_side_places_exactly_on_the_face_every_tick():
    grid = TileGrid.from_rows(["....", "....", "####"])
    r = create("routing")
    body = Body(10.3, 32.0 - 14.0, 12.0, 14.0)
    for dy in (0.4, 1e-9, 3.0, 7.9):
        m = r.move(grid, body, 0.0, dy, False)
        assert m.y == 32.0 - 14.0 and m.contacts.on_ground


def test_a_face_only_stops_a_body_that_crossed_it():
    """The article's top side fires whenever the bottom is below the face while moving down; here
    the bottom must have been at or above it before the move."""
    grid = TileGrid.from_rows(["....", "....", "=...", "...."])
    r = create("routing")
    body = Body(2.0, 32.0 - 10.0 + 3.0, 10.0, 10.0)  # already 3 px into the one-way tile
    m = r.move(grid, body, 0.0, 1.0, False)
    assert m.y == body.y + 1.0 and not m.contacts.on_ground


def test_a_body_beside_a_block_is_not_pulled_up_onto_it():
    """Falling beside a block while pressing into it: the article's top side (moving down, bottom
    below the top) would put the body on the block's top; here the left face stops it instead."""
    grid = TileGrid.from_rows(["....", "....", "..#.", "...."])
    body = Body(32.0 - 10.0, 32.0 + 6.0 - 10.0, 10.0, 10.0)  # bottom 6 px below the block's top
    m = create("routing").move(grid, body, 2.0, 1.0, False)
    assert (m.x, m.y) == (22.0, body.y + 1.0)
    assert m.contacts.hit_right and not m.contacts.on_ground


def test_one_way_drop_through_and_from_below():
    grid = TileGrid.from_rows(["....", "....", "====", "...."])
    r = create("routing")
    resting = Body(4.0, 32.0 - 10.0, 10.0, 10.0)
    assert r.move(grid, resting, 0.0, 0.5, False).contacts.on_ground
    assert r.move(grid, resting, 0.0, 0.5, True).y == resting.y + 0.5
    below = Body(4.0, 48.0 + 1.0, 10.0, 10.0)
    m = r.move(grid, below, 0.0, -6.0, False)
    assert m.y == below.y - 6.0 and not m.contacts.hit_ceiling


def test_wall_pushback_puts_the_body_back_over_a_floor_it_then_lands_on():
    """Found by the property tests: moving right and down off a ledge into a wall, the far x is
    past the ledge, but the wall pushes the body back over it, so it must land on it."""
    grid = TileGrid.from_rows(["########", "..#.....", "#......."], tile_w=32)
    m = step(create("routing"), grid, Body(16.0, 62.0, 33.0, 2.0), 16.0, 1.0)
    assert (m.x, m.y) == (31.0, 62.0) and m.contacts.on_ground and m.contacts.hit_right


def test_one_way_met_from_beside_in_a_tick_that_began_above_it():
    """The platform counts for the whole tick (the tick began with the bottom above its top), so a
    body that fell past its end and now moves into its column must not end inside it: bumped onto
    the top when there is room, stopped at the platform's end when a solid tile sits on it."""
    r = create("routing")
    body = Body(32.0 - 10.0, 32.0 - 10.0 + 3.0, 10.0, 10.0, tick_bottom=28.0)  # 3 px below the top
    grid = TileGrid.from_rows(["....", "....", "..==", "...."])
    m = r.move(grid, body, 2.0, 0.5, False)
    assert (m.x, m.y) == (24.0, 22.0) and m.contacts.on_ground
    assert not overlapping_tiles(grid, m.x, m.y, 10.0, 10.0, 28.0, slopes=True)
    capped = TileGrid.from_rows(["....", "..##", "..==", "...."])
    m = r.move(capped, body, 2.0, 0.5, False)
    assert m.x == 22.0 and m.contacts.hit_right
    assert not overlapping_tiles(capped, m.x, m.y, 10.0, 10.0, 28.0, slopes=True)
    # a tick that began below the top: the platform does not count, it is walked into freely
    inside = r.move(grid, Body(body.x, body.y, 10.0, 10.0), 2.0, 0.5, False)
    assert (inside.x, inside.y) == (24.0, body.y + 0.5)


def test_a_slope_too_steep_to_climb_pushes_back_and_the_body_lands_again():
    """Found by the property tests: landing on a '\\' at the far x, then pushed back by the step
    of a slope it cannot climb; at the x it ends at, the '\\' surface is higher, so the vertical
    sides must answer again."""
    grid = TileGrid.from_rows(["\\.b"], tile_w=32, slope_chars={"b": (5.0, 16.0)})
    m = step(create("routing"), grid, Body(29.0, 27.0, 35.0, 2.0), 1.0, 1.0)
    assert (m.x, m.y) == (29.0, 27.0) and m.contacts.on_ground and m.contacts.hit_right


# The slope '\\' under a solid tile: a body falling left onto the slope's far end at the far x is
# pushed back by the solid tile's right face to x = 16, where nothing is under it.
LEDGE_UNDER_WALL = ["#...", "\\...", "....", "####"]


def test_a_landing_at_the_far_x_is_undone_when_a_wall_pushes_the_body_back():
    """The vertical sides land the body on the slope at the far x (x = 14); the wall then pushes it
    back to x = 16, clear of the slope. The landing height and on_ground must not be kept: the
    vertical motion is worked out again at x = 16, where the body just falls (as the axis, corners,
    sweep and overlap resolvers have it)."""
    grid = TileGrid.from_rows(LEDGE_UNDER_WALL)
    m = step(create("routing"), grid, Body(17.0, 9.0, 12.0, 20.0), -3.0, 4.0)
    assert (m.x, m.y) == (16.0, 13.0)
    assert m.contacts.hit_left and not m.contacts.on_ground
    # the same from a body that was (wrongly) left hovering there with on_ground set: it falls
    m = step(create("routing"), grid, Body(16.0, 10.0, 12.0, 20.0), -2.17, 0.42,
             was_on_ground=True)
    assert (m.x, m.y) == (16.0, 10.42)
    assert m.contacts.hit_left and not m.contacts.on_ground


def test_holding_into_the_wall_does_not_keep_the_body_up():
    """Pressing left against the wall above the slope, with gravity: it falls to the floor
    (bottom 48) and is never grounded on the way down."""
    grid = TileGrid.from_rows(LEDGE_UNDER_WALL)
    walker = Walker(create("routing"), grid, 17.0, 9.0, 12.0, 20.0, vx=-3.0, vy=4.0)
    for _ in range(60):
        m = walker.tick()
        assert m.contacts.on_ground == (walker.bottom == 48.0), (walker.ticks, m)
        assert floor_below(grid, m.x, 12.0, walker.bottom, True) >= walker.bottom
    assert walker.on_ground and (walker.x, walker.bottom) == (16.0, 48.0)


def test_a_one_way_lift_is_undone_when_a_wall_pushes_the_body_back():
    """A body drifting right and down into a one-way platform (its tick began above the top) with a
    solid tile on the platform: the lift onto the platform must not be kept once the solid tile's
    face pushes the body back off the platform's column (x 20..32 is over nothing)."""
    grid = TileGrid.from_rows(["......", "..##..", "..==..", "......", "......", "######"])
    m = step(create("routing"), grid, Body(16.0, 17.0, 12.0, 14.0), 6.0, 8.0)
    assert (m.x, m.y) == (20.0, 25.0)  # where axis, corners, sweep and overlap put it
    assert m.contacts.hit_right and not m.contacts.on_ground
    assert floor_below(grid, m.x, 12.0, m.y + 14.0, True) == 80.0


def test_headroom_includes_the_row_the_top_started_in():
    """A lift needs every row the lifted body covers above the floor's row to be free at the body's
    current x, the row its top started in included: the body was free there at its start x only."""
    grid = TileGrid.from_rows(["......", "..##..", "..==..", "......"])
    # top starts in row 1, at an x over the solid tile (2, 1): no room to rise onto the platform
    s = routing_mod._Move(Body(19.0, 21.0, 12.0, 14.0), 3.0, 4.0, False, False)
    assert not RoutingResolver._headroom(grid, s, 32.0 - 14.0, 32.0)
    # over column 4 instead, row 1 is free
    s = routing_mod._Move(Body(66.0, 21.0, 12.0, 14.0), 3.0, 4.0, False, False)
    assert RoutingResolver._headroom(grid, s, 32.0 - 14.0, 32.0)


class OneRound(RoutingResolver):
    """Routing whose rounds never settle past one (play's bound is never reached)."""

    max_rounds = 1


class OneRoundFast(FastRouting):
    max_rounds = 1


def test_past_the_round_cap_the_body_keeps_its_starting_x():
    """If the wall/vertical rounds ever failed to settle, the body stays at the x it started from
    (free by assumption) with the vertical answer for that x: never a landing kept from another
    x, never an overlap."""
    grid = TileGrid.from_rows(LEDGE_UNDER_WALL)
    body = Body(17.0, 9.0, 12.0, 20.0)
    m = OneRound().move(grid, body, -3.0, 4.0, False)
    assert (m.x, m.y) == (17.0, 13.0) and m.contacts.hit_left and not m.contacts.on_ground
    assert not overlapping_tiles(grid, m.x, m.y, 12.0, 20.0, body.bottom, slopes=True)


# ------------------------------------------------------------------------------------------------
# Shortcuts: the usual moves are answered without the side calls, as the calls answer them
# ------------------------------------------------------------------------------------------------

PLAIN = ["........",
         "......#.",  # an overhang: (6, 1), y 16..32
         "...#....",  # a wall: column 3, rows 2 and 3, x 48..64
         "...#....",
         "########"]  # the floor: top at y 64
USUAL_MOVES = [
    # what, box (x, y, w, h), motion (dx, dy), answer (x, y, flags)
    ("in the air", (8.0, 4.0, 12.0, 14.0), (2.0, 3.0), (10.0, 7.0, 0)),
    ("walking on the floor", (8.0, 50.0, 12.0, 14.0), (2.0, 0.4), (10.0, 50.0, ON_GROUND)),
    ("landing on the floor", (8.0, 48.0, 12.0, 14.0), (-1.0, 4.0), (7.0, 50.0, ON_GROUND)),
    ("into the wall in the air", (34.0, 20.0, 12.0, 14.0), (4.0, 1.0), (36.0, 21.0, HIT_RIGHT)),
    ("walking into the wall", (33.0, 50.0, 12.0, 14.0), (5.0, 0.4),
     (36.0, 50.0, ON_GROUND | HIT_RIGHT)),
    ("head against the overhang", (98.0, 34.0, 12.0, 14.0), (1.0, -4.0), (99.0, 32.0, HIT_CEILING)),
    ("walking off the wall's top", (62.0, 18.0, 12.0, 14.0), (3.0, 0.4), (65.0, 18.4, 0)),
]


@pytest.mark.parametrize("what, box, motion, answer", USUAL_MOVES, ids=[m[0] for m in USUAL_MOVES])
def test_the_usual_moves_call_no_side_and_answer_as_the_calls_do(what, box, motion, answer):
    grid = TileGrid.from_rows(PLAIN)
    r = create("routing")
    calls = record_sides(r)
    x, y, w, h = box
    quick = r.move_box(grid, x, y, w, h, *motion, y + h, False, None)
    assert quick == answer and calls == []  # no cell list asked for: a shortcut, no side called
    probed: list[tuple[int, int]] = []
    full = r.move_box(grid, x, y, w, h, *motion, y + h, False, probed)
    assert repr(full) == repr(quick)  # the side calls give the same, bit for bit
    assert probed and (calls or what == "in the air")


def test_slopes_one_way_tiles_and_raw_edges_take_the_side_calls():
    """The shortcuts are only for plain tiles: near a slope or a one-way tile (that is not part of
    a flat floor under a walk), or with raw_edges, every move calls the sides."""
    box = (8.0, 34.0, 12.0, 14.0)  # falling towards the tile under it
    for rows, resolver in ((["....", "....", "./..", "####"], create("routing")),
                           (["....", "....", ".=..", "...."], create("routing")),
                           (["....", "....", ".#..", "...."],
                            RoutingResolver(RoutingOptions(raw_edges=True)))):
        grid = TileGrid.from_rows(rows)
        calls = record_sides(resolver)
        quick = resolver.move_box(grid, *box, 2.0, 4.0, 48.0, False, None)
        assert calls, rows
        assert repr(quick) == repr(resolver.move_box(grid, *box, 2.0, 4.0, 48.0, False, []))


def test_past_the_round_cap_among_solid_tiles_the_calls_answer():
    """Solid tiles only: the shortcut's rounds that do not settle (a push-back needs a second
    round) leave the answer to the calls (the body keeps its starting x, as above)."""
    grid = TileGrid.from_rows(PLAIN)
    r = OneRoundFast()
    calls = record_sides(r)
    quick = r.move_box(grid, 34.0, 20.0, 12.0, 14.0, 4.0, 1.0, 34.0, False, None)
    assert quick == (34.0, 21.0, HIT_RIGHT) and calls


TILE_LINES = st.integers(-1, 9).map(float)
NUDGES = st.sampled_from([0.0, 0.0, 0.0, 1e-7, -1e-7, 1e-6, -1e-6, 0.5, -0.5])


@st.composite
def plain_moves(draw):
    """A small map of mostly plain tiles and a box on tile lines (resting on tops, against walls)
    or anywhere, moved by the game's usual motions or anything up to a tile and a half."""
    tile = draw(st.sampled_from([8, 16, 32]))
    cols, rows = draw(st.integers(1, 8)), draw(st.integers(1, 7))
    cells = draw(st.lists(st.sampled_from("....###=/"), min_size=cols * rows,
                          max_size=cols * rows))
    grid = TileGrid.from_rows(["".join(cells[r * cols:(r + 1) * cols]) for r in range(rows)],
                              tile_w=tile)
    w = draw(st.sampled_from([0.75 * tile, 1.5 * tile, 12.0, 24.0, 3.0]))
    h = draw(st.sampled_from([0.9 * tile, 2.0 * tile, 14.0, 30.0, 5.0]))
    x = draw(st.one_of(st.floats(-tile, (cols + 1) * tile),
                       st.builds(lambda k, e, wall: k * tile - (w if wall else 0.0) + e,
                                 TILE_LINES, NUDGES, st.booleans())))
    y = draw(st.one_of(st.floats(-tile, (rows + 1) * tile),
                       st.builds(lambda k, e: k * tile - h + e, TILE_LINES, NUDGES)))
    motion = st.one_of(st.sampled_from([0.0, 0.4, 1.0, -1.0, 5.0, -5.0, 15.0, -9.5]),
                       st.floats(-1.5 * tile, 1.5 * tile))
    return grid, x, y, w, h, draw(motion), draw(motion), draw(st.booleans())


@given(plain_moves(), st.booleans())
@settings(max_examples=examples(400))
def test_the_shortcuts_answer_as_the_side_calls_do(move, was_on_ground):
    grid, x, y, w, h, dx, dy, drop = move
    r = create("routing")
    for owb in (y + h, y + h - 3.0):
        answers = [r.move_box(grid, x, y, w, h, dx, dy, owb, drop, probe) for probe in (None, [])]
        assert repr(answers[0]) == repr(answers[1])
    answers = [move_box(r, grid, x, y, w, h, dx, dy, one_way_bottom=y + h, drop_through=drop,
                        was_on_ground=was_on_ground, probe=probe) for probe in (None, [])]
    assert repr(answers[0]) == repr(answers[1])


# ------------------------------------------------------------------------------------------------
# The face table is built when the world loads a level
# ------------------------------------------------------------------------------------------------

def test_world_prepares_the_routes_table_at_load_switch_and_reload():
    from pathlib import Path

    from game.config import PhysicsConfig
    from game.sim.inputs import InputFrame
    from game.maps.level import Level, Rect
    from game.sim.world import World

    def level(rows):
        return Level(path=Path("grid.tmx"), title="grid", grid=TileGrid.from_rows(rows),
                     spawn=Rect(16.0, 32.0 - 14.0, 12.0, 14.0), spawn_is_point=False, goals=(),
                     next_level=None, properties={})

    first = level(["......", "......", "######"])
    r = create("routing")
    world = World(first, PhysicsConfig(), r)
    assert r._grid is world.grid  # before any tick
    raw = RoutingResolver(RoutingOptions(raw_edges=True))
    world.set_resolver(raw)
    assert raw._grid is world.grid
    second = level(["......", "......", "#####."])
    world.replace_level(second, PhysicsConfig())
    assert raw._grid is world.grid and world.grid.kinds == second.grid.kinds
    table = raw._routes
    world.step(InputFrame())
    assert raw._routes is table  # ticks fill the table made at load
    assert any(route not in (None, routing_mod._LATER) for route in table)
    world.set_resolver(create("axis"))  # a resolver without prepare() is fine


# ------------------------------------------------------------------------------------------------
# Slopes
# ------------------------------------------------------------------------------------------------

def _walk(grid, x0, w, h, dx, ticks, tol=1e-6):
    """Walk from standing at x0; every tick grounded, no overlap, on the highest point under it."""
    r = create("routing")
    ground = floor_below(grid, x0, w, 0.0, True)
    walker = Walker(r, grid, x0, ground - h, w, h, vx=dx, on_ground=True)
    ys = []
    for _ in range(ticks):
        x_before = walker.x
        m = walker.tick()
        what = f"tick {walker.ticks}: {m}"
        assert m.contacts.on_ground, what
        assert not (m.contacts.hit_left or m.contacts.hit_right), what
        assert math.isclose(m.x, x_before + dx), what
        assert not overlapping_tiles(grid, m.x, m.y, w, h, m.y + h, slopes=True), what
        assert abs(floor_below(grid, m.x, w, m.y + h, True) - (m.y + h)) <= tol, what
        ys.append(m.y)
    return walker, ys


@pytest.mark.parametrize("size", [(12.0, 14.0), (4.0, 3.0), (30.0, 20.0)])
def test_walk_up_and_down_45_degree_slope_rising_right(size):
    w, h = size
    grid = TileGrid.from_rows(["..........", "..........", "...../####", "..../#####",
                               "##########"])
    walker, ys = _walk(grid, 16.0, w, h, 2.0, int((8 * 16 - 16 - w) / 2))
    assert math.isclose(min(ys), 32.0 - h)  # got to the top floor
    back, ys = _walk(grid, walker.x, w, h, -2.0, int((walker.x - 16) / 2))
    assert math.isclose(ys[-1], 64.0 - h)  # and back down to the bottom floor


@pytest.mark.parametrize("size", [(12.0, 14.0), (4.0, 3.0), (30.0, 20.0)])
def test_walk_up_and_down_45_degree_slope_rising_left(size):
    w, h = size
    grid = TileGrid.from_rows(["..........", "..........", "####\\.....", "#####\\....",
                               "##########"])
    x0 = 9 * 16 - w
    walker, ys = _walk(grid, x0, w, h, -2.0, int((x0 - 2 * 16) / 2))
    assert math.isclose(min(ys), 32.0 - h)
    _, ys = _walk(grid, walker.x, w, h, 2.0, int((x0 - walker.x) / 2))
    assert math.isclose(ys[-1], 64.0 - h)


@pytest.mark.parametrize("dx", [0.5, RUN_PER_TICK, 4.0])
def test_walk_up_and_down_shallow_two_tile_slope(dx):
    w, h = 12.0, 14.0
    grid = TileGrid.from_rows(["..........", "..........", "...ab#####", "##########"],
                              slope_chars=SHALLOW)
    walker, ys = _walk(grid, 8.0, w, h, dx, int((7 * 16 - 8 - w) / dx))
    assert math.isclose(min(ys), 32.0 - h)
    _, ys = _walk(grid, walker.x, w, h, -dx, int((walker.x - 8) / dx))
    assert math.isclose(ys[-1], 48.0 - h)


def test_top_of_slope_joins_solid_floor_without_a_snag():
    grid = TileGrid.from_rows(["..........", "..../#####", "...//#####", "##########"])
    w, h = 12.0, 14.0
    walker, ys = _walk(grid, 16.0, w, h, RUN_PER_TICK, int((9 * 16 - 16 - w) / RUN_PER_TICK))
    assert math.isclose(ys[-1], 16.0 - h) and walker.x > 6 * 16


def test_full_height_side_of_slope_blocks_like_a_wall():
    # walking left at floor level into the high side of a '/' (and right into a '\')
    grid = TileGrid.from_rows(["..........", "..../.....", "##########"])
    for x0, dx, want, flag in ((9 * 16 - 12.0, -RUN_PER_TICK, 5 * 16.0, "hit_left"),
                               (0.0, RUN_PER_TICK, 4 * 16.0 - 12.0, "hit_right")):
        grid_l = grid if dx < 0 else TileGrid.from_rows(["..........", "....\\.....",
                                                          "##########"])
        walker = Walker(create("routing"), grid_l, x0, 32.0 - 14.0, 12.0, 14.0, vx=dx,
                        on_ground=True)
        for _ in range(60):
            walker.tick()
            assert walker.on_ground and walker.y == 32.0 - 14.0
        assert walker.x == want and getattr(walker.contacts, flag)


def test_a_step_higher_than_the_walk_allows_is_a_wall():
    # the 'b' slope starts 8 px up: walking straight into it from the floor is a step, not a lift
    grid = TileGrid.from_rows(["..........", "....b.....", "##########"], slope_chars=SHALLOW)
    walker = Walker(create("routing"), grid, 16.0, 32.0 - 14.0, 12.0, 14.0, vx=RUN_PER_TICK,
                    on_ground=True)
    for _ in range(40):
        walker.tick()
        assert walker.on_ground and walker.y == 32.0 - 14.0
    assert walker.x == 4 * 16 - 12.0 and walker.contacts.hit_right


def test_no_lift_under_a_low_ceiling():
    # a ceiling right above the body's head: the slope cannot lift it, so it is a wall
    grid = TileGrid.from_rows(["..........", "#########.", "....../...", "##########"])
    w, h = 12.0, 16.0
    walker = Walker(create("routing"), grid, 16.0, 48.0 - h, w, h, vx=RUN_PER_TICK, on_ground=True)
    for _ in range(60):
        m = walker.tick()
        assert not overlapping_tiles(grid, m.x, m.y, w, h, m.y + h, slopes=True)
        assert walker.y == 48.0 - h
    assert walker.x == 6 * 16 - w and walker.contacts.hit_right


def test_slope_bottom_is_a_ceiling():
    grid = TileGrid.from_rows(["....", "./\\.", "....", "...."])
    r = create("routing")
    for x0 in (16.0, 20.0, 36.0):
        m = r.move(grid, Body(x0, 33.0, 10.0, 10.0), 0.0, -4.0, False)
        assert m.y == 32.0 and m.contacts.hit_ceiling


def test_landing_on_a_slope_rests_on_the_highest_point_under_the_body():
    grid = TileGrid.from_rows(["....", "....", "./..", "####"])
    r = create("routing")
    body = Body(18.0, 0.0, 6.0, 6.0)
    for _ in range(40):
        m = move_body(r, grid, body, 0.0, 4.0)
        body = Body(m.x, m.y, 6.0, 6.0)
    assert body.y + 6.0 == 48.0 - 8.0  # the surface at the body's right edge (x = 24)
    m = move_body(r, grid, body, 0.0, 0.4)
    assert m.contacts.on_ground and m.y == body.y  # resting stays put


def test_follows_a_slope_down_after_a_sub_step_that_touched_a_floor():
    """Walking off a floor onto a lower slope surface inside one tick: the first sub-step stands on
    the floor, the last is over the slope only. The resolver has no downhill code of its own: the
    mover's ground snap (taken when the tick did not *end* on the ground) keeps it on the slope."""
    grid = TileGrid.from_rows(["......", "......", "./####", "//####", "######"])
    r = create("routing")
    w, h = 3.0, 2.0
    body = Body(2 * 16 + 0.5, 32.0 - h, w, h)  # on the flat top, just right of the slope
    # three sub-steps: the first stands on the flat top, the last is over the slope only
    m = move_body(r, grid, body, -4.0, 0.4, was_on_ground=True)
    assert math.isclose(m.x, body.x - 4.0)
    assert m.contacts.on_ground
    assert math.isclose(m.y + h, floor_below(grid, m.x, w, m.y + h, True))
