"""Every format Tiled writes loads as its TMX twin does (tests/data/formats, made by
tools/make_format_maps.py): JSON maps and tilesets, templates, infinite maps, zstd layers.
And each one's mistakes end in one ``error:`` line, never a traceback."""

from __future__ import annotations

import base64
import contextlib
import io
import json
import zlib
from pathlib import Path

import pytest
import zstandard

from game import resolvers
from game.cli import main
from game.errors import UserError
from game.maps.level import load_level, read_map
from game.maps.limits import MAX_MAP_CELLS

ROOT = Path(__file__).resolve().parent.parent
FORMATS = Path(__file__).parent / "data" / "formats"
LEVEL_1 = ROOT / "levels" / "01_first_steps.tmx"
RESOLVERS = list(resolvers.REGISTRY)

# A script that runs, jumps, drops and turns: long enough to meet walls, slopes and pits.
SCRIPT = """0 right
30 right+jump
45 right
120 left
150 left+jump
200 right+jump
260 right
400 -
420 right+jump
500 down+jump
520 right
"""


def trace(level: Path, resolver: str, tmp_path: Path, ticks: int = 700) -> bytes:
    script = tmp_path / "script.txt"
    script.write_text(SCRIPT)
    out = tmp_path / f"{level.stem}-{level.suffix[1:]}-{resolver}.jsonl"
    with contextlib.redirect_stdout(io.StringIO()):
        rc = main(["--headless", "--ticks", str(ticks), "--level", str(level), "--resolver",
                   resolver, "--input", str(script), "--trace", str(out)])
    assert rc == 0
    return out.read_bytes()


def run(argv: list[str], capsys) -> tuple[int, list[str]]:
    rc = main(argv)
    return rc, capsys.readouterr().err.strip().splitlines()


def same_level(a, b) -> None:
    assert a.grid.kinds == b.grid.kinds and a.grid.slopes == b.grid.slopes
    assert (a.spawn, a.goals, a.title, a.walkers) == (b.spawn, b.goals, b.title, b.walkers)
    assert [(L.name, L.gids, L.visible, L.opacity, L.offset) for L in a.view.layers] == \
        [(L.name, L.gids, L.visible, L.opacity, L.offset) for L in b.view.layers]
    assert {g: (t.rect, t.flip_h, t.flip_v, t.flip_d, Path(t.source).resolve())
            for g, t in a.view.tiles.items()} == {g: (t.rect, t.flip_h, t.flip_v, t.flip_d,
                                                 Path(t.source).resolve())
                                             for g, t in b.view.tiles.items()}


# --- XML tile layers (Tiled's oldest layer format) -------------------------------------------

def as_xml_tiles(text: str) -> str:
    """The map's CSV layers (and CSV chunks) rewritten as one ``<tile gid>`` per cell, an empty
    cell ``<tile/>``, as Tiled's "XML (deprecated)" layer format saves them."""
    import re

    def tiles(csv: str) -> str:
        return "".join(f'<tile gid="{g}"/>' if int(g) else "<tile/>"
                       for g in csv.replace("\n", "").split(",") if g.strip())

    def chunk(m: re.Match) -> str:
        return f"<chunk{m.group(1)}>{tiles(m.group(2))}</chunk>"

    def data(m: re.Match) -> str:
        body = m.group(1)
        if "<chunk" in body:
            return "<data>" + re.sub(r"<chunk([^>]*)>([^<]*)</chunk>", chunk, body) + "</data>"
        return "<data>" + tiles(body) + "</data>"
    return re.sub(r'<data encoding="csv">(.*?)</data>', data, text, flags=re.S)


def test_a_map_with_xml_tile_layers_is_the_same_level_and_plays_alike(tmp_path):
    text = LEVEL_1.read_text("utf-8").replace('source="terrain.tsx"',
                                              f'source="{ROOT / "levels" / "terrain.tsx"}"')
    text = text.replace('<property name="next_level"', '<property name="was_next"')
    twin = tmp_path / "xml_layers.tmx"
    twin.write_text(as_xml_tiles(text), "utf-8")
    assert "<tile gid=" in twin.read_text("utf-8") and 'encoding="csv"' not in \
        twin.read_text("utf-8")
    same_level(load_level(LEVEL_1), load_level(twin))
    csv_twin = tmp_path / "csv_layers.tmx"
    csv_twin.write_text(text, "utf-8")
    assert trace(twin, "axis", tmp_path) == trace(csv_twin, "axis", tmp_path)


def test_an_infinite_map_with_xml_chunks_is_the_same_level(tmp_path):
    text = (FORMATS / "infinite.tmx").read_text("utf-8")
    twin = tmp_path / "infinite_xml.tmx"
    twin.write_text(as_xml_tiles(text).replace('source="', f'source="{FORMATS}/').replace(
        '<property name="next_level"', '<property name="was_next"'), "utf-8")
    assert "<chunk" in twin.read_text("utf-8") and "<tile gid=" in twin.read_text("utf-8")
    a, b = load_level(FORMATS / "infinite.tmx"), load_level(twin)
    assert a.grid.kinds == b.grid.kinds
    assert [L.gids for L in a.view.layers] == [L.gids for L in b.view.layers]


@pytest.mark.parametrize("bad", ["x1", "\u00b2", "\u0661", "9" * 5000])
def test_an_xml_tile_that_is_not_a_tile_number_is_one_error_line(tmp_path, capsys, bad):
    """Letters, a superscript two, an Arabic-Indic one, a number of 5,000 digits."""
    text = as_xml_tiles(LEVEL_1.read_text("utf-8")).replace('<tile gid="', f'<tile gid="{bad}',
                                                             1)
    path = tmp_path / "bad.tmx"
    path.write_text(text.replace('source="terrain.tsx"',
                                 f'source="{ROOT / "levels" / "terrain.tsx"}"'), "utf-8")
    rc, err = run(["--headless", "--ticks", "1", "--level", str(path)], capsys)
    assert rc == 2 and len(err) == 1 and err[0].startswith(f"error: {path}: ")
    assert "is not a tile number" in err[0] and "re-save" in err[0]


def test_an_image_layer_placed_by_x_and_y_keeps_its_place_on_an_infinite_map(tmp_path):
    """The infinite map's grid moves every layer's offset; an old image layer's x and y become
    its offset first, so they move with it (the same as the layer written with offsets)."""
    text = (FORMATS / "infinite.tmx").read_text("utf-8").replace(
        'source="', f'source="{FORMATS}/').replace('<property name="next_level"',
                                                   '<property name="was_next"')
    layer = '<image source="{}/art_sky.png" width="48" height="24"/></imagelayer>'.format(FORMATS)
    by_xy, by_offset = tmp_path / "xy.tmx", tmp_path / "offset.tmx"
    by_xy.write_text(text.replace("</map>", f'<imagelayer id="99" name="sky" x="40" y="8">'
                                  f'{layer}</map>'), "utf-8")
    by_offset.write_text(text.replace("</map>", '<imagelayer id="99" name="sky" offsetx="40" '
                                      f'offsety="8">{layer}</map>'), "utf-8")
    from game.maps.art import ImageLayerArt

    def offsets(path):
        return [a.look.offset for a in load_level(path, play=False).view.art.layers
                if isinstance(a, ImageLayerArt)]
    assert offsets(by_xy) == offsets(by_offset) and offsets(by_xy)[0] != (40.0, 8.0)


# --- JSON ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("resolver", RESOLVERS)
@pytest.mark.parametrize("name", ["01_first_steps", "05_features"])
def test_a_json_map_plays_byte_for_byte_like_its_tmx_twin(name, resolver, tmp_path):
    tmx = trace(ROOT / "levels" / f"{name}.tmx", resolver, tmp_path)
    tmj = trace(FORMATS / f"{name}.tmj", resolver, tmp_path)
    assert tmj == tmx


@pytest.mark.parametrize("name", ["01_first_steps", "05_features"])
def test_a_json_map_is_the_same_level(name):
    same_level(load_level(ROOT / "levels" / f"{name}.tmx"), load_level(FORMATS / f"{name}.tmj"))


@pytest.mark.parametrize("name", ["tsj_tileset.tmx", "tsj_tileset.tmj"])
def test_a_json_tileset_is_read_and_watched(name):
    level = load_level(FORMATS / name)
    same_level(load_level(LEVEL_1), level)
    assert (FORMATS / "terrain.tsj").resolve() in level.files  # hot reload follows it
    assert (ROOT / "assets" / "terrain.png").resolve() in level.files


def test_a_json_map_with_no_suffix_hint_is_known_by_its_content(tmp_path):
    doc = json.loads((FORMATS / "01_first_steps.tmj").read_text())
    doc["tilesets"][0]["source"] = str(ROOT / "levels" / "terrain.tsx")
    doc["properties"] = [p for p in doc["properties"] if p["name"] != "next_level"]
    copy = tmp_path / "level.txt"
    copy.write_text(json.dumps(doc))
    assert load_level(copy).grid.kinds == load_level(LEVEL_1).grid.kinds


def test_pre_1_2_json_properties_are_read(tmp_path):
    doc = json.loads((FORMATS / "01_first_steps.tmj").read_text())
    doc["properties"] = {"title": "Old Style"}
    doc["propertytypes"] = {"title": "string"}
    doc["tilesets"][0]["source"] = str(ROOT / "levels" / "terrain.tsx")
    (tmp_path / "old.tmj").write_text(json.dumps(doc))
    assert load_level(tmp_path / "old.tmj").title == "Old Style"


# --- templates -----------------------------------------------------------------------------------

def test_templates_give_what_tiled_gives_when_it_detaches_them():
    """templates_detached.tmx is Tiled's own --detach-templates export of templates.tmx."""
    ours, tiled = load_level(FORMATS / "templates.tmx"), load_level(
        FORMATS / "templates_detached.tmx")
    same_level(tiled, ours)

    def objects(path):
        return [(o.id, o.name, o.kind, o.shape, o.x, o.y, o.w, o.h, o.rotation, o.gid, o.points,
                 dict(o.properties)) for o in read_map(path)[1].objects]
    assert objects(FORMATS / "templates.tmx") == objects(FORMATS / "templates_detached.tmx")
    assert len(ours.walkers) == 1 and ours.walkers[0].speed == 25.0  # the instance's override
    assert ours.walkers[0].facing == -1  # the template's direction
    assert ours.goals[0].h == 32  # the instance's size, not the template's 48
    for name in ("spawn.tx", "goal.tj", "walker.tx"):
        assert (FORMATS / name).resolve() in ours.files


def test_a_missing_template_is_one_error_line(tmp_path, capsys):
    text = (FORMATS / "templates.tmx").read_text().replace("spawn.tx", "nowhere.tx")
    (tmp_path / "t.tmx").write_text(text.replace("../../../levels", str(ROOT / "levels")))
    for name in ("goal.tj", "walker.tx"):
        (tmp_path / name).write_text((FORMATS / name).read_text().replace(
            "../../../levels", str(ROOT / "levels")))
    rc, err = run(["--headless", "--ticks", "1", "--level", str(tmp_path / "t.tmx")], capsys)
    assert rc == 2 and len(err) == 1 and err[0].startswith("error:")
    assert "nowhere.tx" in err[0] and "not found" in err[0]


# --- infinite maps -------------------------------------------------------------------------------

def test_an_infinite_map_is_placed_on_one_grid_with_everything_where_it_was():
    flat, inf = load_level(LEVEL_1), load_level(FORMATS / "infinite.tmx")
    # the chunks start at level 1's top-left, so the grid starts there too; it is whole chunks
    # (16 tiles) wide and high, so it is level 1 with empty cells to the right and below
    cols, rows = flat.grid.cols, flat.grid.rows
    assert inf.grid.cols == -(-cols // 16) * 16 and inf.grid.rows == -(-rows // 16) * 16
    for r in range(rows):
        assert inf.grid.kinds[r * inf.grid.cols:r * inf.grid.cols + cols] == \
            flat.grid.kinds[r * cols:(r + 1) * cols]
    assert (inf.spawn, inf.goals) == (flat.spawn, flat.goals)
    assert any("infinite" in n and "(512, 256) px" in n for n in inf.notes), inf.notes


def test_an_infinite_map_whose_chunks_lie_far_apart_is_refused(tmp_path, capsys):
    far = int(MAX_MAP_CELLS ** 0.5) + 64
    chunk = ",".join(["1"] * 256)
    (tmp_path / "far.tmx").write_text(f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="16" height="16"
 tilewidth="16" tileheight="16" infinite="1" nextlayerid="2" nextobjectid="1">
 <tileset firstgid="1" source="{ROOT / 'levels' / 'terrain.tsx'}"/>
 <layer id="1" name="g" width="16" height="16"><data encoding="csv">
  <chunk x="0" y="0" width="16" height="16">{chunk}</chunk>
  <chunk x="{far}" y="{far}" width="16" height="16">{chunk}</chunk>
 </data></layer>
</map>""")
    rc, err = run(["--headless", "--ticks", "1", "--level", str(tmp_path / "far.tmx")], capsys)
    assert rc == 2 and len(err) == 1 and "infinite map's chunks span" in err[0]


# --- zstd ----------------------------------------------------------------------------------------

def test_a_zstd_map_is_the_same_level():
    same_level(load_level(LEVEL_1), load_level(FORMATS / "zstd.tmx"))


def zstd_layer_map(tmp_path: Path, payload: bytes, cols: int = 4, rows: int = 4) -> Path:
    text = base64.b64encode(payload).decode()
    path = tmp_path / "z.tmx"
    path.write_text(f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="{cols}"
 height="{rows}" tilewidth="16" tileheight="16" infinite="0" nextlayerid="2" nextobjectid="1">
 <tileset firstgid="1" source="{ROOT / 'levels' / 'terrain.tsx'}"/>
 <layer id="1" name="g" width="{cols}" height="{rows}">
  <data encoding="base64" compression="zstd">{text}</data></layer>
</map>""")
    return path


def test_a_zstd_bomb_is_unpacked_no_further_than_the_map_needs(tmp_path, capsys):
    bomb = zstandard.ZstdCompressor().compress(bytes(64_000_000))  # 64 MB of zeros, ~2 kB
    rc, err = run(["--headless", "--ticks", "1", "--level", str(zstd_layer_map(tmp_path, bomb))],
                  capsys)
    assert rc == 2 and len(err) == 1 and "holds" in err[0] and "16" in err[0]


def test_damaged_zstd_data_is_one_error_line(tmp_path, capsys):
    rc, err = run(["--headless", "--ticks", "1", "--level",
                   str(zstd_layer_map(tmp_path, b"not zstd at all"))], capsys)
    assert rc == 2 and len(err) == 1 and "damaged zstd data" in err[0]


def test_zlib_chunks_are_bounded_too(tmp_path):
    from game.maps import decode
    bomb = base64.b64encode(zlib.compress(bytes(10_000_000))).decode()
    with pytest.raises(UserError, match="holds"):
        decode.cells(tmp_path / "m.tmx", "tile layer 'g'", "base64", "zlib", bomb, (16, 16))


# --- malformed JSON ------------------------------------------------------------------------------

@pytest.mark.parametrize("text, words", [
    ("{", "JSON is broken"),
    ("[1, 2]", "not an object"),
    ('{"type": "tileset"}', '"type" is'),
    ('{"type": "map", "width": 4}', 'no "height"'),
    ('{"width": 4, "height": 4, "tilewidth": 16, "tileheight": 16, "layers": 7}',
     '"layers" is not a list'),
    ('{"width": 4, "height": 4, "tilewidth": 16, "tileheight": 16, "layers": '
     '[{"type": "tilelayer", "name": "g", "width": 4, "height": 4, "data": "x"}]}',
     "not a list of tile numbers"),
    ('{"width": 4, "height": 4, "tilewidth": 16, "tileheight": 16, "layers": '
     '[{"type": "objectgroup", "objects": [{"id": 1, "polygon": 3}]}]}',
     "not a list of points"),
    ("[" * 100_000 + "]" * 100_000, "JSON"),
    ('{"width": 4, "height": 4, "tilewidth": 16, "tileheight": 16, "properties": '
     '[{"name": "a", "type": "vector", "value": 1}]}', "unknown type"),
])
def test_a_malformed_json_map_is_one_error_line(tmp_path, capsys, text, words):
    path = tmp_path / "bad.tmj"
    path.write_text(text)
    rc, err = run(["--headless", "--ticks", "1", "--level", str(path)], capsys)
    assert rc == 2 and len(err) == 1, err
    assert err[0].startswith(f"error: {path}") and words in err[0], err[0]


def test_a_missing_json_tileset_names_the_file(tmp_path, capsys):
    doc = json.loads((FORMATS / "tsj_tileset.tmj").read_text())
    (tmp_path / "m.tmj").write_text(json.dumps(doc))
    rc, err = run(["--headless", "--ticks", "1", "--level", str(tmp_path / "m.tmj")], capsys)
    assert rc == 2 and len(err) == 1 and "terrain.tsj" in err[0]


@pytest.mark.tiled
@pytest.mark.parametrize("name", sorted(p.name for p in FORMATS.glob("*.tm[xj]")))
def test_tiled_reads_every_map_here(name, tmp_path):
    """Tiled itself opens each of these maps (its rasterizer draws them)."""
    from test_tiled import run_tool, tiled_tool
    out = tmp_path / "map.png"
    proc = run_tool([tiled_tool("tmxrasterizer"), str(FORMATS / name), str(out)], tmp_path)
    assert proc.returncode == 0 and out.stat().st_size > 0, proc.stderr


def test_the_title_screen_lists_json_maps_with_their_titles(tmp_path):
    from game.view.title import list_levels
    for name in ("01_first_steps.tmj", "templates.tmx", "goal.tj", "terrain.tsj"):
        (tmp_path / name).write_bytes((FORMATS / name).read_bytes())
    (tmp_path / "lab.json").write_text("{}")  # a .json in a folder may be anything: not listed
    entries = list_levels(tmp_path)
    assert [e.path.name for e in entries] == ["01_first_steps.tmj", "templates.tmx"]
    assert [e.title for e in entries] == ["First Steps", "First Steps"]


def test_the_next_level_may_be_a_json_map(tmp_path):
    from game.view.levels import level_sequence
    for name in ("a.tmx", "b.tmj", "c.json", "d.tmx"):
        (tmp_path / name).write_text("x")
    assert [p.name for p in level_sequence(tmp_path / "a.tmx")] == ["a.tmx", "b.tmj", "d.tmx"]
