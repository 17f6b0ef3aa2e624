"""Golden traces: what the simulation computes today, pinned bit for bit.

Two kinds of record live in ``tests/data/golden_traces.json``:

* **traces**: every shipped level (``levels/*.tmx``) with every resolver, run from its spawn with
  each script of ``tests/data/scripts`` and with a few long seeded random scripts, plus scenes
  that start the player somewhere chosen (on one-way platforms to drop through, before slopes).
  Each run keeps the sha256 of its JSON Lines trace (``game.runs.headless.write_trace``, what
  ``--trace`` writes, less the ``events`` key, which is tested on its own), the sha256 of the player's whole state and contacts after every tick
  (timers, flags, probed cells), and a short hash per block of ticks so that a mismatch names the
  first block that differs.
* **moves**: seeded random calls of every resolver (and of resolver options that take other code
  paths) on a few grids, straight to ``resolver.move`` and through ``move_body``, hashed with the
  full result (position by ``repr``, contacts, probed cells). Each call is also made through the
  cores (``resolver.move_box`` and ``base.move_box``) without a probe list, as play makes it, and
  must give the same position and contacts: collecting probed cells must not change an answer.

A failure here means a change altered what the physics computes. If that was the point of the
change, regenerate the file and say so in the commit::

    uv run python tests/test_golden_traces.py --regenerate

(``--add-missing`` keeps every pinned entry as it is and adds only what the file lacks: a new
resolver, level or variant.) Otherwise it is a bug: the block or call range in the message says where to look.
"""

from __future__ import annotations

import hashlib
import io
import json
import random
import sys
from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from game import config as cfgmod
from game import resolvers
from game.maps.grid import TileGrid
from game.runs.headless import trace_record, write_trace
from game.sim.inputs import Held, InputScript, load_script
from game.maps.level import Level, Rect, load_level
from game.resolvers.base import (HIT_CEILING, HIT_LEFT, HIT_RIGHT, ON_GROUND,
                                 ON_ONE_WAY, Body, Contacts, Move, move_body, move_box,
                                 overlapping_tiles, support_under)
from game.resolvers.overlap import OverlapOptions, resolve
from game.resolvers.pixel import PixelOptions
from game.resolvers.routing import RoutingOptions
from game.resolvers.sweep import SweepOptions
from game.sim.world import World

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).parent / "data" / "golden_traces.json"
SCRIPTS = sorted((Path(__file__).parent / "data" / "scripts").glob("*.txt"))
LEVELS = sorted((ROOT / "levels").glob("*.tmx"))
CFG = cfgmod.Config()  # the built-in defaults, whatever config.toml says
SIZE = (CFG.player.width, CFG.player.height)

SCRIPT_TICKS = 240  # each shared script
RANDOM_TICKS = 1200  # each random script
RANDOM_SCRIPTS = 2  # per level
BLOCK = 100  # ticks per block hash
MOVES_PER_GRID = 2500  # random calls per grid and kind (raw resolver, mover)
MOVE_BLOCK = 250  # calls per block hash


# ----------------------------------------------------------------------------------------------
# Scripts and scenes
# ----------------------------------------------------------------------------------------------

# Keys a random script holds, with weights: mostly running and jumping, some drops and idling.
RANDOM_KEYS = [
    (Held(right=True), 6), (Held(left=True), 4), (Held(right=True, jump=True), 4),
    (Held(left=True, jump=True), 3), (Held(jump=True), 2), (Held(), 2), (Held(down=True), 1),
    (Held(down=True, jump=True), 2), (Held(right=True, down=True, jump=True), 1),
    (Held(up=True, right=True), 1),
]


def random_script(seed: str, ticks: int) -> InputScript:
    """Seeded: hold a random choice of keys for 1 to 60 ticks at a time."""
    rng = random.Random(seed)
    keys, weights = zip(*RANDOM_KEYS)
    entries, tick = [], 0
    while tick < ticks:
        entries.append((tick, rng.choices(keys, weights)[0]))
        tick += rng.choice((1, 2, 3, 5, 8, 12, 20, 30, 45, 60))
    return InputScript(tuple(entries))


def script_from(lines: list[tuple[int, str]]) -> InputScript:
    def held(text: str) -> Held:
        return Held() if text == "-" else Held(**{k: True for k in text.split("+")})

    return InputScript(tuple((t, held(k)) for t, k in lines))


# Drop through a stack of one-way platforms, run off, jump back up, drop again.
DROPS = [(0, "-"), (15, "down+jump"), (16, "down"), (40, "-"), (70, "down+jump"), (72, "-"),
         (110, "jump"), (111, "down"), (125, "right"), (160, "left+jump"), (200, "down+jump"),
         (230, "left"), (260, "right+jump"), (300, "down"), (305, "down+jump"), (330, "-"),
         (360, "right"), (420, "left+jump"), (480, "-")]
# Walk over slopes both ways, jumping on them and stopping on them.
SLOPES = [(0, "right"), (90, "-"), (110, "right"), (150, "right+jump"), (190, "left"),
          (260, "-"), (280, "left+jump"), (320, "right"), (420, "left"), (470, "-"),
          (490, "right"), (560, "left"), (640, "-")]

# Climb a ladder past its top, step off and back, climb down through its top, jump off halfway.
CLIMBS = [(0, "up"), (76, "-"), (80, "right"), (100, "left"), (125, "-"), (140, "down"),
          (170, "-"), (180, "up"), (200, "jump"), (202, "-"), (260, "up"), (300, "up+right"),
          (330, "-"), (360, "left"), (400, "down"), (470, "-")]

# (name, level file, the hitbox's top-left at the start (None: the level's spawn), script, ticks)
CUSTOM_SCENES = [
    ("drop-stack", "02_every_tile.tmx", (63 * 16 + 2, 11 * 16 - 14), DROPS, 600),
    ("drop-low", "02_every_tile.tmx", (55 * 16 + 3, 17 * 16 - 14), DROPS, 600),
    ("hill", "02_every_tile.tmx", (7 * 16, 20 * 16 - 14), SLOPES, 700),
    ("ramp", "02_every_tile.tmx", (82 * 16, 20 * 16 - 14), SLOPES, 700),
    ("drop-first", "01_first_steps.tmx", (59 * 16 + 1, 5 * 16 - 14), DROPS, 600),
    ("moon-slope", "03_moon_hop.tmx", (55 * 16, 12 * 16 - 14), SLOPES, 700),
    ("ladder", "06_ladders.tmx", (8 * 16 + 2, 20 * 16 - 14), CLIMBS, 600),
]


@cache
def level_named(name: str) -> Level:
    return load_level(ROOT / "levels" / name, SIZE)


def scenes() -> Iterator[tuple[str, str, tuple[float, float] | None, InputScript, int]]:
    """(id, level file, start or None, script, ticks) for every pinned run, resolver aside."""
    for level in LEVELS:
        for path in SCRIPTS:
            yield f"{level.stem}/{path.stem}", level.name, None, load_script(path), SCRIPT_TICKS
        for k in range(RANDOM_SCRIPTS):
            yield (f"{level.stem}/random{k}", level.name, None,
                   random_script(f"{level.stem}/{k}", RANDOM_TICKS), RANDOM_TICKS)
    for name, level, start, lines, ticks in CUSTOM_SCENES:
        yield f"{Path(level).stem}/{name}", level, start, script_from(lines), ticks


def state_line(world: World) -> str:
    """Everything the player carries after a tick, floats by repr, including its contacts."""
    p = world.player
    c = p.contacts
    return (f"{p.x!r} {p.y!r} {p.vx!r} {p.vy!r} {p.facing} {p.on_ground} {p.on_one_way} "
            f"{p.air_time!r} {p.since_press!r} {p.rising} {p.dropping!r} "
            f"{p.since_one_way_jump!r} {p.respawn_timer!r} {world.goal_reached} | "
            f"{c.on_ground} {c.hit_ceiling} {c.hit_left} {c.hit_right} {c.on_one_way} "
            f"{list(c.probed)}\n")


def run_scene(level_file: str, start: tuple[float, float] | None, script: InputScript,
              ticks: int, resolver_name: str, first: int | None = None) -> dict:
    """The run's hashes; with ``first``, only its first ``first`` ticks (the block hashes of
    those: the quick tier's check)."""
    level = level_named(level_file)
    if start is not None:
        level = replace(level, spawn=Rect(start[0], start[1], *SIZE))
    physics = cfgmod.with_map_properties(CFG, level.properties, level.path).physics
    resolver = resolvers.create(resolver_name)
    world = World(level, physics, resolver)
    trace, state = hashlib.sha256(), hashlib.sha256()
    blocks, block = [], hashlib.sha256()
    for tick, frame in enumerate(script.frames(ticks)):
        if first is not None and tick == first:
            break
        world.step(frame)
        out = io.StringIO()
        rec = trace_record(world)
        del rec["events"]  # pinned: the motion; what happens on a tick is tested on its own
        write_trace([rec], out)
        line = out.getvalue().encode()
        extra = state_line(world).encode()
        trace.update(line)
        state.update(extra)
        block.update(line + extra)
        if (tick + 1) % BLOCK == 0 or tick + 1 == ticks:
            blocks.append(block.hexdigest()[:12])
            block = hashlib.sha256()
    return {"trace": trace.hexdigest(), "state": state.hexdigest(), "blocks": blocks}


def trace_cases() -> list[tuple[str, str, str, tuple[float, float] | None, InputScript, int]]:
    return [(f"{sid}/{name}", name, level, start, script, ticks)
            for sid, level, start, script, ticks in scenes() for name in resolvers.names()]


# ----------------------------------------------------------------------------------------------
# Random moves
# ----------------------------------------------------------------------------------------------

SLOPE_CHARS = {"a": (0.0, 0.5), "b": (0.5, 1.0), "c": (1.0, 0.5), "d": (0.5, 0.0),
               "e": (0.25, 0.75)}  # fractions of the tile height


def random_grid(seed: str, cols: int, rows: int, tile_w: int, tile_h: int) -> TileGrid:
    """Runs of solid, one-way and slope tiles over a solid floor, with a few stray blocks."""
    rng = random.Random(seed)
    lines = [["."] * cols for _ in range(rows)]
    for c in range(cols):
        lines[rows - 1][c] = "#"
    for _ in range(cols * rows // 12):
        r, c = rng.randrange(rows - 1), rng.randrange(cols)
        ch = rng.choices("#=/\\abcde", (8, 4, 2, 2, 1, 1, 1, 1, 1))[0]
        for k in range(rng.choice((1, 1, 2, 3, 5))):
            if c + k < cols:
                lines[r][c + k] = ch
    slope_chars = {k: (a * tile_h, b * tile_h) for k, (a, b) in SLOPE_CHARS.items()}
    return TileGrid.from_rows(["".join(line) for line in lines], tile_w, tile_h, slope_chars)


@cache
def move_grids() -> dict[str, TileGrid]:
    return {
        "random16": random_grid("g16", 30, 20, 16, 16),
        "random8": random_grid("g8", 40, 24, 8, 8),
        "random16x8": random_grid("g16x8", 28, 30, 16, 8),
        "level02": level_named("02_every_tile.tmx").grid,
    }


# (id, resolver factory): every resolver, and options that take other code paths
VARIANTS: dict[str, Callable[[], resolvers.Resolver]] = {
    **{name: (lambda name=name: resolvers.create(name)) for name in resolvers.names()},
    "overlap-row-major": lambda: resolvers.create("overlap", OverlapOptions(largest_first=False)),
    "overlap-no-ties": lambda: resolvers.create("overlap", OverlapOptions(tie_px=0.0)),
    "routing-raw": lambda: resolvers.create("routing", RoutingOptions(raw_edges=True)),
    "sweep-no-inset": lambda: resolvers.create("sweep", SweepOptions(0.0, 0.0)),
    "sweep-wide-inset": lambda: resolvers.create("sweep", SweepOptions(3.0, 5.0)),
    "pixel-no-correction": lambda: resolvers.create("pixel", PixelOptions(0.0)),
    "pixel-wide-correction": lambda: resolvers.create("pixel", PixelOptions(12.0)),
}


def _coord(rng: random.Random, tile: int, size: float, extent: int) -> float:
    r = rng.random()
    if r < 0.45:
        return rng.uniform(-tile, extent - size + tile)
    cell = rng.randrange(-1, extent // tile + 2) * tile
    offset = rng.choice((0.0, -size, 1e-7, -1e-7, 0.5, -size - 0.5, -size + 1e-9))
    return cell + offset


def _delta(rng: random.Random, tile: int) -> float:
    r = rng.random()
    if r < 0.25:
        return 0.0
    if r < 0.45:
        return rng.choice((130 / 60, -130 / 60, 1500 / 3600, 8.0, -410 / 60, 0.5 * 1500 / 3600))
    if r < 0.7:
        return rng.uniform(-1.0, 1.0)
    return rng.uniform(-3.0 * tile, 3.0 * tile)


def random_calls(seed: str, grid: TileGrid, slopes: bool,
                 n: int) -> Iterator[tuple[Body, float, float, bool, bool]]:
    """(body, dx, dy, drop_through, was_on_ground), bodies mostly starting free of tiles."""
    rng = random.Random(seed)
    tw, th = grid.tile_w, grid.tile_h
    for _ in range(n):
        if rng.random() < 0.4:
            w, h = 12.0, 14.0
        else:
            w, h = rng.choice((2.0, 4.0, 12.5, 16.0, 24.0, 40.0, rng.uniform(2, 40))), \
                rng.choice((2.0, 6.0, 14.0, 16.0, 30.0, 40.0, rng.uniform(2, 40)))
        for _try in range(60):
            x = _coord(rng, tw, w, grid.width_px)
            y = _coord(rng, th, h, grid.height_px)
            if rng.random() < 0.05 or not overlapping_tiles(grid, x, y, w, h, y + h, slopes):
                break
        tick_bottom = None if rng.random() < 0.7 else y + h + rng.choice(
            (0.0, -rng.uniform(0, th), rng.uniform(0, th)))
        yield (Body(x, y, w, h, tick_bottom=tick_bottom), _delta(rng, tw), _delta(rng, th),
               rng.random() < 0.15, rng.random() < 0.5)


def move_line(m: Move) -> str:
    c = m.contacts
    return (f"{m.x!r} {m.y!r} {c.on_ground} {c.hit_ceiling} {c.hit_left} {c.hit_right} "
            f"{c.on_one_way} {list(c.probed)}\n")


def flags_of(c: Contacts) -> int:
    return ((ON_GROUND if c.on_ground else 0) | (HIT_CEILING if c.hit_ceiling else 0)
            | (HIT_LEFT if c.hit_left else 0) | (HIT_RIGHT if c.hit_right else 0)
            | (ON_ONE_WAY if c.on_one_way else 0))


def same_without_probe(m: Move, fast: tuple[float, float, int]) -> bool:
    return (repr(m.x), repr(m.y), flags_of(m.contacts)) == (repr(fast[0]), repr(fast[1]), fast[2])


def run_moves(variant: str, grid_name: str, first: int | None = None) -> dict:
    """The move set's hashes; with ``first``, only its first ``first`` calls' block hashes."""
    resolver = VARIANTS[variant]()
    grid = move_grids()[grid_name]
    slopes = resolver.supports_slopes
    whole, blocks, block = hashlib.sha256(), [], hashlib.sha256()
    calls = random_calls(f"{variant}/{grid_name}", grid, slopes, first or MOVES_PER_GRID)
    for i, (body, dx, dy, drop, grounded) in enumerate(calls):
        raw_move = resolver.move(grid, body, dx, dy, drop)
        mover_move = move_body(resolver, grid, body, dx, dy, drop_through=drop,
                               was_on_ground=grounded)
        fast_raw = resolver.move_box(grid, body.x, body.y, body.w, body.h, dx, dy,
                                     body.one_way_bottom, drop, None)
        fast_mover = move_box(resolver, grid, body.x, body.y, body.w, body.h, dx, dy,
                              one_way_bottom=body.one_way_bottom, drop_through=drop,
                              was_on_ground=grounded)
        assert same_without_probe(raw_move, fast_raw), (variant, grid_name, i, "move_box")
        assert same_without_probe(mover_move, fast_mover), (variant, grid_name, i, "mover")
        raw, mover = move_line(raw_move).encode(), move_line(mover_move).encode()
        whole.update(raw + mover)
        block.update(raw + mover)
        if variant == "overlap" and i % 5 == 0:
            # the article-comparison knobs of overlap.resolve, with its trace of decisions
            trace: list[tuple[int, int, str]] = []
            m = resolve(grid, body, dx, dy, drop, guard=False, trace=trace)
            extra = (move_line(m) + repr(trace) + "\n").encode()
            whole.update(extra)
            block.update(extra)
        if (i + 1) % MOVE_BLOCK == 0:
            blocks.append(block.hexdigest()[:12])
            block = hashlib.sha256()
    return {"sha256": whole.hexdigest(), "blocks": blocks}


def move_cases() -> list[tuple[str, str]]:
    return [(v, g) for v in VARIANTS for g in ("random16", "random8", "random16x8", "level02")]


# ----------------------------------------------------------------------------------------------
# The tests
# ----------------------------------------------------------------------------------------------

@cache
def golden() -> dict:
    return json.loads(GOLDEN.read_text(encoding="utf-8"))


def _first_block(want: list[str], got: list[str]) -> int:
    return next((i for i, (a, b) in enumerate(zip(want, got)) if a != b), min(len(want),
                                                                               len(got)))


def test_every_run_and_move_set_is_pinned():
    """The file covers exactly the runs and move sets below: a new level or resolver needs a
    regenerated file, not a silently skipped check."""
    data = golden()
    assert sorted(data["traces"]) == sorted(c[0] for c in trace_cases())
    assert sorted(data["moves"]) == sorted(f"{v}/{g}" for v, g in move_cases())


# The quick tier checks the first block of every run and move set; the full tier all of them.
EXTENTS = [pytest.param("first-block", id="first-block"),
           pytest.param("whole", id="whole", marks=pytest.mark.slow)]


def _matches(want: dict, got: dict, extent: str) -> bool:
    if extent == "whole":
        return got == want
    return got["blocks"] == want["blocks"][:len(got["blocks"])]


@pytest.mark.parametrize("extent", EXTENTS)
@pytest.mark.parametrize("level", [p.name for p in LEVELS] + ["custom"])
@pytest.mark.parametrize("name", resolvers.names())
def test_runs_match_the_golden_traces(level, name, extent):
    # "custom": the scenes with a chosen start; a level: its runs from the spawn
    cases = [c for c in trace_cases()
             if c[1] == name and (c[3] is not None if level == "custom" else
                                  c[2] == level and c[3] is None)]
    assert cases
    for case_id, resolver_name, level_file, start, script, ticks in cases:
        want = golden()["traces"].get(case_id)
        assert want is not None, f"{case_id}: not in {GOLDEN.name}; regenerate it"
        got = run_scene(level_file, start, script, ticks, resolver_name,
                        BLOCK if extent != "whole" else None)
        if not _matches(want, got, extent):
            b = _first_block(want["blocks"], got["blocks"])
            what = [k for k in ("trace", "state") if got[k] != want[k]] or ["blocks"]
            pytest.fail(f"{case_id}: {' and '.join(what)} differ from {GOLDEN.name}; first "
                        f"difference in ticks {b * BLOCK}..{(b + 1) * BLOCK - 1}")


@pytest.mark.parametrize("extent", EXTENTS)
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_random_moves_match_the_golden_results(variant, extent):
    for v, grid_name in move_cases():
        if v != variant:
            continue
        key = f"{variant}/{grid_name}"
        want = golden()["moves"].get(key)
        assert want is not None, f"{key}: not in {GOLDEN.name}; regenerate it"
        got = run_moves(variant, grid_name, MOVE_BLOCK if extent != "whole" else None)
        if not _matches(want, got, extent):
            b = _first_block(want["blocks"], got["blocks"])
            pytest.fail(f"{key}: results differ from {GOLDEN.name}; first difference in calls "
                        f"{b * MOVE_BLOCK}..{(b + 1) * MOVE_BLOCK - 1}")


def test_custom_scenes_start_where_they_mean_to():
    """Each chosen start is free and standing, so the scene tests what its name says."""
    for name, level_file, start, _lines, _ticks in CUSTOM_SCENES:
        grid = level_named(level_file).grid
        x, y = start
        assert not overlapping_tiles(grid, x, y, *SIZE, y + SIZE[1], True), name
        assert support_under(grid, x, SIZE[0], y + SIZE[1], True)[0], name


def regenerate(missing_only: bool = False) -> None:
    """Write the file anew; with ``missing_only``, keep every pinned entry as it is and add
    only the runs and move sets it lacks (a new resolver, level or variant)."""
    data = {"traces": {}, "moves": {}}
    if missing_only:
        old = golden()
        data = {"traces": {k: v for k, v in old["traces"].items()
                           if k in {c[0] for c in trace_cases()}},
                "moves": {k: v for k, v in old["moves"].items()
                          if k in {f"{v}/{g}" for v, g in move_cases()}}}
    for case_id, name, level_file, start, script, ticks in trace_cases():
        if case_id not in data["traces"]:
            data["traces"][case_id] = run_scene(level_file, start, script, ticks, name)
    for variant, grid_name in move_cases():
        if f"{variant}/{grid_name}" not in data["moves"]:
            data["moves"][f"{variant}/{grid_name}"] = run_moves(variant, grid_name)
    GOLDEN.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN} ({len(data['traces'])} runs, {len(data['moves'])} move sets)")


if __name__ == "__main__":
    if sys.argv[1:] not in (["--regenerate"], ["--add-missing"]):
        sys.exit("usage: python tests/test_golden_traces.py --regenerate | --add-missing")
    regenerate(missing_only=sys.argv[1] == "--add-missing")
