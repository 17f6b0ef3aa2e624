"""Running the simulation with no window: N ticks from an input script, with a JSON Lines trace."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import IO

from game.inputs import InputFrame
from game.world import World


def trace_record(world: World) -> dict:
    p = world.player
    return {"tick": world.tick - 1, "x": float(p.x), "y": float(p.y), "w": float(p.w),
            "h": float(p.h), "vx": float(p.vx), "vy": float(p.vy), "on_ground": p.on_ground,
            "respawning": p.respawning,
            "resolver": world.resolver.name}


def run(world: World, frames: Iterable[InputFrame]) -> Iterator[dict]:
    """Step once per frame; yield the trace record written after each tick's step."""
    for frame in frames:
        world.step(frame)
        yield trace_record(world)


def write_trace(records: Iterable[dict], out: IO[str]) -> int:
    n = 0
    for rec in records:
        out.write(json.dumps(rec, separators=(",", ":")) + "\n")
        n += 1
    return n
