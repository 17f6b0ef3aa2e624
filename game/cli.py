"""The command line: play in a window, run headless with a trace, or list the resolvers.

Every mistake a user can make (a bad config, map, input script or option) ends with exit code 2
and one line on stderr that starts with ``error:``, names the file and says what to change.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import signal
import stat
import sys
from dataclasses import dataclass, replace
from pathlib import Path

from game import config as config_mod
from game import resolvers
from game.errors import UserError, quoted

EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse's own errors become one 'error:' line too
        raise UserError("command line", f"{message} (see --help)")


def make_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="main.py", description="A platformer on Tiled levels, with five "
                "switchable tile-collision resolvers.")
    p.add_argument("--config", metavar="PATH", help="config file (default: config.toml beside "
                   "main.py); it overrides only the keys it names")
    p.add_argument("--level", metavar="PATH", help="Tiled .tmx level to play")
    p.add_argument("--resolver", metavar="NAME", help="collision resolver (see --list-resolvers)")
    p.add_argument("--list-resolvers", action="store_true", help="print the resolver names")
    p.add_argument("--headless", action="store_true", help="run with no window (needs --ticks)")
    p.add_argument("--ticks", metavar="N", help="headless: how many ticks to run")
    p.add_argument("--input", metavar="PATH", help="headless: input script (default: no keys)")
    p.add_argument("--trace", metavar="PATH", help="headless: write a JSON Lines trace "
                   "('-' for stdout)")
    return p


@dataclass(frozen=True)
class Setup:
    config: config_mod.Config
    level_path: Path


def setup(args: argparse.Namespace) -> Setup:
    cfg = config_mod.load(args.config)
    if args.resolver is not None:
        cfg = replace(cfg, resolver=config_mod.check_resolver(args.resolver, "command line",
                                                              "--resolver"))
    level = Path(args.level) if args.level is not None else Path(cfg.level)
    return Setup(cfg, level)


def list_resolvers() -> int:
    for name in resolvers.names():
        d = resolvers.describe(name)
        slopes = "slopes" if d["slopes"] else "slopes as boxes"
        print(f"{name}\t{d['axis_order']}; solid, one_way, {slopes}; {d['summary']}")
    return 0


def headless(args: argparse.Namespace, s: Setup) -> int:
    from game.headless import run, write_trace
    from game.inputs import InputScript, load_script
    from game.world import load_world

    try:
        ticks = int(args.ticks)
    except ValueError:  # not a number, or one of more than 4,300 digits (Python refuses those)
        what = "too large a number" if args.ticks.strip().isdigit() else "not a whole number"
        raise UserError("command line", f"--ticks {quoted(args.ticks)} is {what}") from None
    if ticks < 0:
        raise UserError("command line", f"--ticks must be 0 or more, not {ticks}")
    script = load_script(args.input) if args.input else InputScript(())
    # Stopped from outside (SIGTERM): unwind normally, so no half-written temp file stays behind.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
    cfg = s.config
    world = load_world(s.level_path, cfg, resolvers.create(cfg.resolver,
                                                           cfg.resolver_options(cfg.resolver)))
    level, resolver = world.level, world.resolver
    records = run(world, script.frames(ticks))

    if args.trace is None:
        for _ in records:
            pass
    elif args.trace == "-":
        write_trace(records, sys.stdout)
    else:
        protected = [Path(p) for p in (args.input, args.config or config_mod.DEFAULT_CONFIG,
                                       s.level_path) if p]
        protected += list(world.level.files)
        _write_trace_file(Path(args.trace), records, protected)
    p = world.player
    if args.trace != "-":
        print(f"{ticks} ticks on {level.path} with {resolver.name}: x={p.x:.2f} y={p.y:.2f} "
              f"on_ground={p.on_ground} respawning={p.respawning} goal={world.goal_reached}")
    return 0


def _write_trace_file(path: Path, records, protected: list[Path]) -> None:
    """Write the trace where --trace says, never at the cost of something the user made.

    * A new file, an empty one, or a trace from an earlier run: written beside it and moved into
      place when complete (keeping the old file's permissions), so a failed run loses nothing.
    * A device, pipe or anything under /dev (/dev/null, /dev/stdout, a FIFO): written straight in.
    * Anything else that exists (a config, a level, a tileset, an image...): refused.
    """
    from game.headless import write_trace

    where = "command line"
    if str(path).startswith("/dev/") or (path.exists() and not path.is_dir()
                                         and not stat.S_ISREG(os.stat(path).st_mode)):
        with open(path, "w", encoding="utf-8") as out:
            write_trace(records, out)
        return
    target = path.resolve()
    if any(p.resolve() == target for p in protected):
        raise UserError(where, f"--trace {path} is one of the input files; write the trace to a "
                        "new file")
    if path.is_dir():
        raise UserError(where, f"--trace {path} is a folder; give a file name")
    if not target.parent.is_dir():
        raise UserError(where, f"--trace {path}: folder {target.parent} does not exist")
    mode = None
    if target.exists():
        if not _is_trace(target):
            raise UserError(where, f"--trace {path} exists and is not a trace written by this "
                            "game; give a new file name (nothing was written)")
        mode = stat.S_IMODE(target.stat().st_mode)
    # The temp file's name is known before it exists, so a stop at any moment can remove it.
    tmp = target.parent / f".trace-{os.getpid()}-{secrets.token_hex(4)}.jsonl"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            write_trace(records, out)
        os.chmod(tmp, mode if mode is not None else 0o666 & ~_umask())
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _is_trace(path: Path) -> bool:
    """An empty file, or one whose first line is a trace record: safe to replace."""
    try:
        with open(path, encoding="utf-8") as f:
            first = f.readline(65536)
    except (OSError, UnicodeDecodeError):
        return False
    if not first.strip():
        return path.stat().st_size == 0
    try:
        rec = json.loads(first)
    except ValueError:
        return False
    return isinstance(rec, dict) and {"tick", "resolver"} <= rec.keys()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def play(s: Setup) -> int:
    from game.view.app import run_app  # the window is imported only when playing

    return run_app(s.config, s.level_path)


def main(argv: list[str] | None = None) -> int:
    try:
        args = make_parser().parse_args(argv)
        if args.list_resolvers:
            return list_resolvers()
        if not args.headless and (args.ticks or args.input or args.trace):
            raise UserError("command line", "--ticks, --input and --trace need --headless")
        if args.headless and args.ticks is None:
            raise UserError("command line", "--headless needs --ticks N")
        s = setup(args)
        return headless(args, s) if args.headless else play(s)
    except UserError as exc:
        print(exc.line(), file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader of --trace - went away (e.g. `| head`): stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
