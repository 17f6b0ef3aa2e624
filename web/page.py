"""The Python side of the web page (``web/index.html``): the game's own simulation, unchanged,
stepped for a drawing layer written in JavaScript.

The page runs this module in Pyodide (Python compiled to WebAssembly) on the very files of
``game/`` that the desktop game runs; nothing about collision is written again in JavaScript.
This module only calls the project's public functions and hands plain data (JSON text) across:

* :func:`resolver_list`: each resolver's colour, one-line summary and article
  (``game.resolvers.describe``);
* :func:`catalogue`: the maps a page offers, with their titles, and the maps it cannot read
  (used by ``tools/build_web.py`` when it builds the page);
* :class:`Session`: one level with every resolver side by side, exactly as ``main.py --headless
  --ghosts`` runs it (:func:`game.sim.world.load_world`, :class:`game.sim.ghosts.Comparison`),
  fed the keys the page reads or an input script; after each tick it can give what the page
  draws (:meth:`Session.state`) and the trace lines ``--trace`` writes (:meth:`Session.trace`);
* :func:`lab_row`: the collision lab's verdicts for one scenario (``game.runs.lab``).

Everything runs under CPython too: the tests hold it to the command line's own output.
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from game import config as config_mod
from game import resolvers
from game.errors import UserError, note_line, quoted
from game.maps.art import key as art_key
from game.maps.grid import SLOPE
from game.maps.level import load_level
from game.runs import lab
from game.runs.headless import trace_record, write_trace
from game.runs.record import script_text
from game.sim.ghosts import Comparison, push_out
from game.sim.inputs import KEY_NAMES, Held, InputScript, InputSequencer, parse_script
from game.sim.world import World, load_world

# The page sends the keys held on a tick as one number: bit i is KEY_NAMES[i].
KEY_BITS = {name: 1 << i for i, name in enumerate(KEY_NAMES)}
LINK = "link"  # how an error line names the page's address (its ?level=...&ticks=...)
SCRIPT_NAME = "link's input"  # how an error line names a link's input script (its input=...)
MAX_LINK_TICKS = 36_000  # ten minutes at 60 ticks a second; its trace is some 45 MB


def held_from_bits(bits: int) -> Held:
    return Held(**{name: bool(bits & bit) for name, bit in KEY_BITS.items()})


def resolver_list() -> list[dict]:
    """Every resolver in ``--list-resolvers`` order, as the page shows it."""
    out = []
    for name in resolvers.names():
        d = resolvers.describe(name)
        a = d["article"]
        out.append({"name": name, "colour": list(resolvers.colour(name)),
                    "summary": d["summary"], "axis_order": d["axis_order"],
                    "slopes": d["slopes"],
                    "article": {"title": a.title, "author": a.author, "year": a.year,
                                "url": a.url}})
    return out


def catalogue(paths: Iterable[Path], root: Path) -> dict:
    """The maps named, as the page lists them: each readable one's path (relative to ``root``),
    title and, for a lab scenario, what it shows; each unreadable one as its ``error:`` line."""
    cfg = config_mod.load()
    maps, unreadable = [], []
    for path in paths:
        shown = Path(os.path.relpath(path, root)).as_posix()
        try:
            level = load_level(path, (cfg.player.width, cfg.player.height))
        except UserError as exc:
            unreadable.append({"path": shown, "error": exc.line()})
            continue
        scenario = "script" in level.properties and bool(level.goals)
        maps.append({"path": shown, "title": level.title, "lab": scenario,
                     "about": str(level.properties.get("about", "")) if scenario else ""})
    return {"maps": maps, "unreadable": unreadable}


class Session:
    """One level, every resolver side by side, as ``--headless --ghosts`` runs it.

    ``you`` is the resolver the page follows and draws solid; the others are its ghosts. Which
    one it is changes nothing about any world (each runs alone, see ``game.sim.ghosts``): only
    where the partings are measured from.
    """

    def __init__(self, path: str, you: str | None = None, tracing: bool = False) -> None:
        self.cfg = config_mod.load()
        self.notes: list[str] = []
        cfg = self.cfg
        world = load_world(path, cfg, resolvers.create(cfg.resolver,
                                                      cfg.resolver_options(cfg.resolver)),
                           notes=self.notes.append)
        self.level, self.physics = world.level, world.physics
        self.you = you if you in resolvers.REGISTRY else cfg.resolver
        self.tracing = tracing
        self.script: InputScript | None = None
        self._start(Comparison.create(self.level, self.physics, cfg, player=world))

    def _start(self, comparison: Comparison) -> None:
        self.comparison = comparison
        self.sequencer = InputSequencer()
        self.held: list[Held] = []  # the keys of every tick since the start
        self._trace = io.StringIO()

    def restart(self) -> None:
        """Every world from the spawn again; the keys, the script and the trace start again."""
        self.script = None
        self._start(Comparison.create(self.level, self.physics, self.cfg))

    def play_script(self, text: str) -> None:
        """Take the keys from this input script (the game's format, its ticks counted from the
        start) until :meth:`step` is given keys; a bad script raises UserError naming the
        link's input. Call it on a new or restarted session, as a replay starts at tick 0."""
        self.script = parse_script(io.StringIO(text), SCRIPT_NAME)

    @property
    def tick(self) -> int:
        return len(self.held)

    def world(self, name: str) -> World:
        return self.comparison.world(name)

    def set_you(self, name: str) -> None:
        self.you = name
        self.comparison.parted = dict.fromkeys(self.comparison.parted)

    def step(self, keys: int | None = None) -> None:
        """One tick of every world with the same input: the keys held (bits of KEY_NAMES), or,
        with None, the script's keys for this tick. Keys given end the script (a take-over)."""
        if keys is None and self.script is not None:
            held = self.script.held_at(self.tick)
        else:
            self.script = None
            held = held_from_bits(keys or 0)
        self.held.append(held)
        self.comparison.step(self.sequencer.frame(held))
        self.comparison.track_parting(self.world(self.you))
        if self.tracing:
            write_trace([trace_record(w) for w in self.comparison.worlds], self._trace)

    def steps(self, n: int) -> None:
        """``n`` ticks of the script (a replay run as fast as it goes)."""
        for _ in range(n):
            self.step()

    def trace(self) -> str:
        """The trace since the start, exactly as ``--headless --ghosts --trace`` writes it."""
        return self._trace.getvalue()

    def recording(self) -> str:
        """The keys of every tick since the start, as an input script (``--record``'s form)."""
        return script_text([], self.held)

    # --- what the page draws ---------------------------------------------------------------

    def level_data(self, root: str = ".") -> str:
        """The level as the page draws it (JSON): the grid's tile kinds, the tile layers with
        their pictures (files relative to ``root``), goals, coins, checkpoints, switches and
        doors, and the notes the loader made."""
        lv, g = self.level, self.level.grid
        feat = lv.features

        def rel(source: str) -> str:
            return Path(os.path.relpath(os.path.abspath(source), os.path.abspath(root))).as_posix()

        def box(b) -> list[float]:
            return [b.x, b.y, b.w, b.h]

        frames = lv.view.art.frames if lv.view.art is not None else {}
        tiles, anims = {}, {}
        for gid, t in lv.view.tiles.items():
            tiles[gid] = [rel(t.source), list(t.rect), t.flip_h, t.flip_v, t.flip_d,
                          list(t.size) if t.size else None]
            anim = frames.get(art_key(t.source, t.rect))
            if anim:
                anims[gid] = [[rel(src), list(rect) if rect else None, ms]
                              for src, rect, ms in anim]
        slopes = {}
        for i, kind in enumerate(g.kinds):
            if kind == SLOPE:
                row, col = divmod(i, g.cols)
                slopes[i] = list(g.slope_heights(col, row))
        return json.dumps({
            "path": Path(os.path.relpath(lv.path, root)).as_posix(), "title": lv.title,
            "cols": g.cols, "rows": g.rows, "tw": g.tile_w, "th": g.tile_h,
            "kinds": list(g.kinds), "slopes": slopes,
            "layers": [{"name": la.name, "visible": la.visible, "opacity": la.opacity,
                        "offset": list(la.offset), "front": la.in_front, "door": la.door,
                        "gids": [gid for row in la.gids for gid in row]} for la in lv.view.layers],
            "tiles": tiles, "anims": anims,
            "offsets": {gid: list(o) for gid, o in lv.view.tile_offsets.items()},
            "background": list(lv.view.background) if lv.view.background else None,
            "backdrop": lv.view.backdrop, "goals": [box(r) for r in lv.goals],
            "coins": [[c.id, *box(c.box)] for c in feat.coins],
            "checkpoints": [[c.id, *box(c.box)] for c in feat.checkpoints],
            "switches": [[s.id, s.mode, *box(s.box)] for s in feat.switches],
            "doors": {name: sorted(d.cells) for name, d in feat.doors.items()},
            "notes": [note_line(n) for n in self.notes],
            "tick_rate": self.physics.tick_rate,
            "max_frame_time": self.cfg.display.max_frame_time,
            "max_ticks_per_frame": self.cfg.display.max_ticks_per_frame})

    def state(self, debug: bool = False, view: Sequence[float] = (0, 0, 1e9, 1e9)) -> str:
        """What the page draws after a tick (JSON): every world's player (where it was a tick
        ago too, for the blend), its push-out and where it parted from yours; with ``debug`` the
        cells each probed and your contacts; your world's walkers inside ``view`` (x0, y0, x1,
        y1 in map px), platforms, spears and progress (coins, checkpoint, switches, doors)."""
        c = self.comparison
        bodies = []
        for w in c.worlds:
            p = w.player
            parted = c.parted.get(w.resolver.name)
            rec = {"name": w.resolver.name, "x": p.x, "y": p.y, "w": p.w, "h": p.h,
                   "px": w.prev[0], "py": w.prev[1], "vx": p.vx, "vy": p.vy,
                   "facing": p.facing, "ground": p.on_ground, "respawning": p.respawning,
                   "goal": w.goal_reached, "events": w.events,
                   "parted": None if parted is None else [parted.tick, *parted.ghost_xy],
                   "push": push_out(w)}
            if debug:
                contacts = p.contacts
                rec["probed"] = sorted(set(contacts.probed))
                rec["contacts"] = [contacts.on_ground, contacts.hit_ceiling, contacts.hit_left,
                                   contacts.hit_right]
            bodies.append(rec)
        you = self.world(self.you)
        x0, y0, x1, y1 = view
        walkers = [[k.x, k.y, k.w, k.h, k.prev_x, k.prev_y, k.facing] for k in you.walkers
                   if not k.fallen and k.x + k.w >= x0 and k.x <= x1 and k.y + k.h >= y0
                   and k.y <= y1]
        flow = you.flow
        return json.dumps({
            "tick": self.tick, "you": self.you, "replaying": self.script is not None,
            "worlds": bodies, "walkers": walkers,
            "walkers_total": len(you.walkers),
            "platforms": [[q.x, q.y, q.w, q.h, q.prev_x, q.prev_y, q.one_way]
                          for q in you.platforms],
            "spears": [[s.x, s.y, s.w, s.h, s.vx, s.vy, s.facing, s.prev_x, s.prev_y]
                       for s in you.spears if s.state],
            "coins_taken": sorted(flow.coins), "checkpoint": flow.checkpoint,
            "levers": [i for i, on in flow.levers.items() if on],
            "touching": sorted(flow.touching),
            "doors_open": dict(flow.doors_open)})


def lab_row(path: str) -> dict:
    """The collision lab's row for one scenario: what it shows, what it measures, and each
    resolver's verdict and figure, as ``--lab`` writes them in ``lab.md``."""
    ((s, outcomes),) = lab.run_lab([Path(path)], config_mod.load())
    return {"name": s.name, "title": s.title, "about": s.about, "ticks": s.ticks,
            "script": _script_of(s.level), "expect_goal": s.expect_goal, "measure": s.measure,
            "measure_text": lab.MEASURES[s.measure],
            "cells": {o.resolver: lab.cell(o, s.measure) for o in outcomes}}


def _script_of(level) -> str:
    return str(level.properties.get("script", ""))


def attempt(fn, *args):
    """``(fn(*args), None)``, or ``(None, its error: line)`` when what the user gave (a map, a
    link's input script or tick count) is wrong: the page shows that line, as the command line
    prints it."""
    try:
        return fn(*args), None
    except UserError as exc:
        return None, exc.line()


def link_ticks(text: str) -> int:
    """A link's ``ticks=``: a whole number from 0 to :data:`MAX_LINK_TICKS`."""
    if not text.isascii() or not text.isdigit():
        raise UserError(LINK, f"ticks={quoted(text)} is not a whole number; give how many ticks "
                        "to replay, like ticks=600")
    ticks = int(text) if len(text) <= 18 else MAX_LINK_TICKS + 1
    if ticks > MAX_LINK_TICKS:
        raise UserError(LINK, f"ticks={quoted(text)} is more than this page replays "
                        f"({MAX_LINK_TICKS:,}, {MAX_LINK_TICKS // 3600} minutes at 60 ticks a "
                        "second); run it with main.py --headless instead")
    return ticks
