"""Tests of the ``corners`` resolver: leading-edge corner probes split into tile-sized segments,
plus each departure from its article (each test here would fail under the article's behaviour)."""

from __future__ import annotations

import pytest

from game.maps.grid import TileGrid
from game.resolvers import Body, create, move_body
from game.resolvers.base import overlapping_tiles
from game.resolvers.corners import CornersResolver

T = 16


def step(grid, body, dx, dy, drop=False):
    return CornersResolver().move(grid, body, dx, dy, drop)


def no_overlap(grid, body, m):
    return overlapping_tiles(grid, m.x, m.y, body.w, body.h, body.bottom, False) == []


def test_registered_and_flags():
    r = create("corners")
    assert isinstance(r, CornersResolver)
    assert r.supports_slopes is True
    assert r.destination_only is True
    assert r.axis_order == "x then y"


# --- the technique: segment probes ---------------------------------------------------------------

def test_corners_probes_each_segment_points_tall_body():
    # A 40 px tall body (rows 0..2); one 16 px solid tile in row 1 only, between its top and bottom
    # corners: the corners alone would miss it, the segment point one tile down catches it.
    grid = TileGrid.from_rows([
        "......",
        "...#..",
        "......",
        "......",
    ])
    body = Body(30.0, 2.0, 12.0, 40.0)  # right edge 42, tile column 3 starts at 48
    m = step(grid, body, 10.0, 0.0)
    assert m.contacts.hit_right
    assert m.x == 3 * T - body.w
    assert no_overlap(grid, body, m)
    # the leading column at each segment point: top corner (row 0), one tile down (row 1),
    # bottom corner (row 2, y = 42)
    for cell in [(3, 0), (3, 1), (3, 2)]:
        assert cell in m.contacts.probed
    assert (3, 3) not in m.contacts.probed


def test_corners_probes_each_segment_points_wide_body_lands():
    # A 40 px wide body above a single solid tile under its middle lands on it.
    grid = TileGrid.from_rows([
        "......",
        "......",
        "..#...",
    ])
    body = Body(18.0, 10.0, 40.0, 20.0)  # columns 1..3, bottom 30
    m = step(grid, body, 0.0, 6.0)
    assert m.contacts.on_ground
    assert m.y == 2 * T - body.h
    for cell in [(1, 2), (2, 2), (3, 2)]:
        assert cell in m.contacts.probed


def test_only_leading_edge_is_probed():
    grid = TileGrid.from_rows(["......"] * 3)
    m = step(grid, Body(20.0, 0.0, 10.0, 10.0), 4.0, 0.0)
    assert {c for c, _ in m.contacts.probed} == {2}  # right edge 34 -> column 2 only
    m = step(grid, Body(20.0, 0.0, 10.0, 10.0), -6.0, 0.0)
    assert {c for c, _ in m.contacts.probed} == {0}  # left edge 14 -> column 0 only


def test_wall_left_exactly_on_edge():
    grid = TileGrid.from_rows(["#.....", "#.....", "######"])
    body = Body(20.0, 16.0, 10.0, 16.0)
    m = step(grid, body, -8.0, 0.0)
    assert m.contacts.hit_left and m.x == 16.0


def test_ceiling_exactly_on_edge():
    grid = TileGrid.from_rows(["######", "......", "......"])
    body = Body(20.0, 20.0, 10.0, 10.0)
    m = step(grid, body, 0.0, -6.0)
    assert m.contacts.hit_ceiling and m.y == 16.0 and not m.contacts.on_ground


# --- departure: no 1 px gap ------------------------------------------------------------------------

def test_stops_exactly_on_wall_moving_right_no_gap():
    # the article places the body at column * TILE - w - 1
    grid = TileGrid.from_rows(["...#", "...#", "####"])
    body = Body(30.0, 16.0, 12.0, 16.0)
    m = step(grid, body, 10.0, 0.0)
    assert m.contacts.hit_right
    assert m.x == 48.0 - 12.0
    # pushing again: still touching, still reported, no movement
    again = step(grid, Body(m.x, m.y, 12.0, 16.0), 3.0, 0.0)
    assert again.contacts.hit_right and again.x == m.x


def test_resting_on_floor_every_tick():
    grid = TileGrid.from_rows(["....", "....", "####"])
    body = Body(8.0, 32.0 - 20.0, 10.0, 20.0)
    r = create("corners")
    for _ in range(5):
        m = move_body(r, grid, body, 0.0, 0.4)
        assert m.contacts.on_ground
        assert m.y == body.y
        body = Body(m.x, m.y, body.w, body.h)


# --- departure: same "inside" rule on both axes (flush against a wall) -----------------------------

def test_flush_against_wall_keeps_falling():
    # The article's vertical probe uses x + w (one past the body): flush with a wall on the right,
    # it probes the wall's column and lands on it.
    grid = TileGrid.from_rows([
        "..#",
        "..#",
        "..#",
        "..#",
        "..#",
    ])
    body = Body(32.0 - 12.0, 4.0, 12.0, 14.0)  # right edge exactly on the wall
    m = step(grid, body, 0.0, 6.0)
    assert not m.contacts.on_ground
    assert m.y == 10.0
    assert all(c != 2 for c, _ in m.contacts.probed)
    # and through the mover, over many wall tiles
    r = create("corners")
    b = body
    for _ in range(8):
        m = move_body(r, grid, b, 0.0, 5.0)
        assert not m.contacts.on_ground and not m.contacts.hit_right
        b = Body(m.x, m.y, b.w, b.h)
    assert b.y == pytest.approx(44.0)


def test_flush_against_wall_on_left_moving_up_not_stuck():
    grid = TileGrid.from_rows(["#...", "#...", "#...", "#..."])
    body = Body(16.0, 40.0, 10.0, 10.0)
    m = step(grid, body, 0.0, -6.0)
    assert not m.contacts.hit_ceiling and m.y == 34.0


def test_walk_over_floor_seams_at_full_speed():
    grid = TileGrid.from_rows(["........", "........", "########"])
    r = create("corners")
    b = Body(1.0, 32.0 - 16.0, 16.0, 16.0)
    for _ in range(10):
        m = move_body(r, grid, b, 7.0, 0.5)
        assert m.x == pytest.approx(b.x + 7.0)
        assert not (m.contacts.hit_left or m.contacts.hit_right)
        assert m.contacts.on_ground and m.y == b.y
        b = Body(m.x, m.y, b.w, b.h)


# --- departure: floor, not truncation toward zero --------------------------------------------------

def test_above_the_map_does_not_hit_row_zero_sideways():
    # y = -10..-2: C integer division puts both corners in row 0 and hits the tile there.
    grid = TileGrid.from_rows(["...#..", "......"])
    body = Body(30.0, -10.0, 12.0, 8.0)
    m = step(grid, body, 10.0, 0.0)
    assert not m.contacts.hit_right
    assert m.x == 40.0
    assert all(r == -1 for _, r in m.contacts.probed)


def test_above_the_map_falls_onto_row_zero_only_when_reaching_it():
    grid = TileGrid.from_rows(["######", "......"])
    body = Body(20.0, -12.0, 10.0, 8.0)
    m = step(grid, body, 0.0, 1.0)  # bottom -4 -> -3: still above the map
    assert not m.contacts.on_ground and m.y == -11.0
    m = step(grid, Body(20.0, -11.0, 10.0, 8.0), 0.0, 5.0)  # bottom reaches row 0: lands on it
    assert m.contacts.on_ground and m.y == -8.0


# --- departure: the vertical probe uses the x after the horizontal step ----------------------------

def test_diagonal_move_uses_new_x_and_does_not_clip_a_corner():
    # Moving right and down; the tile is diagonally below-right. With the old x the vertical
    # probe looks only at column 0 and the body ends inside tile (1, 1).
    grid = TileGrid.from_rows(["....", ".#..", "...."])
    body = Body(0.0, 0.0, 12.0, 16.0)
    m = step(grid, body, 8.0, 8.0)
    assert m.x == 8.0
    assert m.contacts.on_ground and m.y == 0.0
    assert no_overlap(grid, body, m)


# --- departure: cells outside the map are empty, the test is never skipped -------------------------

def test_partly_above_the_top_still_hits_walls():
    # The top corner (y = -20) is outside the map: the article skips the whole test and the body
    # walks into the wall.
    grid = TileGrid.from_rows(["...#..", "...#..", "######"])
    body = Body(20.0, -20.0, 12.0, 36.0)  # rows -2..0
    m = step(grid, body, 20.0, 0.0)  # right edge 52: in column 3
    assert m.contacts.hit_right
    assert m.x == 48.0 - 12.0
    assert no_overlap(grid, body, m)


def test_partly_above_the_top_still_lands():
    grid = TileGrid.from_rows(["......", "......", "######"])
    body = Body(20.0, -30.0, 12.0, 50.0)  # bottom 20
    m = step(grid, body, 0.0, 14.0)  # bottom 34: into row 2
    assert m.contacts.on_ground
    assert m.y == 32.0 - 50.0


def test_partly_past_the_bottom_and_sides_no_crash_no_invented_hits():
    grid = TileGrid.from_rows(["....", "....", "...."])
    for body, dx, dy in [
        (Body(-30.0, 40.0, 12.0, 24.0), -5.0, 9.0),
        (Body(60.0, -50.0, 12.0, 24.0), 7.0, -9.0),
        (Body(20.0, 60.0, 40.0, 40.0), 3.0, 30.0),
    ]:
        m = step(grid, body, dx, dy)
        assert (m.x, m.y) == (body.x + dx, body.y + dy)
        c = m.contacts
        assert not (c.on_ground or c.hit_ceiling or c.hit_left or c.hit_right)


def test_wall_touching_the_bottom_edge_of_the_map():
    # the body's bottom corner is below the map; the wall is still seen
    grid = TileGrid.from_rows(["......", "...#.."])
    body = Body(20.0, 20.0, 12.0, 20.0)
    m = step(grid, body, 20.0, 0.0)
    assert m.contacts.hit_right and m.x == 36.0


# --- departure: tile kinds -------------------------------------------------------------------------

def test_one_way_blocks_from_above():
    grid = TileGrid.from_rows(["....", "....", "===="])
    body = Body(8.0, 10.0, 10.0, 20.0)
    m = step(grid, body, 0.0, 5.0)
    assert m.contacts.on_ground and m.y == 12.0


def test_one_way_not_sideways_nor_from_below_nor_dropping():
    grid = TileGrid.from_rows(["....", ".=..", "...."])
    # sideways through it
    m = step(grid, Body(0.0, 16.0, 12.0, 16.0), 10.0, 0.0)
    assert not m.contacts.hit_right and m.x == 10.0
    # from below, through it
    m = step(grid, Body(16.0, 34.0, 12.0, 12.0), 0.0, -6.0)
    assert not m.contacts.hit_ceiling and m.y == 28.0
    # dropping through from above
    m = step(grid, Body(16.0, 4.0, 12.0, 12.0), 0.0, 6.0, drop=True)
    assert not m.contacts.on_ground and m.y == 10.0


def test_one_way_ignored_when_bottom_started_below_its_top():
    # a body half way up through a one-way tile keeps rising and can fall back through it
    grid = TileGrid.from_rows(["....", ".=..", "...."])
    m = step(grid, Body(16.0, 10.0, 12.0, 12.0), 0.0, 4.0)  # bottom 22 > top 16
    assert not m.contacts.on_ground and m.y == 14.0


def test_slopes_are_probed_by_their_height():
    grid = TileGrid.from_rows(["....", "../.", "####"])
    # walking into it from the low side: the bottom corner's probe reads the surface and the body
    # is lifted by the climb, at full speed
    m = step(grid, Body(20.0, 20.0, 12.0, 12.0), 4.0, 0.0)  # right edge 36, 4 px into the '/'
    assert not m.contacts.hit_right and (m.x, m.y) == (24.0, 32.0 - 4.0 - 12.0)
    # falling onto it: lands on the surface's highest point under the body, not the tile's top
    m = step(grid, Body(34.0, 0.0, 12.0, 12.0), 0.0, 12.0)
    assert m.contacts.on_ground and m.y == 32.0 - 14.0 - 12.0


def test_a_half_tile_is_a_step_half_a_tile_high():
    grid = TileGrid.from_rows(["....", "..h.", "####"], slope_chars={"h": (8.0, 8.0)})
    m = step(grid, Body(16.0, 20.0, 12.0, 12.0), 6.0, 0.0)  # on the floor: its side is a wall
    assert m.contacts.hit_right and m.x == 32.0 - 12.0
    m = step(grid, Body(34.0, 0.0, 12.0, 12.0), 0.0, 13.0)  # from above: its top, 8 px up
    assert m.contacts.on_ground and m.y == 24.0 - 12.0
    m = step(grid, Body(30.0, 12.0, 12.0, 12.0), 0.0, -4.0)  # beside it, rising: nothing to hit
    assert m.y == 8.0 and not m.contacts.hit_ceiling


# --- through the mover: sub-steps and sizes --------------------------------------------------------

def test_no_tunnelling_through_thin_wall_at_speed():
    grid = TileGrid.from_rows(["..........", ".....#....", "##########"])
    r = create("corners")
    body = Body(10.0, 16.0, 12.0, 16.0)
    m = move_body(r, grid, body, 64.0, 0.0)
    assert m.contacts.hit_right and m.x == 80.0 - 12.0


def test_one_tile_wide_body_drops_through_one_tile_gap():
    grid = TileGrid.from_rows(["....", "#.##", "....", "...."])
    r = create("corners")
    b = Body(16.0, 0.0, 16.0, 16.0)
    for _ in range(6):
        m = move_body(r, grid, b, 0.0, 6.0)
        assert not m.contacts.on_ground
        b = Body(m.x, m.y, b.w, b.h)
    assert b.y == 36.0


def test_one_tile_high_body_walks_through_one_tile_tunnel():
    grid = TileGrid.from_rows(["######", "......", "######"])
    r = create("corners")
    b = Body(0.0, 16.0, 20.0, 16.0)
    for _ in range(5):
        m = move_body(r, grid, b, 6.0, 0.0)
        assert not (m.contacts.hit_right or m.contacts.hit_ceiling or m.contacts.on_ground)
        b = Body(m.x, m.y, b.w, b.h)
    assert b.x == 30.0
