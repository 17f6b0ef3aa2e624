"""The first promise, held where the property tests' random examples once broke it.

No body ends a tick inside a solid tile or a slope's solid part, and nothing tunnels, with every
resolver (issue #34). Each case here is a failing example that ``test_resolver_properties.py`` or
a longer fuzz found, cut down to a few tiles, and run with every resolver's play class and its
lesson through ``helpers.step`` (which checks the no-overlap rule after the move).
"""

from __future__ import annotations

import pytest
from helpers import Body, create, resolver_names, step

from game.maps.grid import TileGrid

NAMES = resolver_names()
EDGE = 1e-6


def both(name: str):
    """The resolver as play moves bodies with it, and its lesson."""
    return create(name), create(name, lesson=True)


# ------------------------------------------------------------------------------------------------
# A slope of height 0 is a line: its surface is its bottom. The no-overlap rule does not see it,
# yet the resolvers take it as a ceiling from below and a floor from above.
# ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
def test_a_body_squeezed_between_a_slope_and_a_ceiling_line_is_not_lifted_into_the_slope(name):
    """The ceiling (row 0, a slope of height 0, so a line at y = 16) is less than the body's
    height above the '/' surface at the body's next x: there is no room to climb. axis, corners
    and overlap lifted it onto the slope anyway (the lifted box is free by the no-overlap rule),
    then their rising pass pushed it back down under the line: 0.25 px inside the slope."""
    grid = TileGrid.from_rows([".....a......", "............", "...../......"], 16, 16,
                              {"a": (0.0, 0.0)})
    for resolver in both(name):
        # the body stands on the '/' surface with its top 0.75 px under the line
        m = step(resolver, grid, Body(92.25, 16.75, 2.0, 17.0), 1.0, -1.0)
        assert m.x >= 92.25 - EDGE, m


@pytest.mark.parametrize("dx, dy", [(0.0, 1.0), (0.0, -1.0), (1.0, 1.0), (1.0, -1.0), (0.0, 5.0),
                                    (0.0, -5.0), (-1.0, 0.5)])
@pytest.mark.parametrize("name", NAMES)
def test_a_body_already_across_a_line_is_not_pushed_out_of_it_into_a_wall(name, dx, dy):
    """The body (rows 1 to 2) is across the line at y = 32 (row 1's slope of height 0), a solid
    tile just above its top and the floor row just below its bottom. It meets the line from
    neither side, so nothing there stops it. Before, axis and corners took the line for a
    ceiling it had met from below and pushed it down to y = 32, into the floor; axis and overlap
    took it for a floor and lifted it onto the line, its top into the solid tile above (overlap
    then pushed it out sideways, off the map's left side)."""
    grid = TileGrid.from_rows(["#.", "z.", "..", "##"], 16, 16, {"z": (0.0, 0.0)})
    x0 = 0.0 if dx >= 0 else 1.0
    for resolver in both(name):
        m = step(resolver, grid, Body(x0, 17.0, 8.0, 17.0), dx, dy)
        assert 0.0 <= m.x <= grid.width_px - 8.0, m


# ------------------------------------------------------------------------------------------------
# One-way tiles hold a body that began the tick on or above their top, even sideways
# ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
def test_a_body_pushed_down_under_a_ceiling_corner_does_not_walk_into_a_platform(name):
    """The body stands on a platform (col 0), its head 1 px into the row of the solid tiles
    ahead (cols 2 and 3). sweep's sideways walk pushes it down under that ceiling corner (its
    bottom now 1 px below the platforms' top) and walked on into the next platform (col 4),
    which holds it: it was on the platforms' top when the tick began. That platform's side is a
    wall to it now (or a ledge to lift it back onto, with room)."""
    grid = TileGrid.from_rows(["..##..", "......", "=...=.", "......"], 16, 16)
    for resolver in both(name):
        step(resolver, grid, Body(2.0, 15.0, 12.0, 17.0), 60.0, 0.0)
        step(resolver, grid, Body(2.0, 15.0, 12.0, 17.0), 60.0, 0.41, was_on_ground=True)


@pytest.mark.parametrize("name", NAMES)
def test_a_body_walking_down_a_slope_stops_at_a_platforms_side_under_a_slopes_tip(name):
    """Walking down the '\\' slope (col 2), the body's bottom goes below the platform's top
    (col 3, y = 32) that it began the tick on. The next pixel step meets the 'a' slope above the
    platform, whose low side has height 0: pixel placed the body at the farthest point free of
    the slope, 2e-6 px into the platform's column (the platform was left out of the search)."""
    grid = TileGrid.from_rows(["......", "...a..", "..\\=..", "######"], 16, 16,
                              {"a": (0.0, 8.0)})
    for resolver in both(name):
        step(resolver, grid, Body(32.0, 12.0, 2.0, 20.0), 16.0, 0.41, was_on_ground=True)


@pytest.mark.parametrize("name", NAMES)
def test_a_body_that_steps_up_into_a_platforms_column_is_held_by_the_platform(name):
    """The body walks down the '\\' slope, below the platform's top (col 2, y = 16) that it
    began the tick on, then up the 'b' slope, whose top is lower than the platform's. The pixel
    step that brought it into the platform's column stepped it up onto 'b': pixel asked the
    platform (is there room on it? else its side is a wall) only after a free step, not after a
    step up, and ended 4 px inside it."""
    grid = TileGrid.from_rows(["....", "\\b=.", "####"], 16, 16, {"b": (0.0, 12.0)})
    for resolver in both(name):
        step(resolver, grid, Body(0.0, 14.0, 6.5, 2.0), 26.0, 0.41, was_on_ground=True)


# ------------------------------------------------------------------------------------------------
# Float rounding: a move never ends more than EPS inside a tile
# ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
def test_a_falling_body_wedged_within_eps_is_never_lifted_into_the_ceiling(name):
    """The body is wedged between a half tile (its top 1e-6 px inside it, within EPS) and the
    'a' slope under it. A move left climbs the slope by 1e-6 px and the falling pass found its
    surface that far above the body's bottom: sweep lifted the body onto it, 2e-6 px into the
    half tile. A falling body is never lifted: a floor within EPS is where it rests."""
    grid = TileGrid.from_rows([".h", "..", "..", ".a"], 8, 8,
                              {"a": (3.212728895945361, 0.0), "h": (5.956449811363649,) * 2})
    body = Body(8.554945910188222, 7.999999000000024, 6.594532116629696, 21.010133449223165)
    for resolver in both(name):
        step(resolver, grid, body, -8.792492886460984, 30.769486291098275)


# ------------------------------------------------------------------------------------------------
# The map's sides are walls, to the motion a resolver makes itself too
# ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
def test_a_slide_down_a_steep_slope_in_the_first_column_stays_in_the_map(name):
    """A body falls onto a '/' slope three times as tall as wide (8x24 tiles) in the map's first
    column. swept's slide along that steep surface goes down and to the left: it left the map
    (x = -2.3), where every cell is empty, and fell on through the platform under the slope.
    The map's side stops the slide, as a wall."""
    grid = TileGrid.from_rows(["/....", "=....", "....."], 8, 24)
    for resolver in both(name):
        x, y, w, h = 1.0, -20.0, 4.0, 10.0
        for _ in range(10):
            m = step(resolver, grid, Body(x, y, w, h), 0.0, 8.0)
            x, y = m.x, m.y
            assert 0.0 <= x <= grid.width_px - w, m
            assert y + h <= 24.0 + EDGE, f"through the platform: {m}"


@pytest.mark.parametrize("name", NAMES)
def test_a_body_touching_a_steep_slope_within_eps_is_not_lifted_into_the_tile_above(name):
    """The body's bottom-left corner is 7e-7 px into the column of a '\\' slope three times as
    steep as 45 degrees (10x30 tiles): inside its surface by 2e-6 px vertically, but less than
    EPS along the surface's normal (touching); a solid tile sits on its head. Moving up and left
    (a climb), swept put the body on the surface by lifting it 2e-6 px, into the tile above, and
    its slide went on up through it (to y = 28.55)."""
    grid = TileGrid.from_rows([".#", "\\."], 10, 30)
    for resolver in both(name):
        step(resolver, grid, Body(10.0 - 7e-7, 30.0, 12.0, 30.0), -5.0 / 6.0, -4.0 / 3.0)


@pytest.mark.parametrize("name", NAMES)
def test_a_body_cut_at_the_maps_side_never_ends_a_rounding_error_past_it(name):
    """The mover cuts a motion that would leave the map at its side; the sub-stepped resolvers
    add the parts of the cut motion back up, and the sum was 4e-16 px past the side (for a
    third of these starts), as swept's passes were on the living level (x = -5.6e-17)."""
    grid = TileGrid.from_rows(["......"] * 4 + ["######"])
    width = grid.width_px
    for resolver in both(name):
        for k in range(60):
            x = 1.0 + k * 0.37
            for w in (12.5, 3.3):
                left = step(resolver, grid, Body(x, 40.0, w, 14.0), -x - 7.3, 0.3)
                right = step(resolver, grid, Body(width - w - x, 40.0, w, 14.0), x + 7.3, 0.3)
                assert 0.0 <= left.x and right.x + w <= width, (x, w, left.x, right.x)


# ------------------------------------------------------------------------------------------------
# Found by a fuzz of whole worlds with the fastest physics config.toml allows: a fast move into
# the zero-height tip of a steep slope on tall tiles.
# ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
def test_a_fast_move_into_a_steep_slopes_tip_ends_outside_it(name):
    """A 6x6 body whose bottom is 8e-7 px above a row's bottom runs left (111 px in a tick:
    run_speed 5000 at 30 ticks a second) into a slope falling from 10 px to 0 over a 12x20
    tile, and drops 2.5 px. pixel's sideways step stopped where the body touches the slope
    within EPS, 2.2e-6 px into its column; its fall then looked from the row below the border
    its bottom sat on, passed the slope's tip and ended 1.8e-6 px inside the slope. It rests
    on the tip now."""
    grid = TileGrid.from_rows(["........", "......t=", "........"], 12, 20, {"t": (10.0, 0.0)})
    for resolver in both(name):
        step(resolver, grid, Body(90.0, 33.999999166667145, 6.0, 6.0), -111.11111111111111,
             2.5)
