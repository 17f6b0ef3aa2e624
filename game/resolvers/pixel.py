"""``pixel``: whole pixels, one at a time, x then y (Celeste and TowerFall).

Sources: Maddy Thorson, "Celeste and TowerFall Physics" (2017),
https://maddythorson.medium.com/celeste-and-towerfall-physics-d24bd2ae0fc5 , and the released
Celeste player code, ``Player.cs`` (Maddy Thorson and Noel Berry, 2018),
https://github.com/NoelFB/Celeste

Axis order: x then y.

The technique, as the article teaches it:

1. An actor's position is a whole number of pixels; what a move leaves over (less than a pixel)
   is kept per axis as a *remainder* and added to the next move.
2. A move of n whole pixels is taken one pixel at a time: before each pixel the actor asks "would
   I overlap a solid one pixel further?" and, if so, stops where it is and drops the remainder on
   that axis (it is touching the solid, exactly). Nothing is ever pushed out of anything: an actor
   never enters a solid in the first place.
3. x first, then y.
4. Jump-through platforms stop an actor moving down only if it was not already overlapping them
   before the pixel (so it rises through them from below and lands on them from above).
5. ``Player.cs`` adds *corner correction*: a jump that hits a ceiling's corner by up to 4 px is
   nudged sideways (towards the direction of travel, or either way when going straight up)
   round the corner instead of bumping its head.

How the remainder is kept. The resolver interface moves float positions, and the project's "no
overlap" rule and exact contacts are judged on the float box. So the body's float position *is*
Celeste's ``Position + remainder``: the pixel steps are whole pixels of the float position, the
last step being the fraction left over, and each step is checked against the float box. Celeste
rounds its counter to whole pixels and checks the integer box; in its world (whole-pixel sizes,
tiles and stops) the two agree wherever it stops, since a stop zeroes the remainder and leaves the
actor on a whole-pixel edge. Here a step that would collide moves the body to the contact (the
tile's edge, or a slope's surface) and the move on that axis ends: for whole-pixel sizes that is
Celeste's stop, and for any other size the body still ends touching, never a fraction away.

What it costs. Taken literally, a move costs one overlap test per pixel, more the faster it goes.
Here a run of pixels through cells that hold nothing that could stop the body is taken at once
(a fall through open air costs the rows it crosses, not its pixels), and a flat top or a wall of
solid tiles is met at its edge, where the pixel walk would stop. Pixel steps, each an overlap
test, are left for where the answer can change inside a cell: slopes and a corner correction.
In play (no cells asked for), each pass first reads its rows from bit masks of the grid's rows
(made once per grid, in ``prepare``), one AND a row, and answers the usual moves there with the
passes' own arithmetic (the same floats); a slope or one-way tile near is left to the passes.

Departures, and why:

* **Slopes** (Celeste has none; pixel platformers that have them climb a pixel at a time). When a
  sideways pixel step is blocked and the body stood on something when the move began (it is
  walking, not jumping or falling), it may rise onto what blocked it by up to one pixel per pixel
  stepped (45 degrees), if the raised box is free: the slope's surface under its leading corner,
  or a ledge at most that high (a 1 px step; in the air there is no bump at all). A steeper
  surface, or a higher step, is a wall. Walking down, a body that stood on something at the
  start of the move steps down after each pixel onto a floor at most one pixel per pixel below
  it, so it follows a slope down instead of leaving it for a tick. The mover's ground snap does
  the rest (a body that walked off a ledge falls).
* **One-way tiles** are Celeste's jump-through platforms, with the project's tick-wide rule: one
  counts only for a body moving down whose bottom was at or above its top when the tick began
  (``one_way_bottom``), and never when ``drop_through``; never sideways, never from below.
  Celeste asks before every pixel whether the actor overlapped the platform; in a tick that
  moves x then y the two rules agree, except that here a body that dropped below a platform's top
  does not land on it later in the same tick. One case of the tick-wide rule: a body that walked
  down a slope and then comes sideways over a platform whose top it began the tick on stands on
  it (or, with no room on it, stops at its side).
* **Corner correction** is an option (``corner_correction``, px; 0 turns it off). The default,
  -1, is a quarter of the tile width: Celeste's 4 px on this game's 16 px tiles (Celeste's own
  tiles are 8 px and its player 8 px wide, so there it is half a tile); it is capped at half the
  body's width (past that, most of the body was under the ceiling: a bump, not a corner). The nudge is
  the smallest that clears the corner (Celeste tries 1, 2, 3, 4 px and takes the first free one:
  the same, in whole pixels), taken only if the nudged box and the box one step higher are free
  and inside the map. Celeste drops what is left of that frame's rise; here the rise goes on from
  the nudged x, so the jump's height does not depend on where in a tick the corner was met. The
  direction follows this move's ``dx`` (Celeste reads the speed): left first when ``dx <= 0``,
  right when ``dx >= 0``.
* **A body that starts inside a tile** (never in play) cannot move on that axis into it, as in
  Celeste: it stays put there and reports the contact.
* **Swept, not sub-stepped**: every pixel of the path is looked at (or proved free), so nothing
  tunnels, and the mover does not cut the move into parts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from game.maps.grid import EMPTY, EPS, ONE_WAY, SLOPE, SOLID, TileGrid
from game.resolvers.base import (HIT_CEILING, HIT_LEFT, HIT_RIGHT, ON_GROUND, Article,
                                 BoxResolver, Probe)
from game.resolvers.pixel_passes import (_CORRECTIONS, INF, _across, _ceil, _corner, _down,
                                         _floor, _rise, _solid_in)

# For the row masks: kinds (bytes 0 to 3) to binary digits, "1" where a cell is of that kind.
_WALL_DIGITS = bytes.maketrans(bytes((EMPTY, SOLID, ONE_WAY, SLOPE)), b"0101")
_SLOPE_DIGITS = bytes.maketrans(bytes((EMPTY, SOLID, ONE_WAY, SLOPE)), b"0001")
_SOLID_DIGITS = bytes.maketrans(bytes((EMPTY, SOLID, ONE_WAY, SLOPE)), b"0100")
_FILLED_DIGITS = bytes.maketrans(bytes((EMPTY, SOLID, ONE_WAY, SLOPE)), b"0111")


@dataclass(frozen=True)
class PixelOptions:
    """Celeste's corner correction, in px."""

    corner_correction: float = field(default=-1.0, metadata={
        "unit": "px: how far a rising body is nudged sideways round a ceiling corner instead of "
                "bumping its head; 0 = off; -1 = auto: tile width / 4, Celeste's 4 px on 16 px "
                "tiles; at most half the body's width", "lo": -1.0, "hi": 64.0})


class PixelResolver(BoxResolver):
    name: ClassVar[str] = "pixel"
    article: ClassVar[Article] = Article(
        'Celeste and TowerFall Physics',
        'Maddy Thorson',
        '2017',
        'https://maddythorson.medium.com/celeste-and-towerfall-physics-d24bd2ae0fc5')
    axis_order: ClassVar[str] = "x then y"
    supports_slopes: ClassVar[bool] = True
    destination_only: ClassVar[bool] = False
    summary: ClassVar[str] = ("one pixel at a time, stop at the first pixel that would "
                              "collide; corner correction, 1 px/px slope steps")
    Options: ClassVar[type] = PixelOptions

    def __init__(self, options: PixelOptions | None = None) -> None:
        self.options = options or PixelOptions()
        self._grid: TileGrid | None = None  # the grid the row masks below were made from
        self._walls: list[int] = []  # per row, bit c set: cell c is solid or a slope
        self._slopes: list[int] = []  # ... a slope
        self._solids: list[int] = []  # ... solid
        self._filled: list[int] = []  # ... anything but empty

    def prepare(self, grid: TileGrid) -> None:
        """The grid's rows as bit masks, for the first looks of :meth:`move_box`: whether a run
        of columns of a row holds a kind of tile is one AND, not a loop over its cells. A grid
        made from the last one by ``with_kinds`` (a door) has only its changed rows redone."""
        if grid is self._grid:
            return
        cols, kinds = grid.cols, grid.kinds
        changed = None if self._grid is None else grid.changed_since(self._grid)
        if changed is None:
            todo = range(grid.rows)
            self._walls, self._slopes, self._solids, self._filled = ([0] * grid.rows
                                                                     for _ in range(4))
        else:
            todo = sorted({i // cols for i in changed})
        for row in todo:  # bit c is the digit of column c: the row read backwards
            line = kinds[row * cols:(row + 1) * cols][::-1]
            self._walls[row] = int(line.translate(_WALL_DIGITS) or b"0", 2)
            self._slopes[row] = int(line.translate(_SLOPE_DIGITS) or b"0", 2)
            self._solids[row] = int(line.translate(_SOLID_DIGITS) or b"0", 2)
            self._filled[row] = int(line.translate(_FILLED_DIGITS) or b"0", 2)
        self._grid = grid

    def move_box(self, grid: TileGrid, x: float, y: float, w: float, h: float, dx: float,
                 dy: float, one_way_bottom: float, drop_through: bool,
                 probe: Probe) -> tuple[float, float, int]:
        one_way_from = INF if drop_through else one_way_bottom
        if probe is not None:
            return self._traced(grid, x, y, w, h, dx, dy, one_way_from, probe)
        # Not asked for the cells: each pass first reads its rows from the row masks (prepare),
        # and takes the usual answers with its own arithmetic; the rest is left to the passes.
        if grid is not self._grid:
            self.prepare(grid)
        tw, th, cols, rows = grid.tile_w, grid.tile_h, grid.cols, grid.rows
        flags = 0
        if dx:
            # _across's first look (_path_clear): no wall or slope in the body's rows [r0, r1)
            # and no slope in row r1, along the path's columns [a, b)
            if dx > 0.0:
                lead = x + w
                a, b = _floor((lead - EPS) / tw), _ceil((lead + dx + EPS) / tw)
            else:
                a, b = _floor((x + dx - EPS) / tw), _ceil((x + EPS) / tw)
            r0, r1 = _floor((y + EPS) / th), _ceil((y + h - EPS) / th)
            if a < 0:
                a = 0
            if b > cols:
                b = cols
            row = r0 if r0 > 0 else 0
            if a < b and row <= r1 and row < rows:
                span, walls = (1 << b) - (1 << a), self._walls
                end = r1 if r1 < rows else rows
                while row < end and not walls[row] & span:
                    row += 1
                if row < end or (r1 < rows and self._slopes[r1] & span):
                    met = self._wall(grid, x, y, w, h, dx, span, r0, r1)
                    x, y, hit = met or _across(grid, x, y, w, h, dx, dy >= 0, one_way_from,
                                               None)
                    if hit:
                        flags = HIT_RIGHT if dx > 0 else HIT_LEFT
                else:
                    x = x + dx
            else:
                x = x + dx
        if dy:  # the body's columns, as _down and _rise clip them
            c0, c1 = _floor((x + EPS) / tw), _ceil((x + w - EPS) / tw)
            if c0 < 0:
                c0 = 0
            if c1 > cols:
                c1 = cols
        if dy > 0.0:
            # _down's first look: the rows the bottom crosses, under the body's columns
            bottom = y + h
            row, last = _floor((bottom + EPS) / th), _floor((bottom + dy + EPS) / th)
            if row < 0:
                row = 0
            if last >= rows:
                last = rows - 1
            if c0 < c1 and row <= last:
                span, filled = (1 << c1) - (1 << c0), self._filled
                while row < last and not filled[row] & span:
                    row += 1
                if not filled[row] & span:
                    y = y + dy
                else:
                    top = row * th
                    if not self._solids[row] & span or top < bottom - EPS:
                        # a slope, a one-way tile, a solid tile it is inside of
                        y, landed = _down(grid, x, y, w, h, dy, one_way_from, None)
                        if landed:
                            flags |= ON_GROUND
                    elif top > bottom + dy + EPS:
                        y = y + dy  # a flat top beyond this move's reach
                    else:
                        # a flat solid top: the pixel walk stops exactly there
                        y = y if top - bottom <= EPS else top - h
                        flags |= ON_GROUND
            else:
                y = y + dy
        elif dy < 0.0:
            # _rise's first look: the rows the top crosses hold no wall or slope
            left = -dy
            row, last = _ceil((y - EPS) / th) - 1, _ceil((y - left - EPS) / th) - 1
            if row >= rows:
                row = rows - 1
            if last < 0:
                last = 0
            if c0 < c1 and row >= last:
                span, walls = (1 << c1) - (1 << c0), self._walls
                while row > last and not walls[row] & span:
                    row -= 1
                if walls[row] & span:
                    x, y, hit = self._up(grid, x, y, w, h, dx, left, None)
                    if hit:
                        flags |= HIT_CEILING
                else:
                    y = y - left
            else:
                y = y - left
        return x, y, flags

    def _wall(self, grid: TileGrid, x: float, y: float, w: float, h: float, dx: float,
              span: int, r0: int, r1: int) -> tuple[float, float, bool] | None:
        """:func:`_across` against a wall of solid tiles, told by the row masks: the free run to
        the first column of ``span`` (the path) with a wall in the rows [r0, r1) or a slope in
        row r1, then the first pixel step, blocked there. None if the cells it tests hold a
        slope, if that step is free, or if the body could step up: _across walks it."""
        tw, th, rows = grid.tile_w, grid.tile_h, grid.rows
        walls, slopes, solids = self._walls, self._slopes, self._solids
        top = r0 if r0 > 0 else 0
        end = r1 if r1 < rows else rows  # the body's rows in the map: [top, end)
        found, row = 0, top
        while row < end:
            found |= walls[row] & span
            row += 1
        if r1 < rows:
            found |= slopes[r1] & span
        # the first such column along the path, its near edge, the free run up to it
        if dx > 0:
            ahead, lead = 1, x + w
            near = ((found & -found).bit_length() - 1) * tw
        else:
            ahead, lead = -1, x
            near = found.bit_length() * tw
        free = (near - lead) * ahead
        left = abs(dx)
        if free > 0:
            if left < free:
                free = left
            x += ahead * free
            left -= free
        if not left > 0:
            return x, y, False  # the run ends before the column
        # The first pixel step. A step up onto what blocks it needs its top at most CLIMB px
        # above the bottom; the lowest top a tile of the body's rows has is its bottom row's,
        # here more than 2 px (> CLIMB + EPS) above: no step up, whether grounded or not.
        if (y + h) - (r1 - 1) * th <= 2.0:
            return None
        nx = x + ahead * (1.0 if left > 1.0 else left)
        hits = _solid_in(grid, slopes, solids, nx, w, top, end)
        if not hits:
            return None  # free (or a slope's shape to test): a pixel walk
        # _contact: up to the side of the nearest solid tile it met, unless there it overlaps
        # a tile (a body that started inside one)
        if nx > x:
            edge = ((hits & -hits).bit_length() - 1) * tw - w
            edge = x if edge < x else edge
        else:
            edge = hits.bit_length() * tw
            edge = x if edge > x else edge
        inside = _solid_in(grid, slopes, solids, edge, w, top, end)
        if inside is None:
            return None
        return (x if inside else edge), y, True

    def _traced(self, grid: TileGrid, x: float, y: float, w: float, h: float, dx: float,
                dy: float, one_way_from: float, probe: list[tuple[int, int]]
                ) -> tuple[float, float, int]:
        """The passes, listing every cell they look at in ``probe`` (each once, first look
        first)."""
        mark = len(probe)
        flags = 0
        if dx:
            x, y, hit = _across(grid, x, y, w, h, dx, dy >= 0, one_way_from, probe)
            if hit:
                flags = HIT_RIGHT if dx > 0 else HIT_LEFT
        if dy > 0:
            y, landed = _down(grid, x, y, w, h, dy, one_way_from, probe)
            if landed:
                flags |= ON_GROUND
        elif dy < 0:
            x, y, hit = self._up(grid, x, y, w, h, dx, -dy, probe)
            if hit:
                flags |= HIT_CEILING
        probe[mark:] = dict.fromkeys(probe[mark:])
        return x, y, flags

    def _up(self, grid: TileGrid, x: float, y: float, w: float, h: float, dx: float,
            left: float, probe: Probe) -> tuple[float, float, bool]:
        """The rising pass, with corner correction: (x, y, hit the ceiling)."""
        reach = _reach(self.options.corner_correction, grid.tile_w, w)
        for _ in range(_CORRECTIONS + 1):
            y, left, cells = _rise(grid, x, y, w, h, left, probe)
            if not cells:
                return x, y, False
            nudged = _corner(grid, x, y, w, h, dx, min(left, 1.0), cells, reach) if reach else None
            if nudged is None:
                return x, y, True
            x = nudged
        return x, y, True


def _reach(option: float, tile_w: int, w: float) -> float:
    """The corner correction used: the option (or tile width / 4), at most half the body."""
    value = tile_w / 4 if option < 0 else option
    return w / 2 if w / 2 < value else value
