"""The game's own pixel font: 5x7 capitals, lower case with descenders, drawn to match the 16 px
tile art, and scaled by whole pixels so it stays as crisp as the tiles.

The glyphs are the project's own work, released like its other art (``assets/LICENSE.md``). Each line
of :data:`GLYPH_TABLE` is a character and its rows, top to bottom, ``#`` for ink: 7 rows from the
cap line to the baseline, and 2 more for the letters that hang below it (g, j, p, q, y, comma).
A glyph is as wide as its rows, so the font is proportional (``i`` is 1 px, ``m`` 5 px).

:class:`PixelFont` answers the three questions the view asks of a ``pygame.font.Font`` --
``size``, ``render`` and ``get_linesize`` -- so either can be used where text is drawn. A
character the table lacks (a level title in another script, a symbol) is drawn by pygame's
default font at the same height, so no text is ever lost.
"""

from __future__ import annotations

import pygame

CELL_H = 9  # rows of a glyph: 7 above the baseline, 2 below
LINE_H = 11  # a line of text: the glyph and 2 rows of leading
SPACE_W = 3  # the width of a space, before the 1 px gap every glyph gets
GAP = 1  # px between glyphs

# char rows... (a row per token; all tokens of one glyph have the same width)
GLYPH_TABLE = r"""
! # # # # # . #
" #.# #.# ... ... ... ... ...
# .#.#. .#.#. ##### .#.#. ##### .#.#. .#.#.
$ ..#.. .#### #.#.. .###. ..#.# ####. ..#..
% ##..# ##..# ...#. ..#.. .#... #..## #..##
& .##.. #..#. #.#.. .#... #.#.# #..#. .##.#
' # # . . . . .
( ..# .#. #.. #.. #.. .#. ..#
) #.. .#. ..# ..# ..# .#. #..
* ..... ..#.. #.#.# .###. #.#.# ..#.. .....
+ ..... ..#.. ..#.. ##### ..#.. ..#.. .....
, .. .. .. .. .. .# .# #.
- .... .... .... #### .... .... ....
. . . . . . . #
/ ....# ....# ...#. ..#.. .#... #.... #....
0 .###. #...# #..## #.#.# ##..# #...# .###.
1 .#. ##. .#. .#. .#. .#. ###
2 .###. #...# ....# ...#. ..#.. .#... #####
3 ####. ....# ....# .###. ....# ....# ####.
4 ...#. ..##. .#.#. #..#. ##### ...#. ...#.
5 ##### #.... ####. ....# ....# #...# .###.
6 ..##. .#... #.... ####. #...# #...# .###.
7 ##### ....# ...#. ..#.. .#... .#... .#...
8 .###. #...# #...# .###. #...# #...# .###.
9 .###. #...# #...# .#### ....# ...#. .##..
: . . # . . # .
; .. .. .# .. .. .# .# #.
< .... ...# ..#. .#.. ..#. ...# ....
= .... .... #### .... #### .... ....
> .... #... .#.. ..#. .#.. #... ....
? .###. #...# ....# ...#. ..#.. ..... ..#..
@ .###. #...# #.### #.#.# #.### #.... .####
A .###. #...# #...# ##### #...# #...# #...#
B ####. #...# #...# ####. #...# #...# ####.
C .###. #...# #.... #.... #.... #...# .###.
D ####. #...# #...# #...# #...# #...# ####.
E ##### #.... #.... ####. #.... #.... #####
F ##### #.... #.... ####. #.... #.... #....
G .###. #...# #.... #.### #...# #...# .####
H #...# #...# #...# ##### #...# #...# #...#
I ### .#. .#. .#. .#. .#. ###
J ..### ...#. ...#. ...#. ...#. #..#. .##..
K #...# #..#. #.#.. ##... #.#.. #..#. #...#
L #.... #.... #.... #.... #.... #.... #####
M #...# ##.## #.#.# #.#.# #...# #...# #...#
N #...# #...# ##..# #.#.# #..## #...# #...#
O .###. #...# #...# #...# #...# #...# .###.
P ####. #...# #...# ####. #.... #.... #....
Q .###. #...# #...# #...# #.#.# #..#. .##.#
R ####. #...# #...# ####. #.#.. #..#. #...#
S .#### #.... #.... .###. ....# ....# ####.
T ##### ..#.. ..#.. ..#.. ..#.. ..#.. ..#..
U #...# #...# #...# #...# #...# #...# .###.
V #...# #...# #...# #...# #...# .#.#. ..#..
W #...# #...# #...# #.#.# #.#.# #.#.# .#.#.
X #...# #...# .#.#. ..#.. .#.#. #...# #...#
Y #...# #...# .#.#. ..#.. ..#.. ..#.. ..#..
Z ##### ....# ...#. ..#.. .#... #.... #####
[ ### #.. #.. #.. #.. #.. ###
\ #.... #.... .#... ..#.. ...#. ....# ....#
] ### ..# ..# ..# ..# ..# ###
^ ..#.. .#.#. #...# ..... ..... ..... .....
_ ..... ..... ..... ..... ..... ..... #####
` #. .# .. .. .. .. ..
a ..... ..... .###. ....# .#### #...# .####
b #.... #.... ####. #...# #...# #...# ####.
c .... .... .### #... #... #... .###
d ....# ....# .#### #...# #...# #...# .####
e ..... ..... .###. #...# ##### #.... .###.
f ..## .#.. #### .#.. .#.. .#.. .#..
g ..... ..... .#### #...# #...# #...# .#### ....# .###.
h #.... #.... ####. #...# #...# #...# #...#
i # . # # # # #
j ..# ... .## ..# ..# ..# ..# ..# ##.
k #... #... #..# #.#. ##.. #.#. #..#
l #. #. #. #. #. #. .#
m ..... ..... ##.#. #.#.# #.#.# #.#.# #.#.#
n ..... ..... ####. #...# #...# #...# #...#
o ..... ..... .###. #...# #...# #...# .###.
p ..... ..... ####. #...# #...# #...# ####. #.... #....
q ..... ..... .#### #...# #...# #...# .#### ....# ....#
r .... .... #.## ##.. #... #... #...
s ..... ..... .#### #.... .###. ....# ####.
t .#.. .#.. #### .#.. .#.. .#.. ..##
u ..... ..... #...# #...# #...# #...# .####
v ..... ..... #...# #...# #...# .#.#. ..#..
w ..... ..... #...# #...# #.#.# #.#.# .#.#.
x ..... ..... #...# .#.#. ..#.. .#.#. #...#
y ..... ..... #...# #...# #...# #...# .#### ....# .###.
z ..... ..... ##### ...#. ..#.. .#... #####
{ ..# .#. .#. #.. .#. .#. ..#
| # # # # # # #
} #.. .#. .#. ..# .#. .#. #..
~ ..... ..... .#... #.#.# ...#. ..... .....
\u2713 ..... ....# ...#. #..#. .#.#. ..#.. .....
\u2717 ..... #...# .#.#. ..#.. .#.#. #...# .....
\u2026 ..... ..... ..... ..... ..... ..... #.#.#
\u00d7 ..... ..... #...# .#.#. ..#.. .#.#. #...#
\u2192 ..... ..#.. ...#. ##### ...#. ..#.. .....
\u2190 ..... ..#.. .#... ##### .#... ..#.. .....
\u00b7 . . . # . . .
"""


def parse_glyphs(table: str) -> dict[str, tuple[str, ...]]:
    """The table's glyphs: char -> its rows (9, the missing lower ones blank)."""
    glyphs: dict[str, tuple[str, ...]] = {}
    for line in table.strip("\n").splitlines():
        key, *rows = line.split(" ")
        char = key.encode().decode("unicode_escape") if key.startswith("\\u") else key
        width = len(rows[0])
        if not 7 <= len(rows) <= CELL_H or any(len(r) != width for r in rows):
            raise ValueError(f"glyph {char!r}: 7 to {CELL_H} rows of one width, not {rows}")
        glyphs[char] = tuple(rows) + ("." * width,) * (CELL_H - len(rows))
    return glyphs


GLYPHS = parse_glyphs(GLYPH_TABLE)


class PixelFont:
    """Text in the pixel font, every font pixel ``scale`` screen pixels square."""

    def __init__(self, scale: int) -> None:
        self.scale = max(1, int(scale))
        self._masks: dict[str, pygame.Surface] = {}  # char -> white glyph at scale
        self._fallback: pygame.font.Font | None = None

    @classmethod
    def pair_for(cls, window_height: int) -> tuple[PixelFont, PixelFont]:
        """(the text font, the small font) for a window this tall: whole-pixel scales that grow
        with the window like the game's pixel art (3 at 720 px, 4 at 1080), the small one a
        step down."""
        big = max(1, round(window_height / 270))
        return cls(big), cls(max(1, big - 1))

    def get_linesize(self) -> int:
        return LINE_H * self.scale

    def get_height(self) -> int:
        return CELL_H * self.scale

    def _glyph(self, char: str) -> pygame.Surface:
        mask = self._masks.get(char)
        if mask is None:
            mask = self._masks[char] = self._draw(char)
        return mask

    def _draw(self, char: str) -> pygame.Surface:
        s = self.scale
        if char == " ":
            return pygame.Surface((SPACE_W * s, CELL_H * s), pygame.SRCALPHA)
        rows = GLYPHS.get(char)
        if rows is None:
            return self._fallback_glyph(char)
        img = pygame.Surface((len(rows[0]) * s, CELL_H * s), pygame.SRCALPHA)
        for y, row in enumerate(rows):
            for x, ink in enumerate(row):
                if ink == "#":
                    img.fill((255, 255, 255, 255), (x * s, y * s, s, s))
        return img

    def _fallback_glyph(self, char: str) -> pygame.Surface:
        if self._fallback is None:
            if not pygame.font.get_init():
                pygame.font.init()
            self._fallback = pygame.font.Font(None, CELL_H * self.scale * 4 // 3)
        # a character pygame cannot render (NUL, half a surrogate pair from a file name that is
        # not UTF-8) is drawn as '?'
        img = self._fallback.render(char if char.isprintable() else "?", False,
                                    (255, 255, 255))
        out = pygame.Surface((img.get_width(), CELL_H * self.scale), pygame.SRCALPHA)
        out.blit(img, (0, 0))
        return out

    def size(self, text: str) -> tuple[int, int]:
        if not text:
            return 0, self.get_height()
        width = sum(self._glyph(c).get_width() for c in text) + GAP * self.scale * (len(text) - 1)
        return width, self.get_height()

    def render(self, text: str, antialias: bool = False, colour=(255, 255, 255),
               background=None) -> pygame.Surface:
        """``text`` in ``colour`` on a transparent surface (or on ``background``). ``antialias``
        is accepted for ``pygame.font.Font``'s signature; pixels have no edges to smooth."""
        w, h = self.size(text)
        out = pygame.Surface((max(1, w), h), pygame.SRCALPHA)
        x = 0
        for c in text:
            g = self._glyph(c)
            out.blit(g, (x, 0))
            x += g.get_width() + GAP * self.scale
        out.fill((*colour[:3], 255), special_flags=pygame.BLEND_RGBA_MULT)
        if background is not None:
            under = pygame.Surface(out.get_size())
            under.fill(background)
            under.blit(out, (0, 0))
            return under
        return out
