"""The collision promises on tiles of any aspect ratio, with every resolver.

The shared suite and the property tests run on square and wide tiles (``helpers.TILE_SHAPES``);
here the same promises meet tall tiles too (12x20, 8x24, 10x30), where a slope of half the tile's
height is steeper than 45 degrees: no body ends a tick inside a solid tile or a slope's solid
part (walking, falling and jumping with gravity and the mover's ground snap), and nothing
tunnels through a full wall or floor, whatever the speed.
"""

from __future__ import annotations

import pytest
from helpers import RUN_PER_TICK, Walker, resolver_names, resolver_params, step
from hypothesis import given, note
from hypothesis import strategies as st

from game.maps.grid import TileGrid
from game.resolvers import create
from game.resolvers.base import Body

TALL = [(12, 20), (8, 24), (10, 30)]
SHAPES = TALL + [(16, 16), (24, 8), (32, 16)]
SIZES = [(12.0, 14.0), (6.0, 6.0), (8.0, 20.0), (4.0, 30.0)]


@pytest.mark.parametrize("name", resolver_names())
@pytest.mark.parametrize("tile", [(8, 24), (10, 30)])
@pytest.mark.parametrize("size", SIZES[:3])
def test_walking_into_the_foot_of_a_slope_steeper_than_45_degrees(name, tile, size):
    """A walker on the floor runs into a slope rising to half the tile's height over its
    width: steeper than 45 degrees on tall tiles (swept slides on it; the box resolvers, whose
    climb is 45 degrees in tile units, walk up it). Every tick ends outside it (``helpers.step``
    checks). Before: swept slid the body up the surface, the mover's ground snap then slid it
    back down and kept only its y, up to 0.9 px inside the slope's foot."""
    tw, th = tile
    grid = TileGrid.from_rows(["........", "........", "....a...", "########"], tw, th,
                              {"a": (0.0, th / 2)})
    w, h = size
    walker = Walker(create(name), grid, 0.0, 3 * th - h, w, h, vx=RUN_PER_TICK, on_ground=True)
    for _ in range(60):
        walker.tick()  # (climbing it or stopped at its foot, as the resolver's rule says)


@st.composite
def steep_maps(draw) -> TileGrid:
    """Open air over two rows of solid tiles and slopes (steep ones on tall tiles), a floor."""
    tw, th = draw(st.sampled_from(SHAPES))
    cols = 10
    heights = st.floats(0.0, float(th), allow_nan=False)
    chars = {"a": (draw(heights), draw(heights)), "b": (draw(heights), draw(heights)),
             "h": (th / 2, th / 2)}
    lines = ["." * cols] * 3
    lines += ["".join(draw(st.lists(st.sampled_from("....#//\\\\abh"), min_size=cols,
                                    max_size=cols))) for _ in range(2)]
    lines.append("#" * cols)
    note(f"{tw}x{th} px tiles, {chars}:\n" + "\n".join(lines))
    return TileGrid.from_rows(lines, tw, th, chars)


@pytest.mark.parametrize("name", resolver_params())
@given(data=st.data())
def test_walkers_never_end_inside_a_tile_on_tiles_of_any_aspect(name, data):
    grid = data.draw(steep_maps(), label="map")
    w, h = data.draw(st.sampled_from(SIZES), label="size")
    x = data.draw(st.floats(0.0, grid.width_px - w), label="x")
    speed = data.draw(st.sampled_from((RUN_PER_TICK, -RUN_PER_TICK, 5.0, -5.0, 1.0)), label="vx")
    walker = Walker(create(name), grid, x, -h, w, h, vx=speed)  # falling in from above
    for tick in range(data.draw(st.integers(20, 120), label="ticks")):
        if walker.on_ground and data.draw(st.integers(0, 19), label=f"jump {tick}") == 0:
            walker.vy = -6.0
        walker.tick()  # helpers.step: no exception, finite, no overlap
        if walker.contacts.hit_left or walker.contacts.hit_right:
            if data.draw(st.booleans(), label=f"turn {tick}"):
                walker.vx = -walker.vx


@pytest.mark.parametrize("name", resolver_params())
@given(data=st.data())
def test_nothing_tunnels_through_a_full_wall_or_floor_on_tiles_of_any_aspect(name, data):
    tw, th = data.draw(st.sampled_from(SHAPES), label="tile")
    cols, rows = 10, 10
    vertical = data.draw(st.booleans(), label="a wall (else a floor)")
    line = data.draw(st.integers(3, 6), label="its column or row")
    cells = [["."] * cols for _ in range(rows)]
    for i in range(rows if vertical else cols):
        cells[i if vertical else line][line if vertical else i] = "#"
    grid = TileGrid.from_rows(["".join(r) for r in cells], tw, th)
    w, h = data.draw(st.sampled_from(SIZES), label="size")
    if vertical:
        x = data.draw(st.floats(0.0, line * tw - w), label="x")  # left of the wall
        y = data.draw(st.floats(0.0, rows * th - h), label="y")
    else:
        x = data.draw(st.floats(0.0, cols * tw - w), label="x")
        y = data.draw(st.floats(-2.0 * th, line * th - h), label="y")  # above the floor
    resolver = create(name)
    for tick in range(data.draw(st.integers(1, 6), label="ticks")):
        dx = data.draw(st.floats(-tw, 4.0 * tw), label=f"dx {tick}")
        dy = data.draw(st.floats(-th, 4.0 * th), label=f"dy {tick}")
        if vertical:  # beside the wall all the way (over the map's top there is no wall)
            dy = min(max(y + dy, 0.0), rows * th - h) - y
        m = step(resolver, grid, Body(x, y, w, h), dx, dy)
        x, y = m.x, m.y
        if vertical:
            assert x + w <= line * tw + 1e-6, f"through the wall at x {x}"
        else:
            assert y + h <= line * th + 1e-6, f"through the floor at y {y}"
