"""The loader's share of issue 34's hostile cases, fixed at their root in the one pipeline
(numbers checked where they are read; limits applied before the work they bound; shapes cut to
what their tile shows; templates' tilesets shared): each ends in exit 0 (notes only) or exit 2
with one ``error:`` line, in the 1 GB the command line is held to (tests/test_hostile_maps.py's
``run_level``), with every file of the user's unchanged."""

from __future__ import annotations

import base64
import json
import os
import shutil
import time
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import run_cli

from game.errors import UserError
from game.maps.level import load_level
from test_hostile_maps import (ROOT, SPAWN, csv_layer, refused, run_level, sheet, write_map)

TERRAIN = ROOT / "levels" / "terrain.tsx"

# The maps below the command line plays (exit 0, notes only), each written into a folder by
# its function: tests/test_draw_what_loads.py has the window and --render-map draw every one.
PLAYED: dict[str, Callable[[Path], Path]] = {}


def played(name: str):
    def register(build: Callable[[Path], Path]) -> Callable[[Path], Path]:
        PLAYED[name] = build
        return build
    return register


def ok(path: Path) -> str:
    """The command line plays ``path``: exit 0, only ``note:`` lines on stderr."""
    proc = run_level(path)
    assert proc.returncode == 0, proc.stderr[-1500:]
    assert all(line.startswith("note: ") for line in proc.stderr.splitlines()), proc.stderr
    return proc.stderr


def json_map(folder: Path, layers: list, name: str = "bad.tmj", **extra) -> Path:
    doc = {"type": "map", "width": 10, "height": 6, "tilewidth": 16, "tileheight": 16,
           "orientation": "orthogonal", "infinite": False, "tilesets": [],
           "layers": layers, **extra}
    path = folder / name
    path.write_text(json.dumps(doc), "utf-8")
    return path


# --- 4. a JSON layer type that is not a word -------------------------------------------------

@pytest.mark.parametrize("kind", [["tilelayer"], {"a": 1}, 7])
def test_a_json_layer_type_that_is_a_list_or_an_object(tmp_path, kind):
    refused(json_map(tmp_path, [{"type": kind, "name": "g"}]), "unknown type")


# --- 5. class-typed properties nested deep -------------------------------------------------------

def nested(depth: int) -> dict:
    value: dict = {"leaf": 1}
    for _ in range(depth):
        value = {"inner": value}
    return value


@played("class properties nested 600 deep in a JSON template")
def deep_template(folder: Path) -> Path:
    (folder / "deep.tj").write_text(json.dumps({"type": "template", "object": {
        "name": "spawn", "point": True, "width": 0, "height": 0,
        "properties": [{"name": "p", "type": "class", "propertytype": "c",
                        "value": nested(600)}]}}), "utf-8")
    return write_map(folder, objects='<object id="1" template="deep.tj" x="40" y="80"/>')


def test_class_properties_nested_600_deep_in_a_json_template(tmp_path):
    """The game reads no class-typed property: its members are never walked."""
    ok(deep_template(tmp_path))


def test_class_properties_nested_600_deep_in_a_json_map(tmp_path):
    props = [{"name": "p", "type": "class", "propertytype": "c", "value": nested(600)}]
    path = json_map(tmp_path, [], properties=props)
    proc = run_level(path)
    assert proc.returncode in (0, 2) and "Traceback" not in proc.stderr
    assert proc.returncode == 0 or len(proc.stderr.splitlines()) == 1


# --- 6. an infinite map's numbers ---------------------------------------------------------------

def infinite(folder: Path, chunk: str = 'x="0" y="0" width="16" height="16"',
             data: str | None = None, encoding: str = "csv", extra: str = "",
             objects: str = SPAWN, map_attrs: str = "") -> Path:
    shutil.copy(ROOT / "tests" / "data" / "tiles4.png", folder / "tiles4.png")
    data = data if data is not None else ",".join(["1"] * 256)
    path = folder / "inf.tmx"
    path.write_text(
        f'<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.10" orientation="orthogonal" '
        f'renderorder="right-down" width="10" height="6" tilewidth="16" tileheight="16" '
        f'infinite="1"{map_attrs}>{sheet()}<layer id="1" name="g" width="10" height="6">'
        f'<data encoding="{encoding}"{extra}><chunk {chunk}>{data}</chunk></data></layer>'
        f'<objectgroup id="2" name="o">{objects}</objectgroup></map>', "utf-8")
    return path


@pytest.mark.parametrize("chunk,words", [
    ('x="0.5" y="0" width="16" height="16"', "x='0.5'"),
    ('x="1e9" y="0" width="16" height="16"', "x='1e9'"),
    ('x="abc" y="0" width="16" height="16"', "x='abc'"),
    ('x="0" y="0" width="16" height="0.5"', "height='0.5'"),
    ('x="0" y="0" width="-16" height="16"', "width='-16'"),
])
def test_an_infinite_maps_chunk_numbers_are_checked_where_read(tmp_path, chunk, words):
    refused(infinite(tmp_path, chunk), words, "chunk of tile layer 'g'")


@pytest.mark.parametrize("compression", ["zlib", "gzip", "zstd"])
def test_a_negative_chunk_width_with_packed_data(tmp_path, compression):
    import gzip

    import zstandard
    raw = bytes(4 * 256)
    packed = {"zlib": zlib.compress, "gzip": gzip.compress,
              "zstd": zstandard.ZstdCompressor().compress}[compression](raw)
    path = infinite(tmp_path, 'x="0" y="0" width="-16" height="16"',
                    base64.b64encode(packed).decode(), "base64",
                    f' compression="{compression}"')
    refused(path, "width='-16'", "whole number above 0")


@pytest.mark.parametrize("where,words", [
    ("object", "x='abc'"), ("imagelayer", "offsetx='abc'"), ("origin", "parallaxoriginx='abc'")])
def test_an_infinite_maps_other_numbers(tmp_path, where, words):
    objects, attrs = SPAWN, ""
    if where == "object":
        objects = '<object id="1" name="spawn" x="abc" y="80"><point/></object>'
    elif where == "imagelayer":
        objects = SPAWN + '</objectgroup><imagelayer id="3" name="sky" offsetx="abc">' \
                          '<image source="tiles4.png"/></imagelayer><objectgroup id="4" name="x">'
    else:
        attrs = ' parallaxoriginx="abc"'
    refused(infinite(tmp_path, objects=objects, map_attrs=attrs), words, "must be a number")


# --- 7. a template's numbers ----------------------------------------------------------------

@pytest.mark.parametrize("gid,firstgid,words", [("abc", "1", "gid='abc'"),
                                                ("1", "x", "firstgid='x'")])
def test_a_templates_gid_or_firstgid_that_is_not_a_number(tmp_path, gid, firstgid, words):
    (tmp_path / "t.tx").write_text(
        f'<?xml version="1.0"?><template><tileset firstgid="{firstgid}" '
        f'source="{TERRAIN}"/><object name="spawn" gid="{gid}" width="16" height="16"/>'
        '</template>', "utf-8")
    refused(write_map(tmp_path, objects='<object id="1" template="t.tx" x="40" y="80"/>'),
            words, where=tmp_path / "t.tx")


# --- 8. symlink loops ---------------------------------------------------------------------------

def test_a_template_that_is_a_symlink_loop(tmp_path):
    (tmp_path / "a.tx").symlink_to(tmp_path / "b.tx")
    (tmp_path / "b.tx").symlink_to(tmp_path / "a.tx")
    refused(write_map(tmp_path, objects='<object id="1" template="a.tx" x="40" y="80"/>'),
            "not found", where=tmp_path / "a.tx")


@played("an image layer's missing picture that is a symlink loop")
def image_layer_loop(folder: Path) -> Path:
    (folder / "a.png").symlink_to(folder / "b.png")
    (folder / "b.png").symlink_to(folder / "a.png")
    return write_map(folder,
                     inside='<imagelayer id="5" name="sky"><image source="a.png"/></imagelayer>')


def test_an_image_layers_missing_picture_that_is_a_symlink_loop(tmp_path):
    assert "drawn empty" in ok(image_layer_loop(tmp_path))


def test_a_template_that_is_a_symlink_to_a_device_is_named_as_the_map_names_it(tmp_path):
    (tmp_path / "t.tx").symlink_to("/dev/zero")
    line = refused(write_map(tmp_path, objects='<object id="1" template="t.tx" x="40" y="80"/>'),
                   "not a regular file", where=tmp_path / "t.tx")
    assert "/dev/zero:" not in line


# --- 9. a tile's collision shape far outside its tile ---------------------------------------

FAR_SHAPES = [
    '<object id="1" x="0" y="0"><polygon points="0,0 16,0 100000,16"/></object>',
    '<object id="1" x="0" y="0"><polygon points="0,0 16,0 1e12,1e12"/></object>',
    '<object id="1" x="0" y="0"><polygon points="0,0 16,0 1e308,16"/></object>',
    '<object id="1" x="0" y="8"><polyline points="-1e9,0 1e9,0"/></object>',
]


def far_shape(folder: Path, shape: str) -> Path:
    tiles = f'<tile id="0"><objectgroup>{shape}</objectgroup></tile>'
    spawn = '<object id="1" name="player" x="40" y="80"><point/></object>'
    return write_map(folder, cols=400, rows=300, tilesets=sheet(tiles=tiles),
                     layers=csv_layer(400, 300), objects=spawn)


for _i, _shape in enumerate(FAR_SHAPES):
    PLAYED[f"a tile shape reaching far out, {_i}"] = (
        lambda folder, shape=_shape: far_shape(folder, shape))


@pytest.mark.parametrize("shape", FAR_SHAPES)
def test_a_tile_shape_reaching_far_out_is_cut_to_its_tile(tmp_path, shape):
    start = time.monotonic()
    ok(far_shape(tmp_path, shape))
    assert time.monotonic() - start < 20


# --- 10. a JSON map's elements, counted before they are built ---------------------------------

@pytest.mark.slow
def test_sixty_megabytes_of_json_objects_in_an_unused_key(tmp_path):
    path = json_map(tmp_path, [])
    text = path.read_text("utf-8")[:-1] + ', "junk": [' + "{}," * 20_000_000 + "{}]}"
    path.write_text(text, "utf-8")
    refused(path, "more than 100,000")


# --- 11. templates of the map's own JSON tileset -------------------------------------------------

@played("1,500 templates of the map's own JSON tileset")
def templates_of_the_maps_tileset(folder: Path) -> Path:
    shutil.copy(ROOT / "tests" / "data" / "formats" / "terrain.tsj", folder / "terrain.tsj")
    tsj = json.loads((folder / "terrain.tsj").read_text())
    tsj["image"] = str(ROOT / "assets" / "terrain.png")
    (folder / "terrain.tsj").write_text(json.dumps(tsj))
    (folder / "coin.tx").write_text(
        '<?xml version="1.0"?><template><tileset firstgid="1" source="terrain.tsj"/>'
        '<object type="deco" gid="3" width="16" height="16"/></template>', "utf-8")
    objects = SPAWN + "".join(f'<object id="{i}" template="coin.tx" x="{(i % 9) * 16}" '
                              f'y="{16 + (i // 9) % 3 * 16}"/>' for i in range(2, 1502))
    return write_map(folder, tilesets='<tileset firstgid="1" source="terrain.tsj"/>',
                     objects=objects)


@pytest.mark.slow
def test_fifteen_hundred_templates_share_the_maps_tileset(tmp_path):
    path = templates_of_the_maps_tileset(tmp_path)
    start = time.monotonic()
    level = load_level(path)
    assert time.monotonic() - start < 20
    assert not any("tilesets" in n for n in level.notes)
    ok(path)


# --- 12. parallax ------------------------------------------------------------------------------

@pytest.mark.parametrize("attr,value", [("parallaxx", "nan"), ("parallaxy", "inf"),
                                        ("parallaxx", "1e308")])
def test_a_parallax_factor_that_is_not_a_number_in_reach(tmp_path, attr, value):
    refused(write_map(tmp_path, layers=csv_layer(attrs=f' {attr}="{value}"')),
            f"{attr}='{value}'", "must be a number")


def test_a_parallax_origin_of_1e300(tmp_path):
    path = write_map(tmp_path)
    path.write_text(path.read_text().replace('infinite="0"',
                                             'infinite="0" parallaxoriginy="1e300"'))
    refused(path, "parallaxoriginy='1e300'")


@pytest.mark.parametrize("value", [float("nan"), 1e308])
def test_a_json_parallax_factor(tmp_path, value):
    layer = {"type": "tilelayer", "name": "g", "width": 10, "height": 6, "data": [0] * 60,
             "parallaxx": value}
    refused(json_map(tmp_path, [layer]), "parallaxx=")


# --- 13. animation frames ------------------------------------------------------------------------

def animated(folder: Path, frame: int, count: int | None = None) -> Path:
    """Tile 0 shows itself, then tile ``frame`` (``count``: the tileset's tile count)."""
    tiles = ('<tile id="0"><properties><property name="collision" value="solid"/></properties>'
             f'<animation><frame tileid="0" duration="100"/><frame tileid="{frame}" '
             'duration="100"/></animation></tile>')
    return write_map(folder, tilesets=sheet(tiles=tiles, count=count),
                     objects=SPAWN + '<object id="9" type="goal" x="140" y="64" width="16" '
                     'height="16"/>')


PLAYED["an animation frame of a tile the tileset lacks"] = lambda folder: animated(folder, 99)
PLAYED["an animation frame past the end of its sheet"] = lambda folder: animated(folder, 6, 8)


def test_an_animation_frame_showing_a_tile_the_tileset_lacks_is_left_out(tmp_path):
    assert "frames are left out" in ok(animated(tmp_path, 99))


def test_an_animation_frame_past_the_end_of_its_sheet_is_left_out(tmp_path):
    """The tileset says 8 tiles, its picture holds 4: tile 6 has no picture (before, the frame
    was kept and the window broke cutting it: 'subsurface rectangle outside surface area')."""
    stderr = ok(animated(tmp_path, 6, 8))
    assert "frames are left out" in stderr and "no picture" in stderr
    level = load_level(tmp_path / "bad.tmx")
    assert level.view.art.frames == {}  # one frame left: no animation


def test_an_animation_frame_of_a_negative_tile(tmp_path):
    tiles = ('<tile id="0"><animation><frame tileid="-1" duration="100"/></animation></tile>'
             + '<tile id="1"><properties><property name="collision" value="solid"/></properties>'
             '</tile>')
    refused(write_map(tmp_path, tilesets=sheet(tiles=tiles)), "tileid='-1'")


# --- 18. another engine's start outside the map's sides --------------------------------------

@played("another engine's start past the map's side")
def start_past_the_side(folder: Path) -> Path:
    objects = '<object id="1" name="Player Start" x="-30" y="80"><point/></object>'
    layers = csv_layer().replace('name="ground"', 'name="Ground"')
    return write_map(folder, tilesets=sheet(tiles=""), layers=layers, objects=objects)


def test_another_engines_start_past_the_maps_side_is_moved_in_with_a_note(tmp_path):
    stderr = ok(start_past_the_side(tmp_path))
    assert "moved" in stderr and "into the map" in stderr


# --- smaller ------------------------------------------------------------------------------------

def test_a_nul_in_a_json_string_is_no_traceback(tmp_path):
    layer = {"type": "objectgroup", "name": "o\u0000bj",
             "objects": [{"id": 1, "name": "spawn\u0000", "point": True, "x": 40, "y": 80}]}
    proc = run_level(json_map(tmp_path, [layer]))
    assert "Traceback" not in proc.stderr and proc.returncode in (0, 2)
    assert proc.returncode == 0 or len(proc.stderr.splitlines()) == 1


def test_a_self_intersecting_tile_polygon_is_said(tmp_path):
    bow = ('<tile id="0"><objectgroup><object id="1" x="0" y="0">'
           '<polygon points="0,0 16,16 16,0 0,16"/></object></objectgroup></tile>')
    layers = csv_layer().replace('name="ground"', 'name="tiles"')
    level = load_level(write_map(tmp_path, tilesets=sheet(tiles=bow), layers=layers,
                                 objects=SPAWN))
    note = next(n for n in level.notes if "crosses itself" in n)
    assert "tile 0 of tileset t" in note
    assert level.grid.kind(0, 5) != 0  # it collides (as its outline's hull), not nothing


def test_a_user_error_never_touches_the_users_files(tmp_path):
    path = write_map(tmp_path, layers=csv_layer(attrs=' parallaxx="nan"'))
    before = {p: p.read_bytes() for p in tmp_path.iterdir()}
    with pytest.raises(UserError):
        load_level(path)
    assert {p: p.read_bytes() for p in tmp_path.iterdir()} == before


# --- found again from scratch (hostile2): variants the cases above did not have ---------------

def one_error(*args) -> str:
    """The command line, in this process, stops with exit 2 and one ``error:`` line."""
    proc = run_cli(*args)
    lines = proc.stderr.decode().splitlines()
    assert proc.returncode == 2, proc.stderr.decode()[-1500:]
    assert len(lines) == 1 and lines[0].startswith("error: "), lines
    return lines[0]


def test_a_nul_in_a_json_template_path_is_a_file_not_found(tmp_path):
    """A JSON string may hold ``\\u0000``; no path can. Before: ValueError (embedded null
    byte) from the path's resolving, a traceback."""
    layer = {"type": "objectgroup", "name": "o",
             "objects": [{"id": 1, "template": "t\u0000.tj", "x": 40, "y": 80}]}
    line = one_error("--headless", "--ticks", "1", "--level", json_map(tmp_path, [layer]))
    assert "t\\x00.tj: file not found" in line  # the NUL written as its escape


def test_a_nul_in_the_configs_level_is_a_file_not_found(tmp_path):
    config = tmp_path / "c.toml"
    config.write_text('level = "a\\u0000b.tmx"\n', "utf-8")
    line = one_error("--config", config, "--headless", "--ticks", "1")
    assert "a\\x00b.tmx: file not found" in line


@pytest.mark.parametrize("point", ["nan,16", "inf,0", "abc,3", "1e400,0", "1,2,3"])
def test_a_tile_polygon_point_that_is_not_two_numbers_is_refused(tmp_path, point):
    """Before, the whole shape was left out with no word (the tile did not collide)."""
    shape = (f'<tile id="0"><objectgroup><object id="1" x="0" y="0">'
             f'<polygon points="0,0 {point} 16,0"/></object></objectgroup></tile>')
    line = one_error("--headless", "--ticks", "1", "--level",
                     write_map(tmp_path, tilesets=sheet(tiles=shape)))
    assert f"tile 0 of tileset t has a point {point!r} that is not two numbers" in line


@pytest.mark.slow
@pytest.mark.parametrize("item,words", [('"ab",', "6,000,000 JSON values"),
                                        ('"{i:x}":0,', "2,000,000 JSON keys")])
def test_json_values_and_keys_are_counted_before_they_are_built(tmp_path, item, words):
    """30 MB of two-letter strings built 12 million objects, about 1 GB (a MemoryError, a
    traceback, under the 1 GiB the hostile maps are held to); millions of keys likewise.
    Counted by their commas and colons before json.loads sees the text."""
    path = json_map(tmp_path, [])
    count = 6_000_001 if "ab" in item else 2_000_001
    junk = "".join(item.format(i=i) for i in range(count)) if "{" in item else item * count
    junk = "[" + junk + "0]" if "ab" in item else "{" + junk + '"end":0}'
    path.write_text(path.read_text("utf-8")[:-1] + f', "junk": {junk}}}', "utf-8")
    assert words in one_error("--headless", "--ticks", "1", "--level", path)


@pytest.mark.parametrize("target,words", [("/dev/zero", "is not a regular file"),
                                          (".", "is a folder")])
def test_a_tileset_that_is_a_device_or_a_folder_is_said_so(tmp_path, target, words):
    (tmp_path / "z.tsx").symlink_to(target if target != "." else tmp_path)
    line = one_error("--headless", "--ticks", "1", "--level",
                     write_map(tmp_path, tilesets='<tileset firstgid="1" source="z.tsx"/>'))
    assert f"tileset z.tsx {words}" in line and "not found" not in line


@pytest.mark.parametrize("point", ["nan,5", "5,inf"])
def test_an_object_point_that_is_not_a_number_is_said_so(tmp_path, point):
    """Before, 'nan,5' was 'out of the map's reach'."""
    objects = SPAWN + (f'<object id="2" name="deco" x="100" y="60">'
                       f'<polygon points="0,0 {point} 5,5"/></object>')
    line = one_error("--headless", "--ticks", "1", "--level", write_map(tmp_path, objects=objects))
    assert f"has a point {point!r} that is not two numbers" in line


@pytest.mark.parametrize("title", ["v\u0000", "v\ud800", "a\udfff\ud800b"])
def test_a_title_no_window_can_show_is_shown_with_question_marks_and_a_note(tmp_path, title):
    """The window's caption refuses a NUL or half a surrogate pair: the headless run took the
    map, the window closed with a traceback (before). The loader shows those as '?', noted."""
    props = [{"name": "title", "type": "string", "value": title}]
    level = load_level(json_map(tmp_path, [], properties=props), play=False)
    assert level.title == "".join(c if c.isprintable() else "?" for c in title)
    assert any("title property holds characters no window can show" in n for n in level.notes)


def test_a_map_file_name_that_is_not_utf8_gives_a_showable_title(tmp_path):
    path = write_map(tmp_path)
    odd = Path(os.fsdecode(os.fsencode(str(tmp_path)) + b"/\xff_level.tmx"))
    path.rename(odd)
    level = load_level(odd)
    assert level.title == "? level" and level.title.isprintable()


@played("a map whose file name is not UTF-8 (its title)")
def unshowable_title(folder: Path) -> Path:
    """No title property: the title is the file's name, half a surrogate pair in Python's
    string for it, which the window's caption refused (before: a traceback)."""
    return write_map(folder, name=os.fsdecode(b"\xff_level.tmx"))


@played("a title of a million characters")
def million_character_title(folder: Path) -> Path:
    """The window drew it whole in its bar and caption: out of memory, 1.9 GB (before)."""
    title = "W" * 1_000_000
    return write_map(folder, inside=f'<properties><property name="title" value="{title}"/>'
                     "</properties>")


def test_a_title_of_a_million_characters_is_shown_cut_with_a_note(tmp_path):
    level = load_level(million_character_title(tmp_path))
    assert level.title == "W" * 80
    assert any("title is 1,000,000 characters long" in n for n in level.notes)


def test_a_title_is_one_line(tmp_path):
    """A title with line breaks (a recording's header names it on one line)."""
    path = write_map(tmp_path, inside='<properties><property name="title">one\n\ntwo\tthree'
                     '</property></properties>')
    assert load_level(path).title == "one two three"
