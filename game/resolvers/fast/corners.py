"""``corners``'s fast twin: the lesson's probes (:mod:`game.resolvers.corners`) on the grid's
bytes.

:class:`FastCorners` probes the same cells with the same arithmetic, so it gives the same answers
to the last bit, but walks them with while loops over indexes into ``grid.kinds`` (a ``range``
and a ``grid.kind`` call cost more than the one or two cells an edge usually has) and compares
motions with float literals (an int against a float costs twice a float against a float). A
probe that must read a slope's shape, or a wanted list of probed cells, hands the whole move to
the lesson.
"""

from __future__ import annotations

from math import ceil, floor

from game.maps.grid import EMPTY, EPS, ONE_WAY, SLOPE, TileGrid
from game.resolvers.base import (HIT_CEILING, HIT_LEFT, HIT_RIGHT, ON_GROUND, Probe,
                                 one_way_counts)
from game.resolvers.corners import CornersResolver


def _segment_cells(start: float, end: float, size: int) -> tuple[int, int]:
    """:func:`game.resolvers.corners.segment_cells` as the pair (first, end)."""
    first = floor((start + EPS) / size)
    last = ceil((end - EPS) / size) - 1
    return first, (last if last > first else first) + 1  # max(first, last), faster


class FastCorners(CornersResolver):
    """:class:`CornersResolver` for play: the same answers, fewer interpreter steps."""

    def move_box(self, grid: TileGrid, x: float, y: float, w: float, h: float, dx: float,
                 dy: float, one_way_bottom: float, drop_through: bool,
                 probe: Probe) -> tuple[float, float, int]:
        if probe is not None:
            return CornersResolver.move_box(self, grid, x, y, w, h, dx, dy, one_way_bottom,
                                            drop_through, probe)
        x0, y0 = x, y
        tw, th = grid.tile_w, grid.tile_h
        cols, rows, kinds = grid.cols, grid.rows, grid.kinds  # kinds[row * cols + col]
        slopes = grid.slopes  # empty on a map without slope tiles
        flags = 0

        # Horizontal first: the leading edge of the destination, top corner to bottom corner.
        # One-way tiles never block sideways.
        if dx:
            nx = x + dx
            # the column the leading edge ends in; an edge exactly on a border has not entered
            # the next column
            col = ceil((nx + w) / tw) - 1 if dx > 0.0 else floor(nx / tw)
            first, end = _segment_cells(y, y + h, th)
            blocked = False
            if 0 <= col < cols:  # outside the map every cell is empty
                row = first if first > 0 else 0
                stop = end if end < rows else rows
                while row < stop:
                    k = kinds[row * cols + col]
                    if k != EMPTY and k != ONE_WAY:
                        blocked = True
                        break
                    row += 1
            if slopes:
                # a leading edge that crossed into the next column probes the column it left
                # too (a slope there rises to that column's far side, now under the body); a
                # blocked probe is read by the tile's shape: both the lesson's
                left = ceil((x + w) / tw) - 1 if dx > 0.0 else floor(x / tw)
                if blocked or (left != col and any(grid.kind(left, row) == SLOPE
                                                   for row in range(first, end))):
                    return CornersResolver.move_box(self, grid, x0, y0, w, h, dx, dy,
                                                    one_way_bottom, drop_through, None)
                x = nx
            elif blocked:
                if dx > 0.0:
                    x, flags = col * tw - w, HIT_RIGHT
                else:
                    x, flags = (col + 1) * tw, HIT_LEFT
            else:
                x = nx

        # Then vertical, probing along the bottom or top edge at the x just found.
        if dy:
            ny = y + dy
            row = ceil((ny + h) / th) - 1 if dy > 0.0 else floor(ny / th)
            first, end = _segment_cells(x, x + w, tw)
            blocked = slope = False
            if 0 <= row < rows:
                at = row * cols
                i = at + (first if first > 0 else 0)
                stop = at + (end if end < cols else cols)
                while i < stop:
                    k = kinds[i]
                    if k == EMPTY:
                        pass
                    elif k == SLOPE:
                        slope = True
                    elif k != ONE_WAY or (dy > 0.0 and not drop_through
                                          and one_way_counts(one_way_bottom, row * th)):
                        blocked = True
                        break
                    i += 1
            start = ceil((y + h) / th) - 1 if dy > 0.0 and slopes else row
            if (dy > 0.0 and (slope or start != row)) or (dy < 0.0 and slope and not blocked):
                # a slope's height to read (falling, or rising into it): the lesson's
                return CornersResolver.move_box(self, grid, x0, y0, w, h, dx, dy, one_way_bottom,
                                                drop_through, None)
            if blocked:
                if dy > 0.0:
                    y, flags = row * th - h, flags | ON_GROUND
                else:
                    y, flags = (row + 1) * th, flags | HIT_CEILING
            else:
                y = ny

        return x, y, flags
