"""``overlap``: push out of every overlapping tile, largest overlap first.

Article: "Order matters: Tile map collision response", Geoff Blair (11 June 2014),
https://www.geoffblair.com/blog/order-matters-tile-map-collision-response/

Axis order: both axes at once; each tile is pushed out along its own axis of least separation.

The technique, as the article teaches it (:func:`resolve_box`, its steps marked by number;
the gathering and the sort are :func:`overlapping_by_area`):

1. Apply the whole motion (dx, dy) at once.
2. Gather every blocking tile the moved box overlaps, with the rectangle where the two intersect
   and that rectangle's area.
3. Sort them by area, largest first.
4. Walk the sorted list. For each tile, measure the overlap again (an earlier push may already
   have freed the body from it, and then it is skipped) and push the body out along the axis
   where it sticks in least.

The order is the whole point of the article. Its example is a long, thin spear sliding along a wall
built from two tiles: the spear just clips the corner of the first tile, so that tile alone would
be left by a sideways push (the spear would "hit" the wall head-on and stop), while the second tile
is overlapped along its full width and is clearly left by a push across the wall. Taken in the
natural row-major order the corner tile comes first and stops the spear; taken largest first, the
push out of the second tile also frees the body from the first, and the spear slides. The same
ordering keeps a body running along a floor, or sliding down a wall, from catching on the seams
between tiles. ``largest_first`` (an option, on by default) switches the sort off to show the
snag.

Contacts follow the direction of each push: pushed up means it stands on something
(``on_ground``), pushed down means it bumped a ceiling, pushed left means it ran into something on
its right (``hit_right``), pushed right means ``hit_left``.

Departures from the article, and why:

* **Sub-stepped, destination only.** The article looks only at where the body ends up, so a fast
  body could jump over a thin wall, and a deep penetration could be left through the wrong side.
  The shared mover cuts each move into parts no longer than half the smaller of the tile and the
  body along each axis (``destination_only = True``), so a penetration is never deeper than that.
* **Never push a body along its motion.** The article picks the side to leave through from the
  overlap alone. Here a push on an axis the body moved along always goes back against that
  motion (a body moving right is only ever pushed left), so it can never be shoved through to the
  far side of a tile.
* **Only an axis the body crossed the tile's edge on.** The body was clear of every tile before
  the move, so on at least one axis it was wholly on one side of the tile. If on an axis it already
  overlapped the tile's span before moving (in particular, if it did not move along that axis at
  all), that axis cannot be where it came in, and pushing along it would throw the body back past
  where it started, or sideways off a floor it merely landed on near a corner. Such an axis is not
  used. Plain least separation happily does both: a body falling straight down with one pixel of
  its width over a ledge is pushed off the ledge, and a body rising past the lower end of a wall
  while pressed into it is pushed down out of the wall's last tile, below where it started.
* **Separation is the push back, not the width of the intersection.** For a body wider or taller
  than a tile the two differ; the distance the push must carry the body against its motion is what
  the choice of axis should weigh.
* **Ties and near-ties.** When the body crossed both edges of a tile in one step (it came in at a
  corner) and the two pushes differ by at most ``tie_px``, least separation is a coin toss that can
  knock a landing body off the edge of a platform. Such a tie goes to the axis the body moved
  farther along in this step (roughly the edge it crossed last), and to the vertical one if those
  are equal, so a body falling onto a corner lands on it.
* **No push into another tile.** When both axes are possible, a push that would bury the body
  deeper into some other blocking tile (across an inner edge between two tiles of a floor or a
  wall) gives way to the other axis. This catches the seam snags that the area order cannot: two
  tiles overlapped by exactly the same area. After the list is done, the destination is checked
  again and any tile still overlapped (one a fallback push moved the body into) is resolved in a
  further round, at most ``MAX_ROUNDS`` in all.
* **One-way tiles.** The article knows only solid walls. A one-way tile here counts only for a
  body moving down whose bottom was at or above the tile's top at the start of the *tick* (the
  mover passes that bottom to every sub-step as ``one_way_bottom``), not merely before this
  call's move, and not when dropping through. It is never left downwards, and upwards only when
  the lifted box is free: a body that falls past a platform's end and reaches its column in a
  later sub-step, its bottom already below the top, is still caught and lifted onto it if there
  is room. If the lifted box would overlap a blocking tile (a solid tile sitting on the
  platform, or something above where the sub-step began) and the body came into the tile's
  column from the side in this move, the platform's end is a wall: the body is pushed back to it
  (``hit_left``/``hit_right``) and keeps its vertical motion. (Lifting first and letting the
  tile above push the body sideways would keep a lift made for a tile it no longer stands over.)
  In one sub-step the lifted box can meet only tiles in the column just entered, or above the
  start: everything else it covers was crossed free.
* **Ladders.** The grid makes a ladder's top cell a one-way tile (``game.maps.grid.with_ladders``)
  and its other cells empty: an overlapped ladder top is pushed out of, upward, only as a one-way
  tile is, and the rest of a ladder overlaps nothing. Climbing is the player's
  (``game.sim.player``); climbing down moves with ``drop_through``.
* **Slopes and half tiles: the solid area under the surface.** The article's tiles are boxes;
  a slope tile here is solid only under its straight surface (a half tile is a slope of equal
  heights), so what a slope adds to the list is the area of the box under that surface (exact:
  the depth is piecewise linear across the tile), and it is sorted with the others by that area.
  It is left upwards, onto the highest point of the surface under the body, when that push is
  no more than the body's climb and fall in this move (a 45-degree climb over the move, see
  :mod:`game.resolvers.footing`): for a slope of up to 45 degrees the push up through the
  surface is never longer than the push back along x, so this is the least separation, ties going
  to the surface (which keeps a body walking up a slope at full speed). A steeper slope, a half
  tile's side or a slope's full-height side is left along x, back to where the surface reaches
  the body's bottom; met from below, a slope is a box. As for solid tiles, a push must not bury
  the body in another tile: a lift with no room above it (the box lifted onto the highest floor
  at its foot overlaps something) is left along x. A solid tile the body walks onto off the top
  of a slope is a floor at its foot in the same way. Walking down a slope is the shared mover's
  ground snap.
* **Exact edges.** A push leaves the body exactly on the tile's edge; touching is not overlapping
  (overlaps of at most ``EPS`` are ignored), so a body resting on a floor gets ``on_ground`` every
  tick without its position moving.
* **A body that starts inside a tile** (no axis qualifies) falls back to the article's plain
  rule: the smallest push, only against the motion on an axis it moved along.
* **Area ties keep row-major order** (the sort is stable), so the result is deterministic.

Beyond the article, after its code and each joined to it at one line marked ``# >> beyond the
article``: slopes and half tiles (:func:`_foot`, by their area under the surface), one-way
tiles (:func:`_one_way`), and the guard against a push that buries the body (:func:`_buries`).
Play moves bodies with the fast twin :class:`game.resolvers.fast.overlap.FastOverlap`, which
answers the commonest moves (nothing met, one line of solid tiles met square on) from one look
at the moved box's cells and hands the rest to :func:`resolve_box`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import ClassVar

from game.maps.grid import EMPTY, EPS, ONE_WAY, SLOPE, SOLID, TileGrid
from game.resolvers.base import (HIT_CEILING, HIT_LEFT, HIT_RIGHT, ON_GROUND, Article, Body,
                                 BoxResolver, Move, Probe, contacts_from, one_way_counts)
from game.resolvers.footing import (across_line, climbs_onto, on_slope, room_at, slope_area,
                                    top_under, wall_x)

# A destination is re-checked after its list is resolved; this caps the number of passes.
MAX_ROUNDS = 3


@dataclass(frozen=True)
class OverlapOptions:
    tie_px: float = field(default=0.5, metadata={
        "unit": "px: pushes on the two axes closer than this count as a tie", "lo": 0.0,
        "hi": None})
    largest_first: bool = field(default=True, metadata={
        "unit": "on/off: off resolves tiles in row-major order (the article's snag)",
        "lo": None, "hi": None})


Hit = tuple[float, int, int, int]  # (intersection area, col, row, tile kind)


class OverlapResolver(BoxResolver):
    name: ClassVar[str] = "overlap"
    article: ClassVar[Article] = Article(
        'Order matters: Tile map collision response',
        'Geoff Blair',
        '2014',
        'https://www.geoffblair.com/blog/order-matters-tile-map-collision-response/')
    axis_order: ClassVar[str] = "both at once"  # per tile, the axis of least separation (summary)
    supports_slopes: ClassVar[bool] = True
    destination_only: ClassVar[bool] = True
    summary: ClassVar[str] = ("move fully, then push out of each overlapping tile, largest "
                              "intersection first, along its axis of least separation")
    Options: ClassVar[type] = OverlapOptions

    def __init__(self, options: OverlapOptions | None = None) -> None:
        self.options = options or OverlapOptions()
        self._tie_px, self._largest_first = self.options.tie_px, self.options.largest_first

    def move_box(self, grid: TileGrid, x: float, y: float, w: float, h: float, dx: float,
                 dy: float, one_way_bottom: float, drop_through: bool,
                 probe: Probe) -> tuple[float, float, int]:
        return resolve_box(grid, x, y, w, h, dx, dy, one_way_bottom, drop_through, self._tie_px,
                           self._largest_first, True, None, probe)


def resolve(grid: TileGrid, body: Body, dx: float, dy: float, drop_through: bool = False, *,
            tie_px: float = 0.5, largest_first: bool = True, guard: bool = True,
            trace: list[tuple[int, int, str]] | None = None) -> Move:
    """Move ``body`` by (dx, dy) and push it out of what it overlaps (see the module docstring).

    ``guard`` false turns off the "no push into another tile" rule, for tests that show what it
    prevents. ``trace``, if given, receives (col, row, what) for every tile of the sorted lists in
    the order they were taken, ``what`` being "x" or "y" (the axis it was pushed along) or "freed"
    (an earlier push had already cleared it).
    """
    probe: list[tuple[int, int]] = []
    x, y, flags = resolve_box(grid, body.x, body.y, body.w, body.h, dx, dy, body.one_way_bottom,
                              drop_through, tie_px, largest_first, guard, trace, probe)
    return Move(x, y, contacts_from(flags, probe))


# ----------------------------------------------------------------------------------------------
# The article: move, gather by area, resolve the largest first along its least separation
# ----------------------------------------------------------------------------------------------

def resolve_box(grid: TileGrid, x0: float, y0: float, w: float, h: float, dx: float, dy: float,
                bottom_before: float, drop_through: bool, tie_px: float, largest_first: bool,
                guard: bool, trace: list[tuple[int, int, str]] | None,
                probe: Probe) -> tuple[float, float, int]:
    """:func:`resolve` on a box: (x, y, contact flags); the cells of the first look go to
    ``probe`` if it is a list."""
    x, y = x0 + dx, y0 + dy  # 1. the whole motion at once
    tw, th = grid.tile_w, grid.tile_h
    flags = 0
    for rnd in range(MAX_ROUNDS):
        # 2. every blocking tile the moved box overlaps, with its intersection's area, and
        # 3. sorted by area, largest first
        hits = overlapping_by_area(grid, x, y, w, h, dy, drop_through, bottom_before,
                                   largest_first, probe if rnd == 0 else None)
        if not hits:
            break
        foot = None  # the highest floor at the body's foot, if a slope is among the hits
        for _area, col, row, kind in hits:  # 4. walk the sorted list
            left, top = col * tw, row * th
            # measured again: an earlier push may have freed the body from this tile
            if (min(x + w, left + tw) - max(x, left) <= EPS
                    or min(y + h, top + th) - max(y, top) <= EPS
                    or kind == SLOPE and (  # above its surface, or a line it was across
                        y + h <= top_under(grid, SLOPE, col, row, x, x + w) + EPS
                        or across_line(grid, col, row, x0, y0, w, h))):
                if trace is not None:
                    trace.append((col, row, "freed"))
                continue
            if kind == SLOPE or (dx and kind == SOLID and y0 + h > top + EPS and grid.slopes
                                 and climbs_from_slope(grid, col, row, x0, y0, w, h, x, y, dx,
                                                       dy)):
                # >> beyond the article: a slope, or a tile the body walks onto off the top of
                # a slope: the floor at its foot
                if foot is None:
                    foot = _foot_top(grid, hits, x0, y0, w, h, x, y, dx, dy)
                use_x, nx, ny = _foot(grid, kind, col, row, x0, y0, w, h, x, y, dx, dy, foot)
            elif kind == ONE_WAY:  # >> beyond the article: one-way tiles
                use_x, nx, ny = _one_way(grid, col, row, x0, w, h, x, dx, dy, drop_through,
                                         bottom_before)
            else:  # push the body out along the axis where it sticks in least
                use_x, nx, ny = _least_separation(grid, col, row, x0, y0, w, h, x, y, dx, dy,
                                                  tie_px, guard, drop_through, bottom_before)
            if use_x:
                flags |= HIT_RIGHT if nx < x else HIT_LEFT
                x = nx
            else:
                flags |= ON_GROUND if ny < y else HIT_CEILING
                y = ny
            if trace is not None:
                trace.append((col, row, "x" if use_x else "y"))
    return x, y, flags


def overlapping_by_area(grid: TileGrid, x: float, y: float, w: float, h: float, dy: float,
                        drop_through: bool, bottom_before: float, largest_first: bool = True,
                        probed: Probe = None) -> list[Hit]:
    """Blocking tiles the box overlaps by more than EPS, largest intersection area first.

    With ``largest_first`` false the list stays in row-major order (the article's "natural"
    order). Every cell looked at is appended to ``probed`` if given.
    """
    tw, th = grid.tile_w, grid.tile_h
    right, bottom = x + w, y + h
    columns = grid.cols_between(x + EPS, right - EPS)
    hits: list[Hit] = []
    for row in grid.rows_between(y + EPS, bottom - EPS):
        if probed is not None:
            probed.extend((col, row) for col in columns)
        top = row * th
        oy = min(bottom, top + th) - max(y, top)  # the intersection's height
        if oy <= EPS:
            continue
        for col in columns:
            kind = grid.kind(col, row)
            if not _blocks(kind, top, dy, drop_through, bottom_before):
                continue
            left = col * tw
            ox = min(right, left + tw) - max(x, left)  # and its width
            if ox <= EPS:
                continue
            if kind != SLOPE:
                hits.append((ox * oy, col, row, kind))
            # >> beyond the article: a slope counts by its shape, the part under its surface
            elif bottom > top_under(grid, SLOPE, col, row, x, right) + EPS:
                hits.append((slope_area(grid, col, row, x, y, right, bottom), col, row, kind))
    if largest_first:
        hits.sort(key=lambda hit: -hit[0])  # stable: equal areas keep row-major order
    return hits


def _least_separation(grid: TileGrid, col: int, row: int, x0: float, y0: float, w: float,
                      h: float, x: float, y: float, dx: float, dy: float, tie_px: float,
                      guard: bool, drop_through: bool,
                      bottom_before: float) -> tuple[bool, float, float]:
    """The push out of a solid tile: (along x?, x, y), on the axis of least separation among
    those the body crossed the tile's edge on in this move, against the motion (see the
    departures)."""
    tw, th = grid.tile_w, grid.tile_h
    left, top = col * tw, row * th
    right, bottom = left + tw, top + th
    # The push back against the motion on each axis, and whether the body crossed the tile's
    # edge on that axis during this move (it was wholly outside before).
    if dx > 0:
        nx, sx, ok_x = left - w, x + w - left, x0 + w <= left + EPS
    elif dx < 0:
        nx, sx, ok_x = right, right - x, x0 >= right - EPS
    else:
        nx, sx, ok_x = x, 0.0, False
    if dy > 0:
        ny, sy, ok_y = top - h, y + h - top, y0 + h <= top + EPS
    elif dy < 0:
        ny, sy, ok_y = bottom, bottom - y, y0 >= bottom - EPS
    else:
        ny, sy, ok_y = y, 0.0, False
    if ok_x and ok_y:
        # ties go to the axis moved along more; then no push may bury the body in another tile
        use_x = abs(dx) > abs(dy) if abs(sx - sy) <= tie_px else sx < sy
        if guard:  # >> beyond the article: no push into another tile
            buries_x = _buries(grid, col, row, x, y, w, h, nx, y, dy, drop_through,
                               bottom_before)
            buries_y = _buries(grid, col, row, x, y, w, h, x, ny, dy, drop_through,
                               bottom_before)
            if use_x and buries_x and not buries_y:
                use_x = False
            elif not use_x and buries_y and not buries_x:
                use_x = True
        return use_x, nx, ny
    if ok_x or ok_y:
        return ok_x, nx, ny
    # Started inside the tile: the plain rule, never along the motion.
    if dx == 0:
        sl, sr = x + w - left, right - x
        nx, sx = (left - w, sl) if sl <= sr else (right, sr)
    if dy == 0:
        su, sd = y + h - top, bottom - y
        ny, sy = (top - h, su) if su <= sd else (bottom, sd)
    return sx < sy, nx, ny


# ----------------------------------------------------------------------------------------------
# Beyond the article: one-way tiles, the guard against burying the body, slopes
# ----------------------------------------------------------------------------------------------

def _blocks(kind: int, top: float, dy: float, drop_through: bool, bottom_before: float) -> int:
    """0 if a cell of this kind (its top at ``top``) does not block this move, 1 if it is solid
    (or a slope), 2 if one-way: a one-way tile counts only for a body moving down whose bottom
    was at or above its top when the tick began, not dropping through."""
    if kind == EMPTY:
        return 0
    if kind == ONE_WAY:
        if dy > 0 and not drop_through and one_way_counts(bottom_before, top):
            return 2
        return 0
    return 1


def _one_way(grid: TileGrid, col: int, row: int, x0: float, w: float, h: float, x: float,
             dx: float, dy: float, drop_through: bool,
             bottom_before: float) -> tuple[bool, float, float]:
    """The push out of a one-way tile: (along x?, x, y). Upwards, unless the lifted box is not
    free (a tile sits on the platform, or the lift would raise the body past where it started,
    into a tile) and the body came into this tile's column from the side in this move: then the
    platform's end is a wall, and the body keeps its vertical motion."""
    tw = grid.tile_w
    left, right = col * tw, (col + 1) * tw
    ny = row * grid.tile_h - h
    if dx and overlapping_by_area(grid, x, ny, w, h, dy, drop_through, bottom_before,
                                  largest_first=False):
        if dx > 0 and x0 + w <= left + EPS:
            return True, left - w, ny
        if dx < 0 and x0 >= right - EPS:
            return True, right, ny
    return False, x, ny


def _buries(grid: TileGrid, skip_col: int, skip_row: int, x: float, y: float, w: float,
            h: float, nx: float, ny: float, dy: float, drop_through: bool,
            bottom_before: float) -> bool:
    """True if moving the box from (x, y) to (nx, ny) sinks it deeper into a blocking tile."""
    tw, th = grid.tile_w, grid.tile_h
    cols, rows, kinds = grid.cols, grid.rows, grid.kinds
    along_x = nx != x
    first = max(math.floor((nx + EPS) / tw), 0)
    end = min(math.ceil((nx + w - EPS) / tw), cols)
    # the box's cells, clipped to the map (outside it nothing blocks)
    first_row = max(math.floor((ny + EPS) / th), 0)
    for row in range(first_row, min(math.ceil((ny + h - EPS) / th), rows)):
        top = row * th
        ay = min(ny + h, top + th) - max(ny, top)
        if ay <= EPS:
            continue
        at = row * cols
        for col in range(first, end):
            if (col == skip_col and row == skip_row
                    or not _blocks(kinds[at + col], top, dy, drop_through, bottom_before)):
                continue
            if kinds[at + col] == SLOPE:  # by its shape: more of the box under its surface
                if (slope_area(grid, col, row, nx, ny, nx + w, ny + h)
                        > slope_area(grid, col, row, x, y, x + w, y + h) + EPS):
                    return True
                continue
            left = col * tw
            ax = min(nx + w, left + tw) - max(nx, left)
            if ax <= EPS:
                continue
            if along_x:
                if ax > min(x + w, left + tw) - max(x, left) + EPS:
                    return True
            elif ay > min(y + h, top + th) - max(y, top) + EPS:
                return True
    return False


def _foot_top(grid: TileGrid, hits: list[Hit], x0: float, y0: float, w: float, h: float,
              x: float, y: float, dx: float, dy: float) -> float:
    """The highest top among the hits that are floors at the body's foot (slopes it can climb
    onto, or tiles it walks onto off a slope), or inf."""
    best = math.inf
    fell = dy if dy > 0 else 0.0
    for _area, col, row, kind in hits:
        if kind == SLOPE:
            if (y0 >= (row + 1) * grid.tile_h - EPS
                    or across_line(grid, col, row, x0, y0, w, h)):
                continue  # met from below, or not at all
        elif not (kind == SOLID and dx and y0 + h > row * grid.tile_h + EPS
                  and climbs_from_slope(grid, col, row, x0, y0, w, h, x, y, dx, dy)):
            continue
        top = top_under(grid, kind, col, row, x, x + w)
        if top < best and climbs_onto(grid, kind, col, row, top, x0, w, y0 + h, y + h, dx, fell):
            best = top
    return best


def _foot(grid: TileGrid, kind: int, col: int, row: int, x0: float, y0: float, w: float,
          h: float, x: float, y: float, dx: float, dy: float,
          foot: float) -> tuple[bool, float, float]:
    """How to leave a slope tile (or a tile stepped onto from a slope): (along x?, x, y).

    Met from below, a slope is a box: its bottom is a ceiling to a rising body, its side a wall.
    Otherwise the push up to the surface is taken if it is no more than the body's climb and fall
    in this move (:func:`footing.climbs_onto`): for a slope of up to 45 degrees that push is never
    more than the push back along x, so it is the least separation (ties go to the surface). A
    steeper slope, or a step at a side the body crossed, is a wall: the body goes back along x to
    where the surface reaches its bottom. So is a floor with no room above it: the box lifted onto
    the highest floor at its foot (``foot``) must be free, as no push may bury the body in
    another tile.
    """
    base = (row + 1) * grid.tile_h
    if dx > 0:
        nx = wall_x(grid, kind, col, row, y + h, True) - w
        nx = nx if nx > x0 else x0  # never back past the start
    elif dx < 0:
        nx = wall_x(grid, kind, col, row, y + h, False)
        nx = nx if nx < x0 else x0
    else:
        nx = x
    if kind == SLOPE and y0 >= base - EPS:  # met from below: a box
        if dy < 0:
            return False, x, float(base)
        return dx != 0, nx, y
    top = top_under(grid, kind, col, row, x, x + w)
    if not climbs_onto(grid, kind, col, row, top, x0, w, y0 + h, y + h, dx,
                       dy if dy > 0 else 0.0):
        return dx != 0, nx, top - h  # a wall (or, not moving sideways, still the surface)
    if dx and not room_at(grid, x, (foot if foot < top else top) - h, w, h):
        return True, nx, top - h
    return False, nx, top - h


def climbs_from_slope(grid: TileGrid, col: int, row: int, x0: float, y0: float, w: float,
                      h: float, x: float, y: float, dx: float, dy: float) -> bool:
    """Is the solid tile (col, row) a floor the body steps onto from the slope it stood on?"""
    return (on_slope(grid, x0, w, y0 + h)
            and climbs_onto(grid, SOLID, col, row, float(row * grid.tile_h), x0, w, y0 + h,
                            y + h, dx, dy if dy > 0 else 0.0))
