"""The HUD: what is written over the scene, at window resolution. Quiet: small text, so the
scene stays the thing to look at.

Top left, one line: the level, and its coins and checkpoint (on a level with them); top right,
the resolver's name in its colour and the help key. Either corner gives way when the player is
under it: its text moves to the bottom corner below (the camera also follows a jump before it
reaches the top: game.sim.camera). Over each ghost, its name (ghosts at one spot share a row).
From the bottom edge up: the error bar, the help (H, which also says what the resolver does),
and the clock's state (paused, slow motion, a demo playing; under the top line instead when the
player stands where it would be). With the debug view on, its numbers and the key to its
colours, at the side that hides neither the player nor, where it can, the ghosts. In the
middle, "Oops! Respawning..." and the banner; at the goal, the end-of-level card (the time and
the best, coins, deaths, the resolver, what comes next) over the scene dimmed a little, clear of
the player.

:func:`draw_hud` takes everything it shows in one :class:`HudInfo` and draws with a
``TextPainter``, which records each text's area and each panel, so the layout is checked in
tests without looking at pixels.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pygame

from game import resolvers
from game.sim.world import World
from game.runs.progress import Summary, time_text
from game.view.banners import DONE_COLOUR, Banner
from game.view.debug import draw_legend, legend_height, legend_width
from game.view.living import hud_line
from game.view.loop import SPEED_NAMES
from game.view.painter import SOLID_PANEL, TextPainter
from game.view.text import fit_text

ERROR_BAR = (120, 20, 30)
NOTE_BAR = (30, 50, 100)  # what the loader guessed about a map, for a while after it loads
NOTE_TIME = 10.0  # s the notes bar stays
HINT = "H help"
SOFT = (220, 220, 235)  # secondary text
GOLD = (255, 235, 150)  # the resolver, the clock's notes
FLOW = (150, 235, 160)  # coins and checkpoint
RESPAWN = (255, 200, 200)
HELP = ("arrows/WASD move   Space/Up/W/Z jump   Down+jump drop through   X/F throw spear   "
        "Tab resolver   G ghosts   F3 debug   R reload   Backspace restart   Home first level   "
        "P pause   . one tick (paused)   T slow motion 1/2 1/4 1/8   Esc title screen   "
        "F11 fullscreen   M sound on/off   -/+ volume   "
        "Gamepad: stick/d-pad move   A jump   X throw   LB/RB resolver   Start pause   "
        "Back restart")
PAUSED_KEYS = ("'.' one tick   P resume   Esc title screen   Q quit   Backspace restart   "
               "Home first level")


@dataclass
class HudInfo:
    """Everything the HUD shows in one frame."""

    world: World
    scale: float  # window px per scene px (ghost labels come in scene px)
    ghost_labels: list[tuple[str, tuple[int, int], tuple[int, int, int]]] = field(
        default_factory=list)  # name, its feet's top centre in scene px, colour
    error: str | None = None  # the error bar's text
    show_help: bool = False
    debug_rows: list[tuple[str, tuple[int, int, int]]] | None = None  # None: debug view off
    banner: Banner | None = None  # shown if given (the caller checks it is still up)
    paused: bool = False
    speed: int = 0  # index into game.view.loop.SPEEDS
    demo: bool = False  # an input script is playing
    player: pygame.Rect | None = None  # where the player is drawn, window px: kept uncovered
    notes: tuple[str, ...] = ()  # what the loader guessed about this map, shown for a while
    card: Summary | None = None  # the end-of-level card: how the run went


@dataclass
class Layout:
    """Spacing for a window size: the margin, the gap from text to its panel's edge, the small
    font's line height."""

    win_w: int
    win_h: int
    pad: int
    inner: int
    line_h: int

    @classmethod
    def of(cls, painter: TextPainter) -> Layout:
        win_w, win_h = painter.surface.get_size()
        pad = max(8, win_h // 60)
        return cls(win_w, win_h, pad, max(4, pad // 2), painter.small.get_linesize())


def draw_hud(painter: TextPainter, surface: pygame.Surface, info: HudInfo) -> int:
    """Draw the HUD; returns how far down the top corners' text reaches (window px)."""
    painter.begin(surface)
    lay = Layout.of(painter)
    names = _ghost_names(painter, lay, info)
    bottom = lay.win_h  # what is drawn at the bottom stacks upward from the bottom edge
    if info.error:
        bottom = _error_bar(painter, lay, info.error)
    note = None
    if info.notes:
        more = len(info.notes) - 1
        note = f"note: {info.notes[0]}" + (f"  (and {more} more: see the terminal)" if more
                                          else "")
        height = _bar_height(painter, lay, note)
        if not _covers(pygame.Rect(0, bottom - height, lay.win_w, height), info.player, lay.pad):
            bottom = _error_bar(painter, lay, note, bottom, NOTE_BAR)
            note = None
    top_h = _corners(painter, lay, info, bottom)
    below_top = top_h + lay.inner
    if note is not None:
        # The player stands where the notes bar would be (a map whose floor is the window's
        # bottom): it goes under the top line instead, as the clock's panel does.
        below_top = _error_bar(painter, lay, note, colour=NOTE_BAR,
                               top=below_top) + lay.inner
    if info.show_help:
        bottom = _help(painter, lay, bottom, info.world)
    clock = _clock_lines(painter, info, lay.win_w - 2 * lay.pad - 2 * lay.inner)
    clock_top = bottom - _clock_height(lay, clock)
    if clock and _covers(pygame.Rect(0, clock_top, lay.win_w, bottom - clock_top), info.player,
                         lay.pad):
        # The player stands where the clock's panel would be (a floor at the window's bottom):
        # the panel goes under the top line instead, so their feet stay in sight while stepping.
        below_top = _clock(painter, lay, clock, top=below_top + lay.inner) + lay.inner
    else:
        _clock(painter, lay, clock, bottom=bottom)
        bottom = clock_top
    if info.debug_rows is not None:
        # what the resolver does, cut to the numbers' width (the whole line is in the help)
        width = max([painter.width(painter.small, t) for t, _ in info.debug_rows]
                    + [lay.win_w // 3])
        what = fit_text(painter.small, explain(info.world.resolver.name), width)
        # the key goes beside the numbers rather than under the clock's panel
        _debug(painter, lay, [(what, GOLD), *info.debug_rows], below_top, bottom,
               info.scale, info.player, _ghost_boxes(info) + names)
    if info.world.player.respawning:
        painter.label("Oops! Respawning...", (lay.win_w // 2, lay.win_h // 3), RESPAWN,
                      lay.inner)
    if info.banner is not None:
        painter.label(info.banner.text, (lay.win_w // 2, lay.win_h // 4), info.banner.colour,
                      lay.inner)
    if info.card is not None:
        _card(painter, lay, info.card, info.player, below_top, bottom)
    return top_h


CARD_DONE = "All levels done!"
CARD_COMPLETE = "Level complete!"
CARD_VEIL = (8, 10, 20, 110)  # the scene dimmed behind the card, so it reads as set apart
NEW_BEST = "new best!"
GO_ON = "Enter: on now"


def card_rows(card: Summary) -> list[tuple[str, str, tuple[int, int, int]]]:
    """The card's lines under its heading: (label, value, the value's colour)."""
    if card.best_before is None:
        best = ("first finish", GOLD)
    elif card.new_best:
        best = (f"{NEW_BEST} (was {time_text(card.best_before)})", GOLD)
    else:
        best = (f"best {time_text(card.best_before)}", SOFT)
    rows = [("time", f"{time_text(card.time)}   {best[0]}", best[1])]
    if card.coins is not None:
        taken, total = card.coins
        rows.append(("coins", f"{taken} / {total}", FLOW if taken == total else SOFT))
    rows.append(("deaths", str(card.deaths), SOFT))
    label = "resolver" if len(card.resolvers) == 1 else "resolvers"
    rows.append((label, ", ".join(card.resolvers), resolvers.COLOURS.get(card.resolvers[-1], GOLD)
                 if len(card.resolvers) == 1 else SOFT))
    where = "back to" if card.wrapped else "next"
    rows.append((where, card.next_title, (255, 255, 255)))
    rows.append(("finished", f"{card.done} of {card.total} levels", FLOW if card.all_done
                 else SOFT))
    return rows


def _card(painter: TextPainter, lay: Layout, card: Summary, player: pygame.Rect | None,
          top: int, bottom: int) -> None:
    """The end-of-level card: how the run went, over the scene dimmed a little; centred across,
    in the upper half, or the lower half when the player is there."""
    font, small = painter.font, painter.small
    pad, inner = lay.pad, lay.inner
    heading = CARD_DONE if card.all_done else CARD_COMPLETE
    rows = card_rows(card)
    label_w = max(painter.width(small, label) for label, _, _ in rows) + 2 * pad
    width = max([painter.width(font, heading), painter.width(small, card.title),
                 painter.width(small, GO_ON)]
                + [label_w + painter.width(small, value) for _, value, _ in rows]) + 2
    height = font.get_linesize() + (len(rows) + 2) * lay.line_h + pad
    box = pygame.Rect(0, 0, width + 4 * inner, height + 4 * inner)
    box.centerx = lay.win_w // 2
    box.centery = top + (bottom - top) * 2 // 5
    if player is not None and box.colliderect(player.inflate(2 * pad, 2 * pad)):
        box.top = max(top, player.bottom + pad) if player.centery < lay.win_h // 2 else box.top
        if box.colliderect(player.inflate(2 * pad, 2 * pad)):
            box.bottom = min(bottom, player.top - pad)
    veil = painter.made.get(("veil", painter.surface.get_size()),
                            lambda: _veil(painter.surface.get_size()))
    painter.surface.blit(veil, (0, 0))
    x, y = box.left + 2 * inner, box.top + 2 * inner
    with painter.card():
        painter.panel(box, SOLID_PANEL)
        painter.text(font, heading, (box.centerx, y), DONE_COLOUR, "midtop")
        y += font.get_linesize()
        painter.text(small, card.title, (box.centerx, y), SOFT, "midtop")
        y += lay.line_h + pad // 2
        for label, value, colour in rows:
            painter.text(small, label, (x, y), SOFT)
            painter.text(small, value, (x + label_w, y), colour)
            y += lay.line_h
        painter.text(small, GO_ON, (box.centerx, y + pad // 2), SOFT, "midtop")


def _veil(size: tuple[int, int]) -> pygame.Surface:
    veil = pygame.Surface(size, pygame.SRCALPHA)
    veil.fill(CARD_VEIL)
    return veil


def _covers(area: pygame.Rect, player: pygame.Rect | None, margin: int) -> bool:
    """Would ``area`` cover the player (``margin`` px round them)?"""
    return player is not None and area.colliderect(player.inflate(2 * margin, 2 * margin))


GHOST_PX = 16  # scene px: a ghost's picture (times the map's physics scale), under the top
# centre its label is given at


def _ghost_boxes(info: HudInfo) -> list[pygame.Rect]:
    """Where each ghost is drawn, window px (from its label's place: the top of its picture)."""
    s = info.scale
    size = GHOST_PX * info.world.level.physics_scale
    return [pygame.Rect(round((gx - size / 2) * s), round(gy * s), round(size * s),
                        round(size * s)) for _, (gx, gy), _ in info.ghost_labels]


def _ghost_names(painter: TextPainter, lay: Layout, info: HudInfo) -> list[pygame.Rect]:
    """Each ghost's name above its head (scene px to window px). Ghosts drawn at one spot
    (within a pixel) share one row, their names side by side, each in its colour; rows that
    would overlap move up; a row is kept inside the window. Returns the rows' areas."""
    s = info.scale
    spots: list[tuple[tuple[int, int], list[tuple[str, tuple[int, int, int]]]]] = []
    for name, (gx, gy), colour in info.ghost_labels:
        spot = next((names for (x, y), names in spots
                     if abs(x - gx) <= 1 and abs(y - gy) <= 1), None)
        if spot is None:
            spots.append(((gx, gy), [(name, colour)]))
        else:
            spot.append((name, colour))
    gap = painter.width(painter.small, "  ")
    window = painter.surface.get_rect()
    taken: list[pygame.Rect] = []
    for (gx, gy), names in spots:
        widths = [painter.width(painter.small, name) for name, _ in names]
        r = pygame.Rect(0, 0, sum(widths) + gap * (len(names) - 1) + 4, lay.line_h)
        r.midbottom = (round(gx * s), round(gy * s) - 2)
        r.clamp_ip(window)  # by the map's edge the row would begin (or end) off the window
        while r.collidelist(taken) >= 0:
            r.move_ip(0, -lay.line_h)
        taken.append(r)
        x = r.left + 2
        for (name, colour), w in zip(names, widths):
            painter.text(painter.small, name, (x, r.bottom), colour, "bottomleft")
            x += w + gap
    return taken


def _corners(painter: TextPainter, lay: Layout, info: HudInfo, bottom: int) -> int:
    """The two top corners: the level (coins, checkpoint) at the left, the resolver and the help
    key at the right, one small line each. A corner the player is under moves to the bottom.
    Returns the bottom of the top line."""
    w = info.world
    pad, inner, line_h = lay.pad, lay.inner, lay.line_h
    small = painter.small
    left = [(w.level.title, (255, 255, 255))]
    flow = hud_line(w)  # coins and checkpoint, on a level with them
    if flow:
        left.append((flow, FLOW))
    right = [(w.resolver.name, resolvers.COLOURS.get(w.resolver.name, GOLD)), (HINT, SOFT)]
    gap = painter.width(small, "   ")
    top_line = pad + line_h + inner
    placed: list[pygame.Rect] = []
    for items, at_left in ((left, True), (right, False)):
        width = sum(painter.width(small, t) for t, _ in items) + gap * (len(items) - 1)
        x = pad if at_left else lay.win_w - pad - width
        y = pad
        box = pygame.Rect(x - inner, y - inner, width + 2 * inner, line_h + 2 * inner)
        if box.collidelist(placed) >= 0:  # a window too narrow for both: one under the other
            y += line_h + 2 * inner
            box.y = y - inner
            top_line = max(top_line, box.bottom)
        if info.player is not None and box.colliderect(info.player):
            y = bottom - pad - line_h  # out of the player's way: the bottom corner
            box.y = y - inner
        placed.append(box)
        with painter.card():
            painter.panel(box)
            for text, colour in items:
                painter.text(small, text, (x, y), colour)
                x += painter.width(small, text) + gap
    return top_line


def _bar_lines(painter: TextPainter, lay: Layout, text: str) -> list[str]:
    return painter.wrap(text, lay.win_w - 2 * lay.pad)[:4]


def _bar_height(painter: TextPainter, lay: Layout, text: str) -> int:
    return len(_bar_lines(painter, lay, text)) * lay.line_h + 2 * lay.pad


def _error_bar(painter: TextPainter, lay: Layout, error: str, bottom: int | None = None,
               colour=ERROR_BAR, top: int | None = None) -> int:
    """The error bar (or, in another colour, the notes bar) across the window, over
    ``bottom``; returns its top. Given ``top``, it hangs from there instead and returns its
    bottom."""
    pad, line_h = lay.pad, lay.line_h
    lines = _bar_lines(painter, lay, error)
    height = len(lines) * line_h + 2 * pad
    hangs = top is not None
    if top is None:
        top = (lay.win_h if bottom is None else bottom) - height
    bar = pygame.Rect(0, top, lay.win_w, height)
    painter.surface.fill(colour, bar)
    for i, line in enumerate(lines):
        painter.text(painter.small, line, (pad, bar.top + pad + i * line_h))
    return bar.bottom if hangs else bar.top


def explain(name: str) -> str:
    """What a resolver does, in one line: its summary, its axis order, slopes."""
    d = resolvers.describe(name)
    slopes = "slopes" if d["slopes"] else "slopes as boxes"
    return f"{name}: {d['summary']}; {d['axis_order']}; {slopes}"


def _help(painter: TextPainter, lay: Layout, bottom: int, world: World) -> int:
    """Every key, and what the resolver does, centred above ``bottom``. Returns the top of its
    panel."""
    pad, inner, line_h, win_w = lay.pad, lay.inner, lay.line_h, lay.win_w
    width = win_w - 2 * pad - 2 * inner - 2
    lines = painter.wrap(explain(world.resolver.name), width) + painter.wrap(HELP, width, "   ")
    top = bottom - pad - len(lines) * line_h
    widest = max(painter.width(painter.small, line) for line in lines) + 2
    with painter.card():
        painter.panel(pygame.Rect((win_w - widest) // 2 - inner, top - inner,
                                  widest + 2 * inner, len(lines) * line_h + 2 * inner))
        for i, line in enumerate(lines):
            painter.text(painter.small, line, (win_w // 2, top + i * line_h), anchor="midtop")
    return top - inner


def _debug(painter: TextPainter, lay: Layout, rows, below_top: int, bottom: int,
           scale: float, player: pygame.Rect | None = None,
           ghosts: list[pygame.Rect] = ()) -> None:
    """The debug numbers and the key to the debug view's colours, under the top left block:
    one above the other where there is room, else side by side; at the right edge instead
    when on the left they would cover the player (``player``: where it is drawn), whose hitbox
    and probed cells are what the debug view is for, or more of the ghosts and their names
    (``ghosts``: their areas) than at the right."""
    pad, inner, line_h = lay.pad, lay.inner, lay.line_h
    small = painter.small
    nums = pygame.Rect(pad - inner, below_top, max(painter.width(small, t) for t, _ in rows)
                       + 2 + 2 * inner, len(rows) * small.get_linesize() + 2 * inner)
    key = pygame.Rect(0, 0, legend_width(painter) + 2 * inner, legend_height(line_h, inner))
    stacked = nums.bottom + pad // 2 + key.h <= bottom
    if stacked:
        key.topleft = (nums.left, nums.bottom + pad // 2)
    else:
        key.topleft = (nums.right + pad // 2, nums.top)
    # At the right edge, as far from it as the left ones are from theirs: one above the other
    # each flush right, side by side moved together.
    edge = lay.win_w - (pad - inner)
    right = ([nums.move(edge - nums.right, 0), key.move(edge - key.right, 0)] if stacked else
             [r.move(edge - max(nums.right, key.right), 0) for r in (nums, key)])

    def hidden(boxes) -> tuple[bool, int]:  # (covers the player, ghosts covered)
        return (player is not None and player.inflate(2 * pad, 2 * pad).collidelist(boxes) >= 0,
                sum(g.collidelist(boxes) >= 0 for g in ghosts))

    if hidden(right) < hidden([nums, key]):
        nums, key = right
    painter.block(rows, small, nums.x + inner, nums.y + inner, inner)
    draw_legend(painter, key.x + inner, key.y + inner, inner, max(1, round(scale)))


def _clock(painter: TextPainter, lay: Layout, state: list, *, bottom: int | None = None,
           top: int | None = None) -> int:
    """The clock's state (:func:`_clock_lines`) above ``bottom``, or from ``top`` down.
    Returns the text's bottom."""
    if not state:
        return top if top is not None else bottom
    height = sum(f.get_linesize() for _, f, _ in state)
    if top is None:
        top = bottom - lay.pad - height
    return painter.stack(state, top, lay.inner, across=lay.win_w)


def _clock_height(lay: Layout, state: list) -> int:
    """How far above the bottom the clock's panel reaches, its border in (0: no panel)."""
    if not state:
        return 0
    return sum(f.get_linesize() for _, f, _ in state) + lay.pad + lay.inner


def _clock_lines(painter: TextPainter, info: HudInfo, width: int) -> list:
    """The clock's state: paused (the scene stays live: '.' steps it), slow motion, a demo
    playing; (text, font, colour) a line, each wrapped to ``width`` px."""
    state = []
    if info.paused:
        state.append((f"Paused at tick {info.world.tick}", painter.font, (255, 255, 255)))
        state.append((PAUSED_KEYS, painter.small, SOFT))
    if info.speed:
        nxt = "slower" if info.speed < len(SPEED_NAMES) - 1 else "full speed"
        state.append((f"slow motion {SPEED_NAMES[info.speed]}  (T: {nxt})", painter.small,
                      GOLD))
    if info.demo:
        state.append(("demo: playing the input script (a key takes over)", painter.small, GOLD))
    return [(piece, font, colour) for text, font, colour in state
            for piece in painter.wrap(text, width, "   ", big=font is painter.font)]
