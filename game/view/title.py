"""The title screen: the game's name over a slowly panning level, the level list, the resolver.

Keys: Up/Down (W/S) choose a level, Left/Right (A/D) choose the resolver, Enter or Space plays,
Esc quits. The mouse works too: pointing at a level selects it, a click plays it, a click on the
resolver's arrows changes it. The screen only *asks* for a level (``handle_event`` returns a
:class:`Play`); the App loads it and, when that fails, puts the error line back on this screen.
"""

from __future__ import annotations

import json
import math
import os
import stat
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pygame

from game import resolvers
from game.maps.files import map_files
from game.maps.level import Level
from game.maps.limits import title_text
from game.runs.progress import Progress, time_text
from game.view.pixelfont import PixelFont
from game.view.render import MapRenderer, TileImages
from game.view.sprites import Background
from game.view.surfaces import Recent, blit_scaled
from game.view.text import fit_text, wrap_text
from game.view.window import view_size

GAME_NAME = "tilecollide"
TAGLINE = "a platformer on Tiled levels, and the ways games collide with tiles, side by side"
KEYS = ("Up/Down choose level", "Left/Right resolver", "Enter or Space play", "F11 fullscreen",
        "Esc quit")
IN_PLAY = ("in play: Esc back here", "P pause", "H all keys")
MAX_LEVELS = 500  # .tmx files listed (a folder of thousands is not a level set)
TITLE_HEAD = 16_000  # bytes of a .tmx read for its title (map properties come first)
JSON_TITLE_BYTES = 4_000_000  # the largest .tmj whose title is read (the whole file is)
PAN_SPEED = 18.0  # px/s of map the backdrop pans across
PANEL = (12, 14, 28, 210)
SELECTED = (255, 235, 150)
PLAIN = (225, 225, 240)
DIM = (170, 175, 200)
DONE = (120, 230, 140)
ERROR_BAR = (120, 20, 30)


@dataclass(frozen=True)
class LevelEntry:
    path: Path
    title: str


@dataclass(frozen=True)
class Play:
    """What the title asks the App for: start ``path`` with ``resolver``."""

    path: Path
    resolver: str


QUIT = "quit"


def list_levels(folder: Path) -> list[LevelEntry]:
    """The maps in ``folder`` (.tmx and .tmj) by file name (at most MAX_LEVELS), each with its
    title."""
    try:
        paths = map_files(folder)[:MAX_LEVELS]
    except OSError:
        return []
    return [LevelEntry(p.resolve(), read_title(p)) for p in paths]


def json_title(path: Path, fallback: str) -> str:
    """A JSON map's ``title`` property. Tiled writes a map's properties after its layers, so
    the whole file is read: only a map of at most JSON_TITLE_BYTES, else the file's name."""
    try:
        if os.stat(path).st_size > JSON_TITLE_BYTES:
            return fallback
        props = json.loads(path.read_bytes()).get("properties", [])
    except (OSError, ValueError, RecursionError, AttributeError):
        return fallback
    found = ([p.get("value") for p in props if isinstance(p, dict) and p.get("name") == "title"]
             if isinstance(props, list) else [props.get("title")] if isinstance(props, dict)
             else [])
    title = title_text(found[0]) if found and isinstance(found[0], str) else ""
    return title or fallback


def read_title(path: Path) -> str:
    """The map's ``title`` property as Level.title has it, read from the file's first bytes
    only; the file's name (``_`` as spaces) when there is none or the file cannot be read."""
    fallback = title_text(path.stem.replace("_", " "))
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # a pipe would block the title screen
            return fallback
        with open(path, "rb") as f:
            head = f.read(TITLE_HEAD)
    except (OSError, ValueError):
        return fallback
    if head.lstrip()[:1] == b"{":
        return json_title(path, fallback)
    if b"<!DOCTYPE" in head or b"<!ENTITY" in head:  # Tiled never writes these
        return fallback
    parser = ET.XMLPullParser(events=("start", "end"))
    depth = 0
    in_map_props = False
    try:
        parser.feed(head)
        for event, el in parser.read_events():
            if event == "end":
                depth -= 1
                if in_map_props and el.tag == "properties" and depth == 1:
                    return fallback  # the map's properties have no title
                continue
            depth += 1
            if depth == 1 and el.tag != "map":
                return fallback
            if depth == 2:
                if el.tag != "properties":
                    return fallback  # past the map's properties, which Tiled writes first
                in_map_props = True
            elif depth == 3 and in_map_props and el.tag == "property" and (
                    el.get("name") == "title"):
                title = el.get("value")
                if title is None:
                    title = el.text or ""
                return title_text(title) or fallback
    except ET.ParseError:
        pass
    return fallback


class Backdrop:
    """A level drawn behind the title, panning slowly from side to side at its spawn's height
    (the spawn two thirds down the view, so the ground it stands on shows)."""

    def __init__(self, level: Level, images: TileImages,
                 renderer: MapRenderer | None = None) -> None:
        self.level = level
        self.renderer = renderer or MapRenderer(level, images)
        self.t = 0.0

    def origin(self, view: tuple[int, int]) -> tuple[int, int]:
        g = self.level.grid
        span_x = g.width_px - view[0]
        if span_x > 0:
            # Across and back, slowing at each end (a cosine), one way taking span / speed s.
            period = span_x / (PAN_SPEED * self.level.physics_scale)  # as fast in tiles
            x = round(span_x * (1 - math.cos(math.pi * self.t / period)) / 2)
        else:
            x = span_x // 2
        if g.height_px > view[1]:
            feet = self.level.spawn.y + self.level.spawn.h
            y = min(max(0, round(feet - view[1] * 2 / 3)), g.height_px - view[1])
        else:
            y = (g.height_px - view[1]) // 2
        return x, y

    def draw(self, scene: pygame.Surface, background: Background) -> None:
        origin = self.origin(scene.get_size())
        g = self.level.grid
        if self.level.view.background is not None:
            scene.fill(self.level.view.background)
        else:
            background.draw(scene, origin, (g.width_px, g.height_px))
        self.renderer.draw(scene, origin)
        self.renderer.draw_front(scene, origin)


class TitleScreen:
    def __init__(self, levels_dir: Path, selected: Path | None, resolver: str,
                 progress: Progress, backdrop: Backdrop | None) -> None:
        self.levels_dir = levels_dir
        self.levels = list_levels(levels_dir)
        self.progress = progress  # the levels finished and their best times (remembered)
        self.backdrop = backdrop
        names = resolvers.names()
        self.resolver = resolver if resolver in names else names[0]
        self.index = 0
        if selected is not None:
            want = Path(selected).resolve()
            self.index = next((i for i, e in enumerate(self.levels) if e.path == want), 0)
        self.error_line: str | None = None
        self.t = 0.0
        # What the last draw put where, for the mouse and for tests.
        self.row_rects: list[tuple[int, pygame.Rect]] = []
        self.arrow_rects: dict[int, pygame.Rect] = {}
        self.drawn_text: list[str] = []
        self._fonts_for = 0
        self._rendered: dict[tuple, tuple[pygame.Surface, pygame.Surface]] = {}  # text images
        self._panels: dict[tuple[int, int], pygame.Surface] = {}  # panels, by size
        self._scene: pygame.Surface | None = None
        self._scaling = Recent()  # the surfaces a fractional scale draws through

    @property
    def physics_scale(self) -> float:
        """The physics scale of the level drawn behind (1 without one): the window's scale for
        it shows as much of it as play does (game.view.window.map_scale)."""
        return self.backdrop.level.physics_scale if self.backdrop is not None else 1.0

    # --- choosing -------------------------------------------------------------------------------
    @property
    def selected(self) -> LevelEntry | None:
        return self.levels[self.index] if self.levels else None

    def move(self, step: int) -> None:
        if self.levels:
            self.index = (self.index + step) % len(self.levels)

    def cycle_resolver(self, step: int) -> None:
        names = resolvers.names()
        i = names.index(self.resolver) if self.resolver in names else 0
        self.resolver = names[(i + step) % len(names)]

    def play(self) -> Play | None:
        entry = self.selected
        return Play(entry.path, self.resolver) if entry else None

    def handle_event(self, e: pygame.event.Event) -> Play | str | None:
        """What the App should do for ``e``: a Play, QUIT, or None (handled here, or ignored)."""
        if e.type == pygame.KEYDOWN:
            k = e.key
            if k == pygame.K_ESCAPE:
                return QUIT
            if k in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
                return self.play()
            if k in (pygame.K_UP, pygame.K_w):
                self.move(-1)
            elif k in (pygame.K_DOWN, pygame.K_s):
                self.move(1)
            elif k in (pygame.K_LEFT, pygame.K_a):
                self.cycle_resolver(-1)
            elif k in (pygame.K_RIGHT, pygame.K_d):
                self.cycle_resolver(1)
            elif k == pygame.K_HOME:
                self.index = 0
            elif k == pygame.K_END and self.levels:
                self.index = len(self.levels) - 1
        elif e.type == pygame.MOUSEMOTION:
            hit = self._row_at(e.pos)
            if hit is not None:
                self.index = hit
        elif e.type == pygame.MOUSEBUTTONDOWN and e.button == 1:
            hit = self._row_at(e.pos)
            if hit is not None:
                self.index = hit
                return self.play()
            for step, rect in self.arrow_rects.items():
                if rect.collidepoint(e.pos):
                    self.cycle_resolver(step)
        elif e.type == pygame.MOUSEWHEEL:
            self.move(-e.y)
        return None

    def _row_at(self, pos: tuple[int, int]) -> int | None:
        return next((i for i, rect in self.row_rects if rect.collidepoint(pos)), None)

    def update(self, dt: float) -> None:
        self.t += dt
        if self.backdrop is not None:
            self.backdrop.t += dt

    # --- drawing --------------------------------------------------------------------------------
    def _fonts(self, win_h: int) -> None:
        size = win_h
        if self._fonts_for != size:  # the game's own pixel font, in whole-pixel scales
            self.font, self.small = PixelFont.pair_for(win_h)
            self.big = PixelFont(max(3, win_h // 100))
            self._fonts_for = size
            self._rendered.clear()

    def _text(self, window, font, text, pos, colour=PLAIN, anchor="topleft") -> pygame.Rect:
        key = (id(font), text, colour)
        if key not in self._rendered:
            if len(self._rendered) > 200:
                self._rendered.clear()
            self._rendered[key] = (font.render(text, True, colour),
                                   font.render(text, True, (20, 20, 35)))
        img, shadow = self._rendered[key]
        rect = img.get_rect(**{anchor: pos})
        window.blit(shadow, rect.move(2, 2))
        window.blit(img, rect)
        self.drawn_text.append(text)
        return rect

    def _panel(self, window, rect: pygame.Rect) -> None:
        panel = self._panels.get(rect.size)
        if panel is None:  # made once a size (the window's size sets them)
            if len(self._panels) > 8:
                self._panels.clear()
            panel = self._panels[rect.size] = pygame.Surface(rect.size, pygame.SRCALPHA)
            pygame.draw.rect(panel, PANEL, panel.get_rect(),
                             border_radius=max(4, rect.height // 40))
        window.blit(panel, rect)

    def draw(self, window: pygame.Surface, scale: float, background: Background) -> None:
        win_w, win_h = window.get_size()
        self.drawn_text = []
        self.row_rects = []
        self.arrow_rects = {}
        self._fonts(win_h)
        # The backdrop at the game's pixel scale (``scale``: for its level, as in play); a dark
        # fill without a level.
        if self.backdrop is not None:
            view = view_size((win_w, win_h), scale)
            if self._scene is None or self._scene.get_size() != view:
                self._scene = pygame.Surface(view)
            self.backdrop.draw(self._scene, background)
            blit_scaled(self._scene, scale, window, self._scaling)
        else:
            window.fill((24, 28, 48))
        pad = max(10, win_h // 40)

        # The name, with a little bob, and the tagline.
        bob = round(math.sin(self.t * 2.0) * win_h / 180)
        name_rect = self._text(window, self.big, GAME_NAME, (win_w // 2, pad + bob),
                               (255, 240, 170), "midtop")
        # Everything below is placed from where the name stands still, so the list does not
        # bob with it (what the player points at must not move).
        still = name_rect.bottom - bob
        self._text(window, self.small, fit_text(self.small, TAGLINE, win_w - 2 * pad),
                   (win_w // 2, still + pad // 3), (235, 235, 250), "midtop")
        top = still + pad // 3 + self.small.get_linesize() + pad

        # The bottom: the keys, and above them an error bar when a level failed to load.
        key_h = self.small.get_linesize()
        key_lines = _pack(self.small, KEYS, win_w - 2 * pad) + _pack(self.small, IN_PLAY,
                                                                     win_w - 2 * pad)
        keys_top = win_h - pad - len(key_lines) * key_h
        bottom = keys_top - pad
        error_lines = []
        if self.error_line:
            error_lines = wrap_text(self.small, self.error_line, win_w - 2 * pad,
                                    cut_long=True)[:4]
            bar_h = len(error_lines) * key_h + pad
            bar = pygame.Rect(0, bottom - bar_h, win_w, bar_h)
            window.fill(ERROR_BAR, bar)
            for i, line in enumerate(error_lines):
                self._text(window, self.small, line, (pad, bar.top + pad // 2 + i * key_h))
            bottom = bar.top - pad // 2
        self._panel(window, pygame.Rect(0, keys_top - pad // 2, win_w, win_h - keys_top + pad))
        for i, line in enumerate(key_lines):
            self._text(window, self.small, line, (win_w // 2, keys_top + i * key_h), DIM,
                       "midtop")

        # The middle panel: the levels, then the resolver and what it does.
        line_h = self.font.get_linesize()
        inner = pad
        width = min(win_w - 2 * pad, max(win_w * 11 // 20, 420))
        left = (win_w - width) // 2
        d = resolvers.describe(self.resolver)
        slopes = "slopes" if d["slopes"] else "slopes as boxes"
        summary = wrap_text(self.small, f"{d['summary']}; {d['axis_order']}; {slopes}",
                            width - 2 * inner, cut_long=True)[:4]
        # What fits between the tagline and the keys: the heading, the resolver line, one
        # level, then as much of the summary as fits, then more levels.
        small_h = self.small.get_linesize()
        room = bottom - top - 2 * inner - pad - 3 * line_h
        summary = summary[:max(0, room // small_h)]
        room -= len(summary) * small_h
        shown = max(1, min(len(self.levels), 1 + room // line_h)) if self.levels else 1
        resolver_h = line_h + len(summary) * small_h
        first = min(max(0, self.index - shown // 2), max(0, len(self.levels) - shown))
        height = 2 * inner + line_h + shown * line_h + pad + resolver_h
        box = pygame.Rect(left, top, width, height)
        self._panel(window, box)
        y = top + inner
        done = self.progress.count_done(e.path for e in self.levels)
        finished = f", {done} finished" if done else ""
        self._text(window, self.small,
                   f"Levels  ({len(self.levels)} in {self.levels_dir.name}/{finished})",
                   (left + inner, y + (line_h - self.small.get_linesize()) // 2), DIM)
        y += line_h
        if not self.levels:
            self._text(window, self.font, f"no .tmx files in {self.levels_dir}",
                       (left + inner, y), (255, 180, 180))
        for i in range(first, min(len(self.levels), first + shown)):
            entry = self.levels[i]
            row = pygame.Rect(left + inner // 2, y, width - inner, line_h)
            chosen = i == self.index
            if chosen:
                hl = pygame.Surface(row.size, pygame.SRCALPHA)
                pygame.draw.rect(hl, (255, 235, 150, 50), hl.get_rect(), border_radius=4)
                window.blit(hl, row)
            colour = SELECTED if chosen else PLAIN
            marker = ">" if chosen else " "
            self._text(window, self.font, f"{marker} {i + 1}.", (left + inner, y), colour)
            number_w = self.font.size("> 00.  ")[0]
            best = self.progress.best_time(entry.path)
            best_text = f"best {time_text(best)}" if best is not None else ""
            best_w = self.font.size(best_text)[0] if best_text else 0
            title = fit_text(self.font, entry.title,
                             width - 2 * inner - number_w - best_w - inner)
            self._text(window, self.font, title, (left + inner + number_w, y), colour)
            if best_text:
                self._text(window, self.font, best_text, (left + width - inner, y), DONE,
                           "topright")
            self.row_rects.append((i, row))
            y += line_h
        if len(self.levels) > shown:
            more = f"{first + 1}-{first + shown} of {len(self.levels)}"
            self._text(window, self.small, more, (left + width - inner, top + inner), DIM,
                       "topright")
        y += pad
        pygame.draw.line(window, (90, 95, 130), (left + inner, y - pad // 2),
                         (left + width - inner, y - pad // 2))
        label = self._text(window, self.font, "resolver:", (left + inner, y), DIM)
        prev = self._text(window, self.font, "<", (label.right + inner, y), SELECTED)
        name = self._text(window, self.font, self.resolver, (prev.right + inner // 2, y),
                          SELECTED)
        nxt = self._text(window, self.font, ">", (name.right + inner // 2, y), SELECTED)
        self.arrow_rects = {-1: prev.inflate(inner, inner // 2),
                            1: nxt.inflate(inner, inner // 2)}
        y += line_h
        for line in summary:
            self._text(window, self.small, line, (left + inner, y), PLAIN)
            y += self.small.get_linesize()


def _pack(font, items: tuple[str, ...], width: int) -> list[str]:
    """``items`` joined by three spaces into as few lines as fit ``width`` px."""
    lines: list[str] = []
    for item in items:
        if lines and font.size(f"{lines[-1]}   {item}")[0] <= width:
            lines[-1] = f"{lines[-1]}   {item}"
        else:
            lines.append(item)
    return lines
