"""``lab.png``: the collision lab's picture, one panel per scenario with each resolver's path over
the map's tile kinds (the results come from :mod:`game.runs.lab`)."""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from game import resolvers
from game.errors import UserError
from game.maps.grid import EMPTY, ONE_WAY, SLOPE, SOLID, TileGrid
from game.runs.lab import Outcome, Scenario


def png_of(results, out) -> bytes:
    """The picture of ``results`` as PNG bytes; a UserError naming ``out`` if it cannot be drawn
    (then nothing is written)."""
    try:
        png = io.BytesIO()
        pygame.image.save(draw(results), png, "lab.png")
    except (pygame.error, MemoryError) as exc:
        raise UserError(out, f"cannot draw lab.png ({exc}); nothing was written") from None
    return png.getvalue()


# lab.png stays bounded whatever the maps: a panel shows a map at SCALE when that fits in
# PANEL_PX on both sides; a larger map is cropped to the paths and goals (with MARGIN_TILES of
# map round them) and scaled down until it fits. Panels go THREE to a row, and rows stop before the
# picture is IMAGE_MAX_H tall (the rest are in lab.md and lab.json): at most about 2,000 x 6,700
# px, some 55 MB while it is drawn, however large or many the maps.
SCALE, PANEL_PX, MARGIN_TILES, THREE, IMAGE_MAX_H = 2, 640, 4, 3, 6000
DETAIL_PX = 3  # tiles drawn at least this many px wide get their shapes; smaller ones, a dot each


@dataclass(frozen=True)
class View:
    """The part of a map a panel shows: its top-left (x, y) and size in map px, and the scale."""

    x: float
    y: float
    w: float
    h: float
    scale: float

    @property
    def size(self) -> tuple[int, int]:
        return max(1, math.ceil(self.w * self.scale)), max(1, math.ceil(self.h * self.scale))


def view_of(s: Scenario, outcomes: Sequence[Outcome]) -> View:
    """The whole map at SCALE if it fits in PANEL_PX; else the paths and goals, cropped and
    scaled down to fit."""
    g = s.level.grid
    if g.width_px * SCALE <= PANEL_PX and g.height_px * SCALE <= PANEL_PX:
        return View(0.0, 0.0, g.width_px, g.height_px, SCALE)
    boxes = [b for o in outcomes for b in o.path] + [(r.x, r.y, r.w, r.h) for r in s.level.goals]
    mx, my = MARGIN_TILES * g.tile_w, MARGIN_TILES * g.tile_h
    x0 = max(0.0, min(x for x, _, _, _ in boxes) - mx)
    y0 = max(0.0, min(y for _, y, _, _ in boxes) - my)
    x1 = min(float(g.width_px), max(x + w for x, _, w, _ in boxes) + mx)
    y1 = min(float(g.height_px), max(y + h for _, y, _, h in boxes) + my)
    w, h = max(x1 - x0, 1.0), max(y1 - y0, 1.0)
    return View(x0, y0, w, h, min(SCALE, PANEL_PX / w, PANEL_PX / h))


def draw(results) -> pygame.Surface:
    """lab.png: one panel per scenario, the map's tile kinds and each resolver's path over it
    (bounded: see PANEL_PX)."""
    pygame.font.init()
    font = pygame.font.Font(None, 20)
    pad, head, legend_h = 10, 60, 36
    views = [view_of(s, outcomes) for s, outcomes in results]
    sizes = [v.size for v in views]
    cw = max([w for w, _ in sizes] + [340]) + 2 * pad
    row_h: list[int] = []
    for r in range(max(1, -(-len(results) // THREE))):
        h = max((h for _, h in sizes[r * THREE:(r + 1) * THREE]), default=0) + head + pad
        if row_h and legend_h + sum(row_h) + h > IMAGE_MAX_H:
            break
        row_h.append(h)
    shown = min(len(results), len(row_h) * THREE)
    row_y = [sum(row_h[:r]) for r in range(len(row_h))]
    labels = [font.render(name, True, resolvers.colour(name)) for name in resolvers.names()]
    note = "path of the body's centre; box: where it ended; yellow: goal"
    if shown < len(results):
        note += f"; the first {shown} of {len(results)} scenarios (lab.md has them all)"
    note_text = font.render(note, True, (200, 200, 200))
    legend_w = pad + sum(54 + label.get_width() for label in labels) + 10 + note_text.get_width()
    img = pygame.Surface((max(cw * min(THREE, max(1, len(results))), legend_w + pad),
                          legend_h + sum(row_h)))
    img.fill((24, 26, 34))
    x = pad
    for name, label in zip(resolvers.names(), labels):
        pygame.draw.line(img, resolvers.colour(name), (x, 18), (x + 24, 18), 3)
        img.blit(label, (x + 30, 10))
        x += 54 + label.get_width()
    img.blit(note_text, (x + 10, 10))
    for i in range(shown):
        (s, outcomes), v = results[i], views[i]
        ox, oy = (i % THREE) * cw + pad, legend_h + row_y[i // THREE]
        cropped = "" if v.w * v.h == s.level.grid.width_px * s.level.grid.height_px else (
            f"; cropped, 1:{1 / v.scale:.3g}" if v.scale < 1 else "; cropped")
        img.blit(font.render(f"{s.name}", True, (240, 240, 240)), (ox, oy + 2))
        img.blit(font.render(f"goal {'expected' if s.expect_goal else 'not expected'}; "
                             f"{s.measure}{cropped}", True, (170, 170, 170)), (ox, oy + 20))
        oy += head
        img.blit(_panel(s, outcomes, v), (ox, oy))
        x = ox
        for o in outcomes:  # the verdicts, each in its resolver's colour
            text = font.render(f"{o.resolver} {'ok' if o.ok else 'WRONG'}", True,
                               resolvers.colour(o.resolver))
            img.blit(text, (x, oy - 20))
            x += text.get_width() + 10
    return img


def _panel(s: Scenario, outcomes: Sequence[Outcome], v: View):
    """One scenario's map (the part ``v`` shows) with every resolver's path over it."""
    panel = pygame.Surface(v.size)
    panel.fill((50, 56, 72))
    _draw_tiles(panel, s.level.grid, v)
    sc = v.scale
    for goal in s.level.goals:
        pygame.draw.rect(panel, (255, 210, 60), ((goal.x - v.x) * sc, (goal.y - v.y) * sc,
                                                 goal.w * sc, goal.h * sc), 2)
    for n, o in enumerate(outcomes):
        colour = resolvers.colour(o.resolver)
        shift = (n - len(outcomes) // 2)  # a px apart, so equal paths stay visible
        pts = [((x + w_ / 2 - v.x) * sc + shift, (y + h_ / 2 - v.y) * sc + shift)
               for x, y, w_, h_ in o.path]
        if len(pts) > 1:
            pygame.draw.lines(panel, colour, False, pts, 1)
        x, y, w_, h_ = o.path[-1]
        pygame.draw.rect(panel, colour, ((x - v.x) * sc, (y - v.y) * sc, max(1.0, w_ * sc),
                                         max(1.0, h_ * sc)), 1)
    return panel


TILE_COLOURS = {ONE_WAY: (170, 120, 60), SLOPE: (140, 140, 150), SOLID: (140, 140, 150)}


def _draw_tiles(panel: pygame.Surface, g: TileGrid, v: View) -> None:
    """The tiles in view: with their shapes when large enough, else one pixel a tile scaled."""
    sc = v.scale
    c0, c1 = math.floor(v.x / g.tile_w), min(g.cols, math.ceil((v.x + v.w) / g.tile_w))
    r0, r1 = math.floor(v.y / g.tile_h), min(g.rows, math.ceil((v.y + v.h) / g.tile_h))
    tw, th = g.tile_w * sc, g.tile_h * sc
    if min(tw, th) < DETAIL_PX:
        cells = b"".join(g.kinds[r * g.cols + c0:r * g.cols + c1] for r in range(r0, r1))
        dots = pygame.image.frombytes(cells, (c1 - c0, r1 - r0), "P")
        dots.set_palette([(50, 56, 72)] + [TILE_COLOURS.get(k, (50, 56, 72)) for k in (1, 2, 3)]
                         + [(0, 0, 0)] * 252)
        size = (max(1, round((c1 - c0) * tw)), max(1, round((r1 - r0) * th)))
        panel.blit(pygame.transform.scale(dots, size),
                   ((c0 * g.tile_w - v.x) * sc, (r0 * g.tile_h - v.y) * sc))
        return
    for row in range(r0, r1):
        for col in range(c0, c1):
            k = g.kind(col, row)
            if k == EMPTY:
                continue
            x0, y0 = (col * g.tile_w - v.x) * sc, (row * g.tile_h - v.y) * sc
            if k == ONE_WAY:
                pygame.draw.rect(panel, TILE_COLOURS[ONE_WAY], (x0, y0, tw, max(2, th // 4)))
            elif k == SLOPE:
                left, right = g.slope_heights(col, row)
                pygame.draw.polygon(panel, TILE_COLOURS[SLOPE], [
                    (x0, y0 + th), (x0, y0 + th - left * sc),
                    (x0 + tw, y0 + th - right * sc), (x0 + tw, y0 + th)])
            else:
                pygame.draw.rect(panel, TILE_COLOURS[SOLID], (x0, y0, tw, th))
                pygame.draw.rect(panel, (110, 110, 120), (x0, y0, tw, th), 1)
