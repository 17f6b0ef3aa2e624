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

Nothing here opens a window: the picture is drawn on plain pygame surfaces.
"""

from __future__ import annotations

import io
import json
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from game import resolvers
from game.config import Config, with_map_properties
from game.errors import UserError, quote_path, quoted
from game.runs.files import replace_files
from game.runs.headless import run
from game.sim.inputs import InputScript, parse_script
from game.maps.grid import EMPTY, ONE_WAY, SLOPE, SOLID, TileGrid
from game.maps.level import Level, load_level
from game.sim.world import World

MAX_TICKS = 100_000  # a scenario is a few seconds; this bounds a user's map to about a minute
DEFAULT_OUT = "lab-results"
MARK = "<!-- written by tilecollide --lab -->"  # first line of lab.md: ours to replace
JSON_KIND = "tilecollide-lab"
FILES = ("lab.md", "lab.json", "lab.png")

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
    resolver = resolvers.create(name, cfg.resolver_options(name))
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


# ----------------------------------------------------------------------------------------------
# Reporting
# ----------------------------------------------------------------------------------------------

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


def table(results) -> str:
    """The Markdown table: one row per scenario, one column per resolver."""
    names = [o.resolver for o in results[0][1]] if results else resolvers.names()
    lines = ["| scenario | goal expected | measures | " + " | ".join(f"`{n}`" for n in names)
             + " |", "|---|---|---|" + "---|" * len(names)]
    for s, outcomes in results:
        lines.append(f"| {s.name} | {'yes' if s.expect_goal else 'no'} | {s.measure} | "
                     + " | ".join(cell(o, s.measure) for o in outcomes) + " |")
    return "\n".join(lines) + "\n"


def markdown(results) -> str:
    parts = [MARK, "", "# Collision lab", "",
             "Every resolver through every scenario, headless, with the default options. ✓: "
             "the goal was reached exactly when the scenario expects it (as a solid box that "
             "neither snags nor slips would); ✗: not. The figure is what the scenario measures.",
             "", table(results), "## The scenarios", ""]
    for s, _ in results:
        parts += [f"* **{s.name}** ({s.title}; `{_shown(s.path)}`, {s.ticks} ticks). "
                  f"{s.about or ''} Goal expected: {'yes' if s.expect_goal else 'no'}. "
                  f"Measures `{s.measure}`: {MEASURES[s.measure]}."]
    parts += ["", "## The measures", ""] + [f"* `{k}`: {v}." for k, v in MEASURES.items()]
    return "\n".join(parts) + "\n"


def _shown(path: Path) -> str:
    """A path relative to the current folder when it is under it (so results read the same in
    any clone), else as given."""
    try:
        return quote_path(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return quote_path(path)


def as_json(results) -> dict:
    return {"kind": JSON_KIND, "version": 1, "resolvers": resolvers.names(),
            "measures": MEASURES,
            "scenarios": [{"name": s.name, "file": _shown(s.path), "title": s.title,
                           "about": s.about, "ticks": s.ticks, "expect_goal": s.expect_goal,
                           "measure": s.measure,
                           "results": {o.resolver: {"goal": o.goal, "ok": o.ok,
                                                    "figure": o.figure} for o in outcomes}}
                          for s, outcomes in results]}


# lab.png stays bounded whatever the maps: a panel shows a map at SCALE when that fits in
# PANEL_PX on both sides; a larger map is cropped to the paths and goals (with MARGIN_TILES of
# map round them) and scaled down until it fits. Panels go THREE to a row, and rows stop before the
# picture is IMAGE_MAX_H tall (the rest are in lab.md and lab.json): at most about 2,000 x 6,700
# px, some 55 MB while it is drawn, however large or many the maps.
SCALE, PANEL_PX, MARGIN_TILES, THREE, IMAGE_MAX_H = 2, 640, 4, 3, 6000
DETAIL_PX = 3  # tiles drawn at least this many px wide get their shapes; smaller ones, a dot each


@dataclass(frozen=True)
class View:
    """The part of a map a panel shows: its top-left (x, y) and size in map px, and the scale."""

    x: float
    y: float
    w: float
    h: float
    scale: float

    @property
    def size(self) -> tuple[int, int]:
        return max(1, math.ceil(self.w * self.scale)), max(1, math.ceil(self.h * self.scale))


def view_of(s: Scenario, outcomes: Sequence[Outcome]) -> View:
    """The whole map at SCALE if it fits in PANEL_PX; else the paths and goals, cropped and
    scaled down to fit."""
    g = s.level.grid
    if g.width_px * SCALE <= PANEL_PX and g.height_px * SCALE <= PANEL_PX:
        return View(0.0, 0.0, g.width_px, g.height_px, SCALE)
    boxes = [b for o in outcomes for b in o.path] + [(r.x, r.y, r.w, r.h) for r in s.level.goals]
    mx, my = MARGIN_TILES * g.tile_w, MARGIN_TILES * g.tile_h
    x0 = max(0.0, min(x for x, _, _, _ in boxes) - mx)
    y0 = max(0.0, min(y for _, y, _, _ in boxes) - my)
    x1 = min(float(g.width_px), max(x + w for x, _, w, _ in boxes) + mx)
    y1 = min(float(g.height_px), max(y + h for _, y, _, h in boxes) + my)
    w, h = max(x1 - x0, 1.0), max(y1 - y0, 1.0)
    return View(x0, y0, w, h, min(SCALE, PANEL_PX / w, PANEL_PX / h))


def draw(results):
    """lab.png: one panel per scenario, the map's tile kinds and each resolver's path over it
    (bounded: see PANEL_PX)."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    pygame.font.init()
    font = pygame.font.Font(None, 20)
    pad, head, legend_h = 10, 60, 36
    views = [view_of(s, outcomes) for s, outcomes in results]
    sizes = [v.size for v in views]
    cw = max([w for w, _ in sizes] + [340]) + 2 * pad
    row_h: list[int] = []
    for r in range(max(1, -(-len(results) // THREE))):
        h = max((h for _, h in sizes[r * THREE:(r + 1) * THREE]), default=0) + head + pad
        if row_h and legend_h + sum(row_h) + h > IMAGE_MAX_H:
            break
        row_h.append(h)
    shown = min(len(results), len(row_h) * THREE)
    row_y = [sum(row_h[:r]) for r in range(len(row_h))]
    labels = [font.render(name, True, resolvers.colour(name)) for name in resolvers.names()]
    note = "path of the body's centre; box: where it ended; yellow: goal"
    if shown < len(results):
        note += f"; the first {shown} of {len(results)} scenarios (lab.md has them all)"
    note_text = font.render(note, True, (200, 200, 200))
    legend_w = pad + sum(54 + label.get_width() for label in labels) + 10 + note_text.get_width()
    img = pygame.Surface((max(cw * min(THREE, max(1, len(results))), legend_w + pad),
                          legend_h + sum(row_h)))
    img.fill((24, 26, 34))
    x = pad
    for name, label in zip(resolvers.names(), labels):
        pygame.draw.line(img, resolvers.colour(name), (x, 18), (x + 24, 18), 3)
        img.blit(label, (x + 30, 10))
        x += 54 + label.get_width()
    img.blit(note_text, (x + 10, 10))
    for i in range(shown):
        (s, outcomes), v = results[i], views[i]
        ox, oy = (i % THREE) * cw + pad, legend_h + row_y[i // THREE]
        cropped = "" if v.w * v.h == s.level.grid.width_px * s.level.grid.height_px else (
            f"; cropped, 1:{1 / v.scale:.3g}" if v.scale < 1 else "; cropped")
        img.blit(font.render(f"{s.name}", True, (240, 240, 240)), (ox, oy + 2))
        img.blit(font.render(f"goal {'expected' if s.expect_goal else 'not expected'}; "
                             f"{s.measure}{cropped}", True, (170, 170, 170)), (ox, oy + 20))
        oy += head
        img.blit(_panel(pygame, s, outcomes, v), (ox, oy))
        x = ox
        for o in outcomes:  # the verdicts, each in its resolver's colour
            text = font.render(f"{o.resolver} {'ok' if o.ok else 'WRONG'}", True,
                               resolvers.colour(o.resolver))
            img.blit(text, (x, oy - 20))
            x += text.get_width() + 10
    return img


def _panel(pygame, s: Scenario, outcomes: Sequence[Outcome], v: View):
    """One scenario's map (the part ``v`` shows) with every resolver's path over it."""
    panel = pygame.Surface(v.size)
    panel.fill((50, 56, 72))
    _draw_tiles(pygame, panel, s.level.grid, v)
    sc = v.scale
    for goal in s.level.goals:
        pygame.draw.rect(panel, (255, 210, 60), ((goal.x - v.x) * sc, (goal.y - v.y) * sc,
                                                 goal.w * sc, goal.h * sc), 2)
    for n, o in enumerate(outcomes):
        colour = resolvers.colour(o.resolver)
        shift = (n - len(outcomes) // 2)  # a px apart, so equal paths stay visible
        pts = [((x + w_ / 2 - v.x) * sc + shift, (y + h_ / 2 - v.y) * sc + shift)
               for x, y, w_, h_ in o.path]
        if len(pts) > 1:
            pygame.draw.lines(panel, colour, False, pts, 1)
        x, y, w_, h_ = o.path[-1]
        pygame.draw.rect(panel, colour, ((x - v.x) * sc, (y - v.y) * sc, max(1.0, w_ * sc),
                                         max(1.0, h_ * sc)), 1)
    return panel


TILE_COLOURS = {ONE_WAY: (170, 120, 60), SLOPE: (140, 140, 150), SOLID: (140, 140, 150)}


def _draw_tiles(pygame, panel, g: TileGrid, v: View) -> None:
    """The tiles in view: with their shapes when large enough, else one pixel a tile scaled."""
    sc = v.scale
    c0, c1 = math.floor(v.x / g.tile_w), min(g.cols, math.ceil((v.x + v.w) / g.tile_w))
    r0, r1 = math.floor(v.y / g.tile_h), min(g.rows, math.ceil((v.y + v.h) / g.tile_h))
    tw, th = g.tile_w * sc, g.tile_h * sc
    if min(tw, th) < DETAIL_PX:
        cells = b"".join(g.kinds[r * g.cols + c0:r * g.cols + c1] for r in range(r0, r1))
        dots = pygame.image.frombytes(cells, (c1 - c0, r1 - r0), "P")
        dots.set_palette([(50, 56, 72)] + [TILE_COLOURS.get(k, (50, 56, 72)) for k in (1, 2, 3)]
                         + [(0, 0, 0)] * 252)
        size = (max(1, round((c1 - c0) * tw)), max(1, round((r1 - r0) * th)))
        panel.blit(pygame.transform.scale(dots, size),
                   ((c0 * g.tile_w - v.x) * sc, (r0 * g.tile_h - v.y) * sc))
        return
    for row in range(r0, r1):
        for col in range(c0, c1):
            k = g.kind(col, row)
            if k == EMPTY:
                continue
            x0, y0 = (col * g.tile_w - v.x) * sc, (row * g.tile_h - v.y) * sc
            if k == ONE_WAY:
                pygame.draw.rect(panel, TILE_COLOURS[ONE_WAY], (x0, y0, tw, max(2, th // 4)))
            elif k == SLOPE:
                left, right = g.slope_heights(col, row)
                pygame.draw.polygon(panel, TILE_COLOURS[SLOPE], [
                    (x0, y0 + th), (x0, y0 + th - left * sc),
                    (x0 + tw, y0 + th - right * sc), (x0 + tw, y0 + th)])
            else:
                pygame.draw.rect(panel, TILE_COLOURS[SOLID], (x0, y0, tw, th))
                pygame.draw.rect(panel, (110, 110, 120), (x0, y0, tw, th), 1)


def _ours(folder: Path) -> dict[str, bool]:
    """Which of the lab's files in ``folder`` may be replaced: absent, or written by the lab."""
    def md_ok(p: Path) -> bool:
        with open(p, encoding="utf-8", errors="replace") as f:
            return f.readline().rstrip("\n") == MARK

    def json_ok(p: Path) -> bool:
        try:
            with open(p, encoding="utf-8") as f:
                return json.load(f).get("kind") == JSON_KIND
        except (ValueError, AttributeError):
            return False

    ok = {}
    for name, check in (("lab.md", md_ok), ("lab.json", json_ok)):
        p = folder / name
        ok[name] = not p.exists() or (p.is_file() and check(p))
    png = folder / "lab.png"
    # A picture cannot say who drew it: replaced only beside a lab.json the lab wrote.
    ok["lab.png"] = not png.exists() or (png.is_file() and (folder / "lab.json").is_file()
                                         and ok["lab.json"])
    return ok


def write_results(results, out: Path) -> list[Path]:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    if out.exists() and not out.is_dir():
        raise UserError(out, "--out must be a folder, and this is a file; give a folder")
    if out.is_dir():
        refused = [n for n, ok in _ours(out).items() if not ok]
        if refused:
            raise UserError(out / refused[0], "exists and was not written by --lab; move it, or "
                            "give another --out folder (nothing was written)")
    # Everything is made in memory first, then the three files replace the old ones together
    # (game.runs.files): a failure anywhere leaves the folder as it was.
    md = markdown(results).encode("utf-8")
    data = (json.dumps(as_json(results), indent=1, ensure_ascii=False) + "\n").encode("utf-8")
    try:
        png = io.BytesIO()
        pygame.image.save(draw(results), png, "lab.png")
    except (pygame.error, MemoryError) as exc:
        raise UserError(out, f"cannot draw lab.png ({exc}); nothing was written") from None
    written = [out / name for name in FILES]
    try:
        out.mkdir(parents=True, exist_ok=True)
        replace_files(list(zip(written, (md, data, png.getvalue()))), ".lab-")
    except OSError as exc:
        raise UserError(out, f"cannot write the lab's results ({exc.strerror or exc}); the "
                        "folder is as it was") from None
    return written


def lab_main(targets: Sequence[str], out: str | None, cfg: Config) -> int:
    """``--lab [DIR_OR_FILES...] [--out DIR]``: run, write the three files, print a summary."""
    paths = scenario_paths(targets or [str(default_folder())])
    results = run_lab(paths, cfg)
    written = write_results(results, Path(out if out is not None else DEFAULT_OUT))
    ok = sum(o.ok for _, outcomes in results for o in outcomes)
    total = sum(len(outcomes) for _, outcomes in results)
    n = len(results)
    print(f"lab: {n} scenario{'s' if n != 1 else ''} x {len(resolvers.names())} resolvers, "
          f"{ok}/{total} as expected; wrote " + ", ".join(str(p) for p in written))
    return 0


def default_folder() -> Path:
    return Path(__file__).resolve().parents[2] / "levels" / "lab"
