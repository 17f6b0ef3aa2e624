"""Input as data: one frozen :class:`InputFrame` per tick, from the keyboard, a script or a test.

Input script format (a text file)::

    # comments and blank lines are ignored
    0   right            <- from tick 0, hold right
    30  right+jump       <- from tick 30, hold right and jump (jump counts as pressed on tick 30)
    45  -                <- from tick 45, hold nothing

Each line's keys are held from its tick until the next line's tick; ticks start at 0 and strictly
increase. Key names: left, right, up, down, jump, throw, climb (up jumps, and climbs a ladder; climb
only climbs: up on a gamepad). A script is UTF-8 text of at most 8 MB, and a tick has at most 18
digits.
"""

from __future__ import annotations

import bisect
import io
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from game.errors import UserError, quoted, read_bounded

KEY_NAMES = ("left", "right", "up", "down", "jump", "throw", "climb")
TICK = re.compile(r"[0-9]+")
# A script of a key change every tick for an hour at 60 Hz is about 3 MB; 8 MB leaves room and
# bounds the memory a script takes (its lines share one Held record per set of keys).
SCRIPT_LIMIT = 8_000_000  # bytes
# 18 digits go past any run (10^18 ticks at 1000 Hz is 30 million years); a tick beyond --ticks
# is simply never reached. Python itself refuses to read a number of more than 4,300 digits.
MAX_TICK_DIGITS = 18
MAX_KEYS_TEXT = 64  # characters: every key name once, joined by '+', takes 23


@dataclass(frozen=True, slots=True)
class Held:
    """The keys held during one tick."""

    left: bool = False
    right: bool = False
    up: bool = False
    down: bool = False
    jump: bool = False
    throw: bool = False
    climb: bool = False  # up on a gamepad: climbs a ladder, never jumps (up on the keyboard does)


@dataclass(frozen=True, slots=True)
class InputFrame:
    """What the player wants this tick. ``jump_pressed`` and ``throw_pressed`` are true only on
    the first tick the key is held. Up is a jump key too (``jump_held`` and ``jump_pressed``
    count it, as one button with the jump key), except on a ladder, where it climbs: ``up`` says
    it is held, ``jump_key`` and ``jump_key_pressed`` what the jump key itself does (on a map with
    ladders a press of the jump key counts even while up is held: ``game.sim.player``)."""

    move: int = 0  # -1 left, 0 none, +1 right
    down: bool = False
    jump_held: bool = False
    jump_pressed: bool = False
    throw_pressed: bool = False
    up: bool = False
    jump_key: bool = False
    jump_key_pressed: bool = False  # the jump key itself, first tick held (up held or not)


NO_INPUT = InputFrame()


class InputSequencer:
    """Turns held keys, tick after tick, into frames: remembers last tick's jump for 'pressed'."""

    def __init__(self) -> None:
        self._jump_was_held = False
        self._jump_key_was_held = False
        self._throw_was_held = False

    def frame(self, held: Held) -> InputFrame:
        jump = held.jump or held.up
        pressed = jump and not self._jump_was_held
        self._jump_was_held = jump
        key_pressed = held.jump and not self._jump_key_was_held
        self._jump_key_was_held = held.jump
        throw = held.throw and not self._throw_was_held
        self._throw_was_held = held.throw
        return InputFrame(int(held.right) - int(held.left), held.down, jump, pressed, throw,
                          held.up or held.climb, held.jump, key_pressed)


@dataclass(frozen=True)
class InputScript:
    """Parsed script: (start tick, keys held) pairs, ticks strictly increasing from 0."""

    entries: tuple[tuple[int, Held], ...]

    def held_at(self, tick: int) -> Held:
        i = bisect.bisect_right(self.entries, tick, key=lambda entry: entry[0])
        return self.entries[i - 1][1] if i else Held()

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
    if len(text) > MAX_KEYS_TEXT:
        return None
    names = text.lower().split("+")
    if any(n not in KEY_NAMES for n in names):
        return None
    return Held(**{n: True for n in names})


def parse_script(lines: Iterable[str], where: str | os.PathLike) -> InputScript:
    entries: list[tuple[int, Held]] = []
    shared: dict[Held, Held] = {}  # one Held per set of keys, however it is written
    by_text: dict[str, Held] = {}  # keys text already read: a long script repeats a few
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split(maxsplit=2)
        if len(parts) != 2:
            raise UserError(where, f"line {number:,}: expected '<tick> <keys>', like "
                            f"'30 right+jump', got {quoted(line)}")
        tick_text, keys_text = parts
        if not TICK.fullmatch(tick_text):
            raise UserError(where, f"line {number:,}: tick {quoted(tick_text)} is not a whole "
                            "number (digits 0-9 only)")
        digits = tick_text.lstrip("0") or "0"
        if len(digits) > MAX_TICK_DIGITS:
            raise UserError(where, f"line {number:,}: tick {quoted(tick_text)} is too large; a "
                            f"tick has at most {MAX_TICK_DIGITS} digits")
        tick = int(digits)
        if entries and tick <= entries[-1][0]:
            raise UserError(where, f"line {number:,}: tick {tick} must be greater than the "
                            f"previous line's tick {entries[-1][0]}")
        held = by_text.get(keys_text)
        if held is None:
            held = parse_keys(keys_text)
            if held is None:
                raise UserError(where, f"line {number:,}: keys {quoted(keys_text)} must be '-' "
                                "or names from " + ", ".join(KEY_NAMES) + " joined by '+'")
            held = by_text[keys_text] = shared.setdefault(held, held)
        entries.append((tick, held))
    return InputScript(tuple(entries))


def load_script(path: str | os.PathLike) -> InputScript:
    """The script in ``path``: a file, or a pipe or device read only up to :data:`SCRIPT_LIMIT`."""
    p = Path(path)
    data = read_bounded(p, SCRIPT_LIMIT, "input script", "check the --input path")
    try:
        text = data.decode("utf-8-sig")  # a byte-order mark some editors add is fine
    except UnicodeDecodeError as exc:
        raise UserError(p, f"is not UTF-8 text (byte {exc.start:,} cannot be read); save the "
                        "input script as UTF-8") from None
    # Line by line, not a list of every line: a file of millions of short lines stays small.
    return parse_script(io.StringIO(text, newline=None), p)
