"""Test helpers for driving resolvers the way the game does, with the "no overlap" check built in.

Everything goes through :func:`game.resolvers.move_body`, the one call the simulation makes, so the
mover's edge clamping, sub-stepping and ground snap are part of what is tested.
"""

from __future__ import annotations

import contextlib
import io
import math
import subprocess
from dataclasses import dataclass, field

import pytest
from hypothesis import settings

from game.maps.grid import EPS, ONE_WAY, SLOPE, SOLID, TileGrid
from game.resolvers import REGISTRY, create, move_body, names
from game.resolvers.base import NO_CONTACT, Body, Contacts, Move, Resolver, overlapping_tiles

# Tile shapes the shared cases run on: (tile_w, tile_h). 16 px is the game's size.
TILE_SHAPES = [(16, 16), (8, 8), (32, 32), (16, 8)]
# The quick tier keeps the game's 16 px tile; 8 and 32 px tiles are power-of-two scalings of it, and
# the non-square 16x8 tile is drawn by the property tests of every tier, so the shared cases run
# those in the full tier only.
QUICK_TILES = {(16, 16)}


CI_EXAMPLES = 300  # the ``ci`` profile's count (tests/conftest.py)


def examples(ci: int) -> int:
    """The example count for a test that wants ``ci`` examples in CI, scaled to the loaded
    hypothesis profile (a tenth of it in ``dev``, more in ``thorough``); never fewer than 3.
    For tests whose examples cost more (or less) than most."""
    return max(3, round(ci * settings.default.max_examples / CI_EXAMPLES))


def sized(values, quick=None, ids=None) -> list:
    """``values`` as pytest params named ``WxH`` (or by ``ids``); those not in ``quick`` are marked
    slow, so the quick tier runs a few that matter and the full tier runs them all."""
    out = []
    for i, value in enumerate(values):
        name = ids[i] if ids is not None else "x".join(f"{v:g}" for v in value)
        marks = () if quick is None or value in quick else (pytest.mark.slow,)
        out.append(pytest.param(value, id=name, marks=marks))
    return out


TILES = sized(TILE_SHAPES, QUICK_TILES)

# The player's numbers (game/config.py) in px per tick at 60 Hz, for 16 px tiles.
GRAVITY_PER_TICK = 1500.0 / 60.0 / 60.0  # px/tick^2
MAX_FALL_PER_TICK = 480.0 / 60.0  # px/tick
RUN_PER_TICK = 130.0 / 60.0  # px/tick


def run_cli(*args) -> subprocess.CompletedProcess:
    """``main.py ARGS`` run in this process (``game.cli.main``), its output caught: the result
    looks like a finished subprocess (``returncode``, ``stdout`` and ``stderr`` as bytes). An
    uncaught exception fails the test as a traceback would fail the user. The few tests that need
    a real process (signals, exit status, stdin) start ``main.py`` themselves."""
    from game.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in args])
    return subprocess.CompletedProcess(list(args), code, out.getvalue().encode(),
                                       err.getvalue().encode())


def resolver_names() -> list[str]:
    """Every registered resolver, read when the test module is collected."""
    return names()


QUICK_RESOLVERS = ("axis", "swept")  # an article's technique and a shipped game's


def resolver_params(quick=QUICK_RESOLVERS) -> list:
    """Every resolver as a pytest param; only those in ``quick`` run in the quick tier. For
    costly cases whose collision the shared suite already puts to every resolver."""
    return [pytest.param(n, id=n, marks=() if n in quick else (pytest.mark.slow,))
            for n in names()]


def slope_resolver_names() -> list[str]:
    return [n for n in names() if REGISTRY[n].supports_slopes]


def box_resolver_names() -> list[str]:
    return [n for n in names() if not REGISTRY[n].supports_slopes]


def supports_slopes(resolver: Resolver) -> bool:
    return bool(type(resolver).supports_slopes)


def grid_from_cells(cols: int, rows: int, cells: dict[tuple[int, int], str], tile_w: int = 16,
                    tile_h: int | None = None, fill: str = ".") -> TileGrid:
    """A grid of ``cols`` x ``rows`` from a {(col, row): char} map (``from_rows`` characters)."""
    lines = [[fill] * cols for _ in range(rows)]
    for (c, r), ch in cells.items():
        lines[r][c] = ch
    return TileGrid.from_rows(["".join(line) for line in lines], tile_w=tile_w, tile_h=tile_h)


def render(grid: TileGrid) -> str:
    """The grid as text rows, for failure messages (slopes shown as ``/``, ``\\`` or ``s``)."""
    out = []
    for r in range(grid.rows):
        line = []
        for c in range(grid.cols):
            k = grid.kind(c, r)
            if k == SOLID:
                line.append("#")
            elif k == ONE_WAY:
                line.append("=")
            elif k == SLOPE:
                left, right = grid.slope_heights(c, r)
                line.append("/" if (left, right) == (0, grid.tile_h)
                            else "\\" if (left, right) == (grid.tile_h, 0) else "s")
            else:
                line.append(".")
        out.append("".join(line))
    return "\n".join(out)


def overlap(resolver: Resolver, grid: TileGrid, x: float, y: float, w: float, h: float,
            bottom_before: float) -> list[tuple[int, int]]:
    return overlapping_tiles(grid, x, y, w, h, bottom_before, supports_slopes(resolver))


def step(resolver: Resolver, grid: TileGrid, body: Body, dx: float, dy: float, *,
         drop_through: bool = False, was_on_ground: bool = False) -> Move:
    """One ``move_body`` call, checked: finite result and no overlap afterwards (rule 8)."""
    m = move_body(resolver, grid, body, dx, dy, drop_through=drop_through,
                  was_on_ground=was_on_ground)
    # a body dropping through one-way tiles may be inside them: only solids and slopes count then
    before = math.inf if drop_through else body.bottom
    if not (math.isfinite(m.x) and math.isfinite(m.y)):
        where = _where(resolver, grid, body, dx, dy, drop_through, was_on_ground)
        raise AssertionError(f"non-finite result {m} after {where}")
    hits = overlap(resolver, grid, m.x, m.y, body.w, body.h, before)
    if hits:
        where = _where(resolver, grid, body, dx, dy, drop_through, was_on_ground)
        raise AssertionError(f"overlaps {hits} at ({m.x!r}, {m.y!r}) after {where}")
    return m


def _where(resolver: Resolver, grid: TileGrid, body: Body, dx: float, dy: float,
           drop_through: bool, was_on_ground: bool) -> str:
    return (f"{type(resolver).name}: Body({body.x!r}, {body.y!r}, {body.w!r}, {body.h!r}) "
            f"dx={dx!r} dy={dy!r} drop_through={drop_through} was_on_ground={was_on_ground} "
            f"tile={grid.tile_w}x{grid.tile_h}\n{render(grid)}")


@dataclass
class Walker:
    """A body moved tick by tick like the player: gravity, velocities in px per tick.

    ``vy`` grows by ``gravity`` each tick up to ``max_fall``; the tick's dy is the average of the
    old and new vy (exact for constant acceleration). A floor or ceiling zeroes vy. If ``hold`` is
    set, ``vx`` is the input held every tick (it survives a wall hit, like a held key); otherwise a
    wall hit zeroes it.
    """

    resolver: Resolver
    grid: TileGrid
    x: float
    y: float
    w: float
    h: float
    vx: float = 0.0
    vy: float = 0.0
    gravity: float = GRAVITY_PER_TICK
    max_fall: float = MAX_FALL_PER_TICK
    hold: bool = True
    on_ground: bool = False
    contacts: Contacts = field(default=NO_CONTACT)
    ticks: int = 0

    @property
    def bottom(self) -> float:
        return self.y + self.h

    def body(self) -> Body:
        return Body(self.x, self.y, self.w, self.h)

    def tick(self, drop_through: bool = False) -> Move:
        vy0 = self.vy
        self.vy = min(self.vy + self.gravity, self.max_fall)
        dx, dy = self.vx, (vy0 + self.vy) * 0.5
        jumping = vy0 < 0
        m = step(self.resolver, self.grid, self.body(), dx, dy, drop_through=drop_through,
                 was_on_ground=self.on_ground and not jumping and not drop_through)
        self.x, self.y, c = m.x, m.y, m.contacts
        self.contacts, self.on_ground = c, c.on_ground
        if c.on_ground and self.vy > 0:
            self.vy = 0.0
        if c.hit_ceiling and self.vy < 0:
            self.vy = 0.0
        if not self.hold and ((c.hit_left and self.vx < 0) or (c.hit_right and self.vx > 0)):
            self.vx = 0.0
        self.ticks += 1
        return m


def floor_below(grid: TileGrid, x: float, w: float, bottom: float, slopes: bool,
                drop_through: bool = False) -> float:
    """The y a body spanning [x, x + w) with its bottom at ``bottom`` lands on falling straight
    down (inf if nothing): the highest tile top (or slope surface) at or below ``bottom``."""
    best = math.inf
    for col in grid.cols_between(x + EPS, x + w - EPS):
        for row in range(max(0, math.floor(bottom / grid.tile_h) - 1), grid.rows):
            kind = grid.kind(col, row)
            top = row * grid.tile_h
            if kind == SOLID or (kind == SLOPE and not slopes):
                pass
            elif kind == ONE_WAY and not drop_through:
                pass
            elif kind == SLOPE:
                top = grid.surface_top(col, row, max(x, col * grid.tile_w),
                                       min(x + w, (col + 1) * grid.tile_w))
            else:
                continue
            if top >= bottom - EPS:
                best = min(best, top)
    return best


__all__ = ["EPS", "GRAVITY_PER_TICK", "MAX_FALL_PER_TICK", "RUN_PER_TICK", "TILE_SHAPES", "TILES",
           "QUICK_TILES", "examples", "resolver_params", "run_cli", "sized", "Body",
           "Walker", "box_resolver_names", "create", "floor_below", "grid_from_cells", "overlap",
           "render", "resolver_names", "slope_resolver_names", "step", "supports_slopes"]
