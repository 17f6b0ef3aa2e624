"""Slope geometry for the resolvers that began as box resolvers (``axis``, ``corners``, ``overlap``).

Each of them meets slopes in its own way (see its docstring); what they share is the project's slope
rule and a few questions about one blocking cell, answered here so the three agree:

* A slope tile's solid part is the area under its straight surface, down to the tile's bottom
  (:class:`~game.maps.grid.TileGrid` keeps its heights). A half tile is a slope whose two heights
  are equal: a box of that height standing on the tile's bottom.
* **The floor at the foot.** A body moving sideways that ends with its bottom a little inside a
  cell is lifted onto the cell's top (the highest point of a slope's surface under it, or a solid
  tile's top) when the lift is no more than a 45-degree climb over the move (``|dx| * tile_h /
  tile_w``, plus what the body fell in the same move) and, if the body's leading edge entered the
  cell's column in this move, the cell's near side is no step: at the start the body's bottom was
  at most that same climb below the side's top. A half tile's side is then a step of half a tile,
  and a slope's full-height side is a wall. A solid tile's top is a floor to step onto this way only
  for a body that stands on a slope (walking off the top of a slope onto the ground beside it);
  anywhere else solid tiles keep their resolver's own rules, so maps without slopes play exactly as
  before. The lifted box must be free (:func:`room_at`), or the cell is a wall after all.
* **A wall** stops a body where the cell's solid part first meets it: a solid tile at its side, a
  slope where its surface reaches the body's bottom (:func:`wall_x`).
* **A line.** A slope of height 0 under a body has nothing under its surface: the no-overlap rule
  never sees it, yet the resolvers take it as a floor from above and, as every slope met from
  below, a ceiling at its bottom. A body already across it meets it from neither side and goes
  on (:func:`across_line`); a lift may not carry a body across it (:func:`room_at`).

Nothing here runs on a map without slope tiles: the resolvers call it only when a slope cell (or a
body standing inside a row, which only a slope allows) is in the cells they look at.
"""

from __future__ import annotations

import math

from game.maps.grid import EPS, SLOPE, TileGrid, overlaps_any


def top_under(grid: TileGrid, kind: int, col: int, row: int, left: float, right: float) -> float:
    """y of a blocking cell's top under the span [left, right]: the highest point of a slope's
    surface over the part of the span inside the tile, or a solid tile's top."""
    if kind == SLOPE:
        tile_l = col * grid.tile_w
        lo = left if left > tile_l else tile_l
        hi = right if right < tile_l + grid.tile_w else tile_l + grid.tile_w
        return grid.surface_top(col, row, lo, hi)
    return float(row * grid.tile_h)


def wall_x(grid: TileGrid, kind: int, col: int, row: int, bottom: float, rightward: bool) -> float:
    """Where a cell stops a body whose bottom is at ``bottom`` moving right (the leftmost x of the
    cell's solid part at or above that bottom) or left (the rightmost). A solid tile stops it at
    its side; a slope where its surface reaches the body's bottom, or at its side if that side is
    already higher."""
    tw = grid.tile_w
    left = col * tw
    if kind != SLOPE:
        return float(left) if rightward else float(left + tw)
    lh, rh = grid.slope_heights(col, row)
    rise = (row + 1) * grid.tile_h - bottom  # the body's bottom, in px above the tile's bottom
    if rightward:
        if lh > rise or rh <= lh:
            return float(left)
        edge = left + (rise - lh) / (rh - lh) * tw
        return edge if edge < left + tw else float(left + tw)
    if rh > rise or lh <= rh:
        return float(left + tw)
    edge = left + tw - (rise - rh) / (lh - rh) * tw
    return edge if edge > left else float(left)


def climbs_onto(grid: TileGrid, kind: int, col: int, row: int, top: float, x0: float, w: float,
                bottom0: float, bottom: float, dx: float, fell: float) -> bool:
    """Is the cell's top ``top`` (see :func:`top_under`) a floor the body steps onto?

    The body started at ``x0`` with its bottom at ``bottom0``, moved ``dx`` sideways and now has
    its bottom at ``bottom`` (``fell`` px lower than it would be without the vertical motion,
    0 when the vertical part comes later). The lift may be at most a 45-degree climb over ``dx``
    (plus ``fell``); a side of the cell the leading edge crossed in this move must be no step.
    """
    gradient = grid.tile_h / grid.tile_w
    climb = abs(dx) * gradient
    if bottom - top > climb + fell + EPS:
        return False
    tw = grid.tile_w
    left = col * tw
    if dx > 0 and x0 + w <= left + EPS:
        run, near = left - (x0 + w), 0  # it entered across the cell's left side
    elif dx < 0 and x0 >= left + tw - EPS:
        run, near = x0 - (left + tw), 1  # across its right side
    else:
        return True  # it was over the cell already: the floor under it rises continuously
    side = grid.tile_h
    if kind == SLOPE:
        side = grid.slope_heights(col, row)[near]
    # where the side's top is, against where the body's bottom could have climbed to before it
    return bottom0 - run * gradient <= (row + 1) * grid.tile_h - side + EPS


def on_slope(grid: TileGrid, x: float, w: float, bottom: float) -> bool:
    """Does a body spanning [x, x + w) with this bottom stand on a slope's surface?"""
    th, tw = grid.tile_h, grid.tile_w
    row = math.floor((bottom - EPS) / th)
    if not 0 <= row < grid.rows:
        return False
    first = max(math.floor((x + EPS) / tw), 0)
    end = min(math.ceil((x + w - EPS) / tw), grid.cols)
    at = row * grid.cols
    for col in range(first, end):
        if (grid.kinds[at + col] == SLOPE
                and abs(top_under(grid, SLOPE, col, row, x, x + w) - bottom) <= EPS):
            return True
    return False


def room_at(grid: TileGrid, x: float, y: float, w: float, h: float) -> bool:
    """Is there room to lift a body to the box: is it free of every solid tile and slope's solid
    part, and across no slope of height 0 (:func:`across_line`)? (One-way tiles never stop a
    lift.) Lifted across such a line, which is a ceiling from below, the body would be pushed
    back down by the rising pass, into the floor it was lifted onto.
    """
    if overlaps_any(grid, x, y, w, h, math.inf, True):
        return False
    cols = grid.cols_between(x + EPS, x + w - EPS)
    return not any(grid.kind(col, row) == SLOPE and across_line(grid, col, row, x, y, w, h)
                   for row in grid.rows_between(y + EPS, y + h - EPS) for col in cols)


def across_line(grid: TileGrid, col: int, row: int, x: float, y: float, w: float,
                h: float) -> bool:
    """Is the box (x, y, w, h) across the bottom of the slope tile (col, row) without reaching
    under its surface? Only a slope of height 0 under the box allows that: its surface is the
    tile's bottom, a line.

    The no-overlap rule does not see such a line, but the resolvers do: from above it is a
    floor, and from below a ceiling (met from below, a slope is a box). A body already across it
    meets it from neither side, so it does not stop it; and a lift may not carry a body across
    it (:func:`room_at`).
    """
    left, base = col * grid.tile_w, (row + 1) * grid.tile_h
    return (x + EPS < left + grid.tile_w and left < x + w - EPS and y + EPS < base < y + h - EPS
            and top_under(grid, SLOPE, col, row, x, x + w) >= base - EPS)


def slope_area(grid: TileGrid, col: int, row: int, x: float, y: float, right: float,
               bottom: float) -> float:
    """Area of the box [x, right] x [y, bottom] inside the slope tile's solid part.

    The depth of the box in the solid part at a given x, ``min(bottom, base) - max(y, surface)``,
    is piecewise linear in x; its integral is exact by the trapezoid rule over the points where
    the surface crosses the box's top and bottom.
    """
    tw, th = grid.tile_w, grid.tile_h
    tile_l = col * tw
    lo = x if x > tile_l else tile_l
    hi = right if right < tile_l + tw else tile_l + tw
    if hi - lo <= 0.0:
        return 0.0
    base = (row + 1) * th
    low = bottom if bottom < base else base
    lh, rh = grid.slope_heights(col, row)
    slope = (rh - lh) / tw  # height gained per px to the right

    def depth(px: float) -> float:
        surface = base - (lh + slope * (px - tile_l))
        d = low - (y if y > surface else surface)
        return d if d > 0.0 else 0.0

    points = [lo, hi]
    if slope:
        for level in (y, low):  # where the surface crosses the box's top and bottom
            px = tile_l + ((base - level) - lh) / slope
            if lo < px < hi:
                points.append(px)
        points.sort()
    return sum((b - a) * (depth(a) + depth(b)) * 0.5 for a, b in zip(points, points[1:]))
