"""Sound effects, played by the view: it hears what happened by comparing the world before and
after each tick (:func:`heard`), so the simulation stays silent and headless.

The effects are ``assets/sounds/<name>.wav``, made by ``tools/make_sounds.py``. ``coin``,
``checkpoint``, ``stomp`` and ``switch`` (a lever or a plate turned) are played for the world's
events (:func:`event_sounds`); the others are heard in the change between two snapshots.

No audio device (a server, CI, ``SDL_AUDIODRIVER=dummy`` or a driver that fails) is no error: the
game plays silently and says nothing, unless the player presses M to ask for sound.
"""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pygame

from game.config import AudioConfig
from game.sim.spear import STUCK

SOUND_DIR = Path(__file__).resolve().parent.parent.parent / "assets" / "sounds"
SOUNDS = ("jump", "land", "respawn", "coin", "checkpoint", "stomp", "goal", "level_start",
          "hurt", "switch", "door", "throw", "stick")
# A landing is heard only from this falling speed up: stepping off a ledge of a few pixels, or
# running down a slope the resolver treats as steps, makes no sound. A fall of 4 px at the
# default gravity (1500 px/s^2) ends at about 110 px/s.
LAND_SPEED = 100.0  # px/s
MIXER = dict(frequency=44100, size=-16, channels=2, buffer=512)  # 512 samples: about 12 ms late


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What the sounds need to know of the world at one moment."""

    on_ground: bool
    rising: bool
    vy: float
    respawning: bool
    goal_reached: bool
    doors: tuple[bool, ...] = ()  # each door group open or not
    last_throw: int = -1  # the tick the newest spear was thrown (-1: none yet)
    stuck: int = 0  # spears stuck in something

    @classmethod
    def of(cls, world) -> Snapshot:
        p = world.player
        flow = getattr(world, "flow", None)
        doors = tuple(flow.doors_open.values()) if flow is not None else ()
        spears = getattr(world, "spears", ())
        return cls(p.on_ground, p.rising, p.vy, p.respawning, world.goal_reached, doors,
                   max((s.born for s in spears), default=-1),
                   sum(s.state == STUCK for s in spears))


def heard(before: Snapshot, after: Snapshot) -> tuple[str, ...]:
    """The effects a tick from ``before`` to ``after`` makes, in the order to play them.

    jump: the player started rising (a jump sets ``rising``; nothing else does).
    land: back on the ground after falling at ``LAND_SPEED`` or faster (not when reappearing).
    hurt: the player vanished (a walker, a hazard, a squish, a fall out of the map).
    respawn: the player reappeared at the spawn.
    throw: a spear left the hand; stick: a spear stuck in a wall, a floor or a ceiling.
    door: a door group opened or closed.
    goal: the goal was reached.
    """
    out: list[str] = []
    if before.respawning:
        if not after.respawning:
            out.append("respawn")
    elif after.respawning:
        out.append("hurt")
    elif after.rising and not before.rising:
        out.append("jump")
    elif after.on_ground and not before.on_ground and before.vy >= LAND_SPEED:
        out.append("land")
    if after.last_throw != before.last_throw:
        out.append("throw")
    if after.stuck > before.stuck:
        out.append("stick")
    if after.doors != before.doors:
        out.append("door")
    if after.goal_reached and not before.goal_reached:
        out.append("goal")
    return tuple(out)


# The world's events (``game.sim.world.EVENTS``) that have an effect of their own.
EVENT_SOUNDS = {"coin": "coin", "checkpoint": "checkpoint", "switch": "switch",
                "stomp": "stomp"}


def event_sounds(events: list[str]) -> tuple[str, ...]:
    """The effects of a tick's events: a coin taken, a checkpoint reached, a switch turned, a
    walker stomped."""
    return tuple(EVENT_SOUNDS[e] for e in events if e in EVENT_SOUNDS)


@contextmanager
def quiet_stderr():
    """Hide what C libraries print to file descriptor 2 while SDL opens the audio device.

    With no sound card, ALSA's library writes a dozen ``ALSA lib ...`` lines to stderr by itself
    before SDL returns its error; the game then plays silently, and those lines would read as
    a failure. Python's own ``sys.stderr`` is flushed first and put back after.
    """
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError, AttributeError):  # no fd 2 (a detached console): nothing to hide
        yield
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        os.close(devnull)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def start_mixer() -> bool:
    """Open the audio device; False (and no output at all) where there is none."""
    try:
        if pygame.mixer.get_init():
            return True
        with quiet_stderr():
            pygame.mixer.init(**MIXER)
    # pygame.error: no device or driver; NotImplementedError: pygame built without its mixer;
    # OSError: the driver's library fails to load.
    except (pygame.error, NotImplementedError, OSError):
        return False
    return True


class Sounds:
    """The effects, loaded once, and whether they are muted."""

    def __init__(self, effects: dict[str, pygame.mixer.Sound], muted: bool = False,
                 device: bool = True, volume: float = 1.0) -> None:
        self.effects = effects
        self.muted = muted
        self.device = device  # False: no audio device, every effect is silent
        self.volume = volume  # 0..1, as [audio] volume

    @classmethod
    def open(cls, audio: AudioConfig, folder: Path = SOUND_DIR) -> Sounds:
        """Start the mixer and load the effects; silence, without a word, where that fails."""
        if not start_mixer():
            return cls({}, audio.muted, device=False, volume=audio.volume)
        effects = {}
        for name in SOUNDS:
            try:
                sound = pygame.mixer.Sound(folder / f"{name}.wav")
            except (pygame.error, OSError):
                continue  # a missing or broken file: that effect is silent
            sound.set_volume(audio.volume)
            effects[name] = sound
        return cls(effects, audio.muted, volume=audio.volume)

    def play(self, name: str) -> None:
        sound = self.effects.get(name)
        if sound is not None and not self.muted:
            sound.play()

    def change_volume(self, step: float) -> float:
        """Louder or quieter by ``step`` (kept within 0..1, in tenths); returns the new volume."""
        self.volume = min(1.0, max(0.0, round((self.volume + step) * 10) / 10))
        for sound in self.effects.values():
            sound.set_volume(self.volume)
        return self.volume

    def toggle_mute(self) -> bool:
        """Mute or unmute; returns whether it is muted now. Muting stops what is playing."""
        self.muted = not self.muted
        if self.muted and self.device:
            try:
                pygame.mixer.stop()
            except pygame.error:
                pass  # the mixer closed meanwhile: nothing is playing
        return self.muted
