"""The floors: what the benchmark's work costs when written as plainly as Python allows, so that
every other figure can be read as "how many times the floor". One measurement, one JSON line:
tools/bench.py's worker for these two reference figures (one fresh process per round).

    python tools/bench_floor.py physics --map 200x50 --movers 100 --steps 600
    python tools/bench_floor.py blit --frames 600 --warmup 10

``physics``: the scenario's movers (tools/bench_scenario.py: the same level, spawns and rules as
the resolvers and Arcade run) stepped by one hand-written loop over the level as a list of lists:
move along x, stop at the first solid cell the leading edge enters, then the same along y. No
slopes, no one-way tiles, no map edges (the scenario's level is walled in), no contacts record, no
function call per mover. Nothing a real resolver does could cost less in Python, so a resolver's
time per mover-step over this one says how much its technique and its generality cost.

``blit``: the least a drawn frame can cost on this machine: one opaque 1280x720 surface blitted
to the screen, then a flip. A map renderer draws at least that much per frame.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tools import bench_scenario as S  # noqa: E402

_EDGE = 1e-6  # px: an edge exactly on a tile border does not reach into the next tile


def physics(size: tuple[int, int], movers: int, steps: int) -> dict:
    """Entity-steps per second of the scenario's movers with the floor's own collision."""
    level = S.generate_level(*size)
    spawns = S.spawn_points(level, movers)
    tile, w, h = S.TILE, float(S.PLAYER_W), float(S.PLAYER_H)
    xs = [s.cx - w / 2 for s in spawns]
    ys = [s.cy - h / 2 for s in spawns]
    vxs = [s.direction * S.RUN_SPEED for s in spawns]
    vys = [0.0] * movers
    grounded = [False] * movers
    blocked = [0] * movers
    jumps = reversals = 0
    gravity, max_fall, jump_speed = S.GRAVITY, S.MAX_FALL, S.JUMP_SPEED
    period, reverse_after, half_speed = S.JUMP_PERIOD, S.REVERSE_AFTER, S.RUN_SPEED / 2

    t0, c0 = time.perf_counter(), time.process_time()
    for step in range(steps):
        for i in range(movers):
            vy = vys[i]
            if grounded[i] and (blocked[i] or (step + i) % period == 0):
                vy = -jump_speed
                jumps += 1
            vy += gravity
            if vy > max_fall:
                vy = max_fall
            x0 = xs[i]
            y = ys[i]
            dx = vxs[i]
            # x: the column the leading edge enters, every row the box spans
            x = x0 + dx
            top, bottom = int(y // tile), int((y + h - _EDGE) // tile)
            if dx > 0:
                col = int((x + w - _EDGE) // tile)
                for row in range(top, bottom + 1):
                    if level[row][col]:
                        x = col * tile - w
                        break
            else:
                col = int(x // tile)
                for row in range(top, bottom + 1):
                    if level[row][col]:
                        x = (col + 1) * tile
                        break
            # y: the row the leading edge enters, every column the box spans
            y += vy
            ground = False
            left, right = int(x // tile), int((x + w - _EDGE) // tile)
            if vy > 0:
                row = int((y + h - _EDGE) // tile)
                cells = level[row]
                for col in range(left, right + 1):
                    if cells[col]:
                        y, vy, ground = row * tile - h, 0.0, True
                        break
            else:
                row = int(y // tile)
                cells = level[row]
                for col in range(left, right + 1):
                    if cells[col]:
                        y, vy = (row + 1) * tile, 0.0
                        break
            xs[i], ys[i], vys[i], grounded[i] = x, y, vy, ground
            if abs(x - x0) < half_speed:
                blocked[i] += 1
                if blocked[i] >= reverse_after:
                    vxs[i], blocked[i] = -dx, 0
                    reversals += 1
            else:
                blocked[i] = 0
    run_s = time.perf_counter() - t0
    cpu_s = time.process_time() - c0  # this process only: less hurt by a busy machine
    return {"value": movers * steps / run_s, "unit": "entity-steps/s", "run_s": run_s,
            "us_per_mover_step": run_s / (movers * steps) * 1e6, "jumps": jumps,
            "reversals": reversals, "setup_s": 0.0, "cpu_s": cpu_s,
            "cpu_steps_per_s": movers * steps / cpu_s}


def blit(frames: int, warmup: int) -> dict:
    """Frames per second of one full-view blit and a flip: the floor of any drawn frame."""
    import pygame

    pygame.display.init()
    screen = pygame.display.set_mode(S.VIEW)
    picture = pygame.Surface(S.VIEW).convert()
    picture.fill((40, 60, 120))
    for _ in range(warmup):
        screen.blit(picture, (0, 0))
        pygame.display.flip()
    t0 = time.perf_counter()
    for _ in range(frames):
        screen.blit(picture, (0, 0))
        pygame.display.flip()
    run_s = time.perf_counter() - t0
    pygame.display.quit()
    return {"value": frames / run_s, "unit": "fps", "run_s": run_s,
            "ms_per_frame": run_s / frames * 1000}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    p = sub.add_parser("physics")
    p.add_argument("--map", required=True, type=S.parse_size)
    p.add_argument("--movers", required=True, type=int)
    p.add_argument("--steps", required=True, type=int)
    p = sub.add_parser("blit")
    p.add_argument("--frames", required=True, type=int)
    p.add_argument("--warmup", required=True, type=int)
    a = ap.parse_args(argv)
    res = physics(a.map, a.movers, a.steps) if a.what == "physics" else blit(a.frames, a.warmup)
    print(json.dumps(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
