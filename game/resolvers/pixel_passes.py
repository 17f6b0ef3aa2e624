"""The passes of ``pixel`` (:mod:`game.resolvers.pixel`): the sideways pixel steps, the fall and
the rise with its corner correction, and the scans of cells they start from. Kept apart from the
resolver class and its fast first looks only for the module's length."""

from __future__ import annotations

import math

from game.maps.grid import EPS, ONE_WAY, SLOPE, SOLID, TileGrid
from game.resolvers.base import Probe, one_way_counts, overlapping_tiles, overlaps_any

INF = math.inf
_floor, _ceil = math.floor, math.ceil
CLIMB = 1.0  # px a sideways pixel step may rise (or step down) per px: 45 degrees
_BISECT = 40  # halvings to find where a step into a slope's side touches (1 px / 2**40 << EPS)
_CORRECTIONS = 4  # most corner corrections one rising move may take

# ----------------------------------------------------------------------------------------------
# Scans: is a run of cells free of anything that could stop the body?
# ----------------------------------------------------------------------------------------------

def _solid_in(grid: TileGrid, slopes: list[int], solids: list[int], x: float, w: float,
              top: int, end: int) -> int | None:
    """The solid tiles a box spanning [x, x + w) overlaps in the rows [top, end) of the map, as
    a mask of columns (the no-overlap rule's cells, for a body no one-way tile holds); None if
    a slope is among its cells (its shape would tell)."""
    tw, cols = grid.tile_w, grid.cols
    c0, c1 = _floor((x + EPS) / tw), _ceil((x + w - EPS) / tw)
    if c0 < 0:
        c0 = 0
    if c1 > cols:
        c1 = cols
    if c0 >= c1:
        return 0
    span, found = (1 << c1) - (1 << c0), 0
    while top < end:
        if slopes[top] & span:
            return None
        found |= solids[top] & span
        top += 1
    return found


def _probe_cells(probe: list[tuple[int, int]], rows: range, cols: range) -> None:
    probe.extend((c, r) for r in rows for c in cols)


def _box_cells(grid: TileGrid, x: float, y: float, w: float, h: float) -> tuple[range, range]:
    return (range(math.floor((y + EPS) / grid.tile_h), math.ceil((y + h - EPS) / grid.tile_h)),
            range(math.floor((x + EPS) / grid.tile_w), math.ceil((x + w - EPS) / grid.tile_w)))


def _holds(grid: TileGrid, row: int, c0: int, c1: int, kinds: tuple[int, ...]) -> bool:
    """Does ``row`` hold one of ``kinds`` in the columns [c0, c1) (clipped to the map)?"""
    if not 0 <= row < grid.rows:
        return False
    if c0 < 0:
        c0 = 0
    if c1 > grid.cols:
        c1 = grid.cols
    if c0 >= c1:
        return False
    cells = grid.kinds[row * grid.cols + c0:row * grid.cols + c1]
    for k in kinds:
        if k in cells:
            return True
    return False


_WALLS = (SOLID, SLOPE)
_FLOORS = (SOLID, SLOPE, ONE_WAY)


# ----------------------------------------------------------------------------------------------
# Sideways
# ----------------------------------------------------------------------------------------------

def _across(grid: TileGrid, x: float, y: float, w: float, h: float, dx: float, not_rising: bool,
            one_way_from: float, probe: Probe) -> tuple[float, float, bool]:
    """The x pass: (x, y, hit a wall). One-way tiles never block sideways."""
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
    # then pixel by pixel
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
            if y > start_y:  # lower than it began: a one-way tile it began above may be beside
                lifted = _onto_one_way(grid, x, y, w, h, one_way_from)
                if lifted is None:  # no room on it: its side stops the body, as a wall's
                    return was[0], was[1], True
                y = lifted
            continue
        cells = overlapping_tiles(grid, nx, y, w, h, INF, True)
        lift = y + h - min(_top(grid, c, r, nx, w) for c, r in cells)
        if grounded and 0 < lift <= step * CLIMB + EPS and not overlaps_any(grid, nx, y - lift, w, h, INF,
                                                               True):
            x, y = nx, y - lift  # stepped up onto a slope (or a ledge at most that high)
            left -= step
            continue
        return _contact(grid, x, nx, y, w, h, cells), y, True
    return x, y, False


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


def _top(grid: TileGrid, col: int, row: int, x: float, w: float) -> float:
    """The y a box spanning [x, x + w) rests at on this cell: its top, or its slope's surface."""
    if grid.kind(col, row) == SLOPE:
        lo, hi = max(x, col * grid.tile_w), min(x + w, (col + 1) * grid.tile_w)
        return grid.surface_top(col, row, lo, hi)
    return row * grid.tile_h


def _contact(grid: TileGrid, x: float, nx: float, y: float, w: float, h: float,
             cells: list[tuple[int, int]]) -> float:
    """The x between the free ``x`` and the blocked ``nx`` where the body touches ``cells``."""
    tw = grid.tile_w
    if nx > x:
        col = min(c for c, _ in cells)
        edge = col * tw - w
        edge = x if edge < x else edge
    else:
        col = max(c for c, _ in cells)
        edge = (col + 1) * tw
        edge = x if edge > x else edge
    if overlaps_any(grid, edge, y, w, h, INF, True):
        edge = x  # (only a body that started inside a tile)
    if all(grid.kind(c, r) == SOLID for c, r in cells if c == col):
        return edge  # a wall's side: exactly on it
    lo, hi = edge, nx  # a slope's surface or side: the farthest free point
    for _ in range(_BISECT):
        mid = (lo + hi) * 0.5
        if overlaps_any(grid, mid, y, w, h, INF, True):
            hi = mid
        else:
            lo = mid
    return lo


# ----------------------------------------------------------------------------------------------
# Vertically
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


def _down(grid: TileGrid, x: float, y: float, w: float, h: float, dy: float,
          one_way_from: float, probe: Probe) -> tuple[float, bool]:
    """The falling pass: (y, landed)."""
    tw, th = grid.tile_w, grid.tile_h
    c0 = math.floor((x + EPS) / tw)
    c1 = math.ceil((x + w - EPS) / tw)
    cols, map_rows, kinds = grid.cols, grid.rows, grid.kinds
    a, b = (c0 if c0 > 0 else 0), (c1 if c1 < cols else cols)
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
        # a free run to the row's top, then pixel by pixel through the row
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


def _rise(grid: TileGrid, x: float, y: float, w: float, h: float, left: float,
          probe: Probe) -> tuple[float, float, list[tuple[int, int]]]:
    """Rise up to ``left`` px: (y, px left over, the cells of the ceiling hit or [])."""
    tw, th = grid.tile_w, grid.tile_h
    c0 = math.floor((x + EPS) / tw)
    c1 = math.ceil((x + w - EPS) / tw)
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
