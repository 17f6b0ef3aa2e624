"""``routing``: tile kind -> per-side functions.

Article: "Collision Detection And Response", Frank Poth, Tile Based Game Tutorials, tutorial 2
(2015), http://userpoth.github.io/tilebasedgametutorials/tutorial02/collision.html

Axis order: y then x.

The technique, as the article teaches it (:meth:`RoutingResolver.move_box` runs the steps in order,
each marked with its number):

1. The tile map is its own broad phase: the body's box says which rows and columns it is in, so
   only those cells are looked at.
2. Each occupied cell's kind is looked up in a table that gives its routing function, and that
   function calls one collision function per side of the tile a body can meet (here the table is
   :data:`ROUTES`, see the first departure). A solid tile routes to ``top``, ``bottom``, ``left``
   and ``right``. A new tile shape is a new table entry built from existing sides (beyond the
   article, the project's one-way platform routes to ``top`` only, and a slope to its own
   ``slope`` surface side plus ``bottom``, ``left`` and ``right``: see the departures).
3. Each side function handles one face on one axis. ``top`` stops a body moving down whose bottom
   has gone past the face and puts it on the face (``on_ground``); ``bottom``, ``left`` and
   ``right`` are the same test turned around (``hit_ceiling``, ``hit_right``, ``hit_left``).
4. The vertical sides go first ("y-first": bodies mostly move over the tops of tiles), then the
   horizontal ones.
5. Seams: the article's tiles get caught on the faces *between* neighbouring tiles. Its cure is
   edge-only tiles (a variant of the tile for each combination of edges), so a floor of many tiles
   has a top face and no inner left/right faces to catch on.

Only the cells the body covers are gathered, so this resolver looks at its destination
(``destination_only = True``) and the shared mover sub-steps it into parts shorter than half a tile
and half the body: no tile can be skipped between two looks. The cells gathered are those of the
box before *and* after the move, so a face the move went through is seen even in one long straight
move (such as the mover's ground snap); the cross-axis checks use the end position, though, so long
diagonal moves still rely on the sub-steps.

Departures from the article, and why:

* **A table of side names, not one routing function per tile kind.** The article writes a routing
  function for each tile value, each calling that tile's side functions in turn. Here
  :data:`ROUTES` maps each kind to its side names, and one routing function, :func:`route_of`,
  reads it for any tile: the same idea (the tile's value picks its sides; the sides are shared
  functions), written as data so that the resolver can ask one phase's sides (vertical, then
  horizontal) of every tile, and a new tile shape is one line. A tile's route depends only on the
  grid, so it is worked out once per cell (:func:`route_at`), the first time a move gathers that
  cell, and kept.
* **Edge-only tiles are worked out automatically, cell by cell.** Instead of hand-made edge
  variants, :func:`~game.resolvers.routing_faces.faces_at` finds which faces of a tile its
  neighbours cover (the top of a tile under a solid or slope tile, the bottom of a tile on a solid
  one, the left side of a tile with a solid tile on its left, the part of a slope's side covered by
  the next slope's side...) and keeps only the exposed faces, lazily: set-up costs nothing on any
  map size (a 1000x1000 map once took half a second and 80 MB to tabulate whole).
  :meth:`RoutingResolver.prepare` starts an empty table for a new grid; a door turning
  (``TileGrid.with_kinds``) drops only the changed cells and their four neighbours, whose faces may
  have changed with them.
* **y-first across all gathered tiles, not tile by tile.** The article runs one tile's four sides,
  then the next tile's. A body walking on a floor is pressed slightly into it by gravity; if a
  tile's left side is asked before the floor's top has put the body back on the floor, it is caught
  (e.g. at the far side of a one-tile gap). Here every gathered tile's vertical sides answer first,
  then every tile's ``left``/``right`` sides. Both axes of the motion are applied before any side
  is asked, as in the article.
* **After a wall's push-back, the vertical motion is worked out again from scratch.** The vertical
  sides answer at the far x, so a wall that then pushes the body back can leave it over a floor (or
  a higher part of a slope) it never landed on, or take it away from the floor it landed on at the
  far x (a body must not keep ``on_ground`` and a landing height over nothing). So the vertical
  result is thrown away: the body goes back to its start y plus dy, the vertical sides answer at
  the new x, then the walls answer at that y, until a round moves nothing sideways. The vertical
  answer is then always the one for the final x. Pushes only go back toward the start, so two
  rounds are enough in practice; ``max_rounds`` only bounds the work (past it, the body stays
  at its starting x).
* **Each side checks the body where it is now, on the other axis.** The article's side functions
  test only their own axis: the tile was picked because the body was in it, so after a neighbour
  has pushed the body clear, the side still fires (a floor seam pushes a walking body back; a wall
  seam catches a body sliding down). Here a side fires only if the body, as it is now, still
  overlaps the face across the other axis.
* **raw_edges.** ``raw_edges = true`` switches the last fix and the automatic edge-only faces off
  together: every face of every tile is live and each tile's sides judge the box the tiles were
  gathered with, as the article's solitary tiles do: the article's snag comes back (to compare).
* **Crossing, not just "past the face".** The article's top side fires whenever the body moves down
  with its bottom below the face, so a body falling beside a block while pressing into it is pulled
  up onto the block's top. Here a side fires only if the body's edge was on the near side of the
  face (within EPS) before the move.
* **Exact placement.** The body is put exactly on the face (touching is not overlapping), so a
  resting body reports ``on_ground`` every tick and never moves; velocity is the player's.
* **One-way platforms** route to ``top`` with the project's rule: they stop only a body moving down
  whose bottom was at or above the tile's top when the tick began (``one_way_bottom``), never while
  it drops through, never from below. A body that fell past a platform's end earlier in the same
  tick and then moves into its column below its top still meets it this tick: it is bumped up onto
  its top if there is room (:meth:`~RoutingResolver._headroom`: a few px at game speeds, an "almost
  made it" ledge), or else stopped at its end; a platform with a solid tile on it keeps its top
  face for this reason.
* **Ladders** (``game.maps.grid.with_ladders``): a ladder's top cell is one-way, routed to ``top``.
* **Slopes follow the project's polygon rule**, not the article's next example. A slope tile's
  solid part is the area under its straight surface, down to the tile's bottom. Its ``slope`` side
  lands a falling body on the highest point of the surface under it; a body walking in from the low
  side is lifted along the surface if the lift is at most ``|dx| * tile_h / tile_w`` and the space
  above is free (:meth:`~RoutingResolver._headroom`); otherwise the surface is a wall where it
  reaches the body's bottom. The slope's ``bottom`` is a ceiling like a solid tile's. Its
  ``left``/``right`` sides are faces as tall as the surface's height on that side (a full-height
  side is a wall), less the part the neighbour's side covers; a zero-height side next to nothing is
  just a corner, stopping only a body that straddles the tile's bottom line.
* **Downhill is the mover's ground snap.** Walking down a slope (or off a floor onto a lower slope
  within one tick) is left to the shared mover, which snaps a grounded body down whenever the tick
  did not end on the ground.
* **Outside the map is empty.** The article indexes ``row * columns + column`` directly, which
  wraps a column past the right edge onto the next row. Here every cell outside the map is empty
  (no crash, no invented tile); the mover makes the map's sides walls.

Beyond the article, after its code: one-way tiles seen from beside (:meth:`_one_way_from_beside`,
joined in ``side_top``), and slopes (the ``slope`` side, :meth:`side_slope`, joined through the
table). Each join is a line marked ``# >> beyond the article``. The faces' geometry is in
:mod:`game.resolvers.routing_faces`. Play moves bodies with the fast twin
:class:`game.resolvers.fast.routing.FastRouting`, which answers the usual moves from the grid's
bytes and hands the rest to this code."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from game.maps.grid import EMPTY, EPS, ONE_WAY, SLOPE, SOLID, TileGrid
from game.resolvers.base import (HIT_CEILING, HIT_LEFT, HIT_RIGHT, ON_GROUND, Article, Body,
                                 BoxResolver, Probe, one_way_counts)
from game.resolvers.routing_faces import Faces, faces_at, faces_of  # noqa: F401 (faces_of)

# The routing table: tile kind -> the sides its routing function calls, in order. A side is only
# called for a tile if that tile actually has the face (see routing_faces.faces_at).
ROUTES: dict[int, tuple[str, ...]] = {
    SOLID: ("top", "bottom", "left", "right"),
    ONE_WAY: ("top",),  # >> beyond the article: one-way tiles (a top face only)
    SLOPE: ("slope", "bottom", "left", "right"),  # >> beyond the article: slopes
}
_METHODS = {side: "side_" + side for sides in ROUTES.values() for side in sides}
# Which sides answer in which phase: the vertical ones first, then the horizontal ones.
Y_SIDES = frozenset({"top", "bottom", "slope"})
X_SIDES = frozenset({"left", "right"})
# A wall's push-back re-runs the vertical sides from scratch at the new x; pushes only go back
# toward the start, so this settles in a round or two. The cap only bounds the work.
MAX_ROUNDS = 4

# A tile's route: its cell, kind, and the (side function's name, face) pairs it calls in the
# vertical phase and in the horizontal phase, in table order.
Route = tuple[int, int, int, tuple[tuple[str, Any], ...], tuple[tuple[str, Any], ...]]
_Y_CALLS, _X_CALLS = 3, 4  # where a Route keeps the calls of each phase
_LATER: Any = ("later",)  # a cell's place in a routes table before its route is worked out


def route_of(kind: int, faces: Faces) -> tuple[tuple[tuple[str, Any], ...],
                                               tuple[tuple[str, Any], ...]]:
    """The routing function: the sides the table lists for this kind that the tile has as
    faces, as (side function's name, face) pairs, split into the vertical and the horizontal
    phase."""
    calls = [(side, faces[side]) for side in ROUTES[kind] if faces.get(side) is not None]
    return (tuple((_METHODS[side], face) for side, face in calls if side in Y_SIDES),
            tuple((_METHODS[side], face) for side, face in calls if side in X_SIDES))


def route_at(grid: TileGrid, i: int, raw: bool = False) -> Route | None:
    """The route of the cell ``i`` (``row * cols + col``) from its faces; None if empty."""
    kind = grid.kinds[i]
    if kind == EMPTY:
        return None
    row, col = divmod(i, grid.cols)
    return (col, row, kind, *route_of(kind, faces_at(grid, col, row, raw)))


class _Move:
    """The body during one move: where it started, where it is now, what it touched."""

    __slots__ = ("x", "y", "w", "h", "x0", "y0", "dx", "dy", "drop", "solitary", "gx", "gy",
                 "one_way_bottom", "ground", "ceiling", "left", "right")

    def __init__(self, body: Body, dx: float, dy: float, drop: bool, solitary: bool) -> None:
        self.start(body.x, body.y, body.w, body.h, body.one_way_bottom, dx, dy, drop, solitary)

    def start(self, x: float, y: float, w: float, h: float, one_way_bottom: float, dx: float,
              dy: float, drop: bool, solitary: bool) -> None:
        """Begin a move of the box (x, y, w, h) by (dx, dy) (the record is reused move to move)."""
        self.x0, self.y0, self.w, self.h = x, y, w, h
        self.x, self.y = x + dx, y + dy  # both axes of the motion applied, as in the article
        self.gx, self.gy = self.x, self.y  # the box the tiles were gathered with
        self.dx, self.dy, self.drop, self.solitary = dx, dy, drop, solitary
        self.one_way_bottom = one_way_bottom  # the bottom at the start of the tick
        self.ground = self.ceiling = self.left = self.right = False


@dataclass(frozen=True)
class RoutingOptions:
    raw_edges: bool = field(default=False, metadata={
        "unit": "true/false: keep every tile face, bringing back the article's seam snags",
        "lo": None, "hi": None})


class RoutingResolver(BoxResolver):
    name: ClassVar[str] = "routing"
    article: ClassVar[Article] = Article(
        'Collision Detection And Response (Tile Based Game Tutorials, tutorial 2)',
        'Frank Poth',
        '2015',
        'http://userpoth.github.io/tilebasedgametutorials/tutorial02/collision.html')
    axis_order: ClassVar[str] = "y then x"
    supports_slopes: ClassVar[bool] = True
    destination_only: ClassVar[bool] = True
    summary: ClassVar[str] = ("tile kind -> routing table -> per-side functions; faces between "
                              "tiles left out, worked out cell by cell")
    Options: ClassVar[type] = RoutingOptions
    max_rounds: ClassVar[int] = MAX_ROUNDS  # the rounds' bound (a subclass may lower it)

    def __init__(self, options: RoutingOptions | None = None) -> None:
        self.options = options or RoutingOptions()
        self._raw = self.options.raw_edges
        self._s = _Move.__new__(_Move)  # the body during a move, reused
        self._grid: TileGrid | None = None  # the grid the routes below belong to
        # cell -> its route (None for an empty cell), worked out the first time a move gathers
        # the cell (_LATER until then)
        self._routes: list[Route | None] = []

    def prepare(self, grid: TileGrid) -> None:
        """Make the routes table ``grid``'s (the world calls this when the grid changes). A grid
        made from the current one by changing a few cells (a door turning) keeps the table but
        for those cells and their four neighbours; any other grid starts an empty one."""
        if grid is self._grid:
            return
        changed = None if self._grid is None else grid.changed_since(self._grid)
        if changed is None:
            self._routes = [_LATER] * (grid.cols * grid.rows)  # a few ms for a million cells
        else:
            routes, cols, size = self._routes, grid.cols, grid.cols * grid.rows
            for i in changed:
                col = i % cols
                for j in (i, i - cols, i + cols, i - 1 if col > 0 else -1,
                          i + 1 if col < cols - 1 else -1):
                    if 0 <= j < size:
                        routes[j] = _LATER
        self._grid = grid

    # ------------------------------------------------------------------------------------------
    # The article: broad phase, routing table, side functions, y first
    # ------------------------------------------------------------------------------------------
    def move_box(self, grid: TileGrid, x: float, y: float, w: float, h: float, dx: float,
                 dy: float, one_way_bottom: float, drop_through: bool,
                 probe: Probe) -> tuple[float, float, int]:
        # 1. The broad phase: the cells of the box before and after the move. On an axis the
        # body moves along, the far side reaches EPS further so a face it only just touches is
        # included. (x + dx is never past x against the sign of dx: so these are the min() and
        # max() of the two boxes' edges.)
        nx, ny = x + dx, y + dy
        columns = grid.cols_between(nx - EPS if dx < 0.0 else x + EPS,
                                    nx + w + EPS if dx > 0.0 else x + w - EPS)
        rows = grid.rows_between(ny - EPS if dy < 0.0 else y + EPS,
                                 ny + h + EPS if dy > 0.0 else y + h - EPS)
        if probe is not None:
            probe.extend((col, row) for row in rows for col in columns)
        # 2. Each occupied cell's routing function, from the table: the sides it calls
        occupied = self._gather(grid, columns, rows)
        if not occupied:
            return nx, ny, 0  # empty cells only: no tile, no route, no side
        # 3. and 4. Its side functions, the vertical ones first (5., the seams: routing_faces)
        return self._rounds(grid, occupied, x, y, w, h, dx, dy, one_way_bottom, drop_through)

    def _gather(self, grid: TileGrid, columns: range, rows: range) -> list[Route]:
        """The routes of the tiles in these columns and rows (clipped to the map: outside it
        every cell is empty), row after row. A cell's route is worked out the first time a move
        gathers it, and kept; an empty cell has none."""
        if grid is not self._grid:
            self.prepare(grid)
        routes, kinds, cols = self._routes, grid.kinds, grid.cols
        occupied = []
        for row in range(max(rows.start, 0), min(rows.stop, grid.rows)):
            for i in range(row * cols + max(columns.start, 0),
                           row * cols + min(columns.stop, cols)):
                if kinds[i]:
                    route = routes[i]
                    if route is _LATER:  # first gathered: work its route out now, and keep it
                        route = routes[i] = route_at(grid, i, self._raw)
                    occupied.append(route)
        return occupied

    def _rounds(self, grid: TileGrid, occupied: list[Route], x: float, y: float, w: float,
                h: float, dx: float, dy: float, one_way_bottom: float,
                drop_through: bool) -> tuple[float, float, int]:
        """The gathered tiles' sides called, y-first, in rounds: (x, y, flags)."""
        s = self._s
        s.start(x, y, w, h, one_way_bottom, dx, dy, drop_through, self._raw)
        # y-first over every gathered tile, then x. A wall (or a slope too steep to climb) that
        # pushes the body back moves it to an x where the vertical answer may be different, so
        # the vertical motion is worked out again from scratch at the new x, then the walls
        # answer again at the new y, until a round moves nothing sideways.
        for _ in range(self.max_rounds):
            x_seen = s.x
            s.y, s.ground, s.ceiling = s.y0 + dy, False, False
            self._phase(s, grid, occupied, _Y_CALLS)
            self._phase(s, grid, occupied, _X_CALLS)
            if s.x == x_seen:
                break
        else:
            # Never seen in practice (see max_rounds); stay where the move began on this axis,
            # which was free, and answer the vertical sides there.
            s.x = s.x0
            s.right, s.left = s.right or dx > 0, s.left or dx < 0
            s.y, s.ground, s.ceiling = s.y0 + dy, False, False
            self._phase(s, grid, occupied, _Y_CALLS)
        return s.x, s.y, ((ON_GROUND if s.ground else 0) | (HIT_CEILING if s.ceiling else 0)
                          | (HIT_LEFT if s.left else 0) | (HIT_RIGHT if s.right else 0))

    def _phase(self, s: _Move, grid: TileGrid, occupied: list[Route], which: int) -> None:
        """Call every gathered tile's sides of one phase (``which``: ``_Y_CALLS`` or
        ``_X_CALLS``), tile after tile."""
        for route in occupied:
            col, row, kind = route[0], route[1], route[2]
            for method, face in route[which]:
                getattr(self, method)(s, grid, col, row, kind, face)

    # The side functions: each handles one face of one tile ----------------------------------
    @staticmethod
    def _across_x(s: _Move, lo: float, hi: float) -> bool:
        """Does the body overlap [lo, hi] horizontally (by more than EPS)?"""
        x = s.gx if s.solitary else s.x
        return x + s.w > lo + EPS and x < hi - EPS

    @staticmethod
    def _across_y(s: _Move, lo: float, hi: float) -> bool:
        y = s.gy if s.solitary else s.y
        return y + s.h > lo + EPS and y < hi - EPS

    def side_top(self, s: _Move, grid: TileGrid, col: int, row: int, kind: int,
                 face: float) -> None:
        """A floor: stops a body moving down whose bottom crossed (or reached) the face."""
        if kind == ONE_WAY:  # >> beyond the article: one-way tiles
            if s.y0 + s.h > face + EPS:
                self._one_way_from_beside(s, grid, col, face)
                return
            # a platform judges where the bottom was when the tick began (the mover's rule)
            if s.dy <= 0 or s.drop or not one_way_counts(s.one_way_bottom, face):
                return
        elif s.dy <= 0 or s.y0 + s.h > face + EPS:  # not moving down, or already below the face
            return
        if s.y + s.h < face - EPS:  # not there yet (or already stopped higher up)
            return
        if self._across_x(s, col * grid.tile_w, (col + 1) * grid.tile_w):
            s.y = face - s.h
            s.ground = True

    def side_bottom(self, s: _Move, grid: TileGrid, col: int, row: int, kind: int,
                    face: float) -> None:
        """A ceiling: stops a body moving up whose top crossed (or reached) the face."""
        if s.dy >= 0 or s.y0 < face - EPS or s.y > face + EPS:
            return
        if self._across_x(s, col * grid.tile_w, (col + 1) * grid.tile_w):
            s.y = face
            s.ceiling = True

    def side_left(self, s: _Move, grid: TileGrid, col: int, row: int, kind: int,
                  face: tuple[float, float, float]) -> None:
        """A wall facing left: stops a body moving right whose right edge crossed it."""
        fx, upper, lower = face
        if s.dx <= 0 or s.x0 + s.w > fx + EPS or s.x + s.w < fx - EPS:
            return
        if self._across_y(s, upper, lower):
            s.x = fx - s.w
            s.right = True

    def side_right(self, s: _Move, grid: TileGrid, col: int, row: int, kind: int,
                   face: tuple[float, float, float]) -> None:
        """A wall facing right: stops a body moving left whose left edge crossed it."""
        fx, upper, lower = face
        if s.dx >= 0 or s.x0 < fx - EPS or s.x > fx + EPS:
            return
        if self._across_y(s, upper, lower):
            s.x = fx
            s.left = True

    # ------------------------------------------------------------------------------------------
    # Beyond the article: one-way tiles seen from beside, slopes
    # ------------------------------------------------------------------------------------------
    def _one_way_from_beside(self, s: _Move, grid: TileGrid, col: int, face: float) -> None:
        """A body below a platform's top moving into its column, in a tick that began with its
        bottom above that top (it fell past the platform's end earlier in the tick). The platform
        still counts for this tick, so the body may not end inside it: it is bumped up onto the
        top if there is room above (usually a few px: an "almost made it" ledge), else stopped
        at the platform's end for the rest of the tick. Next tick the platform no longer counts.
        """
        if s.dy < 0 or s.drop or not one_way_counts(s.one_way_bottom, face):
            return
        tw = grid.tile_w
        left, right = col * tw, (col + 1) * tw
        if s.y + s.h <= face + EPS or not self._across_x(s, left, right):
            return
        if self._headroom(grid, s, face - s.h, face):
            s.y = face - s.h
            s.ground = True
        elif s.dx > 0 and s.x + s.w > left:
            s.x, s.right = max(left - s.w, s.x0), True
        elif s.dx < 0 and s.x < right:
            s.x, s.left = min(right, s.x0), True

    def side_slope(self, s: _Move, grid: TileGrid, col: int, row: int, kind: int,
                   face: tuple[float, float]) -> None:
        """A slope's surface: land on it, get lifted along it from the low side, or be stopped."""
        tw, th = grid.tile_w, grid.tile_h
        tile_l = col * tw
        tile_r = tile_l + tw
        base = (row + 1) * th
        lo, hi = max(s.x, tile_l), min(s.x + s.w, tile_r)
        if hi - lo <= EPS:
            return
        if s.y0 >= base - EPS:  # it was below the tile: that is the bottom side's business
            return
        before = s.y0 + s.h
        target = grid.surface_top(col, row, lo, hi)
        if s.dy > 0 and before <= target + EPS:
            # falling (or resting with gravity) onto the surface from above
            if s.y + s.h >= target - EPS:
                s.y = target - s.h
                s.ground = True
            return
        if s.y + s.h <= target + EPS:
            return  # clear of the surface
        left_h, right_h = face
        if not ((s.dx > 0 and right_h > left_h) or (s.dx < 0 and left_h > right_h)):
            return  # not walking up it: a full side or the bottom is the face that stops it
        new_y = target - s.h
        if (before - target <= abs(s.dx) * th / tw + EPS
                and self._headroom(grid, s, new_y, row * th)):
            s.y = new_y
            s.ground = s.ground or s.dy > 0
            return
        # Too steep a step or no room above: the surface is a wall where it reaches the body's
        # bottom (never further back than where the body started).
        rise = base - (s.y + s.h)  # the bottom's height above the tile's bottom
        if s.dx > 0:
            edge = tile_l if rise <= left_h else min(
                tile_r, tile_l + (rise - left_h) / (right_h - left_h) * tw)
            if edge - s.w < s.x:
                s.x = max(edge - s.w, s.x0)
                s.right = True
        else:
            edge = tile_r if rise <= right_h else max(
                tile_l, tile_l + (left_h - rise) / (left_h - right_h) * tw)
            if edge > s.x:
                s.x = min(edge, s.x0)
                s.left = True
        # if it also moved down, it settles on the surface where it now stands
        lo, hi = max(s.x, tile_l), min(s.x + s.w, tile_r)
        if s.dy > 0 and hi - lo > EPS:
            target = grid.surface_top(col, row, lo, hi)
            if s.y + s.h > target:
                s.y = target - s.h
                s.ground = True

    @staticmethod
    def _headroom(grid: TileGrid, s: _Move, new_y: float, floor_row_top: float) -> bool:
        """Is there room for the body at its current x with its top at ``new_y``? Every row it
        would cover above the row of the floor it is lifted onto (whose top is
        ``floor_row_top``) must hold no solid or slope tile in its columns. That includes the
        row the body's top started in: the body was free there at its *starting* x, not
        necessarily at the x it has moved to. Tiles in the floor's own row are the business of
        their own sides (a neighbour's wall face, the next slope's surface)."""
        for row in grid.rows_between(new_y + EPS, floor_row_top - EPS):
            for col in grid.cols_between(s.x + EPS, s.x + s.w - EPS):
                kind = grid.kind(col, row)
                if kind == SOLID or kind == SLOPE:
                    return False
        return True
