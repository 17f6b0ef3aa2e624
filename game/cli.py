"""The command line: play in a window, run headless with a trace, or list the resolvers.

Every mistake a user can make (a bad config, map, input script or option) ends with exit code 2
and one line on stderr that starts with ``error:``, names the file and says what to change.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass, replace
from pathlib import Path

from game import config as config_mod
from game import resolvers
from game.runs import settings as settings_mod
from game.errors import UserError, print_note, quoted

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
    from game.runs.headless import run, run_ghosts, write_trace_to
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


def lab(args: argparse.Namespace) -> int:
    """``--lab [DIR_OR_FILES...] [--out DIR]``: run and judge every scenario (game.runs.lab), draw
    the picture (game.view.lab_picture), write the three files (game.runs.lab_report) and print a
    summary."""
    if (args.headless or args.level or args.ticks or args.input or args.trace or args.ghosts
            or args.record):
        raise UserError("command line", "--lab runs its own scenario maps; leave out --headless, "
                        "--level, --ticks, --input, --trace, --ghosts and --record")
    cfg = config_mod.load(args.config)
    if args.resolver is not None:
        raise UserError("command line", "--lab runs every resolver; leave out --resolver")
    from game.runs.lab import default_folder, run_lab, scenario_paths
    from game.runs.lab_report import DEFAULT_OUT, write_results

    paths = scenario_paths(args.lab or [str(default_folder())])
    results = run_lab(paths, cfg)
    out = Path(args.out if args.out is not None else DEFAULT_OUT)
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from game.view.lab_picture import png_of

    written = write_results(results, out, png_of(results, out))
    ok = sum(o.ok for _, outcomes in results for o in outcomes)
    total = sum(len(outcomes) for _, outcomes in results)
    n = len(results)
    print(f"lab: {n} scenario{'s' if n != 1 else ''} x {len(resolvers.names())} resolvers, "
          f"{ok}/{total} as expected; wrote " + ", ".join(str(p) for p in written))
    return 0


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
        from game.runs.headless import write_trace_to

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
            from game.runs.headless import drop_pending

            drop_pending(sys.stdout)
        return 0
