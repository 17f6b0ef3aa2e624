"""``--record``: what was played, tick by tick, written as an input script (``game.sim.inputs``).

The keys held on each tick (keyboard, gamepad or a demo script alike, as the world was fed them)
are kept as runs: a new script line only where the keys change. The file starts with comment
lines naming the level, the resolver, the player's size and every physics value in force, and
the command that replays it headless, so the file documents itself; its first line marks it as
a recording, and only such a file (or a new one) is ever replaced.

Where it goes: the first level played to PATH, each later level to ``<stem>-2<suffix>``,
``<stem>-3<suffix>``... beside it. A recording covers play since the level started, was
restarted, reloaded or its resolver switched (a script cannot say those), so it replays exactly.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path

from game.runs import files
from game.sim.inputs import KEY_NAMES, Held

MARK = "# tilecollide recording"


def keys_text(held: Held) -> str:
    names = [n for n in KEY_NAMES if getattr(held, n)]
    return "+".join(names) if names else "-"


def script_text(header: list[str], held_per_tick: list[Held]) -> str:
    """The input script for these ticks, runs of the same keys on one line."""
    lines = [MARK] + [f"# {h}" for h in header]
    last = None
    for tick, held in enumerate(held_per_tick):
        if held != last:
            lines.append(f"{tick} {keys_text(held)}")
            last = held
    if not held_per_tick:
        lines.append("0 -")
    return "\n".join(lines) + "\n"


def _is_recording(path: Path) -> bool:
    with open(path, "rb") as f:
        return f.readline(len(MARK) + 2).rstrip(b"\r\n") == MARK.encode()


def check_target(path: Path, protected: list[Path]) -> None:
    """Raise a UserError unless ``path`` is a new file in an existing, writable folder, or a
    recording made by this game (never a file of the user's, a folder or a device)."""
    files.check_target(path, "--record", _is_recording, "recording", protected)


@dataclass
class Recorder:
    """Collects the keys of each tick of the level being played; writes them when it ends."""

    path: Path
    protected: list[Path] = field(default_factory=list)
    header: list[str] = field(default_factory=list)
    held: list[Held] = field(default_factory=list)
    written: int = 0  # how many recordings were written (the next one's number - 1)

    @classmethod
    def check(cls, path: str, protected: list[Path]) -> Recorder:
        p = Path(path)
        check_target(p, protected)
        return cls(p, protected)

    def start(self, world, cfg) -> None:
        """Begin again on ``world`` (a level started, restarted, reloaded, resolver switched)."""
        name = world.resolver.name
        opts = cfg.resolver_options(name)
        options = " ".join(f"{k}={v}" for k, v in asdict(opts).items()) or "(none)"
        physics = " ".join(f"{k}={v}" for k, v in asdict(world.physics).items())
        p = world.player
        self.header = [f"level: {world.level.path}", f"level title: {world.level.title}",
                       f"resolver: {name}", f"resolver options: {options}",
                       f"physics: {physics}", f"player: width={p.w} height={p.h}"]
        self.held = []

    def add(self, held: Held) -> None:
        self.held.append(held)

    def target(self) -> Path:
        if self.written == 0:
            return self.path
        return self.path.with_name(f"{self.path.stem}-{self.written + 1}{self.path.suffix}")

    def finish(self) -> Path | None:
        """Write the recording (if a tick was played) and get ready for the next level; returns
        where it went. A UserError says why it could not be written."""
        if not self.header or not self.held:
            return None
        out = self.target()
        check_target(out, self.protected)
        replay = (f"replay: main.py --headless --ticks {len(self.held)} --level "
                  f"{self.header[0].split(': ', 1)[1]} --resolver "
                  f"{self.header[2].split(': ', 1)[1]} --input {out}")
        text = script_text(self.header + [replay], self.held)
        try:
            files.write_file(out, lambda f: f.write(text.encode("utf-8")), ".record-")
        except OSError as exc:
            raise files.target_error("--record", out, f"cannot write it "
                                     f"({files.reason(exc)})") from None
        self.written += 1
        self.header, self.held = [], []
        return out
