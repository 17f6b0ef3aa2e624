"""What follows the player's run tick by tick: the ghosts (G, --ghosts), the recording
(--record) and the trace (--trace).

The ghosts are a ``Comparison`` (game.sim.ghosts): one world per resolver, stepped with the
player's input; the window shows those whose resolver is not the player's. A recording is
started afresh whenever the run does (a level entered, a restart, a resolver switched: a script
cannot say "switch here") and written when the level is left. The trace collects the records
headless would write, one per world and tick.
"""

from __future__ import annotations

from pathlib import Path

from game.config import Config
from game.errors import UserError
from game.runs.headless import trace_record
from game.sim.ghosts import Comparison
from game.sim.inputs import Held, InputFrame
from game.sim.world import World


class Followers:
    def __init__(self, cfg: Config, ghosts: bool = False, record=None,
                 trace: bool = False) -> None:
        self.cfg = cfg
        self.ghosts_on = ghosts
        self.comparison: Comparison | None = None
        self.record = record  # a game.runs.record.Recorder, or None
        self.trace_records: list[dict] | None = [] if trace else None

    def start(self, world: World, follow: bool = False) -> None:
        """The player (re)starts on ``world``'s level: ghosts from the same start (from where
        the player stands if ``follow``), and a fresh recording; a run from tick 0 again (a
        restart) also starts the trace afresh, so its ticks count 0, 1, 2... as headless's do."""
        if self.trace_records is not None and world.tick == 0:
            self.trace_records.clear()
        self.comparison = None
        if self.ghosts_on:
            self.comparison = Comparison.create(world.level, world.physics, self.cfg, player=world)
            if follow:
                self.comparison.follow(world)
        if self.record is not None:
            self.record.start(world, self.cfg)

    def toggle_ghosts(self, world: World) -> None:
        """G: ghosts on (from where the player stands) or off."""
        self.ghosts_on = not self.ghosts_on
        if self.ghosts_on:
            self.comparison = Comparison.create(world.level, world.physics, self.cfg, player=world)
            self.comparison.follow(world)
        else:
            self.comparison.release(world)
            self.comparison = None

    def resolver_switched(self, world: World) -> None:
        """The player's resolver changed: its world takes its new resolver's place among the
        ghosts; a script cannot say "switch here", so the recording starts afresh."""
        if self.comparison is not None:
            self.comparison.adopt(world)
        if self.record is not None:
            self.record.start(world, self.cfg)

    def advance(self, world: World, frame: InputFrame) -> None:
        """One tick of the player's world on ``frame``; with ghosts on, of every world of the
        comparison, the player's among them (each stepped once)."""
        if self.comparison is not None:
            self.comparison.step(frame)
        else:
            world.step(frame)

    def step(self, world: World, held: Held, frame: InputFrame) -> None:
        """After the tick (:meth:`advance`) on ``frame`` (from ``held``): where ghosts parted
        from the player, the recording takes the keys, the trace the records."""
        if self.comparison is not None:
            self.comparison.track_parting(world)
        if self.record is not None:
            self.record.add(held)
        if self.trace_records is not None:
            if self.comparison is not None:
                self.trace_records.extend(trace_record(g) for g in self.comparison.worlds)
            else:
                self.trace_records.append(trace_record(world))

    def finish_recording(self) -> Path | UserError | None:
        """Write what was played on this level (--record): the file written, the error that
        kept it from being saved, or None (nothing to write)."""
        if self.record is None:
            return None
        try:
            return self.record.finish()
        except UserError as exc:
            return exc

    def shown(self, world: World) -> list[World]:
        """The ghosts shown: every world of the comparison but the player's resolver's."""
        if self.comparison is None:
            return []
        mine = world.resolver.name
        return [g for g in self.comparison.worlds if g.resolver.name != mine]
