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
