"""Input as data: one frozen :class:`InputFrame` per tick, from the keyboard, a script or a test.

Input script format (a text file)::

    # comments and blank lines are ignored
    0   right            <- from tick 0, hold right
    30  right+jump       <- from tick 30, hold right and jump (jump counts as pressed on tick 30)
    45  -                <- from tick 45, hold nothing

Each line's keys are held from its tick until the next line's tick; ticks start at 0 and strictly
increase. Key names: left, right, up, down, jump.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from game.errors import UserError

KEY_NAMES = ("left", "right", "up", "down", "jump")
TICK = re.compile(r"[0-9]+")


@dataclass(frozen=True, slots=True)
class Held:
    """The keys held during one tick."""

    left: bool = False
    right: bool = False
    up: bool = False
    down: bool = False
    jump: bool = False


@dataclass(frozen=True, slots=True)
class InputFrame:
    """What the player wants this tick. ``jump_pressed`` is true only on the first tick held."""

    move: int = 0  # -1 left, 0 none, +1 right
    down: bool = False
    jump_held: bool = False
    jump_pressed: bool = False


NO_INPUT = InputFrame()


class InputSequencer:
    """Turns held keys, tick after tick, into frames: remembers last tick's jump for 'pressed'."""

    def __init__(self) -> None:
        self._jump_was_held = False

    def frame(self, held: Held) -> InputFrame:
        jump = held.jump or held.up
        pressed = jump and not self._jump_was_held
        self._jump_was_held = jump
        return InputFrame(int(held.right) - int(held.left), held.down, jump, pressed)


@dataclass(frozen=True)
class InputScript:
    """Parsed script: (start tick, keys held) pairs, ticks strictly increasing from 0."""

    entries: tuple[tuple[int, Held], ...]

    def held_at(self, tick: int) -> Held:
        current = Held()
        for start, held in self.entries:
            if start > tick:
                break
            current = held
        return current

    def frames(self, ticks: int) -> Iterator[InputFrame]:
        seq = InputSequencer()
        i, current, entries = 0, Held(), self.entries
        for tick in range(ticks):
            while i < len(entries) and entries[i][0] <= tick:
                current = entries[i][1]
                i += 1
            yield seq.frame(current)


def parse_keys(text: str) -> Held | None:
    if text == "-":
        return Held()
    names = text.lower().split("+")
    if any(n not in KEY_NAMES for n in names):
        return None
    return Held(**{n: True for n in names})


def parse_script(lines: Sequence[str], where: str | os.PathLike) -> InputScript:
    entries: list[tuple[int, Held]] = []
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split()
        if len(parts) != 2:
            raise UserError(where, f"line {number}: expected '<tick> <keys>', like '30 right+jump', "
                            f"got {line!r}")
        tick_text, keys_text = parts
        if not TICK.fullmatch(tick_text):
            raise UserError(where, f"line {number}: tick {tick_text!r} is not a whole number "
                            "(digits 0-9 only)")
        tick = int(tick_text)
        if entries and tick <= entries[-1][0]:
            raise UserError(where, f"line {number}: tick {tick} must be greater than the previous "
                            f"line's tick {entries[-1][0]}")
        held = parse_keys(keys_text)
        if held is None:
            raise UserError(where, f"line {number}: keys {keys_text!r} must be '-' or names from "
                            + ", ".join(KEY_NAMES) + " joined by '+'")
        entries.append((tick, held))
    return InputScript(tuple(entries))


def load_script(path: str | os.PathLike) -> InputScript:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig")  # a byte-order mark some editors add is fine
    except FileNotFoundError:
        raise UserError(p, "input script not found; check the --input path") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(p, f"cannot read the input script ({exc})") from None
    return parse_script(text.splitlines(), p)
