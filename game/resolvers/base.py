"""What every resolver shares: the body and contact records, the interface, and the mover.

A resolver answers one question: a box at (x, y) wants to move by (dx, dy) this tick; where does
it end up, and what did it touch? It returns the new position and a :class:`Contacts` record. It
never nudges the body to ask questions, and it never changes velocity: the player reads the
contacts and decides.

:func:`move_body` is the one entry point the simulation calls. Around any resolver it adds what
is the same for all of them:

* the map's left and right edges are walls (a body may still rise above the top or fall out of
  the bottom);
* **sub-stepping** for resolvers that only look at their destination (``destination_only``): the
  motion is cut into equal parts no longer than half the smaller of the tile and the body along
  each axis, so a body can never jump over a tile between two checks (no tunnelling, whatever the
  speed), and a push-out never meets a penetration deeper than half a tile. Every part keeps its
  vertical motion after a landing (a body can walk off a ledge in a later part); ``on_ground`` is
  where the tick ended, walls and ceilings count if any part touched them;
* **ground snap** for resolvers that support slopes: a grounded body walking down a slope is kept
  on it instead of leaving it for a tick and bouncing down (only taken when it lands).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from game.grid import EMPTY, EPS, ONE_WAY, SLOPE, SOLID, TileGrid


@dataclass(frozen=True, slots=True)
class Body:
    """An axis-aligned box: top-left (x, y) and size in px, velocity in px/s.

    ``tick_bottom`` is the body's bottom at the start of the tick. One-way tiles are judged
    against it (:attr:`one_way_bottom`): a one-way tile counts only if the body's bottom was at or
    above its top *before the tick*, even when the mover cuts the tick into sub-steps.
    """

    x: float
    y: float
    w: float
    h: float
    vx: float = 0.0
    vy: float = 0.0
    tick_bottom: float | None = None

    @property
    def one_way_bottom(self) -> float:
        return self.y + self.h if self.tick_bottom is None else self.tick_bottom

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h


@dataclass(frozen=True, slots=True)
class Contacts:
    """What a move touched. ``probed`` lists the (col, row) cells the resolver looked at."""

    on_ground: bool = False
    hit_ceiling: bool = False
    hit_left: bool = False
    hit_right: bool = False
    on_one_way: bool = False  # standing on one-way tiles only: down + jump drops through
    probed: tuple[tuple[int, int], ...] = ()

    def merged(self, other: Contacts) -> Contacts:
        return Contacts(
            self.on_ground or other.on_ground,
            self.hit_ceiling or other.hit_ceiling,
            self.hit_left or other.hit_left,
            self.hit_right or other.hit_right,
            self.on_one_way or other.on_one_way,
            self.probed + other.probed,
        )


NO_CONTACT = Contacts()


@dataclass(frozen=True, slots=True)
class Move:
    x: float
    y: float
    contacts: Contacts = NO_CONTACT


@dataclass(frozen=True)
class NoOptions:
    """A resolver with nothing to tune."""


@dataclass(frozen=True)
class Article:
    """The public article whose technique a resolver implements, cited in full."""

    title: str
    author: str
    year: str  # as the article gives it ("2014"), or what is known when it gives none
    url: str

    def cite(self) -> str:
        return f"{self.author}, \"{self.title}\" ({self.year}), {self.url}"


class Resolver(Protocol):
    """The interface all resolvers share (one module each in ``game/resolvers``).

    Optional: a resolver may also define ``prepare(grid: TileGrid) -> None`` for work it does
    once per grid (e.g. a table worked out from the whole map). The world calls it when a level
    is loaded or replaced and when the resolver is switched in; ``move`` must still work on a
    grid that was never prepared (tests call it directly).
    """

    name: ClassVar[str]  # the config and command-line name
    article: ClassVar[Article]  # the article whose technique it implements
    axis_order: ClassVar[str]  # e.g. "x then y"
    supports_slopes: ClassVar[bool]  # if False, a slope tile acts as a solid box
    destination_only: ClassVar[bool]  # if True, the mover sub-steps it (see module docstring)
    summary: ClassVar[str]  # one line for --list-resolvers and the HUD
    Options: ClassVar[type]  # frozen dataclass of its [resolvers.<name>] options

    def __init__(self, options: Any) -> None: ...

    def move(self, grid: TileGrid, body: Body, dx: float, dy: float, drop_through: bool) -> Move:
        """Move ``body`` by (dx, dy) against ``grid``; one-way tiles are ignored if drop_through."""
        ...


# ----------------------------------------------------------------------------------------------
# The mover
# ----------------------------------------------------------------------------------------------

def substeps(grid: TileGrid, w: float, h: float, dx: float, dy: float) -> int:
    """How many equal parts a destination-only resolver needs for the motion (dx, dy)."""
    step_x = max(min(grid.tile_w, w) / 2, 0.5)
    step_y = max(min(grid.tile_h, h) / 2, 0.5)
    return max(1, math.ceil(abs(dx) / step_x), math.ceil(abs(dy) / step_y))


def move_body(resolver: Resolver, grid: TileGrid, body: Body, dx: float, dy: float, *,
              drop_through: bool = False, was_on_ground: bool = False) -> Move:
    """Move a body for one tick with ``resolver``: the only call the simulation makes."""
    x, y, w, h = body.x, body.y, body.w, body.h

    # The map's sides are walls: clamp the motion, not the result, so nothing is pushed into a tile.
    edge_left = edge_right = False
    if dx < 0 and x + dx < 0:
        dx, edge_left = min(0.0, -x), True
    elif dx > 0 and x + w + dx > grid.width_px:
        dx, edge_right = max(0.0, grid.width_px - w - x), True

    parts = substeps(grid, w, h, dx, dy) if resolver.destination_only else 1
    part_x, part_y = dx / parts, dy / parts
    contacts = c = NO_CONTACT
    tick_bottom = body.one_way_bottom
    for _ in range(parts):
        start = Body(x, y, w, h, body.vx, body.vy, tick_bottom)
        m = resolver.move(grid, start, part_x, part_y, drop_through)
        one_way_from = math.inf if drop_through else tick_bottom  # dropping: one-way never counts
        if parts > 1 and part_x and overlapping_tiles(grid, m.x, m.y, w, h, one_way_from,
                                                      resolver.supports_slopes):
            # Only the tick-wide one-way rule brings this about: a late sub-step can reach a
            # one-way tile from the side after the body's bottom went below its top, and the
            # tile still counts, with no room to lift the body onto it. Take that sub-step again
            # without its sideways part: the platform's end is a wall for the rest of the tick.
            again = resolver.move(grid, start, 0.0, part_y, drop_through)
            m = Move(again.x, again.y, again.contacts.merged(
                Contacts(hit_left=part_x < 0, hit_right=part_x > 0)))
        x, y, c = m.x, m.y, m.contacts
        contacts = contacts.merged(c)
        if c.hit_left or c.hit_right:
            part_x = 0.0
    # Walls and ceilings touched at any point of the tick count; the ground is where it ended.
    contacts = Contacts(c.on_ground, contacts.hit_ceiling, contacts.hit_left, contacts.hit_right,
                        False, contacts.probed)

    # Snap when the body did not *end* the tick on the ground: a tick can start on a floor (the
    # first sub-step lands) and end over a slope that falls away (the later ones only move across).
    if (resolver.supports_slopes and was_on_ground and dy >= 0
            and not c.on_ground and not contacts.hit_ceiling):
        # Stay on a slope going down: look as far below as the slope could fall over this step.
        reach = abs(dx) * grid.tile_h / grid.tile_w + 1.0
        m = resolver.move(grid, Body(x, y, w, h, body.vx, body.vy, tick_bottom), 0.0, reach,
                          drop_through)
        if m.contacts.on_ground:
            y = m.y
            contacts = contacts.merged(m.contacts)

    if edge_left or edge_right:
        contacts = contacts.merged(Contacts(hit_left=edge_left, hit_right=edge_right))
    if contacts.on_ground:
        one_way = only_one_way_under(grid, x, w, y + h)
        if one_way != contacts.on_one_way:
            contacts = Contacts(contacts.on_ground, contacts.hit_ceiling, contacts.hit_left,
                                contacts.hit_right, one_way, contacts.probed)
    return Move(x, y, contacts)


# ----------------------------------------------------------------------------------------------
# Shared geometry: used by resolvers, tests and the debug view
# ----------------------------------------------------------------------------------------------

def one_way_counts(bottom_before: float, tile_top: float) -> bool:
    """A one-way tile blocks only a body whose bottom was at or above its top before the move."""
    return bottom_before <= tile_top + EPS


def support_under(grid: TileGrid, x: float, w: float, bottom: float,
                  slopes: bool) -> tuple[bool, bool]:
    """(standing, on one-way tiles only) for a box spanning [x, x + w) with this bottom.

    A pure question to the map, for places no move has answered it (a spawn, a reload), and
    for telling one-way floors from others after a landing. A slope supports where its surface's
    highest point under the span is at ``bottom`` (or by its top edge when slopes are boxes).
    """
    th = grid.tile_h
    row = round(bottom / th)
    on_edge = abs(row * th - bottom) <= 1e-4
    above = math.floor((bottom - 1e-6) / th)
    firm = one_way = False
    for col in grid.cols_between(x + EPS, x + w - EPS):
        lo, hi = max(x, col * grid.tile_w), min(x + w, (col + 1) * grid.tile_w)
        for r in {above, above + 1}:
            kind = grid.kind(col, r)
            if kind == SLOPE and slopes:
                if abs(grid.surface_top(col, r, lo, hi) - bottom) <= 1e-4:
                    firm = True
            elif on_edge and r == row and kind != EMPTY:
                if kind == ONE_WAY:
                    one_way = True
                else:
                    firm = True
    return firm or one_way, one_way and not firm


def only_one_way_under(grid: TileGrid, x: float, w: float, bottom: float) -> bool:
    """True if the floor right under [x, x + w) at ``bottom`` is one-way tiles and nothing else."""
    return support_under(grid, x, w, bottom, True)[1]


def overlapping_tiles(grid: TileGrid, x: float, y: float, w: float, h: float,
                      bottom_before: float, slopes: bool) -> list[tuple[int, int]]:
    """Cells that the box (x, y, w, h) overlaps by more than EPS: the "no overlap" rule.

    Solid tiles always count. A one-way tile counts only if the body's bottom was at or above its
    top before the move (``bottom_before``). A slope tile counts by its shape (the area under its
    surface) when ``slopes`` is true, and as a full box otherwise.
    """
    hits = []
    right, bottom = x + w, y + h
    for row in grid.rows_between(y + EPS, bottom - EPS):
        top_y = row * grid.tile_h
        for col in grid.cols_between(x + EPS, right - EPS):
            kind = grid.kind(col, row)
            if kind == EMPTY:
                continue
            if kind == ONE_WAY:
                if one_way_counts(bottom_before, top_y) and bottom > top_y + EPS:
                    hits.append((col, row))
            elif kind == SLOPE and slopes:
                lo = max(x, col * grid.tile_w)
                hi = min(right, (col + 1) * grid.tile_w)
                if bottom > grid.surface_top(col, row, lo, hi) + EPS:
                    hits.append((col, row))
            else:
                hits.append((col, row))
    return hits
