"""One measurement of this project, in this process, printed as one JSON line: tools/bench.py's
worker for our side (it starts one fresh process per measurement and round).

    python tools/bench_ours.py physics --resolver axis --map 200x50 --movers 100 --steps 600
    python tools/bench_ours.py physics --resolver axis --lesson ...   # the lesson class, not play's
    python tools/bench_ours.py render --tmx MAP.tmx --frames 600 --warmup 10
    python tools/bench_ours.py load --tmx MAP.tmx
    python tools/bench_ours.py frame --frames 600 --warmup 10 [--level MAP]
    python tools/bench_ours.py walkers --resolver axis --walkers 1000 --ticks 300
    python tools/bench_ours.py crowd-frame --frames 600 --warmup 10
    python tools/bench_ours.py ghosts --ticks 600
    python tools/bench_ours.py door --map 1000x1000 --turns 20

Only the loop being measured is inside the timer; building the grid, the resolver's ``prepare``,
loading the map and building the renderer are not (they are reported apart where they matter).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

ROOT = Path(__file__).resolve().parent.parent
from game import resolvers
from game.maps.grid import EMPTY, SOLID, TileGrid
from game.resolvers.base import HIT_CEILING, ON_GROUND, move_box
from tools import bench_floor
from tools import bench_scenario as S

FRAME_LEVEL = ROOT / "levels" / "02_every_tile.tmx"
CROWD_LEVEL = ROOT / "levels" / "04_crowd.tmx"  # 200 walkers


# ----------------------------------------------------------------------------------------------
# Collision: the scenario's movers with one resolver
# ----------------------------------------------------------------------------------------------

def physics(resolver_name: str, size: tuple[int, int], movers: int, steps: int,
            best_of: int = 1, lesson: bool = False) -> dict:
    """Entity-steps per second of the scenario's movers (bench_scenario's rules) with one
    resolver, through :func:`move_box` as the game calls it, in px per step: the class play
    uses (its fast twin, if it has one), or with ``lesson`` its lesson class. The scenario runs
    ``best_of`` times from its start in this process (one resolver, prepared once) and the
    fastest run counts: on a busy machine other processes only ever add time."""
    w, h = size
    level = S.generate_level(w, h)
    grid = TileGrid(w, h, S.TILE, S.TILE,
                    bytes(SOLID if cell else EMPTY for row in level for cell in row))
    # once per level, as the world does when a level loads: timed apart from the steps
    resolver, setup_s = set_up(resolver_name, grid, lesson)
    spawns = S.spawn_points(level, movers)
    # The floor's loop (tools/bench_floor.py) runs here too, each of its runs just before one of
    # ours: a slow spell of the machine then slows both alike, and the multiple of the floor is
    # worked out from the fastest run of each, measured side by side in this process.
    runs, floor_runs = [], []
    for _ in range(best_of):
        floor_runs.append(bench_floor.physics_run(level, spawns, steps))
        runs.append(_physics_run(resolver, grid, spawns, steps))
    res = S.best_run(runs, movers * steps, setup_s)
    floor = S.best_run(floor_runs, movers * steps, 0.0)
    return {**res, "floor_cpu_steps_per_s": floor["cpu_steps_per_s"],
            "floor_cpu_s_runs": floor["cpu_s_runs"], "class": type(resolver).__name__}


def _physics_run(resolver, grid: TileGrid, spawns: list, steps: int) -> dict:
    """One run of the scenario from its start: {run_s, cpu_s, jumps, reversals}."""
    movers = len(spawns)
    bw, bh = float(S.PLAYER_W), float(S.PLAYER_H)
    xs = [s.cx - bw / 2 for s in spawns]  # a spawn is a box's centre; a Body is its top-left
    ys = [s.cy - bh / 2 for s in spawns]
    vxs = [s.direction * S.RUN_SPEED for s in spawns]
    vys = [0.0] * movers
    grounded = [False] * movers
    blocked = [0] * movers
    jumps = reversals = 0
    # The scenario's rules exactly as the floor's loop writes them (constants in locals, the
    # same tests in the same order), so that only the move itself differs between the two.
    gravity, max_fall, jump_speed = S.GRAVITY, S.MAX_FALL, S.JUMP_SPEED
    period, reverse_after, half_speed = S.JUMP_PERIOD, S.REVERSE_AFTER, S.RUN_SPEED / 2
    landed_or_ceiling = ON_GROUND | HIT_CEILING
    # One step of a throwaway mover, as the Arcade side takes one, so anything done once on
    # first use happens before the timer.
    move_box(resolver, grid, xs[0], ys[0], bw, bh, vxs[0], S.GRAVITY, one_way_bottom=ys[0] + bh)

    t0, c0 = time.perf_counter(), time.process_time()
    for step in range(steps):
        for i in range(movers):
            vy = vys[i]
            ground = grounded[i]
            if ground and (blocked[i] or (step + i) % period == 0):
                vy = -jump_speed
                jumps += 1
                ground = False  # jumping: no ground snap for this tick
            vy += gravity
            if vy > max_fall:
                vy = max_fall
            x0, y0 = xs[i], ys[i]
            dx = vxs[i]
            x, y, flags = move_box(resolver, grid, x0, y0, bw, bh, dx, vy,
                                   one_way_bottom=y0 + bh, was_on_ground=ground)
            if flags & landed_or_ceiling:
                vy = 0.0
            xs[i], ys[i], vys[i], grounded[i] = x, y, vy, flags & ON_GROUND
            if abs(x - x0) < half_speed:
                blocked[i] += 1
                if blocked[i] >= reverse_after:
                    vxs[i], blocked[i] = -dx, 0
                    reversals += 1
            else:
                blocked[i] = 0
    run_s = time.perf_counter() - t0
    cpu_s = time.process_time() - c0  # this process only: less hurt by a busy machine
    return {"run_s": run_s, "cpu_s": cpu_s, "jumps": jumps, "reversals": reversals}


def set_up(resolver_name: str, grid: TileGrid, lesson: bool = False) -> tuple[object, float]:
    """A resolver made and prepared for ``grid`` as a world does when a level loads (play's
    class, or with ``lesson`` the lesson's), and the seconds that took (a fresh resolver each
    time: nothing carried over)."""
    t0 = time.perf_counter()
    resolver = resolvers.create(resolver_name, lesson=lesson)
    prepare = getattr(resolver, "prepare", None)
    if prepare is not None:
        prepare(grid)
    return resolver, time.perf_counter() - t0


# ----------------------------------------------------------------------------------------------
# Drawing: the map along the camera path, the level load, a whole game frame
# ----------------------------------------------------------------------------------------------

def render(tmx: Path, frames: int, warmup: int) -> dict:
    """Frames per second of :class:`MapRenderer` drawing the view along the camera path. A map
    with animated tiles runs them on game time, 1/60 s a frame (as the game at 60 fps)."""
    import pygame

    from game.maps.level import load_level
    from game.view.render import MapRenderer, TileImages

    pygame.display.init()
    screen = pygame.display.set_mode(S.VIEW)
    level = load_level(tmx, (S.PLAYER_W, S.PLAYER_H))
    t0 = time.perf_counter()
    renderer = MapRenderer(level, TileImages(level))
    setup_s = time.perf_counter() - t0
    g = level.grid
    half_w, half_h = S.VIEW[0] // 2, S.VIEW[1] // 2
    path = S.camera_path(warmup + frames, S.VIEW, (g.width_px, g.height_px))
    animated = bool(renderer.animated)
    for i, (cx, cy) in enumerate(path[:warmup]):
        if animated:
            renderer.update(i * S.STEP_S)
        renderer.draw(screen, (cx - half_w, cy - half_h))
        renderer.draw_front(screen, (cx - half_w, cy - half_h))
    t0, c0 = time.perf_counter(), time.process_time()
    for i, (cx, cy) in enumerate(path[warmup:], warmup):
        if animated:
            renderer.update(i * S.STEP_S)
        renderer.draw(screen, (cx - half_w, cy - half_h))  # no clear: the map covers the view
        renderer.draw_front(screen, (cx - half_w, cy - half_h))
        pygame.display.flip()
    run_s, cpu_s = time.perf_counter() - t0, time.process_time() - c0
    pygame.display.quit()
    return {"value": frames / run_s, "unit": "fps", "run_s": run_s, "setup_s": setup_s,
            "cpu_fps": frames / cpu_s}


def load(tmx: Path) -> dict:
    """Seconds to load the map with :func:`load_level`, then to cut its tile images."""
    import pygame

    from game.maps.level import load_level
    from game.view.render import TileImages

    pygame.display.init()
    pygame.display.set_mode(S.VIEW)  # TileImages converts to the display's format, as pytmx does
    t0 = time.perf_counter()
    level = load_level(tmx, (S.PLAYER_W, S.PLAYER_H))
    level_s = time.perf_counter() - t0
    TileImages(level)
    total_s = time.perf_counter() - t0
    pygame.display.quit()
    prepare = {name: set_up(name, level.grid)[1] for name in resolvers.names()}
    return {"value": total_s, "unit": "s", "load_level_s": level_s,
            "tile_images_s": total_s - level_s,
            **{f"prepare_s/{name}": s for name, s in prepare.items()},
            "with_slowest_prepare_s": total_s + max(prepare.values())}


def percentile(sorted_values: list[float], p: float) -> float:
    """The nearest-rank ``p`` percentile (0 < p <= 100) of values sorted ascending."""
    rank = max(1, math.ceil(p / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


def frame(frames: int, warmup: int, level: Path = FRAME_LEVEL) -> dict:
    """Frames per second of the game's own frame (events, one tick, the whole picture, flip) on
    ``level`` (level 2) in a 1280x720 window on SDL's dummy driver, the player holding right; and
    the median and 99th percentile of the frames' times, wall clock (what a player waits; another
    process taking the CPU shows here) and this process's CPU time (what the frame costs).

    Then, in the same window, the floor under it: an empty frame (events, a view of the same
    size stretched into the window as the game does, flip), its CPU time's median as
    ``floor_cpu_p50_ms``; and one tick of the world alone (``tick_cpu_p50_ms``)."""
    import pygame

    from game import config
    from game.sim.inputs import Held, InputScript
    from game.view.app import App
    from game.view.surfaces import blit_scaled

    cfg = config.load()
    cfg = replace(cfg, display=replace(cfg.display, width=S.VIEW[0], height=S.VIEW[1], scale=0,
                                       vsync=False, fullscreen=False, hot_reload=False,
                                       debug=False))
    app = App(cfg, level, script=InputScript(((0, Held(right=True)),)))
    dt = app.world.physics.dt  # a frame as long as one tick: exactly one tick per frame
    for _ in range(warmup):
        app.frame(dt)
    ticks = app.world.tick
    run_s, times = time_each(app.frame, [dt] * frames)
    ticks = app.world.tick - ticks
    resolver = app.world.resolver.name
    window = app.shared.window
    k = app.world.level.physics_scale  # the view and its scale as the level is drawn
    view = pygame.Surface(window.view_size(k))

    def empty(_):
        pygame.event.get()
        blit_scaled(view, window.scale(k), window.surface)
        pygame.display.flip()

    _, floor = time_each(empty, [None] * frames)
    world, held = app.world, InputScript(((0, Held(right=True)),))
    _, tick = time_each(world.step, list(held.frames(frames)))
    pygame.quit()
    return {"value": frames / run_s, "unit": "fps", "run_s": run_s,
            "ms_per_frame": run_s / frames * 1000, **times, "ticks": ticks, "resolver": resolver,
            "floor_cpu_p50_ms": floor["cpu_p50_ms"], "tick_cpu_p50_ms": tick["cpu_p50_ms"]}


def time_each(call, args: list) -> tuple[float, dict]:
    """``call(a)`` for each ``a`` in ``args``, each call timed by the wall clock (what a player
    waits; another process taking the CPU shows here) and by this process's CPU time (what the
    call costs): the seconds all took, and the median and 99th percentile of each, in ms."""
    wall, cpu = [0.0] * len(args), [0.0] * len(args)
    clock, cpu_clock = time.perf_counter, time.process_time
    t0 = clock()
    for i, a in enumerate(args):
        w0, c0 = clock(), cpu_clock()
        call(a)
        wall[i], cpu[i] = clock() - w0, cpu_clock() - c0
    run_s = clock() - t0
    wall.sort()
    cpu.sort()
    return run_s, {"p50_ms": percentile(wall, 50) * 1000, "p99_ms": percentile(wall, 99) * 1000,
                   "cpu_p50_ms": percentile(cpu, 50) * 1000,
                   "cpu_p99_ms": percentile(cpu, 99) * 1000}


# ----------------------------------------------------------------------------------------------
# Walkers: a world full of them, headless and in the window
# ----------------------------------------------------------------------------------------------

def walkers(resolver_name: str, count: int, ticks: int) -> dict:
    """Ticks per second of a headless world on the crowd level's layout holding ``count``
    walkers (its 200 spawns taken in turn, each copy with its own speed and direction), the
    player standing at the spawn. The tick is the whole :meth:`World.step`: player and walkers."""
    from game import config
    from game.sim.inputs import NO_INPUT
    from game.maps.level import WalkerSpawn, load_level
    from game.sim.world import World

    level = load_level(CROWD_LEVEL)
    base = level.walkers
    spawns = tuple(WalkerSpawn(i + 1, b.x, b.y, b.w, b.h, 25.0 + (i * 37) % 61,
                               b.facing if (i // len(base)) % 2 == 0 else -b.facing)
                   for i, b in ((i, base[i % len(base)]) for i in range(count)))
    level = replace(level, walkers=spawns)
    world = World(level, config.load().physics, resolvers.create(resolver_name))
    world.step(NO_INPUT)  # first-use work before the timer
    t0, c0 = time.perf_counter(), time.process_time()
    for _ in range(ticks):
        world.step(NO_INPUT)
    run_s = time.perf_counter() - t0
    cpu_s = time.process_time() - c0  # this process only: less hurt by a busy machine
    return {"value": ticks / run_s, "unit": "ticks/s", "run_s": run_s,
            "walker_steps_per_s": count * ticks / run_s,
            "us_per_walker_step": run_s / (count * ticks) * 1e6, "cpu_s": cpu_s,
            "cpu_steps_per_s": count * ticks / cpu_s, "walkers": count,
            "fallen": sum(w.fallen for w in world.walkers)}


def crowd_frame(frames: int, warmup: int) -> dict:
    """The game's own frame (as :func:`frame`) on the crowd level, 200 walkers, the player
    holding right: frames per second, and the frame times' 99th percentile."""
    from game import config
    from game.sim.inputs import Held, InputScript
    from game.view.app import App

    cfg = config.load()
    cfg = replace(cfg, display=replace(cfg.display, width=S.VIEW[0], height=S.VIEW[1], scale=0,
                                       vsync=False, fullscreen=False, hot_reload=False,
                                       debug=False))
    app = App(cfg, CROWD_LEVEL, script=InputScript(((0, Held(right=True)),)))
    dt = app.world.physics.dt
    for _ in range(warmup):
        app.frame(dt)
    # The walkers' share: their drawing, and the world's tick (the player's step and theirs),
    # timed by wrapping the two calls on these instances.
    spent = {"draw": 0.0, "tick": 0.0}

    def timed(key: str, call):
        def wrapper(*args):
            t = time.perf_counter()
            call(*args)
            spent[key] += time.perf_counter() - t
        return wrapper

    painter = app.play.painter  # game.view.world_view.WorldPainter
    painter.draw_walkers = timed("draw", painter.draw_walkers)
    app.world.step = timed("tick", app.world.step)
    run_s, times = time_each(app.frame, [dt] * frames)
    result = {"value": frames / run_s, "unit": "fps", "run_s": run_s,
              "ms_per_frame": run_s / frames * 1000, **times,
              "draw_walkers_ms": spent["draw"] / frames * 1000,
              "tick_ms": spent["tick"] / frames * 1000,
              "walkers": len(app.world.walkers), "resolver": app.world.resolver.name}
    import pygame

    pygame.quit()
    return result


def door(size: tuple[int, int], turns: int) -> dict:
    """Milliseconds for a door to turn on a generated level of ``size``: the new collision grid
    (a 1x3-tile door in the level's middle, closing then opening) and every resolver's
    ``prepare`` for it, each resolver having first walked the scenario's movers over the level
    (so whatever it keeps per grid is filled). The median and the worst turn."""
    w, h = size
    level = S.generate_level(w, h)
    grid = TileGrid(w, h, S.TILE, S.TILE,
                    bytes(SOLID if cell else EMPTY for row in level for cell in row))
    made = [set_up(name, grid)[0] for name in resolvers.names()]
    for r in made:
        for s in S.spawn_points(level, 200):
            x, y = s.cx - S.PLAYER_W / 2, s.cy - S.PLAYER_H / 2
            for _ in range(30):
                x, y, _ = move_box(r, grid, x, y, S.PLAYER_W, S.PLAYER_H, S.RUN_SPEED, S.GRAVITY,
                                   one_way_bottom=y + S.PLAYER_H)
    col, row = w // 2, h // 2
    cells = [(row + k) * w + col for k in range(3)]
    times = []
    for turn in range(turns):
        kind = SOLID if turn % 2 == 0 else EMPTY
        t0 = time.perf_counter()
        grid = grid.with_kinds({i: kind for i in cells})
        for r in made:
            prepare = getattr(r, "prepare", None)
            if prepare is not None:
                prepare(grid)
        times.append(time.perf_counter() - t0)
    times.sort()
    return {"value": percentile(times, 50) * 1000, "unit": "ms",
            "worst_ms": times[-1] * 1000, "turns": turns}


def ghosts(ticks: int) -> dict:
    """The simulation of Crowd with ghosts as the game runs it: a world per resolver (the
    player's among them), each stepped once a tick with the player holding right. Per tick: wall
    and CPU time of the whole comparison's step, median and 99th percentile."""
    from game import config
    from game.sim.ghosts import Comparison
    from game.sim.inputs import Held, InputScript
    from game.sim.world import load_world

    cfg = config.load()
    world = load_world(CROWD_LEVEL, cfg, resolvers.create(cfg.resolver))
    comparison = Comparison.create(world.level, world.physics, cfg, player=world)
    frames = list(InputScript(((0, Held(right=True)),)).frames(ticks + 1))
    comparison.step(frames[0])  # first-use work before the timer
    run_s, times = time_each(comparison.step, frames[1:])
    return {"value": ticks / run_s, "unit": "ticks/s", "run_s": run_s,
            "ms_per_tick": run_s / ticks * 1000, **times, "worlds": len(comparison.worlds),
            "walkers": sum(len(w.walkers) for w in comparison.worlds)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    p = sub.add_parser("physics")
    p.add_argument("--resolver", required=True, choices=resolvers.names())
    p.add_argument("--map", required=True, type=S.parse_size)
    p.add_argument("--movers", required=True, type=int)
    p.add_argument("--steps", required=True, type=int)
    p.add_argument("--best-of", type=int, default=1)
    p.add_argument("--lesson", action="store_true", help="time the lesson class, not play's")
    for name in ("render", "load"):
        p = sub.add_parser(name)
        p.add_argument("--tmx", required=True, type=Path)
        if name == "render":
            p.add_argument("--frames", required=True, type=int)
            p.add_argument("--warmup", required=True, type=int)
    for name in ("frame", "crowd-frame"):
        p = sub.add_parser(name)
        p.add_argument("--frames", required=True, type=int)
        p.add_argument("--warmup", required=True, type=int)
        if name == "frame":
            p.add_argument("--level", type=Path, default=FRAME_LEVEL, help="the level drawn")
    p = sub.add_parser("door")
    p.add_argument("--map", required=True, type=S.parse_size)
    p.add_argument("--turns", required=True, type=int)
    p = sub.add_parser("ghosts")
    p.add_argument("--ticks", required=True, type=int)
    p = sub.add_parser("walkers")
    p.add_argument("--resolver", required=True, choices=resolvers.names())
    p.add_argument("--walkers", required=True, type=int)
    p.add_argument("--ticks", required=True, type=int)
    a = ap.parse_args(argv)
    if a.what == "physics":
        res = physics(a.resolver, a.map, a.movers, a.steps, a.best_of, a.lesson)
    elif a.what == "render":
        res = render(a.tmx, a.frames, a.warmup)
    elif a.what == "load":
        res = load(a.tmx)
    elif a.what == "walkers":
        res = walkers(a.resolver, a.walkers, a.ticks)
    elif a.what == "door":
        res = door(a.map, a.turns)
    elif a.what == "ghosts":
        res = ghosts(a.ticks)
    elif a.what == "crowd-frame":
        res = crowd_frame(a.frames, a.warmup)
    else:
        res = frame(a.frames, a.warmup, a.level)
    print(json.dumps(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
