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


class Walker:
    """One walker's state: top-left (x, y) and size in px; it walks at ``speed`` px/s toward
    ``facing`` (-1 left, 1 right) and falls at ``vy`` px/s.

    ``prev_x``/``prev_y`` are where it was before the last tick, for the view's blend.
    """

    __slots__ = ("spawn", "x", "y", "w", "h", "speed", "facing", "vy", "on_ground",
                 "prev_x", "prev_y", "fallen")

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
                 max_fall_speed: float, dt: float) -> None:
    """Advance every walker one tick, in the order of ``walkers``."""
    slopes = resolver.supports_slopes
    fall = gravity * dt
    bottom_px = grid.height_px
    for k in walkers:
        x, y = k.x, k.y
        k.prev_x, k.prev_y = x, y
        if k.fallen:
            continue
        wk, hk = k.w, k.h

        # --- brain: turn round before a step would go over a ledge ---------------------------
        step = k.facing * k.speed * dt
        if k.on_ground and step and ledge_ahead(grid, x, wk, y + hk, step, slopes):
            k.facing = -k.facing
            step = -step

        # --- gravity (exact for constant acceleration, as the player's) ----------------------
        vy0 = k.vy
        vy = vy0 + fall
        if vy > max_fall_speed:
            vy = max_fall_speed
        dy = (vy0 + vy) * 0.5 * dt

        # --- resolve against the tiles ---------------------------------------------------------
        x, y, c = move_box(resolver, grid, x, y, wk, hk, step, dy, one_way_bottom=y + hk,
                           drop_through=False, was_on_ground=k.on_ground, tell_one_way=False)
        k.x, k.y = x, y

        # --- contacts: land, bump a ceiling, turn at a wall -------------------------------------
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
        if y > bottom_px:
            k.fallen = True  # out of the map's bottom: gone until the level restarts
