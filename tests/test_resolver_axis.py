"""The ``axis`` resolver: what makes it itself (x then y, push out of every tile in the range box
of rows and columns the body's edges fall in, ``probed`` = that range box), and each departure
from its article listed in game/resolvers/axis.py.

Each departure test shows the article's behaviour failing with :class:`ArticleAxis` (a literal
port of the article's steps 1-4, with switches for single fixes).
"""

from __future__ import annotations

import math

from helpers import EPS, GRAVITY_PER_TICK, Walker

from game.maps.grid import EMPTY, TileGrid
from game.resolvers import create, move_body
from game.resolvers.axis import AxisResolver
from game.resolvers.base import Body, Contacts, Move, overlapping_tiles

T = 16


class ArticleAxis:
    """The article's method, ported as written: the body is kept by its centre, the range box uses
    ``(int)`` and inclusive ends, each wall tile in it is tested box against box, and the body is
    put outside it on the side the tile's centre is *not* on, one pixel clear. It knows only walls
    (every non-empty tile is one). ``by_centre=False`` pushes against the motion instead and
    ``gap`` sets the clearance, to show that each fix alone is what changes the outcome;
    ``map_offset=True`` adds the article's offset (half the map) as it would to a map centred on
    the origin; ``capped=True`` caps each lookup's row and column at the map's edges, as the
    article asks its callers to."""

    name = "article-port"
    supports_slopes = False
    destination_only = True

    def __init__(self, gap: float = 1.0, by_centre: bool = True, map_offset: bool = False,
                 capped: bool = False) -> None:
        self.gap, self.by_centre, self.map_offset = gap, by_centre, map_offset
        self.capped = capped

    def kind(self, grid: TileGrid, col: int, row: int) -> int:
        if self.capped:
            col, row = min(max(col, 0), grid.cols - 1), min(max(row, 0), grid.rows - 1)
        return grid.kind(col, row)

    def move(self, grid: TileGrid, body: Body, dx: float, dy: float, drop_through: bool) -> Move:
        tw, th = grid.tile_w, grid.tile_h
        hw, hh = body.w / 2, body.h / 2
        px, py = body.x + hw, body.y + hh
        ox, oy = (grid.cols / 2 * tw, grid.rows / 2 * th) if self.map_offset else (0.0, 0.0)
        ground = ceiling = left = right = False
        for horizontal, d in ((True, dx), (False, dy)):
            if not d:
                continue
            if horizontal:
                px += d
            else:
                py += d
            for col in range(int((px - hw + ox) / tw), int((px + hw + ox) / tw) + 1):
                for row in range(int((py - hh + oy) / th), int((py + hh + oy) / th) + 1):
                    if self.kind(grid, col, row) == EMPTY:
                        continue
                    tx, ty = col * tw - ox + tw / 2, row * th - oy + th / 2
                    if not (abs(px - tx) < hw + tw / 2 and abs(py - ty) < hh + th / 2):
                        continue
                    if horizontal:
                        after = tx < px if self.by_centre else d < 0
                        if after:
                            px, left = tx + tw / 2 + hw + self.gap, True
                        else:
                            px, right = tx - tw / 2 - hw - self.gap, True
                    else:
                        below = ty < py if self.by_centre else d < 0
                        if below:
                            py, ceiling = ty + th / 2 + hh + self.gap, True
                        else:
                            py, ground = ty - th / 2 - hh - self.gap, True
        return Move(px - hw, py - hh, Contacts(ground, ceiling, left, right))


def axis_move(grid, body, dx, dy, drop=False):
    return AxisResolver().move(grid, body, dx, dy, drop)


def free(grid, m, body):
    return not overlapping_tiles(grid, m.x, m.y, body.w, body.h, body.one_way_bottom, False)


# ------------------------------------------------------------------------------------------------
# What makes it axis
# ------------------------------------------------------------------------------------------------

def test_registered_with_its_article_and_flags():
    r = create("axis")
    assert isinstance(r, AxisResolver)
    assert "DigiPen" in r.article.author and r.article.url.startswith("https://github.com/DigiPen")
    assert r.axis_order == "x then y"
    assert r.destination_only and r.supports_slopes


def test_x_is_resolved_before_y():
    """Diagonally into a block's top-left corner: x first (at the old height, clear of the block)
    goes all the way, then y lands on the block. y first would go all the way down and then be
    stopped by the block's left side."""
    grid = TileGrid.from_rows(["....", "....", "..#.", "...."])
    body = Body(20.0, 20.0, 10.0, 10.0)
    m = axis_move(grid, body, 4.0, 4.0)
    assert (m.x, m.y) == (24.0, 22.0)
    assert m.contacts.on_ground and not m.contacts.hit_right
    # the other order, y then x, as two moves: stopped by the side instead
    down = axis_move(grid, body, 0.0, 4.0)
    m = axis_move(grid, Body(down.x, down.y, 10.0, 10.0), 4.0, 0.0)
    assert (m.x, m.y) == (22.0, 24.0) and m.contacts.hit_right


def test_every_tile_in_the_range_box_counts_not_just_the_corners():
    """A body three tiles tall whose corners are all in empty cells still stops at the one tile in
    the middle of its leading edge; a wide body lands on a single tile under its middle."""
    grid = TileGrid.from_rows(["......", "...#..", "......", "......"])
    tall = Body(30.0, 2.0, 12.0, 40.0)
    m = axis_move(grid, tall, 10.0, 0.0)
    assert m.x == 3 * T - 12.0 and m.contacts.hit_right
    grid = TileGrid.from_rows(["......", "......", "..#..."])
    wide = Body(18.0, 10.0, 40.0, 20.0)
    m = axis_move(grid, wide, 0.0, 6.0)
    assert m.y == 2 * T - 20.0 and m.contacts.on_ground


def test_pushed_out_of_every_tile_it_overlaps():
    """One move that ends overlapping a step and the floor below it: each tile in the range box
    pushes it out along y, against the motion, so it ends on the higher step whatever the order
    the tiles are looked at in."""
    grid = TileGrid.from_rows(["....", "....", ".#..", "####"])
    for x in (10.0, 22.0):  # the step on its right, then on its left
        grid_x = grid if x == 10.0 else TileGrid.from_rows(["....", "....", "..#.", "####"])
        m = axis_move(grid_x, Body(x, 17.0, 20.0, 10.0), 0.0, 24.0)  # ends at y 41..51
        assert m.y == 2 * T - 10.0 and m.contacts.on_ground


def test_probed_is_exactly_the_range_box():
    """``probed`` holds the cells of the rows and columns the body's edges fall in: for the x pass
    at the old y and the new x, for the y pass at the new y; an edge exactly on a tile border
    stays out (touching is not overlapping)."""
    grid = TileGrid.from_rows(["......"] * 4)

    def box(cols, rows):
        return {(c, r) for c in cols for r in rows}

    body = Body(20.0, 5.0, 30.0, 20.0)
    m = axis_move(grid, body, 3.0, 0.0)  # x 23..53, y 5..25
    assert set(m.contacts.probed) == box((1, 2, 3), (0, 1)) and len(m.contacts.probed) == 6
    m = axis_move(grid, body, 0.0, 10.0)  # x 20..50, y 15..35
    assert set(m.contacts.probed) == box((1, 2, 3), (0, 1, 2)) and len(m.contacts.probed) == 9
    m = axis_move(grid, body, 3.0, 10.0)  # x pass at y 5..25, then y pass at y 15..35
    assert list(m.contacts.probed) == sorted(box((1, 2, 3), (0, 1)), key=lambda c: (c[1], c[0])) \
        + sorted(box((1, 2, 3), (0, 1, 2)), key=lambda c: (c[1], c[0]))
    # edges on tile borders: the box (16..32, 16..32) after the move is one cell
    m = axis_move(grid, Body(15.5, 16.0, 16.0, 16.0), 0.5, 0.0)
    assert m.contacts.probed == ((1, 1),)
    m = axis_move(grid, Body(16.0, 15.0, 16.0, 16.0), 0.0, 1.0)
    assert m.contacts.probed == ((1, 1),)
    # a blocked move looks at the range box of where it would have gone (rows 1 and 2: the
    # bottom 0.4 px into the floor), then is put back on the floor
    grid = TileGrid.from_rows(["....", "....", "####"])
    m = axis_move(grid, Body(4.0, 18.0, 10.0, 14.0), 0.0, 0.4)
    assert m.y == 18.0 and set(m.contacts.probed) == box((0,), (1, 2))


def test_probed_through_the_mover_is_every_sub_steps_range_box():
    grid = TileGrid.from_rows(["........"] * 4)
    body = Body(2.0, 2.0, 10.0, 10.0)
    m = move_body(create("axis"), grid, body, 20.0, 0.0)  # 4 sub-steps of 5 px
    assert set(m.contacts.probed) == {(0, 0), (1, 0)} and m.x == 22.0


# ------------------------------------------------------------------------------------------------
# Departures from the article
# ------------------------------------------------------------------------------------------------

def test_a_body_is_its_top_left_corner_not_its_centre():
    """The article keeps a body by its centre; here (x, y) is the top-left corner. Read as a
    centre, this body would cover x 14..26 (columns 0 and 1) and come to rest with y = 32 - 7."""
    grid = TileGrid.from_rows(["....", "....", "####"])
    body = Body(20.0, 0.0, 12.0, 14.0)  # x 20..32: column 1 only (32 is a border)
    m = move_body(create("axis"), grid, body, 0.0, 30.0)
    assert m.y == 32.0 - 14.0 and m.contacts.on_ground
    assert {c for c, _ in m.contacts.probed} == {1}
    # the port keeps centres internally and hands back the same top-left corner
    assert move_body(ArticleAxis(gap=0.0, by_centre=False), grid, body, 0.0, 30.0).y == 18.0


def test_no_one_pixel_gap_on_ground_every_tick_with_gravity():
    """The article leaves the body 1 px above the floor; gravity closes the gap over a few ticks
    and it lands again, so on_ground flickers. Placed exactly on the floor, it is on the ground
    every tick and never moves."""
    grid = TileGrid.from_rows(["......", "......", "######"])
    h = 14.0

    def ground_flags(resolver, y0):
        walker = Walker(resolver, grid, 20.0, y0, 12.0, h, on_ground=True)
        flags, ys = [], []
        for _ in range(12):
            flags.append(walker.tick().contacts.on_ground)
            ys.append(walker.y)
        return flags, ys

    flags, ys = ground_flags(create("axis"), 32.0 - h)
    assert all(flags) and set(ys) == {32.0 - h}
    # the article: 1 px clear of the floor, on_ground only on the ticks gravity closes the gap
    flags, ys = ground_flags(ArticleAxis(gap=1.0, by_centre=False), 32.0 - h - 1.0)
    assert not all(flags) and any(flags)
    assert all(y == 32.0 - h - 1.0 for y, f in zip(ys, flags) if f)
    assert GRAVITY_PER_TICK < 1.0  # why: a tick's fall does not always close the 1 px gap
    # and the gap alone is the reason: the port with no gap stays on the ground
    flags, _ = ground_flags(ArticleAxis(gap=0.0, by_centre=False), 32.0 - h)
    assert all(flags)


def test_push_against_the_motion_not_by_centres():
    """A small body that gets past a tile's centre in one move: comparing centres pushes it out of
    the far side (through the wall); axis pushes it back the way it came."""
    grid = TileGrid.from_rows(["....", ".#..", "...."])
    body = Body(10.0, 20.0, 4.0, 4.0)  # right edge 14, the wall spans x 16..32
    m = axis_move(grid, body, 13.0, 0.0)  # x 23..27: its centre (25) is past the tile's (24)
    assert m.x == 12.0 and m.contacts.hit_right
    through = ArticleAxis(gap=0.0).move(grid, body, 13.0, 0.0, False)
    assert through.x == 32.0  # out of the far side
    assert ArticleAxis(gap=0.0, by_centre=False).move(grid, body, 13.0, 0.0, False).x == 12.0
    # the same falling onto a floor
    falling = Body(20.0, 10.0, 4.0, 4.0)  # bottom 14, the floor row 1 spans y 16..32
    m = axis_move(grid, falling, 0.0, 13.0)
    assert m.y == 12.0 and m.contacts.on_ground
    assert ArticleAxis(gap=0.0).move(grid, falling, 0.0, 13.0, False).y == 32.0


def test_rows_from_floor_not_int():
    """A body just above the map (its bottom at y = -0.5, after a jump out of the top) moving over
    a row of solid tiles at row 0. ``(int)(-0.5 / 16)`` is 0, not -1, so the article's range box
    takes in row 0 and, as this resolver tests the range box itself, the body would hit it."""
    grid = TileGrid.from_rows(["####", "....", "...."])
    body = Body(4.0, -10.5, 10.0, 10.0)
    m = axis_move(grid, body, 20.0, 0.0)
    assert m.x == 24.0 and not m.contacts.hit_right
    m = axis_move(grid, body, 0.0, 0.25)
    assert m.y == -10.25 and not m.contacts.on_ground
    m = axis_move(grid, body, 0.0, 1.0)  # reaches row 0 now: lands exactly on it
    assert m.y == -10.0 and m.contacts.on_ground
    # the article's range box, ``(int)`` of each edge: the body's bottom edge (y = -0.5) falls in
    # row 0, so row 0's tiles would be in the range box this resolver pushes out of (it tests
    # the range box itself, without the article's box-against-box check); floor() says row -1
    bottom = body.y + body.h
    assert int(bottom / T) == 0 and math.floor(bottom / T) == -1
    assert list(grid.rows_between(body.y + EPS, bottom - EPS)) == [-1]


def test_outside_the_map_is_empty_not_clamped_to_the_edge():
    """The article caps indexes at the map's edges, so a cell above (or below, or beside) the map
    reads as the edge cell: a body above a solid row 0 would collide with it. Here every cell
    outside the map is empty: no crash, no invented tile."""
    grid = TileGrid.from_rows(["#..#", "....", "####"])
    above = Body(0.0, -40.0, 12.0, 14.0)
    below = Body(40.0, 3 * T + 30.0, 12.0, 14.0)
    for body in (above, below):
        m = axis_move(grid, body, 6.0, 5.0)
        assert (m.x, m.y) == (body.x + 6.0, body.y + 5.0) and m.contacts == Contacts(
            probed=m.contacts.probed)
    beside = axis_move(grid, Body(-40.0, 10.0, 12.0, 14.0), -3.0, 2.0)  # no mover: no crash
    assert (beside.x, beside.y) == (-43.0, 12.0)
    # the article's capped lookups: every row above the map reads as row 0
    m = move_body(ArticleAxis(gap=0.0, by_centre=False, capped=True), grid, above, 6.0, 5.0)
    # "hit" a tile from 26 px above the map: a wall that is not there
    assert m.contacts.hit_right and (m.x, m.y) != (6.0, -35.0)


def test_no_map_offset_tiles_sit_where_the_map_draws_them():
    """The tile at (col, row) covers [col * tile_w, (col + 1) * tile_w) from the map's top-left
    corner, whatever the map's size: the article's centring offset (half the map) is zero here.
    Carrying the article's offset over a top-left map moves every tile by half the map."""
    grid = TileGrid.from_rows([".....", ".....", "..#.."])  # offset would be 40 x 24 px
    body = Body(34.0, 10.0, 10.0, 10.0)  # over the tile (2, 2), which spans x 32..48, y 32..48
    m = move_body(create("axis"), grid, body, 0.0, 20.0)
    assert m.y == 2 * T - 10.0 and m.contacts.on_ground
    article = move_body(ArticleAxis(gap=0.0, by_centre=False, map_offset=True), grid, body,
                        0.0, 20.0)
    assert article.y == 30.0 and not article.contacts.on_ground  # fell past the drawn tile
    assert move_body(ArticleAxis(gap=0.0, by_centre=False), grid, body, 0.0, 20.0).y == 22.0


def test_one_way_blocks_only_from_above():
    """The article knows only walls: a one-way tile would block sideways and from below too."""
    grid = TileGrid.from_rows(["......", "......", "..==..", "......", "######"])
    r = create("axis")
    beside = Body(18.0, 32.0 + 2.0, 12.0, 10.0)  # at the platform's height, left of it
    m = move_body(r, grid, beside, 6.0, 0.0)
    assert m.x == 24.0 and not m.contacts.hit_right
    assert ArticleAxis(gap=0.0, by_centre=False).move(grid, beside, 6.0, 0.0, False).x == 20.0
    under = Body(36.0, 48.0 + 1.0, 12.0, 10.0)  # just under it, jumping
    m = move_body(r, grid, under, 0.0, -6.0)
    assert m.y == under.y - 6.0 and not m.contacts.hit_ceiling
    assert ArticleAxis(gap=0.0, by_centre=False).move(grid, under, 0.0, -6.0, False).y == 48.0
    above = Body(36.0, 32.0 - 10.0 - 2.0, 12.0, 10.0)
    m = move_body(r, grid, above, 0.0, 6.0)
    assert m.y == 22.0 and m.contacts.on_ground and m.contacts.on_one_way
    m = move_body(r, grid, Body(36.0, 22.0, 12.0, 10.0), 0.0, 6.0, drop_through=True)
    assert m.y == 28.0 and not m.contacts.on_ground


def test_one_way_is_judged_by_the_bottom_at_the_start_of_the_tick():
    """A body falling past a platform's end reaches its column in a later sub-step, with its
    bottom already below the top. The tick began above the top (``Body.tick_bottom``, read through
    ``Body.one_way_bottom``), so the platform still counts: the body is lifted onto it. Judged by
    the bottom before each sub-step's move instead, the platform would no longer count and the
    body would end inside it."""
    grid = TileGrid.from_rows(["....", "....", "..==", "...."])
    body = Body(20.0, 20.0, 10.0, 10.0)  # bottom 30, 2 px above the top; right edge 30, tile at 32
    m = move_body(create("axis"), grid, body, 4.0, 6.0)  # two sub-steps
    assert (m.x, m.y) == (24.0, 22.0) and m.contacts.on_ground
    assert free(grid, m, body)
    # with a solid tile on the platform there is no room: the mover stops it at the platform's end
    capped = TileGrid.from_rows(["....", "..##", "..==", "...."])
    m = move_body(create("axis"), capped, body, 4.0, 6.0)
    assert (m.x, m.y) == (22.0, 26.0) and m.contacts.hit_right and not m.contacts.on_ground
    assert free(capped, m, body)
    # the same two sub-steps by hand: the second one starts 1 px below the top, beside it
    first = axis_move(grid, Body(20.0, 20.0, 10.0, 10.0, tick_bottom=30.0), 2.0, 3.0)
    assert (first.x, first.y) == (22.0, 23.0) and not first.contacts.on_ground
    second = axis_move(grid, Body(22.0, 23.0, 10.0, 10.0, tick_bottom=30.0), 2.0, 3.0)
    assert (second.x, second.y) == (24.0, 22.0) and second.contacts.on_ground
    # judged by the bottom before this move (33, below the top): not counted, ends inside it
    before_move = axis_move(grid, Body(22.0, 23.0, 10.0, 10.0), 2.0, 3.0)
    assert (before_move.x, before_move.y) == (24.0, 26.0) and not before_move.contacts.on_ground
    assert overlapping_tiles(grid, 24.0, 26.0, 10.0, 10.0, 30.0, False) == [(2, 2)]


def test_slope_tiles_by_their_shape():
    """The y pass reads the floor height at the body's foot; the x pass lifts the body onto it
    (at most a 45-degree climb) or stops it where the surface reaches its bottom."""
    grid = TileGrid.from_rows(["....", "....", "./\\.", "####"])
    r = create("axis")
    # falling onto the peak between '/' and '\\': lands on the surface's highest point under it
    m = move_body(r, grid, Body(26.0, 10.0, 10.0, 10.0), 0.0, 14.0)
    assert m.y == 32.0 - 10.0 and m.contacts.on_ground  # the peak at x=32 is at the tile's top
    m = move_body(r, grid, Body(10.0, 10.0, 10.0, 10.0), 0.0, 30.0)
    assert m.y == 48.0 - 4.0 - 10.0 and m.contacts.on_ground  # the '/' is 4 px high at x=20
    # walking into the low side from the floor: lifted by the climb, full speed
    m = move_body(r, grid, Body(0.0, 38.0, 10.0, 10.0), 10.0, 0.0)
    assert m.x == 10.0 and m.y == 38.0 - 4.0 and not m.contacts.hit_right
    # the x pass alone: the lift is part of it, before any vertical motion
    x, y, flags = r.move_box(grid, 0.0, 38.0, 10.0, 10.0, 10.0, 0.0, 48.0, False, None)
    assert (x, y, flags) == (10.0, 34.0, 0)


def test_slope_side_steps_and_half_tiles():
    """A slope's full-height side is a wall; a half tile (equal heights) is a step half a tile
    high: a wall to a body on the floor, a floor to land on half a tile up."""
    half = {"h": (8.0, 8.0)}
    grid = TileGrid.from_rows(["......", "..\\h..", "######"], slope_chars=half)
    r = create("axis")
    m = move_body(r, grid, Body(16.0, 20.0, 12.0, 12.0), 8.0, 0.5)
    assert m.x == 20.0 and m.contacts.hit_right and m.y == 20.0  # the '\\' side is a wall
    m = move_body(r, grid, Body(70.0, 20.0, 12.0, 12.0), -8.0, 0.5)
    assert m.x == 64.0 and m.contacts.hit_left and m.y == 20.0  # the half tile's side
    m = move_body(r, grid, Body(50.0, 0.0, 12.0, 12.0), 0.0, 14.0)
    assert m.y == 24.0 - 12.0 and m.contacts.on_ground  # on the half tile's top, 8 px up


def test_fast_bodies_do_not_tunnel_because_the_mover_sub_steps():
    """One destination-only move at 4 tiles a tick jumps over a 1-tile wall (the article checks
    only where the body ends up); through the mover, sub-steps stop it at the wall."""
    grid = TileGrid.from_rows(["..........", "....#.....", ".........."])
    body = Body(20.0, 18.0, 12.0, 12.0)
    jumped = axis_move(grid, body, 64.0, 0.0)
    assert jumped.x == 84.0 and not jumped.contacts.hit_right
    m = move_body(create("axis"), grid, body, 64.0, 0.0)
    assert m.x == 4 * T - 12.0 and m.contacts.hit_right
    floor = TileGrid.from_rows(["....", "....", "####", "....", "...."])
    falling = Body(10.0, 0.0, 12.0, 12.0)
    assert not axis_move(floor, falling, 0.0, 64.0).contacts.on_ground
    m = move_body(create("axis"), floor, falling, 0.0, 64.0)
    assert m.y == 32.0 - 12.0 and m.contacts.on_ground


def test_exact_edges_one_tile_body_through_one_tile_gaps():
    """Touching is not overlapping: a body exactly one tile wide drops through a one-tile gap and
    one exactly one tile high walks through a one-tile tunnel, both at full speed."""
    gap = TileGrid.from_rows(["....", "....", "#.##", "....", "####"])
    m = move_body(create("axis"), gap, Body(16.0, 0.0, 16.0, 16.0), 0.0, 40.0)
    assert m.y == 40.0 and not m.contacts.on_ground
    tunnel = TileGrid.from_rows(["######", "......", "######"])
    m = move_body(create("axis"), tunnel, Body(0.0, 16.0, 16.0, 16.0), 30.0, 0.4)
    assert m.x == 30.0 and m.y == 16.0 and m.contacts.on_ground
    assert not (m.contacts.hit_left or m.contacts.hit_right)
