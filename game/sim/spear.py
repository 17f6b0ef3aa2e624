"""The thrown spear: a small box that flies under its own gravity with the world's resolver, and
sticks or slides by the contact the resolver reports.

A throw (the ``throw`` key) takes a spear from a fixed pool of ``[spear] max_spears`` (the oldest
one if all are out) and sends it from the middle of the player's body toward where they face,
at ``speed`` px/s and ``lift`` px/s upward. It leaves from a free place or not at all: a body
smaller than the spear (narrower than 8 px, shorter than 7) would hold it partly outside itself,
perhaps inside a wall or the floor, so the spear's box is kept above the body's feet, then tried
centred on the body, flush with its right side and flush with its left; if all of these overlap
a tile (as the world's resolver sees tiles) or leave the map's sides, nothing is thrown. Each tick a flying spear is moved by
:func:`game.resolvers.base.move_box` like any body, and the contact flags it returns decide:

* which surface it met: HIT_LEFT/HIT_RIGHT a wall (its normal is horizontal), ON_GROUND a floor,
  HIT_CEILING a ceiling (vertical normals);
* how: the angle between its velocity and that normal, ``atan2(|along|, |into|)``. At most
  ``stick_angle`` degrees is **head-on**: it sticks. More is **glancing**: the speed into the
  surface is dropped and it slides along it (down a wall under gravity, along a floor slowing at
  ``slide_decel`` until it is slow enough to count as head-on and stays).

The same rule holds for every tile and every resolver: nothing here looks at tile kinds.

A spear stuck in a **wall** is a one-way ledge: it is handed to the player's move with the
moving platforms (``game.sim.platforms.clip_to_platforms`` takes any box with ``one_way``), so the
player can land on it from above and jump through it from below. After ``stuck_time`` it falls
away (down, with the resolver, and is gone when it lands). A flying spear that touches a walker
defeats it and falls away.

Spears are stepped after the walkers, in pool order. Nothing is allocated per tick.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from game.config import SpearConfig
from game.maps.grid import TileGrid
from game.resolvers.base import (HIT_CEILING, HIT_LEFT, HIT_RIGHT, ON_GROUND, Resolver, move_box,
                                 overlaps_any)

IDLE, FLYING, STUCK, FALLING = 0, 1, 2, 3
SPEAR_W, SPEAR_H = 8.0, 4.0  # px: the spear's box (drawn longer: the shaft behind it)
HAND_Y = 3.0  # px below the player's top where the spear leaves the hand


class Spear:
    """One spear of the pool. ``state`` is IDLE, FLYING, STUCK or FALLING; ``ledge`` says a stuck
    spear stands out of a wall (a one-way ledge); ``timer`` is the time left stuck; ``born`` the
    tick it was thrown (the oldest is taken when all are out); ``facing`` its throw direction."""

    __slots__ = ("x", "y", "w", "h", "vx", "vy", "state", "ledge", "timer", "born", "facing",
                 "prev_x", "prev_y")
    one_way = True  # as a ledge: landed on from above only (game.sim.platforms)

    def __init__(self) -> None:
        self.x = self.y = self.prev_x = self.prev_y = self.vx = self.vy = self.timer = 0.0
        self.w, self.h = SPEAR_W, SPEAR_H
        self.state, self.ledge, self.born, self.facing = IDLE, False, -1, 1


def make_spears(cfg: SpearConfig) -> list[Spear]:
    return [Spear() for _ in range(cfg.max_spears)]


def throw(spears: Sequence[Spear], p, cfg: SpearConfig, tick: int, grid: TileGrid,
          slopes: bool) -> Spear | None:
    """Send a spear from the player's hand; returns it (it may be one taken back from a wall),
    or None when there is no free place for it to leave from (see the module docstring)."""
    start = _free_start(p, grid, slopes)
    if start is None:
        return None
    s = next((s for s in spears if s.state == IDLE), None)
    if s is None:
        s = min(spears, key=_born)
    s.x = s.prev_x = start[0]
    s.y = s.prev_y = start[1]
    s.vx, s.vy = p.facing * cfg.speed, -cfg.lift
    s.state, s.ledge, s.born, s.facing, s.timer = FLYING, False, tick, p.facing, 0.0
    return s


def _free_start(p, grid: TileGrid, slopes: bool) -> tuple[float, float] | None:
    """Where a spear thrown by the body ``p`` starts: from its hand (``HAND_Y`` below its top,
    but never lower than its feet), centred on it, or flush with one of its sides; the first of
    these whose box is free, or None."""
    y = min(p.y + HAND_Y, p.y + p.h - SPEAR_H)
    for x in (p.x + (p.w - SPEAR_W) / 2, p.x + p.w - SPEAR_W, p.x):
        if (x >= 0 and x + SPEAR_W <= grid.width_px
                and not overlaps_any(grid, x, y, SPEAR_W, SPEAR_H, y + SPEAR_H, slopes)):
            return x, y
    return None


def _born(s: Spear) -> int:
    return s.born


def _head_on(into: float, along: float, stick_angle: float) -> bool:
    return math.degrees(math.atan2(abs(along), abs(into))) <= stick_angle + 1e-9


def step_spears(spears: Sequence[Spear], resolver: Resolver, grid: TileGrid, cfg: SpearConfig,
                dt: float, walker_hash=None) -> bool:
    """Advance every spear one tick. Returns True if the set of ledges changed (a spear stuck in
    or fell out of a wall), so the world rebuilds what the player's move looks at."""
    changed = False
    fall = cfg.gravity * dt
    for s in spears:
        s.prev_x, s.prev_y = s.x, s.y
        state = s.state
        if state == IDLE:
            continue
        if state == STUCK:
            s.timer -= dt
            if s.timer <= 1e-9:
                changed |= s.ledge
                s.state, s.ledge, s.vx, s.vy = FALLING, False, 0.0, 0.0
            continue

        # --- flight (or falling away): gravity, then the resolver -------------------------------
        vy0 = s.vy
        vx, vy = s.vx, vy0 + fall
        s.x, s.y, c = move_box(resolver, grid, s.x, s.y, s.w, s.h, vx * dt, (vy0 + vy) * 0.5 * dt,
                               one_way_bottom=s.y + s.h, drop_through=False, was_on_ground=False,
                               tell_one_way=False)
        if s.y > grid.height_px:
            s.state = IDLE
            continue
        if state == FALLING:
            s.vy = vy
            if c & ON_GROUND:
                s.state = IDLE
            continue

        # --- the contact decides: stick head-on, slide when glancing ------------------------------
        if c & (HIT_LEFT | HIT_RIGHT):
            if _head_on(vx, vy, cfg.stick_angle):
                s.state, s.ledge, s.timer, vx, vy = STUCK, True, cfg.stuck_time, 0.0, 0.0
                changed = True
            else:
                vx = 0.0  # slides along the wall
        if s.state == FLYING and c & (ON_GROUND | HIT_CEILING):
            if _head_on(vy, vx, cfg.stick_angle):
                s.state, s.timer, vx, vy = STUCK, cfg.stuck_time, 0.0, 0.0
            else:
                vy = 0.0  # slides along the floor or the ceiling
                if c & ON_GROUND:
                    slow = cfg.slide_decel * dt
                    vx = vx - slow if vx > slow else vx + slow if vx < -slow else 0.0
        s.vx, s.vy = vx, vy

        # --- a flying spear defeats the walker it touches, and falls away -------------------------
        if s.state == FLYING and walker_hash is not None:
            hit = walker_hash.touching(s.x, s.y, s.w, s.h)
            if hit:
                for k in hit:
                    k.fallen = True
                walker_hash.update()
                s.state, s.vx, s.vy = FALLING, 0.0, 0.0
    return changed
