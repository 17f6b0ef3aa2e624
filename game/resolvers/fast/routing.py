"""``routing``'s fast twin: the usual moves answered from the grid's bytes, as the lesson's side
calls (:mod:`game.resolvers.routing`) answer them.

:class:`FastRouting` takes three short answers when no probed cells are wanted, each what the
side calls give, bit for bit:

1. the broad phase's cells are all empty: the body moves freely;
2. a walk: the bottom is exactly on the top of the broad phase's last row, the first with a
   tile in it, that row's tiles solid or one-way and a solid one under the body's new x: the
   vertical sides land it on that top (the cells above, which the body covers, are empty: a solid
   tile has its top; a one-way top is the same face) and the horizontal ones stop nothing (a floor
   tile's sides begin at its top);
3. the gathered tiles are all solid: their sides' tests written out in one loop, in the order the
   calls would come (:func:`_solids`: a call per side costs more than its test).

Everything else (slopes, one-way tiles near, ``raw_edges``, rounds that do not settle) goes to
the lesson's rounds.
"""

from __future__ import annotations

from math import ceil, floor

from game.maps.grid import EPS, SLOPE, SOLID, TileGrid
from game.resolvers.base import HIT_CEILING, HIT_LEFT, HIT_RIGHT, ON_GROUND, Probe
from game.resolvers.routing import Route, RoutingResolver


def _solids(occupied: list[Route], tw: int, x: float, y: float, w: float, h: float, dx: float,
            dy: float, max_rounds: int) -> tuple[float, float, int] | None:
    """The rounds of side calls (the lesson's ``_rounds``) for gathered tiles that are all
    solid, faces not raw: in place of each call, that side function's test for a solid
    tile, in the same order, on locals instead of the move's record (a call per side costs
    more than its test). None if the rounds do not settle: then the rounds give the answer."""
    sx = x + dx
    left = right = False
    for _ in range(max_rounds):
        x_seen = sx
        sy, ground, ceiling = y + dy, False, False
        for col, _, _, y_calls, _ in occupied:
            for method, face in y_calls:
                if method == "side_top":
                    if dy <= 0 or y + h > face + EPS or sy + h < face - EPS:
                        continue
                    if sx + w > col * tw + EPS and sx < (col + 1) * tw - EPS:
                        sy, ground = face - h, True
                else:  # side_bottom
                    if dy >= 0 or y < face - EPS or sy > face + EPS:
                        continue
                    if sx + w > col * tw + EPS and sx < (col + 1) * tw - EPS:
                        sy, ceiling = face, True
        for _, _, _, _, x_calls in occupied:
            for method, (fx, upper, lower) in x_calls:
                if method == "side_left":
                    if dx <= 0 or x + w > fx + EPS or sx + w < fx - EPS:
                        continue
                    if sy + h > upper + EPS and sy < lower - EPS:
                        sx, right = fx - w, True
                else:  # side_right
                    if dx >= 0 or x < fx - EPS or sx > fx + EPS:
                        continue
                    if sy + h > upper + EPS and sy < lower - EPS:
                        sx, left = fx, True
        if sx == x_seen:
            return sx, sy, ((ON_GROUND if ground else 0) | (HIT_CEILING if ceiling else 0)
                            | (HIT_LEFT if left else 0) | (HIT_RIGHT if right else 0))
    return None


class FastRouting(RoutingResolver):
    """:class:`RoutingResolver` for play: the usual moves answered without the side calls."""

    def move_box(self, grid: TileGrid, x: float, y: float, w: float, h: float, dx: float,
                 dy: float, one_way_bottom: float, drop_through: bool,
                 probe: Probe) -> tuple[float, float, int]:
        if probe is not None:
            return RoutingResolver.move_box(self, grid, x, y, w, h, dx, dy, one_way_bottom,
                                            drop_through, probe)
        # The lesson's broad phase, without the calls to min() and max().
        nx, ny = x + dx, y + dy
        left = nx - EPS if dx < 0.0 else x + EPS
        right = nx + w + EPS if dx > 0.0 else x + w - EPS
        top = ny - EPS if dy < 0.0 else y + EPS
        bottom = ny + h + EPS if dy > 0.0 else y + h - EPS
        tw, th = grid.tile_w, grid.tile_h
        first, end = floor(left / tw), ceil(right / tw)
        first_row, end_row = floor(top / th), ceil(bottom / th)
        # The broad phase's cells in the map (outside it every cell is empty): columns lo to
        # lo + width of rows row to stop_row, walked by index with while loops (a range costs
        # more than the two or three cells a row of a small box has).
        kinds, cols = grid.kinds, grid.cols
        lo = first if first > 0 else 0
        width = (end if end < cols else cols) - lo
        row = first_row if first_row > 0 else 0
        stop_row = end_row if end_row < grid.rows else grid.rows
        if width <= 0 or row >= stop_row:
            return nx, ny, 0
        # Up to the first cell with a tile in it, row after row (i: the cell, stop: the end of
        # its row's cells):
        i = row * cols + lo
        stop = i + width
        while not kinds[i]:
            i += 1
            if i == stop:
                row += 1
                if row == stop_row:
                    return nx, ny, 0  # 1. Empty cells only: no tile, no route, no side.
                i += cols - width
                stop += cols
        face = row * th + 0.0  # the top of that row, as a float
        if dy > 0.0 and y + h == face and row + 1 == stop_row and not self._raw:
            # 2. A walk: the bottom was exactly on the top of the broad phase's last row, the
            # first with a tile in it. If its tiles are solid or one-way, a solid one under the
            # body's new x, the vertical sides land it on that top (the cells above, which the
            # body covers, are empty: a solid tile has its top; a one-way top is the same face)
            # and the horizontal ones stop nothing (a floor tile's sides begin at its top).
            at = row * cols
            landed = False
            while i < stop:
                kind = kinds[i]
                if kind == SOLID:
                    if not landed and (nx + w > (i - at) * tw + EPS
                                       and nx < (i - at + 1) * tw - EPS):
                        landed = True  # (side_top's overlap across x)
                elif kind == SLOPE:
                    landed = False
                    break
                i += 1
            if landed:
                return nx, face - h, ON_GROUND
        occupied = self._gather(grid, range(lo, lo + width), range(row, stop_row))
        if not self._raw:
            for route in occupied:
                if route[2] != SOLID:
                    break
            else:  # 3. Solid tiles only: their sides' tests written out (see _solids).
                moved = _solids(occupied, tw, x, y, w, h, dx, dy, self.max_rounds)
                if moved is not None:
                    return moved
        return self._rounds(grid, occupied, x, y, w, h, dx, dy, one_way_bottom, drop_through)
