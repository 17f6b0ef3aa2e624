"""``pixel``: whole pixels, one at a time, x then y (Celeste and TowerFall).

Article: Maddy Thorson, "Celeste and TowerFall Physics" (2017),
https://maddythorson.medium.com/celeste-and-towerfall-physics-d24bd2ae0fc5 ; beside it, the
released Celeste code (Maddy Thorson and Noel Berry, 2018), https://github.com/NoelFB/Celeste ,
for what the article leaves out: jump-through platforms and ``Player.cs``'s corner correction.

Axis order: x then y.

The technique, as the article teaches it (its ``MoveX`` and ``MoveY``: here :func:`move_x`, and
:func:`move_down` and :meth:`PixelResolver._move_up` over :func:`rise`):

1. An actor's position is a whole number of pixels; what a move leaves over (less than a pixel) is
   kept per axis as a *remainder* and added to the next move.
2. A move of n whole pixels is taken one pixel at a time: before each pixel the actor asks "would I
   overlap a solid one pixel further?" and, if so, stops where it is and drops the remainder on
   that axis (it is touching the solid, exactly). Nothing is ever pushed out of anything: an actor
   never enters a solid in the first place.
3. x first, then y.

Celeste's code adds two things the article does not teach: *jump-through platforms*, which stop an
actor moving down only if it was not already overlapping them before the pixel; and ``Player.cs``'s
*corner correction*: a jump that hits a ceiling's corner by up to 4 px is nudged sideways round the
corner instead of bumping its head.

Beyond the article, each joined to the passes at a line marked ``# >> beyond the article``: slopes
(a 1 px per px step up or down: :func:`_floor_under`), jump-through (one-way) tiles
(:func:`_onto_one_way`, and the floors :func:`move_down` lands on), corner correction
(:func:`_corner`). Play moves bodies with the fast twin
:class:`game.resolvers.fast.pixel.FastPixel`, which reads each pass's rows from bit masks of the
grid's rows first and answers the usual moves there with the passes' own arithmetic.

Departures, and why:

* **The float position is the remainder.** Positions are floats here, and the "no overlap" rule and
  exact contacts are judged on the float box; so the body's float position *is* Celeste's
  ``Position + remainder``: the pixel steps are whole pixels of it, the last the fraction left
  over. A step that would collide moves the body to the contact (the tile's edge, or a slope's
  surface) and the move on that axis ends: for whole-pixel sizes, Celeste's stop; for any other,
  the body still ends touching, never a fraction away.
* **Free runs at once.** Taken literally, a move costs one overlap test per pixel. Here a run of
  pixels through cells that hold nothing that could stop the body is taken at once, and a flat top
  or a wall of solid tiles is met at its edge, where the pixel walk would stop. Pixel steps are
  left for where the answer can change inside a cell: slopes and a corner correction.
* **Slopes** (Celeste has none; pixel platformers that have them climb a pixel at a time). A body
  that stood on something when the move began (walking, not jumping or falling) and whose sideways
  pixel step is blocked may rise onto what blocked it by up to one pixel per pixel (45 degrees), if
  the raised box is free: a slope's surface, or a ledge at most that high. A steeper surface, or a
  higher step, is a wall. Walking down, it steps down after each pixel onto a floor at most one
  pixel per pixel below it, so it follows a slope down instead of leaving it for a tick; the
  mover's ground snap does the rest.
* **One-way tiles** are Celeste's jump-through platforms (from its code, not the article), with the
  project's tick-wide rule: one counts only for a body moving down whose bottom was at or above its
  top when the tick began (``one_way_bottom``), and never when ``drop_through``. Celeste asks
  before every pixel whether the actor overlapped the platform; in a tick that moves x then y the
  two rules agree, except that here a body that dropped below a platform's top does not land on it
  later in the same tick. So a body that walked down a slope and then comes sideways over a
  platform whose top it began the tick on stands on it (or, with no room on it, stops at its side).
* **Ladders** (``game.maps.grid.with_ladders``): a ladder's top cell is a jump-through floor.
* **Corner correction** is an option (``corner_correction``, px; 0 turns it off; -1, the default,
  is a quarter of the tile width: Celeste's 4 px on this game's 16 px tiles), capped at half the
  body's width. The nudge is the smallest that clears the corner (Celeste tries 1, 2, 3, 4 px: the
  same, in whole pixels), taken only if the nudged box and the box one step higher are free and
  inside the map. Celeste drops what is left of that frame's rise; here the rise goes on from the
  nudged x, so the jump's height does not depend on where in a tick the corner was met. Left
  first when ``dx <= 0``, right when ``dx >= 0`` (Celeste reads the speed).
* **A body that starts inside a tile** (never in play) cannot move on that axis into it, as in
  Celeste. Every pixel of the path is looked at (or proved free): the mover does not sub-step."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import ClassVar

from game.maps.grid import EPS, ONE_WAY, SLOPE, SOLID, TileGrid
from game.resolvers.base import (HIT_CEILING, HIT_LEFT, HIT_RIGHT, ON_GROUND, Article,
                                 BoxResolver, Probe, one_way_counts, overlapping_tiles,
                                 overlaps_any)

INF = math.inf
CLIMB = 1.0  # px a sideways pixel step may rise (or step down) per px: 45 degrees
_BISECT = 40  # halvings to find where a step into a slope's side touches (1 px / 2**40 << EPS)
_CORRECTIONS = 4  # most corner corrections one rising move may take
_WALLS = (SOLID, SLOPE)
_FLOORS = (SOLID, SLOPE, ONE_WAY)


@dataclass(frozen=True)
class PixelOptions:
    """Celeste's corner correction, in px."""

    corner_correction: float = field(default=-1.0, metadata={
        "unit": "px: how far a rising body is nudged sideways round a ceiling corner instead of "
                "bumping its head; 0 = off; -1 = auto: tile width / 4, Celeste's 4 px on 16 px "
                "tiles; at most half the body's width", "lo": -1.0, "hi": 64.0})


class PixelResolver(BoxResolver):
    name: ClassVar[str] = "pixel"
    article: ClassVar[Article] = Article(
        'Celeste and TowerFall Physics',
        'Maddy Thorson',
        '2017',
        'https://maddythorson.medium.com/celeste-and-towerfall-physics-d24bd2ae0fc5')
    axis_order: ClassVar[str] = "x then y"
    supports_slopes: ClassVar[bool] = True
    destination_only: ClassVar[bool] = False
    summary: ClassVar[str] = ("one pixel at a time, stop at the first pixel that would "
                              "collide; corner correction, 1 px/px slope steps")
    Options: ClassVar[type] = PixelOptions

    def __init__(self, options: PixelOptions | None = None) -> None:
        self.options = options or PixelOptions()

    def move_box(self, grid: TileGrid, x: float, y: float, w: float, h: float, dx: float,
                 dy: float, one_way_bottom: float, drop_through: bool,
                 probe: Probe) -> tuple[float, float, int]:
        one_way_from = INF if drop_through else one_way_bottom
        mark = 0 if probe is None else len(probe)
        flags = 0
        if dx:  # x first: MoveX
            x, y, hit = move_x(grid, x, y, w, h, dx, dy >= 0, one_way_from, probe)
            flags = (HIT_RIGHT if dx > 0 else HIT_LEFT) if hit else 0
        if dy > 0:  # then y: MoveY, down...
            y, landed = move_down(grid, x, y, w, h, dy, one_way_from, probe)
            flags |= ON_GROUND if landed else 0
        elif dy < 0:  # ... or up
            x, y, hit = self._move_up(grid, x, y, w, h, dx, -dy, probe)
            flags |= HIT_CEILING if hit else 0
        if probe is not None:
            probe[mark:] = dict.fromkeys(probe[mark:])  # each cell once, first look first
        return x, y, flags

    def _move_up(self, grid: TileGrid, x: float, y: float, w: float, h: float, dx: float,
                 left: float, probe: Probe) -> tuple[float, float, bool]:
        """The rising pass (:func:`rise`), with corner correction: (x, y, hit the ceiling)."""
        reach = _reach(self.options.corner_correction, grid.tile_w, w)
        for _ in range(_CORRECTIONS + 1):
            y, left, cells = rise(grid, x, y, w, h, left, probe)
            if not cells:
                return x, y, False
            # >> beyond the article: corner correction (Celeste's Player.cs)
            nudged = _corner(grid, x, y, w, h, dx, min(left, 1.0), cells, reach) if reach else None
            if nudged is None:
                return x, y, True
            x = nudged
        return x, y, True


# ----------------------------------------------------------------------------------------------
# The article: a pixel at a time, x then y; stop at the first pixel that would collide
# ----------------------------------------------------------------------------------------------

def move_x(grid: TileGrid, x: float, y: float, w: float, h: float, dx: float, not_rising: bool,
           one_way_from: float, probe: Probe) -> tuple[float, float, bool]:
    """The x pass, MoveX: (x, y, hit a wall). One-way tiles never block sideways."""
    tw, th = grid.tile_w, grid.tile_h
    ahead = 1 if dx > 0 else -1
    lead = x + w if dx > 0 else x
    end = lead + dx
    # (the ends are widened by EPS: a column entered by less than float rounding is looked at)
    if dx > 0:
        path = range(math.floor((lead - EPS) / tw), math.ceil((end + EPS) / tw))
    else:
        path = range(math.ceil((lead + EPS) / tw) - 1, math.floor((end - EPS) / tw) - 1, -1)
    r0 = math.floor((y + EPS) / th)
    r1 = math.ceil((y + h - EPS) / th)
    # the first column along the path with a wall or a slope beside the body, or a slope just
    # under it (a floor that can fall away or rise under the feet)
    blocked_at = None
    for col in path:
        if probe is not None:
            _probe_cells(probe, range(r0, r1 + 1), range(col, col + 1))
        if 0 <= col < grid.cols:
            for row in range(r0, r1 + 1):
                kind = grid.kinds[row * grid.cols + col] if 0 <= row < grid.rows else 0
                if kind == SLOPE or (kind == SOLID and row < r1):
                    blocked_at = col
                    break
        if blocked_at is not None:
            break
    if blocked_at is None:
        return x + dx, y, False
    # a free run up to that column's near edge, at once
    near = blocked_at * tw if dx > 0 else (blocked_at + 1) * tw
    free = (near - lead) * ahead
    left = abs(dx)
    if free > 0:
        free = min(free, left)
        x += ahead * free
        left -= free
    # then pixel by pixel (>> beyond the article: slopes, 1 px per px up or down when walking)
    start_y = y
    grounded = not_rising and _floor_under(grid, x, w, y + h, 0.0, one_way_from) != INF
    while left > 0:
        step = 1.0 if left > 1.0 else left
        nx, was = x + ahead * step, (x, y)
        if probe is not None:
            _probe_cells(probe, *_box_cells(grid, nx, y, w, h))
        if not overlaps_any(grid, nx, y, w, h, INF, True):
            x = nx
            left -= step
            if grounded:  # walking down: keep to a floor at most CLIMB px per px below
                floor = _floor_under(grid, x, w, y + h, step * CLIMB, one_way_from)
                if floor == INF:
                    grounded = False  # walked off: from here on it falls (the y pass)
                elif floor > y + h + EPS:
                    y = floor - h
        else:
            cells = overlapping_tiles(grid, nx, y, w, h, INF, True)  # this pixel would collide
            lift = y + h - min(_top(grid, c, r, nx, w) for c, r in cells)
            if not (grounded and 0 < lift <= step * CLIMB + EPS
                    and not overlaps_any(grid, nx, y - lift, w, h, INF, True)):
                return _contact(grid, x, nx, y, w, h, cells, one_way_from), y, True
            x, y = nx, y - lift  # stepped up onto a slope (or a ledge at most that high)
            left -= step
        if y > start_y:  # >> beyond the article: one-way tiles beside a body that walked down
            lifted = _onto_one_way(grid, x, y, w, h, one_way_from)
            if lifted is None:  # no room on it: its side stops the body, as a wall's
                return was[0], was[1], True
            y = lifted
    return x, y, False


def move_down(grid: TileGrid, x: float, y: float, w: float, h: float, dy: float,
              one_way_from: float, probe: Probe) -> tuple[float, bool]:
    """The falling pass, MoveY down: (y, landed)."""
    tw, th = grid.tile_w, grid.tile_h
    c0, c1 = math.floor((x + EPS) / tw), math.ceil((x + w - EPS) / tw)
    cols, map_rows, kinds = grid.cols, grid.rows, grid.kinds
    a, b = (c0 if c0 > 0 else 0), (c1 if c1 < cols else cols)
    tip = math.floor((y + h - EPS) / th)  # >> beyond the article: a bottom at a row's border
    if tip != math.floor((y + h + EPS) / th) and 0 <= tip < map_rows and any(  # touching a
            _top(grid, c, tip, x, w) >= y + h - 2 * EPS for c in range(a, b)  # slope's tip above
            if kinds[tip * cols + c] == SLOPE):  # (move_x stops bodies within EPS) rests on it
        return y, True
    left = dy
    while left > 0:
        bottom = y + h
        first = math.floor((bottom + EPS) / th)  # at a border, the row below
        last = math.floor((bottom + left + EPS) / th)
        hit_row = None
        floors = _WALLS
        for row in range(first, last + 1):
            if probe is not None:
                _probe_cells(probe, range(row, row + 1), range(c0, c1))
            if not 0 <= row < map_rows or a >= b:
                continue  # outside the map every cell is empty
            seg = kinds[row * cols + a:row * cols + b]
            if not seg.strip(b"\0"):
                continue
            if SOLID in seg or SLOPE in seg:
                hit_row, floors = row, (_FLOORS if one_way_from <= row * th + EPS  # counting
                                        else _WALLS)
                break
            # >> beyond the article: jump-through (one-way) tiles, landed on from above
            if ONE_WAY in seg and one_way_from <= row * th + EPS:
                hit_row, floors = row, _FLOORS
                break
        if hit_row is None:
            return y + left, False  # a free run: every pixel of it would be free
        top = hit_row * th
        # (seg is the row under the body: a flat top if it holds a tile that stops the body there)
        flat = SOLID in seg or (floors is _FLOORS and ONE_WAY in seg)
        if flat and top >= bottom - EPS:
            # a flat top: the pixel walk stops exactly there, if it gets there
            if top > bottom + left + EPS:
                return y + left, False
            return (y if top - bottom <= EPS else top - h), True
        if flat and top < bottom - EPS and overlaps_any(grid, x, y, w, h, one_way_from, True):
            return y, True  # already inside a tile: Celeste's actor cannot move into it
        # a free run to the row's top, then pixel by pixel through the row (a slope's surface
        # inside it: >> beyond the article)
        if top > bottom:
            left -= top - bottom
            y = top - h
        row_end = (hit_row + 1) * th
        while left > 0 and y + h < row_end - EPS:
            step = 1.0 if left > 1.0 else left
            ny = y + step
            if probe is not None:
                _probe_cells(probe, *_box_cells(grid, x, ny, w, h))
            if overlaps_any(grid, x, ny, w, h, one_way_from, True):
                cells = overlapping_tiles(grid, x, ny, w, h, one_way_from, True)
                land = min(_top(grid, c, r, x, w) for c, r in cells) - h
                return (land if land > y else y), True
            y = ny
            left -= step
    return y, False


def rise(grid: TileGrid, x: float, y: float, w: float, h: float, left: float,
          probe: Probe) -> tuple[float, float, list[tuple[int, int]]]:
    """Rise up to ``left`` px: (y, px left over, the cells of the ceiling hit or []): MoveY up."""
    tw, th = grid.tile_w, grid.tile_h
    c0, c1 = math.floor((x + EPS) / tw), math.ceil((x + w - EPS) / tw)
    while left > 0:
        first = math.ceil((y - EPS) / th) - 1  # at a border, the row above
        last = math.ceil((y - left - EPS) / th) - 1
        hit_row = None
        for row in range(first, last - 1, -1):
            if probe is not None:
                _probe_cells(probe, range(row, row + 1), range(c0, c1))
            if _holds(grid, row, c0, c1, _WALLS):  # one-way tiles never block rising
                hit_row = row
                break
        if hit_row is None:
            return y - left, 0.0, []
        base = (hit_row + 1) * th
        step = 1.0 if left > 1.0 else left
        if _holds(grid, hit_row, c0, c1, (SOLID,)) and base <= y + EPS:
            # a flat underside: the pixel walk stops exactly there, if it gets there
            if base < y - left - EPS:
                return y - left, 0.0, []
            if base < y - EPS:
                left -= y - base
                y = base
                if left <= 0:
                    return y, 0.0, []
                step = 1.0 if left > 1.0 else left
            cells = overlapping_tiles(grid, x, y - step, w, h, INF, True)
            if cells:
                return y, left, cells
        elif base < y:
            left -= y - base
            y = base
        row_top = hit_row * th
        while left > 0 and y > row_top + EPS:
            step = 1.0 if left > 1.0 else left
            ny = y - step
            if probe is not None:
                _probe_cells(probe, *_box_cells(grid, x, ny, w, h))
            if overlaps_any(grid, x, ny, w, h, INF, True):
                cells = overlapping_tiles(grid, x, ny, w, h, INF, True)
                stop = max((r + 1) * th for _, r in cells)
                return (stop if stop < y else y), left, cells
            y = ny
            left -= step
    return y, 0.0, []


def _top(grid: TileGrid, col: int, row: int, x: float, w: float) -> float:
    """The y a box spanning [x, x + w) rests at on this cell: its top, or its slope's surface."""
    if grid.kind(col, row) == SLOPE:
        lo, hi = max(x, col * grid.tile_w), min(x + w, (col + 1) * grid.tile_w)
        return grid.surface_top(col, row, lo, hi)
    return row * grid.tile_h


def _contact(grid: TileGrid, x: float, nx: float, y: float, w: float, h: float,
             cells: list[tuple[int, int]], one_way_from: float) -> float:
    """The x between the free ``x`` and the blocked ``nx`` where the body touches ``cells``
    (or, walked down, the side of a one-way tile that holds it: :func:`_onto_one_way`)."""
    tw = grid.tile_w
    if nx > x:
        col = min(c for c, _ in cells)
        edge = col * tw - w
        edge = x if edge < x else edge
    else:
        col = max(c for c, _ in cells)
        edge = (col + 1) * tw
        edge = x if edge > x else edge
    if overlaps_any(grid, edge, y, w, h, one_way_from, True):
        edge = x  # (a body that started inside a tile, or a one-way tile's side)
    if all(grid.kind(c, r) == SOLID for c, r in cells if c == col):
        return edge  # a wall's side: exactly on it
    lo, hi = edge, nx  # a slope's surface or side: the farthest free point
    for _ in range(_BISECT):
        mid = (lo + hi) * 0.5
        if overlaps_any(grid, mid, y, w, h, one_way_from, True):
            hi = mid
        else:
            lo = mid
    return lo


def _probe_cells(probe: list[tuple[int, int]], rows: range, cols: range) -> None:
    probe.extend((c, r) for r in rows for c in cols)


def _box_cells(grid: TileGrid, x: float, y: float, w: float, h: float) -> tuple[range, range]:
    return grid.rows_between(y + EPS, y + h - EPS), grid.cols_between(x + EPS, x + w - EPS)


def _holds(grid: TileGrid, row: int, c0: int, c1: int, kinds: tuple[int, ...]) -> bool:
    """Does ``row`` hold one of ``kinds`` in the columns [c0, c1) (clipped to the map)?"""
    c0, c1 = max(c0, 0), min(c1, grid.cols)
    if not 0 <= row < grid.rows or c0 >= c1:
        return False
    cells = grid.kinds[row * grid.cols + c0:row * grid.cols + c1]
    return any(k in cells for k in kinds)


# ----------------------------------------------------------------------------------------------
# Beyond the article: slopes, one-way tiles, corner correction
# ----------------------------------------------------------------------------------------------

def _floor_under(grid: TileGrid, x: float, w: float, bottom: float, reach: float,
                 one_way_from: float) -> float:
    """The highest floor (a tile top or a slope's surface) under [x, x + w) from ``bottom``
    (within EPS above it) to ``reach`` px below it; INF if none."""
    tw, th = grid.tile_w, grid.tile_h
    c0 = math.floor((x + EPS) / tw)
    c1 = math.ceil((x + w - EPS) / tw)
    best = INF
    for row in range(math.floor((bottom - EPS) / th), math.floor((bottom + reach + EPS) / th) + 1):
        if not _holds(grid, row, c0, c1, _FLOORS):
            continue
        top = row * th
        for col in range(max(c0, 0), min(c1, grid.cols)):
            kind = grid.kinds[row * grid.cols + col]
            if kind == SLOPE:
                lo, hi = max(x, col * tw), min(x + w, (col + 1) * tw)
                contact = grid.surface_top(col, row, lo, hi)
            elif kind == SOLID or (kind == ONE_WAY and one_way_counts(one_way_from, top)):
                contact = top
            else:
                continue
            if bottom - EPS <= contact <= bottom + reach + EPS and contact < best:
                best = contact
        if best != INF:
            return best
    return best


def _onto_one_way(grid: TileGrid, x: float, y: float, w: float, h: float,
                  one_way_from: float) -> float | None:
    """The y of a body lower than it began the move: lifted onto a one-way tile whose top the
    move began at or above, if its side has come over that tile below its top (the no-overlap
    rule holds a one-way tile against a body that was above it when the move began); None if
    there is no room on it."""
    if one_way_from == INF:
        return y
    cells = overlapping_tiles(grid, x, y, w, h, one_way_from, True)
    if not cells:
        return y
    tops = [r * grid.tile_h for c, r in cells if grid.kinds[r * grid.cols + c] == ONE_WAY]
    if tops and not overlaps_any(grid, x, min(tops) - h, w, h, one_way_from, True):
        return min(tops) - h
    return None


def _corner(grid: TileGrid, x: float, y: float, w: float, h: float, dx: float, step: float,
            cells: list[tuple[int, int]], reach: float) -> float | None:
    """Celeste's corner correction: the x a rising body blocked by ``cells`` is nudged to (by
    at most ``reach`` px) to pass the ceiling's corner, or None."""
    tw = grid.tile_w
    tries = []
    if dx <= 0:
        tries.append(x - (x + w - min(c for c, _ in cells) * tw))  # its right edge clears them
    if dx >= 0:
        tries.append((max(c for c, _ in cells) + 1) * tw)  # its left edge clears them
    for nx in tries:
        if (abs(nx - x) <= reach + EPS and 0 <= nx and nx + w <= grid.width_px
                and not overlaps_any(grid, nx, y, w, h, INF, True)
                and not overlaps_any(grid, nx, y - step, w, h, INF, True)):
            return nx
    return None


def _reach(option: float, tile_w: int, w: float) -> float:
    """The corner correction used: the option (or tile width / 4), at most half the body."""
    value = tile_w / 4 if option < 0 else option
    return w / 2 if w / 2 < value else value
