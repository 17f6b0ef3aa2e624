"""``swept``: swept AABB, time of impact, slide (the Minkowski-sum ray).

Article: "Swept AABB Collision Detection and Response", BrendanL.K, gamedev.net (2013),
https://www.gamedev.net/tutorials/programming/general-and-gameplay-programming/swept-aabb-collision-detection-and-response-r3084/

Axis order: both at once (the motion is one straight line; a hit stops one axis, the other goes on).

The technique, as the article teaches it (:func:`passes`; the article's ``SweptAABB`` is
:func:`slab` on each axis, taken for every tile of :func:`broad_phase` by :func:`first_hit`):

1. Take the moving box's motion for the frame as a ray, and grow each static box by the moving
   box's size (their Minkowski sum): the question "when does the box touch the block?" becomes
   "when does the ray (from the box's corner) enter the grown block?".
2. Per axis, the *entry* and *exit* times are where the ray crosses the grown block's near and far
   sides (distance over velocity; with no motion on an axis, the article takes the block as
   overlapping all the time). The hit time is the later entry; it is a hit if that is before the
   earlier exit and within the frame.
   The axis whose entry came last gives the normal: the face that was hit.
3. Move the box to the hit time, then respond; the article's *slide* keeps the remaining motion's
   part along the face (its dot product with the face's direction) and drops the part into it.
4. With many blocks (a tile map): gather the tiles the whole motion's box covers (the broad phase),
   work out every tile's hit time, take the earliest, respond, and repeat with the motion that is
   left, since the slide can meet another tile.

Beyond the article, each joined to its code at a line marked ``# >> beyond the article``:
slopes as their surface line (:func:`_line_slab`, :func:`_on_line`), one-way tiles, corner
ties (:func:`_tie`), and the floor under a body that slides off one or settles on one
(:mod:`game.resolvers.swept_floors`). Play moves bodies with the fast twin
:class:`game.resolvers.fast.swept.FastSwept`, which answers the usual moves from a look at the
grid's bytes, with the passes' own operations, and hands the rest to these passes.

Departures, and why:

* **No motion on an axis: always or never.** The article takes an axis the box does not move
  along as overlapping the block all the time, so a block beside the path (overlapping on the
  moving axis only) counts as hit. Here such an axis overlaps all the time if the spans overlap
  (by more than EPS) and never if they do not: a body falling past a wall it does not touch
  never hits it.

* **Seams are handled by the order of hits, and touching is not overlapping.** A body sliding along
  a floor of many tiles touches the next tile's top as its own: its bottom is exactly on the
  next tile's top, so the next tile's *side* looks hit "at the same time as" the top (the classic
  swept-AABB snag on a seam). Two things keep it out: every tile is shrunk by the touching tolerance
  ``EPS`` for the test (a body only touching a tile is not entering it; placement still uses the
  tile's real faces), and hits are taken earliest first, one at a time: the floor under the body
  is hit first (at once, if gravity presses the body into it), the slide then takes the
  downward part away, and the next tile's side is no longer in the way. Where the order is not
  enough: a tile whose two faces are entered at exactly the same time (the body's corner meets the
  tile's corner) has no single face; the tie goes to the face not hidden by a neighbour (the top
  of a floor tile, the side of a wall tile), which is right for a tile in a floor or in a wall but
  a guess for a lone block; and a long slide can meet two tiles of one row at exactly the same
  time, when the first one taken decides. The article, with one block at a time, has neither
  problem and no answer to them.
* **Slopes as their surface line.** A slope tile is the polygon under its straight surface. The
  ray test is the same slab test on one more axis (the surface's normal), which with the x and y
  axes separates a box from that polygon (the separating axis theorem); a hit on that axis is a hit
  on the surface. The response is not the article's slide, which would turn a walk up a 45 degree
  slope into half speed: on a surface no steeper than 45 degrees (a floor), the body keeps its
  horizontal motion and follows the surface with it, to the end of that tile's surface (then
  on horizontally, in the next pass); a steeper surface slides as the article does. A step onto
  the low side of a slope (height 0) is not a wall: a hit on a slope tile's side that is below the
  body's bottom counts as a hit on its surface. Walking *down* a slope moves the body away from
  the surface, so it leaves it; the mover's ground snap (for resolvers that read slopes) puts it
  back, as for ``sweep`` and ``routing``. Here "45 degrees" is in pixels, not in tile units as
  for the box resolvers: on tiles taller than wide, a slope of half the tile's height is a steep
  surface the body slides on, and the snap, a look straight down, is not taken where it slides.
* **One-way tiles** count only for a body whose bottom was at or above their top when the tick
  began (``one_way_bottom``), never when ``drop_through``, and only when the motion goes down or
  the body's bottom is already below their top. Their top is a floor to a body moving down; a
  body that reaches their side with its bottom below their top (a diagonal fall past a
  platform's end, or a level or rising slide after it) is stopped there as by a wall, as the
  mover does for the sub-stepped resolvers.
* **Ladders.** The grid makes a ladder's top cell a one-way tile (``game.maps.grid.with_ladders``)
  and its other cells empty: a ladder's top is hit as a one-way tile is, and no ray meets the rest
  of a ladder. Climbing is the player's (``game.sim.player``); climbing down moves with
  ``drop_through``.
* **The map's sides.** The mover cuts the tick's motion at the map's left and right edges, but
  a slide along a steep slope can turn toward one (or past it: a body falling straight onto a
  steep slope in the first column slides out of the map, and falls through everything there).
  So once a slope's surface is met, the motion of every pass is cut at the sides too: a slide
  ends against one as against a wall.
* **At most five passes a tick** (a pass: sweep what motion is left, to its first hit or its
  end). Each hit takes an axis (or the surface's normal) out of the motion, so two or three are
  enough in any real case; what is left after the fifth pass is dropped.
* **Contacts.** A floor hit (from above, or a floor-like slope) is ``on_ground`` only if the body
  ends the tick on it: one that slid off its end in the same tick is in the air. Walls and
  ceilings count if hit at any point of the tick. A tile the body already overlaps at the start
  (never in play) is left out, so the body can move out of it.
* **Swept, not sub-stepped**: the whole motion is one ray, so nothing tunnels, and the mover does
  not cut it into parts.
"""

from __future__ import annotations

import math
from typing import ClassVar

from game.maps.grid import EMPTY, EPS, ONE_WAY, SLOPE, SOLID, TileGrid
from game.resolvers.base import (HIT_CEILING, HIT_LEFT, HIT_RIGHT, ON_GROUND, Article,
                                 BoxResolver, NoOptions, Probe, one_way_counts)
from game.resolvers.swept_floors import floor_ends, floor_top, on_flat_floor

INF = math.inf
TIE = 1e-12  # entry times this close are a tie between two faces
_PASSES = 4  # hits resolved in one tick, at most (one more pass goes on after a slope's end)

# the face a hit is on
_SIDE = 0  # a vertical face: normal along x
_FLAT = 1  # a horizontal face: normal along y
_LINE = 2  # a slope's surface


class SweptResolver(BoxResolver):
    name: ClassVar[str] = "swept"
    article: ClassVar[Article] = Article(
        'Swept AABB Collision Detection and Response',
        'BrendanL.K, gamedev.net',
        '2013',
        'https://www.gamedev.net/tutorials/programming/general-and-gameplay-programming/'
        'swept-aabb-collision-detection-and-response-r3084/')
    axis_order: ClassVar[str] = "both at once"
    supports_slopes: ClassVar[bool] = True
    destination_only: ClassVar[bool] = False
    summary: ClassVar[str] = ("the motion as a ray against tiles grown by the body's size; "
                              "earliest hit first, slide, repeat; slopes as their surface line")
    Options: ClassVar[type] = NoOptions

    def __init__(self, options: NoOptions | None = None) -> None:
        self.options = options or NoOptions()

    def move_box(self, grid: TileGrid, x: float, y: float, w: float, h: float, dx: float,
                 dy: float, one_way_bottom: float, drop_through: bool,
                 probe: Probe) -> tuple[float, float, int]:
        return passes(grid, x, y, w, h, dx, dy, INF if drop_through else one_way_bottom, probe)


# ----------------------------------------------------------------------------------------------
# The article: the motion as a ray, the earliest hit, slide, repeat
# ----------------------------------------------------------------------------------------------

def broad_phase(grid: TileGrid, x: float, y: float, w: float, h: float, mx: float,
                my: float) -> tuple[int, int, int, int]:
    """The broad phase (the article's ``GetSweptBroadphaseBox``): columns [c0, c1) and rows
    [r0, r1) of every cell the box covers at any time of the motion, widened by EPS (a cell
    entered by less than float rounding is tested, not skipped); not clipped to the map."""
    tw, th = grid.tile_w, grid.tile_h
    if mx > 0.0:
        c0, c1 = math.floor((x - EPS) / tw), math.ceil((x + w + mx + EPS) / tw)
    else:
        c0, c1 = math.floor((x + mx - EPS) / tw), math.ceil((x + w + EPS) / tw)
    if my > 0.0:
        r0, r1 = math.floor((y - EPS) / th), math.ceil((y + h + my + EPS) / th)
    else:
        r0, r1 = math.floor((y + my - EPS) / th), math.ceil((y + h + EPS) / th)
    return c0, c1, r0, r1


def slab(lo: float, hi: float, t_lo: float, t_hi: float, v: float) -> tuple[float, float]:
    """One axis of the article's ``SweptAABB``: the entry and exit times of a moving span
    [lo, hi] (velocity ``v``) through [t_lo, t_hi] (already shrunk by EPS), the distance to the
    near and far sides over the velocity; with no velocity, always or never (see the
    departures): (-INF, INF) if the spans overlap, else (INF, -INF). :func:`first_hit` writes it
    out for a cell's box."""
    if v > 0:
        return (t_lo - hi) / v, (t_hi - lo) / v
    if v < 0:
        return (t_hi - lo) / v, (t_lo - hi) / v
    if hi > t_lo and lo < t_hi:
        return -INF, INF
    return INF, -INF


def first_hit(grid: TileGrid, x: float, y: float, w: float, h: float, mx: float, my: float,
              one_way_from: float, probe: Probe) -> tuple[float, int, int, int] | None:
    """The earliest hit of the motion (mx, my) among the tiles of its broad phase: (time 0..1,
    face, col, row), or None. Each tile is the article's ``SweptAABB``: its row's slab on y and
    its column's on x, the later entry the hit, before the earlier exit."""
    tw, th = grid.tile_w, grid.tile_h
    c0, c1, r0, r1 = broad_phase(grid, x, y, w, h, mx, my)
    if probe is not None:
        probe.extend((c, r) for r in range(r0, r1) for c in range(c0, c1))
    best = None
    yb, xr = y + h, x + w
    for row in range(max(r0, 0), min(r1, grid.rows)):  # outside the map every cell is empty
        ty0 = row * th
        # the row's slab on y (a slope's polygon is inside its cell: never in the cell's slab,
        # never in the polygon's)
        ey, xy = slab(y, yb, ty0 + EPS, ty0 + th - EPS, my)
        if ey > 1.0 or xy < 0.0:
            continue
        for col in range(max(c0, 0), min(c1, grid.cols)):
            kind = grid.kinds[row * grid.cols + col]
            if kind == EMPTY:
                continue
            # >> beyond the article: one-way tiles (counting, and reached through its side: a
            # wall; see the docstring)
            if kind == ONE_WAY and not (one_way_counts(one_way_from, ty0)
                                        and (my > 0.0 or yb > ty0 + EPS)):
                continue
            tx0 = col * tw
            ex, xx = slab(x, xr, tx0 + EPS, tx0 + tw - EPS, mx)  # the column's slab on x
            if ex == INF:
                continue  # not moving along x, and not beside the tile
            cy, cxy = ey, xy
            if kind == SLOPE:  # >> beyond the article: the polygon reaches up to its highest point
                left_h, right_h = grid.slope_heights(col, row)
                cy, cxy = slab(y, yb, ty0 + th - max(left_h, right_h) + EPS, ty0 + th - EPS, my)
            # the later entry is the hit, on the face of the axis entered last
            enter, leave = (ex, _SIDE) if ex > cy else (cy, _FLAT)
            if -TIE <= ex - cy <= TIE and enter != -INF:  # >> beyond the article: a corner tie
                enter, leave = ex, _tie(grid, col, row, mx, my)
            out = min(cxy, xx)  # the earlier exit
            if kind == SLOPE:  # >> beyond the article: slopes, the surface's slab
                ef, xf = _line_slab(grid, col, row, x, y, w, h, mx, my)
                if ef > enter:
                    # into the surface from above; coming at the polygon's lowest points from
                    # under it, the face is its underside (or its side, moving level)
                    enter = ef
                    leave = _LINE if my - _line(grid, col, row)[1] * mx > 0 else (
                        _FLAT if my else _SIDE)
                out = min(out, xf)
            if enter < 0.0 and enter < out:
                # overlapping at the start: a snap onto another face may leave a body EPS or so
                # inside a tile it touches; that is a hit now, if it goes deeper. A body deeper
                # inside (never in play) is let out. (A snap of EPS along x, onto a wall, puts a
                # body |b| EPS under a steep slope's surface, as y measures it: issue 34.)
                speed = abs(mx) if leave == _SIDE else abs(my) if leave == _FLAT else abs(
                    my - _line(grid, col, row)[1] * mx)
                reach = EPS
                if kind == SLOPE and leave != _SIDE:
                    reach = EPS * max(1.0, abs(_line(grid, col, row)[1]))
                if -enter * speed <= reach:
                    enter = 0.0
            if enter < out and 0.0 <= enter <= 1.0 and (best is None or enter < best[0]):
                best = (enter, leave, col, row)
    if best is not None and best[1] == _SIDE and grid.kind(best[2], best[3]) == SLOPE:
        best = _side_of_slope(grid, best, x, y, h, mx, my)  # >> beyond the article: slopes
    return best


def passes(grid: TileGrid, x: float, y: float, w: float, h: float, dx: float, dy: float,
           one_way_from: float, probe: Probe) -> tuple[float, float, int]:
    """The technique: sweep what motion is left to its first hit, respond, repeat."""
    mark = 0 if probe is None else len(probe)
    flags = 0
    grounded = False  # the last floor hit still holds the body
    settle = False  # a free slide ended the motion: is it still on a floor?
    dropped = 0.0  # the downward motion that floor hit took away
    following = False  # the motion follows a slope's surface
    mx, my = dx, dy
    then = 0.0  # sideways motion to go on with once a slope's surface has been followed
    if my > 0 and on_flat_floor(grid, x, w, y + h, one_way_from):  # >> beyond the article
        # standing on a flat floor and pressed into it: that is the first hit, at once (the
        # general test finds it EPS / dy later and goes back to where it touched: here),
        # on the row's top exactly (a fall may have ended a rounding error above it)
        flags, grounded, dropped, my = ON_GROUND, True, my, 0.0
        y = round((y + h) / grid.tile_h) * grid.tile_h - h
    sloped = False  # a slope's surface was met: the motion is no longer the tick's own
    for _ in range(_PASSES + 1):
        if not mx and not my:
            if not then:
                break
            mx, then = then, 0.0
        if sloped and (mx < 0.0 and x + mx < -EPS
                       or mx > 0.0 and x + w + mx > grid.width_px + EPS):
            # >> beyond the article: the map's sides are walls to a slope's slide too (the
            # mover cuts only the tick's own motion): the slide ends there
            if mx < 0.0:
                room, flags = (-x if x > 0.0 else 0.0), flags | HIT_LEFT
            else:
                room, flags = max(grid.width_px - w - x, 0.0), flags | HIT_RIGHT
            mx, my, then = room, my * room / mx, 0.0
        hit = first_hit(grid, x, y, w, h, mx, my, one_way_from, probe)
        if hit is None and grounded and dropped and not my:  # >> beyond the article
            # sliding along a floor: if it ends on the way, the fall dropped at the landing
            # starts where the body leaves it, for the rest of the slide
            off = floor_ends(grid, x, w, y + h, mx, one_way_from)
            if off is None:  # still on the floor at the end of the slide
                x += mx
                mx = 0.0
                continue
            if off != INF:
                x += off
                mx, my = mx - off, dropped * (mx - off) / mx
                grounded, dropped = False, 0.0
                continue
        if hit is None:
            x += mx
            y += my
            if mx and grounded and not then:
                settle = True  # (answered below, where the body ended)
            if my < 0 and not following:
                grounded = False  # rising freely (following a slope up is not)
            mx = my = 0.0
            continue
        following = False
        t, face, col, row = hit
        # The test found the time the body is EPS inside the face; the body goes to the time
        # it touches it (EPS less along that face's normal): there nothing else was hit yet.
        speed = (mx if face == _SIDE else my if face == _FLAT
                 else my - _line(grid, col, row)[1] * mx)
        if speed < 0.0:
            speed = -speed
        if speed > 0.0 and t > EPS / speed:
            t = t - EPS / speed
        else:
            t = 0.0
        x += mx * t
        y += my * t
        rx, ry = mx * (1.0 - t), my * (1.0 - t)
        kind = grid.kinds[row * grid.cols + col]  # (a hit is in the map)
        if face == _SIDE:
            # a wall: on its face exactly; the vertical part goes on (the article's slide)
            if mx > 0:
                x, flags = col * grid.tile_w - w, flags | HIT_RIGHT
            else:
                x, flags = (col + 1) * grid.tile_w, flags | HIT_LEFT
            mx, my = 0.0, ry
            if my < 0:
                grounded = False
        elif face == _FLAT and my < 0:
            y, flags = (row + 1) * grid.tile_h, flags | HIT_CEILING
            mx, my = rx, 0.0
        elif face == _FLAT:
            if kind == SLOPE:
                lo, hi = max(x, col * grid.tile_w), min(x + w, (col + 1) * grid.tile_w)
                y = grid.surface_top(col, row, lo, hi) - h
            else:
                y = row * grid.tile_h - h
            flags |= ON_GROUND
            grounded, dropped = True, ry
            mx, my = rx, 0.0
        else:  # >> beyond the article: a slope's surface, followed or slid along
            y, mx, my, then, floor, side = _on_line(grid, col, row, x, y, w, h, rx, ry, then)
            sloped = True
            if floor:
                flags |= ON_GROUND
                grounded = following = True
            else:
                flags |= side
    if grounded and (dx or settle):  # >> beyond the article
        # Where the slide ended, the floor may not be the one last hit: the body went past a
        # slope's end, or onto a neighbour lower by a rounding error. It settles on what is
        # under it now, or is not standing.
        top = floor_top(grid, x, w, y + h, one_way_from)
        if top is None:
            grounded = False
        else:
            y = top - h
    if not grounded:
        flags &= ~ON_GROUND
    if probe is not None:
        probe[mark:] = dict.fromkeys(probe[mark:])  # each cell once, first look first
    return x, y, flags


# ----------------------------------------------------------------------------------------------
# Beyond the article: corner ties, slopes as their surface line
# ----------------------------------------------------------------------------------------------

def _tie(grid: TileGrid, col: int, row: int, mx: float, my: float) -> int:
    """A corner met on both faces at once: the face not hidden by a neighbour (y if both show)."""
    beside = grid.kind(col + (-1 if mx > 0 else 1), row)
    over = grid.kind(col, row + (-1 if my > 0 else 1))
    if over == SOLID and beside != SOLID:
        return _SIDE  # the top (or underside) is covered: it is a wall
    return _FLAT


def _line(grid: TileGrid, col: int, row: int) -> tuple[float, float, float]:
    """The slope's surface as y = a + b * x, and the height of its highest point above its row's
    bottom: (a, b, most)."""
    left_h, right_h = grid.slope_heights(col, row)
    base = (row + 1) * grid.tile_h
    b = -(right_h - left_h) / grid.tile_w
    a = base - left_h - b * col * grid.tile_w
    return a, b, (left_h if left_h > right_h else right_h)


def _line_slab(grid: TileGrid, col: int, row: int, x: float, y: float, w: float, h: float,
               mx: float, my: float) -> tuple[float, float]:
    """Entry and exit times on the slope surface's normal: f = y - (a + b * x) is how far a
    point is below the surface line; the slope's polygon spans f in [0, most]."""
    a, b, most = _line(grid, col, row)
    if b < 0:  # rising to the right: the box's bottom right corner is the deepest
        f_hi, f_lo = y + h - a - b * (x + w), y - a - b * x
    else:
        f_hi, f_lo = y + h - a - b * x, y - a - b * (x + w)
    return slab(f_lo, f_hi, EPS, most - EPS, my - b * mx)


def _side_of_slope(grid: TileGrid, hit: tuple[float, int, int, int], x: float, y: float,
                   h: float, mx: float, my: float) -> tuple[float, int, int, int]:
    """A hit on a slope tile's side that lies under the body's bottom is a hit on its surface (a
    side of height 0 is no wall: it is where the surface starts)."""
    t, _, col, row = hit
    left_h, right_h = grid.slope_heights(col, row)
    side_top = (row + 1) * grid.tile_h - (left_h if mx > 0 else right_h)
    if y + my * t + h <= side_top + EPS:
        return t, _LINE, col, row
    return hit


def _on_line(grid: TileGrid, col: int, row: int, x: float, y: float, w: float, h: float,
             rx: float, ry: float,
             then: float) -> tuple[float, float, float, float, bool, int]:
    """A hit on a slope's surface with (rx, ry) of the motion left: the body's y on it, the
    next motion, the sideways motion to go on with after it, whether the surface is a floor, and
    the side flag if it is a wall."""
    tw = grid.tile_w
    x0, x1 = col * tw, (col + 1) * tw
    _, b, _ = _line(grid, col, row)
    lo, hi = (x if x > x0 else x0), (x + w if x + w < x1 else x1)
    if lo < hi:
        on = grid.surface_top(col, row, lo, hi) - h
        # (a body that met it a rounding error inside, within EPS along its normal, is not
        # lifted more than EPS onto it: on a steep surface that lift could reach into a tile
        # over the body's head)
        y = on if on >= y - EPS else y
    if -1.0 - EPS <= b <= 1.0 + EPS:
        # a floor: keep the horizontal motion and follow the surface with it, to its end
        rx += then
        corner = x + w if b < 0 else x  # the corner that rests on the surface
        limit = (x1 - corner) if rx > 0 else (x0 - corner)
        if rx == 0 or limit * rx <= 0:
            return y, rx, 0.0, 0.0, True, 0  # at (or past) the surface's end: on sideways
        along = rx if abs(rx) <= abs(limit) else limit
        return y, along, along * b, rx - along, True, 0
    # steeper than 45 degrees: the article's slide along the surface
    n = math.hypot(b, 1.0)
    nx, ny = b / n, -1.0 / n
    dot = rx * nx + ry * ny
    side = HIT_LEFT if nx > 0 else HIT_RIGHT
    return y, rx - dot * nx, ry - dot * ny, then, False, side
