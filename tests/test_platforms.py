"""Moving platforms (game/sim/platforms.py, game/maps/platform_spawns.py): riding, carrying, pushing,
squishing, one-way, loading and its errors, with every resolver."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game import resolvers
from game.config import Config
from game.errors import UserError
from game.sim.inputs import InputFrame
from game.maps.level import load_level
from game.maps.platform_spawns import PlatformSpawn
from game.sim.platforms import Platform, overlaps_solid_platform
from game.resolvers.base import overlapping_tiles
from game.sim.world import World
from helpers import resolver_names
from test_level_loader import write_map

ROOT = Path(__file__).resolve().parent.parent

# 20 x 10 tiles of 16 px: walls left and right, a floor, a ledge of wall at the right.
ROWS = ["#..................#",
        "#..................#",
        "#..................#",
        "#..................#",
        "#..................#",
        "#..................#",
        "#..................#",
        "#..................#",
        "#.................##",
        "####################"]
FLOOR = 144.0  # the floor's top, px

SPAWN = '<object id="1" name="spawn" x="{x}" y="{y}"><point/></object>'


def platform_xml(i: int, x: float, y: float, w: float, h: float, to: int, props: str = "",
                 kind: str = "platform") -> str:
    return (f'<object id="{i}" type="{kind}" x="{x}" y="{y}" width="{w}" height="{h}">'
            f'<properties><property name="path" type="object" value="{to}"/>{props}</properties>'
            '</object>')


def point_xml(i: int, x: float, y: float) -> str:
    return f'<object id="{i}" x="{x}" y="{y}"><point/></object>'


def prop(name: str, value, kind: str = "float") -> str:
    return f'<property name="{name}" type="{kind}" value="{value}"/>'


def world_of(tmp_path: Path, objects: str, name: str, rows: list[str] = ROWS) -> World:
    level = load_level(write_map(tmp_path, rows=rows, objects=objects))
    return World(level, Config().physics, resolvers.create(name))


def check_rules(world: World) -> None:
    """No overlap with solid tiles nor solid platforms (while the player is in play)."""
    p = world.player
    if p.respawning:
        return
    slopes = world.resolver.supports_slopes
    assert not overlapping_tiles(world.level.grid, p.x, p.y, p.w, p.h, p.y + p.h - 1e-3, slopes)
    assert not overlaps_solid_platform(world.platforms, p.x, p.y, p.w, p.h)


def run(world: World, ticks: int, inp: InputFrame = InputFrame()) -> list[str]:
    events = []
    for _ in range(ticks):
        world.step(inp)
        events += world.events
        check_rules(world)
    return events


# ----------------------------------------------------------------------------------------------
# Riding
# ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", resolver_names())
def test_a_rider_is_carried_sideways(tmp_path, name):
    objects = (SPAWN.format(x=56, y=96) + platform_xml(2, 40, 96, 48, 8, 3, prop("wait", 0))
               + point_xml(3, 200, 96))
    world = world_of(tmp_path, objects, name)
    run(world, 20)  # fall onto the platform
    p, pl = world.player, world.platforms[0]
    assert p.on_ground and p.riding is pl and p.y + p.h == pytest.approx(pl.y)
    offset = p.x - pl.x
    run(world, 60)
    assert pl.x > 100
    assert p.x - pl.x == pytest.approx(offset)  # carried the whole way, standing still
    assert p.on_ground and p.y + p.h == pytest.approx(pl.y)


@pytest.mark.parametrize("name", resolver_names())
@pytest.mark.parametrize("to_y", [32, 128])
def test_a_rider_goes_up_and_down_with_it(tmp_path, name, to_y):
    objects = (SPAWN.format(x=96, y=80) + platform_xml(2, 72, 80, 48, 8, 3, prop("wait", 0))
               + point_xml(3, 72, to_y))
    world = world_of(tmp_path, objects, name)
    run(world, 10)
    p, pl = world.player, world.platforms[0]
    assert p.riding is pl
    for _ in range(40):
        world.step(InputFrame())
        check_rules(world)
        assert p.on_ground and p.y + p.h == pytest.approx(pl.y)
    assert pl.y != 80


@pytest.mark.parametrize("name", resolver_names())
def test_jump_off_a_platform(tmp_path, name):
    objects = (SPAWN.format(x=96, y=80) + platform_xml(2, 72, 80, 48, 8, 3) + point_xml(3, 72, 40))
    world = world_of(tmp_path, objects, name)
    run(world, 10)
    world.step(InputFrame(jump_pressed=True, jump_held=True))
    assert world.player.vy < 0 and not world.player.on_ground


# ----------------------------------------------------------------------------------------------
# Pushing and squishing
# ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", resolver_names())
def test_a_platform_pushes_the_player_along_the_floor(tmp_path, name):
    objects = (SPAWN.format(x=90, y=FLOOR) + platform_xml(2, 40, 120, 32, 24, 3, prop("wait", 0))
               + point_xml(3, 160, 120))
    world = world_of(tmp_path, objects, name)
    events = run(world, 40)
    p, pl = world.player, world.platforms[0]
    assert "squish" not in events
    assert p.x == pytest.approx(pl.x + pl.w)  # in front of it, pushed


@pytest.mark.parametrize("name", resolver_names())
def test_pushed_into_a_wall_is_a_squish(tmp_path, name):
    objects = (SPAWN.format(x=156, y=FLOOR) + platform_xml(2, 100, 112, 32, 32, 3,
                                                           prop("speed", 120) + prop("wait", 0.5))
               + point_xml(3, 271, 112))
    world = world_of(tmp_path, objects, name)
    events = run(world, 180)
    assert events[:2] == ["squish", "respawn"]  # sent back to the spawn after respawn_delay


@pytest.mark.parametrize("name", resolver_names())
def test_pressed_into_the_floor_is_a_squish(tmp_path, name):
    objects = (SPAWN.format(x=96, y=FLOOR) + platform_xml(2, 80, 16, 32, 16, 3,
                                                          prop("speed", 200) + prop("wait", 0))
               + point_xml(3, 80, 130))
    world = world_of(tmp_path, objects, name)
    events = run(world, 60)
    assert events[0] == "squish"


# ----------------------------------------------------------------------------------------------
# One-way platforms
# ----------------------------------------------------------------------------------------------

def one_way_world(tmp_path, name: str, one_way: bool) -> World:
    objects = (SPAWN.format(x=96, y=FLOOR)
               + platform_xml(2, 72, 96, 48, 8, 3, prop("one_way", str(one_way).lower(), "bool"))
               + point_xml(3, 72, 97))
    return world_of(tmp_path, objects, name)


@pytest.mark.parametrize("name", resolver_names())
def test_a_one_way_platform_is_jumped_through_from_below(tmp_path, name):
    world = one_way_world(tmp_path, name, True)
    world.step(InputFrame(jump_pressed=True, jump_held=True))
    run(world, 60, InputFrame(jump_held=True))
    p = world.player
    assert p.riding is world.platforms[0] and p.on_ground and p.on_one_way


@pytest.mark.parametrize("name", resolver_names())
def test_a_solid_platform_is_a_ceiling(tmp_path, name):
    world = one_way_world(tmp_path, name, False)
    world.step(InputFrame(jump_pressed=True, jump_held=True))
    ceilings = 0
    for _ in range(60):
        world.step(InputFrame(jump_held=True))
        check_rules(world)
        ceilings += world.player.contacts.hit_ceiling
    assert ceilings == 1 and world.player.y + world.player.h == FLOOR


@pytest.mark.parametrize("name", resolver_names())
def test_down_and_jump_drops_through_a_one_way_platform(tmp_path, name):
    world = one_way_world(tmp_path, name, True)
    world.step(InputFrame(jump_pressed=True, jump_held=True))
    run(world, 60, InputFrame(jump_held=True))
    assert world.player.riding is not None
    world.step(InputFrame(down=True, jump_pressed=True, jump_held=True))
    run(world, 40)
    assert world.player.y + world.player.h == FLOOR and world.player.riding is None


# ----------------------------------------------------------------------------------------------
# The path
# ----------------------------------------------------------------------------------------------

def spawn_of(path, loop=False, speed=60.0, wait=0.0) -> PlatformSpawn:
    return PlatformSpawn(1, path[0][0], path[0][1], 32, 8, tuple(path), speed, wait, False, loop)


def trail(pl: Platform, ticks: int, dt: float = 1 / 60) -> list[tuple[float, float]]:
    out = []
    for _ in range(ticks):
        dx, dy = pl.motion(dt)
        pl.x += dx
        pl.y += dy
        out.append((round(pl.x, 6), round(pl.y, 6)))
    return out


def test_ping_pong_goes_back_along_the_path():
    pl = Platform(spawn_of([(0, 0), (10, 0), (10, 10)], speed=60))
    stops = [xy for xy in trail(pl, 200) if xy in ((0, 0), (10, 0), (10, 10))]
    seen = [stops[0]] + [b for a, b in zip(stops, stops[1:]) if a != b]
    assert seen[:5] == [(10, 0), (10, 10), (10, 0), (0, 0), (10, 0)]


def test_loop_goes_from_the_last_stop_to_the_first():
    pl = Platform(spawn_of([(0, 0), (10, 0), (10, 10)], loop=True))
    stops = [xy for xy in trail(pl, 200) if xy in ((0, 0), (10, 0), (10, 10))]
    seen = [stops[0]] + [b for a, b in zip(stops, stops[1:]) if a != b]
    assert seen[:5] == [(10, 0), (10, 10), (0, 0), (10, 0), (10, 10)]


def test_a_platform_waits_at_each_stop():
    pl = Platform(spawn_of([(0, 0), (6, 0)], speed=60, wait=0.5))
    xs = [x for x, _ in trail(pl, 90)]
    assert xs[:30] == [0] * 30  # waits at the start
    assert xs[35] == 6 and xs.count(6) == 31  # 6 ticks to get there, then 30 ticks waiting


def test_a_polyline_path_is_read_in_map_pixels(tmp_path):
    objects = (SPAWN.format(x=40, y=FLOOR) + platform_xml(2, 64, 64, 32, 8, 3, prop("mode", "loop", "string"))
               + '<object id="3" x="64" y="64"><polyline points="0,0 64,0 64,-32"/></object>')
    level = load_level(write_map(tmp_path, rows=ROWS, objects=objects))
    (s,) = level.platforms
    assert s.path == ((64, 64), (128, 64), (128, 32)) and s.loop and not s.one_way
    assert (s.speed, s.wait) == (60.0, 0.5)


def test_same_run_same_motion(tmp_path):
    objects = (SPAWN.format(x=56, y=96) + platform_xml(2, 40, 96, 48, 8, 3) + point_xml(3, 200, 40))
    runs = []
    for _ in range(2):
        world = world_of(tmp_path, objects, "sweep")
        seen = []
        for t in range(300):
            world.step(InputFrame(move=1 if t % 90 < 40 else 0, jump_pressed=t % 70 == 0,
                                  jump_held=t % 70 < 20))
            seen.append((world.player.x, world.player.y, tuple(world.events),
                         world.platforms[0].x, world.platforms[0].y))
        runs.append(seen)
    assert runs[0] == runs[1]


# ----------------------------------------------------------------------------------------------
# Mistakes in the map
# ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("objects", "words"), [
    ('<object id="2" type="platform" x="40" y="40" width="32" height="8"/>', "has no path"),
    (platform_xml(2, 40, 40, 32, 8, 9), "path='9'"),
    (platform_xml(2, 40, 40, 32, 8, 1, prop("speed", 0)), "speed='0'"),
    (platform_xml(2, 40, 40, 32, 8, 3, prop("speed", "fast", "string")) + point_xml(3, 60, 40),
     "speed='fast'"),
    (platform_xml(2, 40, 40, 32, 8, 3, prop("wait", -1)) + point_xml(3, 60, 40), "wait='-1'"),
    (platform_xml(2, 40, 40, 32, 8, 3, prop("mode", "bounce", "string")) + point_xml(3, 60, 40),
     "ping_pong or loop"),
    (platform_xml(2, 40, 40, 32, 8, 3, prop("one_way", "yes", "string")) + point_xml(3, 60, 40),
     "bool property"),
    (platform_xml(2, 40, 40, 32, 8, 3, prop("sped", 3)) + point_xml(3, 60, 40),
     "did you mean speed"),
    (platform_xml(2, 40, 40, 32, 8, 3) + point_xml(3, 300, 40), "outside the 320x160 px map"),
    ('<object id="2" type="platform" x="40" y="40"><point/></object>', "make it a rectangle"),
])
def test_mistakes_name_the_platform_and_the_fix(tmp_path, objects, words):
    with pytest.raises(UserError) as err:
        load_level(write_map(tmp_path, rows=ROWS, objects=SPAWN.format(x=40, y=FLOOR) + objects))
    assert "platform (id 2)" in str(err.value) and words in str(err.value)


def test_the_project_declares_the_platform_class():
    project = json.loads((ROOT / "levels" / "tilecollide.tiled-project").read_text("utf-8"))
    types = {t["name"]: t for t in project["propertyTypes"]}
    members = {m["name"]: m for m in types["platform"]["members"]}
    assert set(members) == {"path", "speed", "wait", "one_way", "mode"}
    assert members["mode"]["propertyType"] == "platform_mode"
    assert types["platform_mode"]["values"] == ["ping_pong", "loop"]
    assert members["speed"]["value"] == 60 and members["wait"]["value"] == 0.5
