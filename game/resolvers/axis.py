"""``axis``: axis-separated move and push-out.

Article: "A Simple Method for Tile-Based Collision and Resolution", DigiPen Institute of
Technology faculty, DigiPen Graphics Library documentation (2022),
https://github.com/DigiPen-Faculty/DigiPen-Graphics-Library/blob/main/docs/Tile-Map-Collision.md

Axis order: x then y.

The technique, as the article teaches it (:meth:`AxisResolver.move_box`, then
:func:`move_along_x` and :func:`move_along_y`, each with the article's steps as its comments):

* Move along one axis only: x first.
1. Get the bounding tiles: the rows and columns that the body's edges fall in; that range box is
   every tile it can touch.
2. Step through each tile around the body.
3. Check collision: a wall tile of the range overlaps the body, box against box.
4. Reset the position depending on the axis of movement: out of the tile, along the axis just
   moved.
* Move along the other axis, y, and repeat the steps.

Beyond the article, after the article's code and each joined to it at one line marked
``# >> beyond the article``: one-way tiles and slopes in the y pass
(:func:`top_for_y`), slopes in the x pass (:func:`across_slopes`). Play moves bodies with the
fast twin :class:`game.resolvers.fast.axis.FastAxis`: the same passes over the grid's bytes, in
while loops, handing any range box with a slope to this code.

Departures from the article, and why:

* **Top-left corner, not centre.** The article keeps a body by its centre: its edges are the
  centre plus or minus half its size, and each tile is placed by its centre too. Here a body is
  its top-left corner and its size (the project's boxes: ``x, y, w, h``), so its edges are ``x``,
  ``x + w``, ``y``, ``y + h`` and a tile's are ``col * tile_w`` and so on: the same boxes without
  the halving, and the position written back after a push is the top-left corner.
* **No "+1 px" gap.** The article puts the body one pixel *outside* the tile it hit. Standing on a
  floor then leaves a 1 px gap, gravity closes it next tick, and ``on_ground`` flickers on and
  off. Here the body is placed exactly on the tile's edge; touching is not overlapping.
* **Push against the motion, not by centres.** The article picks the side to push out to by
  comparing the tile's centre with the body's. A body that has moved past a tile's centre in one
  step is then pushed out through the far side: tunnelling. Here the side is the one the body came
  from (the sign of the motion on that axis).
* **floor, not int().** The article casts ``(int)`` to get a row or column; that truncates toward
  zero, so -0.5 becomes column 0 instead of -1. Positions above the map (negative y) then collide
  with row 0. Here cells come from ``math.floor`` and everything outside the map is empty.
* **Unclamped lookups are safe.** The article asks callers to cap indexes at the map edges; here
  the grid answers "empty" for any cell outside the map, and the mover makes the side edges walls.
* **No map offset.** The article centres its map on the origin and adds half the map's size before
  dividing by the tile size. A Tiled map's origin is its top-left corner, which is also the grid's,
  so that offset is zero here; carrying it through the arithmetic would only add float rounding.
* **One-way tiles.** The article knows only walls. A one-way tile here blocks only a body
  moving down whose bottom was at or above its top at the start of the *tick* (the mover passes
  that bottom to every sub-step as ``one_way_bottom``), not merely before this call's move, and
  never when dropping through. So a body that falls past a platform's end and reaches its column
  in a later sub-step, its bottom already below the top, is still caught: the y pass lifts it
  onto the platform. If a tile above leaves no room for that, the sub-step ends overlapping it
  and the mover takes it again without its sideways part: the body is stopped at the platform's
  end.
* **Ladders.** The grid makes a ladder's top cell a one-way tile (``game.maps.grid.with_ladders``)
  and its other cells empty, so the y pass stops a body falling onto a ladder's top exactly as it
  stops one falling onto a plank (at any speed: the mover sub-steps), and no pass meets the rest of
  a ladder. Climbing is the player's (``game.sim.player``); climbing down moves with
  ``drop_through``.
* **Slopes and half tiles: the floor height at the body's foot.** The article's tiles are whole
  boxes; here a slope tile is solid only under its straight surface (a half tile is a slope of
  equal heights), and both passes read that shape instead of the box. The y pass pushes a
  falling body up to the highest point of the surface under its width, and a rising one down to
  the bottom of a slope it meets from below, exactly as it pushes against a solid tile's edge.
  The x pass cannot push back from a floor that rises under the body's foot without stopping it
  on every slope, so when its range box holds a slope cell (and only then: maps without slopes
  take the article's loop unchanged) it is done again by :func:`across_slopes`: each cell the
  moved box overlaps by shape is either the floor at its foot, which lifts the body onto the
  cell's top if the lift is at most a 45-degree climb over the move and the lifted box is free
  (see :mod:`game.resolvers.footing`), or a wall it is pushed back from along x: to a solid
  tile's side, or to where a slope's surface reaches the body's bottom. A half tile's side and a
  slope's full-height side are such walls. Walking down, the y pass only falls by the tick's
  gravity, so the shared mover's ground snap keeps the body on the slope (the x pass needs no
  "follow the ground down" of its own).
* **Fast bodies.** The article checks only where the body ends up, so a fast body can skip a thin
  wall. The shared mover sub-steps this resolver (``destination_only``).
"""

from __future__ import annotations

from typing import ClassVar

from game.maps.grid import EMPTY, EPS, ONE_WAY, SLOPE, SOLID, TileGrid
from game.resolvers.base import (HIT_CEILING, HIT_LEFT, HIT_RIGHT, ON_GROUND, Article,
                                 BoxResolver, NoOptions, Probe, one_way_counts)
from game.resolvers.footing import (across_line, climbs_onto, on_slope, room_at, top_under,
                                    wall_x)


class AxisResolver(BoxResolver):
    name: ClassVar[str] = "axis"
    article: ClassVar[Article] = Article(
        'A Simple Method for Tile-Based Collision and Resolution',
        'DigiPen Institute of Technology faculty, DigiPen Graphics Library documentation',
        '2022',
        'https://github.com/DigiPen-Faculty/DigiPen-Graphics-Library/blob/main/docs/Tile-Map-Collision.md')
    axis_order: ClassVar[str] = "x then y"
    supports_slopes: ClassVar[bool] = True
    destination_only: ClassVar[bool] = True
    summary: ClassVar[str] = "move one axis, push out of every tile in the body's row/column range"
    Options: ClassVar[type] = NoOptions

    def __init__(self, options: NoOptions | None = None) -> None:
        self.options = options or NoOptions()

    def move_box(self, grid: TileGrid, x: float, y: float, w: float, h: float, dx: float,
                 dy: float, one_way_bottom: float, drop_through: bool,
                 probe: Probe) -> tuple[float, float, int]:
        flags = 0
        if dx:  # move along one axis only: x first
            x, y, flags = move_along_x(grid, x, y, w, h, dx, probe)
        if dy:  # then along the other axis, repeating the steps
            y, landed_or_ceiling = move_along_y(grid, x, y, w, h, dy, one_way_bottom,
                                                drop_through, probe)
            flags |= landed_or_ceiling
        return x, y, flags


# ----------------------------------------------------------------------------------------------
# The article: one axis at a time, push out of every wall tile in the range box
# ----------------------------------------------------------------------------------------------

def move_along_x(grid: TileGrid, x: float, y: float, w: float, h: float, dx: float,
                 probe: Probe) -> tuple[float, float, int]:
    """The x pass: (x, y, HIT_LEFT or HIT_RIGHT if a wall pushed the body back, else 0)."""
    tw = grid.tile_w
    x0, x = x, x + dx
    flags = 0
    mark = 0 if probe is None else len(probe)
    # 1. the bounding tiles: the rows the body's edges fall in...
    for row in grid.rows_between(y + EPS, y + h - EPS):
        # ... and its columns (where the body is now: a push moves its edges)
        columns = grid.cols_between(x + EPS, x + w - EPS)
        if probe is not None:
            probe.extend((col, row) for col in columns)
        for col in columns:  # 2. each tile around the body
            kind = grid.kind(col, row)
            if kind == SLOPE:  # >> beyond the article: slopes (the x pass by the floor height)
                if probe is not None:
                    del probe[mark:]
                return across_slopes(grid, x0, y, w, h, dx, probe)
            if kind != SOLID:
                continue  # empty, or one-way: one-way tiles never block sideways
            # 3. a wall tile of the range overlaps the body: 4. reset the position along x,
            # to the tile's side the body came from
            if dx > 0:
                x, flags = min(x, col * tw - w), HIT_RIGHT
            else:
                x, flags = max(x, (col + 1) * tw), HIT_LEFT
    return x, y, flags


def move_along_y(grid: TileGrid, x: float, y: float, w: float, h: float, dy: float,
                 one_way_bottom: float, drop_through: bool, probe: Probe) -> tuple[float, int]:
    """The y pass: (y, ON_GROUND or HIT_CEILING if a tile pushed the body back, else 0)."""
    th = grid.tile_h
    y0, y = y, y + dy
    flags = 0
    columns = grid.cols_between(x + EPS, x + w - EPS)
    for row in grid.rows_between(y + EPS, y + h - EPS):  # 1. the bounding tiles
        if probe is not None:
            probe.extend((col, row) for col in columns)
        for col in columns:  # 2. each tile around the body
            kind = grid.kind(col, row)
            if kind == EMPTY:
                continue
            top = row * th  # 3. a tile of the range overlaps the body
            if kind != SOLID:  # >> beyond the article: one-way tiles and slopes
                top = top_for_y(grid, kind, col, row, x, y0, y, w, h, dy, one_way_bottom,
                                drop_through)
                if top is None:
                    continue
            # 4. reset the position along y, to the tile's side the body came from
            if dy > 0:
                y, flags = min(y, top - h), flags | ON_GROUND
            else:
                y, flags = max(y, row * th + th), flags | HIT_CEILING
    return y, flags


# ----------------------------------------------------------------------------------------------
# Beyond the article: one-way tiles and slopes
# ----------------------------------------------------------------------------------------------

def top_for_y(grid: TileGrid, kind: int, col: int, row: int, x: float, y0: float, y: float,
              w: float, h: float, dy: float, one_way_bottom: float,
              drop_through: bool) -> float | None:
    """The top a one-way tile or a slope shows the y pass moving the body from ``y0`` to ``y``,
    or None where it does not block.

    A one-way tile blocks only a body landing on it from above (:func:`one_way_counts`: its
    bottom was at or above the tile's top when the tick began), unless it drops through. A
    slope blocks by its shape: the floor height under the body's foot, landed on from above;
    met from below (rising) it is a box, whose bottom is the ceiling. A body that was across
    a slope of height 0 before the move (:func:`footing.across_line`) meets it from neither
    side: it is not in the way.
    """
    if kind == ONE_WAY:
        top = row * grid.tile_h
        if dy > 0.0 and not drop_through and one_way_counts(one_way_bottom, top):
            return top
        return None
    surface = top_under(grid, SLOPE, col, row, x, x + w)
    if y + h <= surface + EPS or across_line(grid, col, row, x, y0, w, h):
        return None  # above the surface, or across a line before the move
    return surface


def across_slopes(grid: TileGrid, x0: float, y: float, w: float, h: float, dx: float,
                  probe: Probe) -> tuple[float, float, int]:
    """The x pass of a range box that holds a slope: (x, y, flags).

    Every blocking cell the moved box overlaps (slopes by their shape) is either the floor at the
    body's foot, which the body is lifted onto (:func:`footing.climbs_onto`, if the lifted box is
    free), or a wall it is pushed back from along x, as the article pushes out of every tile: to
    the cell's side, or where a slope's surface reaches the body's bottom. A push moves the range
    box, so the cells are looked at again until nothing pushes.
    """
    rightward = dx > 0
    x, bottom0 = x0 + dx, y + h
    flags = HIT_RIGHT if rightward else HIT_LEFT
    pushed = False
    standing = None  # on a slope at the start? (asked only if a solid tile could be a floor)
    floors: list[tuple[int, int, int, float]] = []  # (kind, col, row, top) to step onto
    for _ in range(4):  # a push back can uncover only cells behind it: this settles at once
        floors.clear()
        moved = False
        for row in grid.rows_between(y + EPS, bottom0 - EPS):
            for col in grid.cols_between(x + EPS, x + w - EPS):
                if probe is not None:
                    probe.append((col, row))
                kind = grid.kind(col, row)
                if kind != SOLID and kind != SLOPE:
                    continue
                top = top_under(grid, kind, col, row, x, x + w)
                if bottom0 <= top + EPS:
                    continue  # a slope whose surface is below the body's bottom
                if kind == SOLID and standing is None:
                    standing = on_slope(grid, x0, w, bottom0)
                if ((kind == SLOPE or standing)
                        and climbs_onto(grid, kind, col, row, top, x0, w, bottom0, bottom0, dx,
                                        0.0)):
                    floors.append((kind, col, row, top))
                    continue
                edge = wall_x(grid, kind, col, row, bottom0, rightward)
                if rightward and edge - w < x:
                    x, moved = edge - w, True
                elif not rightward and edge > x:
                    x, moved = edge, True
        if not moved:
            break
        pushed = True
    if floors:
        lift_to = min(top for _k, _c, _r, top in floors) - h
        if room_at(grid, x, lift_to, w, h):
            return x, lift_to, flags if pushed else 0
        # no room above: each floor is a wall where it reaches the body's bottom
        for kind, col, row, _top in floors:
            edge = wall_x(grid, kind, col, row, bottom0, rightward)
            if rightward and edge - w < x:
                x = edge - w
            elif not rightward and edge > x:
                x = edge
        pushed = True
    if pushed:
        # never further back than where the move began (which was free)
        if (rightward and x < x0) or (not rightward and x > x0):
            x = x0
        return x, y, flags
    return x, y, 0
