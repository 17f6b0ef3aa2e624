"""Moving platforms: solids that move on their own and carry, push and squish the player.

The split follows Celeste's Actor/Solid idea (Maddy Thorson, "Celeste and TowerFall Physics",
2017) in this codebase's own terms:

* **Platforms move first**, every tick, in Tiled object id order, before the player (see
  :meth:`game.sim.world.World.step`). Each moves along x, then along y. On each axis:

  - the player **riding** it (standing on it after the last tick: :attr:`Player.riding`) is
    carried by the same amount, moved with the world's resolver so the tiles still stop them;
  - a solid platform that now overlaps a player it does not carry **pushes** them out on the
    side it moves toward, again through the resolver;
  - if, after that, a solid platform still overlaps the player (a wall or floor held them), the
    player is **squished**: :func:`move_platforms` returns True and the world sends them back.

* **The player's own move** is resolved against the tiles by the current resolver, then against
  the platforms' boxes by one plain box routine (:func:`clip_to_platforms`), the same for all
  resolvers: platforms are not tiles, so no resolver treats them specially. It cuts the
  tile-resolved motion along x against solid platforms, then along y against all of them; where
  that cut end lies in a tile (a slope bent the resolver's path), the resolver and the cut take
  turns until they agree, so neither has the last word over the other. It sets the same contact
  flags a tile would (ON_GROUND, ON_ONE_WAY, HIT_*), so jumping off a platform, and dropping
  through a one-way one with down + jump, work as on tiles.

A **one-way** platform is landed on from above only (the player's bottom was at or above its
top, where the platform was before this tick or where it is now) and is jumped through from
below and the sides; it never pushes, only carries.

Walkers do not touch platforms (they walk through them): a limitation for now.
Nothing here allocates per tick: each :class:`Platform` keeps its state in slots.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from game.maps.grid import TileGrid
from game.maps.platform_spawns import PlatformSpawn
from game.resolvers.base import (HIT_CEILING, HIT_LEFT, HIT_RIGHT, ON_GROUND, ON_ONE_WAY, Resolver,
                                 move_box, overlaps_any)

EPS = 1e-6  # px: touching is not overlapping
_AGREE_ROUNDS = 4  # the resolver and the platforms' cut taking turns before halving the motion
_HALVINGS = 30  # halvings of the motion when they do not agree (1 tile / 2**30: far below EPS)


class Platform:
    """One platform's state: its box (x, y, w, h), where it was before the last tick (for the
    view's blend), the index of the stop it heads for, its way along a ping-pong path (+1/-1)
    and the seconds it still waits at a stop."""

    __slots__ = ("spawn", "x", "y", "w", "h", "prev_x", "prev_y", "target", "way", "wait_left",
                 "one_way")

    def __init__(self, spawn: PlatformSpawn) -> None:
        self.spawn = spawn
        self.w, self.h, self.one_way = spawn.w, spawn.h, spawn.one_way
        self.place()

    def place(self) -> None:
        s = self.spawn
        self.x = self.prev_x = s.x
        self.y = self.prev_y = s.y
        self.target, self.way, self.wait_left = 1, 1, s.wait  # it waits at its start, too

    def motion(self, dt: float) -> tuple[float, float]:
        """This tick's displacement along the path (waiting at stops), and the path state moved
        on. The platform's box is not moved here: :func:`move_platforms` does it, axis by axis.
        Distance left over on reaching a stop is dropped (the platform waits there)."""
        if self.wait_left > 1e-9:  # a wait of n ticks stands still n whole ticks
            self.wait_left -= dt
            return 0.0, 0.0
        s = self.spawn
        tx, ty = s.path[self.target]
        ex, ey = tx - self.x, ty - self.y
        dist = math.hypot(ex, ey)
        step = s.speed * dt
        if step < dist:
            return ex * step / dist, ey * step / dist
        # reached the stop: wait there, then head for the next one
        self.wait_left = s.wait
        last = len(s.path) - 1
        if s.loop:
            self.target = 0 if self.target == last else self.target + 1
        else:
            if (self.target == last and self.way > 0) or (self.target == 0 and self.way < 0):
                self.way = -self.way
            self.target += self.way
        return ex, ey

    def overlaps(self, x: float, y: float, w: float, h: float) -> bool:
        return (x < self.x + self.w - EPS and x + w > self.x + EPS
                and y < self.y + self.h - EPS and y + h > self.y + EPS)


def make_platforms(spawns: Sequence[PlatformSpawn]) -> list[Platform]:
    return [Platform(s) for s in spawns]


def move_platforms(platforms: Sequence[Platform], player, resolver: Resolver, grid: TileGrid,
                   dt: float) -> bool:
    """Move every platform one tick (object id order), carrying and pushing the player.
    Returns True if a platform squished the player (the caller sends them back)."""
    p = player
    active = not p.respawning
    rider = p.riding if active and p.on_ground else None
    squished = False
    for pl in platforms:
        pl.prev_x, pl.prev_y = pl.x, pl.y
        dx, dy = pl.motion(dt)
        if not active or squished:
            pl.x += dx
            pl.y += dy
            continue
        carried = rider is pl
        if dx:
            pl.x += dx
            squished = _meet(pl, p, dx, 0.0, carried, resolver, grid)
        if dy and not squished:
            pl.y += dy
            squished = _meet(pl, p, 0.0, dy, carried, resolver, grid)
    return squished


def _meet(pl: Platform, p, dx: float, dy: float, carried: bool, resolver: Resolver,
          grid: TileGrid) -> bool:
    """After the platform moved by (dx, dy) (one of them 0): carry or push the player through
    the resolver; True if it still overlaps a solid platform (squished)."""
    if carried:
        mx, my = dx, dy
    elif pl.one_way or not pl.overlaps(p.x, p.y, p.w, p.h):
        return False
    elif dx:
        mx, my = (pl.x + pl.w - p.x if dx > 0 else pl.x - p.x - p.w), 0.0
    else:
        mx, my = 0.0, (pl.y + pl.h - p.y if dy > 0 else pl.y - p.y - p.h)
    p.x, p.y, _ = move_box(resolver, grid, p.x, p.y, p.w, p.h, mx, my, one_way_bottom=p.y + p.h,
                           drop_through=False, was_on_ground=False, tell_one_way=False)
    return not pl.one_way and pl.overlaps(p.x, p.y, p.w, p.h)


def clip_to_platforms(platforms: Sequence[Platform], p, x0: float, y0: float, dy: float,
                      grounded: bool, flags: int, dropping: bool, resolver: Resolver,
                      grid: TileGrid) -> int:
    """Cut the player's tile-resolved move from (x0, y0) to (p.x, p.y) against the platforms'
    boxes (:func:`_cut`: along x against solid ones, then along y against all). Sets
    ``p.riding`` and returns the contact flags with the platforms' added. ``dy`` is the vertical
    motion the move asked for and ``grounded`` whether it began on the ground (for the ground
    snap), so that the tiles can answer again.

    The clip is resolved on both axes: where a platform's side cuts the motion along x, the y the
    tiles worked out was for another x, so the tiles answer again for the cut x (with the whole
    vertical motion); where the cut end lies in a tile (a slope bent the tiles' path), the cut
    motion goes through the tiles again. Either way what they give is cut again, until the tiles
    and the platforms agree on an end (:func:`_agree`): neither has the last word.
    """
    w, h = p.w, p.h
    x1, y1, cut, riding = _cut(platforms, x0, y0, p.x, p.y, w, h, flags, dropping)
    if x1 != p.x:
        x1, y1, cut, riding = _agree(platforms, p, x0, y0, x1 - x0, dy, grounded, cut, riding,
                                     dropping, resolver, grid)
    elif y1 != p.y and overlaps_any(grid, x1, y1, w, h, y0 + h, resolver.supports_slopes):
        x1, y1, cut, riding = _agree(platforms, p, x0, y0, x1 - x0, y1 - y0, False, cut,
                                     riding, dropping, resolver, grid)
    p.x, p.y, p.riding = x1, y1, riding
    return cut


def _cut(platforms: Sequence[Platform], x0: float, y0: float, x1: float, y1: float, w: float,
         h: float, flags: int, dropping: bool) -> tuple[float, float, int, Platform | None]:
    """The move from (x0, y0) to (x1, y1) cut against the platforms, x then y: along x against
    the solid ones in the rows the body started in, then, at that x, along y against all
    (one-way ones from above only, none while dropping through): (x, y, flags, the platform
    stood on or None)."""
    riding, tiles_y = None, y1
    if x1 != x0:
        for pl in platforms:
            if pl.one_way or y0 + h <= pl.y + EPS or y0 >= pl.y + pl.h - EPS:
                continue
            if x1 > x0 and x0 + w <= pl.x + EPS and x1 + w > pl.x:
                x1 = pl.x - w
                flags |= HIT_RIGHT
            elif x1 < x0 and x0 >= pl.x + pl.w - EPS and x1 < pl.x + pl.w:
                x1 = pl.x + pl.w
                flags |= HIT_LEFT
    bottom0 = y0 + h
    for pl in platforms:
        if x1 + w <= pl.x + EPS or x1 >= pl.x + pl.w - EPS:
            continue
        top = pl.y
        if y1 + h > top and bottom0 <= max(top, pl.prev_y) + EPS and not (pl.one_way and dropping):
            y1 = top - h  # landed (or stands) on it
            riding = pl
        elif (not pl.one_way and y1 < y0 and y0 >= pl.y + pl.h - EPS and y1 < pl.y + pl.h):
            y1 = pl.y + pl.h
            flags |= HIT_CEILING
    if riding is not None:
        if y1 < tiles_y - EPS or not flags & ON_GROUND:
            flags = (flags & ~ON_ONE_WAY) | ON_GROUND | (ON_ONE_WAY if riding.one_way else 0)
        elif not riding.one_way:
            flags &= ~ON_ONE_WAY  # on a one-way tile and a solid platform at once: no dropping
    return x1, y1, flags, riding


def _agree(platforms: Sequence[Platform], p, x0: float, y0: float, mx: float, my: float,
           grounded: bool, flags: int, riding: Platform | None, dropping: bool,
           resolver: Resolver, grid: TileGrid) -> tuple[float, float, int, Platform | None]:
    """The motion (mx, my) from (x0, y0) through the tiles again, and its end cut again, until
    the cut leaves the tiles' end alone (or cuts only y, to an end free of tiles): (x, y, flags,
    the platform stood on). A cut along x starts the next turn with the whole vertical motion at
    the cut x. If they never agree, the longest part of the motion whose end both leave alone,
    found by halving (the start, where the body was free, at worst)."""
    w, h = p.w, p.h
    bottom0 = y0 + h
    slopes = resolver.supports_slopes

    def turn(fx: float, fy: float) -> tuple[float, float, int, Platform | None, bool, bool]:
        tx, ty, tflags = move_box(resolver, grid, x0, y0, w, h, fx, fy, one_way_bottom=bottom0,
                                  drop_through=dropping, was_on_ground=grounded)
        cx, cy, cflags, on = _cut(platforms, x0, y0, tx, ty, w, h, tflags, dropping)
        if cx == tx and cy == ty:
            if on is None and riding is not None and abs(ty + h - riding.y) <= EPS:
                on, cflags = riding, cflags | ON_GROUND  # still on the platform the cut met
            return tx, ty, cflags, on, True, False
        agreed = cx == tx and not overlaps_any(grid, cx, cy, w, h, bottom0, slopes)
        return cx, cy, cflags, on, agreed, cx != tx

    for _ in range(_AGREE_ROUNDS):
        x1, y1, got, on, agreed, x_cut = turn(mx, my)
        if agreed:
            return x1, y1, got, on
        mx, my = x1 - x0, (my if x_cut else y1 - y0)
    lo, hi, best = 0.0, 1.0, (x0, y0, flags & ~ON_GROUND, None)
    for _ in range(_HALVINGS):
        mid = (lo + hi) * 0.5
        x1, y1, got, on, agreed, _ = turn(mx * mid, my * mid)
        if agreed:
            lo, best = mid, (x1, y1, got, on)
        else:
            hi = mid
    return best


def overlaps_solid_platform(platforms: Sequence[Platform], x: float, y: float, w: float,
                            h: float) -> bool:
    for pl in platforms:
        if not pl.one_way and pl.overlaps(x, y, w, h):
            return True
    return False
