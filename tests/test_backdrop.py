"""Each level has its own backdrop (map property ``backdrop``); a wrong value is one error line;
maps with their own background keep it."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.cli import main
from game.maps.backdrop import BACKDROPS
from game.maps.level import load_level
from game.view.sprites import BACKDROP_FILES, Background

ROOT = Path(__file__).resolve().parent.parent
LEVELS = ROOT / "levels"


def test_every_shipped_level_has_a_backdrop_of_its_own():
    """Each level's sky differs from the one before it, so every level change changes it."""
    seen = {p.name: load_level(p).view.backdrop for p in sorted(LEVELS.glob("0*.tmx"))}
    assert seen == {"01_first_steps.tmx": "day", "02_every_tile.tmx": "dawn",
                    "03_moon_hop.tmx": "moon", "04_crowd.tmx": "dusk",
                    "05_features.tmx": "night", "06_ladders.tmx": "day"}


def test_every_backdrop_but_none_has_its_pictures():
    pygame.init()
    assert set(BACKDROP_FILES) == set(BACKDROPS) - {"none"}
    for name in BACKDROP_FILES:
        b = Background.named(name)
        assert b.sky.get_size() == (480, 270) and b.hills.get_size() == (480, 270)
        view = pygame.Surface((320, 180))
        b.draw(view, (0, 0), (1000, 400))
        colours = {tuple(view.get_at((x, y))) for x in range(0, 320, 8) for y in range(0, 180, 6)}
        assert len(colours) > 8  # a sky and hills, not a flat fill


def test_none_is_the_maps_own_colour():
    pygame.init()
    view = pygame.Surface((40, 30))
    Background.named("none", (10, 20, 30)).draw(view, (0, 0), (100, 100))
    assert {tuple(view.get_at((x, y)))[:3] for x in range(40) for y in range(30)} == {
        (10, 20, 30)}


def test_a_map_with_its_own_art_keeps_it():
    art = ROOT / "tests" / "data" / "formats" / "art.tmx"  # a background colour, image layers
    assert load_level(art).view.backdrop == "none"


def test_a_wrong_backdrop_is_one_error_line(tmp_path, capsys):
    text = (LEVELS / "03_moon_hop.tmx").read_text().replace('value="moon"', 'value="mars"')
    bad = LEVELS / "zz_test_backdrop.tmx"
    try:
        bad.write_text(text)
        rc = main(["--headless", "--ticks", "1", "--level", str(bad)])
    finally:
        bad.unlink()
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and "backdrop" in err[0] and "'mars'" in err[0]
    assert "moon" in err[0]  # the choices are named


@pytest.mark.parametrize("value", ["Moon", " moon "])
def test_the_name_is_read_in_any_case(value):
    from game.maps.backdrop import backdrop_of
    assert backdrop_of(Path("m.tmx"), {"backdrop": value}, False) == "moon"
