"""What every resolver shares: the contact flags and records, the interface, and the mover.

A resolver answers one question: a box at (x, y) wants to move by (dx, dy) this tick; where does
it end up, and what did it touch? It never nudges the body to ask questions, and it never changes
velocity: the player reads the contacts and decides.

Two layers give that answer:

* **The core**, for the simulation's hot path: ``resolver.move_box(grid, x, y, w, h, dx, dy,
  one_way_bottom, drop_through, probe)`` returns ``(x, y, flags)``, ``flags`` being the contact
  bits below (:data:`ON_GROUND`, :data:`HIT_CEILING`, ...). It builds no record; ``probe`` is
  ``None`` in play, or a list the resolver appends the (col, row) cells it looked at to, for the
  debug view and tests. :func:`move_box` is the shared mover around it.
* **The records**, for everything else: ``resolver.move(grid, body, dx, dy, drop_through)`` and
  :func:`move_body` take a :class:`Body` and return a :class:`Move` with a :class:`Contacts`
  record listing the probed cells. They are thin wrappers over the core (:class:`BoxResolver`
  gives every resolver its ``move``), so tests of the records test the real code.

:func:`move_box` (or :func:`move_body`) is the one entry point the simulation calls. Around any
resolver it adds what is the same for all of them:

* the map's left and right edges are walls (a body may still rise above the top or fall out of
  the bottom);
* **sub-stepping** for resolvers that only look at their destination (``destination_only``): the
  motion is cut into equal parts no longer than half the smaller of the tile and the body along
  each axis, so a body can never jump over a tile between two checks (no tunnelling, whatever the
  speed), and a push-out never meets a penetration deeper than half a tile. Every part keeps its
  vertical motion after a landing (a body can walk off a ledge in a later part); ``on_ground`` is
  where the tick ended, walls and ceilings count if any part touched them;
* **ground snap** for resolvers that support slopes: a grounded body walking down a slope is kept
  on it instead of leaving it for a tick and bouncing down (only taken when it lands straight
  down: a look down that slid sideways, along a surface steeper than 45 degrees, is not taken;
  for a destination-only resolver a long look down is checked in sub-steps, so it cannot skip a
  tile);
* ``on_one_way``: whether a body that ends on the ground stands on one-way tiles only (skipped on
  a map with no one-way tile at all).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from game.maps.grid import (EMPTY, EPS, ONE_WAY, SLOPE, TileGrid, one_way_counts,  # noqa: F401
                            overlapping_tiles, overlaps_any)  # the no-overlap rule, re-exported

# Contact flags: what ``move_box`` returns as one int. A set bit means "touched this move".
ON_GROUND = 1  # stopped moving down by something under it (standing on it)
HIT_CEILING = 2  # stopped moving up
HIT_LEFT = 4  # stopped moving left (something on its left)
HIT_RIGHT = 8  # stopped moving right
ON_ONE_WAY = 16  # standing on one-way tiles only (set by the mover): down + jump drops through
_HIT_SIDE = HIT_LEFT | HIT_RIGHT
_TOUCHED = HIT_CEILING | HIT_LEFT | HIT_RIGHT  # the flags a tick keeps from any of its sub-steps
_LANDED_OR_CEILING = ON_GROUND | HIT_CEILING


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


NO_CONTACT = Contacts()


def contacts_from(flags: int, probed: Sequence[tuple[int, int]] = ()) -> Contacts:
    """The record of a move's contact flags (and the cells it probed, if they were collected)."""
    if not flags and not probed:
        return NO_CONTACT
    return Contacts(flags & ON_GROUND != 0, flags & HIT_CEILING != 0, flags & HIT_LEFT != 0,
                    flags & HIT_RIGHT != 0, flags & ON_ONE_WAY != 0, tuple(probed))


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


Probe = list[tuple[int, int]] | None  # where a resolver lists the cells it looks at, if asked
# A resolver's core: (grid, x, y, w, h, dx, dy, one_way_bottom, drop_through, probe)
#   -> (x, y, flags)
MoveBox = Callable[[TileGrid, float, float, float, float, float, float, float, bool, Probe],
                   tuple[float, float, int]]


class Resolver(Protocol):
    """The interface all resolvers share (one module each in ``game/resolvers``).

    Optional: a resolver may also define ``prepare(grid: TileGrid) -> None`` for work it does
    once per grid (e.g. a table worked out from the whole map). The world calls it when a level
    is loaded or replaced and when the resolver is switched in; ``move_box`` must still work on a
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

    def move_box(self, grid: TileGrid, x: float, y: float, w: float, h: float, dx: float,
                 dy: float, one_way_bottom: float, drop_through: bool,
                 probe: Probe) -> tuple[float, float, int]:
        """Move the box (x, y, w, h) by (dx, dy) against ``grid``: (new x, new y, contact flags).

        One-way tiles count only for a box whose bottom was at or above their top at
        ``one_way_bottom`` (the bottom when the tick began), and never if ``drop_through``. Every
        cell looked at is appended to ``probe`` unless it is None.
        """
        ...

    def move(self, grid: TileGrid, body: Body, dx: float, dy: float, drop_through: bool) -> Move:
        """``move_box`` for a :class:`Body`, with the probed cells in the :class:`Contacts`."""
        ...


class BoxResolver:
    """Base of the resolvers: ``move`` (records) from the resolver's own ``move_box`` (core)."""

    def move_box(self, grid: TileGrid, x: float, y: float, w: float, h: float, dx: float,
                 dy: float, one_way_bottom: float, drop_through: bool,
                 probe: Probe) -> tuple[float, float, int]:
        raise NotImplementedError  # each resolver's own technique

    def move(self, grid: TileGrid, body: Body, dx: float, dy: float, drop_through: bool) -> Move:
        probe: list[tuple[int, int]] = []
        x, y, flags = self.move_box(grid, body.x, body.y, body.w, body.h, dx, dy,
                                    body.one_way_bottom, drop_through, probe)
        return Move(x, y, contacts_from(flags, probe))


# ----------------------------------------------------------------------------------------------
# The mover
# ----------------------------------------------------------------------------------------------

def _part_steps(grid: TileGrid, w: float, h: float) -> tuple[float, float]:
    """The longest part of a move along x and along y for a destination-only resolver: half
    the box or half a tile, whichever is less, but at least half a pixel."""
    return max(min(grid.tile_w, w) / 2, 0.5), max(min(grid.tile_h, h) / 2, 0.5)


def substeps(grid: TileGrid, w: float, h: float, dx: float, dy: float) -> int:
    """How many equal parts a destination-only resolver needs for the motion (dx, dy)."""
    step_x, step_y = _part_steps(grid, w, h)
    return max(1, math.ceil(abs(dx) / step_x), math.ceil(abs(dy) / step_y))


# The mover's last answer to "how long may one part of a move be" (see :func:`_part_limits`):
# [resolver, grid, w, h, limit along x, limit along y, their negatives]. Asked every move, and almost always for
# the same resolver, grid and box size as the move before.
_last_limits: list[Any] = [None, None, None, None, 0.0, 0.0, 0.0, 0.0]


def _part_limits(resolver: Resolver, grid: TileGrid, w: float, h: float) -> list[Any]:
    """The longest motion along x and along y that :func:`substeps` takes in one part for this
    box (``math.inf`` for a resolver that is not destination-only): one part is enough when
    ``|dx|`` and ``|dy|`` are within them. Kept for the next move."""
    if resolver.destination_only:
        lim_x, lim_y = _part_steps(grid, w, h)  # |d| <= step  <=>  ceil(|d| / step) <= 1
    else:
        lim_x = lim_y = math.inf
    _last_limits[:] = [resolver, grid, w, h, lim_x, lim_y, -lim_x, -lim_y]
    return _last_limits


def move_box(resolver: Resolver, grid: TileGrid, x: float, y: float, w: float, h: float,
             dx: float, dy: float, one_way_bottom: float, drop_through: bool = False,
             was_on_ground: bool = False, probe: Probe = None,
             tell_one_way: bool = True) -> tuple[float, float, int]:
    """Move a box for one tick with ``resolver``: the call the simulation makes each tick.

    ``one_way_bottom`` is the box's bottom when the tick began (``y + h`` for a whole tick);
    ``was_on_ground`` says the body stood at the start of the tick and is not jumping (the ground
    snap is for it). Returns (x, y, contact flags); walls and ceilings count if touched at any
    point of the tick, the ground is where it ended. ``probe``, if a list, receives the cells the
    resolver looked at in the moves whose answers were kept. ``tell_one_way=False`` leaves
    :data:`ON_ONE_WAY` out (never set), for a body that never drops through (a walker): it saves
    looking at the floor again after every landing on a map with one-way tiles.
    """
    # Written for speed, as it runs once per body per tick: in CPython 3.11 a float compared with
    # an int, a float made by arithmetic, and a class attribute read through an instance each
    # cost several times a comparison of two floats in an ``if``, so those are kept out of the
    # usual path (the part limits are remembered from the last move).

    # The map's sides are walls: clamp the motion, not the result, so nothing is pushed into a tile.
    edge = 0
    if dx < 0.0:
        if x + dx < 0.0:
            dx, edge = (-x if x > 0.0 else 0.0), HIT_LEFT  # min(0.0, -x)
    elif dx > 0.0 and x + w + dx > grid.right_edge:
        dx, edge = grid.width_px - w - x, HIT_RIGHT
        if not dx > 0.0:
            dx = 0.0  # max(0.0, ...)

    # One part is enough when the motion is no longer than substeps()'s step on each axis (the
    # usual case).
    limits = _last_limits
    if (limits[0] is not resolver or limits[1] is not grid or limits[2] != w
            or limits[3] != h):
        limits = _part_limits(resolver, grid, w, h)
    if limits[6] <= dx <= limits[4] and limits[7] <= dy <= limits[5]:
        try:  # the method called straight away: no bound method is made on the hot path
            x, y, flags = resolver.move_box(grid, x, y, w, h, dx, dy, one_way_bottom,
                                            drop_through, probe)
        except AttributeError:
            if hasattr(resolver, "move_box"):
                raise  # from inside the resolver's own move_box: not ours to hide
            x, y, flags = _adapted(resolver)(grid, x, y, w, h, dx, dy, one_way_bottom,
                                             drop_through, probe)
    else:
        parts = substeps(grid, w, h, dx, dy)
        x, y, last, flags = _sub_steps(_core(resolver), resolver.supports_slopes, grid, x, y,
                                       w, h, dx / parts, dy / parts, parts, one_way_bottom,
                                       drop_through, probe)
        # Walls and ceilings touched at any point of the tick count; the ground is where it
        # ended.
        flags = (last & ON_GROUND) | (flags & _TOUCHED)

    # Snap when the body did not *end* the tick on the ground: a tick can start on a floor (the
    # first sub-step lands) and end over a slope that falls away (the later ones only move across).
    if (was_on_ground and not flags & _LANDED_OR_CEILING and dy >= 0.0
            and resolver.supports_slopes):
        # Stay on a slope going down: look as far below as the slope could fall over this step.
        reach = abs(dx) * grid.tile_h / grid.tile_w + 1.0
        mark = 0 if probe is None else len(probe)
        move = _core(resolver)
        snap_x, snap_y, snap = move(grid, x, y, w, h, 0.0, reach, one_way_bottom, drop_through,
                                    probe)
        if (snap & ON_GROUND and resolver.destination_only
                and substeps(grid, w, h, 0.0, reach) > 1):
            # Looking only at its destination, the resolver may have landed below a tile the
            # look skipped (a fast walk off a ledge): look again in parts, and keep that answer
            # if it differs.
            _, part_y, part = _snap_down(move, grid, x, y, w, h, reach, one_way_bottom,
                                         drop_through, None)
            if part_y != snap_y or part != snap:
                if probe is not None:
                    del probe[mark:]
                snap_x, snap_y, snap = _snap_down(move, grid, x, y, w, h, reach, one_way_bottom,
                                                  drop_through, probe)
        # A snap is a look straight down: one that went sideways (slid down a surface steeper
        # than 45 degrees) found no floor under the body where it is, and is not taken.
        if snap & ON_GROUND and snap_x == x:
            y = snap_y
            flags |= snap
        elif probe is not None:
            del probe[mark:]  # a snap that found no ground is not part of the answer

    if edge:
        flags |= edge
    if (flags & ON_GROUND and tell_one_way and grid.has_one_way
            and only_one_way_under(grid, x, w, y + h)):
        flags |= ON_ONE_WAY
    return x, y, flags


def _sub_steps(move: MoveBox, slopes: bool, grid: TileGrid, x: float, y: float, w: float,
               h: float, part_x: float, part_y: float, parts: int, tick_bottom: float,
               drop_through: bool, probe: Probe) -> tuple[float, float, int, int]:
    """The parts of a sub-stepped move: (x, y, the last part's flags, every part's flags)."""
    one_way_from = math.inf if drop_through else tick_bottom  # dropping: one-way never counts
    flags = last = 0
    for _ in range(parts):
        mark = 0 if probe is None else len(probe)
        nx, ny, last = move(grid, x, y, w, h, part_x, part_y, tick_bottom, drop_through, probe)
        if part_x and overlaps_any(grid, nx, ny, w, h, one_way_from, slopes):
            # Only the tick-wide one-way rule brings this about: a late sub-step can reach a
            # one-way tile from the side after the body's bottom went below its top, and the
            # tile still counts, with no room to lift the body onto it. Take that sub-step again
            # without its sideways part: the platform's end is a wall for the rest of the tick.
            if probe is not None:
                del probe[mark:]
            nx, ny, last = move(grid, x, y, w, h, 0.0, part_y, tick_bottom, drop_through, probe)
            last |= HIT_LEFT if part_x < 0 else HIT_RIGHT
        x, y = nx, ny
        flags |= last
        if last & _HIT_SIDE:
            part_x = 0.0
    return x, y, last, flags


def _snap_down(move: MoveBox, grid: TileGrid, x: float, y: float, w: float, h: float,
               reach: float, one_way_bottom: float, drop_through: bool,
               probe: Probe) -> tuple[float, float, int]:
    """The ground snap's look down for a destination-only resolver, in parts it cannot skip a
    tile between (as :func:`substeps`), stopping at the first ground: (x, y, flags)."""
    parts = substeps(grid, w, h, 0.0, reach)
    flags = 0
    for _ in range(parts):
        x, y, flags = move(grid, x, y, w, h, 0.0, reach / parts, one_way_bottom, drop_through,
                           probe)
        if flags & (ON_GROUND | HIT_CEILING):
            break
    return x, y, flags


def _core(resolver: Any) -> MoveBox:
    """The resolver's ``move_box``, or one made from its ``move`` if it has only that."""
    move = getattr(resolver, "move_box", None)
    return _adapted(resolver) if move is None else move


def _adapted(resolver: Any) -> MoveBox:
    """A ``move_box`` for a resolver that only has ``move`` (records): say, a test's port of an
    article. It works the same, only slower."""
    def move_box(grid: TileGrid, x: float, y: float, w: float, h: float, dx: float, dy: float,
                 one_way_bottom: float, drop_through: bool,
                 probe: Probe) -> tuple[float, float, int]:
        m = resolver.move(grid, Body(x, y, w, h, tick_bottom=one_way_bottom), dx, dy,
                          drop_through)
        c = m.contacts
        if probe is not None:
            probe.extend(c.probed)
        return m.x, m.y, ((ON_GROUND if c.on_ground else 0) | (HIT_CEILING if c.hit_ceiling else 0)
                          | (HIT_LEFT if c.hit_left else 0) | (HIT_RIGHT if c.hit_right else 0))
    return move_box


def move_body(resolver: Resolver, grid: TileGrid, body: Body, dx: float, dy: float, *,
              drop_through: bool = False, was_on_ground: bool = False) -> Move:
    """:func:`move_box` for a :class:`Body`: a :class:`Move` whose contacts list probed cells."""
    probe: list[tuple[int, int]] = []
    x, y, flags = move_box(resolver, grid, body.x, body.y, body.w, body.h, dx, dy,
                           one_way_bottom=body.one_way_bottom, drop_through=drop_through,
                           was_on_ground=was_on_ground, probe=probe)
    return Move(x, y, contacts_from(flags, probe))


# ----------------------------------------------------------------------------------------------
# Shared geometry: used by resolvers, tests and the debug view
# ----------------------------------------------------------------------------------------------

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
        for r in (above, above + 1):
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
    # Quick no, for the mover's every landing on a map with one-way tiles somewhere: without a
    # one-way cell in the row whose top is ``bottom``, support_under cannot say "one-way only".
    th, tw, cols = grid.tile_h, grid.tile_w, grid.cols
    row = round(bottom / th)
    if abs(row * th - bottom) > 1e-4 or not 0 <= row < grid.rows:
        return False
    first = max(math.floor((x + EPS) / tw), 0)
    last = min(math.ceil((x + w - EPS) / tw), cols)
    if first >= last or grid.kinds.find(ONE_WAY, row * cols + first, row * cols + last) < 0:
        return False
    return support_under(grid, x, w, bottom, True)[1]
