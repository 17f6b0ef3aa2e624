"""The faces of ``routing``'s tiles (:mod:`game.resolvers.routing`): which sides of each cell a
body can meet, worked out from the grid.

The article cures its seam snags with hand-made edge-only tiles (a variant of the tile for each
combination of exposed edges); here :func:`faces_at` works them out cell by cell from the
neighbours, and the routing table (:data:`game.resolvers.routing.ROUTES`) calls a side only
where the cell has that face.
"""

from __future__ import annotations

from typing import Any

from game.maps.grid import EMPTY, EPS, ONE_WAY, SLOPE, SOLID, TileGrid

# Faces of one tile: side name -> its geometry (None for an empty cell).
#   "top" / "bottom": the face's y;  "left" / "right": (x, y of its upper end, y of its lower end);
#   "slope": (height at the tile's left edge, height at its right edge).
Faces = dict[str, Any]

def _side_heights(grid: TileGrid, col: int, row: int) -> tuple[float, float]:
    """How far up from its bottom a cell is solid along its left and its right edge."""
    kind = grid.kind(col, row)
    if kind == SOLID:
        return float(grid.tile_h), float(grid.tile_h)
    if kind == SLOPE:
        return grid.slope_heights(col, row)
    return 0.0, 0.0


def faces_at(grid: TileGrid, col: int, row: int, raw: bool = False) -> Faces | None:
    """The exposed faces of one cell (None for an empty cell); ``raw`` keeps every face."""
    kind = grid.kind(col, row)
    if kind == EMPTY:
        return None
    tw, th = grid.tile_w, grid.tile_h
    top_y, base = row * th, (row + 1) * th
    faces: Faces = {}
    above = grid.kind(col, row - 1)
    if kind == ONE_WAY or (kind == SOLID and (raw or above not in (SOLID, SLOPE))):
        # a solid or slope tile above covers a solid tile's whole top with its own bottom
        # (a platform keeps its top: see _one_way_from_beside)
        faces["top"] = float(top_y)
    if kind == SLOPE:
        faces["slope"] = grid.slope_heights(col, row)
    if kind in (SOLID, SLOPE):
        below_l, below_r = _side_heights(grid, col, row + 1)
        if raw or min(below_l, below_r) < th - EPS:
            faces["bottom"] = float(base)
        own_l, own_r = _side_heights(grid, col, row)
        next_l = 0.0 if raw else _side_heights(grid, col - 1, row)[1]
        next_r = 0.0 if raw else _side_heights(grid, col + 1, row)[0]
        # a side is exposed above the neighbour's side; a zero-height side next to
        # nothing is still a corner at the tile's bottom
        if own_l > next_l + EPS or (own_l <= EPS and next_l <= EPS):
            faces["left"] = (float(col * tw), base - own_l, base - next_l)
        if own_r > next_r + EPS or (own_r <= EPS and next_r <= EPS):
            faces["right"] = (float((col + 1) * tw), base - own_r, base - next_r)
    return faces


def faces_of(grid: TileGrid, raw: bool = False) -> list[Faces | None]:
    """The exposed faces of every cell (index ``row * cols + col``): :func:`faces_at` over the
    whole grid, for tests and tools (the resolver asks only for the cells it gathers)."""
    return [faces_at(grid, col, row, raw) for row in range(grid.rows)
            for col in range(grid.cols)]
