"""The floor under a body, for ``swept`` (:mod:`game.resolvers.swept`) and its fast twin: where
the slide along a floor ends, and what a body that slid settles on. The article's slide knows no
floor; the passes ask these after a floor hit (see the swept lesson's departures).
"""

from __future__ import annotations

from math import ceil as _ceil
from math import floor as _floor
from math import inf as INF

from game.maps.grid import EPS, ONE_WAY, SLOPE, SOLID, TileGrid, one_way_counts


def on_flat_floor(grid: TileGrid, x: float, w: float, bottom: float,
                  one_way_from: float) -> bool:
    """Is the box's bottom on a row's top where a solid (or counting one-way) tile is under it?"""
    th, tw, cols = grid.tile_h, grid.tile_w, grid.cols
    row = round(bottom / th)
    if not (-EPS <= row * th - bottom <= EPS and 0 <= row < grid.rows):
        return False
    c0 = _floor((x + EPS) / tw)
    c1 = _ceil((x + w - EPS) / tw)
    under = grid.kinds[row * cols + (c0 if c0 > 0 else 0):row * cols + (c1 if c1 < cols else cols)]
    return SOLID in under or (ONE_WAY in under and one_way_counts(one_way_from, row * th))


def floor_ends(grid: TileGrid, x: float, w: float, bottom: float, mx: float,
               one_way_from: float) -> float | None:
    """Sliding by ``mx`` along a flat floor at ``bottom``: how far the body goes before nothing
    is left under it; None if a floor tile is under it at the end; INF if the floor is not flat
    (a slope: the caller asks the map)."""
    th, tw, cols = grid.tile_h, grid.tile_w, grid.cols
    row = round(bottom / th)
    if not (-EPS <= row * th - bottom <= EPS and 0 <= row < grid.rows):
        return INF
    end_x = x + mx
    a, b = _floor((end_x + EPS) / tw), _ceil((end_x + w - EPS) / tw)
    under = grid.kinds[row * cols + (a if a > 0 else 0):row * cols + (b if b < cols else cols)]
    if SOLID in under or (ONE_WAY in under and one_way_counts(one_way_from, row * th)):
        return None
    left, right = (x, x + w + mx) if mx > 0 else (x + mx, x + w)
    c0 = max(_floor((left + EPS) / tw), 0)
    c1 = min(_ceil((right - EPS) / tw), cols)
    one_way = one_way_counts(one_way_from, row * th)
    under = [c for c in range(c0, c1)
             if grid.kinds[row * cols + c] in (SOLID, SLOPE) or (
                 one_way and grid.kinds[row * cols + c] == ONE_WAY)]
    if any(c * tw < end_x + w - EPS and (c + 1) * tw > end_x + EPS for c in under):
        return INF  # a slope under the end: the caller asks the map
    if mx > 0:
        off = max(((c + 1) * tw for c in under), default=x) - x
    else:
        off = min((c * tw for c in under), default=x + w) - (x + w)
    return off if off * mx > 0 else 0.0


_SETTLE = 1e-3  # px: how far a body that slid along floors may settle onto the floor under it


def floor_top(grid: TileGrid, x: float, w: float, bottom: float,
              one_way_from: float) -> float | None:
    """The highest floor point under [x, x + w) within _SETTLE of ``bottom``, or None."""
    tw, th, cols, kinds = grid.tile_w, grid.tile_h, grid.cols, grid.kinds
    c0, c1 = _floor((x + EPS) / tw), _ceil((x + w - EPS) / tw)
    c0, c1 = (c0 if c0 > 0 else 0), (c1 if c1 < cols else cols)
    if c0 >= c1:
        return None
    r0, r1 = _floor((bottom - _SETTLE) / th), _floor((bottom + _SETTLE) / th) + 1
    best = None
    for row in range(r0 if r0 > 0 else 0, r1 if r1 < grid.rows else grid.rows):
        base = row * cols
        under = kinds[base + c0:base + c1]
        if not under.strip(b"\0"):
            continue
        # a solid tile's (or a counting one-way tile's) top is the row's
        top = row * th
        if ((SOLID in under or (ONE_WAY in under and one_way_from <= top + EPS))
                and abs(top - bottom) <= _SETTLE and (best is None or top < best)):
            best = top
        if SLOPE in under:
            for col in range(c0, c1):
                if kinds[base + col] == SLOPE:
                    top = grid.surface_top(col, row, max(x, col * tw), min(x + w, (col + 1) * tw))
                    if abs(top - bottom) <= _SETTLE and (best is None or top < best):
                        best = top
    return best
