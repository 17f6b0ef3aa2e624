"""``pixel`` on its own: what the Celeste technique does that the shared suite does not ask for.

Corner correction (on, off, its reach and direction), the 1 px per px step up while walking (and
not in the air), the float position carrying the sub-pixel remainder, jump-through platforms, and
the options it reads from ``[resolvers.pixel]``; and that its answers in play (read from the
grid's row masks) are the full passes' answers.
"""

from __future__ import annotations

import pytest
from helpers import TILE_SHAPES, Body, examples, step
from hypothesis import given, settings
from hypothesis import strategies as st

from game import config
from game.maps.grid import TileGrid
from game.resolvers import create
from game.resolvers.pixel import PixelOptions, PixelResolver

T = 16
# a ceiling block over columns 7..9 of row 3; open below it
CEILING = TileGrid.from_rows(["..........", "..........", "..........", ".......###",
                              "..........", "..........", "..........", "##########"], T)


def pixel(corner: float = -1.0) -> PixelResolver:
    return create("pixel", PixelOptions(corner))


@pytest.mark.parametrize("covered", [1.0, 2.5, 4.0])
def test_a_jump_under_a_ceiling_corner_is_nudged_round_it(covered):
    """Up to tile/4 (4 px on 16 px tiles) of the body under the ceiling: nudged left, no bump."""
    x = 7 * T - 12 + covered
    m = step(pixel(), CEILING, Body(x, 4 * T + 2, 12, 14), 0.0, -8.0)
    assert m.x == 7 * T - 12 and m.y == pytest.approx(4 * T + 2 - 8.0)
    assert not m.contacts.hit_ceiling


def test_past_its_reach_or_switched_off_the_corner_is_a_ceiling():
    for resolver, covered in ((pixel(), 5.0), (pixel(0.0), 1.0)):
        x = 7 * T - 12 + covered
        m = step(resolver, CEILING, Body(x, 4 * T + 2, 12, 14), 0.0, -8.0)
        assert m.x == x and m.y == 4 * T and m.contacts.hit_ceiling


def test_the_nudge_follows_the_motion_and_is_capped_at_half_the_body():
    # moving right under the ceiling's left corner: Celeste only tries the way it is going
    x = 7 * T - 12 + 2.0
    m = step(pixel(), CEILING, Body(x, 4 * T + 2, 12, 14), 1.0, -8.0)
    assert m.contacts.hit_ceiling and m.y == 4 * T
    # a 6 px body: at most 3 px, whatever the option says
    m = step(pixel(8.0), CEILING, Body(7 * T - 6 + 3.5, 4 * T + 2, 6, 14), 0.0, -8.0)
    assert m.contacts.hit_ceiling


def test_walking_steps_up_one_pixel_per_pixel_but_a_falling_body_does_not():
    # a half-tile-high slope start is 45 degrees: climbed; a 2 px ledge is a wall
    grid = TileGrid.from_rows(["......", "......", "..../#", "######"], T)
    m = step(pixel(), grid, Body(3 * T - 12, 3 * T - 14, 12, 14), 2.0, 0.2)
    assert m.x == pytest.approx(3 * T - 10) and m.y == pytest.approx(3 * T - 14 - 0.0)
    ledge = TileGrid.from_rows(["....", "..#.", "....", "####"], T, 8)
    # the ledge's top is 2 px above the walker's feet: it stops at its side
    body = Body(2 * T - 12, 16 + 2 - 14, 12, 14)
    m = step(pixel(), ledge, body, 3.0, 0.0)
    assert m.x == 2 * T - 12 and m.contacts.hit_right


def test_a_one_pixel_step_is_climbed_only_from_the_ground():
    # "s": tiles 1 px high (a slope tile with both heights 1) on a floor
    grid = TileGrid.from_rows(["....", "..ss", "####"], T, slope_chars={"s": (1.0, 1.0)})
    walking = step(pixel(), grid, Body(2 * T - 12, 2 * T - 14, 12, 14), 2.0, 0.2)
    assert walking.x == 2 * T - 10 and walking.y == 2 * T - 15 and walking.contacts.on_ground
    # half a pixel above the floor, in the air: the step is a wall
    falling = step(pixel(), grid, Body(2 * T - 12, 2 * T - 14.5, 12, 14), 2.0, 0.0)
    assert falling.contacts.hit_right and falling.x == pytest.approx(2 * T - 12)


def test_the_float_position_keeps_the_remainder():
    """Celeste's Position + remainder is the float x: many small moves add up exactly."""
    grid = TileGrid.from_rows(["." * 40, "#" * 40], T)
    x, y = 3.0, T - 14.0
    for _ in range(90):
        m = step(pixel(), grid, Body(x, y, 12, 14), 130 / 60, 0.4)
        x, y = m.x, m.y
        assert m.contacts.on_ground and y == T - 14.0
    assert x == pytest.approx(3.0 + 90 * 130 / 60)


def test_jump_through_platforms_hold_from_above_only():
    grid = TileGrid.from_rows(["....", "....", "====", "....", "####"], T)
    up = step(pixel(), grid, Body(T, 3 * T + 1, 12, 14), 0.0, -20.0)
    assert not up.contacts.hit_ceiling and up.y == pytest.approx(3 * T - 19)
    down = step(pixel(), grid, Body(T, 2 * T - 14 - 5, 12, 14), 0.0, 10.0)
    assert down.contacts.on_ground and down.y == 2 * T - 14
    through = step(pixel(), grid, Body(T, 2 * T - 14, 12, 14), 0.0, 10.0, drop_through=True)
    assert not through.contacts.on_ground and through.y == pytest.approx(2 * T - 4)


def test_config_reads_the_corner_correction(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text("[resolvers.pixel]\ncorner_correction = 2.5\n")
    cfg = config.load(path)
    assert cfg.resolver_options("pixel") == PixelOptions(2.5)
    path.write_text("[resolvers.pixel]\ncorner_correction = -3.0\n")
    with pytest.raises(Exception) as err:
        config.load(path)
    assert "corner_correction" in str(err.value)


@pytest.mark.parametrize("rows,body,dx,ends", [
    # walking down a slope into the column of a one-way tile whose top it began on: onto it
    (['....', '....', '....', '....', '....', '.=/.'], (75.75, 158.0, 27.0, 2.0), -12.0, 158.0),
    # ... and past an empty column into one: onto it too
    (['\\.='], (0.0, -2.0, 2.0, 2.0), 31.0, -2.0),
])
def test_a_body_walking_down_never_ends_under_a_one_way_top_it_began_on(rows, body, dx, ends):
    """Found by hypothesis: the no-overlap rule holds a one-way tile against a body that was at
    or above its top when the move began, so a body that walked down a slope in the same move
    and then came over such a tile stands on it."""
    from game.resolvers import move_body
    from game.resolvers.base import Body, overlapping_tiles
    tile = 32 if len(rows) > 1 else 16
    g = TileGrid.from_rows(rows, tile)
    start = Body(*body)
    m = move_body(create("pixel"), g, start, dx, 0.0, was_on_ground=True)
    assert m.y == ends
    assert overlapping_tiles(g, m.x, m.y, start.w, start.h, start.y + start.h, True) == []


# In play (no probe) each pass first answers from the grid's row masks; asked for the cells, it
# walks the technique in full. Both must give the same move, float for float.
CELL_CHARS = "....##=/\\h"


@settings(max_examples=examples(300), deadline=None)
@given(data=st.data())
def test_the_answers_in_play_are_the_full_passes_answers(data):
    tw, th = data.draw(st.sampled_from(TILE_SHAPES), label="tile")
    cols, rows = data.draw(st.integers(1, 8)), data.draw(st.integers(1, 8))
    chars = data.draw(st.sampled_from(["...#", "...#", "...##=", CELL_CHARS]), label="kinds")
    lines = [data.draw(st.text(chars, min_size=cols, max_size=cols)) for _ in range(rows)]
    grid = TileGrid.from_rows(lines, tw, th, slope_chars={"h": (th / 2, th / 2)})
    edge = st.integers(0, 2 * max(cols, rows))  # half tiles: boxes on borders and tops
    w = data.draw(st.sampled_from([tw / 2, tw - 4.0, float(tw), tw + 6.5]), label="w")
    h = data.draw(st.sampled_from([th / 2, th - 2.0, float(th), 2.0 * th]), label="h")
    x = data.draw(edge) * tw / 2 - data.draw(st.sampled_from([0.0, w, 0.5, 1e-7, w + 3.0]))
    y = data.draw(edge) * th / 2 - data.draw(st.sampled_from([0.0, h, 0.5, 1e-7, h + 3.0, h + 0.5]))
    speed = st.one_of(st.sampled_from([0.0, 1.0, -1.0, 5.0, -5.0, 8.0, -8.0]),
                      st.floats(-2.0 * tw, 2.0 * tw, allow_nan=False))
    dx, dy = data.draw(speed, label="dx"), data.draw(speed, label="dy")
    drop = data.draw(st.booleans(), label="drop_through")
    resolver = pixel()
    cells: list[tuple[int, int]] = []
    in_play = resolver.move_box(grid, x, y, w, h, dx, dy, y + h, drop, None)
    assert in_play == resolver.move_box(grid, x, y, w, h, dx, dy, y + h, drop, cells)


def test_the_row_masks_follow_a_changed_grid():
    """A door turning makes a new grid (with_kinds): the next move reads that grid's rows."""
    resolver = pixel()
    grid = TileGrid.from_rows(["......", "......", "######"], T)
    assert resolver.move_box(grid, 0.0, 2 * T - 14, 12, 14, 40.0, 1.0, 2 * T, False, None) \
        == (40.0, 2 * T - 14, 1)  # ON_GROUND: walked along the floor
    door = grid.with_kinds({1 * 6 + 2: 1})  # a solid tile in the body's row, column 2
    x, _, flags = resolver.move_box(door, 0.0, 2 * T - 14, 12, 14, 40.0, 1.0, 2 * T, False, None)
    assert x == 2 * T - 12 and flags & 8  # HIT_RIGHT: stopped at the door's side
    x, _, _ = resolver.move_box(grid, 0.0, 2 * T - 14, 12, 14, 40.0, 1.0, 2 * T, False, None)
    assert x == 40.0  # and the old grid is read again when it comes back
