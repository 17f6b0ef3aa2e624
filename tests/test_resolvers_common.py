"""The shared suite: every registered resolver through the same cases, via ``move_body``.

The resolver list is read from ``game.resolvers.names()`` when this module is collected, so a newly
registered resolver is tested without touching this file. Every single move goes through
``helpers.step``, which also checks the "no overlap" rule (``overlapping_tiles``) after the move.

Sizes and speeds are given for 16 px tiles and scaled with the tile, so each case also runs on 8 px,
32 px and non-square 16x8 tiles. The quick tier (``-m "not slow"``) runs the 16x16 and 16x8 tiles
and a handful of body sizes; the full tier runs every combination.
"""

from __future__ import annotations

import math

import pytest
from game import resolvers
from helpers import (
    RUN_PER_TICK,
    TILES,
    Body,
    Walker,
    box_resolver_names,
    create,
    floor_below,
    grid_from_cells,
    render,
    sized,
    resolver_names,
    slope_resolver_names,
    step,
    supports_slopes,
)

from game.maps.grid import TileGrid

NAMES = resolver_names()
SLOPE_NAMES = slope_resolver_names()
BOX_NAMES = box_resolver_names()

# Body sizes at 16 px tiles (scaled with the tile): smaller than a tile, exactly one, larger, and
# sizes that are not multiples of the tile.
BODIES = [(12, 14), (6, 10), (3, 2), (16, 16), (17, 17), (13, 37), (40, 40), (24, 50), (48, 48),
          (16, 32)]
# The quick tier's bodies: the player's size, a speck, one just over a tile, a tall one and one of
# several tiles; the full tier runs every size.
QUICK_BODIES = {(12, 14), (3, 2), (17, 17), (13, 37), (40, 40)}
# A smaller set for the many-tick cases.
WALK_BODIES = [(12, 14), (3, 2), (16, 16), (40, 40), (24, 50)]
# Speeds in tiles per tick, up to 4; gaps before contact as a fraction of the move.
SPEEDS = [1 / 16, 0.5, 1.0, 1.5, 2.75, 4.0]
GAPS = [0.0, 0.5, 0.999]

CLOSE = 1e-6  # "exactly": positions are sums of a few floats


def scaled(size: tuple[float, float], tile: tuple[int, int]) -> tuple[float, float]:
    return size[0] * tile[0] / 16, size[1] * tile[1] / 16


def near(a: float, b: float, tol: float = CLOSE) -> bool:
    return abs(a - b) <= tol


@pytest.fixture(params=NAMES)
def resolver(request):
    return create(request.param)


@pytest.fixture(params=SLOPE_NAMES)
def slope_resolver(request):
    return create(request.param)


def _context(grid: TileGrid, body: Body, d: tuple[float, float]) -> str:
    return (f"tile {grid.tile_w}x{grid.tile_h}, Body({body.x!r}, {body.y!r}, {body.w!r}, "
            f"{body.h!r}), move {d!r}")


# ------------------------------------------------------------------------------------------------
# 1 + 2. Fast moves into thin (1-tile) floors, ceilings and walls; bodies of many sizes
# ------------------------------------------------------------------------------------------------

def _span_x(tile, w, aligned):
    """A body x two tiles in: on a tile border, or off it by an odd amount."""
    tw = tile[0]
    return 2 * tw if aligned else 2 * tw + 0.37 * tw + 0.013


@pytest.mark.parametrize("aligned", [True, False], ids=["aligned", "offset"])
@pytest.mark.parametrize("size", sized(BODIES, QUICK_BODIES))
@pytest.mark.parametrize("tile", TILES)
def test_fast_fall_lands_on_thin_floor(resolver, tile, size, aligned):
    tw, th = tile
    w, h = scaled(size, tile)
    floor_row = math.ceil((h + 4 * th) / th) + 1
    cols = math.ceil(w / tw) + 5
    grid = grid_from_cells(cols, floor_row + 6, {(c, floor_row): "#" for c in range(cols)},
                           tw, th)
    top = floor_row * th
    x0 = _span_x(tile, w, aligned)
    for speed in SPEEDS:
        dy = speed * th
        for gap in GAPS:
            body = Body(x0, top - h - gap * dy, w, h)
            m = step(resolver, grid, body, 0.0, dy)
            what = _context(grid, body, (0.0, dy))
            assert near(m.y, top - h), f"did not land on the floor top {top}: y={m.y}; {what}"
            assert m.contacts.on_ground, f"no on_ground; {what}"
            assert near(m.x, x0) and not (m.contacts.hit_left or m.contacts.hit_right), what
            assert not m.contacts.hit_ceiling, what


@pytest.mark.parametrize("aligned", [True, False], ids=["aligned", "offset"])
@pytest.mark.parametrize("size", sized(BODIES, QUICK_BODIES))
@pytest.mark.parametrize("tile", TILES)
def test_fast_rise_stops_under_thin_ceiling(resolver, tile, size, aligned):
    tw, th = tile
    w, h = scaled(size, tile)
    ceil_row = 1
    rows = ceil_row + math.ceil((h + 4 * th) / th) + 3
    cols = math.ceil(w / tw) + 5
    grid = grid_from_cells(cols, rows, {(c, ceil_row): "#" for c in range(cols)}, tw, th)
    under = (ceil_row + 1) * th
    x0 = _span_x(tile, w, aligned)
    for speed in SPEEDS:
        dy = -speed * th
        for gap in GAPS:
            body = Body(x0, under + gap * -dy, w, h)
            m = step(resolver, grid, body, 0.0, dy)
            what = _context(grid, body, (0.0, dy))
            assert near(m.y, under), f"not placed under the ceiling {under}: y={m.y}; {what}"
            assert m.contacts.hit_ceiling, f"no hit_ceiling; {what}"
            assert near(m.x, x0) and not m.contacts.on_ground, what


@pytest.mark.parametrize("direction", [1, -1], ids=["right", "left"])
@pytest.mark.parametrize("size", sized(BODIES, QUICK_BODIES))
@pytest.mark.parametrize("tile", TILES)
def test_fast_side_move_stops_at_thin_wall(resolver, tile, size, direction):
    tw, th = tile
    w, h = scaled(size, tile)
    reach = math.ceil((w + 4 * tw) / tw) + 2
    wall_col = reach
    cols = 2 * reach + 1
    rows = math.ceil(h / th) + 4
    grid = grid_from_cells(cols, rows, {(wall_col, r): "#" for r in range(rows)}, tw, th)
    flush = wall_col * tw - w if direction > 0 else (wall_col + 1) * tw
    for y0 in (th, th + 0.41 * th + 0.007):  # on a row border, and off it
        for speed in SPEEDS:
            dx = direction * speed * tw
            for gap in GAPS:
                body = Body(flush - direction * gap * speed * tw, y0, w, h)
                m = step(resolver, grid, body, dx, 0.0)
                what = _context(grid, body, (dx, 0.0))
                assert near(m.x, flush), f"not flush with the wall at x={flush}: x={m.x}; {what}"
                hit = m.contacts.hit_right if direction > 0 else m.contacts.hit_left
                other = m.contacts.hit_left if direction > 0 else m.contacts.hit_right
                assert hit and not other, f"wrong side contact {m.contacts}; {what}"
                assert near(m.y, y0), f"moved vertically; {what}"
                assert not m.contacts.on_ground and not m.contacts.hit_ceiling, what


@pytest.mark.parametrize("direction", [1, -1], ids=["right", "left"])
@pytest.mark.parametrize("nudge", [1e-6, 0.5e-6, 2e-6, 1e-9])
def test_a_tiny_move_into_a_wall_being_touched_stays_out(resolver, nudge, direction):
    """A body whose edge sits on a wall (up to float rounding) and moves by about the touching
    tolerance must not end inside it. Found by hypothesis: sweep let a cut of exactly EPS enter
    a column it then never judged (an 8x2 body against a tile 8 px wide)."""
    grid = TileGrid.from_rows(["......", "#....#", "......"], 8)
    w, h, y = 8.126423476286563, 2.0, 13.5
    x = 40 - w if direction > 0 else 8.0
    m = step(resolver, grid, Body(x, y, w, h), direction * nudge, 0.0)  # checks: no overlap
    assert abs(m.x - x) <= 2e-6 and m.y == y  # within the touching tolerance


# A body larger than a tile, moving into one tile that sits strictly inside its leading edge.
BIG_BODIES = [(40, 40), (24, 50), (48, 48), (50, 24), (80, 72)]


@pytest.mark.parametrize("direction", ["down", "up", "right", "left"])
@pytest.mark.parametrize("size", sized(BIG_BODIES, {(40, 40), (50, 24)}))
@pytest.mark.parametrize("tile", TILES)
def test_big_body_stopped_by_single_tile_mid_edge(resolver, tile, size, direction):
    tw, th = tile
    w, h = scaled(size, tile)
    vertical = direction in ("down", "up")
    if (vertical and w <= tw) or (not vertical and h <= th):
        pytest.skip("the body is not larger than a tile across its leading edge")
    span_c = math.ceil(w / tw) + 4 * 1 + 6
    span_r = math.ceil(h / th) + 4 * 1 + 6
    cols, rows = 2 * span_c + 1, 2 * span_r + 1
    c, r = span_c, span_r
    grid = grid_from_cells(cols, rows, {(c, r): "#"}, tw, th)
    for speed in SPEEDS:
        for gap in GAPS:
            if vertical:
                x0 = c * tw - (w - tw) / 2
                d = speed * th
                if direction == "down":
                    want = r * th - h
                    body, move = Body(x0, want - gap * d, w, h), (0.0, d)
                else:
                    want = (r + 1) * th
                    body, move = Body(x0, want + gap * d, w, h), (0.0, -d)
            else:
                y0 = r * th - (h - th) / 2
                d = speed * tw
                if direction == "right":
                    want = c * tw - w
                    body, move = Body(want - gap * d, y0, w, h), (d, 0.0)
                else:
                    want = (c + 1) * tw
                    body, move = Body(want + gap * d, y0, w, h), (-d, 0.0)
            m = step(resolver, grid, body, *move)
            what = _context(grid, body, move)
            got, other = (m.y, m.x - body.x) if vertical else (m.x, m.y - body.y)
            assert near(got, want), f"{direction}: not stopped by the tile: {got} != {want}; {what}"
            assert near(other, 0.0), f"{direction}: moved across the motion; {what}"
            flag = {"down": m.contacts.on_ground, "up": m.contacts.hit_ceiling,
                    "right": m.contacts.hit_right, "left": m.contacts.hit_left}[direction]
            assert flag, f"{direction}: contact flag missing {m.contacts}; {what}"


# ------------------------------------------------------------------------------------------------
# 3. Seams
# ------------------------------------------------------------------------------------------------

FLOORS = ["thin", "thick", "one_way"]


def _floor_map(tile, cols, floor_row, kind, rows=None):
    rows = rows if rows is not None else floor_row + 4
    ch = "=" if kind == "one_way" else "#"
    depth = 3 if kind == "thick" else 1
    cells = {(c, floor_row + k): ch for c in range(cols) for k in range(depth)}
    return grid_from_cells(cols, rows, cells, *tile)


@pytest.mark.parametrize("speed", [RUN_PER_TICK, 0.25 * 16, 16.0],
                         ids=["run", "quarter-tile", "1-tile"])
@pytest.mark.parametrize("direction", [1, -1], ids=["right", "left"])
@pytest.mark.parametrize("floor", FLOORS)
@pytest.mark.parametrize("size", sized(WALK_BODIES, QUICK_BODIES))
@pytest.mark.parametrize("tile", TILES)
def test_running_along_tiled_floor_keeps_full_speed(resolver, tile, size, floor, direction, speed):
    tw, th = tile
    w, h = scaled(size, tile)
    dx = direction * speed * tw / 16
    cols = 24
    floor_row = math.ceil(h / th) + 2
    grid = _floor_map(tile, cols, floor_row, floor)
    top = floor_row * th
    x0 = tw if direction > 0 else (cols - 1) * tw - w  # on a tile border: seams hit corners
    walker = Walker(resolver, grid, x0, top - h, w, h, vx=dx, on_ground=True)
    while tw <= walker.x + dx and walker.x + w + dx <= (cols - 1) * tw:
        x_before = walker.x
        m = walker.tick()
        what = f"tick {walker.ticks} from x={x_before!r}: {m}"
        assert near(m.x, x_before + dx), f"lost speed at a seam; {what}"
        assert not (m.contacts.hit_left or m.contacts.hit_right), f"snagged; {what}"
        assert m.contacts.on_ground, f"lost the ground; {what}"
        assert near(m.y, top - h, 1e-9), f"y moved; {what}"
        assert m.contacts.on_one_way == (floor == "one_way"), what
    assert walker.ticks >= 5


@pytest.mark.parametrize("fall", ["gravity", "seam-steps"])
@pytest.mark.parametrize("direction", [1, -1], ids=["wall-right", "wall-left"])
@pytest.mark.parametrize("size", sized(WALK_BODIES, QUICK_BODIES))
@pytest.mark.parametrize("tile", TILES)
def test_sliding_down_tiled_wall_keeps_falling(resolver, tile, size, direction, fall):
    tw, th = tile
    w, h = scaled(size, tile)
    cols, rows = math.ceil(w / tw) + 8, math.ceil(h / th) + 20
    floor_row = rows - 1
    wall = (cols - 3, cols - 2) if direction > 0 else (1, 2)
    cells = {(c, floor_row): "#" for c in range(cols)}
    cells.update({(c, r): "#" for c in wall for r in range(rows)})
    grid = grid_from_cells(cols, rows, cells, tw, th)
    x0 = wall[0] * tw - w if direction > 0 else (wall[1] + 1) * tw
    top = floor_row * th
    if fall == "gravity":
        walker = Walker(resolver, grid, x0, 0.0, w, h, vx=direction * RUN_PER_TICK)
    else:  # a steady quarter-tile per tick: the body's edges land exactly on the wall's seams
        walker = Walker(resolver, grid, x0, 0.0, w, h, vx=direction * RUN_PER_TICK,
                        vy=th / 4, gravity=0.0, max_fall=th / 4)
    for _ in range(1000):
        y_before = walker.y
        m = walker.tick()
        what = f"tick {walker.ticks} from y={y_before!r}: {m}"
        assert near(m.x, x0), f"pushed off the wall or into it; {what}"
        assert (m.contacts.hit_right if direction > 0 else m.contacts.hit_left), what
        if m.contacts.on_ground:
            break
        assert m.y > y_before, f"stopped falling along the wall; {what}"
    assert walker.on_ground and near(walker.y, top - h), f"never reached the floor: {walker}"


@pytest.mark.parametrize("vy", ["gravity", "1-tile", "4-tiles"])
@pytest.mark.parametrize("height", [1.0, 0.5, 1.5, 3.0])
@pytest.mark.parametrize("tile", TILES)
def test_one_tile_wide_body_drops_through_one_tile_gap(resolver, tile, height, vy):
    tw, th = tile
    w, h = tw, height * th
    cols, gap_col, floor_row = 9, 4, math.ceil(h / th) + 2
    rows = floor_row + math.ceil(h / th) + 10
    cells = {(c, floor_row): "#" for c in range(cols) if c != gap_col}
    cells.update({(c, rows - 1): "#" for c in range(cols)})
    grid = grid_from_cells(cols, rows, cells, tw, th)
    x0 = gap_col * tw
    if vy == "gravity":
        walker = Walker(resolver, grid, x0, floor_row * th - h - 0.3 * th, w, h)
    else:
        v = (1.0 if vy == "1-tile" else 4.0) * th
        walker = Walker(resolver, grid, x0, 0.0, w, h, vy=v, gravity=0.0, max_fall=v)
    passed = False
    for _ in range(500):
        m = walker.tick()
        what = f"tick {walker.ticks}: {m}"
        assert m.x == x0 and not (m.contacts.hit_left or m.contacts.hit_right), what
        passed = passed or m.y >= (floor_row + 1) * th
        if m.contacts.on_ground:
            break
    assert passed, f"stuck at the gap: y={walker.y}, {walker.contacts}"
    assert near(walker.y, (rows - 1) * th - h), f"did not land on the bottom floor: {walker.y}"


@pytest.mark.parametrize("speed", [RUN_PER_TICK, 16.0, 64.0], ids=["run", "1-tile", "4-tiles"])
@pytest.mark.parametrize("direction", [1, -1], ids=["right", "left"])
@pytest.mark.parametrize("width", [1.0, 0.75, 1.5, 2.5])
@pytest.mark.parametrize("tile", TILES)
def test_one_tile_high_body_walks_through_one_tile_tunnel(resolver, tile, width, direction, speed):
    tw, th = tile
    w, h = width * tw, th
    dx = direction * speed * tw / 16
    cols, floor_row = 40, 4
    tunnel = range(12, 28)
    cells = {(c, floor_row): "#" for c in range(cols)}
    cells.update({(c, floor_row - 2): "#" for c in tunnel})
    cells.update({(c, r): "#" for c in tunnel for r in range(floor_row - 2)})
    grid = grid_from_cells(cols, floor_row + 2, cells, tw, th)
    y0 = (floor_row - 1) * th
    x0 = 2 * tw if direction > 0 else (cols - 2) * tw - w
    walker = Walker(resolver, grid, x0, y0, w, h, vx=dx, on_ground=True)
    inside = False
    while tw <= walker.x + dx and walker.x + w + dx <= (cols - 1) * tw:
        x_before = walker.x
        m = walker.tick()
        what = f"tick {walker.ticks} from x={x_before!r}: {m}"
        assert near(m.x, x_before + dx), f"stopped at or in the tunnel; {what}"
        assert not (m.contacts.hit_left or m.contacts.hit_right or m.contacts.hit_ceiling), what
        assert m.contacts.on_ground and near(m.y, y0, 1e-9), what
        inside = inside or (tunnel.start * tw <= m.x and m.x + w <= tunnel.stop * tw)
    assert inside, "never was inside the tunnel"
    beyond = walker.x >= tunnel.stop * tw if direction > 0 else walker.x + w <= tunnel.start * tw
    assert beyond, f"did not come out of the tunnel: x={walker.x}"


# ------------------------------------------------------------------------------------------------
# 4. Rest is rest
# ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("floor", FLOORS)
@pytest.mark.parametrize("size", sized(WALK_BODIES + [(17, 17), (13, 37)], QUICK_BODIES))
@pytest.mark.parametrize("tile", TILES)
def test_resting_on_floor_stays_grounded_and_still(resolver, tile, size, floor):
    tw, th = tile
    w, h = scaled(size, tile)
    floor_row = math.ceil(h / th) + 2
    grid = _floor_map(tile, 10, floor_row, floor)
    y0 = floor_row * th - h
    # on a tile border, off it, and centred on a seam; 300 ticks, then 100 for the other two
    for x0, ticks in ((2 * tw, 300), (2 * tw + 0.37 * tw + 0.013, 100), (3 * tw - w / 2, 100)):
        walker = Walker(resolver, grid, x0, y0, w, h)
        for _ in range(ticks):
            m = walker.tick()
            what = f"x0={x0!r} tick {walker.ticks}: {m}"
            assert m.contacts.on_ground, f"on_ground flickered off; {what}"
            assert near(m.y, y0, 1e-9) and m.x == x0, f"the resting body moved; {what}"
            assert not (m.contacts.hit_left or m.contacts.hit_right or m.contacts.hit_ceiling)


# ------------------------------------------------------------------------------------------------
# 5. One-way tiles
# ------------------------------------------------------------------------------------------------

def _one_way_map(tile, h, platform_row=None):
    """A one-way platform (cols 2..9) above a solid floor, with room above."""
    tw, th = tile
    platform_row = platform_row if platform_row is not None else math.ceil(h / th) + 6
    floor_row = platform_row + math.ceil(h / th) + 3
    cells = {(c, platform_row): "=" for c in range(2, 10)}
    cells.update({(c, floor_row): "#" for c in range(12)})
    return grid_from_cells(12, floor_row + 2, cells, tw, th), platform_row, floor_row


@pytest.mark.parametrize("size", sized(BODIES[:8], QUICK_BODIES))
@pytest.mark.parametrize("tile", TILES)
def test_one_way_stops_a_fall_from_above(resolver, tile, size):
    tw, th = tile
    w, h = scaled(size, tile)
    grid, prow, _ = _one_way_map(tile, h + 4 * th)
    top = prow * th
    for speed in SPEEDS:
        dy = speed * th
        for gap in GAPS:
            body = Body(3 * tw + 0.3, top - h - gap * dy, w, h)
            m = step(resolver, grid, body, 0.0, dy)
            what = _context(grid, body, (0.0, dy))
            assert near(m.y, top - h), f"fell through a one-way tile: y={m.y}; {what}"
            assert m.contacts.on_ground and m.contacts.on_one_way, f"{m.contacts}; {what}"


@pytest.mark.parametrize("size", sized(WALK_BODIES, QUICK_BODIES))
@pytest.mark.parametrize("tile", TILES)
def test_one_way_passes_a_body_moving_up(resolver, tile, size):
    tw, th = tile
    w, h = scaled(size, tile)
    grid, prow, floor_row = _one_way_map(tile, h + 4 * th)
    for speed in SPEEDS:
        dy = -speed * th
        for start in (0.0, 0.5 * th, 0.999 * speed * th):  # gap from the tile's bottom
            body = Body(3 * tw + 0.3, (prow + 1) * th + start, w, h)
            m = step(resolver, grid, body, 0.0, dy)
            what = _context(grid, body, (0.0, dy))
            assert near(m.y, body.y + dy), f"a one-way tile stopped a rise; y={m.y}; {what}"
            assert not m.contacts.hit_ceiling and not m.contacts.on_ground, what


@pytest.mark.parametrize("size", sized(WALK_BODIES, QUICK_BODIES))
@pytest.mark.parametrize("tile", TILES)
def test_jump_up_through_one_way_then_land_on_it(resolver, tile, size):
    tw, th = tile
    w, h = scaled(size, tile)
    grid, prow, floor_row = _one_way_map(tile, h)
    g = 0.4 * th / 16
    rise = floor_row * th - prow * th + 0.5 * th  # the bottom must clear the platform's top
    walker = Walker(resolver, grid, 4 * tw + 0.1, floor_row * th - h, w, h,
                    vy=-math.sqrt(2 * g * rise), gravity=g, max_fall=8 * th / 16)
    above = False
    for _ in range(400):
        m = walker.tick()
        assert not m.contacts.hit_ceiling, f"tick {walker.ticks}: one-way hit from below {m}"
        above = above or walker.bottom <= prow * th
        if m.contacts.on_ground and walker.ticks > 1:
            break
    assert above, "the jump never cleared the platform"
    assert near(walker.bottom, prow * th) and walker.contacts.on_one_way, \
        f"did not land on the one-way platform: bottom={walker.bottom} {walker.contacts}"


@pytest.mark.parametrize("speed", [RUN_PER_TICK, 16.0, 64.0], ids=["run", "1-tile", "4-tiles"])
@pytest.mark.parametrize("direction", [1, -1], ids=["right", "left"])
@pytest.mark.parametrize("size", sized(WALK_BODIES, QUICK_BODIES))
@pytest.mark.parametrize("tile", TILES)
def test_one_way_tiles_at_body_height_do_not_block_sideways(resolver, tile, size, direction,
                                                             speed):
    tw, th = tile
    w, h = scaled(size, tile)
    dx = direction * speed * tw / 16
    floor_row = math.ceil(h / th) + 2
    cols = 30
    cells = {(c, floor_row): "#" for c in range(cols)}
    # a block of one-way tiles standing on the floor, as tall as the body, in the way
    cells.update({(c, r): "=" for c in range(12, 18)
                  for r in range(floor_row - math.ceil(h / th), floor_row)})
    grid = grid_from_cells(cols, floor_row + 2, cells, tw, th)
    y0 = floor_row * th - h
    x0 = tw if direction > 0 else (cols - 1) * tw - w
    walker = Walker(resolver, grid, x0, y0, w, h, vx=dx, on_ground=True)
    while tw <= walker.x + dx and walker.x + w + dx <= (cols - 1) * tw:
        x_before = walker.x
        m = walker.tick()
        what = f"tick {walker.ticks} from x={x_before!r}: {m}"
        assert near(m.x, x_before + dx), f"a one-way tile blocked sideways; {what}"
        assert not (m.contacts.hit_left or m.contacts.hit_right), what
        assert m.contacts.on_ground and near(m.y, y0, 1e-9), what
    assert walker.ticks >= 3


@pytest.mark.parametrize("vy", ["gravity", "4-tiles"])
@pytest.mark.parametrize("size", sized(WALK_BODIES, QUICK_BODIES))
@pytest.mark.parametrize("tile", TILES)
def test_drop_through_falls_through_one_way(resolver, tile, size, vy):
    tw, th = tile
    w, h = scaled(size, tile)
    grid, prow, floor_row = _one_way_map(tile, h)
    if vy == "gravity":
        walker = Walker(resolver, grid, 3 * tw, prow * th - h, w, h, on_ground=True)
    else:
        v = 4 * th
        walker = Walker(resolver, grid, 3 * tw, prow * th - h, w, h, vy=v, gravity=0.0,
                        max_fall=v, on_ground=True)
    for _ in range(300):
        y_before = walker.y
        m = walker.tick(drop_through=True)
        if m.contacts.on_ground:
            break
        assert m.y > y_before, f"tick {walker.ticks}: stuck on the platform with drop_through {m}"
    assert near(walker.bottom, floor_row * th), f"did not fall to the floor: {walker}"
    assert not walker.contacts.on_one_way


@pytest.mark.parametrize("inside", [0.5, 3.0, 8.0, 15.5])
@pytest.mark.parametrize("size", sized(WALK_BODIES, QUICK_BODIES))
@pytest.mark.parametrize("tile", TILES)
def test_body_already_inside_one_way_is_not_pushed_up(resolver, tile, size, inside):
    tw, th = tile
    w, h = scaled(size, tile)
    grid, prow, _ = _one_way_map(tile, h)
    depth = inside * th / 16  # how far the body's bottom is below the tile's top
    y0 = prow * th - h + depth
    for dx, dy in ((0.0, 0.0), (0.0, 0.5), (0.0, 1.0), (0.0, 0.2 * th), (RUN_PER_TICK, 0.3),
                   (-RUN_PER_TICK, 0.3), (0.0, -1.0)):
        body = Body(3 * tw + 0.3, y0, w, h)
        m = step(resolver, grid, body, dx, dy)
        what = _context(grid, body, (dx, dy))
        assert near(m.y, y0 + dy), f"pushed by a one-way tile it started inside: y={m.y}; {what}"
        assert near(m.x, body.x + dx), what
        assert not m.contacts.on_ground and not m.contacts.hit_ceiling, f"{m.contacts}; {what}"


@pytest.mark.parametrize("size", [(2, 2), (12, 14), (24, 50)], ids=["2x2", "12x14", "24x50"])
@pytest.mark.parametrize("tile", TILES)
def test_diagonal_fall_past_one_way_edge_never_ends_inside(resolver, tile, size):
    """A body whose bottom is above a one-way tile at the start of the tick, moving diagonally so
    that it crosses the top's level beside the tile and ends over it, is judged by where its
    bottom was at the start of the tick (also across the mover's sub-steps): it may not end inside.
    """
    tw, th = tile
    w, h = scaled(size, tile)
    c, r = 6, math.ceil(h / th) + 5
    grid = grid_from_cells(14, r + 6, {(c, r): "="}, tw, th)
    top = r * th
    for direction in (1, -1):
        for k in range(1, 9):
            dy = (0.5 + k / 4) * th  # the bottom ends 0.5..2.5 tiles into or past the tile
            dx = direction * (k / 2) * tw
            end_x = c * tw + 0.3 * tw if direction < 0 else (c + 0.7) * tw - w
            body = Body(end_x - dx, top - h - 0.5 * th, w, h)
            step(resolver, grid, body, dx, dy)  # asserts no overlap, one-way judged from before


# ------------------------------------------------------------------------------------------------
# 6. Map edges
# ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("size", sized(BODIES, QUICK_BODIES))
@pytest.mark.parametrize("tile", TILES)
def test_side_edges_are_walls(resolver, tile, size):
    tw, th = tile
    w, h = scaled(size, tile)
    cols, floor_row = math.ceil(w / tw) + 12, math.ceil(h / th) + 2
    grid = _floor_map(tile, cols, floor_row, "thin")
    width = grid.width_px
    for y0, air in ((floor_row * th - h, False), (0.25 * th, True)):
        for speed in SPEEDS:
            d = speed * tw
            for start in (0.0, 0.4 * d, 0.999 * d):
                for body, dx, want in ((Body(start, y0, w, h), -d, 0.0),
                                       (Body(width - w - start, y0, w, h), d, width - w)):
                    m = step(resolver, grid, body, dx, 0.0 if air else 0.2)
                    what = _context(grid, body, (dx, 0))
                    assert near(m.x, want), f"went past the map edge: x={m.x}; {what}"
                    assert m.contacts.hit_left == (dx < 0), f"{m.contacts}; {what}"
                    assert m.contacts.hit_right == (dx > 0), f"{m.contacts}; {what}"
                    assert m.contacts.on_ground == (not air), what


def _free_motion(resolver, grid, body, dx, dy):
    m = step(resolver, grid, body, dx, dy)
    what = _context(grid, body, (dx, dy))
    assert near(m.x, body.x + dx) and near(m.y, body.y + dy), f"moved wrongly: {m}; {what}"
    c = m.contacts
    assert not (c.on_ground or c.hit_ceiling or c.hit_left or c.hit_right), f"{c}; {what}"


@pytest.mark.parametrize("size", sized(BODIES, QUICK_BODIES))
@pytest.mark.parametrize("tile", TILES)
def test_above_the_top_never_collides_without_tiles(resolver, tile, size):
    tw, th = tile
    w, h = scaled(size, tile)
    cols = math.ceil(w / tw) + 12
    # solid along the top row and the bottom row; nothing else
    cells = {(c, 0): "#" for c in range(cols)}
    cells.update({(c, 9): "#" for c in range(cols)})
    grid = grid_from_cells(cols, 10, cells, tw, th)
    x0 = 5 * tw + 0.3
    for y0 in (-1000.0, -500.25, -h - 4 * th, -h - 1.0, -h - 0.5, -h):
        for speed in SPEEDS:
            d = speed * tw
            for dx in (d, -d):
                # sideways (and up) above a solid top row: nothing to hit
                _free_motion(resolver, grid, Body(x0, y0, w, h), dx, 0.0)
                _free_motion(resolver, grid, Body(x0, y0, w, h), dx, -speed * th)
            dy = min(speed * th, -0.9 * (y0 + h))  # down, but not onto the top row
            if dy > 0:
                _free_motion(resolver, grid, Body(x0, y0, w, h), 0.0, dy)
                _free_motion(resolver, grid, Body(x0, y0, w, h), 0.5 * d, dy)


@pytest.mark.parametrize("size", sized(BODIES, QUICK_BODIES))
@pytest.mark.parametrize("tile", TILES)
def test_straddling_the_top_edge_in_empty_columns(resolver, tile, size):
    tw, th = tile
    w, h = scaled(size, tile)
    cols = 2 * math.ceil(w / tw) + 14
    # solid only in the far-right columns, out of reach
    cells = {(c, r): "#" for c in range(cols - 2, cols) for r in range(8)}
    grid = grid_from_cells(cols, 8, cells, tw, th)
    x0 = math.ceil(w / tw) * tw + 4 * tw + 0.3
    for y0 in (-h / 2, -1.0, -0.5, -h + 0.25, -1000.0):
        for speed in SPEEDS:
            d = speed * tw
            for dx, dy in ((d, 0.0), (-d, 0.0), (0.0, speed * th), (0.0, -speed * th),
                           (d, speed * th), (-d, -speed * th)):
                _free_motion(resolver, grid, Body(x0, y0, w, h), dx, dy)


@pytest.mark.parametrize("size", sized(BODIES, QUICK_BODIES))
@pytest.mark.parametrize("tile", TILES)
def test_falling_out_of_the_bottom(resolver, tile, size):
    tw, th = tile
    w, h = scaled(size, tile)
    cols = math.ceil(w / tw) + 10
    hole = range(4, 4 + math.ceil(w / tw) + 1)
    rows = 6
    # a floor on the bottom row with a hole wide enough for the body
    grid = grid_from_cells(cols, rows, {(c, rows - 1): "#" for c in range(cols)
                                        if c not in hole}, tw, th)
    x0 = hole.start * tw + 0.2 * tw
    walker = Walker(resolver, grid, x0, 0.0, w, h, vy=4 * th, gravity=0.0, max_fall=4 * th)
    for _ in range(60):
        m = walker.tick()
        c = m.contacts
        assert not (c.on_ground or c.hit_ceiling or c.hit_left or c.hit_right), f"{m}"
        assert m.x == x0
    assert walker.y > grid.height_px + 50 * th
    # below the map, sideways under the bottom row
    for y0 in (grid.height_px + 0.0, grid.height_px + 3.5, grid.height_px + 1000.0):
        for speed in SPEEDS:
            d = speed * tw
            _free_motion(resolver, grid, Body(x0, y0, w, h), d, 0.0)
            _free_motion(resolver, grid, Body(x0, y0, w, h), -d, speed * th)


# ------------------------------------------------------------------------------------------------
# 7. Slopes
# ------------------------------------------------------------------------------------------------

# A hill: a flat floor, four '/' tiles up, a flat top, four '\' tiles down, a flat floor.
HILL = [
    "..........................",
    "..........................",
    "..........................",
    "..........................",
    "..........................",
    "..........................",
    "..........................",
    "........../####\\..........",
    "........./######\\.........",
    "......../########\\........",
    "......./##########\\.......",
    "##########################",
    "##########################",
]
HILL_FLOOR_ROW, HILL_TOP_ROW = 11, 7


def _hill(tile):
    return TileGrid.from_rows(HILL, tile_w=tile[0], tile_h=tile[1])


@pytest.mark.parametrize("size", sized(BODIES[:8], QUICK_BODIES))
@pytest.mark.parametrize("tile", TILES)
def test_landing_on_the_hill_from_above(resolver, tile, size):
    """Box resolvers land on slope tiles' tops; slope resolvers on the surface's highest point."""
    tw, th = tile
    w, h = scaled(size, tile)
    grid = _hill(tile)
    slopes = supports_slopes(resolver)
    x = 5 * tw + 0.37
    while x + w < 21 * tw:
        ground = floor_below(grid, x, w, 0.0, slopes)
        for speed in (0.5, 1.5, 4.0):
            dy = speed * th
            for gap in (0.0, 0.5):
                body = Body(x, ground - h - gap * dy, w, h)
                m = step(resolver, grid, body, 0.0, dy)
                what = _context(grid, body, (0.0, dy))
                assert near(m.y, ground - h), f"landed at {m.y + h}, not on {ground}; {what}"
                assert m.contacts.on_ground and near(m.x, x), f"{m}; {what}"
        x += 0.37 * tw


def test_every_resolver_follows_slopes():
    """No resolver treats a slope as a box any more (each follows its surface: the walks
    below); the box-only test that stood here has no resolver left to run on."""
    assert BOX_NAMES == []


@pytest.mark.parametrize("speed", [RUN_PER_TICK, 4.0], ids=["run", "4px"])
@pytest.mark.parametrize("size", sized(WALK_BODIES + [(8, 8), (6, 10)], QUICK_BODIES | {(8, 8)}))
@pytest.mark.parametrize("tile", TILES)
def test_walk_over_the_hill_and_back(slope_resolver, tile, size, speed):
    tw, th = tile
    w, h = scaled(size, tile)
    grid = _hill(tile)
    low, high = HILL_FLOOR_ROW * th - h, HILL_TOP_ROW * th - h
    walker = Walker(slope_resolver, grid, tw, low, w, h, on_ground=True)
    for direction, goal in ((1, grid.width_px - tw - w), (-1, tw)):
        dx = direction * speed * tw / 16
        walker.vx = dx
        top_y = math.inf
        while (walker.x + dx <= goal) if direction > 0 else (walker.x + dx >= goal):
            x_before = walker.x
            m = walker.tick()
            what = f"tick {walker.ticks} from x={x_before!r}: {m}"
            assert m.contacts.on_ground, f"left the ground; {what}"
            assert not (m.contacts.hit_left or m.contacts.hit_right), f"stopped; {what}"
            assert near(m.x, x_before + dx), f"lost speed; {what}"
            assert near(floor_below(grid, m.x, w, m.y + h, True), m.y + h), \
                f"not standing on the highest point under the body; {what}"
            top_y = min(top_y, m.y)
        assert near(top_y, high), f"never got to the top: best y {top_y}, top {high}"
        assert near(walker.y, low), f"did not get back down: y={walker.y}"


@pytest.mark.parametrize("ch", ["/", "\\"])
@pytest.mark.parametrize("tile", TILES)
def test_slope_from_below_is_a_ceiling_at_its_bottom(slope_resolver, tile, ch):
    tw, th = tile
    grid = TileGrid.from_rows(["......", f"..{ch}...", "......", "......", "......", "......"],
                              tile_w=tw, tile_h=th)
    w, h = 0.75 * tw, 0.75 * th
    for x0 in (2 * tw, 2 * tw + 0.2 * tw, 1.6 * tw):
        for speed in (0.5, 1.0, 3.0):
            body = Body(x0, 2 * th + 0.25 * speed * th, w, h)
            m = step(slope_resolver, grid, body, 0.0, -speed * th)
            assert near(m.y, 2 * th) and m.contacts.hit_ceiling, f"{m}; {body}"


@pytest.mark.parametrize("tile", TILES)
def test_full_height_side_of_slope_is_a_wall(slope_resolver, tile):
    tw, th = tile
    grid = TileGrid.from_rows(["..........", "..........", "....\\.....", "##########"],
                              tile_w=tw, tile_h=th)
    w, h = 0.75 * tw, 0.875 * th
    walker = Walker(slope_resolver, grid, tw, 3 * th - h, w, h, vx=RUN_PER_TICK, on_ground=True)
    for _ in range(int(4 * tw / RUN_PER_TICK) + 10):
        walker.tick()
        assert walker.on_ground and near(walker.y, 3 * th - h), f"{walker}"
    assert near(walker.x, 4 * tw - w) and walker.contacts.hit_right, f"{walker}"


# ------------------------------------------------------------------------------------------------
# 7b. Slopes of several angles, half tiles, a slope into a wall and under a low ceiling
# ------------------------------------------------------------------------------------------------

# Gradients in tile units (rise per tile / tile height): 45 degrees on square tiles, and shallower.
GRADIENTS = [1.0, 0.5, 0.25]
GRADIENT_IDS = ["45deg", "half", "quarter"]


def _ramp_hill(tile, gradient, flat=4, ceiling=None, wall=False):
    """A hill of slope tiles rising ``gradient`` tiles per tile, one tile high, with a flat top
    and the same slope down the other side; (grid, floor top y, hill top y). With ``ceiling``
    (a y on a row border) a ceiling with its underside there spans the slope up and the top;
    with ``wall`` a wall as high as the map stands where the slope up ends."""
    tw, th = tile
    n = round(1 / gradient)  # tiles of slope for one tile of height
    rise = th * gradient
    cols = flat + n + flat + n + flat
    rows = 8
    floor_row = rows - 2
    chars, heights = {}, {}

    def slope(lh, rh):
        key = (lh, rh)
        if key not in chars:
            chars[key] = "abcdefghijkmnopq"[len(chars)]
            heights[chars[key]] = key
        return chars[key]

    cells = {(c, r): "#" for c in range(cols) for r in (floor_row, floor_row + 1)}
    for k in range(n):
        cells[(flat + k, floor_row - 1)] = slope(k * rise, (k + 1) * rise)
        cells[(flat + n + flat + k, floor_row - 1)] = slope(th - k * rise, th - (k + 1) * rise)
    for c in range(flat + n, flat + n + flat):
        cells[(c, floor_row - 1)] = "#"
    if ceiling is not None:
        for c in range(flat, flat + n + flat):
            cells[(c, round(ceiling / th) - 1)] = "#"
    if wall:
        for r in range(floor_row):
            cells[(flat + n, r)] = "#"
    lines = [["."] * cols for _ in range(rows)]
    for (c, r), ch in cells.items():
        lines[r][c] = ch
    grid = TileGrid.from_rows(["".join(line) for line in lines], tile_w=tw, tile_h=th,
                              slope_chars=heights)
    return grid, floor_row * th, (floor_row - 1) * th


def _walk(walker, grid, dx, goal):
    """Walk with ``dx`` a tick until ``goal``; every tick must be on the ground, at full speed,
    standing on the highest point of the floor under the body (not floating, not sunk)."""
    tops = []
    while (walker.x + dx <= goal) if dx > 0 else (walker.x + dx >= goal):
        x_before = walker.x
        walker.vx = dx
        m = walker.tick()
        what = f"tick {walker.ticks} from x={x_before!r}: {m}\n{render(grid)}"
        assert m.contacts.on_ground, f"left the ground; {what}"
        assert not (m.contacts.hit_left or m.contacts.hit_right), f"stopped; {what}"
        assert near(m.x, x_before + dx), f"lost speed; {what}"
        assert near(floor_below(grid, m.x, walker.w, m.y + walker.h - 1e-3, True),
                    m.y + walker.h), f"not standing on the floor under it; {what}"
        tops.append(m.y)
    return tops


@pytest.mark.parametrize("speed", [RUN_PER_TICK, 4.0], ids=["run", "4px"])
@pytest.mark.parametrize("gradient", GRADIENTS, ids=GRADIENT_IDS)
@pytest.mark.parametrize("size", sized(WALK_BODIES, QUICK_BODIES))
@pytest.mark.parametrize("tile", TILES)
def test_walk_up_and_down_slopes_of_several_angles(resolver, tile, size, gradient, speed):
    """Up and over a hill both ways: never stuck, never in the air, never floating or sunk."""
    tw, th = tile
    w, h = scaled(size, tile)
    grid, floor, top = _ramp_hill(tile, gradient)
    walker = Walker(resolver, grid, tw, floor - h, w, h, on_ground=True)
    for direction, goal in ((1, grid.width_px - tw - w), (-1, tw)):
        tops = _walk(walker, grid, direction * speed * tw / 16, goal)
        assert near(min(tops), top - h), f"never got to the top: {min(tops)} vs {top - h}"
        assert near(walker.y, floor - h), f"did not get back down: y={walker.y}"


@pytest.mark.parametrize("gradient", GRADIENTS, ids=GRADIENT_IDS)
@pytest.mark.parametrize("size", sized(WALK_BODIES[:3]))
@pytest.mark.parametrize("tile", TILES)
def test_stand_still_on_slopes_of_several_angles(resolver, tile, size, gradient):
    """Resting on a slope (up it, at its top corner, down it, at its foot): no sliding, no
    bouncing, on the ground every tick."""
    tw, th = tile
    w, h = scaled(size, tile)
    grid, _floor, _top = _ramp_hill(tile, gradient)
    n = round(1 / gradient)
    for x0 in (4.3 * tw, (4 + n - 0.5) * tw - w, (8 + n + 0.2) * tw, (8 + 2 * n - 0.1) * tw - w):
        ground = floor_below(grid, x0, w, 0.0, True)
        walker = Walker(resolver, grid, x0, ground - h, w, h, on_ground=True)
        for _ in range(60):
            m = walker.tick()
            assert m.contacts.on_ground, f"x0={x0}: tick {walker.ticks}: {m}"
            assert near(m.y, ground - h, 1e-9) and m.x == x0, f"x0={x0}: slid {m}"


HALF = {"h": (8.0, 8.0)}  # heights at 16 px tiles, scaled with the tile


def _half_tiles(tile, layout):
    tw, th = tile
    return TileGrid.from_rows(layout, tile_w=tw, tile_h=th,
                              slope_chars={"h": (th / 2, th / 2)})


@pytest.mark.parametrize("size", sized(WALK_BODIES[:3]))
@pytest.mark.parametrize("tile", TILES)
def test_a_half_tile_is_a_step_half_a_tile_high(resolver, tile, size):
    tw, th = tile
    w, h = scaled(size, tile)
    grid = _half_tiles(tile, ["............", "............", "............",
                              ".....hhh....", "############"])
    floor, step_top = 4 * th, 4 * th - th / 2
    # walking into it from the floor: its side is a wall half a tile high
    walker = Walker(resolver, grid, tw, floor - h, w, h, on_ground=True)
    for _ in range(int(5 * tw / RUN_PER_TICK) + 10):
        walker.vx = RUN_PER_TICK
        walker.tick()
        assert walker.on_ground and near(walker.y, floor - h), f"{walker}"
    assert near(walker.x, 5 * tw - w) and walker.contacts.hit_right, f"{walker}"
    # falling onto it: on its top, half a tile up
    x0 = 6 * tw + 0.3 * tw
    m = step(resolver, grid, Body(x0, 0.0, w, h), 0.0, step_top - h)
    m = step(resolver, grid, Body(m.x, m.y, w, h), 0.0, 0.75 * th)
    assert m.contacts.on_ground and near(m.y, step_top - h), f"{m}"
    # along its top at full speed, then off its end: down half a tile to the floor
    walker = Walker(resolver, grid, 5 * tw, step_top - h, w, h, on_ground=True)
    _walk(walker, grid, RUN_PER_TICK, 8 * tw - w)
    for _ in range(30):
        walker.vx = RUN_PER_TICK
        walker.tick()
    assert walker.on_ground and near(walker.y, floor - h) and walker.x > 8 * tw, f"{walker}"


def _push_up_the_slope(walker, grid, slope_tiles):
    """Hold right from the hill's foot until well past where the body must stop: every tick on
    the ground, standing on the floor under it. The positions, tick by tick."""
    path = []
    for _ in range(int((slope_tiles + 4) * grid.tile_w / RUN_PER_TICK) + 20):
        walker.vx = RUN_PER_TICK
        m = walker.tick()
        what = f"tick {walker.ticks}: {m}\n{render(grid)}"
        assert m.contacts.on_ground, f"left the ground; {what}"
        assert near(floor_below(grid, m.x, walker.w, m.y + walker.h - 1e-3, True),
                    m.y + walker.h), f"not standing on the floor under it; {what}"
        path.append((m.x, m.y))
    return path


@pytest.mark.parametrize("gradient", GRADIENTS, ids=GRADIENT_IDS)
@pytest.mark.parametrize("size", sized(WALK_BODIES[:3]))
@pytest.mark.parametrize("tile", TILES)
def test_walking_up_a_slope_into_a_wall(resolver, tile, size, gradient):
    """A slope that runs into a wall: the body climbs to the wall and stops there, on the slope
    (on the ground, on its surface), and stays put."""
    tw, th = tile
    w, h = scaled(size, tile)
    grid, floor, _top = _ramp_hill(tile, gradient, wall=True)
    n = round(1 / gradient)
    walker = Walker(resolver, grid, tw, floor - h, w, h, on_ground=True)
    stops = _push_up_the_slope(walker, grid, n)
    # at the wall, or (routing: its climb needs headroom at the far x, which the wall's column
    # refuses) short of it by less than one tick's run
    flush = (4 + n) * tw - w
    assert walker.contacts.hit_right and flush - RUN_PER_TICK < walker.x <= flush + 1e-6, \
        f"{walker}"
    assert len(set(stops[-10:])) == 1, f"not at rest against the wall: {stops[-10:]}"


@pytest.mark.parametrize("gradient", GRADIENTS, ids=GRADIENT_IDS)
@pytest.mark.parametrize("size", sized(WALK_BODIES[:3]))
@pytest.mark.parametrize("tile", TILES)
def test_walking_up_a_slope_under_a_low_ceiling(resolver, tile, size, gradient):
    """A ceiling over the slope up, too low for the body to reach the top: it climbs until its
    head reaches the ceiling (within one tick's climb), then stays put on the slope, never inside
    either."""
    tw, th = tile
    w, h = scaled(size, tile)
    floor = 6 * th  # as _ramp_hill makes it
    ceiling = th * math.floor((floor - h) / th)  # between the floor and the top, less the body
    grid, floor, top = _ramp_hill(tile, gradient, ceiling=ceiling)
    walker = Walker(resolver, grid, tw, floor - h, w, h, on_ground=True)
    path = _push_up_the_slope(walker, grid, round(1 / gradient))
    assert min(y for _x, y in path) >= ceiling - 1e-6, "head in the ceiling"
    assert len(set(path[-10:])) == 1, f"not at rest under the ceiling: {path[-10:]}"
    climb = RUN_PER_TICK * th / tw * gradient
    assert walker.y - ceiling <= climb + 1e-6, f"stopped too early: {walker}"


# ----------------------------------------------------------------------------------------------
# Citations: every resolver names its article in full, and nothing points outside the project
# ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", resolvers.names())
def test_resolver_cites_its_article_by_title_author_year_and_address(name):
    import re
    import sys

    art = resolvers.REGISTRY[name].article
    assert art.title and art.author and re.search(r"\b(19|20)\d\d\b", art.year)
    assert art.url.startswith(("http://", "https://"))
    doc = sys.modules[resolvers.REGISTRY[name].__module__].__doc__
    assert art.url in doc.replace("\n", "")
    assert f'"{art.title.split(" (")[0]}"' in doc.replace("\n", " ")


def test_nothing_in_the_project_points_outside_its_tree():
    """A clone has only its own tree: no text file the project ships (code, docs, maps, the web
    page, Tiled's extension, CI) names the folder of source articles beside it."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    # built from parts, so that this test does not name them itself
    outside = ["..", "/shared"], ["shared", "/seeds"], ["shared", "/peers"]
    names = ["".join(parts) for parts in outside]
    binary = {".png", ".gif", ".wav", ".ogg", ".ttf", ".ico", ".pyc"}
    shipped = [p for p in root.rglob("*") if p.is_file() and p.suffix not in binary
               and not any(part.startswith(".") and part not in {".gitignore", ".ci"}
                           or part in {"__pycache__", "node_modules"}
                           for part in p.relative_to(root).parts)]
    assert any(p.suffix == ".js" for p in shipped) and any(p.suffix == ".tmx" for p in shipped)
    offenders = [str(p.relative_to(root)) for p in shipped
                 if any(name in p.read_text(errors="replace") for name in names)]
    assert offenders == []
