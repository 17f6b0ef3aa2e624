"""tools/make_placeholder_art.py: same file, same size, one flat bordered colour per tile."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from tools import make_placeholder_art as art

ROOT = Path(__file__).resolve().parent.parent


def noise(w: int, h: int) -> pygame.Surface:
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    for y in range(h):
        for x in range(w):
            surf.set_at((x, y), ((x * 37) % 256, (y * 53) % 256, (x * y) % 256, 255))
    return surf


def write_tileset(folder: Path, image: str, size: tuple[int, int], tile: int, margin: int,
                  spacing: int) -> Path:
    tsx = folder / "set.tsx"
    tsx.write_text(f'<?xml version="1.0" encoding="UTF-8"?>\n'
                   f'<tileset name="t" tilewidth="{tile}" tileheight="{tile}" margin="{margin}" '
                   f'spacing="{spacing}" tilecount="2" columns="2">\n'
                   f' <image source="{image}" width="{size[0]}" height="{size[1]}"/>\n'
                   f'</tileset>\n')
    return tsx


def test_a_sheet_becomes_bordered_flat_tiles_of_the_same_size(tmp_path: Path):
    pygame.image.save(noise(19, 10), str(tmp_path / "sheet.png"))
    tsx = write_tileset(tmp_path, "sheet.png", (19, 10), tile=8, margin=1, spacing=1)
    assert art.main([str(tsx)]) == 0
    out = pygame.image.load(str(tmp_path / "sheet.png"))
    assert out.get_size() == (19, 10)
    assert out.get_at((0, 0)).a == 0 and out.get_at((9, 5)).a == 0  # margin and spacing stay clear
    first, second = out.get_at((4, 4)), out.get_at((13, 4))
    assert first != second
    assert all(out.get_at((x, y)) == first for x in range(2, 8) for y in range(2, 8))
    border = out.get_at((1, 1))
    assert border.a == 255 and sum(border[:3]) < sum(first[:3])
    before = (tmp_path / "sheet.png").read_bytes()
    assert art.main([str(tsx)]) == 0
    assert (tmp_path / "sheet.png").read_bytes() == before  # repeatable


def test_a_gif_is_written_as_a_gif_that_reads_back_pixel_for_pixel(tmp_path: Path):
    """Enough tiles to fill GIF's 4096-entry LZW table more than once."""
    (tmp_path / "sheet.gif").write_bytes(b"")  # unreadable: the size comes from the XML
    tsx = write_tileset(tmp_path, "sheet.gif", (128, 96), tile=2, margin=0, spacing=0)
    assert art.main([str(tsx)]) == 0
    data = (tmp_path / "sheet.gif").read_bytes()
    assert data.startswith(b"GIF89a") and data.endswith(b"\x3B")
    expected = art.placeholder("sheet.gif", (128, 96), art.Grid(2, 2), colours=254)
    got = pygame.image.load(str(tmp_path / "sheet.gif"))
    assert got.get_size() == (128, 96)
    assert all(tuple(got.get_at((x, y)))[:3] == tuple(expected.get_at((x, y)))[:3]
               for x in range(128) for y in range(96))


def test_missing_only_fills_in_absent_images_and_leaves_the_rest(tmp_path: Path):
    pygame.image.save(noise(4, 4), str(tmp_path / "kept.png"))
    kept = (tmp_path / "kept.png").read_bytes()
    tmx = tmp_path / "map.tmx"
    tmx.write_text('<?xml version="1.0" encoding="UTF-8"?>\n'
                   '<map version="1.10" orientation="orthogonal" width="1" height="1" '
                   'tilewidth="4" tileheight="4">\n'
                   ' <imagelayer id="1" name="a"><image source="kept.png" width="4" height="4"/>'
                   '</imagelayer>\n'
                   ' <imagelayer id="2" name="b"><image source="gone.png" width="6" height="3"/>'
                   '</imagelayer>\n</map>\n')
    assert art.main(["--missing-only", str(tmx)]) == 0
    assert (tmp_path / "kept.png").read_bytes() == kept
    assert pygame.image.load(str(tmp_path / "gone.png")).get_size() == (6, 3)


@pytest.mark.parametrize("args, words", [
    ([], ["usage"]),
    (["no/such/map.tmx"], ["map.tmx", "no such file"]),
    (["--verbose", "x.tmx"], ["usage"]),
])
def test_mistakes_are_one_error_line(args, words):
    env = dict(os.environ, SDL_VIDEODRIVER="dummy")
    r = subprocess.run([sys.executable, "tools/make_placeholder_art.py", *args], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=60)
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and lines[0].startswith("error:"), r.stderr
    assert all(w in lines[0] for w in words)


def test_a_tileset_with_a_broken_size_is_one_error_line(tmp_path: Path, capsys):
    tsx = write_tileset(tmp_path, "sheet.png", (16, 16), tile=8, margin=0, spacing=0)
    tsx.write_text(tsx.read_text().replace('tilewidth="8"', 'tilewidth="eight"'))
    assert art.main([str(tsx)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error:") and "whole number" in err[0]
    assert not (tmp_path / "sheet.png").exists()
