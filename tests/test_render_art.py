"""Drawing what Tiled draws beyond tile cells (tests/data/formats/art.tmx, made by
tools/make_format_maps.py): animated tiles with Tiled's frame durations, tile objects, image
layers, tints, parallax, transparent colours; and ``--render-map``, checked against Tiled's own
``tmxrasterizer``."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pygame
import pytest

from game.cli import main
from game.maps.art import ImageLayerArt, ObjectLayerArt, TileLayerArt
from game.maps.level import load_level
from game.view.export import MARK, written_here
from game.view.mapart import Animator, parallax_shift
from game.view.render import MapRenderer, TileImages, render_whole

ROOT = Path(__file__).resolve().parent.parent
FORMATS = Path(__file__).parent / "data" / "formats"
ART = FORMATS / "art.tmx"


@pytest.fixture(scope="module")
def art():
    pygame.init()
    return load_level(ART)


def test_the_art_is_read_in_file_order(art):
    kinds = [type(a).__name__ for a in art.view.art.layers]
    assert kinds == ["ImageLayerArt", "TileLayerArt", "TileLayerArt", "TileLayerArt",
                     "ObjectLayerArt", "ObjectLayerArt", "TileLayerArt"]
    sky, far = art.view.art.layers[0], art.view.art.layers[1]
    assert isinstance(sky, ImageLayerArt) and sky.repeat_x and not sky.repeat_y
    assert sky.look.parallax == (0.5, 1.0) and sky.look.offset == (0.0, 8.0)
    assert isinstance(far, TileLayerArt) and far.look.parallax == (0.5, 1.0)
    tinted = art.view.art.layers[3]
    assert tinted.look.tint == (255, 128, 64, 255) and tinted.look.opacity == pytest.approx(0.8)
    things = art.view.art.layers[4]
    assert isinstance(things, ObjectLayerArt) and things.sprites and len(things.objects) == 5
    # Tiled's default draw order "topdown": by y, the file's order where ys are equal
    assert [(o.x, o.y) for o in things.objects] == [(272, 128), (160, 160), (192, 160),
                                                     (224, 160), (300, 160)]
    flipped = things.objects[2]
    assert flipped.image.flip_h and not flipped.image.flip_v
    assert things.objects[0].rotation == 90
    start = art.view.art.layers[5]
    assert not start.objects  # the player's start is the game's, not a picture


def test_animation_frames_follow_tileds_durations(art):
    images = TileImages(art, convert=False)
    anim = Animator(art, images.picture)
    (gid,) = anim.frames_of
    # frames of 100, 250 and 150 ms, looping every 500 ms; as in Tiled, a frame gives way
    # once its time is over (at exactly 100 ms the first still shows)
    for ms, frame in [(0, 0), (99, 0), (100, 0), (101, 1), (350, 1), (351, 2), (500, 2),
                      (501, 0), (1351, 2), (10_000_100, 0), (10_000_101, 1)]:
        assert anim.frame_at(gid, ms) == frame, ms
    assert anim.at(0) == {}  # frame 0 was already shown
    assert set(anim.at(120)) == {gid} and anim.at(130) == {}


def test_parallax_moves_a_layer_by_the_views_distance_from_the_origin():
    assert parallax_shift((1.0, 1.0), (500, 300), (0, 0)) == (0, 0)
    assert parallax_shift((0.5, 0.5), (500, 300), (0, 0)) == (250, 150)
    assert parallax_shift((0.0, 1.0), (500, 300), (100, 0)) == (400, 0)
    assert parallax_shift((2.0, 1.0), (500, 300), (0, 0)) == (-500, 0)


def column_of_colour(surface: pygame.Surface, colour, row: int) -> int | None:
    for x in range(surface.get_width()):
        if tuple(surface.get_at((x, row)))[:3] == colour:
            return x
    return None


def test_in_play_a_parallax_layer_moves_slower_than_the_map(art):
    """The far hills (parallax 0.5 along x, tiles in every other column of row 8) for a 160x192
    view: at view x 0 the view's centre is 80 px from the origin, so they move 40 px right; at
    view x 64, 72 px right. The camera moved 64 px, the hills 32 px on screen."""
    renderer = MapRenderer(art, TileImages(art, convert=False))
    renderer.update(0)
    hills = (150, 150, 170)  # the light top of a far hill
    first = []
    for x in (0, 64):
        view = pygame.Surface((160, 192))
        renderer.draw(view, (x, 0))
        first.append(column_of_colour(view, hills, 8 * 16 + 2))
    assert first == [40, 8]


def test_in_play_animated_cells_change_and_the_rest_stays(art):
    renderer = MapRenderer(art, TileImages(art, convert=False))
    frames = []
    for t in (0.0, 0.2, 0.4):
        renderer.update(t)
        view = pygame.Surface((384, 192))
        renderer.draw(view, (0, 0))
        frames.append(view)
    spot = (3 * 16 + 8, 9 * 16 + 8)  # the middle of the first animated cell
    colours = [tuple(f.get_at(spot))[:3] for f in frames]
    assert colours == [(230, 60, 60), (60, 90, 230), (240, 200, 40)]
    far = (5, 175)  # the ground, never animated
    assert len({tuple(f.get_at(far)) for f in frames}) == 1


def test_render_whole_matches_a_fresh_renderer_after_updates(art):
    """A renderer that has animated through time draws what a new one at that time draws."""
    images = TileImages(art, convert=False)
    moving = MapRenderer(art, images)
    for t in (0.0, 0.13, 0.37, 0.9):
        moving.update(t)
    whole = pygame.Surface((384, 200), pygame.SRCALPHA)
    moving.draw(whole, (0, 0), centre=moving.origin)
    moving.draw(whole, (0, 0), front=True, centre=moving.origin)
    fresh = render_whole(art, images, 0.9)
    fresh_no_bg = pygame.Surface(fresh.get_size(), pygame.SRCALPHA)
    renderer = MapRenderer(art, images)
    renderer.update(0.9)
    renderer.draw(fresh_no_bg, (0, 0), centre=renderer.origin)
    renderer.draw(fresh_no_bg, (0, 0), front=True, centre=renderer.origin)
    assert pygame.image.tobytes(whole, "RGBA") == pygame.image.tobytes(fresh_no_bg, "RGBA")


# --- --render-map --------------------------------------------------------------------------------

def render(tmp_path: Path, capsys, *extra: str, out: str = "map.png") -> tuple[int, list[str]]:
    rc = main(["--render-map", str(ART), "--out", str(tmp_path / out), *extra])
    return rc, capsys.readouterr().err.strip().splitlines()


def test_render_map_writes_a_png_it_may_replace_later(tmp_path, capsys):
    rc, err = render(tmp_path, capsys)
    assert rc == 0 and err == []
    png = tmp_path / "map.png"
    assert written_here(png) and MARK in png.read_bytes()[:200]
    img = pygame.image.load(str(png))
    assert img.get_size() == (24 * 16, 12 * 16 + 8)  # the image layer's offset grows it
    assert tuple(img.get_at((100, 60)))[:3] == (0x20, 0x30, 0x40)  # the background colour
    rc, err = render(tmp_path, capsys, "--time", "0.2")  # its own picture: replaced
    assert rc == 0 and err == []


def _linked_to_notes(p: Path) -> None:
    (p.parent / "notes.txt").write_text("my notes")
    p.symlink_to(p.parent / "notes.txt")


NOT_OURS = "is not a picture written by this game"


@pytest.mark.parametrize("setup, words", [
    (lambda p: p.write_text("my notes"), NOT_OURS),
    (lambda p: pygame.image.save(pygame.Surface((4, 4)), str(p)), NOT_OURS),
    (lambda p: p.mkdir(), "is a folder"),
    (_linked_to_notes, NOT_OURS),
])
def test_render_map_never_overwrites_what_it_did_not_write(tmp_path, capsys, setup, words):
    target = tmp_path / "map.png"
    setup(target)
    before = target.read_bytes() if target.is_file() else None
    rc, err = render(tmp_path, capsys)
    assert rc == 2 and len(err) == 1 and err[0].startswith("error:") and words in err[0]
    assert "--out" in err[0] and str(target) in err[0]
    if before is not None:
        assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_render_map_writes_through_a_link_and_keeps_the_pictures_mode(tmp_path, capsys):
    """A link stays a link (its file is written), and a picture replaced keeps its mode: the
    way every file the game writes is written (game.runs.files)."""
    target = tmp_path / "map.png"
    target.symlink_to(tmp_path / "real.png")
    rc, err = render(tmp_path, capsys)
    assert rc == 0 and err == [] and target.is_symlink() and written_here(tmp_path / "real.png")
    os.chmod(tmp_path / "real.png", 0o644)
    rc, err = render(tmp_path, capsys, "--time", "0.1")
    assert rc == 0 and stat.S_IMODE(os.stat(tmp_path / "real.png").st_mode) == 0o644


def test_render_map_into_a_folder_it_cannot_write_is_one_error_line(tmp_path, capsys):
    if os.geteuid() == 0:  # root writes past a folder's mode; /proc/self refuses even root
        rc = main(["--render-map", str(ART), "--out", "/proc/self/map.png"])
        err = capsys.readouterr().err.strip().splitlines()
        assert rc == 2 and len(err) == 1 and "not writable" in err[0]
        return
    os.chmod(tmp_path, 0o555)
    try:
        rc, err = render(tmp_path, capsys)
    finally:
        os.chmod(tmp_path, 0o755)
    assert rc == 2 and len(err) == 1 and "not writable" in err[0]


@pytest.mark.parametrize("argv, words", [
    (["--render-map", str(ART)], "needs --out"),
    (["--render-map", str(ART), "--out", "x.png", "--time", "soon"], "not a number"),
    (["--render-map", str(ART), "--out", "x.png", "--time", "-1"], "from 0"),
    (["--render-map", str(ART), "--out", "x.png", "--time", "nan"], "from 0"),
    (["--time", "3"], "--time goes with --render-map"),
    (["--render-map", str(FORMATS / "nowhere.tmx"), "--out", "x.png"], "not found"),
    (["--render-map", str(ART), "--out", "/nonexistent-folder/x.png"], "does not exist"),
    (["--render-map", str(ART), "--out", "/proc/self/x.png"], "error: "),
])
def test_render_map_mistakes_are_one_error_line(tmp_path, capsys, monkeypatch, argv, words):
    monkeypatch.chdir(tmp_path)
    rc = main(argv)
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and err[0].startswith("error:") and words in err[0], err
    assert list(tmp_path.iterdir()) == []


# --- against Tiled -------------------------------------------------------------------------------

def differing(ours: pygame.Surface, ref: pygame.Surface) -> int:
    """Pixels more than 1 apart on some channel."""
    a, b = pygame.image.tobytes(ours, "RGBA"), pygame.image.tobytes(ref, "RGBA")
    return sum(1 for i in range(0, len(a), 4)
               if max(abs(a[i + k] - b[i + k]) for k in range(4)) > 1)


def tiled_picture(path: Path, tmp_path: Path, ms: int, hide: list[str]) -> pygame.Surface:
    from test_tiled import run_tool, tiled_tool
    out = tmp_path / f"tiled-{ms}.png"
    args = [tiled_tool("tmxrasterizer"), "--no-smoothing"]
    for name in hide:
        args += ["--hide-layer", name]
    if ms:
        args += ["--advance-animations", str(ms)]
    proc = run_tool([*args, str(path), str(out)], tmp_path)
    assert proc.returncode == 0 and out.exists(), proc.stderr
    return pygame.image.load(str(out))


@pytest.mark.tiled
@pytest.mark.parametrize("ms", [0, 200, 420, 1130])
def test_render_map_matches_tmxrasterizer(tmp_path, ms, art):
    """Masked: the object layer that holds only the player's start (Tiled draws a marker for a
    point object, the game draws the player there). Debian's Tiled 1.8 rasterizer leaves the
    map's background colour out, so its picture is laid over that colour first."""
    ref = tiled_picture(ART, tmp_path, ms, hide=["start"])
    under = pygame.Surface(ref.get_size(), pygame.SRCALPHA)
    under.fill((*art.view.background, 255))
    under.blit(ref, (0, 0))
    ours = render_whole(art, TileImages(art, convert=False), ms / 1000)
    assert ours.get_size() == under.get_size()
    bad = differing(ours, under)
    assert bad <= ours.get_width() * ours.get_height() // 100, f"{bad} pixels differ"
    assert bad == 0  # in fact, none


def test_a_transparent_colour_clears_its_pixels_and_leaves_translucent_ones_as_they_are():
    """Tiled makes the tileset's transparent colour clear and draws every other pixel as the
    file has it: a translucent pixel keeps its colour (not darkened by its own alpha)."""
    from game.view.tiledraw import see_through
    pygame.init()
    image = pygame.Surface((4, 1), pygame.SRCALPHA)
    for x, c in enumerate([(255, 0, 255, 255), (200, 100, 50, 128), (255, 0, 255, 90),
                           (10, 9, 7, 13)]):
        image.set_at((x, 0), c)
    out = see_through(image, (255, 0, 255))
    assert [tuple(out.get_at((x, 0))) for x in range(4)] == [
        (0, 0, 0, 0), (200, 100, 50, 128), (0, 0, 0, 0), (10, 9, 7, 13)]
    opaque = pygame.Surface((2, 1))
    opaque.set_at((0, 0), (255, 0, 255))
    opaque.set_at((1, 0), (1, 2, 3))
    assert [tuple(see_through(opaque, (255, 0, 255)).get_at((x, 0))) for x in range(2)] == [
        (0, 0, 0, 0), (1, 2, 3, 255)]


@pytest.mark.tiled
@pytest.mark.parametrize("attrs,offset", [('x="40" y="24"', (40, 24)),
                                          ('x="40" y="24" offsetx="8" offsety="4"', (8, 4)),
                                          ('x="4.5" y="24"', (0, 24))])
def test_an_image_layer_placed_by_x_and_y_stands_where_tiled_puts_it(tmp_path, attrs, offset):
    """Before offsets, Tiled placed an image layer by ``x``/``y`` (libGDX's writer still does);
    Tiled reads them as the offset when the layer has no ``offsetx``. Compared with Tiled's own
    rasterizer given the file as it is."""
    import shutil

    import tiledpicture as tp
    from test_render_tiled import render_map, tool
    shutil.copy(FORMATS / "art_sky.png", tmp_path / "art_sky.png")
    path = tmp_path / "placed.tmx"
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.0" orientation="orthogonal" '
        'renderorder="right-down" width="6" height="4" tilewidth="16" tileheight="16">\n'
        f'<imagelayer name="sky" {attrs}><image source="art_sky.png" width="48" height="24"/>'
        '</imagelayer>\n</map>\n', "utf-8")
    pygame.init()
    level = load_level(path, play=False)
    (layer,) = [a for a in level.view.art.layers if isinstance(a, ImageLayerArt)]
    assert layer.look.offset == offset
    ours = render_map(path, tmp_path / "ours.png")
    ref = tp.tiled_picture(tool(), path, tmp_path / "tiled.png")
    assert ours.get_size() == ref.get_size()
    assert tp.differing(ours, ref) == 0


def test_an_image_layer_whose_picture_is_missing_is_drawn_empty_with_a_note(tmp_path, capsys):
    """Tiled draws such a layer empty; so does the game, and it says so (the map still plays
    and draws: a picture is decoration)."""
    import shutil
    shutil.copy(FORMATS / "art_tiles.png", tmp_path / "art_tiles.png")
    path = tmp_path / "art.tmx"
    path.write_text(ART.read_text("utf-8").replace('source="art_sky.png"',
                                                   'source="gone/sky.png"'), "utf-8")
    level = load_level(path)
    assert not any(isinstance(a, ImageLayerArt) for a in level.view.art.layers)
    (note,) = [n for n in level.notes if "sky.png" in n]
    assert "image layer 'sky'" in note and "not found" in note and "drawn empty" in note
    assert main(["--render-map", str(path), "--out", str(tmp_path / "out.png")]) == 0
    err = capsys.readouterr().err
    assert "note: " in err and "drawn empty" in err and "error:" not in err
    # the rest is drawn: the ground along the bottom row
    ours = pygame.image.load(str(tmp_path / "out.png"))
    assert tuple(ours.get_at((130, 185)))[:3] == (120, 80, 40)
