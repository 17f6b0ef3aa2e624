"""The map renderer: what it draws matches a whole-map render, and what it keeps between frames
stays within a bound set by the view, however big the map and however far the camera pans."""

import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from game.maps.level import load_level
from game.view import viewbuffer
from game.view.render import MapRenderer, TileImages, map_bounds, render_area

def write_map(folder: Path, cols: int, rows: int, offset: str = "", opacity: str = "",
              tile: int = 16, sky_cols: int | None = None) -> Path:
    """A generated map: an opaque "sky" over the left half only (so the renderer meets both
    opaque and transparent parts; ``sky_cols``: over that many columns from the left instead),
    sparse half-transparent "dirt" (a name that marks no collision: a layer named "ground"
    would be solid), a "tall" layer of images bigger than a cell (an image collection), then
    the object layer and a sparse "front".
    ``offset`` holds attributes for a group around the dirt layer, ``opacity`` for the layer;
    ``tile`` is the cell's size in px."""
    big = 5 * tile // 2  # the tall and the wide images: 2.5 cells long
    sheet = pygame.Surface((3 * tile, tile), pygame.SRCALPHA)
    sheet.fill((60, 90, 200, 255), (0, 0, tile, tile))  # 1: opaque
    sheet.fill((120, 80, 40, 255), (tile, 4, tile, tile - 4))  # 2: opaque below a gap
    sheet.fill((200, 160, 90, 120), (tile + 2, 0, tile - 4, 4))  # ... and a translucent lip
    sheet.fill((90, 200, 70, 100), (2 * tile, 0, tile, tile))  # 3: translucent
    pygame.image.save(sheet, str(folder / "sheet.png"))
    tall = pygame.Surface((tile, big), pygame.SRCALPHA)
    tall.fill((250, 250, 0, 255), (3, 0, tile - 6, big))
    pygame.image.save(tall, str(folder / "tall.png"))
    wide = pygame.Surface((big, tile), pygame.SRCALPHA)
    wide.fill((250, 0, 250, 200), (0, 5, big, 6))
    pygame.image.save(wide, str(folder / "wide.png"))

    def layer(lid: int, name: str, gid_at, attrs: str = "") -> str:
        cells = ",\n".join(",".join(str(gid_at(c, r)) for c in range(cols)) for r in range(rows))
        return (f' <layer id="{lid}" name="{name}" width="{cols}" height="{rows}"{attrs}>\n'
                f'  <data encoding="csv">\n{cells}\n</data>\n </layer>\n')

    text = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" '
        f'renderorder="right-down" width="{cols}" height="{rows}" tilewidth="{tile}" '
        f'tileheight="{tile}" infinite="0" nextlayerid="7" nextobjectid="2">\n'
        f' <tileset firstgid="1" name="sheet" tilewidth="{tile}" tileheight="{tile}" '
        f'tilecount="3" columns="3">\n'
        f'  <image source="sheet.png" width="{3 * tile}" height="{tile}"/>\n </tileset>\n'
        f' <tileset firstgid="4" name="big" tilewidth="{big}" tileheight="{big}" tilecount="2" '
        'columns="0">\n'
        '  <grid orientation="orthogonal" width="1" height="1"/>\n'
        f'  <tile id="0"><image source="tall.png" width="{tile}" height="{big}"/></tile>\n'
        f'  <tile id="1"><image source="wide.png" width="{big}" height="{tile}"/></tile>\n'
        ' </tileset>\n'
        + layer(1, "sky", lambda c, r: 1 if c < (cols // 2 if sky_cols is None else sky_cols)
                else 0)
        + f' <group id="6" name="shifted"{offset}>\n'
        + layer(2, "dirt", lambda c, r: 2 if (3 * c + 5 * r) % 11 == 0 else 0, opacity)
        + ' </group>\n'
        + layer(3, "tall", lambda c, r: (4, 5)[(c + r) % 2] if (c * 7 + r * 3) % 19 == 0 else 0)
        + ' <objectgroup id="4" name="objects">\n'
        '  <object id="1" name="spawn" type="player" x="24" y="24"><point/></object>\n'
        ' </objectgroup>\n'
        + layer(5, "front", lambda c, r: 3 if (c + 2 * r) % 13 == 0 else 0)
        + "</map>\n")
    path = folder / "generated.tmx"
    path.write_text(text)
    return path


def seen_over(surface: pygame.Surface, colour: tuple[int, int, int]) -> pygame.Surface:
    """The pixels of ``surface`` laid over a plain colour (what shows of a transparent one)."""
    out = pygame.Surface(surface.get_size())
    out.fill(colour)
    out.blit(surface, (0, 0))
    return out


def same_within_1(ours: pygame.Surface, want: pygame.Surface) -> bool:
    """No colour channel more than 1 apart (as tests/test_tiled.py allows against Tiled): a
    run-length encoded blit (SDL's) rounds translucent pixels apart from pygame's blend."""
    if pygame.image.tobytes(ours, "RGB") == pygame.image.tobytes(want, "RGB"):
        return True
    over, under = ours.copy(), want.copy()
    over.blit(want, (0, 0), special_flags=pygame.BLEND_RGB_SUB)  # ours - want, floored at 0
    under.blit(ours, (0, 0), special_flags=pygame.BLEND_RGB_SUB)
    over.blit(under, (0, 0), special_flags=pygame.BLEND_RGB_MAX)  # |ours - want|
    w, h = ours.get_size()
    return pygame.mask.from_threshold(over, (0, 0, 0), (2, 2, 2, 255)).count() == w * h


def drawn_and_whole(renderer: MapRenderer, whole: pygame.Surface, origin: tuple[int, int],
                    view: tuple[int, int], front: bool, sky: tuple[int, int, int]
                    ) -> tuple[pygame.Surface, pygame.Surface]:
    """A frame the renderer draws over the sky, and the same part of ``whole`` (the whole-map
    render of ``renderer.bounds``) over the sky."""
    ours = pygame.Surface(view)
    ours.fill(sky)
    renderer.draw(ours, origin, front)
    want = pygame.Surface(view)
    want.fill(sky)
    bounds = renderer.bounds
    want.blit(whole, (bounds.x - origin[0], bounds.y - origin[1]))
    return ours, want


@pytest.mark.parametrize("cols, rows", [pytest.param(200, 90, marks=pytest.mark.slow), (60, 30)],
                         ids=["scrolled", "whole map"])
def test_frames_match_the_whole_map_rendered_at_once(tmp_path, cols, rows):
    """Panning, jumping, views bigger than the map or partly off it, on a map bigger than the
    renderer keeps whole and on a small one: every frame, behind and in front, is the whole-map
    render's pixels at that place (translucent ones within 1 where the renderer blits
    run-length encoded), and off the map the target keeps what it had (the sky drawn under
    the map). On a transparent target, the same shows through."""
    level = load_level(write_map(tmp_path, cols, rows, ' offsetx="5" offsety="-6"',
                                 ' opacity="0.6"'))
    images = TileImages(level, convert=False)
    renderer = MapRenderer(level, images)
    assert renderer.has_front
    # the map grown by the tall tiles hanging above its top row: drawn, as Tiled draws them
    bounds = renderer.bounds
    assert bounds.contains(map_bounds(level)) and bounds.top < map_bounds(level).top
    whole = {front: render_area(level, images, bounds, front) for front in (False, True)}
    # Over the opaque sky, off it and back, in steps and jumps, partly or wholly off the map.
    origins = [(0, 0), (7, 3), (300, 130), (-40, -25), (611, 203), (-500, 9), (1000, 500)]
    origins += [(59 * k, 500 - 17 * k) for k in range(50)]
    origins += [(2900 - 71 * k, 19 * k) for k in range(40)]
    views = [(320, 240)] * len(origins) + [(4000, 1000), (100, 60), (320, 240)]
    origins += [(-300, -100), (250, 100), (256, 96)]
    sky = (255, 0, 255)
    for k, (origin, view) in enumerate(zip(origins, views)):
        for front in (False, True):
            ours, want = drawn_and_whole(renderer, whole[front], origin, view, front, sky)
            where = f"frame at {origin}, view {view}, front={front}"
            assert same_within_1(ours, want), where
            if k % 15 == 0:
                ours = pygame.Surface(view, pygame.SRCALPHA)
                renderer.draw(ours, origin, front)
                want = pygame.Surface(view, pygame.SRCALPHA)
                want.blit(whole[front], (bounds.x - origin[0], bounds.y - origin[1]))
                for colour in ((0, 0, 0), (255, 255, 255)):
                    assert same_within_1(seen_over(ours, colour), seen_over(want, colour)), where


def boustrophedon(width: int, height: int, view: tuple[int, int], step: int):
    """Origins that sweep a view over the whole map, row after row, left-right then back."""
    y, leftwards = 0, False
    while y < height:
        xs = list(range(0, max(1, width - view[0] + step), step))
        for x in reversed(xs) if leftwards else xs:
            yield x, y
        y, leftwards = y + view[1], not leftwards


PAN_SCRIPT = """
import resource, sys
from pathlib import Path
import pygame
from game.maps.level import load_level
from game.view.render import MapRenderer, TileImages
from tests.test_render_cache import boustrophedon

pygame.display.init()
view = (1280, 720)
screen = pygame.display.set_mode(view)
level = load_level(Path(sys.argv[1]))
renderer = MapRenderer(level, TileImages(level))
renderer.draw(screen, (0, 0))
renderer.draw_front(screen, (0, 0))
def peak():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux: KiB
before, most, frames = peak(), 0, 0
g = level.grid
for origin in boustrophedon(g.width_px, g.height_px, view, 320):
    renderer.draw(screen, origin)
    renderer.draw_front(screen, origin)
    most, frames = max(most, renderer.cache_bytes), frames + 1
print(peak() - before, most, frames)
"""


@pytest.mark.slow
def test_a_pan_over_the_whole_map_keeps_memory_within_a_bound_set_by_the_view(tmp_path):
    """In a fresh process at the benchmark's view size, sweep the view over every part of a
    map whose pixels are several times the bound: what the renderer keeps between frames never
    passes the bound, and the process's peak memory grows by far less than the map's pixels
    (a cache of everything seen would grow by all of them)."""
    view, cols, rows, tile = (1280, 720), 200, 160, 32
    cw, ch = viewbuffer.CELL
    # Two surfaces (behind and in front of the sprites), each the view plus the margin on
    # every side rounded up to the cell grid (the map is more than twice as big along both
    # axes, so neither holds the whole map's width or height); 4 bytes a pixel.
    bound = 2 * 4 * (view[0] + 2 * viewbuffer.MARGIN + cw) * (view[1] + 2 * viewbuffer.MARGIN + ch)
    map_bytes = cols * tile * rows * tile * 4
    assert cols * tile > 2 * (view[0] + 2 * viewbuffer.MARGIN + cw)
    assert rows * tile > 2 * (view[1] + 2 * viewbuffer.MARGIN + ch)
    assert map_bytes > 8 * bound
    path = write_map(tmp_path, cols, rows, tile=tile)
    root = Path(__file__).resolve().parent.parent
    out = subprocess.run([sys.executable, "-c", PAN_SCRIPT, str(path)], cwd=root,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    growth, most, frames = map(int, out.stdout.split())
    assert frames > 100
    assert 0 < most <= bound
    assert growth < 64e6 < map_bytes / 2, f"peak RSS grew by {growth / 1e6:.0f} MB"
