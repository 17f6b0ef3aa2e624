"""Walkers shared by a comparison's worlds (``game.sim.shared_walkers``): every world sees, every
tick, exactly the walkers a world run alone with its resolver has."""

from __future__ import annotations

from pathlib import Path

import pytest

from game import config, resolvers
from game.sim.ghosts import Comparison
from game.sim.inputs import InputFrame
from game.maps.level import load_level
from game.sim.world import World
from test_level_loader import write_map

ROOT = Path(__file__).resolve().parent.parent
CROWD = ROOT / "levels" / "04_crowd.tmx"


def state(world: World) -> tuple:
    p = world.player
    return (tuple((float(k.x).hex(), float(k.y).hex(), k.vy, k.facing, k.on_ground, k.fallen, k.prev_x,
                   k.prev_y) for k in world.walkers), p.x, p.y, p.vx, p.vy, tuple(world.events))


def frames(ticks: int) -> list[InputFrame]:
    """Run right, then left, jumping now and then: into walkers, onto them, and out again."""
    return [InputFrame(move=1 if t // 200 % 2 == 0 else -1, jump_held=t % 45 < 14,
                       jump_pressed=t % 45 == 0, throw_pressed=t % 160 == 80)
            for t in range(ticks)]


def same_as_alone(level, ticks: int) -> Comparison:
    """Step a comparison and a world alone per resolver on ``level`` with the same frames,
    checking every world against its lone twin after every tick."""
    cfg = config.load(ROOT / "config.toml")
    comparison = Comparison.create(level, cfg.physics, cfg)
    alone = [World.create(level, cfg.physics, resolvers.create(w.resolver.name),
                          cfg.spear) for w in comparison.worlds]
    for t, frame in enumerate(frames(ticks)):
        comparison.step(frame)
        for w, a in zip(comparison.worlds, alone):
            a.step(frame)
            assert state(w) == state(a), (w.resolver.name, t)
    return comparison


def test_crowds_worlds_share_their_walkers_and_each_sees_its_own():
    level = load_level(CROWD)
    cfg = config.load(ROOT / "config.toml")
    comparison = Comparison.create(level, cfg.physics, cfg)
    shared = {id(w.walkers) for w in comparison.worlds}
    assert len(shared) == 1  # one set of walkers for every resolver at the start
    comparison = same_as_alone(level, 600)
    # the players met walkers on the way: some worlds went on with walkers of their own
    assert len({id(w.walkers) for w in comparison.worlds}) > 1


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
    slopes = {w.resolver.supports_slopes for w in comparison.worlds}
    assert len({id(w.walkers) for w in comparison.worlds}) >= len(slopes)


@pytest.mark.parametrize("level", ["03_moon_hop.tmx", "05_features.tmx"])
def test_levels_without_a_crowd_run_as_alone(level):
    same_as_alone(load_level(ROOT / "levels" / level), 200)


def test_a_switch_a_restart_and_ghosts_turned_on_mid_level_keep_the_walkers_apart():
    cfg = config.load(ROOT / "config.toml")
    level = load_level(CROWD)
    player = World.create(level, cfg.physics, resolvers.create("axis"), cfg.spear)
    comparison = Comparison.create(level, cfg.physics, cfg, player=player)
    for frame in frames(50):
        comparison.step(frame)
    player.set_resolver(resolvers.create("sweep"))
    assert player.shared is None and all(player.walkers is not w.walkers
                                         for w in comparison.worlds if w is not player)
    comparison.adopt(player)  # a new ghost for axis, its walkers from their spawns
    comparison.follow(player)
    # the others share again from here; axis's new ghost holds walkers a tick-50 world does not
    together = {id(w.walkers) for w in comparison.worlds if w.resolver.name != "axis"}
    assert len(together) == 1 and id(comparison.worlds[0].walkers) not in together
    ghost = comparison.worlds[1]
    ghost.restart()
    assert ghost.shared is None and ghost.walkers is not player.walkers
    for frame in frames(50):
        comparison.step(frame)
    assert all(not k.fallen for k in ghost.walkers)
