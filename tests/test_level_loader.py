"""``game.maps.level.load_level``: Tiled maps written into tmp_path, turned into the game's level data.

Every map here is built from text by the small writer below, so each test shows the one thing it
varies. Tile ids of the test tileset (tests/data/tiles4.png, four 16x16 tiles):

    0 solid, 1 one_way, 2 slope rising to the right (slope_left 0, slope_right 16), 3 decoration

and the characters used in the row pictures: ``#`` solid, ``=`` one-way, ``/`` slope, ``\\`` the
same slope tile flipped horizontally, ``d`` decoration, ``.`` nothing.
"""

from __future__ import annotations

import base64
import gzip
import re
import shutil
import struct
import zlib
from pathlib import Path

import pytest

from game.errors import UserError
from game.maps.grid import EMPTY, ONE_WAY, SLOPE, SOLID, TileGrid
from game.maps.level import Level, Rect, load_level
from game.maps.model import FLIP_H, FLIP_V, GID_MASK

DATA = Path(__file__).parent / "data"
TILES_PNG = DATA / "tiles4.png"

TILES = (
    '<tile id="0"><properties><property name="collision" value="solid"/></properties></tile>\n'
    '<tile id="1"><properties><property name="collision" value="one_way"/></properties></tile>\n'
    '<tile id="2"><properties><property name="collision" value="slope"/>'
    '<property name="slope_left" type="int" value="0"/>'
    '<property name="slope_right" type="int" value="16"/></properties></tile>\n'
)
GID_OF = {".": 0, "#": 1, "=": 2, "/": 3, "\\": 3 | FLIP_H, "d": 4}

ROWS = [
    "..........",
    "..........",
    "..........",
    ".d.....=..",
    "#...../\\.#",
    "##########",
]
SPAWN_POINT = '<object id="1" name="spawn" x="40" y="64"><point/></object>'


def spawn_at(x: float, y: float) -> str:
    return f'<object id="1" name="spawn" x="{x}" y="{y}"><point/></object>'


def gids(rows: list[str]) -> list[list[int]]:
    return [[GID_OF[ch] for ch in row] for row in rows]


def data_xml(grid: list[list[int]], encoding: str = "csv", compression: str | None = None) -> str:
    if encoding == "csv":
        body = ",\n".join(",".join(str(g) for g in row) for row in grid)
        return f'<data encoding="csv">\n{body}\n</data>'
    flat = [g for row in grid for g in row]
    raw = struct.pack(f"<{len(flat)}I", *flat)
    if compression == "zlib":
        raw = zlib.compress(raw)
    elif compression == "gzip":
        raw = gzip.compress(raw)
    elif compression == "zstd":
        raw = b"\x28\xb5\x2f\xfd" + raw  # never decoded: the loader must refuse it first
    attr = f' compression="{compression}"' if compression else ""
    return f'<data encoding="base64"{attr}>{base64.b64encode(raw).decode()}</data>'


def layer_xml(rows: list[str], layer_id: int = 1, name: str = "ground", encoding: str = "csv",
              compression: str | None = None, visible: bool = True, props: str = "") -> str:
    vis = "" if visible else ' visible="0"'
    return (f'<layer id="{layer_id}" name="{name}" width="{len(rows[0])}" height="{len(rows)}"'
            f'{vis}>{props}\n{data_xml(gids(rows), encoding, compression)}\n</layer>')


def tileset_body(tw: int = 16, th: int = 16, tiles: str = TILES, image: str = "tiles4.png",
                 name: str = "t") -> str:
    columns, count = 64 // tw, (64 // tw) * (16 // th)
    return (f'<tileset{{source}} name="{name}" tilewidth="{tw}" tileheight="{th}" '
            f'tilecount="{count}" columns="{columns}">\n'
            f' <image source="{image}" width="64" height="16"/>\n{tiles}</tileset>')


def embedded_tileset(**kw) -> str:
    return tileset_body(**kw).replace("<tileset{source}", '<tileset firstgid="1"')


def write_tsx(folder: Path, name: str = "t.tsx", **kw) -> str:
    body = tileset_body(**kw).replace("{source}", "")
    (folder / name).write_text('<?xml version="1.0" encoding="UTF-8"?>\n' + body, "utf-8")
    return f'<tileset firstgid="1" source="{name}"/>'


def write_map(folder: Path, *, rows: list[str] = ROWS, layers: str | None = None,
              tileset: str | None = None, objects: str = SPAWN_POINT, tw: int = 16,
              th: int = 16, map_attrs: str = 'orientation="orthogonal" infinite="0"',
              map_props: str = "", name: str = "test.tmx", copy_png: bool = True) -> Path:
    """A .tmx file in ``folder`` (with tiles4.png beside it); returns its path."""
    if copy_png and not (folder / "tiles4.png").exists():
        shutil.copy(TILES_PNG, folder / "tiles4.png")
    tileset = embedded_tileset(tw=tw, th=th) if tileset is None else tileset
    layers = layer_xml(rows) if layers is None else layers
    text = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<map version="1.10" tiledversion="1.10.2" {map_attrs} renderorder="right-down" '
        f'width="{len(rows[0])}" height="{len(rows)}" tilewidth="{tw}" tileheight="{th}" '
        'nextlayerid="9" nextobjectid="9">\n'
        f'{map_props}\n{tileset}\n{layers}\n'
        f'<objectgroup id="8" name="objects">\n{objects}\n</objectgroup>\n'
        '</map>\n'
    )
    path = folder / name
    path.write_text(text, "utf-8")
    return path


def expected_grid(rows: list[str], tw: int = 16, th: int = 16) -> TileGrid:
    return TileGrid.from_rows([r.replace("d", ".") for r in rows], tw, th)


def assert_same_grid(got: TileGrid, want: TileGrid) -> None:
    assert (got.cols, got.rows, got.tile_w, got.tile_h) == (want.cols, want.rows, want.tile_w,
                                                            want.tile_h)
    assert got.kinds == want.kinds
    assert dict(got.slopes) == dict(want.slopes)


# ----------------------------------------------------------------------------------------------
# Tile layers and tilesets
# ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("encoding,compression", [
    ("csv", None), ("base64", None), ("base64", "zlib"), ("base64", "gzip")])
def test_every_layer_format_gives_the_same_grid(tmp_path, encoding, compression):
    path = write_map(tmp_path, layers=layer_xml(ROWS, encoding=encoding, compression=compression))
    level = load_level(path)
    assert_same_grid(level.grid, expected_grid(ROWS))
    # spot checks, in case from_rows itself changed
    g = level.grid
    assert g.kind(0, 5) == SOLID and g.kind(7, 3) == ONE_WAY and g.kind(6, 4) == SLOPE
    assert g.kind(1, 3) == EMPTY  # decoration
    assert g.kind(5, 0) == EMPTY


def test_external_tsx_tileset_loads_like_an_embedded_one(tmp_path):
    shutil.copy(TILES_PNG, tmp_path / "tiles4.png")
    external = load_level(write_map(tmp_path, tileset=write_tsx(tmp_path), name="ext.tmx"))
    embedded = load_level(write_map(tmp_path, name="emb.tmx"))
    assert_same_grid(external.grid, expected_grid(ROWS))
    assert_same_grid(embedded.grid, expected_grid(ROWS))


def test_tsx_in_another_folder_and_its_image_relative_to_the_tsx(tmp_path):
    (tmp_path / "maps").mkdir()
    (tmp_path / "art").mkdir()
    shutil.copy(TILES_PNG, tmp_path / "art" / "tiles4.png")
    write_tsx(tmp_path / "art")
    path = write_map(tmp_path / "maps", tileset='<tileset firstgid="1" source="../art/t.tsx"/>',
                     copy_png=False)
    assert_same_grid(load_level(path).grid, expected_grid(ROWS))


def test_horizontally_flipped_slope_is_mirrored(tmp_path):
    level = load_level(write_map(tmp_path))
    g = level.grid
    assert g.slope_heights(6, 4) == (0.0, 16.0)  # as drawn in the tileset: rising right
    assert g.slope_heights(7, 4) == (16.0, 0.0)  # flipped: rising left
    # the floor surface follows: high at the right of the plain tile, high at the left of the other
    assert g.surface_y(6, 4, 6 * 16 + 16) == pytest.approx(64.0)
    assert g.surface_y(7, 4, 7 * 16) == pytest.approx(64.0)
    assert g.surface_y(7, 4, 8 * 16) == pytest.approx(80.0)


def test_only_the_flipped_slope_in_a_map_is_still_a_mirrored_slope(tmp_path):
    rows = ["....", "....", "...\\", "####"]
    level = load_level(write_map(tmp_path, rows=rows,
                                 objects=spawn_at(8, 48)))
    assert level.grid.kind(3, 2) == SLOPE
    assert level.grid.slope_heights(3, 2) == (16.0, 0.0)


def test_every_tile_layer_counts_even_invisible_ones(tmp_path):
    empty = ["." * 10] * 6
    second = [list(r) for r in empty]
    second[2][5] = "#"  # solid only in the second layer
    hidden = [list(r) for r in empty]
    hidden[1][8] = "#"  # solid only in an invisible layer
    floor = empty[:5] + ["##########"]
    layers = "\n".join([
        layer_xml(floor, 1, "floor"),
        layer_xml(["".join(r) for r in second], 2, "second"),
        layer_xml(["".join(r) for r in hidden], 3, "hidden", visible=False),
    ])
    level = load_level(write_map(tmp_path, layers=layers,
                                 objects=spawn_at(24, 80)))
    g = level.grid
    assert g.kind(5, 2) == SOLID
    assert g.kind(8, 1) == SOLID
    assert all(g.kind(c, 5) == SOLID for c in range(10))
    assert sum(k != EMPTY for k in g.kinds) == 12
    # the view still sees which layer is hidden
    assert [(la.name, la.visible) for la in level.view.layers] == [
        ("floor", True), ("second", True), ("hidden", False)]


def test_strongest_kind_wins_where_layers_overlap(tmp_path):
    a = ["....", "=/..", "####"]
    b = ["....", "#=..", "...."]  # solid over one-way; one-way does not weaken the slope
    layers = layer_xml(a, 1, "a") + "\n" + layer_xml(b, 2, "b")
    level = load_level(write_map(tmp_path, rows=a, layers=layers,
                                 objects=spawn_at(56, 32)))
    assert level.grid.kind(0, 1) == SOLID
    assert level.grid.kind(1, 1) == SLOPE
    assert level.grid.slope_heights(1, 1) == (0.0, 16.0)


def test_decoration_tiles_are_empty(tmp_path):
    rows = ["dddd", "dddd", "####"]
    level = load_level(write_map(tmp_path, rows=rows,
                                 objects=spawn_at(32, 32)))
    assert all(level.grid.kind(c, r) == EMPTY for r in range(2) for c in range(4))
    # ... but they are still drawn
    assert any(g for la in level.view.layers for row in la.gids[:2] for g in row)


def test_non_square_tiles_load(tmp_path):
    rows = ["........", "........", "........", "#######="]
    path = write_map(tmp_path, rows=rows, tw=16, th=8,
                     objects=spawn_at(20, 24))
    level = load_level(path, player_size=(8, 6))
    assert level.tile_size == (16, 8)
    assert (level.grid.width_px, level.grid.height_px) == (128, 32)
    assert_same_grid(level.grid, expected_grid(rows, 16, 8))
    assert level.spawn == Rect(16, 18, 8, 6)


# ----------------------------------------------------------------------------------------------
# Objects: spawn and goals
# ----------------------------------------------------------------------------------------------

def test_rectangle_spawn_is_the_hitbox_exactly(tmp_path):
    obj = '<object id="1" name="spawn" x="33.5" y="44" width="10" height="20"/>'
    level = load_level(write_map(tmp_path, objects=obj), player_size=(12, 14))
    assert level.spawn == Rect(33.5, 44, 10, 20)
    assert level.spawn_is_point is False


def test_point_spawn_is_the_bottom_centre_of_a_player_sized_box(tmp_path):
    level = load_level(write_map(tmp_path), player_size=(10, 20))
    assert level.spawn == Rect(35, 44, 10, 20)
    assert level.spawn_is_point is True
    other = load_level(write_map(tmp_path), player_size=(12, 14))
    assert other.spawn == Rect(34, 50, 12, 14)


@pytest.mark.parametrize("attrs", ['name="spawn"', 'type="player"', 'class="player"',
                                   'name="hero" type="Player"'])
def test_spawn_is_found_by_name_type_or_class(tmp_path, attrs):
    obj = f'<object id="3" {attrs} x="40" y="64"><point/></object>'
    level = load_level(write_map(tmp_path, objects=obj))
    assert level.spawn == Rect(34, 50, 12, 14)


@pytest.mark.parametrize("attr", ["type", "class"])
def test_goals_by_type_or_class(tmp_path, attr):
    objs = (SPAWN_POINT
            + f'\n<object id="2" {attr}="goal" x="128" y="48" width="16" height="16"/>'
            + f'\n<object id="3" name="exit" {attr}="goal" x="0" y="0" width="8" height="32"/>'
            + '\n<object id="4" name="sign" type="text" x="80" y="16" width="16" height="16"/>')
    level = load_level(write_map(tmp_path, objects=objs))
    assert set(level.goals) == {Rect(128, 48, 16, 16), Rect(0, 0, 8, 32)}


@pytest.mark.parametrize("alignment,at", [("topleft", Rect(128, 48, 16, 16)),
                                          ("center", Rect(120, 40, 16, 16)),
                                          ("bottomright", Rect(112, 32, 16, 16)),
                                          ("bottomleft", Rect(128, 32, 16, 16)),
                                          ("unspecified", Rect(128, 32, 16, 16))])
def test_a_tile_object_stands_where_its_tilesets_object_alignment_says(tmp_path, alignment, at):
    """Tiled 1.4+: the tileset (here an external .tsx) says which point of its tile objects
    their position gives; the goal placed as a tile at (128, 48) covers what Tiled shows."""
    tsx = write_tsx(tmp_path)
    (tmp_path / "t.tsx").write_text((tmp_path / "t.tsx").read_text("utf-8").replace(
        'name="t"', f'name="t" objectalignment="{alignment}"'), "utf-8")
    goal = '<object id="2" type="goal" gid="1" x="128" y="48" width="16" height="16"/>'
    level = load_level(write_map(tmp_path, tileset=tsx, objects=SPAWN_POINT + goal))
    assert level.goals == (at,)
    assert not any("alignment" in n for n in level.notes)


def test_a_turned_tile_object_turns_about_its_aligned_position(tmp_path):
    """Centred and turned 90 degrees clockwise about its centre (136, 40): the picture covers
    the same square, [128, 144] x [32, 48]. The game anchors a tile object at the corner that
    was its bottom-left, and a clockwise quarter turn takes that corner to the top-left:
    (128, 32). (Unturned it would be (128, 48).)"""
    tileset = embedded_tileset().replace('name="t"', 'name="t" objectalignment="center"')
    tree = '<object id="2" name="tree" gid="4" x="136" y="40" width="16" height="16" ' \
           'rotation="90"/>'
    level = load_level(write_map(tmp_path, tileset=tileset, objects=SPAWN_POINT + tree))
    (obj,) = [o for layer in level.view.art.layers for o in getattr(layer, "objects", ())]
    assert (obj.x, obj.y) == pytest.approx((128, 32))
    assert obj.rotation == 90


def test_a_tile_object_whose_gid_is_not_a_number_on_an_aligned_tileset_is_one_error(tmp_path):
    tileset = embedded_tileset().replace('name="t"', 'name="t" objectalignment="topleft"')
    obj = '<object id="2" name="x" gid="\u00b2" x="8" y="8" width="16" height="16"/>'
    with pytest.raises(UserError):
        load_level(write_map(tmp_path, tileset=tileset, objects=SPAWN_POINT + obj))


def test_an_unknown_object_alignment_is_a_note_and_tileds_default(tmp_path):
    tileset = embedded_tileset().replace('name="t"', 'name="t" objectalignment="middle"')
    goal = '<object id="2" type="goal" gid="1" x="128" y="48" width="16" height="16"/>'
    level = load_level(write_map(tmp_path, tileset=tileset, objects=SPAWN_POINT + goal))
    assert level.goals == (Rect(128, 32, 16, 16),)
    (note,) = [n for n in level.notes if "alignment" in n]
    assert "'middle'" in note and "Tileset Properties" in note and str(tmp_path) in note


def test_a_start_sprite_whose_box_overlaps_a_wall_puts_the_feet_at_its_bottom_centre(tmp_path):
    """A 48x64 start tile object (a sprite with padding) reaching into a wall: its box cannot
    be the hitbox, so the player stands at its bottom centre, with a note saying so."""
    rows = ["..........", "#.........", "#.........", "#.........", "#.........", "##########"]
    obj = '<object id="1" name="hero start" x="0" y="16" width="48" height="64"/>'
    level = load_level(write_map(tmp_path, rows=rows, objects=obj), player_size=(12, 14))
    assert level.spawn == Rect(18, 66, 12, 14) and level.spawn_is_point
    (note,) = [n for n in level.notes if "hero start" in n]
    assert "48x64 px box overlaps collision" in note and "bottom centre" in note


def test_map_properties_and_next_level_are_read(tmp_path):
    (tmp_path / "b.tmx").write_text("<map/>", "utf-8")  # next_level must name a file that exists
    props = ('<properties><property name="title" value="Hello"/>'
             '<property name="next_level" value="b.tmx"/>'
             '<property name="gravity" type="float" value="900"/></properties>')
    level = load_level(write_map(tmp_path, map_props=props))
    assert level.title == "Hello"
    assert level.next_level == "b.tmx"
    assert level.properties["gravity"] == 900.0


# ----------------------------------------------------------------------------------------------
# Mistakes: each is a UserError naming the file and saying what to change
# ----------------------------------------------------------------------------------------------

def load_error(path: Path, *words: str, where: Path | None = None) -> UserError:
    """load_level(path) must fail naming ``where`` (default: the map) and saying ``words``."""
    with pytest.raises(UserError) as info:
        load_level(path)
    err = info.value
    where = path if where is None else where
    assert Path(err.where).name == where.name
    assert where.name in str(err)
    text = str(err).lower()
    for word in words:
        assert word.lower() in text, f"{word!r} not in {str(err)!r}"
    assert "\n" not in str(err)
    return err


def test_missing_file(tmp_path):
    load_error(tmp_path / "nowhere.tmx", "not found")


def test_not_xml(tmp_path):
    path = tmp_path / "junk.tmx"
    path.write_text("this is not XML at all {", "utf-8")
    load_error(path, "xml")


def test_json_map_is_not_xml(tmp_path):
    path = tmp_path / "level.tmx"
    path.write_text('{"type": "map", "width": 10}', "utf-8")
    load_error(path, ".tmx")


def test_xml_that_is_not_a_map(tmp_path):
    path = tmp_path / "other.tmx"
    path.write_text('<?xml version="1.0"?><tileset name="x"/>', "utf-8")
    load_error(path, "<tileset>", "map")


def test_a_map_marked_infinite_without_chunks_loads_as_its_size_says(tmp_path):
    """Infinite maps are read (tests/test_formats.py); one marked infinite whose layers are not
    in chunks is read as the finite map it holds, with a note."""
    path = write_map(tmp_path, map_attrs='orientation="orthogonal" infinite="1"')
    level = load_level(path)
    assert level.grid.kinds == load_level(write_map(tmp_path, name="plain.tmx")).grid.kinds
    assert any("marked infinite" in n for n in level.notes)


def test_zstd_layer(tmp_path):
    path = write_map(tmp_path, layers=layer_xml(ROWS, encoding="base64", compression="zstd"))
    load_error(path, "zstd", "csv")


def test_missing_tsx(tmp_path):
    path = write_map(tmp_path, tileset='<tileset firstgid="1" source="gone.tsx"/>')
    load_error(path, "gone.tsx", "not found")


def test_missing_tileset_image_embedded(tmp_path):
    path = write_map(tmp_path, tileset=embedded_tileset(image="missing.png"))
    load_error(path, "missing.png", "not found")


def test_missing_tileset_image_in_tsx(tmp_path):
    ts = write_tsx(tmp_path, image="missing.png")
    path = write_map(tmp_path, tileset=ts)
    load_error(path, "missing.png", where=tmp_path / "t.tsx")


def test_tsx_that_is_not_a_tileset(tmp_path):
    (tmp_path / "t.tsx").write_text("<map/>", "utf-8")
    path = write_map(tmp_path, tileset='<tileset firstgid="1" source="t.tsx"/>')
    load_error(path, "tileset", where=tmp_path / "t.tsx")


@pytest.mark.parametrize("orientation", ["isometric", "staggered", "hexagonal"])
def test_non_orthogonal_map(tmp_path, orientation):
    path = write_map(tmp_path, map_attrs=f'orientation="{orientation}" infinite="0"')
    load_error(path, orientation, "orthogonal")


def test_no_spawn(tmp_path):
    """A map marked the game's way says where the player starts (no ground is guessed)."""
    path = write_map(tmp_path, objects=SPAWN_POINT.replace('name="spawn"', 'name="flag"'))
    load_error(path, "no spawn")


def test_two_spawns(tmp_path):
    objs = SPAWN_POINT + '\n<object id="2" type="player" x="56" y="64"><point/></object>'
    load_error(write_map(tmp_path, objects=objs), "spawn")


def test_spawn_overlapping_a_solid_tile(tmp_path):
    obj = '<object id="1" name="spawn" x="40" y="88"><point/></object>'  # feet inside the floor
    err = load_error(write_map(tmp_path, objects=obj), "spawn", "overlaps")
    assert "column 2" in str(err) and "row 5" in str(err)


def test_spawn_rectangle_overlapping_a_solid_tile(tmp_path):
    obj = '<object id="1" name="spawn" x="150" y="60" width="8" height="8"/>'
    err = load_error(write_map(tmp_path, objects=obj), "spawn", "overlaps")
    assert "config.toml" not in err.message  # a rectangle is the hitbox: the config plays no part


def test_tileset_tile_size_differs_from_the_map(tmp_path):
    """Tiled draws a smaller tile at its cell's bottom-left; its collision covers what it shows,
    rounded out to the cell (the resolvers know whole cells). The note names the tileset and
    both sizes in a line of its own, and says nothing of collision shapes (there are none)."""
    level = load_level(write_map(tmp_path, tileset=embedded_tileset(tw=8, th=8)))
    assert level.grid.kind(0, 4) == SOLID and level.grid.kind(1, 5) == SOLID
    (note,) = [n for n in level.notes if "8x8" in n]
    assert "tileset 't'" in note and "16x16" in note and "Tileset Properties" in note
    assert not any("shape" in n for n in level.notes)


def test_unknown_collision_value(tmp_path):
    tiles = TILES.replace('value="one_way"', 'value="lava"')
    path = write_map(tmp_path, tileset=embedded_tileset(tiles=tiles))
    err = load_error(path, "lava", "solid", "one_way", "slope")
    assert "tile 1" in str(err)


def test_slope_without_heights(tmp_path):
    tiles = TILES.replace('<property name="slope_right" type="int" value="16"/>', "")
    load_error(write_map(tmp_path, tileset=embedded_tileset(tiles=tiles)), "slope_right")


def test_slope_height_as_a_string_is_not_a_height(tmp_path):
    tiles = TILES.replace('name="slope_left" type="int" value="0"', 'name="slope_left" value="0"')
    load_error(write_map(tmp_path, tileset=embedded_tileset(tiles=tiles)), "slope_left")


@pytest.mark.parametrize("bad", ["17", "-1"])
def test_slope_height_outside_the_tile(tmp_path, bad):
    tiles = TILES.replace('name="slope_left" type="int" value="0"',
                          f'name="slope_left" type="int" value="{bad}"')
    load_error(write_map(tmp_path, tileset=embedded_tileset(tiles=tiles)), "slope_left", "0 to 16")


def test_property_named_like_an_attribute_on_an_object_is_left_out_with_a_note(tmp_path):
    """pytmx cannot read it; the map is still played (real maps have them: Arcade's ladders)."""
    obj = ('<object id="1" name="spawn" x="40" y="64"><properties>'
           '<property name="name" value="hero"/></properties><point/></object>')
    level = load_level(write_map(tmp_path, objects=obj))
    assert any("'name'" in n and "rename" in n for n in level.notes)


def test_property_named_like_an_attribute_on_a_layer_is_left_out_with_a_note(tmp_path):
    props = '<properties><property name="visible" type="bool" value="true"/></properties>'
    layers = layer_xml(ROWS, props=props)
    level = load_level(write_map(tmp_path, layers=layers))
    assert any("'visible'" in n and "ground" in n for n in level.notes)


def test_property_named_like_an_attribute_on_the_map(tmp_path):
    props = '<properties><property name="width" type="int" value="3"/></properties>'
    level = load_level(write_map(tmp_path, map_props=props))
    msg = next(n for n in level.notes if "'width'" in n)
    assert "on the map" in msg and "rename" in msg and "''" not in msg
    assert level.grid.cols != 3  # the map's own width, not the property's


def test_a_folder_given_as_the_level(tmp_path):
    load_error(tmp_path, "is a folder")


def test_property_named_like_an_attribute_in_a_tsx_is_left_out_with_a_note(tmp_path):
    """pytmx reads the tileset from the map's document (never from the .tsx), so a tileset's
    property it cannot read is left out like any other, the note naming the .tsx."""
    ts = write_tsx(tmp_path)
    tsx = tmp_path / "t.tsx"
    tsx.write_text(tsx.read_text().replace(
        '<image', '<properties><property name="columns" value="2"/></properties>\n<image', 1))
    level = load_level(write_map(tmp_path, tileset=ts))
    (note,) = [n for n in level.notes if "'columns'" in n]
    assert note.startswith(str(tsx)) and "rename" in note


# ----------------------------------------------------------------------------------------------
# Mistakes that used to pass the headless check (or raise something else than UserError)
# ----------------------------------------------------------------------------------------------

def set_attr(path: Path, tag: str, attr: str, value: str) -> None:
    """Set ``attr`` on the first <tag ...> start tag of the file at ``path``."""
    text = path.read_text("utf-8")
    start = text.index(f"<{tag} ")
    end = text.index(">", start)
    head = text[start:end]
    if re.search(rf'\s{attr}="', head):
        head = re.sub(rf'(\s){attr}="[^"]*"', rf'\g<1>{attr}="{value}"', head)
    else:
        head += f' {attr}="{value}"'
    path.write_text(text[:start] + head + text[end:], "utf-8")


def png_bytes(width: int, height: int) -> bytes:
    """A valid RGBA PNG of the given size, every pixel opaque black."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    rows = b"".join(b"\x00" + b"\x00\x00\x00\xff" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def layer_of(grid: list[list[int]], name: str = "ground") -> str:
    return (f'<layer id="1" name="{name}" width="{len(grid[0])}" height="{len(grid)}">\n'
            f'{data_xml(grid)}\n</layer>')


# --- 1. numbers: the map's size and tile size, the tileset's counts ----------------------------

@pytest.mark.parametrize("attr,value", [("width", "0"), ("height", "0"), ("tilewidth", "0"),
                                        ("tileheight", "-16"), ("width", "ten"),
                                        ("tilewidth", "16.5")])
def test_map_size_and_tile_size_must_be_whole_numbers_above_0(tmp_path, attr, value):
    path = write_map(tmp_path)
    set_attr(path, "map", attr, value)
    # a tile side has a least size above 1 (game.maps.level.MIN_TILE_PX): the message gives the range
    must = "whole number from 4 to" if attr.startswith("tile") else "whole number above 0"
    err = load_error(path, f"{attr}={value!r}", must, "Map >")
    assert "tileset" not in err.message  # the map is wrong, not its tileset


@pytest.mark.parametrize("attr", ["tilewidth", "tileheight", "columns", "tilecount"])
def test_tsx_number_that_does_not_parse_names_the_tsx(tmp_path, attr):
    ts = write_tsx(tmp_path)
    tsx = tmp_path / "t.tsx"
    set_attr(tsx, "tileset", attr, "x")
    load_error(write_map(tmp_path, tileset=ts), f"{attr}='x'", "whole number", where=tsx)


@pytest.mark.parametrize("attr", ["margin", "spacing", "firstgid"])
def test_embedded_tileset_number_that_does_not_parse_names_the_map(tmp_path, attr):
    path = write_map(tmp_path)
    set_attr(path, "tileset", attr, "x")
    load_error(path, f"{attr}='x'", "whole number")


# --- 2. tileset images: a real PNG, big enough for the tiles --------------------------------

def test_png_smaller_than_the_tileset_says(tmp_path):
    (tmp_path / "tiles4.png").write_bytes(png_bytes(32, 16))  # the tileset says 64x16
    # Tiled cuts what is there (two tiles); the map places all four
    load_error(write_map(tmp_path), "tiles4.png", "32x16 px", "64x16 px", "4 tiles")


def test_png_smaller_than_a_tsx_says_names_the_tsx(tmp_path):
    (tmp_path / "tiles4.png").write_bytes(png_bytes(64, 8))
    ts = write_tsx(tmp_path)
    load_error(write_map(tmp_path, tileset=ts), "tiles4.png", "64x8 px", where=tmp_path / "t.tsx")


@pytest.mark.parametrize("size,now", [((128, 16), "8x1 tiles (not 4x1)"),  # ids move
                                      ((64, 40), "4x2 tiles (not 4x1)")])  # new tiles
def test_png_grown_by_whole_tiles_since_the_tileset_was_saved(tmp_path, size, now):
    """Tiled cuts the real picture, whatever the tileset file says (tmxrasterizer draws tile 2
    of a 4-column picture saved as 2 columns from the first row): so does the game, and says
    so."""
    (tmp_path / "tiles4.png").write_bytes(png_bytes(*size))
    level = load_level(write_map(tmp_path))
    assert_same_grid(level.grid, expected_grid(ROWS))
    (note,) = [n for n in level.notes if "tiles4.png" in n]
    assert f"{size[0]}x{size[1]} px" in note and now in note and "save it again" in note
    rects = {t.rect for t in level.view.tiles.values()}
    assert rects <= {(16 * i, 0, 16, 16) for i in range(4)}  # ids 0-3: the first row's tiles


def test_png_a_little_larger_than_the_tileset_says_is_fine(tmp_path):
    (tmp_path / "tiles4.png").write_bytes(png_bytes(70, 30))  # not a whole tile more
    assert_same_grid(load_level(write_map(tmp_path)).grid, expected_grid(ROWS))


def test_tileset_with_more_tiles_than_its_image_holds(tmp_path):
    """8 tiles in 4 columns need 2 rows; the image has 1. Tiled opens it (the second row is
    empty): so does the game, with a note, until a tile of that missing row is placed."""
    tileset = embedded_tileset().replace('tilecount="4"', 'tilecount="8"')
    level = load_level(write_map(tmp_path, tileset=tileset))
    assert any("holds only its first 4 tiles" in n for n in level.notes)
    placed = layer_of(gids(ROWS)[:-1] + [[6] * 10])  # tile 5: in the row the image lacks
    load_error(write_map(tmp_path, tileset=tileset, layers=placed), "need an image of at least",
               "64x32 px", "tiles4.png is 64x16 px")


@pytest.mark.parametrize("old,new,need", [
    ('columns="4"', 'columns="8"', "128x16 px"),
    ('columns="4"', 'columns="4" margin="1" spacing="1"', "68x17 px"),  # 1 + 4*16 + 3*1
])
def test_tileset_whose_tiles_need_more_than_its_image(tmp_path, old, new, need):
    tileset = embedded_tileset().replace(old, new)
    load_error(write_map(tmp_path, tileset=tileset), "need an image of at least", need,
               "tiles4.png is 64x16 px")


def test_sheet_with_a_margin_is_cut_where_tiled_cuts_it(tmp_path):
    # 2 columns of 16 px between 8 px margins: Tiled cuts tile 2 at (8, 24); pytmx's own
    # arithmetic counts a third column at x = 40, half outside the 48 px image.
    (tmp_path / "m.png").write_bytes(png_bytes(48, 48))
    tileset = ('<tileset firstgid="1" name="m" tilewidth="16" tileheight="16" margin="8" '
               'tilecount="4" columns="2">\n <image source="m.png" width="48" height="48"/>\n'
               f'{TILES}</tileset>')
    level = load_level(write_map(tmp_path, tileset=tileset))
    gid_at = level.view.layers[0].gids
    rect_of = {tile_id: level.view.tiles[gid_at[r][c]].rect
               for tile_id, (c, r) in {0: (0, 5), 1: (7, 3), 2: (6, 4), 3: (1, 3)}.items()}
    assert rect_of == {0: (8, 8, 16, 16), 1: (24, 8, 16, 16), 2: (8, 24, 16, 16),
                       3: (24, 24, 16, 16)}


@pytest.mark.parametrize("content,words", [
    (b"", "is not a png, gif, bmp or jpeg image"),
    (b"hello, not a picture\n" * 4, "is not a png, gif, bmp or jpeg image"),
    (b"\x89PNG\r\n\x1a\n", "is a damaged png"),
    (b"GIF89a" + bytes(40), "is a damaged gif"),  # judged by what it is, whatever its name
], ids=["empty", "text", "signature-only", "gif-named-png"])
def test_png_that_is_not_a_png(tmp_path, content, words):
    (tmp_path / "tiles4.png").write_bytes(content)
    load_error(write_map(tmp_path), "tiles4.png", words)


def damaged(data: bytes) -> bytes:
    middle = len(data) // 2
    return data[:middle] + bytes([data[middle] ^ 0xFF]) + data[middle + 1:]


@pytest.mark.parametrize("spoil", [lambda d: d[: len(d) // 2], lambda d: d[:-12], damaged],
                         ids=["cut-in-half", "no-IEND", "a-flipped-byte"])
def test_png_cut_short_or_damaged(tmp_path, spoil):
    (tmp_path / "tiles4.png").write_bytes(spoil(TILES_PNG.read_bytes()))
    load_error(write_map(tmp_path), "tiles4.png", "damaged png")


def test_collection_tile_image_that_is_not_a_png(tmp_path):
    (tmp_path / "a.png").write_text("not a picture", "utf-8")
    tileset = ('<tileset firstgid="1" name="c" tilewidth="16" tileheight="16" tilecount="1" '
               'columns="0">\n <tile id="0"><image source="a.png" width="16" height="16"/></tile>'
               '\n</tileset>')
    load_error(write_map(tmp_path, tileset=tileset), "a.png", "not a png, gif, bmp or jpeg")


def test_other_image_formats_are_read_by_their_header_too(tmp_path):
    (tmp_path / "tiles4.bmp").write_bytes(b"BM" + bytes(60))
    load_error(write_map(tmp_path, tileset=embedded_tileset(image="tiles4.bmp")), "tiles4.bmp",
               "damaged bmp")


# --- 3. slope class without its properties -------------------------------------------------

NO_SLOPE = TILES.split("\n")[:2]


@pytest.mark.parametrize("attr", ["type", "class"])  # Tiled 1.9 writes class=, 1.8/1.10 type=
def test_slope_class_without_properties_is_an_error(tmp_path, attr):
    tiles = "\n".join(NO_SLOPE + [f'<tile id="2" {attr}="slope"/>', ""])
    err = load_error(write_map(tmp_path, tileset=embedded_tileset(tiles=tiles)),
                     "tile 2 of tileset t", "class 'slope'", "no collision property",
                     "collision = slope", "slope_left", "slope_right",
                     "does not save class members left at their defaults")
    assert "decoration" not in err.message


def test_slope_heights_without_collision_is_an_error(tmp_path):
    tiles = TILES.replace('<property name="collision" value="slope"/>', "")
    load_error(write_map(tmp_path, tileset=embedded_tileset(tiles=tiles)),
               "tile 2 of tileset t", "slope_left and slope_right", "no collision property",
               "collision = slope")


def test_slope_class_with_a_height_left_at_its_default(tmp_path):
    # The project's slope class has slope_left = 0 by default, so Tiled did not save it.
    tiles = TILES.replace('<tile id="2">', '<tile id="2" type="slope">').replace(
        '<property name="slope_left" type="int" value="0"/>', "")
    load_error(write_map(tmp_path, tileset=embedded_tileset(tiles=tiles)),
               "no int property slope_left", "class members")


# --- 4. a mistake in a tile's properties names the .tsx it is in ---------------------------

def test_tile_property_mistake_names_the_tsx(tmp_path):
    (tmp_path / "maps").mkdir()
    (tmp_path / "art").mkdir()
    shutil.copy(TILES_PNG, tmp_path / "art" / "tiles4.png")
    write_tsx(tmp_path / "art", tiles=TILES.replace('value="one_way"', 'value="lava"'))
    path = write_map(tmp_path / "maps", tileset='<tileset firstgid="1" source="../art/t.tsx"/>',
                     copy_png=False)
    err = load_error(path, "lava", "tile 1 of tileset t", where=tmp_path / "art" / "t.tsx")
    assert Path(err.where).resolve() == (tmp_path / "art" / "t.tsx").resolve()


def test_second_tileset_tile_mistake_names_its_tsx_and_local_id(tmp_path):
    body = tileset_body(tiles=TILES.replace('value="solid"', 'value="rock"'), name="u")
    (tmp_path / "u.tsx").write_text(body.replace("{source}", ""), "utf-8")
    tilesets = embedded_tileset() + '\n<tileset firstgid="5" source="u.tsx"/>'
    grid = gids(ROWS)
    grid[0][0] = 5  # tile 0 of the second tileset
    err = load_error(write_map(tmp_path, tileset=tilesets, layers=layer_of(grid)),
                     "tile 0 of tileset u", "rock", where=tmp_path / "u.tsx")
    assert "tile 4" not in err.message


def test_slope_placed_upside_down_still_names_the_map(tmp_path):
    ts = write_tsx(tmp_path)
    grid = gids(ROWS)
    grid[4][6] = 3 | FLIP_V  # how the tile is placed is the map's business
    load_error(write_map(tmp_path, tileset=ts, layers=layer_of(grid)), "flipped vertically")


# --- 5. the spawn must be inside the map ---------------------------------------------------

@pytest.mark.parametrize("obj,side", [
    (spawn_at(4, 64), "left of the map"),  # the 12 px box starts at x = -2
    (spawn_at(158, 64), "right of the map (x > 160)"),
    ('<object id="1" name="spawn" x="150" y="20" width="20" height="10"/>', "right of the map"),
    (spawn_at(40, 100), "below the map's bottom (y > 96)"),
    (spawn_at(40, 0), "entirely above the map's top"),  # the box ends at y = 0
    ('<object id="1" name="spawn" x="40" y="-30" width="8" height="10"/>', "entirely above"),
])
def test_spawn_outside_the_map(tmp_path, obj, side):
    load_error(write_map(tmp_path, objects=obj), "spawn object 'spawn' (id 1)", "outside the map",
               side, "160x96 px", "10x6 tiles")


def test_spawn_partly_above_the_top_is_allowed(tmp_path):
    # Above the map is open sky (grid.py): the player just falls in.
    level = load_level(write_map(tmp_path, objects=spawn_at(40, 6)))
    assert level.spawn == Rect(34, -8, 12, 14)


def test_spawn_outside_because_of_the_player_size_says_where_the_size_comes_from(tmp_path):
    with pytest.raises(UserError) as info:
        load_level(write_map(tmp_path), player_size=(500, 14))
    msg = info.value.message
    assert "outside the map" in msg and "500x14 px" in msg
    assert "config.toml" in msg and "[player] width/height" in msg


# --- 6. a layer gid that no tileset holds --------------------------------------------------

@pytest.mark.parametrize("gid", [999, 5, 999 | FLIP_H])
def test_layer_gid_that_no_tileset_holds(tmp_path, gid):
    grid = gids(ROWS)
    grid[0][3] = gid  # the test tileset holds gids 1 to 4
    load_error(write_map(tmp_path, layers=layer_of(grid)),
               f"tile layer 'ground' uses tile gid {gid & GID_MASK}", "column 3, row 0",
               "which no tileset holds", "remove it or add the tileset")


def test_image_collection_holds_its_tile_ids_only(tmp_path):
    for name in ("a.png", "b.png"):
        (tmp_path / name).write_bytes(png_bytes(16, 16))
    tileset = ('<tileset firstgid="1" name="c" tilewidth="16" tileheight="16" tilecount="2" '
               'columns="0">\n'
               ' <tile id="0"><image source="a.png" width="16" height="16"/></tile>\n'
               ' <tile id="3"><image source="b.png" width="16" height="16"/></tile>\n</tileset>')
    ok = [[1, 0, 0, 4]] + [[0] * 4] * 2
    level = load_level(write_map(tmp_path, rows=["...."] * 3, tileset=tileset,
                                 layers=layer_of(ok, "pictures"), objects=spawn_at(32, 40)))
    assert level.grid.kinds == bytes(12)  # pictures only
    bad = [[1, 2, 0, 4]] + [[0] * 4] * 2  # id 1 was deleted from the collection
    load_error(write_map(tmp_path, rows=["...."] * 3, tileset=tileset, layers=layer_of(bad),
                         objects=spawn_at(32, 40)), "tile gid 2", "no tileset holds")


def test_layer_of_another_size_than_the_map(tmp_path):
    layers = layer_xml(["." * 12] * 7)  # a 12x7 layer in a 10x6 map
    load_error(write_map(tmp_path, layers=layers), "tile layer 'ground'", "10x6", "Resize Map")


# --- 7. next_level must exist --------------------------------------------------------------

def test_next_level_that_does_not_exist(tmp_path):
    props = ('<properties><property name="next_level" type="file" value="02_next.tmx"/>'
             '</properties>')
    load_error(write_map(tmp_path, map_props=props),
               "map property next_level names 02_next.tmx, which does not exist",
               "Map > Map Properties")


def test_next_level_is_found_relative_to_the_map(tmp_path):
    (tmp_path / "maps" / "more").mkdir(parents=True)
    (tmp_path / "maps" / "more" / "b.tmx").write_text("<map/>", "utf-8")
    props = '<properties><property name="next_level" type="file" value="more/b.tmx"/></properties>'
    level = load_level(write_map(tmp_path / "maps", map_props=props))
    assert level.next_level == "more/b.tmx"


# --- 8. a point spawn's overlap names the hitbox and where its size comes from --------------

def test_point_spawn_overlap_names_the_hitbox_size_and_the_config(tmp_path):
    path = write_map(tmp_path, objects=spawn_at(40, 80))  # on the floor, free for 12x14
    assert load_level(path).spawn == Rect(34, 66, 12, 14)
    with pytest.raises(UserError) as info:
        load_level(path, player_size=(60, 14))  # reaches the wall at column 0
    msg = info.value.message
    assert "overlaps a collision tile at column 0, row 4" in msg
    assert "60x14 px" in msg and "config.toml" in msg and "[player] width/height" in msg


# --- 9. the files a level is made of, for the hot reload to watch ---------------------------

def test_level_lists_its_map_tilesets_and_images(tmp_path):
    (tmp_path / "maps").mkdir()
    (tmp_path / "art").mkdir()
    shutil.copy(TILES_PNG, tmp_path / "art" / "tiles4.png")
    write_tsx(tmp_path / "art")
    path = write_map(tmp_path / "maps", tileset='<tileset firstgid="1" source="../art/t.tsx"/>',
                     copy_png=False)
    assert load_level(path).files == (path.resolve(), (tmp_path / "art" / "t.tsx").resolve(),
                                      (tmp_path / "art" / "tiles4.png").resolve())


def test_level_with_an_embedded_tileset_lists_the_map_and_its_image(tmp_path):
    path = write_map(tmp_path)
    assert load_level(path).files == (path.resolve(), (tmp_path / "tiles4.png").resolve())


def test_level_built_by_hand_has_no_files():
    level = Level(path=Path("grid.tmx"), title="grid", grid=TileGrid.from_rows(["#"]),
                  spawn=Rect(0, 0, 1, 1), spawn_is_point=False, goals=(), next_level=None,
                  properties={})
    assert level.files == ()


# --- 10. object ids ---------------------------------------------------------------------------

def test_objects_sharing_an_id_load_with_a_note_and_the_first_keeps_it(tmp_path):
    """Tiled never writes two objects with one id, but it opens such a map (older maps have
    them): so does the game. The later ones get ids of their own, and a note says which."""
    objects = (SPAWN_POINT + '<object id="5" type="goal" x="0" y="0" width="8" height="8"/>'
               '<object id="5" type="goal" x="16" y="0" width="8" height="8"/>')
    level = load_level(write_map(tmp_path, objects=objects))
    assert set(level.goals) == {Rect(0, 0, 8, 8), Rect(16, 0, 8, 8)}
    (note,) = [n for n in level.notes if "share an id" in n]
    assert "id 5" in note and "the later ones numbered 6" in note


def test_objects_sharing_an_id_across_object_layers_load_too(tmp_path):
    objects = (SPAWN_POINT + '</objectgroup><objectgroup id="9" name="more">'
               '<object id="1" type="goal" x="0" y="0" width="8" height="8"/>')
    level = load_level(write_map(tmp_path, objects=objects))
    assert level.goals == (Rect(0, 0, 8, 8),) and level.spawn == Rect(34, 50, 12, 14)
    assert any("share an id" in n and "id 1" in n for n in level.notes)


def test_objects_without_ids_and_tile_shapes_with_their_own_ids_load(tmp_path):
    """Pre-1.0 maps write no object ids; a tile's collision shapes number their own from 1."""
    shape = ('<tile id="3"><objectgroup draworder="index">'
             '<object id="1" x="0" y="0" width="16" height="16"/></objectgroup></tile>')
    objects = ('<object name="spawn" x="40" y="64"><point/></object>'
               '<object type="goal" x="0" y="0" width="8" height="8"/>'
               '<object id="1" type="goal" x="16" y="0" width="8" height="8"/>')
    path = write_map(tmp_path, objects=objects,
                     tileset=embedded_tileset(tiles=TILES + shape))
    assert load_level(path).spawn.x == 34
