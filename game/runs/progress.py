"""How the player is doing: the levels finished and the best time on each, kept between runs in
the remembered settings (game.runs.settings), and the summary of one run of a level that the
end-of-level card shows.

Pure data, no pygame: the play scene counts a run (:class:`RunTally`), hands it here when the
goal is reached (:meth:`Progress.finish`), and the title screen asks for each level's best.
A time is game time, ticks times the tick length, from the level's start (or its last restart)
to the goal: slow motion and pauses do not count, so a time is the same on any computer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from game.runs.settings import MAX_FINISHED, Finished


def level_key(path: Path | str) -> str:
    """How a level is named in the progress: its absolute, resolved path."""
    return str(Path(path).resolve())


@dataclass
class RunTally:
    """What happens in one run of a level, counted by the play scene as it goes."""

    deaths: int = 0  # times the player vanished (a walker, a hazard, a squish, a fall)
    resolvers: list[str] = field(default_factory=list)  # in the order they were used

    def use(self, resolver: str) -> None:
        if resolver not in self.resolvers:
            self.resolvers.append(resolver)


@dataclass(frozen=True)
class Summary:
    """One finished run, as the end-of-level card shows it."""

    title: str  # the level's name, as its banner shows it ("Level 2: Every Tile")
    time: float  # s of game time
    coins: tuple[int, int] | None  # taken, of how many (None: a level without coins)
    deaths: int
    resolvers: tuple[str, ...]  # used in the run, the one at the goal last
    best_before: float | None  # the best time before this run (None: first time finished)
    done: int  # levels of the sequence finished, this one included
    total: int  # levels in the sequence
    next_title: str  # where the game goes on
    wrapped: bool  # this was the last level of the sequence: it goes on at the first

    @property
    def new_best(self) -> bool:
        return self.best_before is None or self.time < self.best_before

    @property
    def all_done(self) -> bool:
        return self.total > 0 and self.done >= self.total


class Progress:
    """The levels finished and their best runs, by level (:func:`level_key`)."""

    def __init__(self, finished: tuple[Finished, ...] = ()) -> None:
        self.best: dict[str, Finished] = {f.level: f for f in finished}

    def done(self, path: Path | str) -> bool:
        return level_key(path) in self.best

    def best_time(self, path: Path | str) -> float | None:
        f = self.best.get(level_key(path))
        return f.best_time if f is not None else None

    def count_done(self, paths) -> int:
        return sum(self.done(p) for p in paths)

    def finish(self, path: Path | str, time: float, resolver: str) -> float | None:
        """Record a run that reached the goal in ``time`` s; returns the best time before it
        (None: the first time this level was finished)."""
        key = level_key(path)
        before = self.best.get(key)
        if before is None or time < before.best_time:
            self.best.pop(key, None)  # the newest entry last: the file keeps the newest
            self.best[key] = Finished(key, time, resolver)
        return before.best_time if before is not None else None

    def as_settings(self) -> tuple[Finished, ...]:
        """What the settings file keeps: the newest MAX_FINISHED entries."""
        return tuple(self.best.values())[-MAX_FINISHED:]


def time_text(seconds: float) -> str:
    """A run's time as the game shows it: ``23.45 s`` or, from a minute on, ``1:02.50``."""
    hundredths = int(round(seconds * 100))
    if hundredths < 6000:
        return f"{hundredths // 100}.{hundredths % 100:02d} s"
    minutes, rest = divmod(hundredths, 6000)
    return f"{minutes}:{rest // 100:02d}.{rest % 100:02d}"
