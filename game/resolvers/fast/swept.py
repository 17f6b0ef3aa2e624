"""``swept``'s fast twin: the usual moves answered without the passes, with their own operations
(:mod:`game.resolvers.swept`).

:class:`FastSwept` answers, when no probed cells are wanted: a motion with nothing in its broad
phase and a walk along a flat floor (both from a look at the grid's bytes); a motion that may
hit no tile of its broad phase (:func:`enters`); a wall met sideways with the rest of the motion
free along it (:func:`along_wall`); a walk off a floor's end (:func:`_off_a_ledge`); a landing on
a flat floor, solid along the whole broad phase or only in part (:func:`landing`), and a rise
into a flat ceiling (:func:`ceiling`). Each is taken only when the cells around the motion say
the passes would find exactly that, and is worked out as the passes work it out, operation for
operation (the first hit's time from the same slabs, the same step back by EPS, the same slide,
the same floor helpers), so it gives the same numbers to the last bit; anything less plain (a
slope or one-way tile near, a tie between two faces, a corner met on two faces) is left to the
passes. In the wall's loop (the most frequent of these) the slab test is written out rather than
called: a call per tile costs more than the test; the rarer ones call :func:`slab`.
"""

from __future__ import annotations

from math import ceil as _ceil
from math import floor as _floor
from math import inf as INF

from game.maps.grid import EMPTY, EPS, SLOPE, SOLID, TileGrid
from game.resolvers.base import HIT_CEILING, HIT_LEFT, HIT_RIGHT, ON_GROUND, Probe
from game.resolvers.swept import TIE, SweptResolver, broad_phase, passes, slab
from game.resolvers.swept_floors import floor_ends, floor_top, on_flat_floor


class FastSwept(SweptResolver):
    """:class:`SweptResolver` for play: the usual moves answered without the passes."""

    def move_box(self, grid: TileGrid, x: float, y: float, w: float, h: float, dx: float,
                 dy: float, one_way_bottom: float, drop_through: bool,
                 probe: Probe) -> tuple[float, float, int]:
        if probe is None:
            # The usual moves, answered from the grid's bytes with what the passes would find
            # (walked by index in while loops: a range or a slice costs more than the one or two
            # cells a row of the broad phase holds here). The rest goes to the lesson.
            tw = grid.tile_w
            th = grid.tile_h
            cols = grid.cols
            kinds = grid.kinds
            if dx > 0.0:
                left, right = x, x + w + dx
            else:
                left, right = x + dx, x + w
            # the broad phase's columns, as first_hit takes them (not yet clipped to the map)
            c0, c1 = _floor((left - EPS) / tw), _ceil((right + EPS) / tw)
            bottom = y + h
            if dy > 0.0 and dx and not bottom % th and 0 <= c0 and c1 <= cols and w >= 1.0:
                # A walk along a flat floor: the bottom on a row's top, that row solid under
                # the broad phase (or at least under the body at the start and at the end, with
                # no slope there), the rows above it that the body overlaps empty there. The
                # passes find the floor hit at once (on_flat_floor), no wall in the slide
                # (nothing beside the body), a floor still under it at the end (floor_ends),
                # and no other floor within _SETTLE of its bottom there (floor_top: the row above
                # is empty, no slope in this one): on the row's top.
                row = int(bottom // th)
                top = row * th
                y2 = top - h
                if 0 < row < grid.rows and -EPS <= top - (y2 + h) <= EPS:
                    at = row * cols
                    i, stop = at + c0, at + c1
                    while i < stop and kinds[i] == SOLID:
                        i += 1
                    if i < stop and stays_on(kinds, at, x, w, dx, tw):
                        i = stop  # near a floor's end, but on the floor at the start and end
                    while i == stop:  # (a loop only to leave it: "break" is "not the usual")
                        # the rows the body overlaps, from the one above the floor up
                        at -= cols
                        i, stop = at + c0, at + c1
                        while i < stop and not kinds[i]:
                            i += 1
                        if i < stop:
                            break
                        row -= 1
                        if row * th <= y2 or not row:  # its top row, or the map's
                            return x + dx, y2, ON_GROUND
            # A motion that enters no tile of its broad phase (by first_hit's slabs: a ceiling
            # or wall only touched or left, a tile reached just at the end): the whole motion.
            if dy > 0.0:
                r0, r1 = _floor((y - EPS) / th), _ceil((bottom + dy + EPS) / th)
            else:
                r0, r1 = _floor((y + dy - EPS) / th), _ceil((bottom + EPS) / th)
            if r0 < 0:
                r0 = 0
            if r1 > grid.rows:
                r1 = grid.rows
            lo, hi = (c0 if c0 > 0 else 0), (c1 if c1 < cols else cols)
            row, at = r0, r0 * cols
            while row < r1 and lo < hi:
                i, stop = at + lo, at + hi
                while i < stop and not kinds[i]:
                    i += 1
                if i < stop:
                    break
                row += 1
                at += cols
            else:
                return (x + dx, y + dy, 0) if dx or dy else (x, y, 0)
            # A wall met sideways with the rest of the motion free along it (a body pressed
            # against a wall as it jumps or falls: the most frequent of what is left)
            if dx:
                along = along_wall(grid, x, y, w, h, dx, dy, lo, hi, r0, r1)
                if along is not None:
                    return along
            one_way_from = INF if drop_through else one_way_bottom
            m = bottom % th  # (only near a row's top can the body stand on a floor)
            if dy > 0.0 and (m < 2 * EPS or m > th - 2 * EPS) and on_flat_floor(
                    grid, x, w, bottom, one_way_from):
                # standing on a floor: a walk off its end (the passes start from the floor
                # even when the fall is too short to enter its slab)
                if dx:
                    fell = _off_a_ledge(grid, x, y, w, h, dx, dy, one_way_from)
                    if fell is not None:
                        return fell
            elif not enters(grid, x, y, w, h, dx, dy, lo, hi, row, r1):
                return (x + dx, y + dy, 0) if dx or dy else (x, y, 0)
            # A landing on a flat floor, a rise into a ceiling (see each: the first hit and what
            # the passes do after it)
            if dy and 0 <= c0 and c1 <= cols and w >= 1.0 and h >= 1.0:
                met = (landing(grid, x, y, w, h, dx, dy, c0, c1, r0, one_way_from) if dy > 0.0
                       else ceiling(grid, x, y, w, h, dx, dy, c0, c1, r1))
                if met is not None:
                    return met
        return passes(grid, x, y, w, h, dx, dy, INF if drop_through else one_way_bottom, probe)


def _off_a_ledge(grid: TileGrid, x: float, y: float, w: float, h: float, dx: float, dy: float,
                 one_way_from: float) -> tuple[float, float, int] | None:
    """A walk off a floor's end (from on a flat floor, dx and dy > 0), as the passes take it:
    on the floor's top, a slide along it that enters no tile to where the floor ends
    (floor_ends), then the fall the floor took away, for the rest of the slide, entering no
    tile: (x, y, 0); None if it is not that simple."""
    th = grid.tile_h
    y = round((y + h) / th) * th - h
    if motion_enters(grid, x, y, w, h, dx, 0.0):
        return None
    off = floor_ends(grid, x, w, y + h, dx, one_way_from)
    if off is None or off == INF:
        return None
    mx = dx - off
    my = dy * mx / dx
    x += off
    if not mx:  # off the end just where the slide ends: no fall left
        return x, y, 0
    if motion_enters(grid, x, y, w, h, mx, my):
        return None
    return x + mx, y + my, 0


def landing(grid: TileGrid, x: float, y: float, w: float, h: float, dx: float, dy: float,
            c0: int, c1: int, r0: int, one_way_from: float) -> tuple[float, float, int] | None:
    """A fall (dy > 0) onto a flat floor: (x, y, ON_GROUND), or None if it is not that simple
    (``c0, c1``: the broad phase's columns, in the map; ``r0``: its first row, clipped).

    It is, for a body more than EPS above a row's top (:func:`on_flat_floor` says no) whose
    next row down is solid or empty along the broad phase and reached in the motion, with
    nothing in the rows above it that either pass enters (a column wider each side: the
    slide's broad phase may round one wider). The first hit is then that row's top, at the
    same time for every solid cell the body is over (one reached by its side is hit later,
    rows below later still), unless a cell's side is reached at a tie with it (a neighbour
    would decide: left to the passes); the slide meets nothing, and where the row is solid all
    along it ends over the row (:func:`floor_ends`), where the settle step finds its top and
    nothing else (:func:`floor_top`); where it is not, those two are asked.
    """
    tw, th, cols, kinds = grid.tile_w, grid.tile_h, grid.cols, grid.kinds
    bottom = y + h
    row = _ceil((bottom - EPS) / th)  # the first row the body is not in
    top = row * th
    land_y = top - h
    if not (0 <= row < grid.rows and top - bottom > EPS and bottom - (top - th) > EPS
            and -EPS <= top - (land_y + h) <= EPS):
        return None
    ey = (top + EPS - bottom) / dy  # the row's slab, as first_hit takes it
    if ey > 1.0 or not ey < (top + th - EPS - y) / dy:
        return None
    # the response, as _passes makes it: back EPS along the normal (ey > 2 EPS / dy, the body
    # being more than EPS above the top), on the top, slide on
    t = ey - EPS / dy
    x1 = x + dx * t
    rx = dx * (1.0 - t)
    if not _clear(grid, c0 - 1, c1 + 1, r0, row, (y, bottom, dy),
                  (land_y, land_y + h, 0.0) if rx else None):
        return None
    at = row * cols
    i, stop = at + c0, at + c1
    while i < stop and kinds[i] == SOLID:
        i += 1
    whole = i == stop  # solid all along the broad phase
    while i < stop and kinds[i] <= SOLID:  # (EMPTY or SOLID)
        i += 1
    if i < stop:
        return None
    if not _row_met(kinds, at, c0, c1, tw, x, x + w, dx, ey):  # on its top
        return None
    end = x1 + rx if rx else x1
    if not whole and dx and (
            (rx and floor_ends(grid, x1, w, land_y + h, rx, one_way_from) is not None)
            or floor_top(grid, end, w, land_y + h, one_way_from) != top):
        return None
    return end, land_y, ON_GROUND


def ceiling(grid: TileGrid, x: float, y: float, w: float, h: float, dx: float, dy: float,
            c0: int, c1: int, r1: int) -> tuple[float, float, int] | None:
    """A rise (dy < 0) into a flat ceiling: (x, y, HIT_CEILING), or None if it is not that
    simple (``c0, c1``: the broad phase's columns, in the map; ``r1``: its end row, clipped).

    :func:`landing` upside down, simpler: the rise stops at the ceiling and does not go on
    where it ends (swept's slide after a ceiling is sideways only). The row above the body
    must be solid or empty along the broad phase and reached in the motion, a solid cell of it
    met on its underside (none at a tie), and nothing in the rows below it that either pass
    enters. The body stops on the row's bottom (an int, as the passes put it, made a float by
    the slide's nought when there is a slide).
    """
    tw, th, cols, kinds = grid.tile_w, grid.tile_h, grid.cols, grid.kinds
    row = _floor((y + EPS) / th) - 1  # the last row above the body that it is not in
    under = (row + 1) * th  # its bottom
    if not (0 <= row < grid.rows and y - under > EPS and under + th - y > EPS):
        return None
    yb = y + h
    ey = (under - EPS - y) / dy  # the row's slab, as first_hit takes it
    if ey > 1.0 or not ey < (row * th + EPS - yb) / dy:
        return None
    # the response, as _passes makes it: back EPS along the normal, on the underside, slide on
    t = ey - EPS / (-dy)
    x1 = x + dx * t
    rx = dx * (1.0 - t)
    if not _clear(grid, c0 - 1, c1 + 1, row + 1, r1, (y, yb, dy),
                  (under, under + h, 0.0) if rx else None):
        return None
    at = row * cols
    i, stop = at + c0, at + c1
    while i < stop and kinds[i] <= SOLID:  # (EMPTY or SOLID)
        i += 1
    if i < stop:
        return None
    if not _row_met(kinds, at, c0, c1, tw, x, x + w, dx, ey):  # on its underside
        return None
    # (the slide adds the rise it has left, 0.0, to the int)
    return (x1 + rx, under + 0.0, HIT_CEILING) if rx else (x1, under, HIT_CEILING)


def _row_met(kinds: bytes, at: int, c0: int, c1: int, tw: int, x: float, xr: float, dx: float,
             ey: float) -> bool:
    """Is a solid cell among [c0, c1) of the row whose cells start at index ``at`` met square
    on at ``ey`` (the row's entry time), by its slab on x as first_hit takes it (entered
    before ey, left after)? False too when one is reached on its side at a tie with ey (a
    neighbour would decide: left to the passes)."""
    met = False
    col = c0
    while col < c1:
        tx0 = col * tw
        col += 1
        if kinds[at + col - 1] != SOLID:
            continue
        ex, xx = slab(x, xr, tx0 + EPS, tx0 + tw - EPS, dx)  # (INF, -INF): never over it
        if -TIE <= ex - ey <= TIE:
            return False
        if ex < ey < xx:
            met = True
    return met


def along_wall(grid: TileGrid, x: float, y: float, w: float, h: float, dx: float, dy: float,
                c0: int, c1: int, r0: int, r1: int) -> tuple[float, float, int] | None:
    """A wall met sideways and the rest of the motion free along it (a body pressed against a
    wall as it jumps or falls): (x, y, flags), or None if it is not that simple (``c0, c1, r0,
    r1``: the broad phase, clipped to the map).

    It is, when the column the body's front enters is solid or empty in the broad phase's rows
    and nothing on the body's side of it is in a row either pass enters (a row wider: the
    slide's broad phase may round one wider). The first hit is then that column's
    side, at the same time in every row the body is in (rows reached later are hit later,
    columns beyond later still), unless a row is reached at a tie with it (left to the
    passes); the slide along it meets nothing (the wall is only touched). Nor was the body on
    a floor: a motion down of more than a few EPS enters the row under it, so that is empty.
    """
    tw, th, cols, kinds = grid.tile_w, grid.tile_h, grid.cols, grid.kinds
    # (the columns behind the body are in neither pass: not in the first's broad phase, and
    # the slide, moving no further back than EPS and not sideways, skips them)
    xr = x + w
    if dx > 0.0:
        col = _ceil((xr - EPS) / tw)  # the first column right of the body
        a, b, speed = c0, col, dx
        tx0 = col * tw  # its slab, as first_hit takes it (slab() written out)
        ex, xx = (tx0 + EPS - xr) / dx, (tx0 + tw - EPS - x) / dx
    else:
        col = _floor((x + EPS) / tw) - 1  # the first column left of it
        a, b, speed = col + 1, c1, -dx
        tx0 = col * tw
        ex, xx = (tx0 + tw - EPS - x) / dx, (tx0 + EPS - xr) / dx
    if not (c0 <= col < c1 and 0.0 <= ex <= 1.0) or 0.0 < dy <= 4 * EPS:
        return None
    # the response, as _passes makes it: back EPS along the normal, on the wall, slide on
    t = ex - EPS / speed if ex > EPS / speed else 0.0
    y1 = y + dy * t
    ry = dy * (1.0 - t)
    yb = y + h
    if a < b:  # (_clear written out: this is the most frequent short answer after the first look)
        row, end = r0 - 1, r1 + 1
        row, end = (row if row > 0 else 0), (end if end < grid.rows else grid.rows)
        yb1 = y1 + h
        while row < end:
            i, stop = row * cols + a, row * cols + b
            while i < stop and not kinds[i]:
                i += 1
            if i < stop and not (_row_missed(row * th, th, y, yb, dy)
                                 and (not ry or _row_missed(row * th, th, y1, yb1, ry))):
                return None
            row += 1
    # the wall's column, each row's slab as first_hit takes it: its side met at ex in some
    # row, no row at a tie
    on_side = False
    ty0, i, end = r0 * th, r0 * cols + col, r1 * cols
    while i < end:
        kind = kinds[i]
        if kind == SOLID:
            if dy > 0.0:
                ey, xy = (ty0 + EPS - yb) / dy, (ty0 + th - EPS - y) / dy
            elif dy < 0.0:
                ey, xy = (ty0 + th - EPS - y) / dy, (ty0 + EPS - yb) / dy
            elif yb > ty0 + EPS and y < ty0 + th - EPS:
                ey, xy = -INF, INF
            else:
                ey, xy = INF, -INF
            if not (ey > 1.0 or xy < 0.0):
                if -TIE <= ex - ey <= TIE:
                    return None
                if ey < ex < xy and ex < xx:
                    on_side = True
        elif kind != EMPTY:
            return None
        ty0, i = ty0 + th, i + cols
    if not on_side:
        return None
    x, flags = (tx0 - w, HIT_RIGHT) if dx > 0.0 else (tx0 + tw, HIT_LEFT)
    return (x + 0.0, y1 + ry, flags) if ry else (x, y1, flags)


def motion_enters(grid: TileGrid, x: float, y: float, w: float, h: float, mx: float,
                  my: float) -> bool:
    """:func:`enters` over the broad phase the lesson's ``first_hit`` takes for this motion."""
    c0, c1, r0, r1 = broad_phase(grid, x, y, w, h, mx, my)
    return enters(grid, x, y, w, h, mx, my, (c0 if c0 > 0 else 0),
                  (c1 if c1 < grid.cols else grid.cols), (r0 if r0 > 0 else 0),
                  (r1 if r1 < grid.rows else grid.rows))


def enters(grid: TileGrid, x: float, y: float, w: float, h: float, mx: float, my: float,
           c0: int, c1: int, row: int, r1: int) -> bool:
    """Might the motion (mx, my) hit a tile of columns [c0, c1) and rows [row, r1) (a broad
    phase, clipped to the map) by the slabs of the lesson's ``first_hit``? If not, that finds no
    hit there: for each tile, its row's slab on y or its column's on x is not entered within
    the motion, or one is left before the other is entered (whatever its kind: a slope's
    polygon is inside its cell's slabs; a tie moves an entry by TIE at most)."""
    th, tw, cols, kinds = grid.tile_h, grid.tile_w, grid.cols, grid.kinds
    yb, xr = y + h, x + w
    at = row * cols
    while row < r1:
        i, stop = at + c0, at + c1
        while i < stop and not kinds[i]:
            i += 1
        if i < stop:
            ty0 = row * th
            ey, xy = slab(y, yb, ty0 + EPS, ty0 + th - EPS, my)
            if not (ey > 1.0 or xy < 0.0):
                while i < stop:
                    if kinds[i]:
                        tx0 = (i - at) * tw
                        ex, xx = slab(x, xr, tx0 + EPS, tx0 + tw - EPS, mx)
                        if not (ex > 1.0 or xx < 0.0) and not (
                                (xx if xx < xy else xy) < (ex if ex > ey else ey) - 2 * TIE):
                            return True
                    i += 1
        row += 1
        at += cols
    return False


def _clear(grid: TileGrid, a: int, b: int, row: int, end: int,
           first: tuple[float, float, float], then: tuple[float, float, float] | None) -> bool:
    """Is every cell of columns [a, b) and rows [row, end) (clipped to the map) empty, or in a
    row that both passes pass over: ``first`` and ``then`` (if it happens) as (y, bottom, my)?"""
    th, cols, kinds = grid.tile_h, grid.cols, grid.kinds
    a, b = (a if a > 0 else 0), (b if b < cols else cols)
    row, end = (row if row > 0 else 0), (end if end < grid.rows else grid.rows)
    while row < end:
        i, stop = row * cols + a, row * cols + b
        while i < stop and not kinds[i]:
            i += 1
        if i < stop and not (_row_missed(row * th, th, *first)
                             and (then is None or _row_missed(row * th, th, *then))):
            return False
        row += 1
    return True


def _row_missed(ty0: float, th: int, y: float, yb: float, my: float) -> bool:
    """Does the lesson's ``first_hit`` pass over the row whose top is ``ty0`` for a body from y
    to yb moving by ``my`` (its slab is never entered within the motion)?"""
    if my > 0.0:
        return (ty0 + EPS - yb) / my > 1.0 or (ty0 + th - EPS - y) / my < 0.0
    if my < 0.0:
        return (ty0 + th - EPS - y) / my > 1.0 or (ty0 + EPS - yb) / my < 0.0
    return not (yb > ty0 + EPS and y < ty0 + th - EPS)


def stays_on(kinds: bytes, at: int, x: float, w: float, dx: float, tw: int) -> bool:
    """A walk whose floor row (cells from ``at``) is not solid all along the broad phase: is a
    solid tile of it under the body at the start, and one at the end with no slope there?"""
    under = kinds[at + _floor((x + EPS) / tw):at + _ceil((x + w - EPS) / tw)]
    if SOLID not in under:
        return False
    x += dx
    under = kinds[at + _floor((x + EPS) / tw):at + _ceil((x + w - EPS) / tw)]
    return SOLID in under and SLOPE not in under
