"""Maps made for other engines (issue 18): each collision convention on a small hand-made map,
where the player starts, scaling, what Tiled opens that the loader used to refuse, and the notes
that say every guess (game.maps.conventions, game.maps.shapes, game.maps.start)."""

from __future__ import annotations

import math
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from game import resolvers
from game.config import Config
from game.errors import UserError
from game.maps.conventions import (DECLARED, LAYER_NAME, LAYER_PROPERTY, OBJECT, SOURCE_NAMES,
                                   TILE_PROPERTY, TILE_SHAPE)
from game.maps.grid import EMPTY, ONE_WAY, SLOPE, SOLID
from game.maps.level import load_level
from game.maps.shapes import Shape, cell_kind, rect_shape
from game.sim.inputs import InputFrame
from game.sim.world import load_world

ROOT = Path(__file__).resolve().parent.parent
TILES_PNG = Path(__file__).parent / "data" / "tiles4.png"  # four 16x16 tiles
FLIP_H, FLIP_V, FLIP_D = 0x80000000, 0x40000000, 0x20000000

FLOOR = ["........", "........", "........", "........", "########"]


def tileset(tiles: str = "", tw: int = 16, th: int = 16, extra: str = "") -> str:
    return (f'<tileset firstgid="1" name="t" tilewidth="{tw}" tileheight="{th}" tilecount="4" '
            f'columns="4"{extra}><image source="tiles4.png" width="64" height="16"/>{tiles}'
            '</tileset>')


def layer(rows: list[str], name: str = "ground", gid: int = 1, layer_id: int | None = 1,
          props: str = "") -> str:
    data = ",".join(str(gid if ch == "#" else 0) for row in rows for ch in row)
    lid = f' id="{layer_id}"' if layer_id is not None else ""
    return (f'<layer{lid} name="{name}" width="{len(rows[0])}" height="{len(rows)}">{props}'
            f'<data encoding="csv">{data}</data></layer>')


def write(folder: Path, *, layers: str, tilesets: str | None = None, objects: str = "",
          size: tuple[int, int] = (8, 5), tile: int = 16, map_props: str = "",
          name: str = "map.tmx") -> Path:
    if not (folder / "tiles4.png").exists():
        shutil.copy(TILES_PNG, folder / "tiles4.png")
    tilesets = tileset() if tilesets is None else tilesets
    group = f'<objectgroup id="9" name="objects">{objects}</objectgroup>' if objects else ""
    text = (f'<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.10" orientation="orthogonal" '
            f'renderorder="right-down" width="{size[0]}" height="{size[1]}" tilewidth="{tile}" '
            f'tileheight="{tile}" infinite="0">{map_props}{tilesets}{layers}{group}</map>')
    path = folder / name
    path.write_text(text, "utf-8")
    return path


def prop(name: str, value: str = "true", kind: str = "bool") -> str:
    return f'<property name="{name}" type="{kind}" value="{value}"/>'


def tile_props(*props: str, tile_id: int = 0) -> str:
    return f'<tile id="{tile_id}"><properties>{"".join(props)}</properties></tile>'


def tile_shape(shape: str, tile_id: int = 0) -> str:
    return f'<tile id="{tile_id}"><objectgroup draworder="index">{shape}</objectgroup></tile>'


SPAWN = '<object id="1" name="spawn" x="24" y="64"><point/></object>'


def kinds(level) -> list[str]:
    g = level.grid
    return ["".join(".#=/"[g.kind(c, r)] for c in range(g.cols)) for r in range(g.rows)]


def noted(level, *words: str) -> str:
    for note in level.notes:
        if all(w.lower() in note.lower() for w in words):
            assert "\n" not in note
            return note
    raise AssertionError(f"no note with {words}: {level.notes}")


# --- 1. tile properties ---------------------------------------------------------------------

@pytest.mark.parametrize("name", ["collides", "solid", "collision", "blocked"])
def test_a_bool_tile_property_makes_the_tile_solid(tmp_path, name):
    level = load_level(write(tmp_path, layers=layer(FLOOR, "tiles"), objects=SPAWN,
                             tilesets=tileset(tile_props(prop(name)))))
    assert kinds(level)[4] == "########"
    assert level.view.sources[4 * 8] == TILE_PROPERTY
    noted(level, "collision read from tile properties")


def test_a_false_property_or_a_platform_class_tile(tmp_path):
    tiles = tile_props(prop("collides", "false")) + \
        '<tile id="1" type="Platform"/>'
    rows = ["........", "........", "........", "..##....", "########"]
    data = ",".join("0" if ch == "." else ("2" if r == 3 else "1")
                    for r, row in enumerate(rows) for ch in row)
    lay = f'<layer id="1" name="tiles" width="8" height="5"><data encoding="csv">{data}</data></layer>'
    level = load_level(write(tmp_path, layers=lay, objects=SPAWN, tilesets=tileset(tiles)))
    assert kinds(level)[3:] == ["..==....", "........"]


# --- 2. tile collision shapes ---------------------------------------------------------------

RECT_BOTTOM_HALF = '<object id="1" x="0" y="8" width="16" height="8"/>'
RISING_RIGHT = '<object id="1" x="0" y="16"><polygon points="0,0 16,-16 16,0"/></object>'


@pytest.mark.parametrize("shape,flip,want,heights", [
    ('<object id="1" x="0" y="0" width="16" height="16"/>', 0, SOLID, None),
    (RECT_BOTTOM_HALF, 0, SLOPE, (8.0, 8.0)),  # a half tile: a slope with equal heights
    (RISING_RIGHT, 0, SLOPE, (0.0, 16.0)),
    (RISING_RIGHT, FLIP_H, SLOPE, (16.0, 0.0)),  # flips apply to the shapes (pytmx's don't)
    (RECT_BOTTOM_HALF, FLIP_V, SOLID, None),  # a ceiling half: rounded out to the whole cell
    # the right half, x and y swapped: the bottom half
    ('<object id="1" x="8" y="0" width="8" height="16"/>', FLIP_D, SLOPE, (8.0, 8.0)),
])
def test_collision_shapes_become_cells_with_flips(tmp_path, shape, flip, want, heights):
    rows = ["........", "........", "........", "........", "#......."]
    data = ",".join(str((1 | flip) if ch == "#" else 0) for row in rows for ch in row)
    lay = f'<layer id="1" name="tiles" width="8" height="5"><data encoding="csv">{data}</data></layer>'
    spawn = '<object id="1" name="spawn" x="100" y="20"><point/></object>'
    level = load_level(write(tmp_path, layers=lay, objects=spawn,
                             tilesets=tileset(tile_shape(shape))))
    assert level.grid.kind(0, 4) == want
    assert level.view.sources[4 * 8] == TILE_SHAPE
    if heights:
        assert level.grid.slope_heights(0, 4) == heights
    if want == SOLID and "height=\"8\"" in shape:
        noted(level, "rounded out", "tile 0 of tileset t")


def test_a_hazard_tiles_shape_is_where_it_hurts_not_collision(tmp_path):
    tiles = ('<tile id="0"><properties>' + prop("hazard") + '</properties><objectgroup>'
             '<object id="1" x="0" y="8" width="16" height="8"/></objectgroup></tile>')
    level = load_level(write(tmp_path, layers=layer(FLOOR, "tiles"), objects=SPAWN,
                             tilesets=tileset(tiles)))
    assert level.grid.kinds.count(SOLID) == 0 and level.features.hazards


# --- 3 and 4. layer properties and names ------------------------------------------------------

@pytest.mark.parametrize("name", ["Collision", "SOLID", "ground", "Terrain", "Walls", "Blocks",
                                  "Platforms", "Ground Layer"])
def test_a_tile_layer_named_like_collision_is_solid(tmp_path, name):
    level = load_level(write(tmp_path, layers=layer(FLOOR, name), objects=SPAWN))
    assert kinds(level)[4] == "########" and level.view.sources[32] == LAYER_NAME
    noted(level, "the name of tile layer", repr(name))


@pytest.mark.parametrize("name", ["Background", "decor", "Tile Layer 1", "grounds_far_bg"])
def test_other_layer_names_are_not_guessed(tmp_path, name):
    level = load_level(write(tmp_path, layers=layer(FLOOR, name), objects=SPAWN))
    assert level.grid.kinds.count(SOLID) == 0
    noted(level, "no collision marks found", "collides")


def test_one_way_layer_names(tmp_path):
    level = load_level(write(tmp_path, layers=layer(FLOOR, "one-way platforms"), objects=SPAWN))
    assert kinds(level)[4] == "========"


def test_layer_names_are_not_guessed_when_tiles_are_marked(tmp_path):
    deco = ["........", "........", "#.......", "........", "........"]
    layers = layer(FLOOR, "tiles") + layer(deco, "Collision", gid=2, layer_id=2)
    level = load_level(write(tmp_path, layers=layers, objects=SPAWN,
                             tilesets=tileset(tile_props(prop("collides")))))
    assert level.grid.kind(0, 2) == EMPTY and kinds(level)[4] == "########"


def test_a_layer_property_makes_the_layer_collide(tmp_path):
    props = f"<properties>{prop('solid')}</properties>"
    level = load_level(write(tmp_path, layers=layer(FLOOR, "tiles", props=props), objects=SPAWN))
    assert kinds(level)[4] == "########" and level.view.sources[32] == LAYER_PROPERTY
    noted(level, "the property of tile layer 'tiles'")


def test_flixel_nocollide_every_other_layer_collides(tmp_path):
    back = ["########"] * 5
    layers = (layer(back, "back", layer_id=1, props=f"<properties>{prop('nocollide')}"
                    "</properties>") + layer(FLOOR, "tiles", gid=2, layer_id=2))
    level = load_level(write(tmp_path, layers=layers, objects=SPAWN))
    assert kinds(level) == ["........"] * 4 + ["########"]
    noted(level, "Flixel")


def test_the_games_own_property_wins_and_nothing_is_guessed(tmp_path):
    """A map marked this game's way reads that alone: no layer name, no guess (a level with a
    goal has nothing at all to say)."""
    deco = ["........", "........", "#.......", "........", "........"]
    tiles = tile_props('<property name="collision" value="solid"/>')
    layers = layer(FLOOR, "ground") + layer(deco, "Collision", gid=2, layer_id=2)
    goal = '<object id="2" type="goal" x="96" y="48" width="16" height="16"/>'
    level = load_level(write(tmp_path, layers=layers, objects=SPAWN + goal,
                             tilesets=tileset(tiles)))
    assert level.grid.kind(0, 2) == EMPTY and level.notes == () and level.physics_scale == 1
    assert set(level.view.sources) == {0, 1}


# --- 5. collision objects ----------------------------------------------------------------------

def test_rectangles_on_a_collision_layer_are_solid_exactly(tmp_path):
    objs = ('<objectgroup id="3" name="Collision"><object id="5" x="0" y="64" width="128" '
            'height="16"/><object id="6" x="32" y="40" width="16" height="8"/></objectgroup>')
    level = load_level(write(tmp_path, layers=objs, objects=SPAWN))
    assert kinds(level)[4] == "########" and level.view.sources[32] == OBJECT
    assert level.grid.kind(2, 2) == SLOPE and level.grid.slope_heights(2, 2) == (8.0, 8.0)
    noted(level, "2 collision objects")


@pytest.mark.parametrize("attrs,props,want", [
    ('type="solid"', "", SOLID), ('class="Wall"', "", SOLID),
    ("", '<property name="bodyType" value="static"/>', SOLID),
    ('type="platform"', "", ONE_WAY), ('type="one-way"', "", ONE_WAY),
    ('type="cloud"', "", EMPTY),
])
def test_objects_marked_by_type_class_or_body_type(tmp_path, attrs, props, want):
    obj = (f'<object id="5" {attrs} x="0" y="64" width="128" height="16">'
           f'<properties>{props}</properties></object>')
    level = load_level(write(tmp_path, layers="", objects=SPAWN + obj))
    assert level.grid.kind(3, 4) == want


def test_a_platform_with_a_path_stays_the_games_moving_platform(tmp_path):
    objs = ('<object id="5" type="platform" x="48" y="24" width="32" height="8"><properties>'
            '<property name="path" type="object" value="6"/></properties></object>'
            '<object id="6" x="96" y="24"><point/></object>')
    level = load_level(write(tmp_path, layers=layer(FLOOR, "ground"), objects=SPAWN + objs))
    assert len(level.platforms) == 1 and level.grid.kind(3, 1) == EMPTY


def test_polygons_and_polylines_cell_by_cell(tmp_path):
    ramp = ('<object id="5" type="solid" x="0" y="80"><polygon points="0,0 32,-32 32,0"/>'
            '</object><object id="6" type="ground" x="64" y="60"><polyline points="0,0 64,0"/>'
            '</object>')
    far = '<object id="1" name="spawn" x="120" y="20"><point/></object>'
    level = load_level(write(tmp_path, layers="", objects=far + ramp))
    g = level.grid
    assert (g.kind(0, 4), g.slope_heights(0, 4)) == (SLOPE, (0.0, 16.0))
    assert (g.kind(1, 3), g.slope_heights(1, 3)) == (SLOPE, (0.0, 16.0))
    assert g.kind(1, 4) == SOLID  # under the ramp
    assert [g.kind(c, 3) for c in range(4, 8)] == [SLOPE] * 4  # the line is a floor
    assert g.slope_heights(4, 3) == (4.0, 4.0)


@settings(max_examples=examples(60), deadline=None)
@given(x=st.floats(0, 60), y=st.floats(0, 60), w=st.floats(0.5, 40), h=st.floats(0.5, 40),
       tri=st.booleans(), px=st.floats(0, 1), py=st.floats(0, 1))
def test_every_point_inside_a_shape_is_blocked(x, y, w, h, tri, px, py):
    """The no-overlap promise: a point inside the shape lies in a cell that blocks it (solid,
    or under a slope's floor line)."""
    shape = (Shape(((x, y + h), (x + w, y), (x + w, y + h))) if tri else rect_shape(x, y, w, h))
    if tri and px + py < 1:  # a point of the triangle: above its hypotenuse is outside
        px, py = 1 - px, 1 - py
    qx, qy = x + px * w, y + py * h
    if tri:
        qx, qy = x + max(px, 1 - py) * w, y + py * h
    col, row = int(qx // 16), int(qy // 16)
    kind, heights, _exact = cell_kind([shape], col * 16, row * 16, 16, 16)
    inside_open = 0.001 < px < 0.999 and 0.001 < py < 0.999
    if not inside_open:
        return
    assert kind in (SOLID, SLOPE)
    if kind == SLOPE:
        t = (qx - col * 16) / 16
        floor = (row + 1) * 16 - (heights[0] + (heights[1] - heights[0]) * t)
        assert qy >= floor - 1e-6


# --- the start ---------------------------------------------------------------------------------

@pytest.mark.parametrize("attrs", ['name="PlayerStart"', 'type="spawn_point"', 'class="Start"',
                                   'name="hero"'])
def test_a_start_object_by_name_type_or_class(tmp_path, attrs):
    start = f'<object id="2" {attrs} x="40" y="64"><point/></object>'
    level = load_level(write(tmp_path, layers=layer(FLOOR, "ground"), objects=start))
    assert (level.spawn.x + level.spawn.w / 2, level.spawn.y + level.spawn.h) == (40, 64)
    noted(level, "the player starts at object", "(id 2")


def test_a_plausible_start_rectangle_is_the_body_an_implausible_one_is_not(tmp_path):
    small = '<object id="2" name="start" x="40" y="44" width="10" height="20"/>'
    level = load_level(write(tmp_path, layers=layer(FLOOR, "ground"), objects=small))
    assert (level.spawn.w, level.spawn.h, level.spawn_is_point) == (10, 20, False)
    big = '<object id="2" name="start" x="0" y="0" width="128" height="64"/>'
    level = load_level(write(tmp_path, layers=layer(FLOOR, "ground"), objects=big))
    assert (level.spawn.w, level.spawn.h) == (12, 14)
    assert (level.spawn.x + 6, level.spawn.y + 14) == (64, 64)
    noted(level, "no body's size")


def test_a_start_drawn_into_the_ground_is_lifted_out(tmp_path):
    start = '<object id="2" name="start" x="40" y="70"><point/></object>'
    level = load_level(write(tmp_path, layers=layer(FLOOR, "ground"), objects=start))
    assert level.spawn.y + level.spawn.h == 64
    noted(level, "lifted 6 px")


def test_no_start_stands_on_the_first_ground_from_the_left(tmp_path):
    rows = ["........", "........", "........", "...##...", "...#####"]
    level = load_level(write(tmp_path, layers=layer(rows, "ground")))
    assert (level.spawn.x, level.spawn.y + level.spawn.h) == (3 * 16 + 2, 48)
    noted(level, "first solid ground from the left", "column 3")


def test_nowhere_to_stand_is_one_error_line(tmp_path):
    path = write(tmp_path, layers="", objects='<object id="3" name="sign" x="4" y="4"/>')
    with pytest.raises(UserError) as info:
        load_level(path)
    assert "nowhere to stand" in info.value.message and "'spawn'" in info.value.message


def test_a_map_with_no_marks_and_no_start_guesses_its_ground_layer(tmp_path):
    layers = layer(["########"] * 5, "sky", layer_id=1) + layer(FLOOR, "level", gid=2,
                                                                 layer_id=2)
    level = load_level(write(tmp_path, layers=layers))
    assert kinds(level)[4] == "########" and kinds(level)[0] == "........"
    noted(level, "tile layer 'level'", "taken as the ground")


# --- scale -------------------------------------------------------------------------------------

def test_other_tile_sizes_scale_the_player_and_physics(tmp_path):
    path = write(tmp_path, layers=layer(FLOOR, "ground"), tile=32,
                 objects='<object id="1" name="spawn" x="48" y="128"><point/></object>',
                 map_props=f"<properties>{prop('jump_speed', '500', 'float')}</properties>",
                 tilesets=_big_tileset(tmp_path))
    level = load_level(path)
    assert level.physics_scale == 2 and (level.spawn.w, level.spawn.h) == (24, 28)
    noted(level, "scaled x2")
    notes: list[str] = []
    world = load_world(path, Config(), resolvers.create("axis"), notes=notes.append)
    assert world.physics.gravity == 2 * Config().physics.gravity
    assert world.physics.jump_speed == 500  # the map sets it: kept
    assert world.physics.coyote_time == Config().physics.coyote_time  # a time: kept
    assert notes == list(level.notes)


def test_a_scaled_jump_climbs_the_same_number_of_tiles(tmp_path):
    """The shipped physics jump about 3.5 tiles of 16 px; scaled, as many tiles of 32 px."""
    heights = {}
    for tile in (16, 32):
        folder = tmp_path / str(tile)
        folder.mkdir()
        path = write(folder, layers=layer(["........"] * 9 + ["########"], "t"), size=(8, 10),
                     tile=tile, tilesets=_big_tileset(folder, tile),
                     objects=f'<object id="1" name="start" x="{tile * 4}" y="{tile * 9}">'
                             '<point/></object>')
        world = load_world(path, Config(), resolvers.create("axis"), notes=lambda _n: None)
        start = world.player.y
        world.step(InputFrame(jump_held=True, jump_pressed=True))
        top = start
        for _ in range(60):
            world.step(InputFrame(jump_held=True))
            top = min(top, world.player.y)
        heights[tile] = (start - top) / tile
    assert math.isclose(heights[16], heights[32], rel_tol=0.02)


# --- maps Tiled opens that the loader refused or mis-read ---------------------------------------

def test_layers_without_id_each_draw_their_own_cells(tmp_path):
    deco = ["#.......", "........", "........", "........", "........"]
    layers = layer(FLOOR, "ground", layer_id=None) + layer(deco, "deco", gid=2, layer_id=None)
    level = load_level(write(tmp_path, layers=layers, objects=SPAWN))
    first, second = level.view.layers
    assert first.gids[4][0] != 0 and first.gids[0][0] == 0
    assert second.gids[0][0] != 0 and second.gids[4][0] == 0


def test_an_object_only_map_loads(tmp_path):
    objs = '<object id="5" type="solid" x="0" y="64" width="128" height="16"/>'
    level = load_level(write(tmp_path, layers="", tilesets="", objects=SPAWN + objs))
    assert level.view.layers == () and kinds(level)[4] == "########"


def test_an_empty_image_collection_loads(tmp_path):
    empty = ('<tileset firstgid="5" name="none" tilewidth="0" tileheight="0" tilecount="0" '
             'columns="0"><grid orientation="orthogonal" width="1" height="1"/></tileset>')
    level = load_level(write(tmp_path, layers=layer(FLOOR, "ground"), objects=SPAWN,
                             tilesets=tileset() + empty))
    assert kinds(level)[4] == "########"


def test_a_missing_image_of_a_tile_never_placed_is_a_note(tmp_path):
    (tmp_path / "a.png").write_bytes(TILES_PNG.read_bytes())
    collection = ('<tileset firstgid="5" name="c" tilewidth="64" tileheight="16" tilecount="2" '
                  'columns="0"><tile id="0"><image source="a.png" width="64" height="16"/></tile>'
                  '<tile id="1"><image source="gone.png" width="16" height="16"/></tile></tileset>')
    level = load_level(write(tmp_path, layers=layer(FLOOR, "ground"), objects=SPAWN,
                             tilesets=tileset() + collection))
    noted(level, "tileset c", "not found", "no tile that needs one is placed")
    assert all("gone.png" not in t.source for t in level.view.tiles.values())
    placed = layer(FLOOR, "ground") + layer(["#......."] + ["........"] * 4, "d", gid=6,
                                            layer_id=2)
    with pytest.raises(UserError) as info:
        load_level(write(tmp_path, layers=placed, objects=SPAWN,
                         tilesets=tileset() + collection))
    assert "gone.png" in info.value.message and "not found" in info.value.message


def test_an_external_tileset_saved_as_xml(tmp_path):
    (tmp_path / "art").mkdir()
    shutil.copy(TILES_PNG, tmp_path / "art" / "tiles4.png")
    (tmp_path / "art" / "t.xml").write_text(
        '<?xml version="1.0"?>\n' + tileset(tile_props(prop("collides"))).replace(
            'firstgid="1" ', ""), "utf-8")
    level = load_level(write(tmp_path, layers=layer(FLOOR, "tiles"), objects=SPAWN,
                             tilesets='<tileset firstgid="1" source="art/t.xml"/>'))
    assert kinds(level)[4] == "########"
    image = next(iter(level.view.tiles.values()))
    assert Path(image.source).resolve() == (tmp_path / "art" / "tiles4.png").resolve()


def test_a_map_property_called_name(tmp_path):
    props = '<properties><property name="name" value="Level 1"/></properties>'
    level = load_level(write(tmp_path, layers=layer(FLOOR, "ground"), objects=SPAWN,
                             map_props=props))
    assert level.properties["name"] == "Level 1"


def test_tiles_bigger_than_the_grid_cover_what_tiled_shows(tmp_path):
    """A 32x32 tile on a 16 px grid hangs from its cell's bottom-left corner: 2x2 cells."""
    (tmp_path / "big.png").write_bytes(_png(32, 32))
    big = ('<tileset firstgid="1" name="big" tilewidth="32" tileheight="32" tilecount="1" '
           'columns="1"><image source="big.png" width="32" height="32"/></tileset>')
    rows = ["........", "........", "........", "........", "#......."]
    props = f"<properties>{prop('collides')}</properties>"
    far = '<object id="1" name="spawn" x="100" y="64"><point/></object>'
    level = load_level(write(tmp_path, layers=layer(rows, "tiles", props=props), objects=far,
                             tilesets=big))
    assert kinds(level)[3:] == ["##......", "##......"]


def _big_tileset(folder: Path, tile: int = 32) -> str:
    (folder / "big.png").write_bytes(_png(tile, tile))
    return (f'<tileset firstgid="1" name="big" tilewidth="{tile}" tileheight="{tile}" '
            f'tilecount="1" columns="1"><image source="big.png" width="{tile}" '
            f'height="{tile}"/>{tile_props(prop("collides"))}</tileset>')


def _png(w: int, h: int) -> bytes:
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    raw = b"".join(b"\0" + b"\x80\x80\x80\xff" * w for _ in range(h))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def test_source_names_cover_every_code():
    assert len(SOURCE_NAMES) == DECLARED + 1 and all(SOURCE_NAMES[1:])


# --- the command line says every note -------------------------------------------------------

def test_headless_prints_every_note_on_stderr(tmp_path):
    path = write(tmp_path, layers=layer(FLOOR, "Collision"))
    proc = subprocess.run([sys.executable, str(ROOT / "main.py"), "--headless", "--ticks", "5",
                           "--level", str(path), "--no-settings"], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == len(load_level(path).notes) >= 2
    assert all(line.startswith("note: ") for line in lines)
    assert any("the name of tile layer 'Collision'" in line for line in lines)


# --- hostile shapes ------------------------------------------------------------------------------

def test_a_map_wide_rectangle_is_cheap_and_a_map_wide_polygon_is_bounded(tmp_path):
    """Cells inside an upright rectangle are set without clipping; slanted edges over more
    than MAX_SHAPE_CELLS cells are one error line, not minutes of work."""
    import time

    from game.maps import limits

    size = (1000, 1000)
    box = '<object id="5" type="solid" x="0" y="15000" width="16000" height="1000"/>'
    spawn = '<object id="1" name="spawn" x="8" y="15000"><point/></object>'
    start = time.perf_counter()
    level = load_level(write(tmp_path, layers="", tilesets="", objects=spawn + box, size=size))
    assert time.perf_counter() - start < 10 and level.grid.kind(500, 999) == SOLID
    # a "saw" polyline of 60,000 teeth over the map: refused before the work is done
    teeth = " ".join(f"{i * 0.25:g},{(i % 2) * 16000}" for i in range(60_000))
    saw = f'<object id="6" type="solid" x="0" y="0"><polyline points="{teeth}"/></object>'
    start = time.perf_counter()
    with pytest.raises(UserError) as info:
        load_level(write(tmp_path, layers="", tilesets="", objects=spawn + saw,
                         size=size, name="saw.tmx"))
    assert "cells" in info.value.message and time.perf_counter() - start < 10
    assert limits.MAX_SHAPE_CELLS >= 1_000_000


# --- more notes and refusals -----------------------------------------------------------------------

def test_a_layer_painted_everywhere_has_its_commonest_tile_as_sky(tmp_path):
    rows = ["........"] * 9 + ["########"]  # the floor: 10% of the cells
    data = ",".join("1" if ch == "#" else "2" for row in rows for ch in row)
    lay = (f'<layer id="1" name="Ground" width="8" height="10"><data encoding="csv">{data}'
           '</data></layer>')
    level = load_level(write(tmp_path, layers=lay, objects=SPAWN, size=(8, 10)))
    assert kinds(level) == ["........"] * 9 + ["########"]
    noted(level, "fills every cell", "taken as open space")


def test_a_start_that_cannot_be_lifted_out_of_the_ground_is_refused(tmp_path):
    wall = ["........", "...#....", "...#....", "...#....", "########"]
    start = '<object id="2" name="PlayerStart" x="56" y="60"><point/></object>'
    with pytest.raises(UserError) as info:
        load_level(write(tmp_path, layers=layer(wall, "ground"), objects=start))
    assert "the start object 'PlayerStart' (id 2" in info.value.message
    assert "overlaps a collision tile" in info.value.message


def test_templates_give_their_objects_name_type_size_and_tile(tmp_path):
    (tmp_path / "hero.tx").write_text(
        '<?xml version="1.0"?><template><object name="hero" type="player" width="10" '
        'height="20"/></template>', "utf-8")
    start = '<object id="2" template="hero.tx" x="40" y="44"/>'
    level = load_level(write(tmp_path, layers=layer(FLOOR, "ground"), objects=start))
    assert (level.spawn.x, level.spawn.y, level.spawn.w, level.spawn.h) == (40, 44, 10, 20)
    assert (tmp_path / "hero.tx").resolve() in level.files


def test_a_missing_template_is_one_error_line(tmp_path):
    start = '<object id="2" template="gone.tx" x="40" y="44"/>'
    with pytest.raises(UserError) as info:
        load_level(write(tmp_path, layers=layer(FLOOR, "ground"), objects=SPAWN + start))
    assert "gone.tx" in str(info.value) and "not found" in info.value.message


def test_a_tile_object_collides_as_its_tile_and_slope_words(tmp_path):
    tiles = (tile_props(prop("block", "1", "string"), prop("slope", "forward", "string"))
             + tile_props(prop("block", "1", "string"), tile_id=1))
    objs = ('<object id="5" gid="1" x="0" y="80" width="16" height="16"/>'
            '<object id="6" gid="2" x="16" y="80" width="16" height="16"/>')
    level = load_level(write(tmp_path, layers="", objects=SPAWN.replace('x="24"', 'x="100"')
                             + objs, tilesets=tileset(tiles)))
    g = level.grid
    assert (g.kind(0, 4), g.slope_heights(0, 4), g.kind(1, 4)) == (SLOPE, (0.0, 16.0), SOLID)


def leap_layer(rows: list[str]) -> str:
    """A layer of tiles by letter: # ground (no class), = Platform, / a Slope, ^ Hazard."""
    ids = {"#": 1, "=": 2, "/": 3, "^": 4}
    data = ",".join(str(ids.get(ch, 0)) for row in rows for ch in row)
    return (f'<layer id="1" name="Ground" width="{len(rows[0])}" height="{len(rows)}">'
            f'<data encoding="csv">{data}</data></layer>')


LEAP_TILES = ('<tile id="1" type="Platform"/>'
              '<tile id="2" type="Slope"><properties><property name="LeftTop" type="int" '
              'value="0"/><property name="RightTop" type="int" value="8"/></properties></tile>'
              '<tile id="3" type="Hazard"/>')


def test_flame_leap_ground_layer_with_classed_tiles(tmp_path):
    """Flame Leap (Super Dash): every tile of the layer named Ground is solid but those whose
    class says otherwise: Platform is one-way, Slope rises from LeftTop to RightTop px above its
    bottom, Hazard hurts."""
    rows = ["........", "..==....", "........", "/.......", "###^####"]
    level = load_level(write(tmp_path, layers=leap_layer(rows), objects=SPAWN,
                             tilesets=tileset(LEAP_TILES)))
    assert kinds(level) == ["........", "..==....", "........", "/.......", "########"]
    left, right = level.grid.slope_heights(0, 3)
    assert right - left == pytest.approx(8.0)  # rises 8 px across the tile
    noted(level, "Ground", "without a mark of their own")


def test_a_ground_layer_is_not_filled_in_where_tiles_are_marked_by_a_property(tmp_path):
    """Phaser's way: tiles with collides=true are the solid ones of the layer they are in,
    whatever its name; the others (grass, flowers) stay open."""
    rows = ["........", "........", "........", "........", "########"]
    data = ",".join(str(1 if ch == "#" else 0) for row in rows[:-1] for ch in row) + "," + \
        "1,2,1,2,1,2,1,2"
    ground = (f'<layer id="1" name="Ground" width="8" height="5"><data encoding="csv">{data}'
              '</data></layer>')
    level = load_level(write(tmp_path, layers=ground, objects=SPAWN,
                             tilesets=tileset(tile_props(prop("collides")))))
    assert kinds(level)[4] == "#.#.#.#."
