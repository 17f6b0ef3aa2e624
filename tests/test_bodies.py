"""The player against the walkers (game/sim/bodies.py): stomp from above, hurt otherwise, through a
broad phase that finds what brute force finds; and the no-overlap / no-tunnel rules with walkers
and moving platforms under random input, with every resolver."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game import resolvers
from game.sim.bodies import WalkerHash
from game.config import Config
from game.sim.inputs import InputFrame
from game.maps.level import WalkerSpawn, load_level
from game.sim.platforms import overlaps_solid_platform
from game.resolvers.base import overlapping_tiles
from game.sim.walkers import Walker
from game.sim.world import World
from helpers import examples, resolver_names
from test_level_loader import write_map
from test_platforms import FLOOR, ROWS, SPAWN, platform_xml, point_xml, prop
from test_walkers import walker_xml


def world_of(folder: Path, objects: str, name: str) -> World:
    level = load_level(write_map(folder, rows=ROWS, objects=objects))
    return World(level, Config().physics, resolvers.create(name))


# ----------------------------------------------------------------------------------------------
# Stomp and hurt
# ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", resolver_names())
def test_landing_on_a_walker_stomps_it_with_a_bounce(tmp_path, name):
    world = world_of(tmp_path, SPAWN.format(x=100, y=60)
                     + walker_xml(2, 100, FLOOR, '<property name="speed" type="float" value="0"/>'),
                     name)
    events = []
    for _ in range(60):
        world.step(InputFrame())
        events += world.events
        if events:
            break
    assert events == ["stomp"]
    assert world.walkers[0].fallen
    assert world.player.vy == -world.physics.stomp_speed and not world.player.respawning


@pytest.mark.parametrize("name", resolver_names())
def test_a_walker_walking_into_the_player_hurts_them(tmp_path, name):
    world = world_of(tmp_path, SPAWN.format(x=120, y=FLOOR) + walker_xml(2, 60, FLOOR), name)
    events = []
    for _ in range(200):
        world.step(InputFrame())
        events += world.events
    assert events[:2] == ["hurt", "respawn"]
    assert not world.walkers[0].fallen


@pytest.mark.parametrize("name", resolver_names())
def test_running_into_a_walker_hurts(tmp_path, name):
    world = world_of(tmp_path, SPAWN.format(x=40, y=FLOOR) + walker_xml(
        2, 160, FLOOR, '<property name="speed" type="float" value="0"/>'), name)
    for _ in range(120):
        world.step(InputFrame(move=1))
        if world.events:
            break
    assert world.events == ["hurt"] and world.player.respawning


def test_a_stomped_walker_comes_back_on_restart(tmp_path):
    world = world_of(tmp_path, SPAWN.format(x=100, y=60)
                     + walker_xml(2, 100, FLOOR, '<property name="speed" type="float" value="0"/>'),
                     "axis")
    for _ in range(60):
        world.step(InputFrame())
    assert world.walkers[0].fallen
    world.restart()
    assert not world.walkers[0].fallen
    assert world.walker_hash.touching(0, 0, 320, 160) == world.walkers


# ----------------------------------------------------------------------------------------------
# The broad phase
# ----------------------------------------------------------------------------------------------

boxes = st.tuples(st.floats(-40, 600), st.floats(-40, 400), st.floats(1, 100), st.floats(1, 100))


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(boxes, min_size=0, max_size=40), st.lists(boxes, min_size=1, max_size=5),
       st.lists(st.tuples(st.floats(-30, 30), st.floats(-30, 30)), max_size=40))
def test_the_hash_finds_what_brute_force_finds(walker_boxes, queries, moves):
    walkers = [Walker(WalkerSpawn(i + 1, x, y, w, h, 40.0, 1))
               for i, (x, y, w, h) in enumerate(walker_boxes)]
    hash_ = WalkerHash(walkers)
    for k, (dx, dy) in zip(walkers, moves):  # some move, some leave cells, then a refile
        k.x += dx
        k.y += dy
    if walkers:
        walkers[0].fallen = True
    hash_.update()
    for x, y, w, h in queries:
        want = [k for k in walkers if not k.fallen and k.x < x + w - 1e-6
                and k.x + k.w > x + 1e-6 and k.y < y + h - 1e-6 and k.y + k.h > y + 1e-6]
        assert hash_.touching(x, y, w, h) == want


# ----------------------------------------------------------------------------------------------
# Invariants under random input, with walkers and moving platforms
# ----------------------------------------------------------------------------------------------

BUSY = (SPAWN.format(x=40, y=FLOOR)
        + platform_xml(2, 80, 104, 48, 8, 3, prop("wait", 0.2)) + point_xml(3, 180, 56)
        + platform_xml(4, 200, 120, 32, 24, 5, prop("speed", 90)) + point_xml(5, 20, 120)
        + platform_xml(6, 16, 64, 40, 8, 7, prop("one_way", "true", "bool")) + point_xml(7, 16, 24)
        + walker_xml(8, 150, FLOOR) + walker_xml(9, 250, FLOOR, extra=' name="w2"'))

frames = st.lists(st.tuples(st.integers(-1, 1), st.booleans(), st.booleans(), st.booleans()),
                  min_size=1, max_size=240)


@pytest.mark.parametrize("name", resolver_names())
@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(script=frames)
def test_no_overlap_no_tunnel_with_bodies(tmp_path, name, script):
    world = world_of(tmp_path, BUSY, name)
    p, g = world.player, world.level.grid
    slopes = world.resolver.supports_slopes
    held_jump = False
    for move, jump, down, hold in script:
        bottom_before = p.y + p.h
        dropping = p.dropping > 0
        world.step(InputFrame(move=move, jump_pressed=jump and not held_jump,
                              jump_held=jump or hold, down=down))
        held_jump = jump or hold
        if p.respawning:
            continue
        before = float("inf") if dropping or p.dropping > 0 else bottom_before
        assert not overlapping_tiles(g, p.x, p.y, p.w, p.h, before, slopes)
        assert not overlaps_solid_platform(world.platforms, p.x, p.y, p.w, p.h)
        assert 16 <= p.x and p.x + p.w <= 304 and p.y + p.h <= FLOOR  # inside the walls
        for k in world.walkers:
            if not k.fallen:
                assert not overlapping_tiles(g, k.x, k.y, k.w, k.h, k.y + k.h, slopes)
                assert k.y + k.h <= FLOOR
