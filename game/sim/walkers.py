"""Walkers: bodies other than the player that patrol a level with the world's resolver.

A walker walks at its own speed, turns round at a wall and at a ledge, and falls under the
level's gravity (``[physics] gravity`` and ``max_fall_speed``) when nothing holds it up. It
has no input: its brain is two questions a tick, both answered without moving it,

* *is there a ledge ahead?* a pure look at the map (:func:`ledge_ahead`): would this tick's
  step put the walker's front edge over a column with nothing under its feet;
* *did it hit a wall?* the contact flags the resolver returned for the last move.

The world steps its walkers after the player, every tick, in Tiled object id order (the order
of :attr:`game.maps.level.Level.walkers`), so a run is the same every time. Walkers collide with the
tiles only: not with each other and not with the player (stomping and hurting come later,
through a broad phase). A walker that falls out of the bottom of the map is gone (``fallen``)
until the level restarts.

The per-tick loop (:func:`step_walkers`) allocates nothing of its own: each :class:`Walker`
keeps its state in slots, which the loop overwrites in place.

**Cruising.** Most walkers, most ticks, stand on a flat floor with nothing near them and walk on.
For such a walker the whole step above comes to one sum: no ledge ahead, and the resolver puts
it at ``x + step`` on the same floor with ``ON_GROUND`` and nothing else (every resolver does so:
``tests/test_walkers.py`` holds each one to it). So after a step that leaves a walker resting on a
floor row (its bottom on the row's top, ``vy`` 0, a step short enough to be one move), the loop
works out its *lane*: the span of x over which its box keeps a solid or one-way tile under every
column and empty cells around it, less :data:`LANE_MARGIN` at each end. While its next ``x +
step`` stays in that lane, the step is that sum and nothing more, the resolver is not asked, and
the walker's state comes out exactly as the full step would leave it. At the lane's end over a
ledge the same holds for the turn: the brain sees the ledge, and the step back is on the lane. A lane holds for the grid
it was read from (a door turning gives a new grid, and every lane is read again) and the tick
length; anything that moves a walker other than this loop calls :meth:`Walker.wake`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from game.maps.grid import EMPTY, SLOPE, TileGrid
from game.maps.level import WalkerSpawn
from game.resolvers.base import (
    HIT_CEILING, HIT_LEFT, HIT_RIGHT, ON_GROUND, Resolver, move_box, overlapping_tiles,
    support_under,
)


# Cruising (module docstring): a lane stops this far (px) short of the floor's ends and of
# anything solid beside the walker, so a cruising step never comes near a contact.
LANE_MARGIN = 1.0
# The fall a resting walker asks of the resolver each tick (px: ``dy`` of a tick from vy 0)
# must lie in this range for a cruising step to stand for the full one (the range the resolvers
# are held to; at most the mover's smallest sub-step, so it is always one move). Outside it (no
# gravity, a very long tick) every step is a full one.
REST_DY_MIN, REST_DY_MAX = 1e-3, 0.5
NO_LANE = (math.inf, -math.inf)  # lo > hi: no x is in it


class Walker:
    """One walker's state: top-left (x, y) and size in px; it walks at ``speed`` px/s toward
    ``facing`` (-1 left, 1 right) and falls at ``vy`` px/s.

    ``prev_x``/``prev_y`` are where it was before the last tick, for the view's blend.
    The lane (module docstring) is :func:`step_walkers`'s own: ``lane_lo``/``lane_hi``, the x a
    cruising step may reach; ``lane_step``, that step; ``lane_grid`` and ``lane_dt``, the grid
    and the tick length it holds for; ``lane_run``, the last lane read (grid, y, lo, hi), which
    holds again while the box is over the same floor (a turn at a wall, a landing).
    """

    __slots__ = ("spawn", "x", "y", "w", "h", "speed", "facing", "vy", "on_ground",
                 "prev_x", "prev_y", "fallen", "lane_lo", "lane_hi", "lane_step", "lane_grid",
                 "lane_dt", "lane_run")

    def __init__(self, spawn: WalkerSpawn) -> None:
        self.spawn = spawn
        self.w, self.h, self.speed = spawn.w, spawn.h, spawn.speed
        self.place()

    def place(self) -> None:
        """Back to the spawn, at rest, facing its first direction (``on_ground`` is read by
        :meth:`settle`)."""
        s = self.spawn
        self.x = self.prev_x = s.x
        self.y = self.prev_y = s.y
        self.facing, self.vy = s.facing, 0.0
        self.on_ground = self.fallen = False
        self.lane_run = None
        self.wake()

    def wake(self) -> None:
        """Forget the lane: the next step is a full one (after anything but :func:`step_walkers`
        moved the walker or changed its speed)."""
        self.lane_lo, self.lane_hi = NO_LANE
        self.lane_step = self.lane_dt = 0.0
        self.lane_grid = None

    def copy(self) -> Walker:
        """A walker in the same state, lane and all (``game.sim.shared_walkers``)."""
        twin = Walker.__new__(Walker)
        for name in Walker.__slots__:
            setattr(twin, name, getattr(self, name))
        return twin

    def settle(self, grid: TileGrid, slopes: bool) -> None:
        """Read ``on_ground`` off the map where no move has said it yet (a spawn, a switch)."""
        self.on_ground = support_under(grid, self.x, self.w, self.y + self.h, slopes)[0]

    def fit(self, grid: TileGrid, slopes: bool) -> None:
        """Free the walker from tiles the resolver takes differently (a slope as a full box):
        lift it by the least amount that frees it, at most a tile, then read whether it stands."""
        if self.fallen:
            return
        hits = overlapping_tiles(grid, self.x, self.y, self.w, self.h, self.y + self.h, slopes)
        if hits:
            for y in sorted({row * grid.tile_h - self.h for _, row in hits}, reverse=True):
                if 0 <= self.y - y <= grid.tile_h and not overlapping_tiles(
                        grid, self.x, y, self.w, self.h, y + self.h, slopes):
                    self.y = self.prev_y = y
                    break
        self.settle(grid, slopes)
        self.wake()


def make_walkers(spawns: Iterable[WalkerSpawn], grid: TileGrid, slopes: bool) -> list[Walker]:
    """Walkers at their spawns, in the order given (the level's: object id order)."""
    walkers = [Walker(s) for s in spawns]
    for w in walkers:
        w.fit(grid, slopes)
    return walkers


def ledge_ahead(grid: TileGrid, x: float, w: float, bottom: float, step: float,
                slopes: bool) -> bool:
    """Would a step of ``step`` px (negative: left) put the box's front edge over a column with
    nothing to stand on at its feet? A pure question to the map: nothing moves.

    The feet's row is the one just under ``bottom``; the column ahead holds the walker up if that
    cell is not empty. When slopes are slopes, the ground may also be one row lower: where a slope
    carries on down, and where a walker standing on a slope steps off its low end onto the floor
    beyond (a body rests on a slope by its higher corner, so its bottom is above that floor).
    Outside the map there is nothing to stand on.
    """
    ahead = x + w + step - 1e-6 if step > 0 else x + step + 1e-6
    col = math.floor(ahead / grid.tile_w)
    cols = grid.cols
    if col < 0 or col >= cols:
        return True
    row = math.floor((bottom + 0.5) / grid.tile_h)
    rows, kinds = grid.rows, grid.kinds
    if 0 <= row < rows and kinds[row * cols + col] != EMPTY:
        return False
    if not slopes or not 0 <= row + 1 < rows:
        return True
    below = kinds[(row + 1) * cols + col]
    if below == SLOPE:
        return False
    if below == EMPTY:
        return True
    # Ground one row lower counts if the walker stands on a slope now (its span, either row).
    for c in range(max(math.floor((x + 1e-6) / grid.tile_w), 0),
                   min(math.floor((x + w - 1e-6) / grid.tile_w) + 1, cols)):
        if (row >= 0 and kinds[row * cols + c] == SLOPE) or kinds[(row + 1) * cols + c] == SLOPE:
            return False
    return True


def step_walkers(walkers: Sequence[Walker], resolver: Resolver, grid: TileGrid, gravity: float,
                 max_fall_speed: float, dt: float, full: list | None = None) -> None:
    """Advance every walker one tick, in the order of ``walkers``. With ``full``, append to it
    each walker that takes a full step (not cruising), with its state before the step:
    ``(walker, x, y, vy, facing, on_ground)`` (``game.sim.shared_walkers`` takes them again)."""
    slopes = resolver.supports_slopes
    fall = gravity * dt
    bottom_px = grid.height_px
    # What a resting walker (vy 0) would ask the resolver to fall this tick: cruising needs it
    # in the range every resolver is held to.
    rest_vy = fall if fall <= max_fall_speed else max_fall_speed
    cruise = REST_DY_MIN <= rest_vy * 0.5 * dt <= REST_DY_MAX
    for k in walkers:
        k.prev_x = x = k.x
        k.prev_y = k.y
        if k.fallen:
            continue

        # --- cruising: along its lane, the step is one sum (module docstring) -----------------
        step = k.lane_step
        x += step
        if k.lane_lo <= x <= k.lane_hi and k.lane_grid is grid and k.lane_dt == dt and cruise:
            k.x = x
            continue
        # ... and at a ledge, a turn back along it (the brain's question, then the same sum)
        if (step and k.lane_grid is grid and k.lane_dt == dt and cruise
                and k.lane_lo <= k.x - step <= k.lane_hi
                and ledge_ahead(grid, k.x, k.w, k.y + k.h, step, slopes)):
            k.facing = -k.facing
            k.lane_step = -step
            k.x -= step
            continue

        if full is not None:
            full.append((k, k.x, k.y, k.vy, k.facing, k.on_ground))
        _full_step(k, resolver, grid, fall, max_fall_speed, dt, slopes)
        if k.y > bottom_px:
            k.fallen = True  # out of the map's bottom: gone until the level restarts


def _full_step(k: Walker, resolver: Resolver, grid: TileGrid, fall: float,
               max_fall_speed: float, dt: float, slopes: bool) -> None:
    """One walker's whole tick, and its lane for the next ones."""
    x, y, wk, hk = k.x, k.y, k.w, k.h

    # --- brain: turn round before a step would go over a ledge -------------------------------
    step = k.facing * k.speed * dt
    if k.on_ground and step and ledge_ahead(grid, x, wk, y + hk, step, slopes):
        k.facing = -k.facing
        step = -step

    # --- gravity (exact for constant acceleration, as the player's) --------------------------
    vy0 = k.vy
    vy = vy0 + fall
    if vy > max_fall_speed:
        vy = max_fall_speed
    dy = (vy0 + vy) * 0.5 * dt

    # --- resolve against the tiles -------------------------------------------------------------
    x, y, c = move_box(resolver, grid, x, y, wk, hk, step, dy, one_way_bottom=y + hk,
                       drop_through=False, was_on_ground=k.on_ground, tell_one_way=False)
    k.x, k.y = x, y

    # --- contacts: land, bump a ceiling, turn at a wall -----------------------------------------
    if c & ON_GROUND:
        k.on_ground = True
        if vy > 0:
            vy = 0.0
    else:
        k.on_ground = False
    if c & HIT_CEILING and vy < 0:
        vy = 0.0
    k.vy = vy
    if (c & HIT_LEFT and step < 0) or (c & HIT_RIGHT and step > 0):
        k.facing = -k.facing

    # --- the lane for the next ticks: resting on a floor row, a step that is one move ----------
    if c == ON_GROUND and vy == 0.0 and abs(step) <= max(min(grid.tile_w, wk) / 2, 0.5):
        run = k.lane_run  # the last lane read, whose floor the box may still be over
        if (run is not None and run[0] is grid and run[1] == y
                and run[2] - LANE_MARGIN / 2 <= x <= run[3] + LANE_MARGIN / 2):
            k.lane_lo, k.lane_hi = run[2], run[3]
        else:
            k.lane_lo, k.lane_hi = lo, hi = lane(grid, x, y, wk, hk)
            k.lane_run = (grid, y, lo, hi) if lo <= hi else None
        k.lane_step = k.facing * k.speed * dt
        k.lane_grid, k.lane_dt = grid, dt
    elif k.lane_grid is not None:
        k.wake()


def lane(grid: TileGrid, x: float, y: float, w: float, h: float) -> tuple[float, float]:
    """The x a box resting at (x, y) may cruise over (module docstring): its bottom exactly on
    the top of a row of solid or one-way tiles, which runs on under every column of the span,
    with every cell the box spans above it empty; less :data:`LANE_MARGIN` at each end.
    :data:`NO_LANE` if the box does not rest so. Asked only when a walker's lane ends (a turn, a
    landing), and answered by searches over the rows' bytes."""
    tw, th, cols, kinds = grid.tile_w, grid.tile_h, grid.cols, grid.kinds
    row = round((y + h) / th)
    if not (y >= 0 and y == row * th - h and 0 < row < grid.rows and x >= 0):
        return NO_LANE
    first = math.floor(x / tw)
    last = math.ceil((x + w) / tw) - 1  # the columns under the box: first .. last
    if last >= cols:
        return NO_LANE
    # The floor: from the last gap (empty or slope) before the box to the first one after it.
    feet = row * cols
    end = feet + first + 1
    lo = max(kinds.rfind(_EMPTY, feet, end), kinds.rfind(_SLOPE, feet, end))
    hi = min(_found(kinds.find(_EMPTY, feet + first, feet + cols), feet + cols),
             _found(kinds.find(_SLOPE, feet + first, feet + cols), feet + cols))
    if hi <= feet + last:
        return NO_LANE
    lo, hi = max(lo, feet - 1) - feet, hi - feet  # the floor's columns: lo + 1 .. hi - 1
    # The body's rows above it: the same, up to the nearest filled cells.
    for r in range(math.floor(y / th), row):
        line = kinds[r * cols:(r + 1) * cols]
        before = len(line[:first + 1].rstrip(_EMPTY)) - 1  # last filled column <= first
        if before >= first:
            return NO_LANE
        after = cols - len(line[first:].lstrip(_EMPTY))  # first filled column >= first
        if after <= last:
            return NO_LANE
        lo, hi = max(lo, before), min(hi, after)
    lo_x, hi_x = (lo + 1) * tw + LANE_MARGIN, hi * tw - w - LANE_MARGIN
    return (lo_x, hi_x) if lo_x <= hi_x else NO_LANE


def _found(index: int, missing: int) -> int:
    return missing if index < 0 else index


_EMPTY, _SLOPE = bytes((EMPTY,)), bytes((SLOPE,))
