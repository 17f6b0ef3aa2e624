"""The view's share of issue 34's hostile cases: maps the headless run accepts that the window or
``--render-map`` could not draw (a crash, or out of memory), each drawn now by both in a process
held to 1 GiB (tests/drawing.py), and hot reloaded into a window playing a good map, which goes
on with its whole trace. Beside them, what keeps each fix true in this process: a parallax
layer's exact place however far, the part of a big tile object drawn, opacity and tint of
shared pictures, the picture's bound, ``--out``'s files.
"""

from __future__ import annotations

import os
import stat
from dataclasses import replace
from pathlib import Path

import pygame
import pytest
from drawing import draws

from game import config
from game.cli import main
from game.errors import UserError
from game.maps.art import ImageLayerArt, Look, TileImage
from game.maps.level import load_level
from game.view.app import App
from game.view.export import export, written_here
from game.view.mapart import ArtPictures, draw_image_layer, far_off, parallax_shift
from game.view.render import MAX_PICTURE_PX, TileImages
from game.view.surfaces import Kept
from test_hostile_maps import ROOT, SPAWN, csv_layer, run_level, sheet, write_map

TILES = ROOT / "tests" / "data" / "tiles4.png"


def drawn(folder: Path, path: Path) -> dict:
    """The map plays headless (exit 0, notes only), then tests/drawing.py's check: the window
    plays it, a hot reload from a good map into it keeps the window and its trace, and
    --render-map draws it."""
    proc = run_level(path)
    assert proc.returncode == 0, proc.stderr[-1500:]
    assert all(line.startswith("note: ") for line in proc.stderr.splitlines()), proc.stderr
    good = write_map(path.parent, name="good.tmx")
    out = folder / "out"
    out.mkdir()
    return draws(path, out, reload_from=good)


def maps(folder: Path) -> Path:
    out = folder / "maps"
    out.mkdir()
    return out


def layer(i: int, cols: int = 10, rows: int = 6, attrs: str = "") -> str:
    return (csv_layer(cols, rows, attrs).replace('id="1"', f'id="{i}"')
            .replace('name="ground"', f'name="l{i}"'))


# --- 12. parallax ------------------------------------------------------------------------------

@pytest.mark.slow
def test_parallax_factors_multiplied_through_groups(tmp_path):
    """30 groups of parallax 1000 (-1000 down): the layer inside moves 10^90 px. The window
    broke on it ('Argument must be rect style object'), and so did a hot reload into it."""
    inner = layer(2)
    for i in range(30):
        inner = (f'<group id="{20 + i}" name="g{i}" parallaxx="1000" parallaxy="-1000">'
                 f'{inner}</group>')
    path = write_map(maps(tmp_path), layers=layer(1) + inner)
    assert drawn(tmp_path, path)["reloaded"]


@pytest.mark.slow
def test_a_parallax_factor_of_minus_1000_a_million_px_from_its_origin(tmp_path):
    path = write_map(maps(tmp_path), layers=layer(1) + layer(2, attrs=' parallaxx="-1000" '
                                                              'parallaxy="1000"'))
    path.write_text(path.read_text().replace(
        'infinite="0"', 'infinite="0" parallaxoriginx="1000000" parallaxoriginy="-1000000"'))
    drawn(tmp_path, path)


def test_a_parallax_layers_place_is_exact_however_far():
    """A factor of 1000 in three groups (10^9) a million px from the origin: 10^15 px, whole."""
    assert parallax_shift((1e9, 1.0), (1e6, 0.0), (0.0, 0.0)) == (-999999999000000, 0)
    assert far_off(-999999999000000) == -(1 << 30) and far_off(5) == 5


def test_a_repeated_image_layer_far_off_shows_the_same_place_of_its_picture():
    """A repeated picture moved 10^15 px (and 7 more) looks as one moved 7 px."""
    pygame.init()
    picture = pygame.Surface((10, 4))
    for x in range(10):
        picture.fill((25 * x, 0, 0), (x, 0, 1, 4))
    art = ImageLayerArt("p.png", Look(), repeat_x=True)
    pictures = ArtPictures(load_level(ROOT / "levels" / "01_first_steps.tmx"), None,
                           lambda source: picture)
    near, far = pygame.Surface((30, 4)), pygame.Surface((30, 4))
    draw_image_layer(near, art, pictures, (7, 0))
    draw_image_layer(far, art, pictures, (10 ** 15 + 7, 0))
    assert pygame.image.tobytes(near, "RGB") == pygame.image.tobytes(far, "RGB")
    assert near.get_at((0, 0))[0] == 25 * 7


# --- 13. animation frames ------------------------------------------------------------------------

@pytest.mark.slow
def test_an_animation_frame_past_the_end_of_its_sheet_is_drawn_without_it(tmp_path):
    """The tileset says 8 tiles and its picture holds 4; tile 0 shows tile 6 next (before, the
    window and --render-map broke: 'subsurface rectangle outside surface area')."""
    tiles = ('<tile id="0"><properties><property name="collision" value="solid"/></properties>'
             '<animation><frame tileid="0" duration="100"/><frame tileid="6" duration="100"/>'
             '</animation></tile>')
    drawn(tmp_path, write_map(maps(tmp_path), tilesets=sheet(tiles=tiles, count=8)))


# --- 14. tile objects stretched to huge sizes ------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("w, h, turn", [(100000, 100000, 0), (1000000, 1, 0),
                                        (20000, 20000, 45), (3000, 2000, 30)])
def test_a_decoration_tile_object_stretched_huge(tmp_path, w, h, turn):
    """Before, its whole stretched picture was made: out of memory ('Out of memory', 'Size too
    large for scaling')."""
    deco = f'<object id="5" gid="2" x="-500" y="96" width="{w}" height="{h}" rotation="{turn}"/>'
    drawn(tmp_path, write_map(maps(tmp_path), objects=SPAWN + deco))


@pytest.mark.parametrize("size, turn, fit", [((300, 200), 0, False), ((300, 200), 30, False),
                                             ((1000, 16), 45, False), ((37, 500), 13.7, True),
                                             ((64, 64), 90, True)])
def test_the_part_of_a_tile_object_a_view_sees_is_that_part_of_its_picture(size, turn, fit):
    """What :meth:`ArtPictures.object_part` draws for views here and there over an object is
    what its whole picture shows there (a pixel or so apart along its source pixels' edges)."""
    pygame.init()
    level = load_level(ROOT / "tests" / "data" / "formats" / "art.tmx")
    images = TileImages(level, convert=False)
    pictures = ArtPictures(level, images.picture, images.load)
    info = next(iter(level.view.tiles.values()))
    image = TileImage(info.source, info.rect, flip_h=True, fit=fit)
    tint, at = (255, 128, 64, 200), (500.3, 400.6)
    whole, (dx, dy) = pictures.tile_object(image, *size, turn, tint, 0)
    expected = pygame.Surface((1200, 1000), pygame.SRCALPHA)
    expected.blit(whole, (int(at[0] + dx + 0.5), int(at[1] + dy + 0.5)))
    for view in (pygame.Rect(480, 300, 200, 150), pygame.Rect(520, 380, 90, 400),
                 pygame.Rect(300, 100, 700, 700)):
        got = pictures.object_part(image, size, turn, tint, 0.0, (0.0, 0.0), at, view)
        part = pygame.Surface((1200, 1000), pygame.SRCALPHA)
        if got is not None:
            part.blit(*got)
        differ = sum(1 for y in range(view.top, view.bottom, 2)
                     for x in range(view.left, view.right, 2)
                     if max(abs(a - b) for a, b in zip(expected.get_at((x, y)),
                                                       part.get_at((x, y)))) > 2
                     and (expected.get_at((x, y))[3] or part.get_at((x, y))[3]))
        assert differ <= 0.01 * (view.w // 2) * (view.h // 2), (view, differ)


# --- what the view keeps ------------------------------------------------------------------------

def test_kept_pictures_stay_within_their_budget():
    """However many pictures are asked for, those kept stay within the budget: the oldest go
    first, one bigger than the budget is handed out and not kept."""
    pygame.init()
    kept = Kept(10 * 16 * 16 * 4)
    made = []

    def make(i: int) -> pygame.Surface:
        made.append(i)
        return pygame.Surface((16, 16), pygame.SRCALPHA)

    for i in range(1000):
        kept.get(i, lambda i=i: make(i))
        assert kept.nbytes <= kept.budget
    assert len(kept) == 10 and kept.find(999) is not None and kept.find(0) is None
    kept.get(999, lambda: make(-1))  # kept: not made again
    huge = kept.get("huge", lambda: pygame.Surface((100, 100)))
    assert huge.get_size() == (100, 100) and "huge" not in kept and len(kept) == 10
    assert made == list(range(1000))


# --- 15. image layers of one picture ----------------------------------------------------------

def image_layers(folder: Path, count: int, side: int) -> Path:
    picture = pygame.Surface((side, side), pygame.SRCALPHA)
    picture.fill((200, 100, 50, 255))
    pygame.image.save(picture, str(folder / "big.png"))
    layers = csv_layer() + "".join(
        f'<imagelayer id="{100 + i}" name="im{i}" opacity="{0.5 + i / 400:.4f}" '
        f'tintcolor="#{i * 2:02x}ffffff"><image source="big.png" width="{side}" '
        f'height="{side}"/></imagelayer>' for i in range(count))
    return write_map(folder, layers=layers)


@pytest.mark.slow
def test_a_hundred_image_layers_of_one_picture_each_in_its_tint_and_opacity(tmp_path):
    """Before, a copy of its 2000x2000 picture per layer: 4 GB."""
    pygame.init()
    drawn(tmp_path, image_layers(maps(tmp_path), 100, 2000))


def test_image_layers_sharing_a_picture_each_keep_their_opacity(tmp_path):
    """Two layers of one picture and tint, at opacity 0.2 and 1: the picture is shared, each
    draws at its own opacity, in the window and in --render-map."""
    pygame.init()
    (tmp_path / "p.png").write_bytes(TILES.read_bytes())
    layers = csv_layer(floor=False) + "".join(
        f'<imagelayer id="{5 + i}" name="i{i}" opacity="{o}" tintcolor="#ff8080" '
        f'offsetx="{80 * i}"><image source="p.png" width="64" height="16"/></imagelayer>'
        for i, o in enumerate((0.2, 1)))
    path = write_map(tmp_path, layers=layers + layer(2))
    assert main(["--render-map", str(path), "--out", str(tmp_path / "m.png")]) == 0
    picture = pygame.image.load(str(tmp_path / "m.png"))
    plain = pygame.image.load(str(TILES))
    faint, full = picture.get_at((1, 1)), picture.get_at((81, 1))
    source = plain.get_at((1, 1))
    tinted = (source[0], source[1] * 128 // 255, source[2] * 128 // 255)
    assert max(abs(a - b) for a, b in zip(full[:3], tinted)) <= 1 and full[3] == source[3]
    assert abs(faint[3] - source[3] * 0.2) <= 2


def tiny_repeated(folder: Path, cols: int = 10, rows: int = 6) -> Path:
    """An image layer of a 3x2 px picture repeated both ways, tinted, over the map."""
    picture = pygame.Surface((3, 2), pygame.SRCALPHA)
    for x in range(3):
        picture.fill((80 * x, 200, 255 - 80 * x, 120 + 60 * x), (x, 0, 1, 1))
        picture.fill((10, 80 * x, 40, 255), (x, 1, 1, 1))
    pygame.image.save(picture, str(folder / "tiny.png"))
    return write_map(folder, cols=cols, rows=rows, layers=csv_layer(cols, rows) + (
        '<imagelayer id="5" name="sky" repeatx="1" repeaty="1" tintcolor="#ffc0a0" '
        'opacity="0.7" offsetx="5" offsety="-7"><image source="tiny.png" width="3" '
        'height="2"/></imagelayer>'))


def test_a_tiny_repeated_picture_is_drawn_as_blitting_it_again_and_again(tmp_path):
    """Drawn from a pattern of it (a few blits a view, not one a pixel), the picture is what
    blitting the tinted picture at every place gives."""
    pygame.init()
    level = load_level(tiny_repeated(tmp_path))
    images = TileImages(level, convert=False)
    art = next(a for a in level.view.art.layers if isinstance(a, ImageLayerArt))
    got = pygame.Surface((300, 200), pygame.SRCALPHA)
    draw_image_layer(got, art, ArtPictures(level, images.picture, images.load), (40, 30))
    one = images.load(art.source).copy()
    one.fill(art.look.tint, special_flags=pygame.BLEND_RGBA_MULT)
    one.set_alpha(round(0.7 * 255))
    want = pygame.Surface((300, 200), pygame.SRCALPHA)
    want.fblits([(one, (x, y)) for y in range((-7 - 30) % 2 - 2, 200, 2)
                 for x in range((5 - 40) % 3 - 3, 300, 3)])
    assert pygame.image.tobytes(got, "RGBA") == pygame.image.tobytes(want, "RGBA")


@pytest.mark.slow
def test_a_tiny_picture_repeated_over_a_big_map(tmp_path):
    """Over a 6400x4800 px picture: before, 30 million blits."""
    pygame.init()
    drawn(tmp_path, tiny_repeated(maps(tmp_path), 400, 300))


# --- 16. --render-map's picture ------------------------------------------------------------------

@pytest.mark.slow
def test_a_map_of_2000x1000_tiles_plays_and_its_picture_is_refused_in_one_line(tmp_path):
    """Inside the loader's limits, its picture is 32,000x16,000 px: 2 GB of pixels. The window
    plays it; --render-map says the picture's size and the most it draws, before drawing."""
    got = drawn(tmp_path, write_map(maps(tmp_path), cols=2000, rows=1000))
    assert got["render"] == 2
    (line,) = got["render_errors"]
    assert "32,000x16,000 px" in line and f"at most {MAX_PICTURE_PX:,} px" in line


@pytest.mark.slow
def test_a_layer_offset_a_million_px(tmp_path):
    """A picture 1,000,160 px wide: drawn a band at a time (before: out of memory)."""
    got = drawn(tmp_path, write_map(maps(tmp_path), layers=csv_layer(attrs=' offsetx="1000000"')))
    assert got["render"] == 0


@pytest.mark.slow
def test_twenty_layers_each_in_its_tint_over_a_big_tileset(tmp_path):
    """65,536 different tiles of a 4096x4096 tileset in 20 layers, each in its own tint and
    opacity: before, a copy of every tile per tint (1.3 GB)."""
    pygame.init()
    folder = maps(tmp_path)
    big = pygame.Surface((4096, 4096), pygame.SRCALPHA)
    for i in range(64):
        big.fill((i * 4, 255 - i * 4, 90, 160 + i), (i * 64, 0, 64, 4096))
    pygame.image.save(big, str(folder / "big.png"))
    tileset = ('<tileset firstgid="1" name="t" tilewidth="16" tileheight="16" tilecount="65536" '
               'columns="256"><image source="big.png" width="4096" height="4096"/>'
               '<tile id="0"><properties><property name="collision" value="solid"/>'
               '</properties></tile></tileset>')
    data = ",\n".join(",".join(str(r * 256 + c + 1) for c in range(256)) for r in range(256))
    layers = "".join(f'<layer id="{i + 1}" name="l{i}" width="256" height="256" '
                     f'opacity="{0.5 + i / 50:.2f}" tintcolor="#{255 - i:02x}ff{i * 10:02x}80">'
                     f'<data encoding="csv">\n{data}\n</data></layer>' for i in range(20))
    spawn = '<object id="1" name="spawn" x="40" y="40"><point/></object>'
    drawn(tmp_path, write_map(folder, cols=256, rows=256, tilesets=tileset, layers=layers,
                              objects=spawn))


@pytest.mark.slow
def test_two_hundred_layers_in_turn_of_two_parallax_factors(tmp_path):
    """200 runs of tile layers: a view buffer each, as big as the picture (before: out of
    memory); now as many as a budget holds, the rest drawn from their tiles."""
    layers = "".join(layer(i + 1, 200, 100, f' parallaxx="{1 if i % 2 else 0.5}"')
                     for i in range(200))
    drawn(tmp_path, write_map(maps(tmp_path), cols=200, rows=100, layers=layers))


# --- 12. a hot reload that fails keeps the game and its trace ------------------------------------

def small_window():
    cfg = config.load(ROOT / "config.toml")
    return replace(cfg, display=replace(cfg.display, width=320, height=180, vsync=False,
                                        hot_reload=False))


def test_a_reload_whose_renderer_cannot_be_made_keeps_the_last_good_level(tmp_path, monkeypatch):
    """Anything raised while the window readies a reloaded level (here, its renderer) leaves
    the level being played as it was."""
    import game.view.levels as levels_module

    path = write_map(tmp_path)
    app = App(small_window(), path, max_frames=1)
    level, renderer = app.world.level, app.play.renderer

    def broken(*args, **kwargs):
        raise OverflowError("too far")

    monkeypatch.setattr(levels_module, "MapRenderer", broken)
    app.play.reload()
    assert app.world.level is level and app.play.renderer is renderer
    assert app.play.error_line == f"error: {path}: could not load (OverflowError: too far)"
    app.play.draw(0.0)
    pygame.quit()
    pygame.init()


def test_a_frame_that_breaks_still_leaves_the_trace_of_what_was_played(tmp_path, monkeypatch):
    traced = []
    app = App(small_window(), write_map(tmp_path), max_frames=100, frame_time=1 / 60,
              max_ticks=100, trace=lambda records, level: traced.append(len(records)))
    draw = app.play.draw

    def breaks_at_frame_30(alpha, dt=0.0):
        if app.play.ticks_run >= 30:
            raise RuntimeError("a fault of the game's")
        draw(alpha, dt)

    monkeypatch.setattr(app.play, "draw", breaks_at_frame_30)
    with pytest.raises(RuntimeError):
        app.run()
    assert traced == [30]
    pygame.init()


# --- 17. --render-map --out ----------------------------------------------------------------------

def test_a_new_picture_gets_the_mode_the_umask_leaves(tmp_path):
    """Not 0600 (the temporary file's): a new picture is made as any new file is."""
    mask = os.umask(0o022)
    try:
        assert main(["--render-map", str(write_map(tmp_path)), "--out",
                     str(tmp_path / "new.png")]) == 0
    finally:
        os.umask(mask)
    assert stat.S_IMODE(os.stat(tmp_path / "new.png").st_mode) == 0o644


def test_a_file_made_at_out_while_the_map_is_drawn_is_left_alone(tmp_path):
    """Someone saves a file of theirs at --out while the picture is drawn and written: it is
    not replaced, and no temporary file is left."""
    out = tmp_path / "map.png"

    def theirs_appears(note: str) -> None:  # the notes are said before the drawing
        out.write_text("mine")

    path = write_map(tmp_path, tilesets=sheet(tiles=""))  # read by guesses: notes
    with pytest.raises(UserError, match="not a picture written by this game"):
        export(path, out, 0.0, (12.0, 14.0), notes=theirs_appears)
    assert out.read_text() == "mine" and not written_here(out)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.tmx", "map.png", "tiles4.png"]


# --- many tile objects, most out of sight -------------------------------------------------------

def _objects_map(folder: Path) -> Path:
    """500 turned, stretched, flipped tile objects spread over a 1600 x 1600 px map."""
    objects = SPAWN + "".join(
        f'<object id="{i}" gid="{1 + i % 4 | (0x80000000 if i % 2 else 0)}" '
        f'x="{(i * 131) % 1600}" y="{(i * 71) % 1600}" width="{16 + i % 50}" '
        f'height="{16 + i % 37}" rotation="{(i * 37) % 360}"/>' for i in range(2, 502))
    return write_map(maps(folder), cols=100, rows=100, layers=csv_layer(100, 100),
                     objects=objects)


def _draw_objects(level, pictures, view: pygame.Rect) -> pygame.Surface:
    from game.maps.art import ObjectLayerArt
    from game.view.mapart import draw_objects
    out = pygame.Surface(view.size, pygame.SRCALPHA)
    for item in level.view.art.layers:
        if isinstance(item, ObjectLayerArt):
            draw_objects(out, item, pictures, view.topleft, 0)
    return out


def test_tile_objects_out_of_sight_have_no_picture_made(tmp_path):
    """A view sees a few of 500 turned tile objects: only their pictures are made (before,
    every object's stretched, turned picture was made each frame, then found out of sight:
    30,000 of them played at 3 frames a second)."""
    pygame.init()
    level = load_level(_objects_map(tmp_path))
    images = TileImages(level, convert=False)
    made = []

    def picture(image):
        made.append(image)
        return images.picture(image)

    _draw_objects(level, ArtPictures(level, picture, images.load), pygame.Rect(0, 0, 120, 90))
    assert 0 < len(made) < 50


def test_a_view_draws_each_tile_object_as_the_whole_map_shows_it(tmp_path):
    """Whatever is skipped as out of sight, a view shows just what the same place of the whole
    map's drawing shows, at its edges too."""
    pygame.init()
    level = load_level(_objects_map(tmp_path))
    images = TileImages(level, convert=False)
    whole = _draw_objects(level, ArtPictures(level, images.picture, images.load),
                          pygame.Rect(-100, -100, 1800, 1800))
    for view in (pygame.Rect(250, 260, 97, 61), pygame.Rect(333, 517, 120, 90),
                 pygame.Rect(1500, 1520, 160, 100), pygame.Rect(811, 9, 33, 200)):
        got = _draw_objects(level, ArtPictures(level, images.picture, images.load), view)
        expected = whole.subsurface(view.move(100, 100))
        assert pygame.image.tobytes(got, "RGBA") == pygame.image.tobytes(expected, "RGBA"), view
        assert pygame.mask.from_surface(got).count() > 0  # the view sees some objects
