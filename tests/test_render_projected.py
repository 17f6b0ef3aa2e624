"""Isometric, staggered and hexagonal maps: drawn by ``--render-map`` as Tiled draws them,
never played (issue 19).

* The projection itself (``game.view.projection``): where a cell's picture is anchored, the
  order cells are drawn in and the map's size, for each orientation, worked out by hand from
  the rules of Tiled's renderers.
* Feature maps written here, one per orientation and stagger (flips, layer offsets, opacity,
  tints, a group, a hidden layer, a tileset drawing offset, tiles bigger than a cell, tile
  objects stretched, flipped and turned, an image layer), drawn and compared with Tiled's own
  ``tmxrasterizer`` (the corpus maps are compared in tests/test_render_tiled.py).
* Playing such a map is one ``error:`` line and exit code 2.
"""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pygame
import pytest

from game.cli import main
from game.errors import UserError
from game.maps.document import normalise
from game.maps.files import Reader
from game.maps.level import load_level
from game.maps.orientation import Orientation, read_orientation
from game.view.projected import turn
from game.view.projection import Projection, picture_bounds

ROOT = Path(__file__).resolve().parent.parent
TILED = ROOT / "tests" / "data" / "real_maps" / "tiled"
SHEET = TILED / "isometric_grass_and_water.png"  # 4 columns of 64x64 tiles
PICTURE = TILED / "hexmini.png"

ISO = Orientation("isometric")
STAGGERED_Y_ODD = Orientation("staggered")
HEX_X_EVEN = Orientation("hexagonal", stagger_x=True, stagger_even=True, hex_side=30)
HEX_Y_ODD = Orientation("hexagonal", hex_side=6)


# --- the projection -----------------------------------------------------------------------------

def test_isometric_cells_are_diamonds_from_the_top_middle():
    """Tiled: a cell's top corner is at ((col - row) * tw/2 + rows * tw/2, (col + row) * th/2);
    its picture's bottom-left is half a cell left of it and a cell below."""
    p = Projection(ISO, 25, 25, 64, 32)
    assert p.anchor(0, 0) == (800 - 32, 32)
    assert p.anchor(3, 1) == ((3 - 1) * 32 + 800 - 32, 4 * 16 + 32)
    assert p.anchor(0, 24) == (0, 24 * 16 + 32)  # the left corner of the map
    assert p.bounds() == (0, 0, 1600, 800)
    # objects: th px per cell along both axes, projected like cells (one cell right, one down)
    assert p.to_screen(32, 0) == (800 + 32, 16)
    assert p.to_screen(32, 32) == (800, 32)
    assert p.pivot == 0.5  # a tile object stands on the middle of its bottom edge


def test_staggered_rows_shift_half_a_cell():
    """Staggered, axis y, odd: the odd rows are shifted right by half a cell and rows are half
    a cell apart."""
    p = Projection(STAGGERED_Y_ODD, 25, 50, 64, 32)
    assert p.anchor(0, 0) == (0, 32)
    assert p.anchor(0, 1) == (32, 16 + 32)
    assert p.anchor(2, 3) == (2 * 64 + 32, 3 * 16 + 32)
    assert p.anchor(2, 4) == (2 * 64, 4 * 16 + 32)
    assert p.bounds() == (0, 0, 25 * 64 + 32, 50 * 16 + 16)
    assert p.to_screen(10.5, 7) == (10.5, 7) and p.pivot == 0


def test_hexagonal_cells_step_by_their_flat_sides():
    """Pointy hexagons (axis y, odd), 14x12 with sides of 6: rows 9 px apart (3 + 6), the odd
    ones 7 px right; flat ones (axis x, even), 60x52 with sides of 30: columns 45 px apart, the
    even ones 26 px down."""
    p = Projection(HEX_Y_ODD, 20, 20, 14, 12)
    assert p.anchor(0, 0) == (0, 12)
    assert p.anchor(1, 1) == (14 + 7, 9 + 12)
    assert p.bounds() == (0, 0, 20 * 14 + 7, 20 * 9 + 3)
    q = Projection(HEX_X_EVEN, 20, 22, 60, 52)
    assert q.anchor(0, 0) == (0, 26 + 52)
    assert q.anchor(1, 0) == (45, 52)
    assert q.anchor(3, 2) == (3 * 45, 2 * 52 + 52)
    assert q.bounds() == (0, 0, 20 * 45 + 15, 22 * 52 + 26)


def test_hexagonal_steps_round_the_tile_down_to_even_as_tiled_does():
    s = Orientation("hexagonal", stagger_x=True, hex_side=11).steps(27, 23)
    assert (s.tile_w, s.tile_h, s.side_x, s.side_y) == (26, 22, 11, 0)
    assert (s.side_offset_x, s.column_width, s.row_height) == (7, 18, 11)


def test_orthogonal_cells_are_where_the_game_draws_them():
    p = Projection(Orientation(), 10, 6, 16, 8)
    assert p.anchor(3, 2) == (48, 24) and p.bounds() == (0, 0, 160, 48)
    assert [c[:2] for c in p.cells()][:3] == [(0, 0), (1, 0), (2, 0)]


def test_cells_come_in_tileds_order():
    """Isometric: a diagonal (screen row) at a time, left to right; stagger axis x: a row's
    unshifted columns, then its shifted ones (lower down)."""
    iso = [c[:2] for c in Projection(ISO, 3, 2, 64, 32).cells()]
    assert iso == [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)]
    hexes = [c[:2] for c in Projection(HEX_X_EVEN, 4, 2, 60, 52).cells()]
    assert hexes == [(1, 0), (3, 0), (0, 0), (2, 0), (1, 1), (3, 1), (0, 1), (2, 1)]
    for p in (Projection(ISO, 5, 7, 64, 32), Projection(HEX_X_EVEN, 5, 7, 60, 52),
              Projection(HEX_Y_ODD, 5, 7, 14, 12)):
        cells = list(p.cells())
        assert sorted(c[:2] for c in cells) == sorted((c, r) for c in range(5) for r in range(7))
        assert [c[2:] for c in cells] == [p.anchor(c, r) for c, r, _, _ in cells]
        tops = [y for _, _, _, y in cells]
        assert tops == sorted(tops)  # back to front: nothing drawn later is further up


def test_the_picture_grows_by_layer_offsets_on_every_orientation(tmp_path):
    level = load_level(feature_map(tmp_path, "isometric"), play=False)
    x, y, w, h = Projection.of(level).bounds()
    # the hidden layer is moved (-20.5, -30) and the image layer (10, 20): Tiled rounds up
    assert picture_bounds(level) == pygame.Rect(-21, -30, w + 21 + 10, h + 30 + 20)


# --- reading ------------------------------------------------------------------------------------

def test_orientation_is_read_with_tileds_defaults_and_checked():
    def read(**attrs):
        return read_orientation(Path("m.tmx"), ET.Element("map", attrs), play=False)
    assert read() == Orientation()
    assert read(orientation="isometric (staggered)") == Orientation("staggered")
    assert read(orientation="hexagonal", hexsidelength="6") == HEX_Y_ODD
    assert read(orientation="hexagonal", staggeraxis="x", staggerindex="even",
                hexsidelength="30") == HEX_X_EVEN
    for attrs, words in [({"orientation": "oblique"}, "orientation"),
                         ({"orientation": "staggered", "staggeraxis": "z"}, "staggeraxis"),
                         ({"orientation": "hexagonal", "hexsidelength": "-3"}, "hexsidelength")]:
        with pytest.raises(UserError) as info:
            read(**attrs)
        assert words in str(info.value) and "Map Properties" in str(info.value)


def test_an_infinite_staggered_map_keeps_its_shifted_rows_when_made_finite(tmp_path):
    """Chunks from row 5 on: row 5 becomes row 0, so the stagger index flips (odd -> even) and
    objects move by five rows of 16 px."""
    path = tmp_path / "inf.tmx"
    path.write_text(
        '<map version="1.8" orientation="staggered" renderorder="right-down" width="4" '
        'height="4" tilewidth="32" tileheight="32" infinite="1" staggeraxis="y" '
        'staggerindex="odd">\n'
        '<layer id="1" name="a" width="4" height="4"><data encoding="csv">\n'
        '<chunk x="0" y="5" width="2" height="1">1,1</chunk></data></layer>\n'
        '<objectgroup id="2" name="o"><object id="1" x="40" y="100"/></objectgroup></map>',
        "utf-8")
    document = normalise(path, Reader(), play=False)
    root = document.tree
    assert root.get("staggerindex") == "even" and root.get("height") == "1"
    assert document.model.orientation.stagger_even and document.model.rows == 1
    (obj,) = document.model.objects
    assert obj.y == 100 - 5 * 16 and float(root.find(".//object").get("y")) == obj.y


# --- drawing, against Tiled ---------------------------------------------------------------------

FLIP_H, FLIP_V, FLIP_D = 0x80000000, 0x40000000, 0x20000000

VARIANTS = {
    # orthogonal too: big tiles hanging past the map's edges, a translucent layer of
    # overlapping tiles (Tiled fades each tile), offsets, tints and tile objects
    "orthogonal": ('orientation="orthogonal"', 32, 16),
    "isometric": ('orientation="isometric"', 32, 16),
    "staggered-y-odd": ('orientation="staggered" staggeraxis="y" staggerindex="odd"', 32, 16),
    "staggered-x-even": ('orientation="staggered" staggeraxis="x" staggerindex="even"', 32, 16),
    "hexagonal-y-even": ('orientation="hexagonal" staggeraxis="y" staggerindex="even" '
                         'hexsidelength="12"', 28, 24),
    "hexagonal-x-odd": ('orientation="hexagonal" staggeraxis="x" staggerindex="odd" '
                        'hexsidelength="10"', 27, 23),
}


def feature_map(folder: Path, variant: str, cols: int = 7, rows: int = 9) -> Path:
    """A map of ``variant`` (see VARIANTS) using most of what Tiled draws; its pictures copied
    beside it."""
    head, tw, th = VARIANTS.get(variant, (f'orientation="{variant}"', 32, 16))
    shutil.copy(SHEET, folder / SHEET.name)
    shutil.copy(PICTURE, folder / PICTURE.name)

    def cells(step: int, flips: bool) -> str:
        out = []
        for i in range(cols * rows):
            gid = 0 if i % step else 1 + (i * 7) % 24
            if gid and flips:
                gid |= (FLIP_H if i % 3 == 1 else 0) | (FLIP_V if i % 5 == 2 else 0)
                gid |= FLIP_D if i % 4 == 3 else 0  # on a hexagonal map: turned 60 degrees
            out.append(str(gid))
        return ",".join(out)

    def layer(i: int, name: str, data: str, attrs: str = "") -> str:
        return (f'<layer id="{i}" name="{name}" width="{cols}" height="{rows}" {attrs}>'
                f'<data encoding="csv">{data}</data></layer>\n')

    objects = "".join(
        f'<object id="{n}" gid="{gid}" x="{x}" y="{y}" width="{w}" height="{h}"{extra}/>\n'
        for n, (gid, x, y, w, h, extra) in enumerate([
            (3, 40, 60, 64, 64, ""), (5 | FLIP_H, 100, 30, 32, 48, ""),
            (9, 70, 110, 64, 64, ' rotation="90"'), (14 | FLIP_V, 20, 20, 48, 32, "")], 1))
    text = (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.8" {head} '
        f'renderorder="right-down" width="{cols}" height="{rows}" tilewidth="{tw}" '
        f'tileheight="{th}" infinite="0" nextlayerid="9" nextobjectid="9">\n'
        f'<tileset firstgid="1" name="big" tilewidth="64" tileheight="64" tilecount="24" '
        f'columns="4"><tileoffset x="-3" y="5"/>'
        f'<image source="{SHEET.name}" width="256" height="384"/></tileset>\n'
        + layer(1, "ground", cells(1, True))
        + '<group id="2" name="g" offsetx="3" offsety="-4" opacity="0.8">\n'
        + layer(3, "over", cells(3, True), 'offsetx="5" offsety="2" opacity="0.6" '
                'tintcolor="#ff8040"')
        + '</group>\n'
        + layer(4, "hidden", cells(2, False), 'visible="0" offsetx="-20.5" offsety="-30"')
        + f'<objectgroup id="5" name="things" offsetx="7" tintcolor="#80ff80">\n{objects}'
        '</objectgroup>\n'
        + f'<imagelayer id="6" name="picture" offsetx="10" offsety="20" opacity="0.7">'
        f'<image source="{PICTURE.name}" width="106" height="72"/></imagelayer>\n'
        + layer(7, "front", cells(4, False), 'offsetx="-2" offsety="3"')
        + '</map>\n')
    path = folder / f"{variant}.tmx"
    path.write_text(text, "utf-8")
    return path


@pytest.mark.tiled
@pytest.mark.parametrize("variant", VARIANTS)
def test_feature_maps_render_as_tiled_draws_them(variant, tmp_path):
    from test_render_tiled import compare
    compare(feature_map(tmp_path, variant), tmp_path)


def test_a_turn_takes_the_pixel_under_each_centre():
    """A quarter turn is exact; a turn keeps the picture's middle where it was."""
    pygame.init()
    img = pygame.Surface((6, 4), pygame.SRCALPHA)
    for x in range(6):
        for y in range(4):
            img.set_at((x, y), (40 * x, 60 * y, 7, 255))
    quarter, left, top = turn(img, 90)
    assert (left, top) == (-2, -3) and quarter.get_size() == (4, 6)
    want = pygame.transform.rotate(img, -90)  # pygame turns anticlockwise
    assert all(quarter.get_at((x, y)) == want.get_at((x, y)) for x in range(4) for y in range(6))
    sixty, left, top = turn(img, 60)
    w, h = sixty.get_size()
    assert (left + w / 2, top + h / 2) == pytest.approx((0, 0), abs=0.5)
    assert pygame.mask.from_surface(sixty, 0).count() == pytest.approx(24, abs=3)


@pytest.mark.tiled
@pytest.mark.parametrize("variant", ["hexagonal-y-even", "hexagonal-x-odd"])
def test_hexagonal_tiles_turned_120_degrees_are_drawn_as_tiled_draws_them(tmp_path, variant):
    """Tiled's bit 28 turns a tile 120 degrees on a hexagonal map, on top of its flips and its
    60-degree diagonal flip: every combination, against Tiled's own rasterizer."""
    from test_render_tiled import compare
    path = feature_map(tmp_path, variant)
    text = path.read_text("utf-8")
    start = text.index('<data encoding="csv">') + len('<data encoding="csv">')
    end = text.index("</data>", start)
    cells = [int(v) for v in text[start:end].split(",")]
    turned = [g | 0x10000000 if g and i % 2 else g for i, g in enumerate(cells)]
    path.write_text(text[:start] + ",".join(map(str, turned)) + text[end:], "utf-8")
    level = load_level(path, play=False)
    assert sum(t.turned_120 for t in level.view.tiles.values()) >= 8  # with each flip combination
    compare(path, tmp_path)


def test_bit_28_on_a_map_that_is_not_hexagonal_is_ignored_as_tiled_ignores_it(tmp_path):
    path = feature_map(tmp_path, "orthogonal")
    text = path.read_text("utf-8")
    plain = load_level(path, play=False)
    path.write_text(text.replace('<data encoding="csv">1,', f'<data encoding="csv">'
                                 f'{1 | 0x10000000},', 1), "utf-8")
    marked = load_level(path, play=False)
    assert [L.gids for L in marked.view.layers] == [L.gids for L in plain.view.layers]
    assert not any(t.turned_120 for t in marked.view.tiles.values())


@pytest.mark.tiled
def test_an_infinite_hexagonal_map_from_an_odd_row_is_drawn_as_tiled_draws_it(tmp_path):
    """Chunks from tile (3, 5): made finite, row 5 becomes row 0 and the stagger index flips so
    the same rows stay shifted; objects move with the tiles in their own coordinates, the image
    layer on screen. Tiled draws the infinite map itself (a picture of its whole 16x16 chunks):
    ours is the part from tile (3, 5) on, at (3 * 28, 5 * 18) in Tiled's."""
    from test_render_tiled import render_map, tool
    import tiledpicture as tp
    shutil.copy(SHEET, tmp_path / SHEET.name)
    path = tmp_path / "infinite.tmx"
    path.write_text(
        '<map version="1.8" orientation="hexagonal" renderorder="right-down" width="4" '
        'height="4" tilewidth="28" tileheight="24" infinite="1" hexsidelength="12" '
        'staggeraxis="y" staggerindex="odd" nextlayerid="4" nextobjectid="2">\n'
        '<tileset firstgid="1" name="big" tilewidth="64" tileheight="64" tilecount="24" '
        f'columns="4"><image source="{SHEET.name}" width="256" height="384"/></tileset>\n'
        '<layer id="1" name="a" width="4" height="4"><data encoding="csv">'
        '<chunk x="3" y="5" width="3" height="3">1,2,3,4,5,6,7,8,9</chunk></data></layer>\n'
        '<objectgroup id="2" name="o"><object id="1" gid="10" x="150" y="190" width="64" '
        'height="64"/></objectgroup>\n<imagelayer id="3" name="i" offsetx="120" offsety="130">'
        f'<image source="{SHEET.name}" width="256" height="384"/></imagelayer>\n</map>\n',
        "utf-8")
    pygame.init()
    ours = render_map(path, tmp_path / "ours.png")
    ref = tp.tiled_picture(tool(), path, tmp_path / "tiled.png")
    part = ref.subsurface(pygame.Rect((3 * 28, 5 * 18), ours.get_size())).copy()
    assert pygame.mask.from_surface(ours, 0).count() > ours.get_width() * ours.get_height() // 2
    assert tp.differing(ours, part, None, 2) == 0


# --- playing ------------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", ["isometric", "staggered-x-even", "hexagonal-y-even"])
def test_playing_a_map_of_another_orientation_is_one_error_line(variant, tmp_path, capsys):
    path = feature_map(tmp_path, variant)
    kind = variant.split("-")[0]
    assert main(["--headless", "--ticks", "1", "--level", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ") and "Traceback" not in err
    assert path.name in err and kind in err and "only orthogonal maps are played" in err
    assert load_level(path, play=False).view.orientation.kind == kind  # drawn all the same


@pytest.mark.tiled
@pytest.mark.parametrize("alignment", ["topleft", "center", "bottomright", "top", "left"])
@pytest.mark.parametrize("variant", ["orthogonal", "isometric", "staggered-x-even",
                                     "hexagonal-y-even"])
def test_tile_objects_stand_where_their_tilesets_alignment_says(variant, alignment, tmp_path):
    """A tileset's object alignment (Tiled 1.4+) moves where its tile objects stand, turned
    ones too, on every orientation; Tiled's own rasterizer is the judge."""
    from test_render_tiled import compare
    (tmp_path / "plain").mkdir()
    default = load_level(feature_map(tmp_path / "plain", variant), play=False)
    path = feature_map(tmp_path, variant)
    text = path.read_text("utf-8")
    path.write_text(text.replace('name="big"', f'name="big" objectalignment="{alignment}"', 1),
                    "utf-8")
    aligned = load_level(path, play=False)

    def objects(level):
        return [o for layer in level.view.art.layers for o in getattr(layer, "objects", ())]
    pairs = list(zip(objects(aligned), objects(default)))
    assert pairs and all((a.x, a.y) != (b.x, b.y) for a, b in pairs)  # not the default: moved
    compare(path, tmp_path)
