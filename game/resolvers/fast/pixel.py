"""``pixel``'s fast twin: each pass's first look read from bit masks of the grid's rows, the
usual moves answered there with the lesson's own arithmetic (:mod:`game.resolvers.pixel`).

:class:`FastPixel` keeps, per row, a mask of its solid-or-slope, slope, solid and non-empty
cells (made once per grid in ``prepare``; a door redoes only its rows), so that whether a run of
columns holds a kind of tile is one AND, not a loop over its cells. Sideways, a path with no
wall or slope beside the body is taken whole, and a wall of solid tiles is met at its side
(:meth:`FastPixel._wall`); falling, open rows are passed whole and a flat solid top is landed
on; rising, open rows are passed whole. Everything else (slopes, one-way tiles near, a corner
to correct round, a body inside a tile) goes to the lesson's passes, which give the same floats.
"""

from __future__ import annotations

import math

from game.maps.grid import EMPTY, EPS, ONE_WAY, SLOPE, SOLID, TileGrid
from game.resolvers.base import HIT_CEILING, HIT_LEFT, HIT_RIGHT, ON_GROUND, Probe
from game.resolvers.pixel import INF, PixelOptions, PixelResolver, move_down, move_x

_floor, _ceil = math.floor, math.ceil

# For the row masks: kinds (bytes 0 to 3) to binary digits, "1" where a cell is of that kind.
_WALL_DIGITS = bytes.maketrans(bytes((EMPTY, SOLID, ONE_WAY, SLOPE)), b"0101")
_SLOPE_DIGITS = bytes.maketrans(bytes((EMPTY, SOLID, ONE_WAY, SLOPE)), b"0001")
_SOLID_DIGITS = bytes.maketrans(bytes((EMPTY, SOLID, ONE_WAY, SLOPE)), b"0100")
_FILLED_DIGITS = bytes.maketrans(bytes((EMPTY, SOLID, ONE_WAY, SLOPE)), b"0111")


class FastPixel(PixelResolver):
    """:class:`PixelResolver` for play: the usual moves read from the row masks."""

    def __init__(self, options: PixelOptions | None = None) -> None:
        super().__init__(options)
        self._grid: TileGrid | None = None  # the grid the row masks below were made from
        self._walls: list[int] = []  # per row, bit c set: cell c is solid or a slope
        self._slopes: list[int] = []  # ... a slope
        self._solids: list[int] = []  # ... solid
        self._filled: list[int] = []  # ... anything but empty

    def prepare(self, grid: TileGrid) -> None:
        """The grid's rows as bit masks, for the first looks of :meth:`move_box`: whether a run
        of columns of a row holds a kind of tile is one AND, not a loop over its cells. A grid
        made from the last one by ``with_kinds`` (a door) has only its changed rows redone."""
        if grid is self._grid:
            return
        cols, kinds = grid.cols, grid.kinds
        changed = None if self._grid is None else grid.changed_since(self._grid)
        if changed is None:
            todo = range(grid.rows)
            self._walls, self._slopes, self._solids, self._filled = ([0] * grid.rows
                                                                     for _ in range(4))
        else:
            todo = sorted({i // cols for i in changed})
        for row in todo:  # bit c is the digit of column c: the row read backwards
            line = kinds[row * cols:(row + 1) * cols][::-1]
            self._walls[row] = int(line.translate(_WALL_DIGITS) or b"0", 2)
            self._slopes[row] = int(line.translate(_SLOPE_DIGITS) or b"0", 2)
            self._solids[row] = int(line.translate(_SOLID_DIGITS) or b"0", 2)
            self._filled[row] = int(line.translate(_FILLED_DIGITS) or b"0", 2)
        self._grid = grid

    def move_box(self, grid: TileGrid, x: float, y: float, w: float, h: float, dx: float,
                 dy: float, one_way_bottom: float, drop_through: bool,
                 probe: Probe) -> tuple[float, float, int]:
        if probe is not None:
            return PixelResolver.move_box(self, grid, x, y, w, h, dx, dy, one_way_bottom,
                                          drop_through, probe)
        one_way_from = INF if drop_through else one_way_bottom
        # Each pass first reads its rows from the row masks (prepare), and takes the usual
        # answers with its own arithmetic; the rest is left to the lesson's passes.
        if grid is not self._grid:
            self.prepare(grid)
        tw, th, cols, rows = grid.tile_w, grid.tile_h, grid.cols, grid.rows
        flags = 0
        if dx:
            # move_x's first look (_path_clear): no wall or slope in the body's rows [r0, r1)
            # and no slope in row r1, along the path's columns [a, b)
            if dx > 0.0:
                lead = x + w
                a, b = _floor((lead - EPS) / tw), _ceil((lead + dx + EPS) / tw)
            else:
                a, b = _floor((x + dx - EPS) / tw), _ceil((x + EPS) / tw)
            r0, r1 = _floor((y + EPS) / th), _ceil((y + h - EPS) / th)
            if a < 0:
                a = 0
            if b > cols:
                b = cols
            row = r0 if r0 > 0 else 0
            if a < b and row <= r1 and row < rows:
                span, walls = (1 << b) - (1 << a), self._walls
                end = r1 if r1 < rows else rows
                while row < end and not walls[row] & span:
                    row += 1
                if row < end or (r1 < rows and self._slopes[r1] & span):
                    # (a body whose bottom is below a one-way top it began the tick at or
                    # above, which the lesson's contact respects, is left to the lesson)
                    met = (self._wall(grid, x, y, w, h, dx, span, r0, r1)
                           if y + h <= one_way_from else None)
                    x, y, hit = met or move_x(grid, x, y, w, h, dx, dy >= 0, one_way_from,
                                              None)
                    if hit:
                        flags = HIT_RIGHT if dx > 0 else HIT_LEFT
                else:
                    x = x + dx
            else:
                x = x + dx
        if dy:  # the body's columns, as _down and _rise clip them
            c0, c1 = _floor((x + EPS) / tw), _ceil((x + w - EPS) / tw)
            if c0 < 0:
                c0 = 0
            if c1 > cols:
                c1 = cols
        if dy > 0.0:
            # move_down's first look: the rows the bottom crosses, under the body's columns
            bottom = y + h
            row, last = _floor((bottom + EPS) / th), _floor((bottom + dy + EPS) / th)
            above = _floor((bottom - EPS) / th)  # a bottom at a border, a slope above it:
            tip = (above != row and 0 <= above < rows and c0 < c1  # move_down's slope tip look
                   and self._slopes[above] & ((1 << c1) - (1 << c0)))
            if row < 0:
                row = 0
            if last >= rows:
                last = rows - 1
            if tip:
                y, landed = move_down(grid, x, y, w, h, dy, one_way_from, None)
                if landed:
                    flags |= ON_GROUND
            elif c0 < c1 and row <= last:
                span, filled = (1 << c1) - (1 << c0), self._filled
                while row < last and not filled[row] & span:
                    row += 1
                if not filled[row] & span:
                    y = y + dy
                else:
                    top = row * th
                    if not self._solids[row] & span or top < bottom - EPS:
                        # a slope, a one-way tile, a solid tile it is inside of
                        y, landed = move_down(grid, x, y, w, h, dy, one_way_from, None)
                        if landed:
                            flags |= ON_GROUND
                    elif top > bottom + dy + EPS:
                        y = y + dy  # a flat top beyond this move's reach
                    else:
                        # a flat solid top: the pixel walk stops exactly there
                        y = y if top - bottom <= EPS else top - h
                        flags |= ON_GROUND
            else:
                y = y + dy
        elif dy < 0.0:
            # rise's first look: the rows the top crosses hold no wall or slope
            left = -dy
            row, last = _ceil((y - EPS) / th) - 1, _ceil((y - left - EPS) / th) - 1
            if row >= rows:
                row = rows - 1
            if last < 0:
                last = 0
            if c0 < c1 and row >= last:
                span, walls = (1 << c1) - (1 << c0), self._walls
                while row > last and not walls[row] & span:
                    row -= 1
                if walls[row] & span:
                    x, y, hit = self._move_up(grid, x, y, w, h, dx, left, None)
                    if hit:
                        flags |= HIT_CEILING
                else:
                    y = y - left
            else:
                y = y - left
        return x, y, flags

    def _wall(self, grid: TileGrid, x: float, y: float, w: float, h: float, dx: float,
              span: int, r0: int, r1: int) -> tuple[float, float, bool] | None:
        """The lesson's :func:`move_x` against a wall of solid tiles, told by the row masks: the
        free run to the first column of ``span`` (the path) with a wall in the rows [r0, r1) or
        a slope in row r1, then the first pixel step, blocked there. None if the cells it tests
        hold a slope, if that step is free, or if the body could step up: move_x walks it."""
        tw, th, rows = grid.tile_w, grid.tile_h, grid.rows
        walls, slopes, solids = self._walls, self._slopes, self._solids
        top = r0 if r0 > 0 else 0
        end = r1 if r1 < rows else rows  # the body's rows in the map: [top, end)
        found, row = 0, top
        while row < end:
            found |= walls[row] & span
            row += 1
        if r1 < rows:
            found |= slopes[r1] & span
        # the first such column along the path, its near edge, the free run up to it
        if dx > 0:
            ahead, lead = 1, x + w
            near = ((found & -found).bit_length() - 1) * tw
        else:
            ahead, lead = -1, x
            near = found.bit_length() * tw
        free = (near - lead) * ahead
        left = abs(dx)
        if free > 0:
            if left < free:
                free = left
            x += ahead * free
            left -= free
        if not left > 0:
            return x, y, False  # the run ends before the column
        # The first pixel step. A step up onto what blocks it needs its top at most CLIMB px
        # above the bottom; the lowest top a tile of the body's rows has is its bottom row's,
        # here more than 2 px (> CLIMB + EPS) above: no step up, whether grounded or not.
        if (y + h) - (r1 - 1) * th <= 2.0:
            return None
        nx = x + ahead * (1.0 if left > 1.0 else left)
        hits = _solid_in(grid, slopes, solids, nx, w, top, end)
        if not hits:
            return None  # free (or a slope's shape to test): a pixel walk
        # _contact: up to the side of the nearest solid tile it met, unless there it overlaps
        # a tile (a body that started inside one)
        if nx > x:
            edge = ((hits & -hits).bit_length() - 1) * tw - w
            edge = x if edge < x else edge
        else:
            edge = hits.bit_length() * tw
            edge = x if edge > x else edge
        inside = _solid_in(grid, slopes, solids, edge, w, top, end)
        if inside is None:
            return None
        return (x if inside else edge), y, True


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
