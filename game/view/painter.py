"""Text and panels at window resolution, for the HUD, the debug view and banners.

A :class:`TextPainter` draws into the surface given to :meth:`TextPainter.begin` each frame:
text with a drop shadow, translucent panels behind it (so text reads over sky, clouds and dirt
alike), blocks of lines on one panel, a centred message. The images it makes are kept between
frames in a ``Recent`` (so a frame makes no surfaces), and what it drew where is recorded in
``drawn`` and ``panels``, so a test can check the layout without looking at pixels.

A panel and its text are one *card* (:meth:`TextPainter.card`): composed once into one image,
kept while it is shown, and put on the window with one blit a frame, not one per line and
shadow. The font's pixels are opaque or clear, so the card shows the same pixels as drawing its
parts one after the other.
"""

from __future__ import annotations

import pygame

from game.view.pixelfont import PixelFont
from game.view.surfaces import Recent
from game.view.text import wrap_text

PANEL = (12, 14, 28, 165)  # translucent dark panel behind text drawn over the level
SOLID_PANEL = (12, 14, 28, 245)  # nearly opaque: a message read over busy level art
SHADOW = (20, 20, 35)  # text's drop shadow
WHITE = (255, 255, 255)
Colour = tuple[int, int, int]


class TextPainter:
    def __init__(self, made: Recent) -> None:
        self.made = made
        self.surface: pygame.Surface | None = None
        self.font = self.small = None  # the large and the small font, sized by the window
        self._fonts_for = 0
        self._wrapped: dict[tuple, list[str]] = {}  # wrap_text's answers, kept between frames
        self.drawn: list[tuple[str, pygame.Rect]] = []  # this frame's text and the area it covers
        self.panels: list[pygame.Rect] = []  # this frame's panels
        self._card: list[tuple[tuple, pygame.Surface | None, pygame.Rect]] | None = None

    def begin(self, surface: pygame.Surface) -> None:
        """Start a frame's text on ``surface``: fonts for its height, nothing drawn yet."""
        self.surface = surface
        size = surface.get_height()
        if self._fonts_for != size:
            self.font, self.small = PixelFont.pair_for(size)  # the game's own pixel font
            self._fonts_for = size
        self.drawn.clear()
        self.panels.clear()

    def wrap(self, text: str, width: int, sep: str = " ", big: bool = False) -> list[str]:
        """wrap_text in the small font (the large one if ``big``), remembered between frames."""
        key = (text, width, self._fonts_for, sep, big)
        if key not in self._wrapped:
            if len(self._wrapped) > 16:
                self._wrapped.clear()
            self._wrapped[key] = wrap_text(self.font if big else self.small, text, width, sep)
        return self._wrapped[key]

    def width(self, font, text: str) -> int:
        """``font.size(text)[0]``, remembered while the text is shown."""
        return self.made.get(("width", font, text), lambda: font.size(text)[0])

    def text(self, font, text: str, pos: tuple[int, int], colour: Colour = WHITE,
             anchor: str = "topleft") -> pygame.Rect:
        """Text with a drop shadow; returns (and keeps in ``drawn``) the area both cover."""
        key = ("text", font, text, colour)
        img = self.made.get(key, lambda: shadowed(font, text, colour))
        w, h = img.get_size()
        covered = pygame.Rect(0, 0, w - 2, h - 2)  # the text's own area, placed by anchor
        setattr(covered, anchor, pos)
        covered.size = (w, h)
        self._put(key, img, covered)
        self.drawn.append((text, covered))
        return covered

    def panel(self, rect: pygame.Rect, colour: tuple[int, int, int, int] = PANEL) -> None:
        """A dark panel with rounded corners, translucent (``colour``'s alpha)."""
        if rect.width <= 0 or rect.height <= 0:
            return
        key = ("panel", rect.size, colour)
        if self._card is None:
            self.surface.blit(self.made.get(key, lambda: make_panel(rect.size, colour)), rect)
        else:
            self._card.append((key, None, rect))  # drawn into the card's image, not blended
        self.panels.append(rect)

    def _put(self, key: tuple, img: pygame.Surface, rect: pygame.Rect) -> None:
        if self._card is None:
            self.surface.blit(img, rect)
        else:
            self._card.append((key, img, rect))

    def card(self) -> TextPainter:
        """Panels and text drawn inside ``with painter.card():`` go on the surface as one image,
        made the first time this card is shown (the same parts at the same places) and kept
        while it is shown."""
        self._card = []
        return self

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc) -> None:
        parts, self._card = self._card, None
        if not parts or exc[0] is not None:
            return
        area = parts[0][2].unionall([r for _, _, r in parts[1:]])
        x, y = area.x, area.y
        layout = tuple([(key, r.x - x, r.y - y) for key, _, r in parts])
        img = self.made.get(("card", area.size, layout), lambda: compose(parts, area))
        self.surface.blit(img, area)

    def block(self, rows: list[tuple[str, Colour]], font, left: int, top: int,
              inner: int) -> pygame.Rect:
        """Lines of text on one panel, their top-left at (left, top); returns the panel."""
        width = max(self.width(font, text) for text, _ in rows) + 2
        line_h = font.get_linesize()
        panel = pygame.Rect(left - inner, top - inner, width + 2 * inner,
                            len(rows) * line_h + 2 * inner)
        with self.card():
            self.panel(panel)
            for i, (text, colour) in enumerate(rows):
                self.text(font, text, (left, top + i * line_h), colour)
        return panel

    def stack(self, rows: list[tuple[str, object, Colour]], top: int, inner: int, *,
              left: int = 0, across: int | None = None) -> int:
        """Lines each in its own font on one panel, from ``top`` down: at ``left``, or centred
        across a width ``across`` from the surface's left edge. Returns the text's bottom."""
        height = sum(f.get_linesize() for _, f, _ in rows)
        width = max(self.width(f, t) for t, f, _ in rows) + 2
        x = left if across is None else (across - width) // 2
        pos, anchor = (left, "topleft") if across is None else (across // 2, "midtop")
        with self.card():
            self.panel(pygame.Rect(x - inner, top - inner, width + 2 * inner,
                                   height + 2 * inner))
            for text, font, colour in rows:
                self.text(font, text, (pos, top), colour, anchor)
                top += font.get_linesize()
        return top

    def label(self, text: str, centre: tuple[int, int], colour: Colour, inner: int) -> None:
        """A message in the large font on its own panel, centred at ``centre``: a panel nearly
        opaque, so the message reads over whatever level art is behind it."""
        w, h = self.font.size(text)
        with self.card():
            self.panel(pygame.Rect(0, 0, w + 2 + 2 * inner, h + 2 * inner).move(
                centre[0] - w // 2 - inner, centre[1] - h // 2 - inner), SOLID_PANEL)
            self.text(self.font, text, centre, colour, "center")


def make_panel(size: tuple[int, int],
               colour: tuple[int, int, int, int] = PANEL) -> pygame.Surface:
    panel = pygame.Surface(size, pygame.SRCALPHA)
    draw_panel(panel, panel.get_rect(), colour)
    return panel


def draw_panel(surface: pygame.Surface, rect: pygame.Rect,
               colour: tuple[int, int, int, int] = PANEL) -> None:
    """The panel's pixels written into ``surface`` at ``rect`` (not blended with what is there)."""
    pygame.draw.rect(surface, colour, rect, border_radius=max(2, rect.height // 12))


def shadowed(font, text: str, colour: Colour) -> pygame.Surface:
    """``text`` in ``colour`` over its shadow 2 px down and right, on a clear image."""
    img = font.render(text, True, colour)
    out = pygame.Surface((img.get_width() + 2, img.get_height() + 2), pygame.SRCALPHA)
    out.blit(font.render(text, True, SHADOW), (2, 2))
    out.blit(img, (0, 0))
    return out


def compose(parts: list[tuple[tuple, pygame.Surface | None, pygame.Rect]],
            area: pygame.Rect) -> pygame.Surface:
    """A card's image: its panels' pixels written in, its text blitted over them, in order."""
    out = pygame.Surface(area.size, pygame.SRCALPHA)
    for key, img, rect in parts:
        at = rect.move(-area.x, -area.y)
        if img is None:
            draw_panel(out, at, key[2])
        else:
            out.blit(img, at)
    return out
