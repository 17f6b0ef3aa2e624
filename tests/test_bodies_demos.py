"""The demo maps of tests/data/bodies (made in Tiled), each played headless from its own
script with every resolver: the behaviour it shows happens, and the rules hold every tick."""

from __future__ import annotations

from pathlib import Path

import pytest

from game import config, resolvers
from game.sim.inputs import InputSequencer, load_script
from game.sim.platforms import overlaps_solid_platform
from game.resolvers.base import overlapping_tiles
from game.sim.world import load_world
from helpers import resolver_names

DEMOS = Path(__file__).resolve().parent / "data" / "bodies"


def play(name: str, resolver_name: str, ticks: int = 300):
    world = load_world(DEMOS / f"{name}.tmx", config.load(), resolvers.create(resolver_name))
    script, seq = load_script(DEMOS / f"{name}.txt"), InputSequencer()
    p, g = world.player, world.level.grid
    slopes = world.resolver.supports_slopes
    events, riding = [], 0
    for _ in range(ticks):
        bottom, dropping = p.y + p.h, p.dropping > 0
        world.step(seq.frame(script.held_at(world.tick)))
        events += world.events
        riding += p.riding is not None
        if not p.respawning:
            before = float("inf") if dropping or p.dropping > 0 else bottom
            assert not overlapping_tiles(g, p.x, p.y, p.w, p.h, before, slopes)
            assert not overlaps_solid_platform(world.platforms, p.x, p.y, p.w, p.h)
    return world, events, riding


def test_every_demo_is_tested():
    assert {p.stem for p in DEMOS.glob("*.tmx")} == {"riding", "squish", "one_way", "stomp",
                                                     "spear"}


@pytest.mark.parametrize("name", resolver_names())
def test_riding_carries_the_player_over_the_pit(name):
    world, events, riding = play("riding", name)
    assert riding > 90 and events == ["goal"]


@pytest.mark.parametrize("name", resolver_names())
def test_squish(name):
    world, events, _ = play("squish", name)
    assert events[:2] == ["squish", "respawn"]


@pytest.mark.parametrize("name", resolver_names())
def test_one_way_platform_up_through_and_down_through(name):
    world, events, riding = play("one_way", name)
    assert riding > 100 and world.player.riding is None
    assert world.player.y + world.player.h == 208 and not events


@pytest.mark.parametrize("name", resolver_names())
def test_stomp_two_walkers(name):
    world, events, _ = play("stomp", name, 240)
    assert events == ["stomp", "stomp", "goal"]
    assert all(k.fallen for k in world.walkers)


@pytest.mark.parametrize("name", resolver_names())
def test_spear_slides_on_the_floor_then_sticks_in_the_wall_as_a_ledge(name):
    world, _, _ = play("spear", name, 150)
    lying = [s for s in world.spears if s.state]
    assert len(lying) == 1 and not lying[0].ledge
    assert lying[0].x > 150  # the throw slid far along the floor
    world, events, riding = play("spear", name, 280)
    ledge = [s for s in world.spears if s.ledge]
    assert len(ledge) == 1 and world.player.riding is ledge[0] and riding > 20
