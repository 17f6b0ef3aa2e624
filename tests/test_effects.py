"""Feedback in the view (game.view.effects): what each change in the world sets off, and that
none of it reaches the simulation."""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from game.maps.level import Rect
from game.view.effects import (FLASH_TIME, LAND_SPEED, SHAKE_TIME, SQUASH_TIME, Effects,
                               Moment)

STILL = Moment(x=100.0, y=100.0, w=12.0, h=14.0, vy=0.0, on_ground=True, respawning=False,
               coins=0, last_throw=-1, goal=False)


def test_vanishing_sets_off_a_burst_of_the_bodys_colours():
    fx = Effects()
    fx.react(STILL, replace(STILL, respawning=True), [])
    assert len(fx.particles) >= 20
    assert all(abs(p.x - 106) < 1 and abs(p.y - 107) < 1 for p in fx.particles)


def test_vanishing_flashes_the_view_red_for_a_moment():
    pygame.init()
    fx = Effects()
    fx.react(STILL, replace(STILL, respawning=True), [])
    scene = pygame.Surface((64, 48))
    scene.fill((40, 40, 40))
    fx.particles.clear()
    fx.draw(scene, (0, 0))
    r, g, b, _ = scene.get_at((5, 5))
    assert r > g + 30 and r > b + 30  # reddened
    fx.update(FLASH_TIME + 0.01)
    scene.fill((40, 40, 40))
    fx.draw(scene, (0, 0))
    assert tuple(scene.get_at((5, 5)))[:3] == (40, 40, 40)  # gone
    calm = Effects()
    calm.react(STILL, STILL, [])
    assert calm.flash_left == 0


class Stomped:
    """A walker as the effects see it."""

    def __init__(self, x, y, fallen=True, facing=1):
        self.x, self.y, self.w, self.h, self.fallen, self.facing = x, y, 12.0, 12.0, fallen, facing


def test_a_stomped_walker_lies_squashed_flat_then_is_gone():
    pygame.init()
    pygame.display.set_mode((8, 8))
    from game.view.sprites import WalkerSprite

    under = Stomped(100.0, 112.0)  # the player's feet (114 after the tick) just into its top
    elsewhere = Stomped(300.0, 112.0)  # fallen long ago, somewhere else
    alive = Stomped(104.0, 112.0, fallen=False)
    fx = Effects()
    falling = replace(STILL, y=93.0, vy=420.0, on_ground=False)  # 7 px above it a tick ago
    fx.react(falling, replace(STILL, vy=-300), ["stomp"], (), [under, elsewhere, alive])
    assert [(sq.x, sq.bottom) for sq in fx.squashes] == [(106.0, 124.0)]
    scene = pygame.Surface((64, 48), pygame.SRCALPHA)
    fx.particles.clear()
    fx.draw(scene, (80, 90), WalkerSprite())
    drawn = [(x, y) for x in range(64) for y in range(48) if scene.get_at((x, y)).a]
    assert drawn and max(y for _, y in drawn) == 124 - 90 - 1  # on its feet's line
    height = max(y for _, y in drawn) - min(y for _, y in drawn) + 1
    assert height <= 6  # flat: a 16 px walker squashed to about a third
    for _ in range(3):
        fx.update(SQUASH_TIME / 2)
    assert fx.squashes == []
    pygame.quit()


def test_a_fast_landing_raises_dust_and_a_soft_one_does_not():
    air = replace(STILL, on_ground=False, vy=LAND_SPEED + 50)
    fx = Effects()
    fx.react(air, STILL, [])
    assert len(fx.particles) == 8 and all(p.y >= 113 for p in fx.particles)
    soft = Effects()
    soft.react(replace(air, vy=LAND_SPEED - 50), STILL, [])
    assert soft.particles == []


def test_a_stomp_shakes_the_view_unless_that_is_off_and_the_shake_dies_away():
    fx = Effects(shake=True)
    fx.react(STILL, STILL, ["stomp"])
    assert fx.shake() != (0, 0)
    fx.update(SHAKE_TIME + 0.01)
    assert fx.shake() == (0, 0)
    calm = Effects(shake=False)
    calm.react(STILL, STILL, ["stomp"])
    assert calm.shake() == (0, 0) and calm.particles  # the puff still shows


def test_a_coin_sparkles_and_a_throw_holds_the_pose_briefly():
    fx = Effects()
    fx.react(STILL, replace(STILL, coins=1, last_throw=30), [])
    assert fx.particles and fx.throwing > 0
    fx.update(0.25)
    assert fx.throwing == 0


def test_the_goal_raises_a_pennant_up_the_pole_with_confetti():
    fx = Effects()
    goal = Rect(200.0, 60.0, 16.0, 32.0)
    fx.react(STILL, replace(STILL, x=202.0, y=78.0, goal=True), [], (goal,))
    assert fx.pennant == (208.0, 92.0, 60.0) and len(fx.particles) >= 30
    pygame.init()
    scene = pygame.Surface((320, 180))
    seen = []
    for _ in range(3):
        scene.fill((0, 0, 0))
        fx.draw(scene, (0, 0))
        ys = [y for y in range(180) if tuple(scene.get_at((211, y)))[:3] == (255, 214, 60)]
        seen.append(min(ys))
        fx.update(0.3)
    assert seen[0] > seen[1] > seen[2] >= 60  # it rises to the top of the pole


def test_particles_age_out_and_are_bounded():
    fx = Effects()
    for _ in range(100):
        fx.react(STILL, replace(STILL, respawning=True), [])
    assert len(fx.particles) <= 600
    for _ in range(40):
        fx.update(0.05)
    assert fx.particles == []


@pytest.mark.parametrize("level", ["05_features.tmx", "04_crowd.tmx"])
def test_the_effects_never_change_the_simulation(level):
    """Two runs of the same keys, one with the effects reacting to every tick, give the same
    world tick for tick."""
    from pathlib import Path

    from game import config, resolvers
    from game.sim.inputs import InputFrame
    from game.sim.world import load_world
    cfg = config.Config()
    path = Path(__file__).resolve().parent.parent / "levels" / level
    a = load_world(path, cfg, resolvers.create("axis"))
    b = load_world(path, cfg, resolvers.create("axis"))
    fx = Effects()
    for t in range(600):
        frame = InputFrame(move=1, jump_held=t % 50 < 20, jump_pressed=t % 50 == 0,
                           throw_pressed=t % 90 == 0)
        a.step(frame)
        before = Moment.of(b)
        b.step(frame)
        fx.react(before, Moment.of(b), b.events, b.level.goals, b.walkers)
        fx.update(1 / 60)
        pa, pb = a.player, b.player
        assert (pa.x, pa.y, pa.vx, pa.vy) == (pb.x, pb.y, pb.vx, pb.vy)


def test_the_stomp_demo_leaves_a_squashed_walker_where_it_was_stomped():
    from pathlib import Path

    from game import config, resolvers
    from game.sim.inputs import load_script
    from game.sim.world import load_world

    data = Path(__file__).resolve().parent / "data" / "bodies"
    world = load_world(data / "stomp.tmx", config.Config(), resolvers.create("axis"))
    frames = load_script(data / "stomp.txt").frames(130)
    fx = Effects()
    for frame in frames:
        before = Moment.of(world)
        world.step(frame)
        fx.react(before, Moment.of(world), world.events, world.level.goals, world.walkers)
        if "stomp" in world.events:
            stomped = [k for k in world.walkers if k.fallen]
            assert len(fx.squashes) >= 1
            sq = fx.squashes[-1]
            assert any(abs(sq.x - (k.x + k.w / 2)) < 1e-9 and sq.bottom == k.y + k.h
                       for k in stomped)
        fx.update(1 / 60)
    assert len([k for k in world.walkers if k.fallen]) == 2
