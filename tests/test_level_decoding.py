"""The loader decodes tile layers itself, once (game/maps/decode.py), and numbers the pictures
they place itself (game/maps/art.py); pytmx reads only each layer's palette. These tests hold
that to what pytmx makes of the whole file read the plain way: the same numbers in every cell,
the same kinds and slopes, the same pictures and flips, on maps with every layer format, several
tilesets, flips, groups and offsets.
"""

from __future__ import annotations

import base64
import gzip
import random
import shutil
import struct
import zlib
from pathlib import Path

import pytest

from game.errors import UserError
from game.maps.collision import COLLISION_KINDS
from game.maps.grid import EMPTY, KIND_STRENGTH, SLOPE, TileGrid
from game.maps.level import load_level
from game.maps.model import FLIP_D, FLIP_H, FLIP_V, import_pytmx

TILES_PNG = Path(__file__).parent / "data" / "tiles4.png"  # four 16x16 tiles, 64x16 px
COLS, ROWS = 160, 80  # a CSV layer of flipped gids runs past one 64 KB piece of text


def props(collision: str = "", left: int | None = None, right: int | None = None) -> str:
    out = f'<property name="collision" value="{collision}"/>' if collision else ""
    for name, value in (("slope_left", left), ("slope_right", right)):
        if value is not None:
            out += f'<property name="{name}" type="int" value="{value}"/>'
    return f"<properties>{out}</properties>"


def tileset(kinds: list[str], firstgid: int | None, name: str) -> str:
    """A tileset of tiles4.png with the given tiles: "solid", "one_way", "slope L R" or ""."""
    tiles = ""
    for tile_id, kind in enumerate(kinds):
        if kind.startswith("slope"):
            _, left, right = kind.split()
            tiles += f'<tile id="{tile_id}">{props("slope", int(left), int(right))}</tile>\n'
        elif kind:
            tiles += f'<tile id="{tile_id}">{props(kind)}</tile>\n'
    first = f' firstgid="{firstgid}"' if firstgid is not None else ""
    return (f'<tileset{first} name="{name}" tilewidth="16" tileheight="16" tilecount="4" '
            f'columns="4">\n <image source="tiles4.png" width="64" height="16"/>\n{tiles}'
            "</tileset>")


# Three tilesets: two in the map, one in a .tsx between them.
SETS = [(1, ["solid", "one_way", "slope 0 16", ""]),
        (5, ["slope 16 8", "solid", "", "one_way"]),
        (9, ["", "", "solid", ""])]
SLOPED = {3, 5}  # slope tiles may only be flipped horizontally


def random_cells(rng: random.Random, flips: bool, fill: float) -> list[int]:
    cells = []
    for r in range(ROWS):
        for c in range(COLS):
            if (c < 12 and r < 12) or rng.random() > fill:  # the spawn's corner stays free
                cells.append(0)
                continue
            gid = rng.randint(1, 12)
            if flips:
                gid |= FLIP_H if rng.random() < 0.5 else 0
                if gid & 0xFFFF not in SLOPED:
                    gid |= rng.choice([0, FLIP_V, FLIP_D, FLIP_V | FLIP_D])
            cells.append(gid)
    return cells


def data_xml(cells: list[int], encoding: str, compression: str | None = None) -> str:
    if encoding == "csv":
        rows = (",".join(map(str, cells[i:i + COLS])) for i in range(0, len(cells), COLS))
        return '<data encoding="csv">\n' + ",\n".join(rows) + "\n</data>"
    raw = struct.pack(f"<{len(cells)}I", *cells)
    raw = {"zlib": zlib.compress, "gzip": gzip.compress, None: bytes}[compression](raw)
    attr = f' compression="{compression}"' if compression else ""
    return f'<data encoding="base64"{attr}>{base64.b64encode(raw).decode()}</data>'


def layer(layer_id: int, name: str, cells: list[int], encoding: str, compression=None,
          attrs: str = "") -> str:
    return (f'<layer id="{layer_id}" name="{name}" width="{COLS}" height="{ROWS}"{attrs}>\n'
            f"{data_xml(cells, encoding, compression)}\n</layer>")


def write_map(folder: Path, seed: int) -> Path:
    rng = random.Random(seed)
    shutil.copy(TILES_PNG, folder / "tiles4.png")
    (folder / "second.tsx").write_text('<?xml version="1.0" encoding="UTF-8"?>\n'
                                       + tileset(SETS[1][1], None, "second"), "utf-8")
    layers = (
        '<group id="10" name="outer" offsetx="5" offsety="-3" opacity="0.8">\n'
        + layer(1, "csv flips", random_cells(rng, True, 0.5), "csv") + "\n"
        + '<group id="11" name="inner" offsetx="-2" visible="0">\n'
        + layer(2, "base64 plain", random_cells(rng, False, 0.3), "base64")
        + "\n</group>\n</group>\n"
        + layer(3, "zlib flips", random_cells(rng, True, 0.2), "base64", "zlib",
                ' offsetx="7" offsety="4"') + "\n"
        + layer(4, "empty", [0] * (COLS * ROWS), "csv") + "\n"
        + '<objectgroup id="12" name="things">\n'
        '<object id="1" name="spawn" type="player" x="20" y="20" width="12" height="14"/>\n'
        f'<object id="2" gid="{11 | FLIP_V}" x="40" y="80" width="16" height="16"/>\n'
        "</objectgroup>\n"
        + layer(5, "gzip flips, in front", random_cells(rng, True, 0.1), "base64", "gzip",
                ' opacity="0.5"'))
    path = folder / "map.tmx"
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" '
        f'renderorder="right-down" width="{COLS}" height="{ROWS}" tilewidth="16" '
        'tileheight="16" infinite="0" nextlayerid="13" nextobjectid="3">\n'
        + tileset(SETS[0][1], 1, "first") + "\n"
        '<tileset firstgid="5" source="second.tsx"/>\n'
        + tileset(SETS[2][1], 9, "third") + "\n" + layers + "\n</map>\n", "utf-8")
    return path


def reference(path: Path) -> tuple[list, TileGrid, dict]:
    """Layers, grid and pictures worked out from pytmx's own parse of the whole file, cell by
    cell, the plain way."""
    tmx = import_pytmx().TiledMap(str(path))
    layers = [tuple(tuple(row) for row in lay.data) for lay in tmx.layers
              if isinstance(lay, import_pytmx().TiledTileLayer)]
    flags_of = dict(v for v in tmx.imagemap.values() if isinstance(v, tuple))
    kinds = bytearray(COLS * ROWS)
    slopes = {}
    for gids in layers:
        for r, row in enumerate(gids):
            for c, gid in enumerate(row):
                collision = (tmx.get_tile_properties_by_gid(gid) or {}).get("collision")
                kind = COLLISION_KINDS[collision] if collision else EMPTY
                i = r * COLS + c
                if KIND_STRENGTH[kind] > KIND_STRENGTH[kinds[i]]:
                    kinds[i] = kind
                    slopes.pop(i, None)
                    if kind == SLOPE:
                        p = tmx.get_tile_properties_by_gid(gid)
                        heights = (float(p["slope_left"]), float(p["slope_right"]))
                        if flags_of[gid].flipped_horizontally:
                            heights = heights[::-1]
                        slopes[i] = heights
    pictures = {}
    for gid, loaded in enumerate(tmx.images):
        if loaded:
            flags = flags_of.get(gid)
            pictures[gid] = (loaded[0], tuple(loaded[1]), (
                bool(flags and flags.flipped_horizontally),
                bool(flags and flags.flipped_vertically),
                bool(flags and flags.flipped_diagonally)))
    return layers, TileGrid(COLS, ROWS, 16, 16, bytes(kinds), slopes), pictures


@pytest.mark.parametrize("seed", [1, 2])
def test_layers_grid_and_pictures_match_pytmx_reading_the_whole_file(tmp_path, seed):
    path = write_map(tmp_path, seed)
    level = load_level(path)
    layers, grid, pictures = reference(path)

    assert [lay.gids for lay in level.view.layers] == layers
    assert level.grid.kinds == grid.kinds
    assert dict(level.grid.slopes) == dict(grid.slopes)
    assert SLOPE in grid.kinds and len(set(grid.kinds)) == 4  # every kind is in the test
    placed = {g for layer in layers for row in layer for g in row} - {0}
    assert placed <= set(level.view.tiles)  # every picture a cell shows, and (a tile object's)
    assert {gid: (t.source, t.rect, (t.flip_h, t.flip_v, t.flip_d))
            for gid, t in level.view.tiles.items()} == {g: pictures[g] for g in level.view.tiles}
    assert any(flips == (True, True, True) for _, _, flips in pictures.values())
    # Group attributes folded in, and layers after the object layer drawn in front.
    front = {lay.name: (lay.visible, lay.opacity, lay.offset, lay.in_front)
             for lay in level.view.layers}
    assert front == {"csv flips": (True, 0.8, (5.0, -3.0), False),
                     "base64 plain": (False, 0.8, (3.0, -3.0), False),
                     "zlib flips": (True, 1.0, (7.0, 4.0), False),
                     "empty": (True, 1.0, (0.0, 0.0), False),
                     "gzip flips, in front": (True, 0.5, (0.0, 0.0), True)}


def test_a_tile_object_loads(tmp_path):
    """A tile placed as an object (Insert Tile) is counted among the map's tiles, not a crash."""
    path = write_map(tmp_path, 4)
    text = path.read_text("utf-8")
    assert 'gid="' in text.split("<objectgroup")[1]
    assert load_level(path).spawn.w == 12


@pytest.mark.parametrize("bad, where", [
    ("-5", "column 3, row 1"),  # not a 32-bit number: pytmx takes it, no tileset holds it
    (str(2**33 + 1), "column 3, row 1"),
    ("77", "column 3, row 1"),
])
def test_a_gid_no_tileset_holds_is_reported_where_it_first_appears(tmp_path, bad, where):
    path = write_map(tmp_path, 5)
    text = path.read_text("utf-8")
    head, data = text.split('<data encoding="csv">\n', 1)
    rows = data.split(",\n", 2)
    cells = rows[1].split(",")
    cells[3] = bad  # row 1, column 3 of the first layer, before any other odd gid
    later = rows[2].split(",")
    later[50] = "99"
    text = head + '<data encoding="csv">\n' + ",\n".join(
        [rows[0], ",".join(cells), ",".join(later)])
    path.write_text(text, "utf-8")
    with pytest.raises(UserError) as err:
        load_level(path)
    assert f"uses tile gid {bad} ({'at ' + where})" in err.value.message
    assert "csv flips" in err.value.message
