"""Walkers (``game.sim.walkers``): patrolling bodies stepped by the world with every resolver.

Grids come from text (``#`` solid, ``=`` one-way, ``.`` air, 16 px tiles); maps for the world
and the loader are written into tmp_path by the loader tests' writer.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game import resolvers
from game.config import Config
from game.errors import UserError
from game.maps.grid import TileGrid
from game.sim.inputs import InputFrame
from game.maps.level import WalkerSpawn, load_level
from game.maps.limits import MAX_WALKERS
from game.resolvers.base import overlapping_tiles
from game.sim.walkers import (LANE_MARGIN, NO_LANE, REST_DY_MAX, REST_DY_MIN, Walker, lane,
                              ledge_ahead, make_walkers, step_walkers)
from game.sim.world import World
from helpers import examples, resolver_names, resolver_params
from test_level_loader import write_map

ROOT = Path(__file__).resolve().parent.parent
DT = 1.0 / 60.0
GRAVITY, MAX_FALL = 1500.0, 480.0


def run(walkers: list[Walker], name: str, grid: TileGrid, ticks: int,
        check_free: bool = False) -> list[tuple[float, float, int]]:
    """Step ``ticks`` ticks; the (x, y, facing) of the first walker after each."""
    res = resolvers.create(name)
    seen = []
    for _ in range(ticks):
        step_walkers(walkers, res, grid, GRAVITY, MAX_FALL, DT)
        if check_free:
            for w in walkers:
                assert not overlapping_tiles(grid, w.x, w.y, w.w, w.h, w.y + w.h,
                                             res.supports_slopes), (name, w.x, w.y)
        seen.append((walkers[0].x, walkers[0].y, walkers[0].facing))
    return seen


def spawn(col: float, floor_row: int, facing: int = 1, speed: float = 60.0, i: int = 1,
          size: float = 12.0) -> WalkerSpawn:
    """A walker whose feet stand at the top of ``floor_row``, left edge at column ``col``."""
    return WalkerSpawn(i, col * 16, floor_row * 16 - size, size, size, speed, facing)


# ----------------------------------------------------------------------------------------------
# Behaviour, with every resolver
# ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", resolver_names())
def test_turns_at_a_wall(name):
    grid = TileGrid.from_rows(["........",
                               ".......#",
                               "########"])
    walkers = make_walkers([spawn(4, 2, facing=1)], grid, True)
    seen = run(walkers, name, grid, 120)
    assert max(x for x, _, _ in seen) == pytest.approx(7 * 16 - 12)  # touched the wall
    assert seen[-1][2] == -1 and seen[-1][0] < 7 * 16 - 12  # and walks back left
    assert all(y == pytest.approx(2 * 16 - 12) for _, y, _ in seen)  # on the floor throughout


@pytest.mark.parametrize("name", resolver_names())
def test_turns_at_a_ledge_without_falling(name):
    grid = TileGrid.from_rows(["..........",
                               "..........",
                               "...####...",
                               ".........."])
    walkers = make_walkers([spawn(4, 2, facing=1)], grid, True)
    seen = run(walkers, name, grid, 400)
    xs = [x for x, _, _ in seen]
    assert max(xs) + 12 <= 7 * 16 + 1e-6 and min(xs) >= 3 * 16 - 1e-6  # never over the edge
    assert max(xs) + 12 > 7 * 16 - 2 and min(xs) < 3 * 16 + 2  # but went to both ends
    assert all(y == pytest.approx(2 * 16 - 12) for _, y, _ in seen)
    assert walkers[0].on_ground and not walkers[0].fallen


@pytest.mark.parametrize("name", resolver_names())
def test_turns_at_the_map_edge(name):
    grid = TileGrid.from_rows(["....",
                               "####"])
    walkers = make_walkers([spawn(1, 1, facing=-1, speed=200)], grid, True)
    seen = run(walkers, name, grid, 60)
    assert min(x for x, _, _ in seen) >= 0 and max(x for x, _, _ in seen) <= 64 - 12
    assert {f for _, _, f in seen} == {-1, 1}


@pytest.mark.parametrize("name", resolver_names())
def test_falls_when_placed_over_a_gap_and_lands(name):
    grid = TileGrid.from_rows(["##....##",
                               "........",
                               "........",
                               "########"])
    walkers = make_walkers([WalkerSpawn(1, 40, 0, 12, 12, 40.0, 1)], grid, True)
    assert not walkers[0].on_ground
    run(walkers, name, grid, 90)
    w = walkers[0]
    assert w.on_ground and w.y == pytest.approx(3 * 16 - 12) and not w.fallen


@pytest.mark.parametrize("name", resolver_names())
def test_falls_out_of_the_map_and_is_gone(name):
    grid = TileGrid.from_rows(["........",
                               "........"])
    walkers = make_walkers([WalkerSpawn(1, 40, 0, 12, 12, 40.0, 1)], grid, True)
    run(walkers, name, grid, 60)
    w = walkers[0]
    assert w.fallen
    x, y = w.x, w.y
    run(walkers, name, grid, 5)
    assert (w.x, w.y) == (x, y)  # a fallen walker is no longer stepped


@pytest.mark.parametrize("name", resolver_names())
def test_ledge_onto_one_way_planks_counts_as_ground(name):
    grid = TileGrid.from_rows(["..........",
                               "..##===...",
                               ".........."])
    walkers = make_walkers([spawn(2, 1, facing=1)], grid, True)
    seen = run(walkers, name, grid, 300)
    assert max(x for x, _, _ in seen) + 12 > 7 * 16 - 2  # walked along the planks to their end
    assert not walkers[0].fallen and walkers[0].on_ground


def test_ledge_ahead_is_a_question_to_the_map():
    grid = TileGrid.from_rows(["....",
                               ".##.",
                               "...."])
    assert not ledge_ahead(grid, 16, 12, 16, 1.0, True)
    assert ledge_ahead(grid, 36, 12, 16, 1.0, True)  # front edge would pass x = 48
    assert not ledge_ahead(grid, 36, 12, 16, -1.0, True)
    assert ledge_ahead(grid, 16, 12, 16, -1.0, True)
    assert ledge_ahead(grid, 52, 12, 16, 1.0, True)  # off the map's right side


# ----------------------------------------------------------------------------------------------
# Invariants
# ----------------------------------------------------------------------------------------------

cells = st.sampled_from("..........#=")


@settings(max_examples=examples(25), deadline=None)
@given(rows=st.lists(st.text(cells, min_size=8, max_size=8), min_size=5, max_size=5),
       spots=st.lists(st.tuples(st.integers(0, 7), st.integers(0, 4), st.sampled_from((-1, 1)),
                                st.floats(0, 400)), min_size=1, max_size=5),
       name=st.sampled_from(resolver_names()))
def test_walkers_never_overlap_solid_tiles(rows, spots, name):
    grid = TileGrid.from_rows(rows + ["########"])
    spawns = [WalkerSpawn(i, c * 16 + 2, r * 16 + 2, 12, 12, speed, facing)
              for i, (c, r, facing, speed) in enumerate(spots)
              if not overlapping_tiles(grid, c * 16 + 2, r * 16 + 2, 12, 12, r * 16 + 14, True)]
    if spawns:
        run(make_walkers(spawns, grid, True), name, grid, 90, check_free=True)


@pytest.mark.parametrize("name", resolver_names())
def test_deterministic(name):
    grid = TileGrid.from_rows(["...........",
                               "..#.....#..",
                               "###..#.####",
                               "..........."])
    spawns = [spawn(0, 2, 1, 90, 1), spawn(6, 2, -1, 45, 2), WalkerSpawn(3, 60, 0, 10, 14, 70, 1)]
    first = run(make_walkers(spawns, grid, True), name, grid, 200)
    again = run(make_walkers(spawns, grid, True), name, grid, 200)
    assert first == again


# ----------------------------------------------------------------------------------------------
# Cruising: a step on a lane is the full step, with every resolver
# ----------------------------------------------------------------------------------------------

def walker_state(walkers: list[Walker]) -> list[tuple]:
    return [(k.x, k.y, k.vy, k.facing, k.on_ground, k.fallen, k.prev_x, k.prev_y)
            for k in walkers]


def full_steps(walkers: list[Walker], *args) -> None:
    """``step_walkers`` with every walker's lane forgotten first: every step a full one."""
    for k in walkers:
        k.wake()
    step_walkers(walkers, *args)


@settings(max_examples=examples(60), deadline=None)
@given(name=st.sampled_from(resolver_names()), tile=st.sampled_from((8, 16, 32)),
       size=st.tuples(st.floats(2, 40), st.floats(2, 40)),
       floor=st.lists(st.sampled_from("#="), min_size=2, max_size=8),
       at=st.floats(0, 1), part=st.floats(-1, 1), dy=st.floats(REST_DY_MIN, REST_DY_MAX))
def test_every_resolver_lets_a_resting_box_walk_on_along_its_lane(name, tile, size, floor, at,
                                                                  part, dy):
    """What cruising stands on: a box resting on a floor row (walls or nothing at its ends),
    moved onto its lane by a step that is one move for the mover, with a small fall, ends at
    exactly ``x + dx``, on the same row's top, with ON_GROUND and no other contact."""
    from game.resolvers.base import ON_GROUND, move_box
    w, h = size
    dx = part * max(min(tile, w) / 2, 0.5)
    rows = -(-int(h) // tile) + 1
    grid = TileGrid.from_rows(["." * (len(floor) + 2)] * rows
                              + ["#" + "".join(floor) + "#"] + ["#" * (len(floor) + 2)],
                              tile_w=tile)
    y = (rows * tile) - h
    lo, hi = lane(grid, tile + 1.5, y, w, h)
    x = lo - LANE_MARGIN + (hi - lo + 2 * LANE_MARGIN) * at  # anywhere over the floor
    if lo > hi or not lo <= x + dx <= hi:
        return
    res = resolvers.create(name)
    got = move_box(res, grid, x, y, w, h, dx, dy, one_way_bottom=y + h, drop_through=False,
                   was_on_ground=True, tell_one_way=False)
    assert got == (x + dx, y, ON_GROUND)


def test_a_lane_is_the_floor_under_free_cells_less_a_margin():
    grid = TileGrid.from_rows(["....#.....",
                               "..........",
                               ".##==##/#.",
                               "##########"])
    assert lane(grid, 20, 20, 12, 12) == (16 + 1, 7 * 16 - 12 - 1)  # up to the slope
    assert lane(grid, 20, 8, 12, 24) == (16 + 1, 4 * 16 - 12 - 1)  # a taller box: up to the wall
    assert lane(grid, 20, 19.5, 12, 12) == NO_LANE  # not resting on the row's top
    assert lane(grid, 8, 20, 12, 12) == NO_LANE  # over the gap at column 0
    assert lane(grid, 130, 36, 12, 12) == NO_LANE  # the bottom row: no row under it


@settings(max_examples=examples(40), deadline=None)
@given(rows=st.lists(st.text(st.sampled_from(".......#=/\\"), min_size=10, max_size=10),
                     min_size=5, max_size=5),
       spots=st.lists(st.tuples(st.integers(0, 9), st.integers(0, 4), st.sampled_from((-1, 1)),
                                st.floats(0, 200)), min_size=1, max_size=6),
       name=st.sampled_from(resolver_names()))
def test_cruising_steps_are_the_full_steps(rows, spots, name):
    """The same walkers stepped with lanes and with every step a full one stay identical, every
    value of every walker on every tick."""
    grid = TileGrid.from_rows(rows + ["#.########"])
    spawns = [WalkerSpawn(i, c * 16 + 2, r * 16 + 4, 12, 12, speed, facing)
              for i, (c, r, facing, speed) in enumerate(spots)
              if not overlapping_tiles(grid, c * 16 + 2, r * 16 + 4, 12, 12, r * 16 + 16, True)]
    res = resolvers.create(name)
    slopes = res.supports_slopes
    fast, full = make_walkers(spawns, grid, slopes), make_walkers(spawns, grid, slopes)
    for _ in range(150):
        step_walkers(fast, res, grid, GRAVITY, MAX_FALL, DT)
        full_steps(full, res, grid, GRAVITY, MAX_FALL, DT)
        assert walker_state(fast) == walker_state(full)


@pytest.mark.parametrize("name", resolver_names())
def test_a_lane_is_read_again_on_a_new_grid(name):
    """A door turning gives a new grid: a lane read from the old one is not used on it."""
    before = TileGrid.from_rows(["..........",
                                 "##########"])
    after = before.with_kinds({1 * 10 + 6: 0})  # a gap opens in the floor
    walkers = make_walkers([spawn(1, 1, facing=1, speed=60)], before, True)
    res = resolvers.create(name)
    for _ in range(10):
        step_walkers(walkers, res, before, GRAVITY, MAX_FALL, DT)
    assert walkers[0].lane_grid is before
    for _ in range(300):
        step_walkers(walkers, res, after, GRAVITY, MAX_FALL, DT)
        assert walkers[0].x + 12 <= 6 * 16 + 1e-6  # turned at the new gap
    assert not walkers[0].fallen


@pytest.mark.parametrize("level", ["04_crowd.tmx", "05_features.tmx"])
@pytest.mark.parametrize("name", resolver_params())
def test_shipped_walkers_cruise_as_they_would_step(level, name):
    """A world on each shipped level with walkers, run with lanes and with every walker's step a
    full one, with the player running and jumping into them: the same walkers and player."""
    worlds = [World(load_level(ROOT / "levels" / level), Config().physics,
                           resolvers.create(name)) for _ in range(2)]
    for t in range(400):
        frame = InputFrame(move=1 if t // 150 % 2 == 0 else -1, jump_held=t % 50 < 12,
                           jump_pressed=t % 50 == 0)
        worlds[0].step(frame)
        for k in worlds[1].walkers:
            k.wake()
        worlds[1].step(frame)
        assert walker_state(worlds[0].walkers) == walker_state(worlds[1].walkers)
        assert (worlds[0].player.x, worlds[0].player.y) == (worlds[1].player.x,
                                                            worlds[1].player.y)


# ----------------------------------------------------------------------------------------------
# In the world
# ----------------------------------------------------------------------------------------------

WORLD_ROWS = ["..........",
              "..........",
              "..........",
              ".d.....=..",
              "#...../\\.#",
              "##########"]


def walker_xml(i: int, x: float, y: float, props: str = "", extra: str = "",
               shape: str = "<point/>") -> str:
    return (f'<object id="{i}" type="walker" x="{x}" y="{y}"{extra}>'
            f'{"<properties>" + props + "</properties>" if props else ""}{shape}</object>')


def world_with_walkers(tmp_path: Path, name: str = "axis") -> World:
    objects = ('<object id="1" name="spawn" x="40" y="80"><point/></object>'
               + walker_xml(3, 24, 80, '<property name="speed" type="float" value="70"/>')
               + walker_xml(2, 136, 80, '<property name="direction" type="string" '
                                        'propertytype="direction" value="left"/>'))
    level = load_level(write_map(tmp_path, rows=WORLD_ROWS, objects=objects))
    return World(level, Config().physics, resolvers.create(name))


def test_level_reads_walkers_in_object_id_order(tmp_path):
    world = world_with_walkers(tmp_path)
    spawns = world.level.walkers
    assert [s.id for s in spawns] == [2, 3]
    assert spawns[0] == WalkerSpawn(2, 130, 68, 12, 12, 40.0, -1)  # defaults: speed 40
    assert spawns[1] == WalkerSpawn(3, 18, 68, 12, 12, 70.0, 1)  # default: right
    assert [w.spawn.id for w in world.walkers] == [2, 3]


@pytest.mark.parametrize("name", resolver_names())
def test_restart_puts_walkers_back(tmp_path, name):
    world = world_with_walkers(tmp_path, name)
    start = [(w.x, w.y, w.facing) for w in world.walkers]
    for _ in range(100):
        world.step(InputFrame())
    assert [(w.x, w.y, w.facing) for w in world.walkers] != start
    world.restart()
    assert [(w.x, w.y, w.facing) for w in world.walkers] == start
    assert all(w.on_ground for w in world.walkers)


@pytest.mark.parametrize("name", resolver_names())
def test_resolver_switch_keeps_walkers_free(tmp_path, name):
    world = world_with_walkers(tmp_path, "routing")
    grid = world.level.grid
    for tick in range(300):
        world.step(InputFrame())
        if tick % 37 == 0:
            world.set_resolver(resolvers.create(name if tick % 74 else "sweep"))
            slopes = world.resolver.supports_slopes
            for w in world.walkers:
                assert not overlapping_tiles(grid, w.x, w.y, w.w, w.h, w.y + w.h, slopes)
    assert all(not w.fallen for w in world.walkers)


def test_walkers_leave_the_player_alone_until_they_touch(tmp_path):
    """Same player, same inputs: the player's run is the same with or without walkers, up to
    the tick a walker touches them (then a stomp or a hurt, see tests/test_bodies.py)."""
    plain = load_level(write_map(tmp_path, rows=WORLD_ROWS, name="plain.tmx",
                                 objects='<object id="1" name="spawn" x="40" y="80"><point/>'
                                         '</object>'))
    runs = []
    worlds = (World(plain, Config().physics, resolvers.create("axis")),
              world_with_walkers(tmp_path))
    for world in worlds:
        seen = []
        for t in range(120):
            world.step(InputFrame(move=1 if t < 60 else -1, jump_pressed=t == 10,
                                  jump_held=10 <= t < 30))
            if world.events:
                break
            seen.append((world.player.x, world.player.y))
        runs.append(seen)
    assert len(runs[1]) > 10
    assert runs[0][:len(runs[1])] == runs[1]


def test_hot_reload_starts_walkers_from_the_new_spawns(tmp_path):
    world = world_with_walkers(tmp_path)
    for _ in range(30):
        world.step(InputFrame())
    objects = ('<object id="1" name="spawn" x="40" y="80"><point/></object>'
               + walker_xml(5, 72, 80))
    level = load_level(write_map(tmp_path, rows=WORLD_ROWS, objects=objects, name="b.tmx"))
    world.replace_level(level, world.physics)
    assert [(w.spawn.id, w.x, w.y) for w in world.walkers] == [(5, 66, 68)]


# ----------------------------------------------------------------------------------------------
# Loader errors: say what to change in Tiled
# ----------------------------------------------------------------------------------------------

SPAWN = '<object id="1" name="spawn" x="40" y="80"><point/></object>'


@pytest.mark.parametrize("obj, words", [
    (walker_xml(2, 24, 80, shape='<ellipse/>', extra=' width="8" height="8"'),
     "is a ellipse; make it a point"),
    (walker_xml(2, 24, 40, shape="", extra=' width="300" height="8"'), "at most 256x256"),
    (walker_xml(2, 4, 80), "outside the map"),
    (walker_xml(2, 24, 200), "outside the map"),
    (walker_xml(2, 8, 90), "overlaps a collision tile at column 0, row 4"),
    (walker_xml(2, 24, 80, '<property name="speed" type="float" value="nan"/>'),
     "speed='nan' (float); make it a float property from 0 to 1000"),
    (walker_xml(2, 24, 80, '<property name="speed" type="float" value="5000"/>'), "0 to 1000"),
    (walker_xml(2, 24, 80, '<property name="speed" value="fast"/>'), "speed='fast' (string)"),
    (walker_xml(2, 24, 80, '<property name="direction" value="up"/>'),
     "direction='up'; use left or right"),
    (walker_xml(2, 24, 80, '<property name="sped" type="float" value="3"/>'),
     "property 'sped'; did you mean speed?"),
    (walker_xml(2, 24, 80, '<property name="Direction" value="left"/>'),
     "did you mean direction?"),
])
def test_loader_errors(tmp_path, obj, words):
    with pytest.raises(UserError) as e:
        load_level(write_map(tmp_path, rows=WORLD_ROWS, objects=SPAWN + obj))
    assert words in str(e.value)


def test_other_walker_properties_are_the_authors_business(tmp_path):
    obj = walker_xml(2, 24, 80, '<property name="colour" value="red"/>')
    assert len(load_level(write_map(tmp_path, rows=WORLD_ROWS, objects=SPAWN + obj)).walkers) == 1


def test_too_many_walkers(tmp_path):
    objs = "".join(walker_xml(i + 2, 24 + (i % 100), 32) for i in range(MAX_WALKERS + 1))
    with pytest.raises(UserError, match="more than the 5,000 a level may hold"):
        load_level(write_map(tmp_path, rows=WORLD_ROWS, objects=SPAWN + objs))


def test_cli_reports_a_bad_walker_in_one_line(tmp_path):
    import subprocess
    import sys
    path = write_map(tmp_path, rows=WORLD_ROWS, objects=SPAWN + walker_xml(
        2, 24, 80, '<property name="direction" value="sideways"/>'))
    out = subprocess.run([sys.executable, "main.py", "--headless", "--ticks", "1", "--level",
                          str(path)], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and out.stderr.startswith("error: ")
    assert "direction='sideways'" in out.stderr


# ----------------------------------------------------------------------------------------------
# The crowd level
# ----------------------------------------------------------------------------------------------

def test_crowd_level_has_200_walkers_that_stay_on_their_platforms():
    level = load_level(ROOT / "levels" / "04_crowd.tmx")
    assert level.title == "Crowd"
    assert len(level.walkers) == 200
    world = World(level, Config().physics, resolvers.create("axis"))
    for _ in range(120):
        world.step(InputFrame())
    assert not any(w.fallen for w in world.walkers)


@pytest.mark.parametrize("name", resolver_names())
def test_crowd_walkers_meet_a_player_who_only_runs(name):
    """The way is not a walk: a player who runs right, jumping only the blocks that stop them,
    is hurt by a walker on Crowd's floor."""
    world = World(load_level(ROOT / "levels" / "04_crowd.tmx"), Config().physics,
                         resolvers.create(name))
    p, events, pressed = world.player, [], False
    for _ in range(600):
        press = p.on_ground and p.contacts.hit_right and not pressed
        world.step(InputFrame(move=1, jump_held=press, jump_pressed=press))
        pressed = press
        events += world.events
    assert "hurt" in events and not world.goal_reached


@pytest.mark.parametrize("name", resolver_params())
def test_crowd_spawn_and_checkpoints_are_out_of_the_walkers_reach(name):
    """Fair: for half a minute of play, no walker touches the player standing at the spawn, nor the
    box of a player respawning at any checkpoint (they stand on blocks the pens' walkers turn at).
    """
    level = load_level(ROOT / "levels" / "04_crowd.tmx")
    world = World(level, Config().physics, resolvers.create(name))
    p = world.player
    boxes = [(c.spawn[0], c.spawn[1], p.w, p.h) for c in level.features.checkpoints]
    assert len(boxes) == 3
    for _ in range(1800):  # several patrols of every pen
        world.step(InputFrame())
        assert "hurt" not in world.events
        for x, y, w, h in boxes:
            assert not world.walker_hash.touching(x, y, w, h)
    assert not any(k.fallen for k in world.walkers)


def test_headless_summary_counts_the_walkers():
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "main.py", "--headless", "--ticks", "60", "--level",
                          str(ROOT / "levels" / "04_crowd.tmx")], cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.rstrip().endswith("walkers=200 fallen=0")


def test_the_view_draws_the_walkers_in_view_only():
    from dataclasses import replace

    import pygame

    from game import config
    from game.view.app import App

    c = config.load(ROOT / "config.toml")
    c = replace(c, display=replace(c.display, width=640, height=360, vsync=False))
    app = App(c, ROOT / "levels" / "04_crowd.tmx", max_frames=1)
    world = app.world

    def picture() -> bytes:
        app.play.draw(1.0)
        return pygame.image.tobytes(app.window, "RGB")

    with_walkers = picture()
    walkers, world.walkers = world.walkers, []
    without = picture()
    assert with_walkers != without
    far = walkers[-1]
    far.x = far.prev_x = world.level.grid.width_px - far.w  # the map's far end: out of view
    world.walkers = [far]
    assert picture() == without
    app.run()
    pygame.init()


@pytest.mark.parametrize("name", resolver_names())
def test_a_hill_is_walked_over_with_slopes_and_a_wall_without(name):
    grid = TileGrid.from_rows(["............",
                               "....../\\....",
                               "############"])
    walkers = make_walkers([spawn(1, 2, facing=1, speed=80)], grid, True)
    seen = run(walkers, name, grid, 240, check_free=True)
    crossed = max(x for x, _, _ in seen) > 8 * 16
    assert crossed == resolvers.REGISTRY[name].supports_slopes
    assert not walkers[0].fallen


@pytest.mark.parametrize("name", resolver_names())
def test_a_walker_on_a_slope_at_a_cliff_turns(name):
    grid = TileGrid.from_rows(["..........",
                               "...#\\.....",
                               "...##....."])
    walkers = make_walkers([WalkerSpawn(1, 50, 0, 12, 12, 60.0, 1)], grid, True)
    seen = run(walkers, name, grid, 240, check_free=True)
    assert not walkers[0].fallen and max(x for x, _, _ in seen) + 12 <= 5 * 16 + 1e-6


@pytest.mark.parametrize("name", resolver_names())
def test_the_mover_leaves_the_one_way_flag_out_when_asked(name):
    from game.resolvers.base import ON_GROUND, ON_ONE_WAY, move_box
    grid = TileGrid.from_rows(["....",
                               "===="])
    res = resolvers.create(name)
    told = move_box(res, grid, 8, 4, 12, 12, 1.0, 0.5, one_way_bottom=16)
    quiet = move_box(res, grid, 8, 4, 12, 12, 1.0, 0.5, one_way_bottom=16, tell_one_way=False)
    assert told[2] == ON_GROUND | ON_ONE_WAY and quiet[2] == ON_GROUND
    assert told[:2] == quiet[:2]


def test_the_project_declares_the_walker_class_with_the_loaders_defaults():
    """Tiled does not save a class member left at its default, so the project's defaults must be
    the ones the loader assumes."""
    import json

    from game.maps.objects import WALKER_DIRECTION, WALKER_DIRECTIONS, WALKER_SPEED

    project = json.loads((ROOT / "levels" / "tilecollide.tiled-project").read_text("utf-8"))
    types = {t["name"]: t for t in project["propertyTypes"]}
    assert types["direction"]["type"] == "enum"
    assert types["direction"]["values"] == list(WALKER_DIRECTIONS)
    walker = types["walker"]
    assert walker["type"] == "class" and walker["useAs"] == ["object"]
    members = {m["name"]: m for m in walker["members"]}
    assert members["speed"]["type"] == "float" and members["speed"]["value"] == WALKER_SPEED
    assert members["direction"]["propertyType"] == "direction"
    assert members["direction"]["value"] == WALKER_DIRECTION


def test_a_walker_by_class_as_tiled_1_9_writes_it(tmp_path):
    obj = '<object id="2" class="walker" x="24" y="80"><point/></object>'
    level = load_level(write_map(tmp_path, rows=WORLD_ROWS, objects=SPAWN + obj))
    assert [s.id for s in level.walkers] == [2]


def test_hot_reload_to_a_narrower_map_puts_the_player_at_its_spawn():
    """A player beyond the new map's right side (or below its bottom) would fall out of the
    world: the reload starts them at the new map's spawn instead (issue 34)."""
    wide = load_level(ROOT / "levels" / "01_first_steps.tmx")
    narrow = load_level(ROOT / "tests" / "data" / "flat.tmx")
    world = World(wide, Config().physics, resolvers.create("axis"))
    p = world.player
    p.x = narrow.grid.width_px + 40.0
    p.y = 8 * wide.grid.tile_h - p.h  # free air in the wide map
    world.replace_level(narrow, world.physics)
    assert (p.x, p.y) == (narrow.spawn.x, narrow.spawn.y)
    assert 0 <= p.x and p.x + p.w <= narrow.grid.width_px
