"""``overlap``'s fast twin: the commonest moves answered from one look at the moved box's cells,
exactly as the lesson's rounds (:func:`game.resolvers.overlap.resolve_box`) answer them.

Most moves meet nothing, or meet one line of plain solid tiles square on: a floor landed or
stood on, a ceiling bumped, a wall run into. :class:`FastOverlap` looks once at the moved box's
cells (the first round's own look) and answers these itself; everything else (slopes, one-way
tiles, corners, a tile entered across two edges, a push that would need a further round) goes
to the rounds. Why the answers agree: when every blocking tile lies in one row (or column) and
the first tile of the sorted list was crossed on y (or x) only in this move, the technique
pushes the body back out across that edge; the push frees it from every other tile of the line
(they share the edge), and the second round finds nothing: the rest of the moved box was empty,
and the cells the pushed box adds are looked at here. Any condition not met gives None: ask the
rounds.
"""

from __future__ import annotations

from math import ceil, floor

from game.maps.grid import EPS, SOLID, TileGrid
from game.resolvers.base import HIT_CEILING, HIT_LEFT, HIT_RIGHT, ON_GROUND, Probe
from game.resolvers.overlap import OverlapResolver, climbs_from_slope, resolve_box


class FastOverlap(OverlapResolver):
    """:class:`OverlapResolver` for play: the commonest moves without the rounds."""

    def move_box(self, grid: TileGrid, x: float, y: float, w: float, h: float, dx: float,
                 dy: float, one_way_bottom: float, drop_through: bool,
                 probe: Probe) -> tuple[float, float, int]:
        if probe is not None:
            return OverlapResolver.move_box(self, grid, x, y, w, h, dx, dy, one_way_bottom,
                                            drop_through, probe)
        # The first round's look at the moved box, a row of one or two cells read straight from
        # the grid's bytes: nothing there, or one line of solid tiles, has a short answer; the
        # rest goes to the rounds.
        nx, ny = x + dx, y + dy
        tw = grid.tile_w
        th = grid.tile_h
        cols = grid.cols
        kinds = grid.kinds
        first, end = floor((nx + EPS) / tw), ceil((nx + w - EPS) / tw)
        top_row, end_row = floor((ny + EPS) / th), ceil((ny + h - EPS) / th)
        lo = first if first > 0 else 0
        n = (end if end < cols else cols) - lo  # the box's columns in the map
        row = top_row if top_row > 0 else 0
        stop = end_row if end_row < grid.rows else grid.rows
        if n < 1:
            row = stop  # none of the box's columns is in the map
        at = row * cols + lo
        while row < stop:
            if (kinds[at] or n > 1 and (kinds[at + 1] or n > 2 and busy(kinds, at + 2, at + n))):
                hi = lo + n
                if row == end_row - 1 and dy > 0.0:
                    # A floor: row_ahead's commonest case, written out here, the tiles' edges
                    # in floats (the same values; float with float is the interpreter's fast
                    # case, float with int its slow one).
                    fw, fh = tw + 0.0, th + 0.0
                    top = row * fh
                    low = top + fh
                    bottom = ny + h
                    oy = (low if low < bottom else bottom) - (top if top > ny else ny)
                    if y + h > top + EPS:
                        done = None  # below the row's top before the move: not a floor
                    else:
                        if oy > EPS:  # was above it, and sank into it
                            right = nx + w
                            i, e, best, left = at, at + n, 0.0, -1.0
                            while i < e:  # the first largest overlap; plain solid tiles only
                                kind = kinds[i]
                                if kind == SOLID:
                                    a = (lo + i - at) * fw
                                    far = a + fw
                                    ox = (far if far < right else right) - (a if a > nx else nx)
                                    if (ox > EPS and ox * oy > best
                                            and (self._largest_first or left < 0.0)):
                                        best, left = ox * oy, a
                                elif kind:
                                    break
                                i += 1
                            fy = row * th - h  # as the rounds work it out (an int if h is one)
                            far = fy + h
                            if (i == e and left >= 0.0 and fy < ny  # lifted, not pushed sideways
                                    and not (dx > 0.0 and x + w <= left + EPS
                                             or dx < 0.0 and x >= left + fw - EPS)
                                    and ((low if low < far else far)
                                         - (top if top > fy else fy) <= EPS)  # out of the row
                                    and (fy + EPS) / th >= top_row):  # and no higher than the box
                                return nx, fy, ON_GROUND
                        done = row_ahead(grid, row, lo, hi, top_row, stop, x, y, w, h, dx,
                                         dy, nx, ny, self._largest_first)
                elif dy < 0.0 and row == top_row:
                    done = row_ahead(grid, row, lo, hi, top_row, stop, x, y, w, h, dx, dy, nx,
                                     ny, self._largest_first)
                else:
                    done = None
                if done is None and dx:
                    done = column_ahead(grid, row, lo, hi, top_row, stop, x, y, w, h, dx, dy,
                                        nx, ny, self._largest_first)
                if done is None:
                    return resolve_box(grid, x, y, w, h, dx, dy, one_way_bottom, drop_through,
                                       self._tie_px, self._largest_first, True, None, None)
                return done
            row += 1
            at += cols
        # Every cell is empty: the technique finds no tile to push out of.
        return nx, ny, 0


def busy(kinds: bytes, start: int, stop: int) -> bool:
    """Is any of the cells ``kinds[start:stop]`` not empty?"""
    while start < stop:
        if kinds[start]:
            return True
        start += 1
    return False


def row_ahead(grid: TileGrid, row: int, lo: int, hi: int, top_row: int, stop: int, x0: float,
               y0: float, w: float, h: float, dx: float, dy: float, x: float, y: float,
               largest_first: bool) -> tuple[float, float, int] | None:
    """A floor (``dy > 0``, ``row`` the box's bottom row) or a ceiling (``dy < 0``, its top row):
    the box's cells are columns ``lo`` to ``hi`` and rows ``top_row`` to ``stop`` (clipped to
    the map); the rows before ``row`` are empty, the others must be."""
    tw, th, cols, kinds = grid.tile_w, grid.tile_h, grid.cols, grid.kinds
    top = row * th
    low = top + th
    if dy > 0.0:
        if y0 + h > top + EPS:
            return None  # below the row's top before the move: not crossed on y
    elif y0 < low - EPS:
        return None
    r = row + 1
    while r < stop:  # the rows under a ceiling
        if busy(kinds, r * cols + lo, r * cols + hi):
            return None
        r += 1
    bottom = y + h
    oy = (low if low < bottom else bottom) - (top if top > y else y)
    if oy <= EPS:
        return x, y, 0  # the row is only touched: none of its tiles counts
    right = x + w
    at = row * cols
    best, best_col, col = 0.0, -1, lo
    while col < hi:
        kind = kinds[at + col]
        if kind:
            if kind != SOLID:
                return None
            left = col * tw
            far = left + tw
            ox = (far if far < right else right) - (left if left > x else x)
            # the first largest area (the sort is stable), or in row-major order the first
            if ox > EPS and ox * oy > best and (largest_first or best_col < 0):
                best, best_col = ox * oy, col
        col += 1
    if best_col < 0:
        return x, y, 0  # every tile only touched
    left = best_col * tw
    if (dx > 0.0 and x0 + w <= left + EPS or dx < 0.0 and x0 >= left + tw - EPS
            or dx and y0 + h > top + EPS and grid.slopes
            and climbs_from_slope(grid, best_col, row, x0, y0, w, h, x, y, dx, dy)):
        return None  # crossed on x too, or a floor stepped onto off a slope
    if dy > 0.0:
        ny = top - h
        if not ny < y:
            return None
        ends, flag = floor((ny + EPS) / th), ON_GROUND
        r, end = (ends if ends > 0 else 0), top_row
    else:
        ny = low
        if not ny > y:
            return None
        ends, flag = ceil((ny + h - EPS) / th), HIT_CEILING
        r, end = stop, (ends if ends < grid.rows else grid.rows)
    far = ny + h
    if (low if low < far else far) - (top if top > ny else ny) > EPS:
        return None  # the push leaves the body in the row (rounding)
    while r < end:  # the rows the pushed box reaches beyond the moved one
        if busy(kinds, r * cols + lo, r * cols + hi):
            return None
        r += 1
    return x, ny, flag


def column_ahead(grid: TileGrid, row: int, lo: int, hi: int, top_row: int, stop: int,
                  x0: float, y0: float, w: float, h: float, dx: float, dy: float, x: float,
                  y: float, largest_first: bool) -> tuple[float, float, int] | None:
    """A wall: every blocking cell of the box in one column, the first in ``row`` (the box as
    for :func:`row_ahead`). The tiles' edges are floats (see OverlapResolver.move_box)."""
    tw = grid.tile_w
    th = grid.tile_h
    cols = grid.cols
    kinds = grid.kinds
    fw, fh = tw + 0.0, th + 0.0
    at = row * cols
    col = lo
    while not kinds[at + col]:
        col += 1
    left = col * fw
    far = left + fw
    right, bottom = x + w, y + h
    ox = (far if far < right else right) - (left if left > x else x)
    best, best_row = 0.0, -1
    r = row
    while r < stop:
        at = r * cols
        c = lo
        while c < hi:
            if kinds[at + c] and c != col:
                return None
            c += 1
        kind = kinds[at + col]
        if kind:
            if kind != SOLID:
                return None
            top = r * fh
            low = top + fh
            oy = (low if low < bottom else bottom) - (top if top > y else y)
            if oy > EPS and ox > EPS and ox * oy > best and (largest_first or best_row < 0):
                best, best_row = ox * oy, r
        r += 1
    if best_row < 0:
        return x, y, 0  # every tile only touched
    top = best_row * fh
    if (not (dx > 0.0 and x0 + w <= left + EPS or dx < 0.0 and x0 >= far - EPS)
            or dy > 0.0 and y0 + h <= top + EPS or dy < 0.0 and y0 >= top + fh - EPS
            or y0 + h > top + EPS and grid.slopes
            and climbs_from_slope(grid, col, best_row, x0, y0, w, h, x, y, dx, dy)):
        return None  # not crossed on x, or crossed on y too, or a step off a slope
    if dx > 0.0:
        nx = col * tw - w  # as the rounds work it out (an int if w is one)
        if not nx < x:
            return None
        ends, flag = floor((nx + EPS) / tw), HIT_RIGHT
        c, end = (ends if ends > 0 else 0), lo
    else:
        nx = col * tw + tw
        if not nx > x:
            return None
        ends, flag = ceil((nx + w - EPS) / tw), HIT_LEFT
        c, end = hi, (ends if ends < cols else cols)
    edge = nx + w
    if (far if far < edge else edge) - (left if left > nx else nx) > EPS:
        return None  # the push leaves the body in the column (rounding)
    first_row = top_row if top_row > 0 else 0
    while c < end:  # the columns the pushed box reaches beyond the moved one
        at = first_row * cols + c
        while at < stop * cols:
            if kinds[at]:
                return None
            at += cols
        c += 1
    return nx, y, flag
