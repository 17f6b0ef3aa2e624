"""Python Arcade's platformer physics on the benchmark's scenario: one measurement, one JSON line.

tools/bench.py's worker for the Arcade side (it starts one fresh process per round). Needs the
``peers`` dependency group (``uv run --group peers ...``); no window or GL context: Arcade's
collision checks are plain Python on sprites in a spatial hash.

    python tools/peers/arcade_bench.py --map 200x50 --movers 100 --steps 600

How the scenario (tools/bench_scenario.py) maps onto Arcade 3.x:

* every solid tile is a ``SpriteSolidColor`` of one tile in one ``SpriteList`` with a spatial hash
  (cell 128 px, Arcade's default), shared as ``walls`` by all engines; Arcade's y axis points
  up, so rows are flipped;
* ``PhysicsEnginePlatformer`` drives one sprite, so each mover gets its own engine (movers do not
  collide with each other, as on our side); a sprite is placed by its centre, which is what a
  spawn gives (our side converts it to a top-left corner);
* the rules are the scenario's: wanting to jump is the same test, and it jumps only if
  ``can_jump()`` (Arcade's "standing" question); the engine adds gravity itself inside
  ``update()``, so the fall cap is applied to the speed before it (MAX_FALL - GRAVITY);
* building the walls and engines, and one step of a throwaway mover (lazy imports), are outside
  the timer (reported as ``build_s``), as our side's grid, ``prepare`` and warm-up step are.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from tools import bench_scenario as S

HASH_CELL = 128  # px: Arcade's default spatial hash cell


def build(size: tuple[int, int], movers: int):
    """The walls (one sprite per solid tile) and one engine per mover at its spawn."""
    import arcade

    w, h = size
    level = S.generate_level(w, h)
    height_px = h * S.TILE
    walls = arcade.SpriteList(use_spatial_hash=True, spatial_hash_cell_size=HASH_CELL)
    for row, cells in enumerate(level):
        for col, solid in enumerate(cells):
            if solid:
                walls.append(arcade.SpriteSolidColor(S.TILE, S.TILE, (col + 0.5) * S.TILE,
                                                     height_px - (row + 0.5) * S.TILE))
    engines = []
    for spawn in S.spawn_points(level, movers):
        sprite = arcade.SpriteSolidColor(S.PLAYER_W, S.PLAYER_H, spawn.cx, height_px - spawn.cy)
        sprite.change_x = spawn.direction * S.RUN_SPEED
        engines.append(arcade.PhysicsEnginePlatformer(sprite, walls=walls,
                                                      gravity_constant=S.GRAVITY))
    warm_up(walls, S.spawn_points(level, 1)[0], height_px)
    return walls, engines


def warm_up(walls, spawn: S.Spawn, height_px: float) -> None:
    """One step of a throwaway mover (its own sprite and engine, the shared walls), so lazy
    imports and one-off set-up inside Arcade happen before the timer; our side does the same."""
    import arcade

    sprite = arcade.SpriteSolidColor(S.PLAYER_W, S.PLAYER_H, spawn.cx, height_px - spawn.cy)
    engine = arcade.PhysicsEnginePlatformer(sprite, walls=walls, gravity_constant=S.GRAVITY)
    engine.can_jump()
    engine.update()


def run(engines, steps: int) -> tuple[int, int]:
    """The scenario's steps; returns (jumps, reversals)."""
    n = len(engines)
    blocked = [0] * n
    jumps = reversals = 0
    fall_cap = -(S.MAX_FALL - S.GRAVITY)  # update() subtracts gravity before it moves
    half_speed = S.RUN_SPEED / 2
    for step in range(steps):
        for i, engine in enumerate(engines):
            sprite = engine.player_sprite
            if (blocked[i] or (step + i) % S.JUMP_PERIOD == 0) and engine.can_jump():
                engine.jump(S.JUMP_SPEED)
                jumps += 1
            if sprite.change_y < fall_cap:
                sprite.change_y = fall_cap
            x0 = sprite.center_x
            engine.update()
            if abs(sprite.center_x - x0) < half_speed:
                blocked[i] += 1
                if blocked[i] >= S.REVERSE_AFTER:
                    sprite.change_x = -sprite.change_x
                    blocked[i] = 0
                    reversals += 1
            else:
                blocked[i] = 0
    return jumps, reversals


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--map", required=True, type=S.parse_size, help="WxH tiles")
    ap.add_argument("--movers", required=True, type=int)
    ap.add_argument("--steps", required=True, type=int)
    a = ap.parse_args(argv)
    import arcade

    t0 = time.perf_counter()
    walls, engines = build(a.map, a.movers)
    build_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    jumps, reversals = run(engines, a.steps)
    run_s = time.perf_counter() - t0
    print(json.dumps({"value": a.movers * a.steps / run_s, "unit": "entity-steps/s",
                      "run_s": run_s, "us_per_mover_step": run_s / (a.movers * a.steps) * 1e6,
                      "build_s": build_s, "walls": len(walls), "jumps": jumps,
                      "reversals": reversals, "arcade": arcade.version.VERSION}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
