"""Running the simulation with no window: N ticks from an input script, with a JSON Lines trace,
and where ``--trace`` writes it."""

from __future__ import annotations

import io
import json
import os
import stat
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, BinaryIO, NamedTuple

from game.runs import files
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


# ----------------------------------------------------------------------------------------------
# --trace: where the trace goes
# ----------------------------------------------------------------------------------------------

STREAMS = {1: "standard output", 2: "standard error"}


def write_trace_to(target: str, records: Iterable[dict], protected: list[Path]) -> bool:
    """Write the trace where ``--trace`` says, never at the cost of something the user made;
    returns whether it went to standard output. What the path *is* decides, not its name:

    * ``-``, or the same file as standard output or standard error (``/dev/stdout``, a ``>> log``
      the shell opened): written through the stream already open, so ``>> log`` still appends;
    * a pipe (``>(...)``, a FIFO) or ``/dev/null``: written straight in;
    * anything else goes through :mod:`game.runs.files`: a new file, or an earlier trace
      (``is_trace``) replaced whole; never an input of this run, a file that is not a trace, a
      folder or a device.
    """
    if target == "-":
        _write_to_stream(1, target, records)
        return True
    path = Path(target)
    try:
        st = os.stat(path)
    except OSError:
        st = None  # missing, or unreadable: check_target says which
    if st is not None and not files.is_one_of(path, st, protected):
        for fd in STREAMS:
            if _same_file_as_fd(st, fd):
                _write_to_stream(fd, target, records)
                return fd == 1
        if stat.S_ISFIFO(st.st_mode) or _is_null_device(st):
            _write_straight_in(path, st, records)
            return False
    st = files.check_target(path, "--trace", _is_trace_file, "trace", protected)
    try:
        files.write_file(path, lambda f: _write_text(f, records), ".trace-")
    except OSError as exc:  # a full disk, a read-only folder, no permission...
        kept = "the earlier trace there is unchanged" if st is not None else "nothing was written"
        raise files.target_error("--trace", path, f"cannot write the trace "
                                 f"({files.reason(exc)}); {kept}") from None
    return False


def _is_trace_file(path: Path) -> bool:
    with open(path, "rb") as f:
        return is_trace(f)


def _write_text(binary: BinaryIO, records: Iterable[dict]) -> None:
    out = io.TextIOWrapper(binary, encoding="utf-8", newline="\n", write_through=False)
    try:
        write_trace(records, out)
        out.flush()
    finally:
        out.detach()  # the binary file is the caller's to close


def _write_to_stream(fd: int, target: str, records: Iterable[dict]) -> None:
    stream = sys.stdout if fd == 1 else sys.stderr
    if stream is None:  # the shell closed it (>&-)
        raise files.target_error("--trace", target, f"{STREAMS[fd]} is closed; give a file "
                                 f"name, or leave {STREAMS[fd]} open")
    try:
        write_trace(records, stream)
        stream.flush()
    except OSError as exc:
        drop_pending(stream)  # so nothing is retried, and fails again, at exit
        if isinstance(exc, BrokenPipeError):
            raise  # the reader went away (`| head`): the command line ends quietly
        raise files.target_error("--trace", target, f"cannot write to {STREAMS[fd]} "
                                 f"({files.reason(exc)})") from None


def _write_straight_in(path: Path, st: os.stat_result, records: Iterable[dict]) -> None:
    """A pipe or /dev/null: nothing to replace, so write into it (waiting for a pipe's reader).
    Opened without creating or truncating, and only if it is still what was looked at."""
    try:
        fd = os.open(path, os.O_WRONLY | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise files.target_error("--trace", path, f"cannot open it ({files.reason(exc)})") \
            from None
    try:
        if not os.path.samestat(os.fstat(fd), st):
            raise files.target_error("--trace", path, "it was replaced while being opened; run "
                                     "again")
        with open(fd, "w", encoding="utf-8", closefd=False) as out:
            write_trace(records, out)
    except BrokenPipeError:
        raise  # the pipe's reader went away: the command line ends quietly
    except OSError as exc:
        raise files.target_error("--trace", path, f"cannot write into it "
                                 f"({files.reason(exc)})") from None
    finally:
        os.close(fd)


def _same_file_as_fd(st: os.stat_result, fd: int) -> bool:
    try:
        return os.path.samestat(st, os.fstat(fd))
    except OSError:  # closed
        return False


def _is_null_device(st: os.stat_result) -> bool:
    try:
        null = os.stat(os.devnull)
    except OSError:
        return False
    return stat.S_ISCHR(st.st_mode) and st.st_rdev == null.st_rdev


def drop_pending(stream) -> None:
    """Point a failed stream at /dev/null, so what is still buffered goes nowhere."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass
