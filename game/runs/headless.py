"""Running the simulation with no window: N ticks from an input script, with a JSON Lines trace."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import IO, BinaryIO, NamedTuple

from game.sim.inputs import InputFrame
from game.sim.world import World


class TraceRecord(NamedTuple):
    """One line of the trace: the player after one tick's step.

    The fields are the trace's keys, in the order they are written. They are the one list of
    them: an earlier trace is recognised by exactly these keys (``TRACE_KEYS``).
    """

    tick: int
    x: float  # hitbox top-left and size, in map pixels (y down)
    y: float
    w: float
    h: float
    vx: float  # px/s
    vy: float
    on_ground: bool
    respawning: bool
    resolver: str
    events: list[str]  # what happened this tick (``game.sim.world.EVENTS``), in order; mostly empty


TRACE_KEYS = frozenset(TraceRecord._fields)
# A trace written before ticks had ``events`` is still one of ours (and may be replaced).
EARLIER_TRACE_KEYS = (TRACE_KEYS - {"events"},)
TRACE_LINE_LIMIT = 4096  # bytes; a trace line is about 170, so a longer line is not a trace


def trace_record(world: World) -> dict:
    p = world.player
    return TraceRecord(tick=world.tick - 1, x=float(p.x), y=float(p.y), w=float(p.w),
                       h=float(p.h), vx=float(p.vx), vy=float(p.vy), on_ground=p.on_ground,
                       respawning=p.respawning, resolver=world.resolver.name,
                       events=list(world.events))._asdict()


def run(world: World, frames: Iterable[InputFrame]) -> Iterator[dict]:
    """Step once per frame; yield the trace record written after each tick's step."""
    for frame in frames:
        world.step(frame)
        yield trace_record(world)


def run_ghosts(comparison, frames: Iterable[InputFrame]) -> Iterator[dict]:
    """Step every world of a :class:`game.sim.ghosts.Comparison` once per frame; yield each
    world's trace record after each tick, in ``--list-resolvers`` order."""
    for frame in frames:
        comparison.step(frame)
        for world in comparison.worlds:
            yield trace_record(world)


def write_trace(records: Iterable[dict], out: IO[str]) -> int:
    n = 0
    for rec in records:
        out.write(json.dumps(rec, separators=(",", ":")) + "\n")
        n += 1
    return n


def is_trace(f: BinaryIO) -> bool:
    """Whether ``f`` holds nothing but a trace: every line a JSON object with exactly the keys
    ``TRACE_KEYS`` or those of an earlier version (``EARLIER_TRACE_KEYS``), each once, ticks
    counting 0, 1, 2... (a ``--ghosts`` trace repeats each tick once per resolver, in a run of
    lines) and every line ending in a newline.
    An empty file counts (a run of 0 ticks writes one). Read line by line, in bounded memory."""
    from game.resolvers import names

    order = {name: i for i, name in enumerate(names())}
    last_tick, last_place = -1, -1
    for line in iter(lambda: f.readline(TRACE_LINE_LIMIT + 1), b""):
        if len(line) > TRACE_LINE_LIMIT or not line.endswith(b"\n"):
            return False
        try:
            rec = json.loads(line, object_pairs_hook=_object_without_repeated_keys)
        except (ValueError, RecursionError):  # not JSON, not UTF-8, a key given twice, too deep
            return False
        if not isinstance(rec, dict) or (rec.keys() != TRACE_KEYS
                                         and rec.keys() not in EARLIER_TRACE_KEYS):
            return False
        tick = rec["tick"]
        place = order.get(rec["resolver"], -1) if isinstance(rec["resolver"], str) else -1
        if type(tick) is not int or not (tick == last_tick + 1
                                         or (tick == last_tick and place > last_place >= 0)):
            return False
        last_tick, last_place = tick, place
    return True


def _object_without_repeated_keys(pairs: list[tuple[str, object]]) -> dict:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        raise ValueError("a key appears twice")
    return obj
