"""Every [physics] value has a lower bound that still plays (issue 17: ``gravity = 1e-300`` was
accepted, and then the player never stood). At the bounds, at the slowest and the fastest tick
rates, with every resolver, a player stands, runs, jumps, lands and drops through a one-way
platform; just below them the config is refused, naming the key (config.toml states each range:
tests/test_config.py checks it)."""

from __future__ import annotations

from dataclasses import fields, replace
from pathlib import Path

import pytest

from game import config as cfgmod
from game import resolvers
from game.config import PhysicsConfig, range_text
from game.errors import UserError
from game.maps.grid import TileGrid
from game.maps.level import Level, Rect
from game.sim.inputs import InputFrame
from game.sim.world import World
from helpers import resolver_names

LOWEST = {f.name: f.metadata["lo"] for f in fields(PhysicsConfig)
          if f.metadata.get("lo") and f.name != "tick_rate"}


def load_text(tmp_path: Path, text: str):
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return cfgmod.load(path)


@pytest.mark.parametrize("key", ["gravity", "max_fall_speed", "ground_accel", "ground_decel",
                                 "air_accel", "air_decel", "drop_through_time", "water_max_fall"])
def test_a_vanishing_value_is_refused_naming_the_key_and_the_bound(tmp_path, key):
    with pytest.raises(UserError) as info:
        load_text(tmp_path, f"[physics]\n{key} = 1e-300\n")
    f = next(f for f in fields(PhysicsConfig) if f.name == key)
    assert key in info.value.message and range_text(f) in info.value.message
    assert f"from {f.metadata['lo']:g} to" in range_text(f)
    assert getattr(load_text(tmp_path, f"[physics]\n{key} = {f.metadata['lo']!r}\n").physics,
                   key) == f.metadata["lo"]  # the bound itself is allowed


# A floor, and a one-way platform (=) the player starts on.
ROWS = ["....................",
        "....................",
        "....................",
        "..........====......",
        "....................",
        "....................",
        "####################"]


@pytest.mark.parametrize("name", resolver_names())
@pytest.mark.parametrize("rate", [10.0, 60.0, 1000.0])
def test_the_least_physics_still_plays(name, rate):
    physics = replace(PhysicsConfig(), tick_rate=rate, **LOWEST)
    level = Level(path=Path("low.tmx"), title="low", grid=TileGrid.from_rows(ROWS, 16),
                  spawn=Rect(178, 34, 12, 14), spawn_is_point=False, goals=(), next_level=None,
                  properties={})
    world = World(level, physics, resolvers.create(name))
    p = world.player
    per_s = int(rate)

    def run(frame: InputFrame, seconds: float, until=lambda: False) -> bool:
        for _ in range(max(1, int(seconds * per_s))):
            world.step(frame)
            if until():
                return True
        return False

    assert run(InputFrame(), 1.0, lambda: p.on_ground), "stands on the one-way platform"
    drop = InputFrame(down=True, jump_held=True, jump_pressed=True)
    world.step(drop)
    assert run(InputFrame(down=True), 3.0, lambda: p.y > 48), "drops through it"
    assert run(InputFrame(), 10.0, lambda: p.on_ground and p.y == 96 - 14), "lands on the floor"
    x = p.x
    run(InputFrame(move=1), 1.0)
    assert p.x > x + 10, "runs"
    world.step(InputFrame(jump_held=True, jump_pressed=True))
    assert not p.on_ground and p.vy < 0, "jumps"
    # up 840 px at 100 px/s^2, down again at 50 px/s: about 21 s in the air
    assert run(InputFrame(jump_held=True), 30.0, lambda: p.on_ground), "comes back down"
