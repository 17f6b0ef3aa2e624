"""The shared mover (game.resolvers.base.move_body): what it adds around every resolver."""

from __future__ import annotations

import pytest

from game.maps.grid import TileGrid
from game.resolvers import create, move_body, names
from game.resolvers.base import Body, overlapping_tiles, substeps


def test_substeps_bound_each_part_by_half_the_smaller_of_tile_and_body():
    g = TileGrid.from_rows(["...."])
    assert substeps(g, 12, 14, 2.0, 0.4) == 1
    assert substeps(g, 12, 14, 64.0, 0.0) == 11  # 64 / 6
    assert substeps(g, 40, 40, 0.0, 64.0) == 8  # 64 / (16 / 2)


@pytest.mark.parametrize("name", names())
def test_walking_off_a_ledge_in_a_later_substep_falls_in_that_tick(name):
    """A landing in an early part must not freeze the later parts' vertical motion."""
    g = TileGrid.from_rows(["......", "......", "##....", "......", "......"])
    m = move_body(create(name), g, Body(29, 28, 4, 4), 6.0, 0.42, was_on_ground=True)
    assert m.x == pytest.approx(35.0)
    assert not m.contacts.on_ground, "the tick ended past the floor's end"
    assert m.y > 28.0


@pytest.mark.parametrize("name", names())
def test_a_one_way_tile_capped_by_a_solid_never_traps_a_small_fast_body(name):
    """Judged at the tick's start, a one-way tile can count for a late sub-step that reaches it
    from the side below its top; lifting the body onto it would put it inside the solid above."""
    g = TileGrid.from_rows(["......", "...#..", "...=..", "......", "######"])
    r = create(name)
    start = Body(48 - 4 - (130 / 60) * 0.875, 28.0, 4, 4)
    m = move_body(r, g, start, 130 / 60, 8.0)
    assert not overlapping_tiles(g, m.x, m.y, 4, 4, start.y + start.h, r.supports_slopes)


@pytest.mark.parametrize("name", names())
def test_contacts_report_walls_touched_during_the_tick_and_the_ground_where_it_ended(name):
    g = TileGrid.from_rows(["........", ".....#..", ".....#..", "########"])
    # Fast to the right along the floor into a wall: the wall is hit in an early part.
    m = move_body(create(name), g, Body(40, 34, 12, 14), 40.0, 0.5, was_on_ground=True)
    assert m.contacts.hit_right and m.contacts.on_ground
    assert m.x == pytest.approx(80 - 12) and m.y == pytest.approx(34)


@pytest.mark.parametrize("name", names())
def test_dropping_through_while_moving_sideways_keeps_the_sideways_motion(name):
    """The mover's re-check of a sub-step must ignore one-way tiles while dropping, as the
    resolver does: a drop that needs two sub-steps still moves sideways."""
    g = TileGrid.from_rows(["......", "......", "======", "......", "......", "......"])
    m = move_body(create(name), g, Body(10, 32 - 14, 12, 14), 4.0, 12.0, drop_through=True)
    assert m.x == pytest.approx(14.0) and not (m.contacts.hit_left or m.contacts.hit_right)
    assert m.y == pytest.approx(18 + 12.0)


def test_a_slope_of_height_0_has_nothing_under_its_surface_to_overlap():
    """A slope tile of heights 0/0 (its surface on the cell's bottom): a box reaching through
    that bottom into the row below overlaps nothing of it (pixel was found there by hypothesis,
    the rule counting the part of the box below the cell)."""
    grid = TileGrid.from_rows(["..s", "...", "==="], 16, 16, {"s": (0.0, 0.0)})
    assert overlapping_tiles(grid, 42.0, 15.0, 2.0, 2.0, 17.0, True) == []
    rising = TileGrid.from_rows(["..s", "...", "==="], 16, 16, {"s": (0.0, 4.0)})
    assert overlapping_tiles(rising, 42.0, 15.0, 2.0, 2.0, 17.0, True) == [(2, 0)]
