"""``--render-map`` against Tiled's own ``tmxrasterizer``, for every shipped level and every map
of the corpus of real public maps (tests/data/real_maps), orthogonal, isometric, staggered and
hexagonal: at most 1% of the pixels may differ (maps of every orientation with more of what
Tiled draws: tests/test_render_projected.py).

What Tiled is shown, and why it is a copy of the map: tests/tiledpicture.py. In short: object
shapes (Tiled's editor marks), and the objects the game brings to life, are left out; Tiled
1.8's gaps (Tiled 1.9 sub-rectangles, background colour, templates' tilesets) are filled.

A pixel counts as different when a channel is more than :data:`TOLERANCE` apart. Tiled (Qt)
composes translucent layers on premultiplied 8-bit colour, SDL on straight alpha: over a
layer of opacity 0.36 they round apart by 2 levels (sticker-knight's shading layer), which is
no difference anyone sees.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pygame
import pytest

import tiledpicture as tp
from game.cli import main
from game.maps.level import load_level

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "data" / "real_maps"
MANIFEST = tomllib.loads((CORPUS / "manifest.toml").read_text("utf-8"))["map"]
LEVELS = {p.stem: p for p in sorted((ROOT / "levels").glob("*.tm[xj]"))}
REAL = {k: CORPUS / m["path"] for k, m in sorted(MANIFEST.items())}
TOLERANCE = 2
MOST = 0.01  # of the picture's pixels


def tool() -> str:
    from test_tiled import tiled_tool
    return tiled_tool("tmxrasterizer")


def render_map(path: Path, out: Path, seconds: float = 0.0) -> pygame.Surface:
    args = ["--render-map", str(path), "--out", str(out)]
    if seconds:
        args += ["--time", str(seconds)]
    assert main(args) == 0
    return pygame.image.load(str(out))


def compare(path: Path, tmp_path: Path, ms: int = 0) -> None:
    pygame.init()
    ours = render_map(path, tmp_path / "ours.png", ms / 1000)
    ref = tp.tiled_picture(tool(), tp.tiled_copy(path, tmp_path), tmp_path / "tiled.png", ms)
    assert ours.get_size() == ref.get_size(), "the picture's size is not Tiled's"
    background = load_level(path, play=False).view.background
    bad = tp.differing(ours, ref, background, TOLERANCE)
    total = ours.get_width() * ours.get_height()
    assert bad <= MOST * total, f"{bad} of {total} pixels differ ({100 * bad / total:.2f}%)"


@pytest.mark.tiled
@pytest.mark.parametrize("path", LEVELS.values(), ids=LEVELS.keys())
def test_shipped_levels_render_as_tiled_draws_them(path, tmp_path):
    compare(path, tmp_path)


@pytest.mark.tiled
@pytest.mark.parametrize("path", REAL.values(), ids=REAL.keys())
def test_real_maps_render_as_tiled_draws_them(path, tmp_path):
    compare(path, tmp_path)


@pytest.mark.tiled
@pytest.mark.parametrize("key,ms", [("demon-dasher-level01", 150), ("demon-dasher-level01", 420),
                                    ("tiled-forest", 170), ("tiled-forest", 310)])
def test_animations_render_as_tiled_advances_them(key, ms, tmp_path):
    """demon-dasher's dungeon tiles flip every 200 ms and its balls run through seven frames of
    150 ms; forest's squirrel (a tile object) through two of 150 ms."""
    compare(REAL[key], tmp_path, ms)


def test_the_copy_leaves_out_shapes_and_bodies_and_cuts_sub_rectangles(tmp_path):
    """What Tiled is shown of a map: forest has Tiled 1.9 sub-rectangles and a start object."""
    copy = tp.tiled_copy(REAL["tiled-forest"], tmp_path)
    import xml.etree.ElementTree as ET
    root = ET.parse(copy).getroot()
    assert not [o for o in root.iter("object") if o.get("gid") is None or o.get("type")]
    tiles = [t for t in root.iter("tile") if t.find("image") is not None]
    assert tiles and not [t for t in tiles if t.get("x") or t.get("width")]
    pygame.init()
    part = pygame.image.load(tiles[1].find("image").get("source"))
    assert part.get_size() == (160, 208)  # tile 6's sub-rectangle, not the 1024x1024 sheet


def test_differing_counts_what_differs_beyond_the_tolerance():
    a = pygame.Surface((4, 300), pygame.SRCALPHA)
    b = a.copy()
    b.set_at((1, 1), (0, 0, 9, 0))  # under zero alpha: clear all the same
    b.set_at((2, 2), (2, 0, 0, 0))
    a.fill((100, 100, 100, 255), (0, 290, 4, 10))
    b.fill((102, 100, 100, 255), (0, 290, 4, 10))  # 2 apart: within
    b.set_at((3, 299), (103, 100, 100, 255))  # 3 apart, in the second strip
    assert tp.differing(a, b, tolerance=2) == 1
    assert tp.differing(a, b, tolerance=1) == 40
    assert tp.differing(a, b, background=(100, 100, 100), tolerance=2) == 1 + 4 * 290 - 0


@pytest.mark.tiled
@pytest.mark.parametrize("ms", [0, 170, 440])
def test_the_benchmarks_lively_map_renders_as_tiled_draws_it(ms, tmp_path):
    """tools/bench_scenario.py's lively map (parallax, animated tiles, tile objects), as the
    benchmark times it."""
    from tools import bench_scenario as S
    (tmp_path / "maps").mkdir()
    compare(S.write_lively_tmx(tmp_path / "maps" / "lively.tmx", 40, 24), tmp_path, ms)
