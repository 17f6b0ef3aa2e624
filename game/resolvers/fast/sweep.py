"""``sweep``'s fast twin: the usual moves answered from a look at the grid's bytes, as the
lesson's passes (:mod:`game.resolvers.sweep`) answer them.

:class:`FastSweep` looks once at the rows of the body and of its vertical motion along its
sideways path, and answers what the passes would find there without walking them: nothing at
all (the whole motion, touching nothing); a walk along solid tiles (the body's own rows empty,
its bottom exactly on a row's top and only solid tiles under it at its new x: it stays on that
top); no solid or slope tile beside the body (every cut of the sideways walk free at this
height); a push against a wall (the leading edge on a column's border, a solid tile of the
column ahead in the shrunk rows: the walk's first cut stops it where it is); and a fall that
starts below the body's own empty rows, through rows of solid tiles read as a whole. The rest
goes to the lesson's passes.
"""

from __future__ import annotations

import math

from game.maps.grid import EPS, SLOPE, SOLID, TileGrid
from game.resolvers.base import (HIT_CEILING, HIT_LEFT, HIT_RIGHT, ON_GROUND, Probe,
                                 overlapping_tiles, overlaps_any)
from game.resolvers.sweep import SweepResolver, _inset

_REACH = 2 * EPS  # more than the walk's cuts, added up, can overshoot the path's end by
_FAR = 2.0 ** 19  # px: a coordinate's rounding stays far under _SNAP below this (_at_wall)
_NONE: frozenset[tuple[int, int]] = frozenset()  # no tile to leave out
_floor, _ceil = math.floor, math.ceil


class FastSweep(SweepResolver):
    """:class:`SweepResolver` for play: the usual moves answered from one look at the grid."""

    def move_box(self, grid: TileGrid, x: float, y: float, w: float, h: float, dx: float,
                 dy: float, one_way_bottom: float, drop_through: bool,
                 probe: Probe) -> tuple[float, float, int]:
        if probe is not None:
            return SweepResolver.move_box(self, grid, x, y, w, h, dx, dy, one_way_bottom,
                                          drop_through, probe)
        bottom_before = one_way_bottom  # one-way tiles judge the bottom at the tick start
        # One look at the grid's bytes, over the rows of the body and of its vertical motion
        # along its sideways path (the columns from its trailing edge to where its leading edge
        # ends, and the next one if that end is within _REACH of its border: no pass looks at
        # another), answers questions that a real scan rarely has to:
        # * with nothing at all there, every pass would find the motion free: it is taken whole;
        # * tiles the body already overlaps (never, in play) are left out so it can get free: the
        #   no-overlap rule is asked only if one of the body's own rows holds anything at all;
        # * with no solid or slope tile in the body's rows, every cut of the sideways walk would
        #   come out free at this height, so the walk is skipped; with nothing at all in them,
        #   the falling pass then starts below them.
        tw, th, cols, rows, kinds = grid.tile_w, grid.tile_h, grid.cols, grid.rows, grid.kinds
        if dx > 0.0:
            first, end = _floor(x / tw), _floor((x + w + dx + _REACH) / tw) + 1
        elif dx < 0.0:
            first, end = _ceil((x + dx - _REACH) / tw) - 1, _ceil((x + w) / tw)
        else:
            first, end = _floor(x / tw), _ceil((x + w) / tw)
        if first < 0:
            first = 0
        if end > cols:
            end = cols
        body, below = _floor((y + EPS) / th), _ceil((y + h - EPS) / th)  # the body's rows
        clear = True  # nothing at all in the rows looked at
        # the rows looked at: the body's, and those the falling or rising pass would look at
        row, end_row = body, below
        pressed = dy > 0.0 and not (y + h) % th
        if pressed:
            clear = False  # pressed onto a row's top: it stands there (the falling pass says)
        elif dy > 0.0:
            end_row = _floor((y + h + dy + EPS) / th) + 1
            if h < 4 * EPS:  # (the falling pass may start above the body's rows)
                last = _floor((y + h - EPS) / th)
                row = last if last < row else row
        elif dy < 0.0:
            row = _floor((y + dy + EPS) / th)
        if row < 0:
            row = 0
        if end_row > rows:
            end_row = rows
        empty = beside_free = True  # nothing in the body's rows; no solid or slope tile there
        while row < end_row:
            at = row * cols
            cells = kinds[at + first:at + end]
            if cells.strip(b"\0"):
                clear = False
                if body <= row < below:
                    empty = False
                    if SOLID in cells or SLOPE in cells:
                        beside_free = False
                        break
            row += 1
        if empty:
            if clear:
                return (x + dx if dx else x), (y + dy if dy else y), 0
            if pressed and 0 <= below < rows:
                # A walk: pressed onto a row's top with nothing in its own rows. If the row
                # under the body at its new x holds solid tiles and nothing else, the falling
                # pass would stop at once, on their top, where the body is.
                to = x + dx if dx else x
                c0, c1 = _floor((to + EPS) / tw), _ceil((to + w - EPS) / tw)
                c0, c1 = (c0 if c0 > 0 else 0), (c1 if c1 < cols else cols)
                if c0 < c1:
                    under = kinds[below * cols + c0:below * cols + c1]
                    if under.strip(b"\0") and not under.strip(b"\0\1"):
                        return to, y, ON_GROUND
        ignore = _NONE
        if (not empty and not _cells_empty(grid, x, w, body, below)
                and overlaps_any(grid, x, y, w, h, bottom_before, True)):
            ignore = frozenset(overlapping_tiles(grid, x, y, w, h, bottom_before, True))
        flags = 0

        if dx:
            if beside_free and (drop_through or bottom_before >= y + h):
                # what the walk would find: every cut free at this height (no one-way tile can
                # hold a body whose bottom is not below where it began the tick)
                x += dx
            else:
                empty = False  # (the falling pass starts at the body's rows)
                iy = _inset(self.options.inset_y, th, h)
                if _at_wall(grid, x, y, w, h, dx, iy, body, below):
                    flags = HIT_RIGHT if dx > 0.0 else HIT_LEFT  # the walk's first cut: a wall
                else:
                    x, y, stopped = self._across(grid, x, y, w, h, dx, iy, bottom_before,
                                                 drop_through, ignore, None)
                    if stopped:
                        flags = HIT_RIGHT if dx > 0 else HIT_LEFT
        if dy > 0.0:
            y, on_ground = _down(self, grid, x, y, w, h, dy, bottom_before, drop_through,
                                 ignore, below if empty else None)
            if on_ground:
                flags |= ON_GROUND
        elif dy < 0.0:
            ix = _inset(self.options.inset_x, tw, w)
            x, y, hit_ceiling = self._up(grid, x, y, w, h, dy, ix, bottom_before, drop_through,
                                         ignore, None)
            if hit_ceiling:
                flags |= HIT_CEILING
        return x, y, flags


def _down(resolver: SweepResolver, grid: TileGrid, x: float, y: float, w: float, h: float,
          dy: float, bottom_before: float, drop_through: bool,
          ignore: frozenset[tuple[int, int]], start: int | None) -> tuple[float, bool]:
    """The lesson's falling pass (``SweepResolver._down``) over rows that are empty or hold
    solid tiles only (the usual floor: every contact at the row's top), from ``start`` if given
    (a row above which the body's columns are known to hold nothing: the move's first look
    found its own rows empty); at the first other row the lesson's pass answers."""
    tw, th, map_cols, kinds = grid.tile_w, grid.tile_h, grid.cols, grid.kinds
    bottom = y + h
    reach = bottom + dy
    c0, c1 = _floor((x + EPS) / tw), _ceil((x + w - EPS) / tw)
    first = c0 if c0 > 0 else 0
    end = c1 if c1 < map_cols else map_cols
    row = _floor((bottom - EPS) / th)
    if start is not None and start > row:
        row = start
    last = _floor((reach + EPS) / th)
    if row < 0:
        row = 0
    if last >= grid.rows:
        last = grid.rows - 1
    while row <= last:
        at = row * map_cols
        cells = kinds[at + first:at + end]
        if cells.strip(b"\0"):
            if ignore or cells.strip(b"\0\1"):
                return resolver._down(grid, x, y, w, h, dy, bottom_before, drop_through, ignore,
                                      None)
            top = row * th
            if bottom - EPS <= top <= reach + EPS:
                return (y if top - bottom <= EPS else top - h), True
        row += 1
    return y + dy, False


def _at_wall(grid: TileGrid, x: float, y: float, w: float, h: float, dx: float, iy: float,
             row: int, end: int) -> bool:
    """True if the sideways walk would stop the body where it is (``row`` to ``end``: its rows):
    its leading edge is on a column's border and a solid tile of the column ahead reaches into
    the shrunk rows. The walk's first cut then has its middle in that column (it is at most a
    tile long and, leftward, about _SNAP at least), so enters it; ``_fit`` judges that column
    first, and there can only answer "a wall at its edge" (the body overlaps none of it)."""
    tw, th, cols = grid.tile_w, grid.tile_h, grid.cols
    if dx > 0.0:
        lead = x + w
        if lead % tw:
            return False
        col = _floor(lead / tw)
    else:
        if x % tw or dx > -EPS or x >= _FAR:
            return False
        col = _floor(x / tw) - 1
    if not 0 <= col < cols:
        return False
    row, end = (row if row > 0 else 0), (end if end < grid.rows else grid.rows)  # in the map
    bottom, kinds = y + h, grid.kinds
    while row < end:
        if kinds[row * cols + col] == SOLID:
            top = row * th
            if not top >= bottom - iy - EPS and not top + th <= y + iy + EPS:
                return True  # in the shrunk rows: the test and sums of _fit, to the bit
        row += 1
    return False


def _cells_empty(grid: TileGrid, x: float, w: float, row: int, end: int) -> bool:
    """True if the body's own cells (``row`` to ``end``: its rows) are all empty: then the
    no-overlap rule's scan, over the same cells, would find nothing, and need not be asked."""
    tw, cols, kinds = grid.tile_w, grid.cols, grid.kinds
    first, last = _floor((x + EPS) / tw), _ceil((x + w - EPS) / tw)
    first, last = (first if first > 0 else 0), (last if last < cols else cols)  # in the map
    row, end = (row if row > 0 else 0), (end if end < grid.rows else grid.rows)
    while row < end:
        if kinds[row * cols + first:row * cols + last].strip(b"\0"):
            return False
        row += 1
    return True
