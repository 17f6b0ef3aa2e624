"""The command line: play in a window, run headless with a trace, or list the resolvers.

Every mistake a user can make (a bad config, map, input script or option) ends with exit code 2
and one line on stderr that starts with ``error:``, names the file and says what to change.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import secrets
import stat
import sys
from dataclasses import dataclass, replace
from pathlib import Path

from game import config as config_mod
from game import resolvers
from game.runs import settings as settings_mod
from game.errors import UserError, print_note, quote_path, quoted

try:
    import fcntl
except ImportError:  # not POSIX: no locks, and stale temp files are left alone
    fcntl = None

EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse's own errors become one 'error:' line too
        raise UserError("command line", f"{message} (see --help)")


def make_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="main.py", description="A platformer on Tiled levels, with seven "
                "switchable tile-collision resolvers.")
    p.add_argument("--config", metavar="PATH", help="config file (default: config.toml beside "
                   "main.py); it overrides only the keys it names")
    p.add_argument("--level", metavar="PATH", help="Tiled .tmx level to play (skips the title "
                   "screen)")
    p.add_argument("--resolver", metavar="NAME", help="collision resolver (see --list-resolvers)")
    p.add_argument("--list-resolvers", action="store_true", help="print the resolver names")
    p.add_argument("--headless", action="store_true", help="run with no window (needs --ticks)")
    p.add_argument("--ticks", metavar="N", help="how many ticks to run (headless: needed; "
                   "window: close after N)")
    p.add_argument("--input", metavar="PATH", help="input script (default: no keys); in a "
                   "window it plays until a key is pressed")
    p.add_argument("--trace", metavar="PATH", help="write a JSON Lines trace ('-' for stdout)")
    p.add_argument("--ghosts", action="store_true", help="run every resolver side by side: "
                   "ghosts in the window, one trace line per resolver per tick headless")
    p.add_argument("--record", metavar="PATH", help="window: write what was played as an input "
                   "script when the level changes or the game ends")
    p.add_argument("--lab", nargs="*", metavar="DIR_OR_FILE", help="run every resolver through "
                   "the collision lab's scenario maps (default: levels/lab/) and write lab.md, "
                   "lab.json and lab.png")
    p.add_argument("--out", metavar="PATH", help="--lab: the folder for the results (default: "
                   "lab-results/ in the current folder); --render-map: the .png to write")
    p.add_argument("--render-map", metavar="MAP", help="draw the whole map at scale 1, as the "
                   "game draws it, into the PNG named by --out")
    p.add_argument("--time", metavar="SECONDS", help="--render-map: how far into its "
                   "animations (default 0)")
    p.add_argument("--solid-layer", action="append", metavar="NAME", help="a map made for "
                   "another engine: this tile (or object) layer is solid ground (again for more "
                   "layers; overrides config.toml's [map] and the map's own property)")
    p.add_argument("--one-way-layer", action="append", metavar="NAME", help="this layer holds "
                   "one-way platforms (again for more layers)")
    p.add_argument("--solid-property", metavar="NAME", help="the tile property that means "
                   "solid: NAME (true: solid) or NAME=VALUE")
    p.add_argument("--one-way-property", metavar="NAME", help="the tile property that means "
                   "one-way: NAME or NAME=VALUE")
    p.add_argument("--start-object", metavar="NAME", help="the name or class of the object the "
                   "player starts at")
    p.add_argument("--no-settings", action="store_true", help="neither read nor write the "
                   f"remembered settings ({settings_mod.settings_path() or 'no home folder'}; "
                   f"also {settings_mod.NO_SETTINGS_ENV}=1)")
    return p


@dataclass(frozen=True)
class Setup:
    config: config_mod.Config
    level_path: Path
    title: bool = False  # open on the title screen (a window and no --level)
    levels_dir: Path | None = None  # the folder the title screen lists
    store: settings_mod.Store | None = None  # the remembered settings, when the window uses them


def setup(args: argparse.Namespace) -> Setup:
    """Defaults < remembered settings (window only) < config file < command line."""
    cfg, table = config_mod.load_with_table(args.config)
    levels_dir = Path(cfg.level).parent  # the config's level folder, not a remembered one
    store = None
    where = settings_mod.settings_path()
    # A replay in the window (--input, --ticks, --trace) runs exactly what headless runs: the
    # config's level, no title screen, no remembered settings.
    replay = bool(args.input or args.ticks is not None or args.trace)
    if (not args.headless and not replay and not args.no_settings and not settings_mod.disabled()
            and where):
        store = settings_mod.Store(where)
        cfg = settings_mod.apply(cfg, store.saved, settings_mod.pinned_keys(table))
    if args.resolver is not None:
        cfg = replace(cfg, resolver=config_mod.check_resolver(args.resolver, "command line",
                                                              "--resolver"))
    cfg = replace(cfg, map=map_options(args, cfg.map))
    level = Path(args.level) if args.level is not None else Path(cfg.level)
    return Setup(cfg, level, title=not args.headless and not replay and args.level is None,
                 levels_dir=levels_dir, store=store)


def map_options(args: argparse.Namespace, given: config_mod.MapConfig) -> config_mod.MapConfig:
    """config.toml's [map] table with what the command line says of the map over it."""
    changes = {}
    for name in ("solid_layers", "one_way_layers"):
        names = getattr(args, name[:-1])  # --solid-layer NAME, given again for more
        if names:
            changes[name] = tuple(names)
    for name in ("solid_property", "one_way_property", "start_object"):
        value = getattr(args, name)
        if value is not None:
            if not value.strip():
                option = "--" + name.replace("_", "-")
                raise UserError("command line", f"{option} needs a name, not an empty one")
            changes[name] = value.strip()
    return replace(given, **changes)


def list_resolvers() -> int:
    for name in resolvers.names():
        d = resolvers.describe(name)
        slopes = "slopes" if d["slopes"] else "slopes as boxes"
        print(f"{name}\t{d['axis_order']}; solid, one_way, {slopes}; {d['summary']}")
    return 0


def parse_ticks(args: argparse.Namespace) -> int:
    try:
        ticks = int(args.ticks)
    except ValueError:  # not a number, or one of more than 4,300 digits (Python refuses those)
        what = "too large a number" if args.ticks.strip().isdigit() else "not a whole number"
        raise UserError("command line", f"--ticks {quoted(args.ticks)} is {what}") from None
    if ticks < 0:
        raise UserError("command line", f"--ticks must be 0 or more, not {ticks}")
    return ticks


def trace_protected(args: argparse.Namespace, s: Setup, level) -> list[Path]:
    """The files a trace must never replace: this run's inputs."""
    protected = [Path(p) for p in (args.input, args.config or config_mod.DEFAULT_CONFIG,
                                   s.level_path, getattr(args, "record", None)) if p]
    return protected + list(level.files)


def headless(args: argparse.Namespace, s: Setup) -> int:
    from game.sim.ghosts import Comparison
    from game.runs.headless import run, run_ghosts
    from game.sim.inputs import InputScript, load_script
    from game.sim.world import World, load_world

    ticks = parse_ticks(args)
    script = load_script(args.input) if args.input else InputScript(())
    cfg = s.config
    # The level's notes are said once the run has ended well: a mistake found later (a trace
    # that cannot be written) is then the one line said.
    held: list[str] = []
    world = load_world(s.level_path, cfg, resolvers.create(cfg.resolver,
                                                           cfg.resolver_options(cfg.resolver)),
                       notes=held.append)
    level = world.level
    stepped: World | Comparison = world
    if args.ghosts:
        stepped = comparison = Comparison.create(level, world.physics, cfg, player=world)
        records = run_ghosts(comparison, script.frames(ticks))
        worlds = comparison.worlds
    else:
        records = run(world, script.frames(ticks))
        worlds = [world]

    on_stdout = False
    if args.trace is None:
        for frame in script.frames(ticks):  # no trace written: no records built
            stepped.step(frame)
    else:
        on_stdout = write_trace_to(args.trace, records, trace_protected(args, s, level))
    if not on_stdout:  # the summary would spoil a trace on standard output
        for world in worlds:
            p = world.player
            walkers = ""
            if world.walkers:
                fallen = sum(w.fallen for w in world.walkers)
                walkers = f" walkers={len(world.walkers)} fallen={fallen}"
            print(f"{ticks} ticks on {level.path} with {world.resolver.name}: x={p.x:.2f} "
                  f"y={p.y:.2f} on_ground={p.on_ground} respawning={p.respawning} "
                  f"goal={world.goal_reached}{walkers}")
    for line in held:
        print_note(line)
    return 0


# ----------------------------------------------------------------------------------------------
# --trace: where the trace may go, and how it is written there
# ----------------------------------------------------------------------------------------------

STREAMS = {1: "standard output", 2: "standard error"}
# The temp file a trace is written to before it is moved into place; a run stopped outright
# (SIGKILL, a power cut) leaves one, which a later run into the same folder removes.
TEMP_NAME = re.compile(r"\.trace-([0-9]{1,10})-[0-9a-f]{8}\.jsonl")


def write_trace_to(target: str, records, protected: list[Path]) -> bool:
    """Write the trace where --trace says, never at the cost of something the user made.

    What the path *is* decides, not its name:

    * ``-``, or the same file as standard output or standard error (``/dev/stdout``,
      ``/dev/fd/2``...): written through the stream that is already open, so ``>> log``
      still appends.
    * A new file, an empty one, or a trace from an earlier run (also under /dev/shm): written
      to a temp file beside it and moved into place when complete, keeping the old file's
      permissions, so a failed or stopped run changes nothing.
    * A pipe (FIFO) or /dev/null: written straight in.
    * Refused: an input of this run, a file that is not a trace, a folder, and any other device
      (a disk, /dev/full, /dev/zero, a terminal that is not the standard output).

    Returns whether the trace went to standard output.
    """
    if target == "-":
        _write_to_stream(1, target, records)
        return True
    path = Path(target)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise _trace_error(target, f"cannot look at it ({_reason(exc)})") from None
    if _is_an_input(path, st, protected):
        raise _trace_error(target, "that is one of this run's input files; write the "
                           "trace to a new file")
    if st is None:
        _replace_with_trace(path, None, records)
        return False
    for fd in STREAMS:
        if _same_file_as_fd(st, fd):
            _write_to_stream(fd, target, records)
            return fd == 1
    if stat.S_ISDIR(st.st_mode):
        raise _trace_error(target, "that is a folder; give a file name")
    if stat.S_ISFIFO(st.st_mode) or _is_null_device(st):
        _write_straight_in(path, st, records)
    elif stat.S_ISREG(st.st_mode):
        _replace_with_trace(path, st, records)
    else:
        raise _trace_error(target, f"that is a {_kind(st)}, not a file (nothing was written); a "
                           "trace goes to a regular file, a pipe, /dev/null, or the standard "
                           "output or error (- or /dev/stdout, /dev/stderr)")
    return False


def _write_to_stream(fd: int, target: str, records) -> None:
    from game.runs.headless import write_trace

    stream = sys.stdout if fd == 1 else sys.stderr
    if stream is None:  # the shell closed it (>&-)
        raise _trace_error(target, f"{STREAMS[fd]} is closed; give a file name, or leave "
                           f"{STREAMS[fd]} open")
    try:
        write_trace(records, stream)
        stream.flush()
    except OSError as exc:
        _drop_pending(stream)  # so nothing is retried, and fails again, at exit
        if isinstance(exc, BrokenPipeError):
            raise  # the reader went away (`| head`): main() ends quietly
        raise _trace_error(target, f"cannot write to {STREAMS[fd]} ({_reason(exc)})") from None


def _write_straight_in(path: Path, st: os.stat_result, records) -> None:
    """A pipe or /dev/null: nothing to replace, so write into it (waiting for a pipe's reader)."""
    try:
        fd = os.open(path, os.O_WRONLY | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise _trace_error(path, f"cannot open it ({_reason(exc)})") from None
    try:
        if not os.path.samestat(os.fstat(fd), st):
            raise _trace_error(path, "it was replaced while being opened; run again")
        _write_to_fd(fd, records)
    except BrokenPipeError:
        raise  # the pipe's reader went away: main() ends quietly
    except OSError as exc:
        raise _trace_error(path, f"cannot write into it ({_reason(exc)})") from None
    finally:
        os.close(fd)


def _replace_with_trace(path: Path, st: os.stat_result | None, records) -> None:
    """A new file, or an existing regular one that is empty or an earlier trace: write a temp file
    beside it and move that into place, so the old file stays as it was until the new is whole."""
    from game.runs.headless import is_trace

    target = path.resolve()  # through a symbolic link: the link stays, its file is replaced
    if st is None and not target.parent.is_dir():
        raise _trace_error(path, f"folder {quote_path(target.parent)} does not exist")
    mode = None
    if st is not None:
        try:
            with open(target, "rb") as f:
                earlier = is_trace(f)
        except OSError as exc:
            raise _trace_error(path, f"cannot read it to check that it is an earlier trace "
                               f"({_reason(exc)}); nothing was written") from None
        if not earlier:
            raise _trace_error(path, "that file exists and is not a trace written by this "
                               "game; give a new file name (nothing was written)")
        mode = stat.S_IMODE(st.st_mode)
    _remove_stale_temp_files(target.parent)
    # The temp file's name is known before it exists, so a stop at any moment can remove it.
    tmp = target.parent / f".trace-{os.getpid()}-{secrets.token_hex(4)}.jsonl"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            _hold_lock(fd)  # tells a later run's clean-up that this file is in use
            _write_to_fd(fd, records)
            os.chmod(tmp, mode if mode is not None else 0o666 & ~_umask())
            os.fsync(fd)  # the data is on disk before the name points at it
            os.replace(tmp, target)
        finally:
            os.close(fd)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        if isinstance(exc, OSError):  # a full disk, a read-only folder, no permission...
            kept = ("the earlier trace there is unchanged" if st is not None
                    else "nothing was written")
            raise _trace_error(path, f"cannot write the trace ({_reason(exc)}); {kept}") from None
        raise


def _write_to_fd(fd: int, records) -> None:
    """Write the trace through an open descriptor that the caller closes."""
    from game.runs.headless import write_trace

    out = open(fd, "w", encoding="utf-8", closefd=False)
    try:
        write_trace(records, out)
        out.flush()
    finally:
        with contextlib.suppress(OSError):
            out.close()  # after a failed write this drops what is still buffered


def _remove_stale_temp_files(folder: Path) -> None:
    """Remove the temp files of runs stopped outright (SIGKILL, a power cut): named exactly like
    ours, from a process that no longer exists, and not locked by any process (which also covers
    a live writer whose process id this one cannot see). POSIX only: elsewhere nothing is removed.
    """
    if fcntl is None:
        return
    try:
        entries = os.scandir(folder)
    except OSError:
        return
    with entries:
        for entry in entries:
            m = TEMP_NAME.fullmatch(entry.name)
            try:
                if not m or not entry.is_file(follow_symlinks=False) or _alive(int(m[1])):
                    continue
                fd = os.open(entry.path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
            except OSError:
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                os.unlink(entry.path)
            except OSError:
                pass  # in use, or not ours to remove
            finally:
                os.close(fd)


def _hold_lock(fd: int) -> None:
    if fcntl is not None:
        with contextlib.suppress(OSError):  # a file system without locks: the pid check remains
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):  # someone else's process, or not a process id at all
        return True
    return True


def _is_an_input(path: Path, st: os.stat_result | None, protected: list[Path]) -> bool:
    target = path.resolve()
    for p in protected:
        if p.resolve() == target:
            return True
        if st is not None:
            try:
                if os.path.samestat(st, os.stat(p)):  # also a hard link to it
                    return True
            except OSError:
                pass
    return False


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
    return stat.S_ISCHR(st.st_mode) and stat.S_ISCHR(null.st_mode) and st.st_rdev == null.st_rdev


def _kind(st: os.stat_result) -> str:
    mode = st.st_mode
    if stat.S_ISCHR(mode):
        return "character device"
    if stat.S_ISBLK(mode):
        return "block device (a disk)"
    if stat.S_ISSOCK(mode):
        return "socket"
    return "special file"


def _drop_pending(stream) -> None:
    """Point a failed stream at /dev/null, so what is still buffered goes nowhere."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


def _trace_error(path: str | os.PathLike[str], what: str) -> UserError:
    return UserError("command line", f"--trace {quote_path(path)}: {what}")


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def lab(args: argparse.Namespace) -> int:
    from game.runs.lab import lab_main

    if (args.headless or args.level or args.ticks or args.input or args.trace or args.ghosts
            or args.record):
        raise UserError("command line", "--lab runs its own scenario maps; leave out --headless, "
                        "--level, --ticks, --input, --trace, --ghosts and --record")
    cfg = config_mod.load(args.config)
    if args.resolver is not None:
        raise UserError("command line", "--lab runs every resolver; leave out --resolver")
    return lab_main(args.lab, args.out, cfg)


def play(args: argparse.Namespace, s: Setup) -> int:
    from game.sim.inputs import load_script
    from game.view.app import run_app  # the window is imported only when playing

    ticks = parse_ticks(args) if args.ticks is not None else None
    script = load_script(args.input) if args.input else None
    record = None
    if args.record:
        from game.runs.record import Recorder

        record = Recorder.check(args.record, [Path(p) for p in (
            args.input, args.config or config_mod.DEFAULT_CONFIG, s.level_path) if p])
    trace = None
    if args.trace:
        def trace(records, level, _args=args, _s=s):
            write_trace_to(_args.trace, records, trace_protected(_args, _s, level))

    return run_app(s.config, s.level_path, title=s.title, levels_dir=s.levels_dir,
                   store=s.store, script=script, max_ticks=ticks, trace=trace,
                   ghosts=args.ghosts, record=record)


def render_map(args: argparse.Namespace) -> int:
    """--render-map MAP --out PNG [--time SECONDS] (game.view.export)."""
    if args.out is None:
        raise UserError("command line", "--render-map needs --out PATH.png, the picture to write")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from game.view.export import export, parse_time

    seconds = parse_time(args.time)
    cfg = config_mod.load(args.config)
    out = export(Path(args.render_map), Path(args.out), seconds,
                 (cfg.player.width, cfg.player.height))
    print(f"wrote {out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    try:
        args = make_parser().parse_args(argv)
        if args.list_resolvers:
            return list_resolvers()
        if args.render_map is not None and args.lab is not None:
            raise UserError("command line", "--render-map and --lab are separate runs; give one")
        if args.lab is not None:
            return lab(args)
        if args.render_map is not None:
            return render_map(args)
        if args.time is not None:
            raise UserError("command line", "--time goes with --render-map")
        if args.out is not None:
            raise UserError("command line", "--out goes with --lab or --render-map")
        if args.headless and args.record:
            raise UserError("command line", "--record is for the window; leave out --headless "
                            "(a headless run's keys are its --input script already)")
        if args.headless and args.ticks is None:
            raise UserError("command line", "--headless needs --ticks N")
        s = setup(args)
        return headless(args, s) if args.headless else play(args, s)
    except UserError as exc:
        print(exc.line(), file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader of the trace went away (e.g. `| head`): stop quietly.
        if sys.stdout is not None:
            _drop_pending(sys.stdout)
        return 0
