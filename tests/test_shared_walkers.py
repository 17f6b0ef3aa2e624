"""Walkers shared by a comparison's worlds (``game.sim.shared_walkers``): every world sees, every
tick, exactly the walkers a world run alone with its resolver has."""

from __future__ import annotations

from pathlib import Path

import pytest

from game import config, resolvers
from game.sim.ghosts import Comparison
from game.sim.inputs import InputFrame
from game.maps.level import load_level
from game.sim.world import OWN_WALKERS, World
from test_level_loader import write_map

ROOT = Path(__file__).resolve().parent.parent
CROWD = ROOT / "levels" / "04_crowd.tmx"


def state(world: World) -> tuple:
    p = world.player
    return (tuple((float(k.x).hex(), float(k.y).hex(), k.vy, k.facing, k.on_ground, k.fallen, k.prev_x,
                   k.prev_y) for k in world.walkers), p.x, p.y, p.vx, p.vy, tuple(world.events))


def distinct(worlds: list[World]) -> int:
    """How many walker objects the worlds hold between them."""
    return len({id(k) for w in worlds for k in w.walkers})


def frames(ticks: int) -> list[InputFrame]:
    """Run right, then left, jumping now and then: into walkers, onto them, and out again."""
    return [InputFrame(move=1 if t // 200 % 2 == 0 else -1, jump_held=t % 45 < 14,
                       jump_pressed=t % 45 == 0, throw_pressed=t % 250 == 240)
            for t in range(ticks)]


def same_as_alone(level, ticks: int, counted: list[int] | None = None) -> Comparison:
    """Step a comparison and a world alone per resolver on ``level`` with the same frames,
    checking every world against its lone twin after every tick (and appending to ``counted``
    how many walkers the worlds hold between them after each)."""
    cfg = config.load(ROOT / "config.toml")
    comparison = Comparison.create(level, cfg.physics, cfg)
    alone = [World(level, cfg.physics, resolvers.create(w.resolver.name),
                          cfg.spear) for w in comparison.worlds]
    for t, frame in enumerate(frames(ticks)):
        comparison.step(frame)
        for w, a in zip(comparison.worlds, alone):
            a.step(frame)
            assert state(w) == state(a), (w.resolver.name, t)
        if counted is not None:
            counted.append(distinct(comparison.worlds))
    return comparison


def test_crowds_worlds_share_their_walkers_and_each_sees_its_own():
    level = load_level(CROWD)
    cfg = config.load(ROOT / "config.toml")
    comparison = Comparison.create(level, cfg.physics, cfg)
    assert distinct(comparison.worlds) == 200  # one set of walkers for every resolver
    counted: list[int] = []
    comparison = same_as_alone(level, 600, counted)
    # Until the spears fly (tick 240): the players met walkers on the way, and the pens' walkers
    # their walls, so some walkers are some worlds' own, but most are shared still.
    assert 200 < counted[239] < 2 * 200
    assert counted[-1] == 7 * 200  # a world whose spear flies goes on with walkers of its own


def test_a_hill_splits_the_resolvers_that_take_it_differently(tmp_path):
    """Walkers that walk over a slope with some resolvers and turn at it with others: each world
    leaves its group the tick its resolver answers differently, and never sees another's."""
    rows = ["....................",
            "....................",
            "....................",
            "......../\\..........",
            "####################"]
    objects = ('<object id="1" name="spawn" x="296" y="60"><point/></object>'
               + "".join(f'<object id="{i}" type="walker" x="{x}" y="60"><point/></object>'
                         for i, x in ((2, 40), (3, 70), (4, 200), (5, 230))))
    level = load_level(write_map(tmp_path, rows=rows, objects=objects))
    comparison = same_as_alone(level, 300)
    assert distinct(comparison.worlds) > len(level.walkers)


@pytest.mark.parametrize("level", ["03_moon_hop.tmx", "05_features.tmx"])
def test_levels_without_a_crowd_run_as_alone(level):
    same_as_alone(load_level(ROOT / "levels" / level), 200)


def test_a_switch_a_restart_and_ghosts_turned_on_mid_level_keep_the_walkers_apart():
    cfg = config.load(ROOT / "config.toml")
    level = load_level(CROWD)
    player = World(level, cfg.physics, resolvers.create("axis"), cfg.spear)
    comparison = Comparison.create(level, cfg.physics, cfg, player=player)
    for frame in frames(50):
        comparison.step(frame)
    player.set_resolver(resolvers.create("sweep"))
    others = [w for w in comparison.worlds if w is not player]
    assert player.walker_turn is OWN_WALKERS and distinct([player]) + distinct(others) == distinct(
        comparison.worlds)  # none of the player's walkers is another world's
    comparison.adopt(player)  # a new ghost for axis, its walkers from their spawns
    comparison.follow(player)
    # the others share again from here; axis's new ghost holds walkers a tick-50 world does not
    together = [w for w in comparison.worlds if w.resolver.name != "axis"]
    assert distinct(together) == 200 and distinct(comparison.worlds) == 400
    ghost = comparison.worlds[1]
    ghost.restart()
    assert ghost.walker_turn is OWN_WALKERS and distinct([ghost, player]) == 400
    for frame in frames(50):
        comparison.step(frame)
    assert all(not k.fallen for k in ghost.walkers)
