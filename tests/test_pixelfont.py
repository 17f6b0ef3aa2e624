"""The game's pixel font: every printable ASCII character has a glyph, sizes agree with what is
drawn, colours and scales apply, and a character the font lacks still draws (never lost)."""

from __future__ import annotations

import string

import pygame
import pytest

from game.view.pixelfont import CELL_H, GLYPHS, LINE_H, SPACE_W, PixelFont, parse_glyphs

PRINTABLE = [c for c in string.printable if c not in string.whitespace] + [" "]


@pytest.fixture(autouse=True, scope="module")
def _pygame():
    pygame.init()
    yield


def ink(surface: pygame.Surface) -> int:
    return sum(1 for x in range(surface.get_width()) for y in range(surface.get_height())
               if surface.get_at((x, y)).a)


def test_every_printable_ascii_character_has_a_glyph_with_ink():
    missing = [c for c in PRINTABLE if c != " " and c not in GLYPHS]
    assert missing == []
    font = PixelFont(1)
    for c in PRINTABLE:
        if c != " ":
            assert ink(font.render(c, False, (255, 255, 255))) > 0, c


def test_glyph_rows_keep_to_the_cell():
    for c, rows in GLYPHS.items():
        assert len(rows) == CELL_H and len({len(r) for r in rows}) == 1, c
        assert set("".join(rows)) <= {"#", "."}, c
    # descenders live below the baseline, capitals do not
    assert "#" in GLYPHS["g"][7] + GLYPHS["g"][8]
    assert "#" not in GLYPHS["A"][7] + GLYPHS["A"][8]


def test_a_malformed_table_line_is_refused():
    with pytest.raises(ValueError, match="rows of one width"):
        parse_glyphs("A ### #. ### ### ### ### ###")


@pytest.mark.parametrize("scale", [1, 2, 3])
def test_size_matches_what_render_draws(scale):
    font = PixelFont(scale)
    for text in ["a platformer", "Coins 3/16", "i", "mm", "x y"]:
        img = font.render(text, True, (200, 100, 50))
        assert img.get_size() == font.size(text)
        assert font.size(text)[1] == CELL_H * scale
    assert font.get_linesize() == LINE_H * scale
    # "a platformer" is two words, not "a plat former": the only gap wider than a letter gap is
    # the space
    assert font.size("ab")[0] < font.size("a b")[0] == font.size("ab")[0] + (SPACE_W + 1) * scale


def test_scale_multiplies_every_pixel():
    one, three = PixelFont(1).render("Hi", False, (255, 255, 255)), PixelFont(3).render(
        "Hi", False, (255, 255, 255))
    assert three.get_width() == one.get_width() * 3
    assert ink(three) == ink(one) * 9


def test_colour_is_applied_and_background_fills():
    img = PixelFont(2).render("I", False, (10, 200, 30))
    colours = {tuple(img.get_at((x, y))) for x in range(img.get_width())
               for y in range(img.get_height()) if img.get_at((x, y)).a}
    assert colours == {(10, 200, 30, 255)}
    bg = PixelFont(2).render("I", False, (10, 200, 30), (0, 0, 0))
    assert bg.get_at((0, bg.get_height() - 1))[:3] == (0, 0, 0)


def test_a_character_the_font_lacks_still_draws():
    font = PixelFont(2)
    img = font.render("\u00e9", False, (255, 255, 255))
    assert img.get_height() == CELL_H * 2 and ink(img) > 0


def test_pair_for_grows_with_the_window_in_whole_steps():
    big, small = PixelFont.pair_for(720)
    assert (big.scale, small.scale) == (3, 2)
    assert [f.scale for f in PixelFont.pair_for(1080)] == [4, 3]
    assert [f.scale for f in PixelFont.pair_for(180)] == [1, 1]


@pytest.mark.parametrize("char", ["\x00", "\udcff", "\ud800"])
def test_a_character_pygame_cannot_render_draws_as_a_question_mark(char):
    """A NUL, or half a surrogate pair (a file name that is not UTF-8, a JSON escape), reaches
    the error bar in a path or a note; pygame's font refuses it (before: a traceback that closed
    the window)."""
    font = PixelFont(1)
    assert font.size(f"a{char}b") == font.size("a?b")
    assert ink(font.render(f"a{char}b", False, (255, 255, 255))) > 0
