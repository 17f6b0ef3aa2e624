"""The living level's tiles and flow (``game.maps.tiles``, ``game.sim.living``): hazards, ice, water,
switches and doors, checkpoints and coins, each with every resolver, and every loader error.

Maps are written into tmp_path with the loader tests' writer, on its four-tile test sheet, whose
tiles get this file's own properties:

    0 solid, 1 solid ice (friction 0.1), 2 water, 3 spikes (hazard; collision box: bottom half)

Row pictures: ``#`` solid, ``i`` ice, ``w`` water, ``^`` spikes, ``.`` nothing; a door layer's
picture uses ``D`` for its cells.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game import resolvers
from game.config import Config
from game.errors import UserError
from game.maps.grid import SOLID
from game.sim.inputs import InputFrame
from game.maps.level import load_level
from game.sim.living import touches_hazard
from game.resolvers.base import overlapping_tiles
from game.sim.world import World
from helpers import examples, resolver_names
from test_level_loader import embedded_tileset, write_map

TILES = (
    '<tile id="0"><properties><property name="collision" value="solid"/></properties></tile>\n'
    '<tile id="1"><properties><property name="collision" value="solid"/>'
    '<property name="friction" type="float" value="0.1"/></properties></tile>\n'
    '<tile id="2"><properties><property name="water" type="bool" value="true"/>'
    '</properties></tile>\n'
    '<tile id="3"><properties><property name="hazard" type="bool" value="true"/></properties>'
    '<objectgroup draworder="index" id="2"><object id="1" x="0" y="8" width="16" height="8"/>'
    '</objectgroup></tile>\n'
)
GID = {".": 0, "#": 1, "i": 2, "w": 3, "^": 4, "D": 1}
PHYSICS = Config().physics
RIGHT, LEFT, IDLE = InputFrame(move=1), InputFrame(move=-1), InputFrame()
JUMP = InputFrame(jump_held=True, jump_pressed=True)
HOLD = InputFrame(jump_held=True)


def layer(rows: list[str], lid: int, name: str, props: str = "") -> str:
    body = ",\n".join(",".join(str(GID[c]) for c in row) for row in rows)
    return (f'<layer id="{lid}" name="{name}" width="{len(rows[0])}" height="{len(rows)}">'
            f'{props}<data encoding="csv">\n{body}\n</data></layer>')


def obj(i: int, kind: str, x: float, y: float, w: float = 0, h: float = 0, props: str = "") -> str:
    shape = "" if w else "<point/>"
    size = f' width="{w}" height="{h}"' if w else ""
    inner = f"<properties>{props}</properties>" if props else ""
    return f'<object id="{i}" type="{kind}" x="{x}" y="{y}"{size}>{inner}{shape}</object>'


def spawn(x: float, y: float) -> str:
    return f'<object id="1" name="spawn" x="{x}" y="{y}"><point/></object>'


def door_props(group: str = "gate", is_open: bool = False) -> str:
    extra = '<property name="open" type="bool" value="true"/>' if is_open else ""
    return f'<properties><property name="door" value="{group}"/>{extra}</properties>'


def make_level(tmp_path: Path, rows: list[str], objects: str, doors: list[str] | None = None,
               door: str | None = None):
    layers = layer(rows, 1, "ground")
    if doors is not None:
        layers += layer(doors, 2, "door", door if door is not None else door_props())
    return load_level(write_map(tmp_path, rows=rows, layers=layers, objects=objects,
                                tileset=embedded_tileset(tiles=TILES)))


def make_world(tmp_path: Path, name: str, rows: list[str], objects: str, **kw) -> World:
    return World(make_level(tmp_path, rows, objects, **kw), PHYSICS,
                        resolvers.create(name))


def run(world: World, frames, ticks: int | None = None) -> list[tuple[int, str]]:
    """Step through ``frames`` (a list, or one frame ``ticks`` times); every tick, no solid
    overlap. Returns (tick, event) of every event."""
    if ticks is not None:
        frames = [frames] * ticks
    seen = []
    slopes = world.resolver.supports_slopes
    for f in frames:
        world.step(f)
        p = world.player
        if not p.respawning:
            assert not overlapping_tiles(world.grid, p.x, p.y, p.w, p.h, p.y + p.h, slopes), (
                f"tick {world.tick}: the player overlaps a solid tile at {(p.x, p.y)}")
        seen.extend((world.tick, e) for e in world.events)
    return seen


def names(seen) -> list[str]:
    return [e for _t, e in seen]


FLOOR = ["....................",
         "....................",
         "....................",
         "....................",
         "....................",
         "....................",
         "########^^^#########",
         "####################"]


# ----------------------------------------------------------------------------------------------
# Hazards
# ----------------------------------------------------------------------------------------------

def test_hazard_box_is_the_tiles_collision_shape(tmp_path):
    level = make_level(tmp_path, FLOOR, spawn(24, 96))
    feat, g = level.features, level.grid
    box = feat.hazards[6 * 20 + 8]
    assert (box.x, box.y, box.w, box.h) == (128, 104, 16, 8)
    assert g.kind(8, 6) != SOLID  # a hazard is not solid unless it says so
    assert not touches_hazard(feat, g, 128, 90, 12, 14)  # in the tile's empty top half
    assert not touches_hazard(feat, g, 128, 90, 12, 14.0)  # bottom exactly on its top: touching
    assert touches_hazard(feat, g, 128, 91, 12, 14)  # 1 px into the box


@pytest.mark.parametrize("name", resolver_names())
def test_running_into_spikes_hurts_then_respawns_at_the_spawn(tmp_path, name):
    world = make_world(tmp_path, name, FLOOR, spawn(24, 96))
    seen = run(world, RIGHT, 120)
    assert names(seen)[:2] == ["hurt", "respawn"]
    hurt, back = seen[0][0], seen[1][0]
    assert back - hurt == round(PHYSICS.respawn_delay * PHYSICS.tick_rate)
    # the tick after reappearing the player is at the spawn (and starts running again)
    world2 = make_world(tmp_path, name, FLOOR, spawn(24, 96))
    run(world2, RIGHT, back)
    assert (world2.player.x, world2.player.y) == world2.spawn_xy


@pytest.mark.parametrize("name", resolver_names())
def test_jumping_over_spikes_is_safe(tmp_path, name):
    world = make_world(tmp_path, name, FLOOR, spawn(100, 96))
    seen = run(world, [RIGHT] * 6 + [InputFrame(move=1, jump_held=True, jump_pressed=True)]
               + [InputFrame(move=1, jump_held=True)] * 40 + [RIGHT] * 20)
    assert "hurt" not in names(seen)
    assert world.player.x > 180


# ----------------------------------------------------------------------------------------------
# Checkpoints and coins
# ----------------------------------------------------------------------------------------------

PIT = ["....................",
       "....................",
       "....................",
       "....................",
       "....................",
       "....................",
       "##########....######",
       "##########....######"]


@pytest.mark.parametrize("name", resolver_names())
def test_a_checkpoint_is_where_a_fall_respawns(tmp_path, name):
    objects = spawn(24, 96) + obj(2, "checkpoint", 96, 64, 16, 32)
    world = make_world(tmp_path, name, PIT, objects)
    seen = run(world, RIGHT, 200)
    assert names(seen)[:3] == ["checkpoint", "respawn", "respawn"][:1] + names(seen)[1:3]
    assert names(seen).count("checkpoint") == 1  # touching it again says nothing
    assert "respawn" in names(seen)
    cp = world.level.features.checkpoints[0]
    assert cp.spawn == (104 - 6, 96 - 14)
    assert world.flow.respawn == cp.spawn
    # respawned there: the first tick after "respawn" puts the player on the checkpoint
    w2 = make_world(tmp_path, name, PIT, objects)
    first = next(t for t, e in seen if e == "respawn")
    run(w2, RIGHT, first)
    assert (w2.player.x, w2.player.y) == cp.spawn


@pytest.mark.parametrize("name", resolver_names())
def test_coins_are_counted_once_and_come_back_on_restart(tmp_path, name):
    objects = spawn(24, 96) + obj(2, "coin", 60, 90) + obj(3, "coin", 90, 90) + obj(4, "coin",
                                                                                    90, 20)
    world = make_world(tmp_path, name, FLOOR, objects)
    seen = run(world, RIGHT, 40)
    assert names(seen).count("coin") == 2
    assert len(world.flow.coins) == 2 and world.flow.coins_total == 3
    world.restart()
    assert world.flow.coins == set()


# ----------------------------------------------------------------------------------------------
# Ice
# ----------------------------------------------------------------------------------------------

ICE = ["....................",
       "....................",
       "....................",
       "....................",
       "....................",
       "....................",
       "iiiiiiiiii##########",
       "####################"]


def slide(tmp_path, name, x: float, ticks: int) -> float:
    """Run to full speed, let go: how far the player slides."""
    world = make_world(tmp_path, name, ICE, spawn(x, 96))
    run(world, RIGHT, ticks)
    assert world.player.vx == PHYSICS.run_speed
    start = world.player.x
    run(world, IDLE, 60)
    assert world.player.vx == 0
    return world.player.x - start


@pytest.mark.parametrize("name", resolver_names())
def test_ice_scales_ground_acceleration_and_deceleration(tmp_path, name):
    world = make_world(tmp_path, name, ICE, spawn(24, 96))
    run(world, RIGHT, 1)
    world.step(RIGHT)
    assert world.player.vx == pytest.approx(2 * PHYSICS.ground_accel * 0.1 * PHYSICS.dt)
    ice, ground = slide(tmp_path, name, 8, 70), slide(tmp_path, name, 200, 20)
    v = PHYSICS.run_speed
    assert ground == pytest.approx(v * v / (2 * PHYSICS.ground_decel), abs=3)
    assert ice == pytest.approx(v * v / (2 * PHYSICS.ground_decel * 0.1), abs=3)  # ten times


# ----------------------------------------------------------------------------------------------
# Water
# ----------------------------------------------------------------------------------------------

POOL = ["....................",
        "....................",
        "....................",
        "##....######........",
        "##wwwwwwwwww........",
        "##wwwwwwwwww........",
        "##wwwwwwwwww........",
        "####################"]


@pytest.mark.parametrize("name", resolver_names())
def test_water_slows_the_fall_and_the_run(tmp_path, name):
    world = make_world(tmp_path, name, POOL, spawn(56, 10))
    run(world, IDLE, 60)
    p = world.player
    assert p.vy == pytest.approx(PHYSICS.max_fall_speed * PHYSICS.water_max_fall) or p.on_ground
    run(world, IDLE, 120)
    assert p.on_ground
    run(world, RIGHT, 60)
    assert p.vx == pytest.approx(PHYSICS.run_speed * PHYSICS.water_run)


@pytest.mark.parametrize("name", resolver_names())
def test_jump_in_water_is_a_stroke_and_holding_it_hops_out(tmp_path, name):
    world = make_world(tmp_path, name, POOL, spawn(56, 10))
    run(world, IDLE, 200)  # on the pool's floor
    p = world.player
    world.step(JUMP)
    assert p.vy == pytest.approx(-PHYSICS.swim_stroke + PHYSICS.gravity * PHYSICS.water_gravity
                                 * PHYSICS.dt)
    # strokes while holding jump: once out of the surface, a hop
    top = p.y
    for i in range(240):
        world.step(JUMP if i % 12 == 0 else HOLD)
        top = min(top, p.y)
    assert top + p.h < 4 * 16 - 16  # feet a tile above the surface (row 4's top, y 64)
    # strokes let go at once (a press is never a hold): only a stroke's rise out of the water
    w2 = make_world(tmp_path, name, POOL, spawn(56, 10))
    run(w2, IDLE, 200)
    top2 = w2.player.y
    for i in range(240):
        w2.step(JUMP if i % 12 == 0 else IDLE)
        top2 = min(top2, w2.player.y)
    assert top2 + p.h > 4 * 16 - 8  # feet less than half a tile above the surface


# ----------------------------------------------------------------------------------------------
# Switches and doors
# ----------------------------------------------------------------------------------------------

ROOM = ["....................",
        "....................",
        "....................",
        "....................",
        "....................",
        "....................",
        "....................",
        "####################"]
DOOR = ["....................",
        "....................",
        "....................",
        "....................",
        "..........D.........",
        "..........D.........",
        "..........D.........",
        "...................."]


@pytest.mark.parametrize("name", resolver_names())
def test_a_closed_door_blocks_and_a_lever_opens_it(tmp_path, name):
    lever = obj(2, "switch", 64, 96, 16, 16, '<property name="door" value="gate"/>')
    world = make_world(tmp_path, name, ROOM, spawn(24, 112) + lever, doors=DOOR)
    assert world.grid.kind(10, 5) == SOLID and world.level.grid.kind(10, 5) != SOLID
    seen = run(world, RIGHT, 90)
    assert names(seen) == ["switch"]
    assert world.player.x > 10 * 16 + 16  # through the opened door


@pytest.mark.parametrize("name", resolver_names())
def test_each_touch_of_a_lever_toggles_its_door(tmp_path, name):
    lever = obj(2, "switch", 64, 96, 16, 16, '<property name="door" value="gate"/>')
    world = make_world(tmp_path, name, ROOM, spawn(24, 112) + lever, doors=DOOR)
    run(world, RIGHT, 40)  # over it: open
    assert world.flow.doors_open["gate"]
    seen = run(world, LEFT, 40)  # back over it: closed
    assert names(seen) == ["switch"] and not world.flow.doors_open["gate"]


def test_a_door_turning_changes_only_its_cells_of_the_grid(tmp_path):
    """The grid after a door turns is made from the one before by changing the door's cells
    only (what routing's tables and anything else per grid update from, cell by cell)."""
    lever = obj(2, "switch", 64, 96, 16, 16, '<property name="door" value="gate"/>')
    world = make_world(tmp_path, "routing", ROOM, spawn(24, 112) + lever, doors=DOOR)
    door = world.level.features.doors["gate"].cells
    grids = [world.grid]
    for held in (RIGHT, LEFT):  # over the lever: open; back over it: closed again
        run(world, held, 40)
        grids.append(world.grid)
    assert [g.kind(10, 5) for g in grids] == [SOLID, world.level.grid.kind(10, 5), SOLID]
    for before, after in zip(grids, grids[1:]):
        assert after.changed_since(before) == door
        differ = {i for i, (a, b) in enumerate(zip(before.kinds, after.kinds)) if a != b}
        assert differ == door
    assert world.resolver._grid is world.grid


@pytest.mark.parametrize("name", resolver_names())
def test_a_door_never_closes_on_the_player(tmp_path, name):
    plate = obj(2, "switch", 128, 108, 32, 4, '<property name="door" value="gate"/>'
                '<property name="mode" value="plate"/>')
    world = make_world(tmp_path, name, ROOM, spawn(24, 112) + plate, doors=DOOR)
    p = world.player
    while p.x < 162:  # off the plate, into the doorway
        run(world, RIGHT, 1)
    seen = run(world, IDLE, 60)  # standing in the doorway: the door waits
    assert world.flow.doors_open["gate"] and "squish" not in names(seen)
    while p.x < 178:
        run(world, RIGHT, 1)
    assert not world.flow.doors_open["gate"]  # closed once its cells were free
    assert world.grid.kind(10, 6) == SOLID


@pytest.mark.parametrize("name", resolver_names())
def test_a_plate_holds_the_door_open_only_while_pressed(tmp_path, name):
    plate = obj(2, "switch", 128, 108, 32, 4, '<property name="door" value="gate"/>'
                '<property name="mode" value="plate"/>')
    world = make_world(tmp_path, name, ROOM, spawn(24, 112) + plate, doors=DOOR)
    run(world, RIGHT, 200)  # on the plate, pressing against the door... until it opens
    assert world.player.x > 200
    assert not world.flow.doors_open["gate"]  # left the plate: closed behind the player
    assert world.grid.kind(10, 6) == SOLID


def test_a_door_starting_open(tmp_path):
    lever = obj(2, "switch", 64, 96, 16, 16, '<property name="door" value="gate"/>')
    level = make_level(tmp_path, ROOM, spawn(24, 112) + lever, doors=DOOR,
                       door=door_props(is_open=True))
    world = World(level, PHYSICS, resolvers.create("axis"))
    assert world.grid.kind(10, 5) != SOLID
    run(world, RIGHT, 30)
    assert world.grid.kind(10, 5) == SOLID


@pytest.mark.parametrize("name", resolver_names())
def test_the_same_script_gives_the_same_events(tmp_path, name):
    objects = (spawn(24, 96) + obj(2, "checkpoint", 40, 64, 16, 32) + obj(3, "coin", 60, 90))
    traces = []
    for _ in range(2):
        world = make_world(tmp_path, name, FLOOR, objects)
        traces.append(run(world, RIGHT, 150))
    assert traces[0] == traces[1] and traces[0]


# ----------------------------------------------------------------------------------------------
# Loader errors
# ----------------------------------------------------------------------------------------------

def tiles_with(props: str) -> str:
    return TILES + f'<tile id="3"><properties>{props}</properties></tile>\n'


@pytest.mark.parametrize("tile_props,words", [
    ('<property name="friction" type="float" value="1.5"/>', "friction=1.5"),
    ('<property name="friction" value="icy"/>', "friction='icy'"),
    ('<property name="hazard" value="yes"/>', "make hazard a bool"),
    ('<property name="water" type="int" value="1"/>', "make water a bool"),
])
def test_tile_property_errors_name_the_tileset(tmp_path, tile_props, words):
    tiles = TILES.split('<tile id="3">')[0] + f'<tile id="3"><properties>{tile_props}' \
        '</properties></tile>\n'
    path = write_map(tmp_path, rows=FLOOR, layers=layer(FLOOR, 1, "ground"),
                     objects=spawn(24, 96), tileset=embedded_tileset(tiles=tiles))
    with pytest.raises(UserError) as err:
        load_level(path)
    assert words in str(err.value) and "tile 3 of tileset t" in str(err.value)


@pytest.mark.parametrize("objects,door,words", [
    (obj(2, "switch", 64, 96, 16, 16, '<property name="door" value="gat"/>'), door_props(),
     "names door group 'gat', which does not exist (door groups: gate)"),
    (obj(2, "switch", 64, 96, 16, 16), door_props(), "has no door property"),
    (obj(2, "switch", 64, 96, 16, 16, '<property name="door" value="gate"/>'
                                      '<property name="mode" value="button"/>'),
     door_props(), "mode='button'; use lever or plate"),
    ("", '<properties><property name="door" value=""/></properties>', "has door="),
    ("", '<properties><property name="door" value="gate"/><property name="open" '
         'value="no"/></properties>', "open='no'"),
    (obj(2, "checkpoint", 0, 90, 16, 32), door_props(), "would be in a collision tile"),
    (obj(2, "walker", 168, 112), door_props(),
     "walker (id 2) overlaps door group 'gate', closed at the start, at column 10, row 6"),
    (obj(2, "coin", 400, 20), door_props(), "outside the map"),
    (obj(2, "coin", 40, 20, 0, 0).replace("<point/>", '<polygon points="0,0 8,0 8,8"/>'),
     door_props(), "coin (id 2) is a polygon"),
])
def test_object_and_door_errors_name_the_map(tmp_path, objects, door, words):
    with pytest.raises(UserError) as err:
        make_level(tmp_path, ROOM, spawn(24, 112) + objects, doors=DOOR, door=door)
    assert words in str(err.value)
    assert "test.tmx" in str(err.value)


def test_a_level_without_features_has_none(tmp_path):
    level = make_level(tmp_path, ROOM, spawn(24, 112))
    assert not level.features.alive


@pytest.mark.parametrize("name", resolver_names())
def test_the_bot_meets_every_feature_of_the_living_level(name):
    from test_playthrough import ROOT as REPO, play

    world = play(REPO / "levels" / "05_features.tmx", name).world
    feat, flow = world.level.features, world.flow
    assert feat.hazards and feat.friction and feat.water and feat.doors
    assert flow.checkpoint == feat.checkpoints[-1].id  # all three passed
    assert flow.doors_open["gate"]  # the lever opened the door it went through
    assert len(flow.coins) >= 8  # the floor's coins, the pool's, the door's


MOVES = st.lists(st.tuples(st.sampled_from((-1, 0, 1)), st.booleans(), st.integers(1, 30)),
                 min_size=1, max_size=30)


@pytest.mark.parametrize("name", resolver_names())
@settings(max_examples=examples(15), deadline=None)
@given(moves=MOVES, start=st.integers(0, 3))
def test_no_overlap_on_the_living_level_whatever_the_input(name, moves, start):
    """Random play from the spawn or a checkpoint: after every tick no solid overlap with the
    grid as the doors are then (``run`` checks), and the player never leaves the map sideways."""
    from test_playthrough import ROOT as REPO

    world = World(load_level(REPO / "levels" / "05_features.tmx"), PHYSICS,
                         resolvers.create(name))
    if start:
        cp = world.level.features.checkpoints[start - 1]
        world.player.place(*cp.spawn, world.grid, world.resolver.supports_slopes)
    frames, held = [], False
    for move, jump, ticks in moves:
        for i in range(ticks):
            frames.append(InputFrame(move=move, jump_held=jump, jump_pressed=jump and not held))
            held = jump
    run(world, frames)
    p = world.player
    assert 0 <= p.x and p.x + p.w <= world.grid.width_px


# ----------------------------------------------------------------------------------------------
# 05_features: the lift up to the ledge, and the walker on it
# ----------------------------------------------------------------------------------------------

LIFT_SCRIPT = """
0 jump
20 -
200 right+jump
212 -
338 jump
360 -
380 right
"""


@pytest.mark.parametrize("name", resolver_names())
def test_features_level_lift_carries_the_player_to_the_walker_to_stomp(name):
    """Level 05's one-way lift (a moving platform) and the walker on the ledge it serves: jump
    up through the lift, ride it to the ledge, hop across, stomp the walker as it comes, take
    the ledge's coins. The same with every resolver, and never inside a tile."""
    from dataclasses import replace

    from game.sim.inputs import parse_script
    from game.maps.level import Rect

    cfg = Config()
    level = load_level(Path(__file__).resolve().parent.parent / "levels" / "05_features.tmx",
                       (cfg.player.width, cfg.player.height))
    assert len(level.platforms) == 1 and level.platforms[0].one_way and len(level.walkers) == 1
    level = replace(level, spawn=Rect(88 * 16 + 10, 192 - 14, 12, 14))  # under the lift
    world = World(level, cfg.physics, resolvers.create(name), cfg.spear)
    p, seen = world.player, []
    for frame in parse_script(LIFT_SCRIPT.splitlines(), "lift").frames(480):
        world.step(frame)
        seen += [(world.tick, e) for e in world.events]
        assert not overlapping_tiles(world.grid, p.x, p.y, p.w, p.h, p.y + p.h,
                                     world.resolver.supports_slopes)
        if world.tick == 200:
            assert p.on_ground and p.y < 60, "the lift carried the player up to the ledge"
    events = [e for _, e in seen]
    assert "stomp" in events and "hurt" not in events, seen
    assert world.walkers[0].fallen  # defeated
    assert events.count("coin") == 3, seen


@pytest.mark.parametrize("name", resolver_names())
def test_living_level_no_respawn_shuts_the_door_again(name):
    """Living Level: after the lever (on the wall over the door, a jump up) opens the door, a
    player sent back to either checkpoint left of it (after the lava) holds right along the
    floor to the flag (with strokes through the pool): the way passes under the lever without
    touching it, so the door stays open."""
    level = load_level(Path(__file__).resolve().parent.parent / "levels" / "05_features.tmx")
    cfg = Config()
    world = World(level, cfg.physics, resolvers.create(name))
    p = world.player
    p.x, p.y = 79 * 16 - 6, 12 * 16 - p.h  # half under the lever
    world.step(InputFrame())
    world.step(InputFrame(jump_held=True, jump_pressed=True))
    for _ in range(40):
        world.step(InputFrame(jump_held=True))
    for _ in range(60):
        world.step(InputFrame())
    assert world.flow.doors_open["gate"]
    for checkpoint_x in (54, 72):  # the checkpoints' columns
        p.x, p.y, p.vx, p.vy = checkpoint_x * 16 + 2, 12 * 16 - p.h, 0.0, 0.0
        world.step(InputFrame())  # the checkpoint takes the player's touch
        world.send_back("hurt")
        for _ in range(120):
            world.step(InputFrame())
        assert not p.respawning and abs(p.x - (checkpoint_x * 16 + 2)) < 16
        for t in range(60 * 12):  # strokes through the pool, then only running
            swim = p.x < 70 * 16  # jump held (a hop out at the surface), pressed now and then
            world.step(InputFrame(move=1, jump_held=swim, jump_pressed=swim and t % 12 == 0))
            if world.goal_reached:
                break
        assert world.goal_reached, (checkpoint_x, p.x, p.y)
        assert world.flow.doors_open["gate"]
        world.goal_reached = False
