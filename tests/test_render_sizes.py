"""Tiled 1.9+'s tileset "Tile Render Size" and "Fill Mode": a tileset may draw its tiles at the
map's grid size instead of their own ("tilerendersize" grid), stretched or keeping their shape
("fillmode" preserve-aspect-fit, centred in the cell). Debian's Tiled (1.8) predates both, so
the pictures expected here are worked out from the rules of Tiled's renderer (a tile scaled
into the box of its size, its drawing offset scaled alike, bottom-left on its cell) with
nearest-neighbour scaling by whole factors, where every pixel is known."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.cli import main
from game.maps.level import load_level
from game.view.render import TileImages, render_whole

QUADRANTS = [(220, 40, 40), (40, 200, 60), (50, 80, 230), (240, 220, 40)]  # TL, TR, BL, BR


def sheet(folder: Path) -> Path:
    """Two 16x16 tiles: four coloured quadrants, then a plain grey one."""
    img = pygame.Surface((32, 16))
    for i, c in enumerate(QUADRANTS):
        img.fill(c, ((i % 2) * 8, (i // 2) * 8, 8, 8))
    img.fill((128, 128, 128), (16, 0, 16, 16))
    path = folder / "quads.png"
    pygame.image.save(img, str(path))
    return path


def tile_map(folder: Path, grid: tuple[int, int], ts_attrs: str, cells: list[list[int]],
             objects: str = "", offset: str = "", shapes: str = "") -> Path:
    sheet(folder)
    rows, cols = len(cells), len(cells[0])
    data = ",\n".join(",".join(map(str, r)) for r in cells)
    path = folder / "sized.tmx"
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" '
        f'renderorder="right-down" width="{cols}" height="{rows}" tilewidth="{grid[0]}" '
        f'tileheight="{grid[1]}" infinite="0" nextlayerid="3" nextobjectid="9">\n'
        f'<tileset firstgid="1" name="quads" tilewidth="16" tileheight="16" tilecount="2" '
        f'columns="2" {ts_attrs}>{offset}<image source="quads.png" width="32" height="16"/>'
        f'{shapes}</tileset>\n'
        f'<layer id="1" name="ground" width="{cols}" height="{rows}"><data encoding="csv">\n'
        f'{data}\n</data></layer>\n'
        f'<objectgroup id="2" name="things">{objects}</objectgroup>\n</map>\n', "utf-8")
    return path


def drawn(path: Path) -> pygame.Surface:
    pygame.init()
    level = load_level(path, play=False)
    return render_whole(level, TileImages(level, convert=False))


def quadrant_box(picture: pygame.Surface, box: pygame.Rect) -> None:
    """``box`` shows the quadrant tile scaled into it: each quarter one colour."""
    hw, hh = box.w // 2, box.h // 2
    for i, c in enumerate(QUADRANTS):
        part = pygame.Rect(box.x + (i % 2) * hw, box.y + (i // 2) * hh, hw, hh)
        for x, y in ((part.left, part.top), (part.right - 1, part.bottom - 1)):
            assert tuple(picture.get_at((x, y)))[:3] == c, (i, x, y)


def test_grid_render_size_stretches_each_tile_to_the_cell(tmp_path):
    path = tile_map(tmp_path, (32, 32), 'tilerendersize="grid"', [[1, 2], [2, 1]])
    picture = drawn(path)
    assert picture.get_size() == (64, 64)  # no tile reaches past its cell any more
    quadrant_box(picture, pygame.Rect(0, 0, 32, 32))
    quadrant_box(picture, pygame.Rect(32, 32, 32, 32))
    assert tuple(picture.get_at((63, 0)))[:3] == (128, 128, 128)


def test_a_tile_at_its_own_size_hangs_from_the_cell_as_before(tmp_path):
    path = tile_map(tmp_path, (32, 32), "", [[1, 0]])
    picture = drawn(path)
    quadrant_box(picture, pygame.Rect(0, 16, 16, 16))  # 16 px, bottom-left on the cell
    assert picture.get_at((20, 4)).a == 0


def test_preserve_aspect_fit_keeps_the_tiles_shape_centred_in_the_cell(tmp_path):
    """A 16x16 tile on a 32x16 grid: stretched it is 32x16; fitted it stays 16x16, centred."""
    stretched = drawn(tile_map(tmp_path, (32, 16), 'tilerendersize="grid"', [[1]]))
    quadrant_box(stretched, pygame.Rect(0, 0, 32, 16))
    fitted = drawn(tile_map(tmp_path, (32, 16),
                            'tilerendersize="grid" fillmode="preserve-aspect-fit"', [[1]]))
    quadrant_box(fitted, pygame.Rect(8, 0, 16, 16))
    assert fitted.get_at((3, 8)).a == 0 and fitted.get_at((28, 8)).a == 0


def test_the_drawing_offset_and_collision_shapes_scale_with_the_picture(tmp_path):
    shape = ('<tile id="0"><objectgroup draworder="index"><object id="1" x="0" y="8" '
             'width="16" height="8"/></objectgroup></tile>')
    path = tile_map(tmp_path, (32, 32), 'tilerendersize="grid"', [[1, 0], [0, 0]],
                    offset='<tileoffset x="2" y="-3"/>', shapes=shape)
    level = load_level(path, play=False)
    (gid,) = [g for g, info in level.view.tiles.items() if info.rect == (0, 0, 16, 16)]
    assert level.view.tile_offsets[gid] == (4, -6)
    assert level.view.tiles[gid].size == (32, 32)
    picture = render_whole(level, TileImages(level, convert=False))
    # drawn 32x32 from (4, -6): its top 6 rows are above the map's picture
    for (x, y), c in (((12, 2), QUADRANTS[0]), ((30, 9), QUADRANTS[1]), ((12, 20), QUADRANTS[2]),
                      ((35, 25), QUADRANTS[3])):
        assert tuple(picture.get_at((x, y)))[:3] == c, (x, y)
    assert picture.get_at((2, 20)).a == 0 and picture.get_at((12, 27)).a == 0
    from game.maps.level import read_map
    (lower_half,) = read_map(path, play=False)[1].tilesets[0].shapes_in_cell(0)
    assert sorted(lower_half.points) == [(0, 16), (0, 32), (32, 16), (32, 32)]


def test_a_fitted_tile_object_keeps_its_tiles_shape(tmp_path):
    obj = '<object id="1" gid="1" x="0" y="32" width="32" height="16"/>'
    for attrs, box in (("", pygame.Rect(0, 16, 32, 16)),
                       ('fillmode="preserve-aspect-fit"', pygame.Rect(8, 16, 16, 16))):
        picture = drawn(tile_map(tmp_path, (16, 16), attrs, [[0, 0], [0, 0]], objects=obj))
        quadrant_box(picture, box)


def test_a_value_tiled_does_not_know_is_a_note_and_its_default(tmp_path, capsys):
    path = tile_map(tmp_path, (32, 32), 'tilerendersize="map" fillmode="cover"', [[1]])
    level = load_level(path, play=False)
    said = [n for n in level.notes if "tilerendersize" in n or "fillmode" in n]
    assert len(said) == 2 and all("Tileset Properties" in n for n in said)
    # drawn at its own size, as Tiled would
    assert level.view.tiles[min(level.view.tiles)].size is None
    assert main(["--render-map", str(path), "--out", str(tmp_path / "out.png")]) == 0
    assert capsys.readouterr().err.count("note:") >= 2


@pytest.mark.parametrize("attrs", ['tilerendersize="grid"',
                                   'tilerendersize="grid" fillmode="preserve-aspect-fit"'])
def test_a_json_map_reads_the_same_sizes(tmp_path, attrs):
    import json
    path = tile_map(tmp_path, (32, 16), attrs, [[1, 2]])
    doc = {"type": "map", "version": "1.10", "tiledversion": "1.10.2",
           "orientation": "orthogonal", "renderorder": "right-down", "width": 2, "height": 1,
           "tilewidth": 32, "tileheight": 16, "infinite": False, "nextlayerid": 2,
           "nextobjectid": 1,
           "tilesets": [{"firstgid": 1, "name": "quads", "tilewidth": 16, "tileheight": 16,
                         "tilecount": 2, "columns": 2, "image": "quads.png", "imagewidth": 32,
                         "imageheight": 16, "margin": 0, "spacing": 0,
                         **{k: v.strip('"') for k, v in (a.split("=") for a in attrs.split())}}],
           "layers": [{"id": 1, "name": "ground", "type": "tilelayer", "width": 2, "height": 1,
                       "x": 0, "y": 0, "opacity": 1, "visible": True, "data": [1, 2]}]}
    twin = tmp_path / "sized.tmj"
    twin.write_text(json.dumps(doc), "utf-8")
    a, b = drawn(path), drawn(twin)
    assert pygame.image.tobytes(a, "RGBA") == pygame.image.tobytes(b, "RGBA")
    tiles = load_level(twin, play=False).view.tiles
    assert tiles[min(tiles)].size == (32, 16)


@pytest.mark.parametrize("attrs,rows", [("", {0, 1, 2}), ('fillmode="preserve-aspect-fit"', {1})])
def test_a_tile_objects_collision_is_where_its_picture_is(tmp_path, attrs, rows):
    """A 16x16 tile marked solid (a bool property ``collides``), placed as a 16x48 tile object:
    stretched it covers the box's three rows; fitted, only the middle one, where its picture
    is. (A tile's collision *shapes* never make a tile object collide: they are a sprite's
    hitbox, tests/test_real_maps.py.)"""
    shape = ('<tile id="0"><properties><property name="collides" type="bool" value="true"/>'
             '</properties></tile>')
    obj = '<object id="1" gid="1" x="0" y="48" width="16" height="48"/>'
    level = load_level(tile_map(tmp_path, (16, 16), attrs, [[0, 0]] * 4, objects=obj,
                                shapes=shape), play=False)
    g = level.grid
    assert {r for r in range(g.rows) if g.kind(0, r)} == rows
