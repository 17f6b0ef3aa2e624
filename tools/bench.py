"""Benchmark: collision per resolver, and map drawing, on the peers' shared scenario.

Runs the scenario of ``../shared/peers/scenario.py`` (a generated solid-tile level, N movers that
walk, jump when blocked or every JUMP_PERIOD steps, reverse when stuck) with every resolver of this
project, and draws the peers' TMX map with this project's renderer along the peers' camera path.
With ``--peers`` it also runs the peer benchmarks (Python Arcade's platformer physics, pyscroll's
renderer) *in the same run*, so the figures can be compared as ratios on one noisy machine.

Prints a human line and a ``RESULT {json}`` line per measurement. Timings never go into tests.

    uv run python tools/bench.py                     # this project only
    uv run python tools/bench.py --peers             # also arcade and pyscroll (needs their venv:
                                                     #   ../shared/peers/setup.sh)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PEERS = Path(os.environ.get("PEERS_DIR", ROOT.parent / "shared" / "peers"))
PEERS_PY = Path(os.environ.get("PEERS_VENV", Path.home() / ".cache" / "peers-venv")) / "bin" / "python"

from game import resolvers  # noqa: E402
from game.grid import SOLID, TileGrid  # noqa: E402
from game.resolvers.base import Body, move_body  # noqa: E402


def load_scenario():
    sys.path.insert(0, str(PEERS))
    import scenario  # the peers' engine-free level generator and mover rules

    return scenario


def grid_from_scenario(S, w: int, h: int, seed: int) -> tuple[TileGrid, list]:
    g = S.generate_level(w, h, seed)
    kinds = bytes(SOLID if cell else 0 for row in g for cell in row)
    return TileGrid(w, h, S.TILE, S.TILE, kinds, {}), g


def run_movers(S, resolver, grid: TileGrid, spawns, steps: int) -> dict:
    """The peers' mover rules, in px per step, with this project's mover and a resolver."""
    n = len(spawns)
    xs = [float(x) for x, _, _ in spawns]
    ys = [float(y) for _, y, _ in spawns]
    vxs = [d * S.RUN_SPEED for _, _, d in spawns]
    vys = [0.0] * n
    ground = [False] * n
    blocked = [0] * n
    jumps = reversals = 0
    w, h = float(S.PLAYER_W), float(S.PLAYER_H)
    t0 = time.perf_counter()
    for step in range(steps):
        for i in range(n):
            if (blocked[i] or (step + i) % S.JUMP_PERIOD == 0) and ground[i]:
                vys[i] = -S.JUMP_SPEED
                jumps += 1
            vys[i] = min(vys[i] + S.GRAVITY, S.MAX_FALL)
            m = move_body(resolver, grid, Body(xs[i], ys[i], w, h), vxs[i], vys[i],
                          was_on_ground=ground[i])
            c = m.contacts
            moved = abs(m.x - xs[i])
            xs[i], ys[i], ground[i] = m.x, m.y, c.on_ground
            if c.on_ground or c.hit_ceiling:
                vys[i] = 0.0
            if moved < S.RUN_SPEED * 0.5:
                blocked[i] += 1
                if blocked[i] >= S.REVERSE_AFTER:
                    vxs[i], blocked[i] = -vxs[i], 0
                    reversals += 1
            else:
                blocked[i] = 0
    dt = time.perf_counter() - t0
    return {"run_s": round(dt, 4), "entity_steps_per_s": round(steps * n / dt, 1),
            "us_per_mover_step": round(dt / (steps * n) * 1e6, 2), "jumps": jumps,
            "reversals": reversals}


def bench_physics(args) -> list[dict]:
    S = load_scenario()
    w, h = map(int, args.map.lower().split("x"))
    grid, g = grid_from_scenario(S, w, h, S.SEED)
    spawns = S.spawn_points(g, args.movers, S.SEED)
    out = []
    for name in resolvers.names():
        best = None
        for _ in range(args.repeat):
            r = run_movers(S, resolvers.create(name), grid, spawns, args.steps)
            if best is None or r["run_s"] < best["run_s"]:
                best = r
        res = {"bench": "physics", "resolver": name, "map": args.map, "movers": args.movers,
               "steps": args.steps, **best}
        print(f"physics {name:8s} {args.map} {args.movers} movers x {args.steps} steps: "
              f"{best['entity_steps_per_s']:>10,.0f} entity-steps/s "
              f"({best['us_per_mover_step']} us per mover step)")
        print("RESULT " + json.dumps(res))
        out.append(res)
    return out


def camera_path(frames: int, view: tuple[int, int], map_px: tuple[int, int],
                step: tuple[int, int]) -> list[tuple[int, int]]:
    """View centres for each frame, as the peers' bench moves them: from the top-left-most centre,
    ``step`` px per frame, bouncing off the map's edges."""
    lo = [view[0] // 2, view[1] // 2]
    hi = [max(lo[k], map_px[k] - view[k] + view[k] // 2) for k in (0, 1)]
    pos, vel, out = lo[:], list(step), []
    for _ in range(frames):
        out.append((pos[0], pos[1]))
        for k in (0, 1):
            pos[k] += vel[k]
            if pos[k] < lo[k] or pos[k] > hi[k]:
                vel[k] = -vel[k]
                pos[k] = min(max(pos[k], lo[k]), hi[k])
    return out


def bench_render(args, tmx_path: Path) -> dict:
    import pygame

    from game.level import load_level
    from game.view.render import MapRenderer, TileImages

    view = tuple(map(int, args.view.split("x")))
    pygame.display.init()
    screen = pygame.display.set_mode(view)
    t = time.perf_counter()
    level = load_level(tmx_path, (24, 30))
    load_s = time.perf_counter() - t
    t = time.perf_counter()
    renderer = MapRenderer(level, TileImages(level))
    setup_s = time.perf_counter() - t
    g = level.grid
    path = camera_path(args.warmup + args.frames, view, (g.width_px, g.height_px),
                       (args.dx, args.dy))
    for c in path[:args.warmup]:
        renderer.draw(screen, (c[0] - view[0] // 2, c[1] - view[1] // 2))
    t = time.perf_counter()
    for c in path[args.warmup:]:  # like the pyscroll bench: no clear, the map covers the view
        renderer.draw(screen, (c[0] - view[0] // 2, c[1] - view[1] // 2))
        pygame.display.flip()
    dt = time.perf_counter() - t
    res = {"bench": "render", "map": args.render_map, "view": args.view, "frames": args.frames,
           "load_s": round(load_s, 3), "setup_s": round(setup_s, 4),
           "fps": round(args.frames / dt, 1)}
    print(f"render tilecollide {args.render_map} view {args.view}: {res['fps']:,.0f} fps "
          f"(level load {load_s:.2f}s incl. pytmx parse)")
    print("RESULT " + json.dumps(res))
    pygame.display.quit()
    return res


def bench_frame(args) -> dict:
    """A whole game frame as the window draws it: sky, hills, map, player, scaling, HUD."""
    from dataclasses import replace

    import pygame

    from game import config
    from game.inputs import Held
    from game.view.app import App

    cfg = config.load()
    cfg = replace(cfg, display=replace(cfg.display, vsync=False, hot_reload=False))
    level = ROOT / "levels" / "02_every_tile.tmx"
    app = App(cfg, level, max_frames=1)
    held = Held(right=True)
    for _ in range(args.warmup):
        app.world.step(app.keys_seq.frame(held))
        app.draw(0.5)
    t = time.perf_counter()
    for _ in range(args.frames):
        app.world.step(app.keys_seq.frame(held))
        app.draw(0.5)
        pygame.display.flip()
    dt = time.perf_counter() - t
    res = {"bench": "frame", "level": level.name, "window": f"{cfg.display.width}x"
           f"{cfg.display.height}", "frames": args.frames, "fps": round(args.frames / dt, 1),
           "ms_per_frame": round(dt / args.frames * 1000, 3)}
    print(f"frame tilecollide {level.name} window {res['window']}: {res['fps']:,.0f} fps "
          f"({res['ms_per_frame']} ms per frame incl. one tick)")
    print("RESULT " + json.dumps(res))
    pygame.quit()
    return res


def run_peer(script: str, *extra: str) -> dict | None:
    if not PEERS_PY.exists():
        print(f"peer venv missing ({PEERS_PY}); run {PEERS / 'setup.sh'} first")
        return None
    env = dict(os.environ, SDL_VIDEODRIVER="dummy")
    proc = subprocess.run([str(PEERS_PY), str(PEERS / script), *extra], cwd=PEERS, env=env,
                          capture_output=True, text=True)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("RESULT ")]
    if proc.returncode or not lines:
        print(f"peer {script} failed: {proc.stderr.strip()[-300:]}")
        return None
    res = json.loads(lines[-1][7:])
    print(" ".join(line for line in proc.stdout.splitlines() if not line.startswith("RESULT ")))
    print("RESULT " + json.dumps(res))
    return res


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--map", default="200x50", help="physics map, WxH tiles")
    ap.add_argument("--movers", type=int, default=100)
    ap.add_argument("--steps", type=int, default=600)
    ap.add_argument("--repeat", type=int, default=1, help="physics runs per resolver (best kept)")
    ap.add_argument("--render-map", default="200x50", help="render map, WxH tiles")
    ap.add_argument("--view", default="1280x720")
    ap.add_argument("--frames", type=int, default=600)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--dx", type=int, default=4)
    ap.add_argument("--dy", type=int, default=2)
    ap.add_argument("--only", choices=("physics", "render", "frame"), help="run one part only")
    ap.add_argument("--peers", action="store_true", help="also run the peer benchmarks")
    args = ap.parse_args()

    physics = render = None
    if args.only in (None, "physics"):
        physics = bench_physics(args)
        if args.peers:
            runs = [run_peer("arcade_physics_bench.py", "--map", args.map, "--movers",
                             str(args.movers), "--steps", str(args.steps))
                    for _ in range(args.repeat)]  # best of as many runs as ours got
            runs = [r for r in runs if r]
            arcade = max(runs, key=lambda r: r["entity_steps_per_s"]) if runs else None
            if arcade:
                for r in physics:
                    ratio = r["entity_steps_per_s"] / arcade["entity_steps_per_s"]
                    print(f"ratio physics {r['resolver']:8s} / arcade: {ratio:.2f}x")
    if args.only in (None, "render"):
        sys.path.insert(0, str(PEERS))
        with tempfile.TemporaryDirectory() as tmp:
            import make_tmx  # the peers' TMX writer: the same map for both renderers

            w, h = map(int, args.render_map.lower().split("x"))
            tmx = Path(tmp) / f"map_{args.render_map}.tmx"
            make_tmx.write_tmx(str(tmx), w, h, 2, "csv", 32)
            render = bench_render(args, tmx)
            if args.peers:
                ps = run_peer("pyscroll_render_bench.py", "--size", args.render_map, "--view",
                              args.view, "--frames", str(args.frames), "--mapdir", tmp)
                if ps and render:
                    print(f"ratio render tilecollide / pyscroll: "
                          f"{render['fps'] / ps['pyscroll_fps']:.2f}x; / naive blits: "
                          f"{render['fps'] / ps['naive_fps']:.2f}x")
    if args.only in (None, "frame"):
        bench_frame(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
