"""Nobody inside something solid (issue 17): a player reappearing where a door has closed or a
platform stands, spears thrown by bodies smaller than a spear, the loader's rule for platforms
over respawn points, and one property test that spawns, respawns and throws from random places,
with random body sizes, among doors and platforms, for every resolver."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game import resolvers
from game.config import Config, PhysicsConfig, SpearConfig
from game.errors import UserError
from game.maps.grid import SOLID, TileGrid
from game.maps.level import Level, Rect, load_level
from game.maps.platform_spawns import PlatformSpawn
from game.maps.respawn_room import check_respawn_room
from game.maps.tiles import Box, Checkpoint, DoorGroup, Switch, TileFeatures
from game.resolvers.base import overlapping_tiles
from game.sim.inputs import InputFrame
from game.sim.platforms import overlaps_solid_platform
from game.sim.spear import IDLE
from game.sim.world import World
from helpers import examples, resolver_names
from test_level_loader import write_map
from test_living import ROOM, make_world, obj, spawn
from test_platforms import ROWS, SPAWN, platform_xml, point_xml, prop
from test_platforms import run as run_checked

RIGHT, IDLE_INPUT = InputFrame(move=1), InputFrame()
THROW = InputFrame(throw_pressed=True)
PHYSICS = Config().physics


def inside_solid(world: World) -> str | None:
    """What of the world is inside something solid now, or None: the player (in play) in a tile
    of the live grid or a solid platform, a spear in play in a tile."""
    g, slopes, p = world.grid, world.resolver.supports_slopes, world.player
    if not p.respawning:
        hits = overlapping_tiles(g, p.x, p.y, p.w, p.h, p.y + p.h, slopes)
        if hits:
            return f"the player at ({p.x}, {p.y}) overlaps the tiles {hits}"
        if overlaps_solid_platform(world.platforms, p.x, p.y, p.w, p.h):
            return f"the player at ({p.x}, {p.y}) overlaps a solid platform"
    for s in world.spears:
        if s.state == IDLE:
            continue
        if overlapping_tiles(g, s.x, s.y, s.w, s.h, s.y + s.h, slopes):
            return f"a spear at ({s.x}, {s.y}) overlaps a tile"
        if s.x < -1e-6 or s.x + s.w > g.width_px + 1e-6:
            return f"a spear at ({s.x}, {s.y}) is outside the map's sides"
    return None


# ----------------------------------------------------------------------------------------------
# Respawning where a door has closed since the start
# ----------------------------------------------------------------------------------------------

# The living tests' room with spikes at column 11; a door layer (D) that starts open.
SPIKED = ROOM[:6] + ["...........^........"] + ROOM[7:]


def door_at(col: int) -> list[str]:
    return ["." * 20] * 5 + ["." * col + "D" + "." * (19 - col)] * 2 + ["." * 20]


OPEN_GATE = ('<properties><property name="door" value="gate"/>'
             '<property name="open" type="bool" value="true"/></properties>')
LEVER = obj(3, "switch", 112, 96, 16, 16, '<property name="door" value="gate"/>')


@pytest.mark.parametrize("name", resolver_names())
@pytest.mark.parametrize("where", ["spawn", "checkpoint"])
def test_a_door_closed_over_the_respawn_point_opens_for_the_player(tmp_path, name, where):
    """The player passes the respawn point (in an open doorway), a lever closes the door behind
    them, spikes send them back: they reappear exactly on the respawn point, the door open round
    them, and it closes once they have walked out of it."""
    if where == "spawn":
        objects, col, x = spawn(72, 112) + LEVER, 4, 66.0
    else:
        objects = spawn(24, 112) + obj(2, "checkpoint", 72, 112) + LEVER
        col, x = 4, 66.0
    world = make_world(tmp_path, name, SPIKED, objects, doors=door_at(col), door=OPEN_GATE)
    p = world.player
    events: list[str] = []
    for _ in range(400):
        world.step(IDLE_INPUT if p.respawning or "respawn" in events else RIGHT)
        events += world.events
        assert inside_solid(world) is None, (world.tick, inside_solid(world))
        if "respawn" in events:
            break
    assert "switch" in events and "hurt" in events and events[-1] == "respawn"
    assert (p.x, p.y) == (x, 98.0)  # on the respawn point, not pushed out to either side
    assert world.flow.doors_open["gate"] and world.grid.kind(col, 6) != SOLID
    for _ in range(20):  # standing there: the door waits
        world.step(IDLE_INPUT)
        assert inside_solid(world) is None and (p.x, p.y) == (x, 98.0)
    assert world.flow.doors_open["gate"]
    while p.x < (col + 1) * 16 + 1:
        world.step(RIGHT)
        assert inside_solid(world) is None
    world.step(IDLE_INPUT)
    assert not world.flow.doors_open["gate"] and world.grid.kind(col, 6) == SOLID


# ----------------------------------------------------------------------------------------------
# Respawning where a platform stands
# ----------------------------------------------------------------------------------------------

def squish_world(tmp_path: Path, name: str) -> World:
    """A platform sliding left along the floor from x=100 to the left wall and back, over the
    spawn at x=40: it pushes the player to the wall and squishes them, and is back over the
    spawn, leaving, when they are due to reappear."""
    objects = (SPAWN.format(x=40, y=144) + platform_xml(2, 100, 128, 32, 16, 3)
               + point_xml(3, 16, 128))
    return World(load_level(write_map(tmp_path, rows=ROWS, objects=objects)),
                        PHYSICS, resolvers.create(name))


@pytest.mark.parametrize("name", resolver_names())
def test_a_player_waits_for_a_platform_over_the_respawn_point_to_pass(tmp_path, name):
    world = squish_world(tmp_path, name)
    p = world.player
    events = run_checked(world, 120)  # checks every tick: no tile, no solid platform overlapped
    assert events == ["squish"]
    waited = 0
    while "respawn" not in events:
        events += run_checked(world, 1)
        waited += 1
        assert waited < 200
    assert (p.x, p.y) == (34.0, 130.0)  # at the spawn, once the platform has moved off it
    assert world.platforms[0].x >= 46.0 - 1e-6


def test_the_loader_refuses_a_spawn_inside_a_platform(tmp_path):
    objects = SPAWN.format(x=40, y=144) + platform_xml(2, 30, 128, 32, 16, 3) + point_xml(3, 200, 128)
    with pytest.raises(UserError) as info:
        load_level(write_map(tmp_path, rows=ROWS, objects=objects))
    assert "spawn overlaps the platform (id 2)" in info.value.message


def test_the_loader_refuses_a_checkpoint_a_platform_never_uncovers(tmp_path):
    """A 96 px platform moving 16 px to and fro over a checkpoint always covers it."""
    cp = obj(4, "checkpoint", 160, 144)
    objects = (SPAWN.format(x=40, y=144) + platform_xml(2, 112, 112, 96, 32, 3)
               + point_xml(3, 128, 112) + cp)
    with pytest.raises(UserError) as info:
        load_level(write_map(tmp_path, rows=ROWS, objects=objects))
    assert "checkpoint (id 4)'s respawn point is covered by the platform (id 2)" in (
        info.value.message)
    objects = (SPAWN.format(x=40, y=144) + platform_xml(2, 112, 112, 96, 32, 3)
               + point_xml(3, 112, 0) + cp)  # goes up out of the way: fine
    load_level(write_map(tmp_path, rows=ROWS, objects=objects))
    one_way = platform_xml(2, 112, 112, 96, 32, 3, prop("one_way", "true", "bool"))
    load_level(write_map(tmp_path, rows=ROWS, objects=SPAWN.format(x=40, y=144) + one_way
                         + point_xml(3, 128, 112) + cp))  # one-way: never in the way


# ----------------------------------------------------------------------------------------------
# Spears thrown by small bodies
# ----------------------------------------------------------------------------------------------

def small_body_world(name: str, w: float, h: float, x: float, rows: list[str]) -> World:
    grid = TileGrid.from_rows(rows, 16)
    floor = next(r for r, line in enumerate(rows) if line[int(x // 16)] == "#") * 16
    level = Level(path=Path("small.tmx"), title="small", grid=grid,
                  spawn=Rect(x, floor - h, w, h), spawn_is_point=False, goals=(),
                  next_level=None, properties={})
    return World(level, PHYSICS, resolvers.create(name))


WALLED = ["#......#",
          "#......#",
          "########"]


@pytest.mark.parametrize("name", resolver_names())
@pytest.mark.parametrize("w,h,x,facing", [
    (1, 1, 16, -1), (1, 1, 111, 1),  # 1x1 against the left and the right wall
    (4, 2, 16, 1), (6, 3, 106, -1), (2, 6, 60, 1),
])
def test_a_small_body_throws_from_a_free_place_or_not_at_all(name, w, h, x, facing):
    world = small_body_world(name, w, h, x, WALLED)
    world.player.facing = facing
    world.step(THROW)
    s = world.spears[0]
    assert s.state != IDLE  # there is room beside or above a small body on a floor
    assert s.y + s.h <= world.player.y + world.player.h  # never below the feet
    for _ in range(120):
        assert inside_solid(world) is None, inside_solid(world)
        world.step(IDLE_INPUT)


@pytest.mark.parametrize("name", resolver_names())
def test_no_room_for_a_spear_means_no_throw(name):
    """A 2 px wide body in a 2 px wide gap between two walls, 4 px under a ceiling: no 8 px
    spear fits anywhere there, so none is thrown and the pool is untouched."""
    grid = TileGrid.from_rows(["###", "#.#", "###"], 2, 2)  # 2 px tiles: the gap is 2 x 2 px
    level = Level(path=Path("gap.tmx"), title="gap", grid=grid, spawn=Rect(2, 2, 2, 2),
                  spawn_is_point=False, goals=(), next_level=None, properties={})
    world = World(level, PHYSICS, resolvers.create(name))
    world.step(THROW)
    assert all(s.state == IDLE for s in world.spears)


# ----------------------------------------------------------------------------------------------
# The property: spawn, respawn and throw anywhere, among doors and platforms
# ----------------------------------------------------------------------------------------------

COLS, ROWS_N, T = 12, 8, 16
CELL = st.sampled_from(".........##=")


def free_places(grid: TileGrid, w: float, h: float, closed: frozenset[int]) -> list[tuple]:
    """Top-left corners on a 4 px lattice where a w x h box is free of tiles and of ``closed``
    cells (the loader's rule for a spawn or a respawn point)."""
    out = []
    for y in range(0, grid.height_px - int(h) + 1, 4):
        for x in range(0, grid.width_px - int(w) + 1, 4):
            if overlapping_tiles(grid, x, y, w, h, y + h, True):
                continue
            cells = {r * grid.cols + c for r in grid.rows_between(y + 1e-6, y + h - 1e-6)
                     for c in grid.cols_between(x + 1e-6, x + w - 1e-6)}
            if not cells & closed:
                out.append((float(x), float(y)))
    return out


@st.composite
def levels(draw) -> Level:
    rows = ["".join(draw(st.lists(CELL, min_size=COLS, max_size=COLS))) for _ in range(ROWS_N - 1)]
    floor = draw(st.lists(st.sampled_from("###."), min_size=COLS, max_size=COLS))  # holes: falls
    rows.append("".join(floor))
    grid = TileGrid.from_rows(rows, T)
    w = draw(st.sampled_from([1.0, 2.0, 3.5, 6.0, 7.0, 8.0, 12.0, 20.0]))
    h = draw(st.sampled_from([1.0, 2.0, 4.0, 6.5, 7.0, 14.0, 24.0]))
    # one door group over a rectangle of cells, open or closed at the start, and its switches
    c0, r0 = draw(st.integers(0, COLS - 1)), draw(st.integers(0, ROWS_N - 2))
    c1, r1 = draw(st.integers(c0, min(COLS - 1, c0 + 3))), draw(st.integers(r0, ROWS_N - 2))
    cells = frozenset(r * COLS + c for r in range(r0, r1 + 1) for c in range(c0, c1 + 1))
    starts_open = draw(st.booleans())
    closed = frozenset() if starts_open else cells
    places = free_places(grid, w, h, closed)
    if not places:
        places = [(0.0, -h)]  # above the map: always free
    sx, sy = draw(st.sampled_from(places))
    switches = tuple(
        Switch(10 + i, Box(draw(st.integers(0, COLS * T - 16)), draw(st.integers(0, ROWS_N * T - 16)),
                           16, 16), "gate", draw(st.sampled_from(["lever", "plate"])))
        for i in range(draw(st.integers(1, 3))))
    checkpoints = []
    for i in range(draw(st.integers(0, 2))):
        cx, cy = draw(st.sampled_from(places))
        checkpoints.append(Checkpoint(20 + i, Box(cx - 4, cy - 4, w + 8, h + 8), (cx, cy)))
    hazards = {r * COLS + c: Box(c * T, r * T + 8, T, 8)
               for c, r in draw(st.lists(st.tuples(st.integers(0, COLS - 1),
                                                   st.integers(0, ROWS_N - 1)), max_size=3))
               if grid.kind(c, r) != SOLID}
    features = TileFeatures(hazards=hazards,
                            doors={"gate": DoorGroup("gate", cells, starts_open, ("door",))},
                            checkpoints=tuple(checkpoints), switches=switches)
    spawn_rect = Rect(sx, sy, w, h)
    platforms = []
    for i in range(draw(st.integers(0, 2))):
        pw, ph = draw(st.sampled_from([8, 16, 32, 48])), draw(st.sampled_from([4, 8, 16, 24]))
        stops = tuple((float(draw(st.integers(0, COLS * T - pw))),
                       float(draw(st.integers(0, ROWS_N * T - ph))))
                      for _ in range(draw(st.integers(2, 3))))
        pl = PlatformSpawn(30 + i, *stops[0], pw, ph, stops, draw(st.sampled_from([40.0, 120.0])),
                           draw(st.sampled_from([0.0, 0.2])), draw(st.booleans()),
                           draw(st.booleans()))
        try:  # the loader's rule: not over the spawn, not for ever over a respawn point
            check_respawn_room(Path("x.tmx"), spawn_rect, checkpoints, [pl])
        except UserError:
            continue
        platforms.append(pl)
    return Level(path=Path("random.tmx"), title="random", grid=grid, spawn=spawn_rect,
                 spawn_is_point=False, goals=(), next_level=None, properties={},
                 features=features, platforms=tuple(platforms))


FRAMES = st.lists(st.tuples(st.sampled_from([-1, 0, 0, 1, 1]), st.booleans(),
                            st.sampled_from([False, False, False, True]),
                            st.sampled_from([False, False, False, True]),
                            st.sampled_from([False] * 12 + [True])),  # sent back by the test
                  min_size=60, max_size=240)


@pytest.mark.parametrize("name", resolver_names())
@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.data_too_large])
@given(level=levels(), frames=FRAMES, delay=st.sampled_from([0.0, 0.05, 0.3]))
def test_no_body_nor_spear_is_ever_inside_something_solid(name, level, frames, delay):
    physics = PhysicsConfig(respawn_delay=delay)
    world = World(level, physics, resolvers.create(name), SpearConfig())
    assert inside_solid(world) is None
    for move, hold, jump, throw, die in frames:
        world.step(InputFrame(move=move, down=hold and move == 0, jump_held=hold or jump,
                              jump_pressed=jump, throw_pressed=throw))
        problem = inside_solid(world)
        assert problem is None, f"tick {world.tick}: {problem}"
        if die and not world.player.respawning:
            world.send_back("hurt")
