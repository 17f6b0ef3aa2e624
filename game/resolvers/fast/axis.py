"""``axis``'s fast twin: the lesson's two passes (:mod:`game.resolvers.axis`) on the grid's bytes.

:class:`FastAxis` walks the same range boxes in the same order with the same arithmetic, so it
gives the same answers to the last bit, but as while loops over indexes into ``grid.kinds``
(a ``range`` and a ``grid.kind`` call cost more than the one or two cells a row of the range box
usually has) and with ``min``/``max`` written out as comparisons (a call costs several times
one). A slope anywhere in a range box, or a wanted list of probed cells, hands the whole move to
the lesson.
"""

from __future__ import annotations

from math import ceil, floor

from game.maps.grid import EMPTY, EPS, ONE_WAY, SLOPE, TileGrid
from game.resolvers.axis import AxisResolver
from game.resolvers.base import (HIT_CEILING, HIT_LEFT, HIT_RIGHT, ON_GROUND, Probe,
                                 one_way_counts)


class FastAxis(AxisResolver):
    """:class:`AxisResolver` for play: the same answers, fewer interpreter steps."""

    def move_box(self, grid: TileGrid, x: float, y: float, w: float, h: float, dx: float,
                 dy: float, one_way_bottom: float, drop_through: bool,
                 probe: Probe) -> tuple[float, float, int]:
        if probe is not None:
            return AxisResolver.move_box(self, grid, x, y, w, h, dx, dy, one_way_bottom,
                                         drop_through, probe)
        x0, y0 = x, y
        tw, th = grid.tile_w, grid.tile_h
        cols, rows, kinds = grid.cols, grid.rows, grid.kinds  # kinds[row * cols + col]
        flags = 0

        # x only: one-way tiles never block sideways
        if dx:
            x = x + dx
            row, end_row = floor((y + EPS) / th), ceil((y + h - EPS) / th)
            first, end, span_x = floor((x + EPS) / tw), ceil((x + w - EPS) / tw), x
            while row < end_row:
                if x != span_x:  # a push moved the body's edges: the range box's columns too
                    first, end, span_x = floor((x + EPS) / tw), ceil((x + w - EPS) / tw), x
                if 0 <= row < rows:  # outside the map every cell is empty
                    # the row's cells in the range box, clipped to the map
                    at = row * cols
                    i, stop = at + (first if first > 0 else 0), at + (end if end < cols else cols)
                    while i < stop:
                        kind = kinds[i]
                        if kind == EMPTY or kind == ONE_WAY:
                            pass
                        elif kind == SLOPE:
                            return AxisResolver.move_box(self, grid, x0, y0, w, h, dx, dy,
                                                         one_way_bottom, drop_through, None)
                        elif dx > 0.0:
                            edge, flags = (i - at) * tw - w, HIT_RIGHT
                            if edge < x:
                                x = edge
                        else:
                            edge, flags = (i - at + 1) * tw, HIT_LEFT
                            if edge > x:
                                x = edge
                        i += 1
                row += 1

        # then y
        if dy:
            y += dy
            if not dx or x != span_x:  # else the x pass's last columns are these
                first, end = floor((x + EPS) / tw), ceil((x + w - EPS) / tw)
            lo, hi = (first if first > 0 else 0), (end if end < cols else cols)  # in the map
            row, end_row = floor((y + EPS) / th), ceil((y + h - EPS) / th)
            while row < end_row:
                if 0 <= row < rows:
                    top, at = row * th, row * cols
                    i, stop = at + lo, at + hi
                    while i < stop:
                        kind = kinds[i]
                        i += 1
                        # this row's one-way tiles block only a body landing on them from above
                        if kind == EMPTY or (kind == ONE_WAY and not (
                                dy > 0.0 and not drop_through
                                and one_way_counts(one_way_bottom, top))):
                            continue
                        if kind == SLOPE:
                            return AxisResolver.move_box(self, grid, x0, y0, w, h, dx, dy,
                                                         one_way_bottom, drop_through, None)
                        if dy > 0.0:
                            edge, flags = top - h, flags | ON_GROUND
                            if edge < y:
                                y = edge
                        else:
                            edge, flags = top + th, flags | HIT_CEILING
                            if edge > y:
                                y = edge
                row += 1

        return x, y, flags
