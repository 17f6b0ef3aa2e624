"""The collision lab: every resolver through small scenario maps, with a verdict and a figure each.

A scenario is a Tiled map (``levels/lab/*.tmx``, or any a user writes in the same form; see
docs/levels.md, "Writing a lab scenario") whose map properties say what to do and what to expect:

* ``script`` (multi-line string): the input script, as ``--input`` reads it;
* ``ticks`` (int): how many ticks to run, 1 to ``MAX_TICKS``;
* ``expect_goal`` (bool, default true): whether reaching the ``goal`` object is the right outcome
  for a solid box that neither snags nor slips;
* ``measure`` (string, default ``goal_tick``): the figure reported, one of :data:`MEASURES`;
* ``about`` (string, optional): one sentence saying what the scenario shows.

The defaults are those of the class ``lab_scenario`` in ``levels/tilecollide.tiled-project``
(Tiled does not save a class member left at its default). Each scenario runs once per resolver,
headless (:func:`game.runs.headless.run`), and its verdict and figure are computed from the trace
records alone (:func:`judge`), so a ``--trace`` run of the same map and script gives the same.

The lab in three parts: this module finds, runs and judges the scenarios;
:mod:`game.runs.lab_report` writes ``lab.md`` and ``lab.json`` (and the three files together);
:mod:`game.view.lab_picture` draws ``lab.png``. ``main.py --lab`` (``game.cli``) runs them in turn.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from game import resolvers
from game.config import Config, with_map_properties
from game.errors import UserError, quoted
from game.runs.headless import run
from game.sim.inputs import InputScript, parse_script
from game.maps.level import Level, load_level
from game.sim.world import World

MAX_TICKS = 100_000  # a scenario is a few seconds; this bounds a user's map to about a minute

# What a scenario may measure, each computed from the trace alone (see :func:`judge`).
MEASURES = {
    "goal_tick": "the tick on which the goal was first reached (the trace event 'goal'); "
                 "'never' if it was not",
    "stuck_ticks": "ticks, until the goal, on which left or right was held and x did not change "
                   "from the tick before (the first tick compares with the start)",
    "landing_tick": "the first tick on the ground after at least one tick in the air; 'never' "
                    "if the body never landed",
    "bump_px": "the most the body rose (px) on a tick it landed while falling: a strict box never "
               "rises as it lands, so anything above 0 is a ledge bump",
    "drift_px": "the farthest the body got sideways (px) from where it started",
    "rise_px": "how far (px) the body's top got above where it started",
    "air_ticks": "ticks, until the goal, on which the body was not on the ground",
}
COUNT_MEASURES = {"stuck_ticks", "air_ticks"}
TICK_MEASURES = {"goal_tick", "landing_tick"}
# Class lab_scenario's defaults (levels/tilecollide.tiled-project).
DEFAULT_EXPECT_GOAL = True
DEFAULT_MEASURE = "goal_tick"


@dataclass(frozen=True)
class Scenario:
    path: Path
    name: str  # the file's stem
    title: str
    about: str
    level: Level
    script: InputScript
    ticks: int
    expect_goal: bool
    measure: str


@dataclass(frozen=True)
class Outcome:
    resolver: str
    goal: bool
    ok: bool  # goal == expect_goal
    figure: float | int | None  # None: the event measured never happened
    path: tuple[tuple[float, float, float, float], ...]  # (x, y, w, h) at the start and per tick


# ----------------------------------------------------------------------------------------------
# Finding and reading scenarios
# ----------------------------------------------------------------------------------------------

def scenario_paths(args: Sequence[str]) -> list[Path]:
    """The .tmx files named, folders giving their own ``*.tmx`` (not their sub-folders)."""
    found: list[Path] = []
    for arg in args:
        p = Path(arg)
        if p.is_dir():
            maps = sorted(q for q in p.glob("*.tmx") if q.is_file())
            if not maps:
                raise UserError(p, "this folder has no scenario maps (.tmx); add one, or name "
                                "the .tmx files (docs/levels.md, 'Writing a lab scenario')")
            found += maps
        elif not p.exists():
            raise UserError(p, "not found; give a scenario map (.tmx) or a folder of them")
        else:
            found.append(p)
    return found


def load_scenario(path: Path, cfg: Config) -> tuple[Scenario, Config]:
    """A scenario map and the config its physics runs with (the map's [physics] overrides)."""
    level = load_level(path, (cfg.player.width, cfg.player.height))
    props = level.properties
    if not level.goals:
        raise UserError(path, "a lab scenario needs an object of class 'goal' (what the body "
                        "should, or should not, reach); add one in Tiled")
    script_text = props.get("script")
    if not isinstance(script_text, str) or not script_text.strip():
        raise UserError(path, "a lab scenario needs a map property 'script' (multi-line string): "
                        "the input script, lines '<tick> <keys>' like '0 right'; add it in Map > "
                        "Map Properties")
    try:
        script = parse_script(io.StringIO(script_text), path)
    except UserError as exc:
        raise UserError(path, f"map property 'script': {exc.message}") from None
    ticks = props.get("ticks")
    if type(ticks) is not int or not 1 <= ticks <= MAX_TICKS:
        raise UserError(path, f"map property 'ticks' must be an int from 1 to {MAX_TICKS:,}, "
                        f"not {quoted(ticks)}; set it in Map > Map Properties")
    expect = props.get("expect_goal", DEFAULT_EXPECT_GOAL)
    if type(expect) is not bool:
        raise UserError(path, f"map property 'expect_goal' must be a bool, not {quoted(expect)}")
    measure = props.get("measure", DEFAULT_MEASURE)
    if measure not in MEASURES:
        raise UserError(path, f"map property 'measure' is {quoted(measure)}; use one of "
                        + ", ".join(MEASURES))
    about = props.get("about", "")
    scenario = Scenario(path, path.stem, str(props.get("title") or path.stem), str(about), level,
                        script, ticks, expect, measure)
    return scenario, with_map_properties(cfg, props, path)


# ----------------------------------------------------------------------------------------------
# Running and judging
# ----------------------------------------------------------------------------------------------

def judge(records: Sequence[dict], start: tuple[float, float], script: InputScript,
          measure: str, expect_goal: bool) -> tuple[bool, bool, float | int | None]:
    """(goal reached, verdict, figure) from a run's trace records alone.

    ``start`` is the body's top-left before the first tick. See :data:`MEASURES`.
    """
    goal_tick = next((r["tick"] for r in records if "goal" in r["events"]), None)
    goal = goal_tick is not None
    end = goal_tick if goal else len(records)  # "until the goal"
    if measure == "goal_tick":
        figure = goal_tick
    elif measure == "stuck_ticks":
        figure, px = 0, start[0]
        for r in records[:end]:
            held = script.held_at(r["tick"])
            if held.left != held.right and r["x"] == px:
                figure += 1
            px = r["x"]
    elif measure == "landing_tick":
        figure, airborne = None, False
        for r in records:
            if not r["on_ground"]:
                airborne = True
            elif airborne:
                figure = r["tick"]
                break
    elif measure == "bump_px":
        figure = 0.0
        for a, b in zip(records, records[1:]):
            if b["on_ground"] and not a["on_ground"] and a["vy"] > 0:
                figure = max(figure, a["y"] - b["y"])
        figure = round(figure, 2)
    elif measure == "drift_px":
        figure = round(max((abs(r["x"] - start[0]) for r in records), default=0.0), 2)
    elif measure == "rise_px":
        figure = round(max(0.0, start[1] - min((r["y"] for r in records), default=start[1])), 2)
    elif measure == "air_ticks":
        figure = sum(1 for r in records[:end] if not r["on_ground"])
    else:
        raise ValueError(f"unknown measure {measure!r}")
    return goal, goal == expect_goal, figure


def run_scenario(scenario: Scenario, cfg: Config, name: str) -> Outcome:
    # the lesson class: what the lab measures is the article's code as the module teaches it
    # (a fast twin gives the same answers; tests/test_resolver_fast.py holds it to that)
    resolver = resolvers.create(name, cfg.resolver_options(name), lesson=True)
    world = World(scenario.level, cfg.physics, resolver)
    p = world.player
    start = (p.x, p.y)
    size = (p.w, p.h)
    records = list(run(world, scenario.script.frames(scenario.ticks)))
    goal, ok, figure = judge(records, start, scenario.script, scenario.measure,
                             scenario.expect_goal)
    path = ((*start, *size),) + tuple(
        (r["x"], r["y"], r["w"], r["h"]) for r in records if not r["respawning"])
    return Outcome(name, goal, ok, figure, path)


def run_lab(paths: Sequence[Path], cfg: Config) -> list[tuple[Scenario, list[Outcome]]]:
    scenarios = [load_scenario(p, cfg) for p in paths]  # every file checked before any run
    return [(s, [run_scenario(s, c, name) for name in resolvers.names()]) for s, c in scenarios]


def figure_text(measure: str, figure) -> str:
    if figure is None:
        return "never"
    if measure in COUNT_MEASURES:
        return f"{figure} tick{'s' if figure != 1 else ''}"
    if measure in TICK_MEASURES:
        return f"tick {figure}"
    return f"{figure:g} px"


def cell(o: Outcome, measure: str) -> str:
    return f"{'✓' if o.ok else '✗'} {figure_text(measure, o.figure)}"


def default_folder() -> Path:
    return Path(__file__).resolve().parents[2] / "levels" / "lab"
