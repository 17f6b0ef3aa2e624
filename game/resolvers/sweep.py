"""``sweep``: direction-specific half box, shrunk and stretched.

Article: "Tile Map Collision Detection, Part 1", prime31 (Mike Desaro) (undated; it points to
Nez's ``TiledMapMover``, from 2016), http://blog.prime31.com/tile-map-collision-detection-part-1/
That first part covers flat tiles; for slopes and one-way tiles it points to Nez's
``TiledMapMover``, whose ideas are reworked here to fit this project's slope rules.

Axis order: x then y.

The technique, as the article teaches it:

1. Split the motion into x and y and do x first.
2. For the axis being moved, take the half of the body's box that faces the motion (the right half
   when moving right, the bottom half when falling...), shrink it a few pixels on the *other* axis
   (the inset), and stretch it by the motion.
3. Gather the tiles that box touches, nearest to the leading edge first.
4. Walk them in that order; the first one that blocks ends the move at its edge.
5. Because of the inset, tiles that only reach into the few pixels cut off the box do not block.
   A body that missed a ledge by a few pixels is therefore not stopped by its side and ends up on
   top of it ("almost made it"), with no special code for that.

How it runs here (the article's ``collisionRectForSide``, ``populateCollidingTiles`` and
``testMapCollision`` are, sideways, :meth:`~SweepResolver._across` and :meth:`~SweepResolver._fit`,
vertically :meth:`~SweepResolver._down` and :meth:`~SweepResolver._up`): the sideways pass walks
the stretched box one column at a time, nearest first (it also cuts where the trailing edge
crosses a column, so the tiles beside the body never change inside one cut), and judges the
box at the end of each cut: a tile in the shrunk rows is a wall (the leading edge stops on its
column's edge), one only in the strip cut off at the bottom a ledge the body is lifted onto, one
only in the strip cut off at the top a ceiling corner it is pushed under. The vertical pass
walks the rows nearest first; the first row holding a tile that blocks ends the move on it.

Beyond the article, each joined to its passes at a line marked ``# >> beyond the article``:
slopes and one-way tiles (Nez's ``TiledMapMover``, reworked), the corner slide when rising, and
the bisection that stops a climb under a ceiling. Play moves bodies with the fast twin
:class:`game.resolvers.fast.sweep.FastSweep`, which answers the usual moves from a look at the
grid's bytes and hands the rest to these passes.

Departures from the article, and why:

* **Exact placement, and a body already touching stays put.** The leading edge stops on the
  tile's edge with no pixel of gap; a stop within ``EPS`` of where the body already is returns
  its position unchanged, so a body resting on a floor or pushing a wall keeps its coordinates
  tick after tick and still reports the contact.
* **Only what lies ahead of the leading edge blocks.** The half box starts at the body's centre,
  so in the article a tile the body already overlaps "blocks" too, and the body is snapped back
  to that tile's edge. Here tiles the body overlaps at the start of a move are left out, so a
  body somehow inside a tile (never in play) can move out of it.
* **The bump happens inside the sideways move.** In the article the body first moves sideways into
  the ledge's corner, overlapping it, and only the following vertical pass (which works only when
  falling) pulls it up. Here the lift is part of the sideways move, when the leading edge reaches
  the ledge's column, and the rest of the motion goes on at the new height, if the lifted box is
  free (else the ledge is a wall). The same for the top strip: a tile reaching at most ``inset_y``
  into the head pushes the body down under it; a tile in both strips at once is a wall.
* **Vertical strips.** The article shrinks the box sideways for vertical moves as well, which
  would let a falling body sink into a tile it overlaps by only the inset. Here a falling body
  lands on a tile under either side strip like any other (sliding it off would undo the ledge
  bump of the same tick); a rising body whose side strip alone (at most ``inset_x``) meets a
  tile slides sideways off that corner so the jump goes on, if the slid box is free and inside
  the map; otherwise the tile is a ceiling. Tiles met by both strips at once stop it.
* **Insets bigger than half the body** would turn the shrunk box inside out. Each inset is capped
  at half the body's size along its axis: with the cap, whatever the middle line of the body's
  side meets is a wall and anything lower is stepped onto.
* **No tunnelling.** The stretched box covers the whole path, walked column by column, so a wall
  anywhere on the path is found whatever the speed: the mover does not sub-step this resolver.
* **Ties.** Tiles at the same distance are taken together: all tiles of one column (sideways) or
  one row (vertically) are judged as a group, so the answer never depends on the order they were
  listed in. A wall anywhere in the column wins over a ledge, the highest ledge sets the lift, the
  lowest ceiling corner sets the push.
* **Slopes** (the article's second part). Nez's mover ignores a slope sideways except for its
  full-height side and snaps the body onto the surface under its centre in the vertical pass,
  which leaves the body inside the slope when it is not falling. Here the project's slope rules
  hold: a slope tile is solid under its straight surface, and the body rests on the highest point
  of the surface under its whole width. Sideways, a slope tile the body stands in is a floor that
  lifts it as it moves (the climb is continuous: at most ``|dx| * tile_h / tile_w``); where the
  leading edge enters a slope's column, the step at its side must be at most ``inset_y`` (the low
  side of a slope is no step, the full-height side a wall). Below its row a slope is a box.
  Falling onto a slope lands on its surface. A climb that runs into a ceiling stops where the
  head touches (found by bisection, to within ``EPS``). Walking down is the mover's ground snap.
* **One-way tiles** (the article's second part; in Nez too only their top edge counts). They
  block only a falling body whose bottom was at or above their top at the start of the tick
  (``one_way_bottom``), never when ``drop_through``, never sideways, never from below.
* **Ladders.** The grid makes a ladder's top cell a one-way tile (``game.maps.grid.with_ladders``)
  and its other cells empty: the stretched half box meets only a ladder top's top edge, moving
  down, as it meets a one-way tile's. Climbing is the player's (``game.sim.player``); climbing
  down moves with ``drop_through``.
* **floor, not int; the map's outside is empty.** Cells come from ``math.floor`` and every cell
  outside the map is empty: no crash, no phantom tile.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import ClassVar

from game.maps.grid import EMPTY, EPS, ONE_WAY, SLOPE, SOLID, TileGrid
from game.resolvers.base import (HIT_CEILING, HIT_LEFT, HIT_RIGHT, ON_GROUND, Article,
                                 BoxResolver, Probe, one_way_counts, overlapping_tiles,
                                 overlaps_any)

# Outcomes of judging the body's box at the end of one sideways cut.
_OK = 0  # free, possibly after a lift or a push (the new y comes with it)
_WALL = 1  # a tile of the column being entered blocks at its edge, however little is entered
_BLOCKED = 2  # blocked somewhere inside the cut: search for the farthest free point

_SLIDES = 8  # most corner slides one rising move may take before it counts as a ceiling
_BISECT = 40  # halvings when a cut is blocked part-way (16 px / 2**40 is far below EPS)
_SNAP = 1e-9  # an edge this close to a tile border counts as on it when cutting the path


@dataclass(frozen=True)
class SweepOptions:
    """How much the direction boxes are shrunk; a negative value picks the automatic size."""

    inset_x: float = field(default=-1.0, metadata={
        "unit": "px cut from each side of the box for vertical moves (corner slide when "
                "rising); -1 = auto: tile width / 8",
        "lo": -1.0, "hi": None})
    inset_y: float = field(default=-1.0, metadata={
        "unit": "px cut from the top and bottom of the box for sideways moves (the ledge "
                "bump height); -1 = auto: tile height / 8",
        "lo": -1.0, "hi": None})


def _inset(option: float, tile: int, size: float) -> float:
    """The inset actually used: the option (or tile / 8), at most half the body's size."""
    value = tile / 8 if option < 0 else option
    half = size / 2
    return half if half < value else value  # min(value, half)


class SweepResolver(BoxResolver):
    name: ClassVar[str] = "sweep"
    article: ClassVar[Article] = Article(
        'Tile Map Collision Detection, Part 1',
        'prime31 (Mike Desaro)',
        "undated; after Nez's TiledMapMover, 2016",
        'http://blog.prime31.com/tile-map-collision-detection-part-1/')
    axis_order: ClassVar[str] = "x then y"
    supports_slopes: ClassVar[bool] = True
    destination_only: ClassVar[bool] = False
    summary: ClassVar[str] = ("stretched half box shrunk by an inset, tiles nearest first; "
                              "ledge bump, slopes, one-way")
    Options: ClassVar[type] = SweepOptions

    def __init__(self, options: SweepOptions | None = None) -> None:
        self.options = options or SweepOptions()

    def move_box(self, grid: TileGrid, x: float, y: float, w: float, h: float, dx: float,
                 dy: float, one_way_bottom: float, drop_through: bool,
                 probe: Probe) -> tuple[float, float, int]:
        # Tiles the body already overlaps (never, in play) are left out, so that it can get free.
        ignore = frozenset(overlapping_tiles(grid, x, y, w, h, one_way_bottom, True))
        mark = 0 if probe is None else len(probe)
        flags = 0
        # 1. The motion split into x and y, x first.
        if dx:
            # 2. to 4. The half box facing the motion, shrunk by the inset on the other axis and
            # stretched by the motion: its tiles walked nearest first, the first wall stopping it.
            iy = _inset(self.options.inset_y, grid.tile_h, h)
            x, y, stopped = self._across(grid, x, y, w, h, dx, iy, one_way_bottom, drop_through,
                                         ignore, probe)
            if stopped:
                flags = HIT_RIGHT if dx > 0 else HIT_LEFT
        # Then y, the same way: rows nearest first.
        if dy > 0.0:
            y, on_ground = self._down(grid, x, y, w, h, dy, one_way_bottom, drop_through, ignore,
                                      probe)
            if on_ground:
                flags |= ON_GROUND
        elif dy < 0.0:
            ix = _inset(self.options.inset_x, grid.tile_w, w)
            x, y, hit_ceiling = self._up(grid, x, y, w, h, dy, ix, one_way_bottom, drop_through,
                                         ignore, probe)
            if hit_ceiling:
                flags |= HIT_CEILING
        if probe is not None:
            probe[mark:] = dict.fromkeys(probe[mark:])  # each cell once, first look first
        return x, y, flags

    # ------------------------------------------------------------------------------------------
    # Sideways
    # ------------------------------------------------------------------------------------------
    def _across(self, grid: TileGrid, x: float, y: float, w: float, h: float, dx: float,
                iy: float, bottom_before: float, drop_through: bool,
                ignore: frozenset[tuple[int, int]], probed: Probe) -> tuple[float, float, bool]:
        """The x pass: walk the stretched box column by column; returns (x, y, stopped)."""
        tw = grid.tile_w
        ahead = 1.0 if dx > 0 else -1.0
        total = abs(dx)
        lead = x + w if dx > 0 else x  # the leading edge
        done = 0.0
        cur_y = y
        while total - done > 0.0:
            trail = lead - w if dx > 0 else lead + w
            lead_border = _border(lead, ahead, tw)
            to_lead = abs(lead_border - lead)
            to_trail = abs(_border(trail, ahead, tw) - trail)
            step = min(total - done, to_lead, to_trail)
            new_lead = lead + ahead * step
            if step == to_lead:
                new_lead = lead_border  # land exactly on the border
            # the column the leading edge moves through in this cut, and its near edge
            col = math.floor((lead + new_lead) * 0.5 / tw)
            near = col * tw if dx > 0 else (col + 1) * tw
            entry_col = col if abs(lead - near) <= EPS else None

            bx = new_lead - w if dx > 0 else new_lead  # the box at the end of the cut
            status, new_y = self._fit(grid, bx, cur_y, w, h, ahead, entry_col, near, iy,
                                      bottom_before, drop_through, ignore, probed)
            if status == _OK:
                lead, cur_y, done = new_lead, new_y, done + step
                continue
            if status == _BLOCKED:  # >> beyond the article: a climb that meets a ceiling
                lo, lo_y = self._farthest_free(grid, lead, cur_y, w, h, dx, step, entry_col,
                                               near, iy, bottom_before, drop_through, ignore)
                if lo > EPS:  # less than that is still touching where the cut began
                    lead, cur_y, done = lead + ahead * lo, lo_y, done + lo
                    return (lead - w if dx > 0 else lead), cur_y, True
            # stopped right at the start of this cut
            if done == 0.0:
                return x, cur_y, True
            if entry_col is not None:
                lead = near  # exactly on the blocking column's edge
            return (lead - w if dx > 0 else lead), cur_y, True
        return x + dx, cur_y, False

    def _fit(self, grid: TileGrid, bx: float, y: float, w: float, h: float, ahead: float,
             entry_col: int | None, entry_x: float, iy: float, bottom_before: float,
             drop_through: bool, ignore: frozenset[tuple[int, int]],
             probed: Probe) -> tuple[int, float]:
        """Judge the box (bx, y) at the end of a cut: (_OK, new y) or (_WALL | _BLOCKED, y).

        ``entry_col`` is the column the leading edge enters in this cut (None if it started inside
        it); its tiles may block at their edge. Tiles in other columns beside the body cannot,
        except slopes, whose surface under the body changes continuously as it moves.
        """
        tw, th = grid.tile_w, grid.tile_h
        bottom = y + h
        floor_at = math.inf  # the highest floor the bottom must be lifted to
        ceil_at = -math.inf  # the lowest ceiling the top must be pushed under
        first, end = math.floor((bx + EPS) / tw), math.ceil((bx + w - EPS) / tw)
        # The column being entered is judged however little of it the cut reaches: a cut of
        # about EPS would otherwise leave it out of the range above and end inside it.
        if entry_col is not None:
            if ahead > 0 and end <= entry_col:
                end = entry_col + 1
            elif ahead < 0 and first > entry_col:
                first = entry_col
        # nearest the leading edge first
        cols = range(end - 1, first - 1, -1) if ahead > 0 else range(first, end)
        rows = range(math.floor((y + EPS) / th), math.ceil((bottom - EPS) / th))
        for col in cols:
            for row in rows:
                if probed is not None:
                    probed.append((col, row))
                kind = grid.kind(col, row)  # (outside the map every cell is empty)
                if kind == EMPTY:
                    continue
                if ignore and (col, row) in ignore:
                    continue
                top = row * th
                base = top + th
                if kind == ONE_WAY and not _holds(top, bottom, bottom_before, drop_through):
                    continue  # >> beyond the article: one-way tiles never block sideways...
                if kind == SLOPE:  # >> beyond the article: slopes, a floor to climb or a box
                    status, surface = _slope_beside(grid, col, row, bx, w, bottom, entry_col,
                                                    entry_x, iy)
                    if status == _WALL:
                        return _WALL, y
                    if status == _OK:
                        floor_at = min(floor_at, surface)
                        continue
                    # below the slope's row: from here the tile is a box
                if top >= bottom - iy - EPS:  # only in the bottom strip: a ledge
                    floor_at = min(floor_at, top)
                elif base <= y + iy + EPS:  # only in the top strip: a ceiling corner
                    ceil_at = max(ceil_at, base)
                else:
                    return (_WALL if col == entry_col else _BLOCKED), y  # in the shrunk rows
        if floor_at == math.inf and ceil_at == -math.inf:
            return _OK, y
        if floor_at != math.inf and ceil_at != -math.inf:
            return _BLOCKED, y  # squeezed from both sides: no room
        new_y = floor_at - h if floor_at != math.inf else ceil_at
        if not _free(grid, bx, new_y, w, h, bottom_before, drop_through, ignore):
            return _BLOCKED, y
        return _OK, new_y

    # ------------------------------------------------------------------------------------------
    # Vertically
    # ------------------------------------------------------------------------------------------
    def _down(self, grid: TileGrid, x: float, y: float, w: float, h: float, dy: float,
              bottom_before: float, drop_through: bool, ignore: frozenset[tuple[int, int]],
              probed: Probe) -> tuple[float, bool]:
        """The falling pass: rows nearest first; the first row with a floor stops the body."""
        tw, th = grid.tile_w, grid.tile_h
        bottom = y + h
        reach = bottom + dy
        c0, c1 = math.floor((x + EPS) / tw), math.ceil((x + w - EPS) / tw)
        # rows of the stretched box wholly behind the leading edge can hold nothing ahead of it
        for row in range(math.floor((bottom - EPS) / th), math.floor((reach + EPS) / th) + 1):
            if probed is not None:
                probed.extend((col, row) for col in range(c0, c1))
            top = row * th
            best = math.inf
            for col in range(c0, c1):
                kind = grid.kind(col, row)  # (outside the map every cell is empty)
                if kind == EMPTY:
                    continue
                if ignore and (col, row) in ignore:
                    continue
                if kind == SLOPE:  # >> beyond the article: slopes, landed on by their surface
                    lo = max(x, col * tw)
                    hi = min(x + w, (col + 1) * tw)
                    contact = grid.surface_top(col, row, lo, hi)
                elif kind == ONE_WAY:  # >> beyond the article: one-way tiles
                    if drop_through or not one_way_counts(bottom_before, top):
                        continue
                    contact = top
                else:
                    contact = top
                if bottom - EPS <= contact <= reach + EPS and contact < best:
                    best = contact
            if best != math.inf:
                if best - bottom <= EPS:
                    return y, True  # already resting on it (never lifted: it is falling)
                return best - h, True
        return y + dy, False

    def _up(self, grid: TileGrid, x: float, y: float, w: float, h: float, dy: float, ix: float,
            bottom_before: float, drop_through: bool, ignore: frozenset[tuple[int, int]],
            probed: Probe) -> tuple[float, float, bool]:
        """The rising pass: rows nearest first; returns (x, y, hit_ceiling)."""
        tw, th = grid.tile_w, grid.tile_h
        reach = y + dy
        top = y
        for _ in range(_SLIDES):
            cols = range(math.floor((x + EPS) / tw), math.ceil((x + w - EPS) / tw))
            first = math.floor((top + EPS) / th) - 1
            last = math.floor((reach + EPS) / th)
            for row in range(first, last - 1, -1):
                if probed is not None:
                    probed.extend((col, row) for col in cols)
                base = (row + 1) * th
                left_edge = -math.inf  # a tile under the left strip: slide right to here
                right_edge = math.inf  # one under the right strip: slide left to here
                core = False
                for col in cols:
                    kind = grid.kind(col, row)  # (outside the map every cell is empty)
                    if kind != SOLID and kind != SLOPE:  # one-way tiles never block rising
                        continue
                    if ignore and (col, row) in ignore:
                        continue
                    col_left, col_right = col * tw, (col + 1) * tw
                    if col_right <= x + ix + EPS:
                        left_edge = max(left_edge, col_right)
                    elif col_left >= x + w - ix - EPS:
                        right_edge = min(right_edge, col_left)
                    else:
                        core = True
                if left_edge == -math.inf and right_edge == math.inf and not core:
                    continue
                stop_y = y if abs(base - y) <= EPS else base
                if core or (left_edge != -math.inf and right_edge != math.inf):
                    return x, stop_y, True
                # >> beyond the article: the corner slide, off a ceiling met by a side strip
                new_x = _corner_slide(grid, w, h, base, left_edge, right_edge, bottom_before,
                                      drop_through, ignore)
                if new_x is None:
                    return x, stop_y, True
                x, top = new_x, base  # slid off the corner; go on rising from here
                break
            else:
                return x, reach, False
        return x, top, True


    # ------------------------------------------------------------------------------------------
    # Beyond the article: a climb that meets a ceiling
    # ------------------------------------------------------------------------------------------
    def _farthest_free(self, grid: TileGrid, lead: float, y: float, w: float, h: float,
                       dx: float, step: float, entry_col: int | None, near: float, iy: float,
                       bottom_before: float, drop_through: bool,
                       ignore: frozenset[tuple[int, int]]) -> tuple[float, float]:
        """A cut blocked part-way (a climb along a slope runs into a ceiling): how far into it
        the body can go, found by bisection, and its y there."""
        ahead = 1.0 if dx > 0 else -1.0
        lo, hi, lo_y = 0.0, step, y
        for _ in range(_BISECT):
            mid = (lo + hi) * 0.5
            at = lead + ahead * mid
            st, yy = self._fit(grid, at - w if dx > 0 else at, y, w, h, ahead, entry_col, near,
                               iy, bottom_before, drop_through, ignore, None)
            if st == _OK:
                lo, lo_y = mid, yy
            else:
                hi = mid
        return lo, lo_y


# ----------------------------------------------------------------------------------------------
# Beyond the article: slopes beside the body, the corner slide
# ----------------------------------------------------------------------------------------------

def _slope_beside(grid: TileGrid, col: int, row: int, bx: float, w: float, bottom: float,
                  entry_col: int | None, entry_x: float, iy: float) -> tuple[int, float]:
    """A slope tile in the box at the end of a sideways cut: (_OK, the floor to lift the body
    to, or inf above its surface), (_WALL, 0.0) for a step at the entered side higher than a
    ledge bump, or (_BLOCKED, 0.0) below the slope's row, where the tile is a box."""
    tw, th = grid.tile_w, grid.tile_h
    surface = grid.surface_top(col, row, max(bx, col * tw), min(bx + w, (col + 1) * tw))
    if bottom <= surface + EPS:
        return _OK, math.inf  # above its surface
    if bottom <= (row + 1) * th + EPS:
        # standing in the slope's row: its surface is a floor to climb, but the step at the
        # side being entered must be no more than a ledge bump
        if col == entry_col and bottom - grid.surface_y(col, row, entry_x) > iy + EPS:
            return _WALL, 0.0
        return _OK, surface
    return _BLOCKED, 0.0


def _holds(top: float, bottom: float, bottom_before: float, drop_through: bool) -> bool:
    """... unless they hold the body: it was on or above the tile's top when the tick began
    and is below it now (pushed down under a ceiling corner in this walk). Then the tile is a
    box like any other: a ledge to be lifted back onto, or a wall."""
    return not drop_through and one_way_counts(bottom_before, top) and bottom > top + EPS


def _corner_slide(grid: TileGrid, w: float, h: float, base: float, left_edge: float,
                  right_edge: float, bottom_before: float, drop_through: bool,
                  ignore: frozenset[tuple[int, int]]) -> float | None:
    """A rising body whose side strip alone met a ceiling (``left_edge``: a tile under its left
    strip, ``right_edge``: one under its right) slides off that corner: its new x, or None if
    the slid box is not free or leaves the map (then the tile is a ceiling)."""
    new_x = left_edge if left_edge != -math.inf else right_edge - w
    if (new_x < 0.0 or new_x + w > grid.width_px
            or not _free(grid, new_x, base, w, h, bottom_before, drop_through, ignore)):
        return None
    return new_x


# ----------------------------------------------------------------------------------------------
# Helpers
# ----------------------------------------------------------------------------------------------

def _border(p: float, ahead: float, tile: int) -> float:
    """The next tile border strictly ahead of the coordinate ``p``."""
    if ahead > 0:
        return (math.floor((p + _SNAP) / tile) + 1) * tile
    return (math.ceil((p - _SNAP) / tile) - 1) * tile


def _free(grid: TileGrid, x: float, y: float, w: float, h: float, bottom_before: float,
          drop_through: bool, ignore: frozenset[tuple[int, int]]) -> bool:
    """True if the box overlaps no tile that blocks it (the no-overlap rule, slopes by shape)."""
    # Dropping through, no one-way tile counts: as for a bottom that started below them all.
    before = math.inf if drop_through else bottom_before
    if not ignore:
        return not overlaps_any(grid, x, y, w, h, before, True)
    return all(cell in ignore for cell in overlapping_tiles(grid, x, y, w, h, before, True))
