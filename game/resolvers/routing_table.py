"""The routing table of ``routing`` (:mod:`game.resolvers.routing`): which side functions a tile
kind calls, in which phase, and each tile's faces and route worked out from the grid. Kept apart
from the resolver only for the module's length."""

from __future__ import annotations

from typing import Any

from game.maps.grid import EMPTY, EPS, ONE_WAY, SLOPE, SOLID, TileGrid

# The routing table: tile kind -> the sides its routing function calls, in order. A side is only
# called for a tile if that tile actually has the face (see :func:`faces_of`).
ROUTES: dict[int, tuple[str, ...]] = {
    SOLID: ("top", "bottom", "left", "right"),
    ONE_WAY: ("top",),
    SLOPE: ("slope", "bottom", "left", "right"),
}
_METHODS = {side: "side_" + side for sides in ROUTES.values() for side in sides}
# Which sides answer in which phase: the vertical ones first, then the horizontal ones.
Y_SIDES = frozenset({"top", "bottom", "slope"})
X_SIDES = frozenset({"left", "right"})
# A wall's push-back re-runs the vertical sides from scratch at the new x; pushes only go back
# toward the start, so this settles in a round or two. The cap only bounds the work.
MAX_ROUNDS = 4

# Faces of one tile: side name -> its geometry (None for an empty cell).
#   "top" / "bottom": the face's y;  "left" / "right": (x, y of its upper end, y of its lower end);
#   "slope": (height at the tile's left edge, height at its right edge).
Faces = dict[str, Any]

# A tile's route: its cell, kind, and the (side function's name, face) pairs it calls in the
# vertical phase and in the horizontal phase, in table order.
Route = tuple[int, int, int, tuple[tuple[str, Any], ...], tuple[tuple[str, Any], ...]]
_Y_CALLS, _X_CALLS = 3, 4  # where a Route keeps the calls of each phase

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


def route_of(kind: int, faces: Faces) -> tuple[tuple[tuple[str, Any], ...],
                                               tuple[tuple[str, Any], ...]]:
    """The routing function: the sides the table lists for this kind that the tile has as
    faces, as (side function's name, face) pairs, split into the vertical and the horizontal
    phase."""
    calls = [(side, faces[side]) for side in ROUTES[kind] if faces.get(side) is not None]
    return (tuple((_METHODS[side], face) for side, face in calls if side in Y_SIDES),
            tuple((_METHODS[side], face) for side, face in calls if side in X_SIDES))


def route_at(grid: TileGrid, i: int, raw: bool = False) -> Route | None:
    """The route of the cell ``i`` (``row * cols + col``) from its :func:`faces_at`; None for
    an empty cell."""
    kind = grid.kinds[i]
    if kind == EMPTY:
        return None
    row, col = divmod(i, grid.cols)
    return (col, row, kind, *route_of(kind, faces_at(grid, col, row, raw)))
