"""Property tests for every registered resolver: random small maps, bodies and fast moves.

Each example draws a map of up to 12x10 cells (empty, solid, one-way, the two 45-degree slopes,
two slopes of random heights and a half tile of random height; resolvers without slope support
treat slope cells as boxes), a body
of 2..40 px placed in free space, and a few ticks of motion up to 4 tiles per tick on each axis.
Every tick goes through ``move_body`` and is checked by ``helpers.step``: no exception, finite
result, no overlap (``overlapping_tiles``). The tunnelling test adds a full row or column of solid
tiles (or a full row of one-way tiles, crossed only downward) and checks the body never ends a tick
on the other side of it. Asking for the probed cells must change no answer: the resolvers take
their shortcuts for the usual moves only when no cell list is wanted, so this checks each shortcut
against the general passes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pytest
from helpers import EPS, TILE_SHAPES, Body, create, examples, floor_below, resolver_names, step
from hypothesis import given, note, settings
from hypothesis import strategies as st

from game.maps.grid import TileGrid
from game.resolvers import move_body, move_box
from game.resolvers.base import ON_GROUND, support_under

NAMES = resolver_names()
# Random maps find rare corner cases only with enough examples (500 in CI; one costs a few ms).

# '.' four times: about half the cells are empty, so bodies have room to move.
CELLS = "....##=/\\abh"


@dataclass(frozen=True)
class MapSpec:
    """A drawn map, kept as text so a failing example prints readably."""

    rows: tuple[str, ...]
    tile_w: int
    tile_h: int
    a: tuple[float, float]  # slope heights (left, right) of the 'a' cells
    b: tuple[float, float]
    half: float = 8.0  # the height of the 'h' cells (a half tile: equal heights)

    @property
    def cols(self) -> int:
        return len(self.rows[0])

    def grid(self) -> TileGrid:
        return TileGrid.from_rows(list(self.rows), tile_w=self.tile_w, tile_h=self.tile_h,
                                  slope_chars={"a": self.a, "b": self.b,
                                               "h": (self.half, self.half)})

    def with_cells(self, cells: dict[tuple[int, int], str]) -> MapSpec:
        lines = [list(r) for r in self.rows]
        for (c, r), ch in cells.items():
            if 0 <= r < len(lines) and 0 <= c < len(lines[r]):
                lines[r][c] = ch
        return MapSpec(tuple("".join(line) for line in lines), self.tile_w, self.tile_h,
                       self.a, self.b, self.half)

    def cleared_under(self, x: float, y: float, w: float, h: float, keep: set[int] = frozenset(),
                      axis: str = "") -> MapSpec:
        """The map with every cell the box touches emptied (except a kept wall row/column)."""
        cols = range(math.floor(x / self.tile_w), math.ceil((x + w) / self.tile_w))
        rows = range(math.floor(y / self.tile_h), math.ceil((y + h) / self.tile_h))
        cells = {}
        for r in rows:
            for c in cols:
                if (axis == "row" and r in keep) or (axis == "col" and c in keep):
                    continue
                cells[(c, r)] = "."
        return self.with_cells(cells)


@st.composite
def maps(draw, min_cols: int = 1, min_rows: int = 1) -> MapSpec:
    tw, th = draw(st.sampled_from(TILE_SHAPES))
    cols = draw(st.integers(min_cols, 12))
    rows = draw(st.integers(min_rows, 10))
    height = st.floats(0.0, float(th), allow_nan=False)
    a = (draw(height), draw(height))
    b = (draw(height), draw(height))
    half = draw(height)
    cell = st.sampled_from(CELLS)
    lines = tuple("".join(draw(st.lists(cell, min_size=cols, max_size=cols)))
                  for _ in range(rows))
    return MapSpec(lines, tw, th, a, b, half)


sizes = st.floats(2.0, 40.0, allow_nan=False)
fractions = st.floats(0.0, 1.0, allow_nan=False)


@st.composite
def moves(draw, spec: MapSpec, down_only: bool = False, drops: bool = True):
    """1..6 ticks of (dx, dy, drop_through), up to 4 tiles per tick on each axis."""
    reach_x, reach_y = 4.0 * spec.tile_w, 4.0 * spec.tile_h
    tick = st.tuples(st.floats(-reach_x, reach_x, allow_nan=False),
                     st.floats(0.0 if down_only else -reach_y, reach_y, allow_nan=False),
                     st.booleans() if drops else st.just(False))
    return draw(st.lists(tick, min_size=1, max_size=6))


def run_ticks(resolver, grid, body: Body, ticks, on_tick=None) -> None:
    """Each tick through ``helpers.step`` (which checks it), then ``on_tick(i, move)``."""
    x, y, w, h = body.x, body.y, body.w, body.h
    on_ground = False
    for i, (dx, dy, drop) in enumerate(ticks):
        m = step(resolver, grid, Body(x, y, w, h), dx, dy, drop_through=drop,
                 was_on_ground=on_ground)
        x, y, on_ground = m.x, m.y, m.contacts.on_ground
        if on_tick is not None:
            on_tick(i, m)


# ------------------------------------------------------------------------------------------------
# (a) no exception and (b) no overlap after every tick
# ------------------------------------------------------------------------------------------------

def draw_scene(data, walks: bool = False) -> tuple[MapSpec, Body, list]:
    """A random map, a body in free space on it (from above the top to below the bottom), ticks.
    With ``walks``, half the time the body starts with its bottom on a row's top (the row under
    it is left as it was), where a walk starts."""
    spec = data.draw(maps(), label="map")
    w, h = data.draw(sizes, label="w"), data.draw(sizes, label="h")
    width, height = spec.cols * spec.tile_w, len(spec.rows) * spec.tile_h
    x = data.draw(fractions, label="x fraction") * max(0.0, width - w)
    y = -h - 2 * spec.tile_h + data.draw(fractions, label="y fraction") * (
        height + h + 3 * spec.tile_h)
    if walks and data.draw(st.booleans(), label="on a row's top"):
        y = round((y + h) / spec.tile_h) * spec.tile_h - h
    spec = spec.cleared_under(x, y, w, h)
    ticks = data.draw(moves(spec), label="ticks")
    note(f"rows={spec.rows!r}")
    return spec, Body(x, y, w, h), ticks


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=examples(500))
@given(data=st.data())
def test_random_moves_never_overlap(name, data):
    spec, body, ticks = draw_scene(data)
    run_ticks(create(name), spec.grid(), body, ticks)


# ------------------------------------------------------------------------------------------------
# (c) no tunnelling through a full 1-tile line of solid tiles (or a one-way line from above)
# ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=examples(500))
@given(data=st.data())
def test_never_crosses_a_full_wall_line(name, data):
    resolver = create(name)
    spec = data.draw(maps(min_cols=2, min_rows=2), label="map")
    tw, th = spec.tile_w, spec.tile_h
    cols, rows = spec.cols, len(spec.rows)
    width, height = cols * tw, rows * th
    w, h = data.draw(sizes, label="w"), data.draw(sizes, label="h")
    kind = data.draw(st.sampled_from(["row", "col", "one_way_row"]), label="line")
    if kind == "col":
        c = data.draw(st.integers(0, cols - 1), label="col")
        before = data.draw(st.booleans(), label="left of it")
        lo, hi = (0.0, c * tw - w) if before else ((c + 1) * tw, width - w)
        if hi < lo:
            return  # no room for the body on that side
        x = lo + data.draw(fractions, label="x fraction") * (hi - lo)
        y = data.draw(fractions, label="y fraction") * (height - h)
        if y < 0:
            return  # the body is taller than the map: it can pass over or under the column
        spec = spec.with_cells({(c, r): "#" for r in range(rows)})
        spec = spec.cleared_under(x, y, w, h, keep={c}, axis="col")
    else:
        r = data.draw(st.integers(0, rows - 1), label="row")
        before = True if kind == "one_way_row" else data.draw(st.booleans(), label="above it")
        lo, hi = (-h - 2 * th, r * th - h) if before else ((r + 1) * th, height + th)
        x = data.draw(fractions, label="x fraction") * max(0.0, width - w)
        y = lo + data.draw(fractions, label="y fraction") * (hi - lo)
        spec = spec.with_cells({(c, r): "=" if kind == "one_way_row" else "#"
                                for c in range(cols)})
        spec = spec.cleared_under(x, y, w, h, keep={r}, axis="row")
    ticks = data.draw(moves(spec, down_only=kind == "one_way_row",
                            drops=kind != "one_way_row"), label="ticks")
    note(f"rows={spec.rows!r}")

    last = [x, y]

    def same_side(i, m):
        nx, ny = m.x, m.y
        if kind == "col":
            # A column can be passed over the map's top or under its bottom: judge only ticks
            # that start and end beside it, then from the side the tick started on.
            px, py = last
            last[:] = nx, ny
            if not (-EPS <= py and py + h <= height + EPS and -EPS <= ny
                    and ny + h <= height + EPS):
                return
            # A slope climbed on the way can lift the body over the map's top, where nothing
            # collides: by at most the climb over the tick's run plus a tile (a ledge bump).
            if resolver.supports_slopes and py < abs(ticks[i][0]) * th / tw + th:
                return
            left = px + w <= c * tw + EPS
            ok = nx + w <= c * tw + EPS if left else nx >= (c + 1) * tw - EPS
        else:
            ok = ny + h <= r * th + EPS if before else ny >= (r + 1) * th - EPS
        assert ok, f"tick {i}: crossed the {kind} line to ({nx!r}, {ny!r})"

    run_ticks(resolver, spec.grid(), Body(x, y, w, h), ticks, same_side)


# ------------------------------------------------------------------------------------------------
# No invented collisions: on a map with no tiles, the motion is exact but for the side edges
# ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
@given(data=st.data())
def test_empty_map_moves_exactly(name, data):
    resolver = create(name)
    tw, th = data.draw(st.sampled_from(TILE_SHAPES), label="tile")
    cols, rows = data.draw(st.integers(1, 12), label="cols"), data.draw(st.integers(1, 10))
    grid = TileGrid.from_rows(["." * cols] * rows, tile_w=tw, tile_h=th)
    w, h = data.draw(sizes, label="w"), data.draw(sizes, label="h")
    x = data.draw(fractions, label="x fraction") * max(0.0, grid.width_px - w)
    y = data.draw(st.floats(-2000.0, 2000.0, allow_nan=False), label="y")
    dx = data.draw(st.floats(-4.0 * tw, 4.0 * tw, allow_nan=False), label="dx")
    dy = data.draw(st.floats(-4.0 * th, 4.0 * th, allow_nan=False), label="dy")
    drop = data.draw(st.booleans(), label="drop_through")
    grounded = data.draw(st.booleans(), label="was_on_ground")
    m = move_body(resolver, grid, Body(x, y, w, h), dx, dy, drop_through=drop,
                  was_on_ground=grounded)
    want_x, left, right = x + dx, False, False
    if dx < 0 and x + dx < 0:
        want_x, left = 0.0 if x >= 0 else x, True
    elif dx > 0 and x + w + dx > grid.width_px:
        want_x, right = max(x, grid.width_px - w), True
    assert abs(m.x - want_x) <= 1e-6 and abs(m.y - (y + dy)) <= 1e-6, m
    c = m.contacts
    assert (c.on_ground, c.hit_ceiling, c.hit_left, c.hit_right) == (False, False, left, right), c


# ------------------------------------------------------------------------------------------------
# Standing is standing on something: on_ground never floats over a slope (or anything else)
# ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=examples(500))
@given(data=st.data())
def test_on_ground_means_a_floor_right_under_the_body(name, data):
    spec, body, ticks = draw_scene(data)
    resolver, grid = create(name), spec.grid()

    def stands_on_something(i, m):
        if m.contacts.on_ground:
            standing, _ = support_under(grid, m.x, body.w, m.y + body.h,
                                        resolver.supports_slopes)
            assert standing, f"tick {i}: on_ground at ({m.x!r}, {m.y!r}) over nothing"

    run_ticks(resolver, grid, body, ticks, stands_on_something)


# ------------------------------------------------------------------------------------------------
# Asking for the probed cells changes no answer (the resolvers' shortcuts for the usual moves are
# taken only when no cell list is wanted: they must answer as the general passes do)
# ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=examples(500))
@given(data=st.data())
def test_the_answer_is_the_same_with_or_without_the_probed_cells(name, data):
    spec, body, ticks = draw_scene(data, walks=True)
    resolver, grid = create(name), spec.grid()
    x, y, w, h = body.x, body.y, body.w, body.h
    on_ground = False
    for i, (dx, dy, drop) in enumerate(ticks):
        if data.draw(st.booleans(), label=f"tick {i} pressed down"):
            dy = data.draw(st.floats(0.01, spec.tile_h / 2, allow_nan=False))
        answers = [move_box(resolver, grid, x, y, w, h, dx, dy, one_way_bottom=y + h,
                            drop_through=drop, was_on_ground=on_ground, probe=probe)
                   for probe in (None, [])]
        quick, probed = ((repr(ax), repr(ay), flags) for ax, ay, flags in answers)
        assert quick == probed, f"tick {i} from ({x!r}, {y!r}) by ({dx!r}, {dy!r})"
        x, y, flags = answers[0]
        on_ground = bool(flags & ON_GROUND)


# ------------------------------------------------------------------------------------------------
# Never stuck on a ramp: any gradient up to 45 degrees, any body, both ways
# ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_walks_up_and_down_any_ramp_of_up_to_45_degrees(name, data):
    """A floor, a ramp of slope tiles rising ``rise`` px per tile (up to a tile: 45 degrees on
    square tiles) within one row, a plateau of half tiles at the ramp's height, the ramp down and
    a floor. A body walking across and back is on the ground at full speed every tick, standing
    on the highest point of the floor under it."""
    tw, th = data.draw(st.sampled_from(TILE_SHAPES), label="tile")
    steps = data.draw(st.integers(1, 4), label="ramp tiles")
    rise = data.draw(st.floats(0.25, 1.0), label="rise per tile, in tiles") * th / steps
    w = data.draw(st.floats(2.0, 2.5 * tw), label="w")
    h = data.draw(st.floats(2.0, 40.0), label="h")
    speed = data.draw(st.floats(0.05, 0.25), label="speed, tiles a tick") * tw
    flat = math.ceil(w / tw) + 2
    heights = {}
    up = [chr(ord("a") + k) for k in range(steps)]
    down = [chr(ord("n") + k) for k in range(steps)]
    for k in range(steps):
        heights[up[k]] = (k * rise, (k + 1) * rise)
        heights[down[k]] = ((steps - k) * rise, (steps - k - 1) * rise)
    heights["h"] = (steps * rise, steps * rise)
    row = "." * flat + "".join(up) + "h" * flat + "".join(down) + "." * flat
    spec_rows = ["." * len(row)] * 4 + [row, "#" * len(row)]
    note(f"rows={spec_rows!r} heights={heights!r}")
    grid = TileGrid.from_rows(spec_rows, tile_w=tw, tile_h=th, slope_chars=heights)
    resolver = create(name)
    floor = 5 * th
    x, y, vy = 0.5 * tw, floor - h, 0.0
    on_ground = True
    for direction, goal in ((1, grid.width_px - w - 0.5 * tw), (-1, 0.5 * tw)):
        dx = direction * speed
        while (x + dx <= goal) if direction > 0 else (x + dx >= goal):
            vy0, vy = vy, min(vy + 1500.0 / 3600.0, 8.0)
            m = step(resolver, grid, Body(x, y, w, h), dx, (vy0 + vy) * 0.5,
                     was_on_ground=on_ground)
            what = f"from ({x!r}, {y!r}) by {dx!r}: {m}"
            assert m.contacts.on_ground, f"left the ground; {what}"
            assert abs(m.x - (x + dx)) <= 1e-6, f"lost speed; {what}"
            assert abs(floor_below(grid, m.x, w, m.y + h - 1e-3, True) - (m.y + h)) <= 1e-6, \
                f"not standing on the floor under it; {what}"
            x, y, on_ground, vy = m.x, m.y, True, 0.0
