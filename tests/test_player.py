"""Player movement numbers: ``World``/``Player`` on small grids, with the ``axis`` resolver.

Each test checks one tuning value of :class:`PhysicsConfig` against what the simulation does,
tick by tick. Grids are text: ``#`` solid, ``=`` one-way, ``.`` empty; tiles are 16 px.
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pytest

from game import resolvers
from game.config import PhysicsConfig
from game.maps.grid import TileGrid
from game.sim.inputs import InputFrame
from game.maps.level import Level, Rect, load_level
from game.sim.world import World

DATA = Path(__file__).parent / "data"
T = 16
W, H = 12.0, 14.0
DEFAULT = PhysicsConfig()

IDLE = InputFrame()
RIGHT = InputFrame(move=1)
LEFT = InputFrame(move=-1)


def jump(held: bool = True, pressed: bool = True, move: int = 0, down: bool = False):
    return InputFrame(move=move, down=down, jump_held=held, jump_pressed=pressed)


def make_world(rows: list[str], col: float, physics: PhysicsConfig = DEFAULT,
               floor_row: int | None = None) -> World:
    """A world on ``rows``, the player standing on the top of ``floor_row`` at column ``col``."""
    grid = TileGrid.from_rows(rows, T)
    if floor_row is None:
        floor_row = next(r for r, line in enumerate(rows) if line[int(col)] in "#=")
    spawn = Rect(col * T + 2, floor_row * T - H, W, H)
    level = Level(path=Path("grid.tmx"), title="grid", grid=grid, spawn=spawn,
                  spawn_is_point=False, goals=(), next_level=None, properties={})
    return World(level, physics, resolvers.create("axis"))


def steps(world: World, frames) -> list[tuple[float, float, float, float, bool]]:
    """Step once per frame; (x, y, vx, vy, on_ground) after each tick."""
    out = []
    for f in frames:
        world.step(f)
        p = world.player
        out.append((p.x, p.y, p.vx, p.vy, p.on_ground))
    return out


def settle(world: World, ticks: int = 5) -> None:
    steps(world, [IDLE] * ticks)
    assert world.player.on_ground


OPEN = ["." * 40] * 12 + ["#" * 40] * 2  # a wide floor with 12 tiles of air above it


# ----------------------------------------------------------------------------------------------
# Jumping
# ----------------------------------------------------------------------------------------------

def apex_height(world: World, frames) -> float:
    settle(world)
    y0 = world.player.y
    ys = [s[1] for s in steps(world, frames)]
    return y0 - min(ys)


@pytest.mark.parametrize("physics", [
    DEFAULT,
    replace(DEFAULT, gravity=900.0, jump_speed=300.0),
    replace(DEFAULT, gravity=2500.0, jump_speed=500.0, tick_rate=120.0),
])
def test_full_jump_apex_is_v_squared_over_2g(physics):
    world = make_world(OPEN, 5, physics)
    height = apex_height(world, [jump()] + [jump(pressed=False)] * 120)
    assert height == pytest.approx(physics.jump_speed ** 2 / (2 * physics.gravity), abs=1.0)


def test_releasing_jump_early_gives_a_lower_apex():
    full = apex_height(make_world(OPEN, 5), [jump()] + [jump(pressed=False)] * 120)
    short = apex_height(make_world(OPEN, 5), [jump()] + [jump(pressed=False)] * 4 + [IDLE] * 120)
    assert short < full - 10
    # the cut keeps jump_cut of the upward speed at release
    world = make_world(OPEN, 5)
    settle(world)
    rec = steps(world, [jump()] + [jump(pressed=False)] * 4 + [IDLE])
    vy_before, vy_after = rec[-2][3], rec[-1][3]
    g_dt = DEFAULT.gravity * DEFAULT.dt
    assert vy_after == pytest.approx(vy_before * DEFAULT.jump_cut + g_dt)


def test_a_jump_leaves_the_ground_and_lands_again():
    world = make_world(OPEN, 5)
    settle(world)
    y0 = world.player.y
    rec = steps(world, [jump()] + [jump(pressed=False)] * 120)
    assert rec[0][4] is False and rec[0][3] < 0
    land = next(i for i, r in enumerate(rec) if r[4])
    # flight time of a full jump is 2 v / g
    expect = 2 * DEFAULT.jump_speed / DEFAULT.gravity / DEFAULT.dt
    assert abs(land + 1 - expect) <= 2
    assert rec[land][1] == pytest.approx(y0)
    assert rec[land][3] == 0.0


def test_holding_jump_does_not_jump_again_on_landing():
    world = make_world(OPEN, 5)
    settle(world)
    rec = steps(world, [jump()] + [jump(pressed=False)] * 150)
    takeoffs = sum(1 for a, b in zip(rec, rec[1:]) if a[4] and not b[4])
    assert takeoffs == 0  # landed once and stayed
    assert rec[-1][4]


# ----------------------------------------------------------------------------------------------
# Running
# ----------------------------------------------------------------------------------------------

RUN = replace(DEFAULT, run_speed=120.0, ground_accel=600.0, ground_decel=400.0)


def test_run_speed_is_reached_in_run_speed_over_accel_and_not_exceeded():
    world = make_world(OPEN, 2, RUN)
    settle(world)
    rec = steps(world, [RIGHT] * 60)
    vxs = [r[2] for r in rec]
    assert max(vxs) == RUN.run_speed
    reached = next(i for i, v in enumerate(vxs) if v == RUN.run_speed) + 1
    expect = RUN.run_speed / RUN.ground_accel / RUN.dt  # 12 ticks
    assert abs(reached - expect) <= 2
    assert all(v == RUN.run_speed for v in vxs[reached:])
    # speed grows monotonically on the way
    assert all(b >= a for a, b in zip(vxs, vxs[1:]))
    # and the position follows: run_speed * dt per tick at full speed
    assert rec[40][0] - rec[39][0] == pytest.approx(RUN.run_speed * RUN.dt)


def test_deceleration_takes_run_speed_over_decel():
    world = make_world(OPEN, 2, RUN)
    settle(world)
    steps(world, [RIGHT] * 30)
    assert world.player.vx == RUN.run_speed
    vxs = [r[2] for r in steps(world, [IDLE] * 60)]
    stopped = next(i for i, v in enumerate(vxs) if v == 0.0) + 1
    expect = RUN.run_speed / RUN.ground_decel / RUN.dt  # 18 ticks
    assert abs(stopped - expect) <= 2
    assert all(v == 0.0 for v in vxs[stopped:])


def test_running_left_mirrors_running_right():
    right = make_world(OPEN, 20, RUN)
    left = make_world(OPEN, 20, RUN)
    settle(right)
    settle(left)
    r = steps(right, [RIGHT] * 30)
    lft = steps(left, [LEFT] * 30)
    for a, b in zip(r, lft):
        assert a[2] == -b[2]
    assert r[-1][0] - right.level.spawn.x == pytest.approx(left.level.spawn.x - lft[-1][0])


def test_max_fall_speed_caps_vy():
    rows = ["." * 4] * 120 + ["#" * 4]
    physics = replace(DEFAULT, max_fall_speed=300.0)
    world = make_world(rows, 1, physics, floor_row=1)  # start high above the floor
    rec = steps(world, [IDLE] * 90)
    vys = [r[3] for r in rec]
    assert max(vys) == physics.max_fall_speed
    reached = next(i for i, v in enumerate(vys) if v == physics.max_fall_speed) + 1
    assert abs(reached - physics.max_fall_speed / physics.gravity / physics.dt) <= 1
    # at the cap, the body falls exactly max_fall_speed * dt per tick
    assert rec[60][1] - rec[59][1] == pytest.approx(physics.max_fall_speed * physics.dt)


# ----------------------------------------------------------------------------------------------
# Coyote time and jump buffer
# ----------------------------------------------------------------------------------------------

LEDGE = ["." * 30] * 10 + ["#" * 10 + "." * 20] + ["." * 30] * 30


def walk_off_then_jump(k: int | None) -> tuple[bool, int]:
    """Walk right off the ledge; press jump k ticks after the first tick in the air.

    Returns (did the jump fire, tick of the press)."""
    world = make_world(LEDGE, 6, floor_row=10)
    settle(world)
    for _ in range(200):
        steps(world, [RIGHT])
        if not world.player.on_ground:
            break
    else:
        pytest.fail("never left the ledge")
    if k is None:
        return False, 0
    steps(world, [RIGHT] * (k - 1))
    assert not world.player.on_ground
    vy_before = world.player.vy
    rec = steps(world, [jump(move=1)])
    return rec[0][3] < 0 and vy_before >= 0, k


@pytest.mark.parametrize("k", [1, 2, 3, 5])
def test_coyote_jump_works_within_coyote_time(k):
    assert k * DEFAULT.dt < DEFAULT.coyote_time
    fired, _ = walk_off_then_jump(k)
    assert fired


@pytest.mark.parametrize("k", [9, 15])
def test_coyote_jump_fails_after_coyote_time(k):
    assert k * DEFAULT.dt > DEFAULT.coyote_time * 1.4
    fired, _ = walk_off_then_jump(k)
    assert not fired


def test_coyote_time_scales_with_the_setting():
    # with a longer coyote time, a late jump that failed before now works
    world = make_world(LEDGE, 6, replace(DEFAULT, coyote_time=0.3), floor_row=10)
    settle(world)
    while world.player.on_ground:
        steps(world, [RIGHT])
    steps(world, [RIGHT] * 14)  # 15 ticks = 0.25 s after leaving
    assert steps(world, [jump(move=1)])[0][3] < 0


def test_no_jump_in_mid_air_without_coyote():
    world = make_world(OPEN, 5)
    settle(world)
    steps(world, [jump()] + [jump(pressed=False)] * 10)
    vy = world.player.vy
    rec = steps(world, [jump(held=True, pressed=True)])
    assert rec[0][3] == pytest.approx(vy + DEFAULT.gravity * DEFAULT.dt)


DROP = ["." * 6] * 30 + ["#" * 6]


def landing_tick(physics: PhysicsConfig = DEFAULT) -> int:
    world = make_world(DROP, 2, physics, floor_row=10)  # 20 tiles above the floor
    rec = steps(world, [IDLE] * 200)
    return next(i for i, r in enumerate(rec) if r[4])


def buffered_jump_fires(k: int, physics: PhysicsConfig = DEFAULT) -> bool:
    """Press jump k ticks before the landing tick, keep holding; does it jump right on landing?"""
    land = landing_tick(physics)
    world = make_world(DROP, 2, physics, floor_row=10)
    frames = [IDLE] * (land - k) + [jump()] + [jump(pressed=False)] * (k + 40)
    rec = steps(world, frames)
    assert rec[land][4], "landing moved"
    after = rec[land + 1]
    return after[3] < 0 and not after[4]


@pytest.mark.parametrize("k", [0, 1, 2, 4])
def test_jump_pressed_shortly_before_landing_fires_on_landing(k):
    assert (k + 1) * DEFAULT.dt < DEFAULT.jump_buffer
    assert buffered_jump_fires(k)


@pytest.mark.parametrize("k", [10, 20])
def test_jump_pressed_too_early_does_not_fire(k):
    assert k * DEFAULT.dt > DEFAULT.jump_buffer * 1.5
    assert not buffered_jump_fires(k)
    # ... and the player stays on the ground
    land = landing_tick()
    world = make_world(DROP, 2, floor_row=10)
    rec = steps(world, [IDLE] * (land - k) + [jump()] + [jump(pressed=False)] * (k + 40))
    assert all(r[4] for r in rec[land:])


def test_longer_jump_buffer_accepts_an_earlier_press():
    assert buffered_jump_fires(10, replace(DEFAULT, jump_buffer=0.3))


def test_coyote_and_buffer_windows_are_the_same_number_of_ticks():
    """0.1 s at 60 Hz is 6 ticks both ways: a jump up to 6 ticks after the last tick on the
    ground, a press up to 6 ticks before the landing tick (it fires on the tick after it)."""
    n = round(DEFAULT.coyote_time / DEFAULT.dt)
    assert n == round(DEFAULT.jump_buffer / DEFAULT.dt) == 6
    assert walk_off_then_jump(n)[0] and not walk_off_then_jump(n + 1)[0]
    assert buffered_jump_fires(n - 1) and not buffered_jump_fires(n)  # k counts from the landing


def test_a_spawn_on_the_floor_stands_before_the_first_tick():
    world = make_world(OPEN, 5)
    assert world.player.on_ground, "no tick has run, but the spawn rests on the floor"
    rec = steps(world, [jump()])
    assert rec[0][3] < 0, "a jump on tick 0 fires on tick 0"
    world = make_world(OPEN, 5)
    rec = steps(world, [RIGHT])
    assert rec[0][2] == pytest.approx(DEFAULT.ground_accel * DEFAULT.dt), "ground acceleration"


# ----------------------------------------------------------------------------------------------
# Ceilings, one-way platforms, falling out, map edges
# ----------------------------------------------------------------------------------------------

def test_hitting_a_ceiling_stops_the_rise_at_once():
    rows = ["." * 8] * 4 + ["#" * 8] + ["." * 8] * 3 + ["#" * 8]  # 48 px of room, apex is 56
    world = make_world(rows, 3, floor_row=8)
    settle(world)
    rec = steps(world, [jump()] + [jump(pressed=False)] * 60)
    hit = next(i for i, r in enumerate(rec) if r[3] >= 0)
    assert rec[hit][3] == 0.0  # exactly zero, not a slowly shrinking upward speed
    assert rec[hit][1] == pytest.approx(5 * T)  # head touching the ceiling's bottom
    assert all(r[3] < 0 for r in rec[:hit])
    assert rec[hit + 1][3] > 0  # falling on the next tick
    # the player hit the ceiling well before a free jump's apex
    free_apex_tick = DEFAULT.jump_speed / DEFAULT.gravity / DEFAULT.dt
    assert hit < free_apex_tick - 3


PLATFORM = ["." * 8] * 6 + ["=" * 8] + ["." * 8] * 4 + ["#" * 8]  # one-way at row 6, floor at 11


def test_down_and_jump_drops_through_a_one_way_platform():
    world = make_world(PLATFORM, 3, floor_row=6)
    settle(world)
    assert world.player.on_one_way
    rec = steps(world, [jump(down=True)] + [IDLE] * 60)
    assert all(r[3] >= 0 for r in rec)  # never went up
    assert rec[-1][4]
    assert rec[-1][1] == pytest.approx(11 * T - H)  # on the floor under the platform


def test_jump_alone_on_a_one_way_platform_jumps_and_lands_back_on_it():
    world = make_world(PLATFORM, 3, floor_row=6)
    settle(world)
    rec = steps(world, [jump()] + [jump(pressed=False)] * 60)
    assert rec[0][3] < 0
    assert rec[-1][4]
    assert rec[-1][1] == pytest.approx(6 * T - H)


def _frames_jump_then_down(lag: int, hold: int = 40):
    """Space pressed, Down joining it ``lag`` ticks later, both then held."""
    return ([jump()] + [jump(pressed=False)] * (lag - 1)
            + [jump(pressed=False, down=True)] * hold + [IDLE] * 40)


@pytest.mark.parametrize("name", resolvers.names())
@pytest.mark.parametrize("lag", [1, 2, 6])  # 6 ticks = jump_buffer (0.1 s) at 60 Hz
def test_jump_a_moment_before_down_still_drops_through(name, lag):
    world = make_world(PLATFORM, 3, floor_row=6)
    world.set_resolver(resolvers.create(name))
    settle(world)
    rec = steps(world, _frames_jump_then_down(lag))
    assert rec[-1][4]
    assert rec[-1][1] == pytest.approx(11 * T - H)  # on the floor under the platform
    assert min(r[1] for r in rec) > 6 * T - H - 7 * lag  # never above the hop it had made


def test_down_after_the_jump_buffer_keeps_the_jump():
    world = make_world(PLATFORM, 3, floor_row=6)
    settle(world)
    rec = steps(world, _frames_jump_then_down(8))
    assert rec[-1][4]
    assert rec[-1][1] == pytest.approx(6 * T - H)  # jumped and landed back on the platform


def test_down_shortly_after_a_jump_from_solid_ground_keeps_the_jump():
    world = make_world(OPEN, 5)
    settle(world)
    y0 = world.player.y
    rec = steps(world, _frames_jump_then_down(2))
    assert min(r[1] for r in rec) < y0 - 40  # a full jump
    assert rec[-1][1] == pytest.approx(y0)


def test_down_alone_does_not_drop_through():
    world = make_world(PLATFORM, 3, floor_row=6)
    settle(world)
    rec = steps(world, [InputFrame(down=True)] * 30)
    assert all(r[4] for r in rec)
    assert rec[-1][1] == pytest.approx(6 * T - H)


def test_jumping_up_through_a_one_way_platform_lands_on_it():
    rows = ["." * 8] * 6 + ["=" * 8] + ["." * 8] * 2 + ["#" * 8]  # platform 48 px above the floor
    world = make_world(rows, 3, floor_row=9)
    settle(world)
    rec = steps(world, [jump()] + [jump(pressed=False)] * 90)
    assert rec[-1][4]
    assert rec[-1][1] == pytest.approx(6 * T - H)


PIT = ["." * 20] * 6 + ["#" * 8 + "." * 4 + "#" * 8]


@pytest.mark.parametrize("delay", [0.5, 1.0])
def test_falling_out_of_the_map_respawns_after_the_delay(delay):
    physics = replace(DEFAULT, respawn_delay=delay)
    world = make_world(PIT, 5, physics, floor_row=6)
    settle(world)
    spawn = world.level.spawn
    grid_bottom = world.level.grid.height_px
    flags = []
    fell_at = None
    for i in range(600):
        world.step(RIGHT)
        p = world.player
        flags.append(p.respawning)
        if fell_at is None and p.respawning:
            fell_at = i
            assert p.y > grid_bottom  # respawning starts only once below the bottom
            assert (p.vx, p.vy) == (0.0, 0.0)
        if fell_at is not None and not p.respawning:
            break
    else:
        pytest.fail("never fell or never came back")
    waiting = sum(flags)
    assert abs(waiting - delay / physics.dt) <= 1
    p = world.player
    assert (p.x, p.y) == (spawn.x, spawn.y)
    assert (p.vx, p.vy) == (0.0, 0.0)


def test_respawning_player_ignores_input_until_back():
    world = make_world(PIT, 5, replace(DEFAULT, respawn_delay=0.25), floor_row=6)
    settle(world)
    while not world.player.respawning:
        world.step(RIGHT)
    where = (world.player.x, world.player.y)
    world.step(jump(move=-1))
    assert (world.player.x, world.player.y) == where
    assert world.player.respawning


@pytest.mark.parametrize("move,edge", [(-1, "left"), (1, "right")])
def test_map_edges_stop_the_player(move, edge):
    rows = ["." * 6] * 4 + ["#" * 6]
    world = make_world(rows, 2, floor_row=4)
    settle(world)
    rec = steps(world, [InputFrame(move=move)] * 90)
    xs = [r[0] for r in rec]
    width = world.level.grid.width_px
    assert min(xs) >= 0.0 and max(xs) + W <= width
    if edge == "left":
        assert xs[-1] == 0.0
    else:
        assert xs[-1] + W == pytest.approx(width)
    assert rec[-1][2] == 0.0  # the edge stops the speed too


def test_flat_tmx_with_the_axis_resolver():
    level = load_level(DATA / "flat.tmx")
    world = World(level, DEFAULT, resolvers.create("axis"))
    rec = steps(world, [IDLE])
    assert rec[0][4] and rec[0][1] == 64 - H
    rec = steps(world, [jump()] + [jump(pressed=False)] * 60)
    assert 64 - H - min(r[1] for r in rec) == pytest.approx(
        DEFAULT.jump_speed ** 2 / (2 * DEFAULT.gravity), abs=1.0)
    assert rec[-1][4]
    assert math.isclose(rec[-1][1], 64 - H)
