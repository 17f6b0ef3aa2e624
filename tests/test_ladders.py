"""Ladders: the player climbs them with every resolver, and a ladder's top is a floor from above.

The maps are text (``TileGrid.from_rows``: ``H`` a ladder cell, ``#`` solid, ``=`` one-way). Each
case drives ``Player.step`` with held keys through ``InputSequencer``, as the world does.
"""

from __future__ import annotations

import math
import re
import shutil
from pathlib import Path

import pytest
from helpers import examples, resolver_names
from hypothesis import given, settings
from hypothesis import strategies as st

from game import resolvers
from game.config import Config, PhysicsConfig
from game.maps.grid import EMPTY, ONE_WAY, SOLID, TileGrid, overlapping_tiles
from game.maps.level import load_level
from game.maps.platform_spawns import PlatformSpawn
from game.sim.inputs import Held, InputSequencer
from game.sim.platforms import Platform
from game.sim.player import Player
from game.sim.world import load_world

PH = PhysicsConfig()
W, H = 12.0, 14.0
NAMES = resolver_names()

# A ladder from the floor (row 6) up to row 2, its top level with a ledge on the right.
LADDER = [
    "..........",
    "..........",
    "....H=====",
    "....H.....",
    "....H.....",
    "....H.....",
    "##########",
]
TOP = 2 * 16  # the ladder's top: the top of its highest cell
FLOOR = 6 * 16


def run(grid: TileGrid, player: Player, name: str, keys: list[tuple[int, Held]],
        seen: list | None = None) -> Player:
    """Step ``player`` through ``keys`` ((ticks, held) runs), checking the no-overlap rule (a body
    dropping through one-way tiles, or climbing down through a ladder's top, may be inside them:
    then only solids and slopes count)."""
    resolver = resolvers.create(name)
    seq = InputSequencer()
    for ticks, held in keys:
        for _ in range(ticks):
            passing, bottom = player.dropping > 0 or player.climbing, player.y + player.h
            player.step(seq.frame(held), PH, resolver, grid, (player.x, player.y))
            if passing or player.dropping > 0 or player.climbing:
                bottom = math.inf
            hits = overlapping_tiles(grid, player.x, player.y, player.w, player.h, bottom, True)
            assert not hits, f"{name}: inside {hits} at ({player.x}, {player.y})"
            if seen is not None:
                seen.append((player.x, player.y, player.climbing, player.on_ground))
    return player


def at_foot() -> Player:
    return Player(4 * 16 + 2, FLOOR - H, W, H, on_ground=True)


def test_a_ladders_top_cell_is_one_way_and_the_rest_empty():
    g = TileGrid.from_rows(LADDER)
    assert g.kind(4, 2) == ONE_WAY and all(g.kind(4, r) == EMPTY for r in (3, 4, 5))
    assert all(g.ladder(4, r) for r in range(2, 6)) and not g.ladder(4, 1)
    assert not g.ladder(-1, 0) and not g.ladder(99, 99)


@pytest.mark.parametrize("name", NAMES)
def test_climbs_to_the_top_stands_on_it_and_steps_off_onto_the_ledge(name):
    g = TileGrid.from_rows(LADDER)
    seen: list = []
    p = run(g, at_foot(), name, [(80, Held(up=True))], seen)
    assert any(c for _, _, c, _ in seen), "never climbed"
    assert not p.climbing and p.on_ground and p.y == TOP - H, (p.y, p.climbing)
    rising = [y for _, y, c, _ in seen if c]
    assert all(b <= a for a, b in zip(rising, rising[1:])), "climbing up went down"
    # up never jumped: the body never rose above the ladder's top
    assert min(y for _, y, _, _ in seen) >= TOP - H - 1e-9
    p = run(g, p, name, [(40, Held(right=True)), (20, Held())])
    assert p.on_ground and p.y == TOP - H and p.x > 6 * 16, (p.x, p.y)


@pytest.mark.parametrize("name", NAMES)
def test_dropped_from_above_lands_on_the_ladders_top_and_stays(name):
    g = TileGrid.from_rows(LADDER)
    p = run(g, Player(4 * 16 + 2, 0.0, W, H), name, [(60, Held())])
    assert p.on_ground and p.y == TOP - H and not p.climbing


@pytest.mark.parametrize("name", NAMES)
def test_holding_down_on_the_top_climbs_down_to_the_floor(name):
    g = TileGrid.from_rows(LADDER)
    p = run(g, Player(4 * 16 + 2, 0.0, W, H), name, [(40, Held())])
    seen: list = []
    p = run(g, p, name, [(120, Held(down=True))], seen)
    assert p.on_ground and p.y == FLOOR - H and not p.climbing
    speeds = {round(b - a, 6) for (_, a, c, _), (_, b, _, _) in zip(seen, seen[1:]) if c}
    assert max(speeds) <= PH.climb_speed / PH.tick_rate + 1e-6, speeds  # climbed, not fell


@pytest.mark.parametrize("name", NAMES)
def test_down_and_jump_on_the_top_drops_through_as_from_a_one_way_platform(name):
    g = TileGrid.from_rows(LADDER)
    p = run(g, Player(4 * 16 + 2, 0.0, W, H), name, [(40, Held())])
    p = run(g, p, name, [(1, Held(down=True, jump=True)), (60, Held())])
    assert p.on_ground and p.y == FLOOR - H and not p.climbing


@pytest.mark.parametrize("name", NAMES)
def test_the_jump_key_leaves_the_ladder_with_a_jump_up_only_climbs(name):
    g = TileGrid.from_rows(LADDER)
    p = run(g, at_foot(), name, [(20, Held(up=True)), (1, Held())])
    assert p.climbing
    y = p.y
    p = run(g, p, name, [(1, Held(jump=True))])
    assert not p.climbing and p.vy < -PH.jump_speed * 0.9 and p.y < y


@pytest.mark.parametrize("name", NAMES)
def test_a_low_ceiling_stops_the_climb_and_sideways_off_the_ladder_falls(name):
    g = TileGrid.from_rows([
        "..........",
        "....#.....",
        "....H.....",
        "....H.....",
        "....H.....",
        "##########",
    ])
    p = run(g, Player(4 * 16 + 2, 5 * 16 - H, W, H, on_ground=True), name,
            [(80, Held(up=True))])
    assert p.climbing and p.y == 2 * 16, p.y  # held under the ceiling, still on the ladder
    p = run(g, p, name, [(30, Held(right=True)), (60, Held())])
    assert not p.climbing and p.on_ground and p.y == 5 * 16 - H and p.x > 5 * 16


@pytest.mark.parametrize("name", NAMES)
def test_a_ladder_beside_a_wall_climbs_without_entering_it(name):
    g = TileGrid.from_rows([
        "....#.....",
        "...H#.....",
        "...H#.....",
        "...H#.....",
        "##########",
    ])
    p = run(g, Player(3 * 16 + 3, 4 * 16 - H, W, H, on_ground=True), name,
            [(40, Held(up=True, right=True)), (30, Held(up=True))])
    assert not p.climbing and p.on_ground and p.y == 16 - H and p.x + p.w <= 4 * 16


def test_up_still_jumps_where_there_is_no_ladder():
    g = TileGrid.from_rows(LADDER)
    p = run(g, Player(8 * 16, FLOOR - H, W, H, on_ground=True), "axis", [(5, Held(up=True))])
    assert p.vy < 0 and not p.climbing


def test_a_jump_pressed_before_grabbing_does_not_jump_off():
    g = TileGrid.from_rows(LADDER)
    p = run(g, Player(4 * 16 + 2, 3 * 16, W, H), "axis",
            [(1, Held(jump=True)), (1, Held(up=True)), (10, Held(up=True))])
    assert p.climbing


@pytest.mark.parametrize("name", NAMES)
def test_climbing_over_the_top_beside_a_slope_lands_on_the_slope(name):
    """Climbing up and right past a ladder's top (y 32), the body's right edge has come over a
    '/' slope whose low side is level with that top. Standing it on the top put its bottom under
    the slope's surface there (axis, corners, routing, overlap, swept: up to 0.7 px inside it);
    it lands on the slope instead, the highest floor under it."""
    g = TileGrid.from_rows(["......", "..../.", "...H..", "...H..", "######"])
    p = Player(51.5, 32.5 - H, W, H, climbing=True)
    p = run(g, p, name, [(1, Held(up=True, right=True))])
    assert not p.climbing and p.on_ground
    assert p.y + H <= TOP, "on the slope, or on the ladder's top where the slope is lower"


@pytest.mark.parametrize("name", NAMES)
def test_a_ladder_climbs_in_a_level_with_moving_platforms(name):
    """The climb's move is cut against the moving platforms as any move is (it called the clip
    with the arguments of an older version: a TypeError on any ladder of such a level)."""
    g = TileGrid.from_rows(LADDER)
    bar = Platform(PlatformSpawn(id=1, x=120.0, y=20.0, w=32.0, h=8.0,
                                 path=((120.0, 20.0), (120.0, 20.0)), speed=60.0, wait=0.5,
                                 one_way=False, loop=False))
    p = Player(4 * 16 + 2, FLOOR - H, W, H, on_ground=True)
    resolver, seq = resolvers.create(name), InputSequencer()
    for _ in range(20):
        p.step(seq.frame(Held(up=True)), PH, resolver, g, (p.x, p.y), [bar])
    assert p.climbing and p.y < FLOOR - H - 20


LADDER_MAP = st.lists(st.text(st.sampled_from("....#=H"), min_size=8, max_size=8), min_size=6,
                      max_size=6).map(lambda rows: rows + ["#" * 8])
KEYS = st.lists(st.tuples(st.integers(1, 20), st.builds(
    Held, left=st.booleans(), right=st.booleans(), up=st.booleans(), down=st.booleans(),
    jump=st.booleans())), min_size=1, max_size=12)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=examples(100))
@given(rows=LADDER_MAP, col=st.integers(0, 7), keys=KEYS)
def test_climbing_never_ends_inside_a_solid_tile(name, rows, col, keys):
    g = TileGrid.from_rows(rows)
    top = next((r for r in range(len(rows)) if rows[r][col] != "."), None)
    if top is None or top == 0:
        return
    p = Player(col * 16 + 2, top * 16 - H - 1, W, H)
    if overlapping_tiles(g, p.x, p.y, W, H, p.y + H, True):
        return
    run(g, p, name, keys)
    assert math.isfinite(p.x) and math.isfinite(p.y)


# ----------------------------------------------------------------------------------------------
# Ladders in maps: the game's own kit, and other engines' maps
# ----------------------------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent
ARCADE = (ROOT / "tests" / "data" / "real_maps" / "arcade" / "arcade" / "resources" / "assets"
          / "tiled_maps" / "map_with_ladders.json")


def test_the_shipped_ladder_level_reads_its_ladders_without_a_note():
    level = load_level(ROOT / "levels" / "06_ladders.tmx")
    g = level.grid
    assert len(g.ladders) == 6 + 7 + 10 + 7 and level.notes == ()
    for col in (8, 17, 25, 32):
        rows = sorted(i // g.cols for i in g.ladders if i % g.cols == col)
        assert g.kind(col, rows[0]) == ONE_WAY  # the top: a floor from above
        assert all(g.kind(col, r) == EMPTY for r in rows[1:])


def test_a_misspelt_collision_value_names_ladder_among_the_choices(tmp_path):
    """A tile whose `collision` is a misspelt 'ladder' stops the load with one error line naming
    the tileset and every value the kit accepts, ladder included."""
    from helpers import run_cli

    shutil.copytree(ROOT / "assets", tmp_path / "assets")
    levels = tmp_path / "levels"
    levels.mkdir()
    shutil.copy(ROOT / "levels" / "06_ladders.tmx", levels)
    tsx = (ROOT / "levels" / "terrain.tsx").read_text("utf-8")
    assert tsx.count('value="ladder"') == 1
    (levels / "terrain.tsx").write_text(tsx.replace('value="ladder"', 'value="Ladder"'), "utf-8")
    r = run_cli("--headless", "--ticks", "1", "--no-settings", "--level",
                levels / "06_ladders.tmx")
    lines = r.stderr.decode().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and lines[0].startswith("error:"), lines
    assert "terrain.tsx" in lines[0] and "collision='Ladder'" in lines[0]
    assert all(kind in lines[0] for kind in ("solid", "one_way", "slope", "ladder")), lines[0]


def _foreign(tmp_path: Path, tile_props: str, layer_name: str = "ground") -> Path:
    """tests/data/flat.tmx made another engine's map: tile 1 a bool 'solid', tile 4 a ladder by
    ``tile_props`` (or by the name of the layer it is in), a ladder up from the floor at col 5."""
    shutil.copy(ROOT / "tests" / "data" / "tiles4.png", tmp_path / "tiles4.png")
    text = (ROOT / "tests" / "data" / "flat.tmx").read_text("utf-8")
    text = text.replace('<property name="collision" value="solid"/>',
                        '<property name="solid" type="bool" value="true"/>')
    text = text.replace('<tile id="1"><properties><property name="collision" value="one_way"/>'
                        '</properties></tile>', "")
    text = re.sub(r'<tile id="2">.*?</tile>', "", text)
    text = text.replace("</tileset>", f'<tile id="3"><properties>{tile_props}</properties></tile>'
                                      "\n </tileset>")
    ladder = ",\n".join(",".join("4" if c == 5 and r in (1, 2, 3) else "0" for c in range(10))
                        for r in range(6))
    text = text.replace(' <objectgroup', f' <layer id="3" name="{layer_name}" width="10" '
                        f'height="6">\n  <data encoding="csv">\n{ladder}\n</data>\n </layer>\n'
                        ' <objectgroup')
    out = tmp_path / "foreign.tmx"
    out.write_text(text, "utf-8")
    return out


@pytest.mark.parametrize("props, layer", [
    ('<property name="climbable" type="bool" value="true"/>', "scenery"),
    ('<property name="isLadder" value="yes"/>', "scenery"),
    ('<property name="type" value="Ladder"/>', "scenery"),
    ("", "Ladders"),
    ("", "climb"),
])
def test_another_engines_ladders_by_tile_property_or_layer_name_with_a_note(tmp_path, props,
                                                                            layer):
    level = load_level(_foreign(tmp_path, props, layer))
    g = level.grid
    assert sorted(g.ladders) == [r * 10 + 5 for r in (1, 2, 3)]
    assert g.kind(5, 1) == ONE_WAY and g.kind(5, 2) == EMPTY and g.kind(5, 4) == SOLID
    assert any("3 ladder cells" in n for n in level.notes), level.notes


@pytest.mark.parametrize("name", NAMES)
def test_python_arcades_ladder_map_climbs(name):
    """Arcade's sample map_with_ladders.json: its 'Ladders' layer (col 13, rows 1-6, above the
    platform at row 7) is climbed to its top with every resolver."""
    notes: list[str] = []
    world = load_world(ARCADE, Config(), resolvers.create(name), notes=notes.append)
    assert any("ladder cells read from tile layer 'Ladders'" in n for n in notes), notes
    g, p = world.grid, world.player
    t = g.tile_w
    p.x, p.y = 13 * t + (t - p.w) / 2, 7 * t - p.h
    p.settle(g, True)
    seq = InputSequencer()
    for _ in range(200):
        world.step(seq.frame(Held(up=True)))
    assert not p.climbing and p.on_ground and p.y == pytest.approx(t - p.h), (p.y, p.climbing)


@pytest.mark.parametrize("name", NAMES)
def test_a_solid_platform_over_a_ladder_stops_the_climb(name):
    """A platform's box is met while climbing as the tiles are: a still solid platform across
    the ladder above the player is a ceiling."""
    from game.sim.platforms import make_platforms

    g = TileGrid.from_rows(LADDER)
    spawn = PlatformSpawn(1, 3 * 16, 3 * 16, 48.0, 8.0, ((3 * 16, 3 * 16),), 0.0, 0.0, False,
                          False)
    platforms = make_platforms([spawn])
    p, resolver, seq = at_foot(), resolvers.create(name), InputSequencer()
    for _ in range(80):
        p.step(seq.frame(Held(up=True)), PH, resolver, g, (p.x, p.y), platforms)
    assert p.climbing and p.y == 3 * 16 + 8, p.y  # under the platform's bottom, still on it


def test_the_sprite_steps_its_climb_while_climbing_straight_up_and_holds_still_when_stopped():
    """In the window, on the shipped ladder level: up held at ladder A's foot. The sprite's
    picture changes as the player climbs straight up (no sideways motion), and stays one picture
    while the player hangs on the ladder without moving."""
    from dataclasses import replace

    import pygame

    from game import config
    from game.sim.inputs import InputScript
    from game.view.app import App

    c = config.load(ROOT / "config.toml")
    cfg = replace(c, display=replace(c.display, width=640, height=360, vsync=False,
                                     hot_reload=False))
    keys = InputScript(((0, Held(right=True)), (37, Held(up=True)), (70, Held())))
    app = App(cfg, ROOT / "levels" / "06_ladders.tmx", script=keys, frame_time=1 / 60)
    try:
        play = app.play
        seen = {}
        for _ in range(100):
            app.frame(1 / 60)
            p = app.world.player
            if p.climbing:
                picture = play.painter.player_sprite.image(p.facing, p.vy)
                seen.setdefault(app.world.tick >= 72, set()).add(pygame.image.tobytes(picture,
                                                                                     "RGBA"))
        assert app.world.player.climbing and app.world.player.x == 130.0
        assert len(seen[False]) > 1, "the climb up showed one still picture"
        assert len(seen[True]) == 1, "hanging still on the ladder, the picture changed"
    finally:
        pygame.quit()
        pygame.init()
