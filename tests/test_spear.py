"""The thrown spear (game/sim/spear.py) with every resolver: head-on it sticks (in a wall: a ledge to
stand on, until it falls away), glancing it slides; it never tunnels; at most max_spears."""

from __future__ import annotations

from dataclasses import replace

import pytest

from game import resolvers
from game.config import Config, SpearConfig
from game.sim.inputs import InputFrame
from game.maps.level import load_level
from game.resolvers.base import overlapping_tiles
from game.sim.spear import FLYING, IDLE, STUCK
from game.sim.world import World
from helpers import resolver_names
from test_level_loader import write_map
from test_platforms import FLOOR, ROWS, SPAWN
from test_walkers import walker_xml

THROW = InputFrame(throw_pressed=True)
HIGH_ROWS = ["#..................#",
             "###########........#"] + ROWS[2:]


def world_of(tmp_path, name: str, spawn: tuple[float, float], rows=ROWS, extra: str = "",
             spear: SpearConfig = SpearConfig()) -> World:
    level = load_level(write_map(tmp_path, rows=rows,
                                 objects=SPAWN.format(x=spawn[0], y=spawn[1]) + extra))
    return World(level, Config().physics, resolvers.create(name), spear)


def fly(world: World, ticks: int) -> list[tuple]:
    """Step with no input; the first spear's (x, y, vx, vy, state) after each tick. Checks that
    no spear in play overlaps a tile."""
    g, slopes = world.level.grid, world.resolver.supports_slopes
    seen = []
    for _ in range(ticks):
        world.step(InputFrame())
        for s in world.spears:
            if s.state != IDLE:
                assert not overlapping_tiles(g, s.x, s.y, s.w, s.h, s.y + s.h, slopes)
        s = world.spears[0]
        seen.append((s.x, s.y, s.vx, s.vy, s.state))
    return seen


@pytest.mark.parametrize("name", resolver_names())
def test_head_on_into_a_wall_it_sticks_as_a_ledge(tmp_path, name):
    world = world_of(tmp_path, name, (250, FLOOR))
    world.step(THROW)
    fly(world, 20)
    s = world.spears[0]
    assert s.state == STUCK and s.ledge and s.x + s.w == 288  # flush with the wall
    assert world.solids == [s]


@pytest.mark.parametrize("name", resolver_names())
def test_glancing_off_a_wall_it_slides_down_then_sticks_in_the_floor(tmp_path, name):
    spear = SpearConfig(speed=300.0, gravity=800.0, lift=0.0)
    world = world_of(tmp_path, name, (150, 16), rows=HIGH_ROWS, spear=spear)
    world.step(THROW)
    seen = fly(world, 90)
    sliding = [t for t in seen if t[0] + 8 == 304 and t[4] == FLYING and t[2] == 0]
    assert len(sliding) >= 2 and sliding[-1][1] > sliding[0][1]  # down the wall, not stuck
    s = world.spears[0]
    # in the floor: the top of the wall's foot (col 18, row 8) under the spear's right part
    assert s.state == STUCK and not s.ledge and s.y + s.h == 128 and s.x + s.w == 304


@pytest.mark.parametrize("name", resolver_names())
def test_glancing_on_a_floor_it_slides_along_it(tmp_path, name):
    world = world_of(tmp_path, name, (60, FLOOR))
    world.step(THROW)
    seen = fly(world, 90)
    landed = next(i for i, t in enumerate(seen) if t[1] + 4 == FLOOR)
    assert seen[landed][4] == FLYING  # glancing: no stick on landing
    s = world.spears[0]
    assert s.state == STUCK and not s.ledge and s.y + s.h == FLOOR
    assert s.x > seen[landed][0] + 20  # slid along the floor before stopping


@pytest.mark.parametrize("name", resolver_names())
def test_the_player_stands_on_a_stuck_spear_until_it_falls_away(tmp_path, name):
    world = world_of(tmp_path, name, (250, FLOOR))
    world.step(THROW)
    fly(world, 20)
    s, p = world.spears[0], world.player
    p.x, p.y = s.x - 4, s.y - p.h - 20
    fly(world, 30)
    assert p.on_ground and p.riding is s and p.y + p.h == s.y
    fly(world, round(world.spear.stuck_time * 60))
    assert s.state == IDLE and world.solids == []
    assert p.y + p.h == FLOOR


@pytest.mark.parametrize("name", resolver_names())
def test_a_spear_never_tunnels_through_a_wall(tmp_path, name):
    world = world_of(tmp_path, name, (250, FLOOR), spear=SpearConfig(speed=5000.0, lift=0.0))
    world.step(THROW)
    for x, *_ in fly(world, 10):
        assert x + 8 <= 288


@pytest.mark.parametrize("name", resolver_names())
def test_a_spear_defeats_a_walker(tmp_path, name):
    world = world_of(tmp_path, name, (60, FLOOR), extra=walker_xml(
        2, 120, FLOOR, '<property name="speed" type="float" value="0"/>'))
    world.step(THROW)
    fly(world, 20)
    assert world.walkers[0].fallen


def test_at_most_max_spears(tmp_path):
    world = world_of(tmp_path, "axis", (60, FLOOR), spear=replace(SpearConfig(), max_spears=2))
    for t in range(5):
        world.step(THROW)
        world.step(InputFrame())
    assert len(world.spears) == 2
    assert sorted(s.born for s in world.spears) == [6, 8]  # the two latest throws
