"""Banners: a message in large type for a moment (a level's name, "Reloaded", the volume).

Each function makes the banner for one occasion from what it needs and the time now
(``time.monotonic()``), so the texts and how long they stay are tested without a window; the
HUD draws the banner while :meth:`Banner.showing`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

BANNER_TIME = 2.0  # s the "Recorded to ..." message stays up
TITLE_TIME = 1.5  # s the "Level N: title" banner stays up after a level is swapped in
RELOADED_TIME = 1.0  # s the "Reloaded" banner stays up
MUTE_TIME = 1.0  # s the "Sound off" / "Sound on" / volume banner stays up
DONE_COLOUR = (255, 230, 120)  # the end-of-level card's heading (game.view.hud)
NO_DEVICE = "No audio device: playing without sound"


@dataclass
class Banner:
    text: str
    until: float  # time.monotonic() at which it goes
    colour: tuple[int, int, int] = (255, 255, 255)

    def showing(self, now: float) -> bool:
        return now < self.until


def level_title(name: str, now: float) -> Banner:
    """A level just swapped in: its name (see game.view.levels.level_name)."""
    return Banner(name, now + TITLE_TIME)


def reloaded(now: float) -> Banner:
    return Banner("Reloaded", now + RELOADED_TIME)


def recorded(out: Path | str, now: float) -> Banner:
    """A recording (--record) written to ``out``."""
    return Banner(f"Recorded to {out}", now + BANNER_TIME)


def volume(level: float, device: bool, now: float) -> Banner:
    """The volume just set (0 to 1); without an audio device, that there is none."""
    return Banner(f"Volume {round(level * 100)}%" if device else NO_DEVICE, now + MUTE_TIME)


def muted(is_muted: bool, device: bool, now: float) -> Banner:
    """Sound just turned off or on; without an audio device, that there is none."""
    if not device:
        return Banner(NO_DEVICE, now + MUTE_TIME)
    return Banner("Sound off" if is_muted else "Sound on", now + MUTE_TIME)
