"""The frame loop: real time in, whole ticks of the simulation, and how far into the next tick
the picture is (Glenn Fiedler, "Fix Your Timestep!", 2004,
https://gafferongames.com/post/fix_your_timestep/; Robert Nystrom, *Game Programming Patterns*,
"Game Loop", 2014, https://gameprogrammingpatterns.com/game-loop.html).

Real time goes into an accumulator, a long frame clamped first (:func:`clamp_frame`) so that a
stall never spirals; whole ticks of ``dt`` run while the accumulator allows, at most a cap a
frame, and a backlog past the cap is dropped; the picture blends the last two ticks by
``alpha = accumulator / dt``. :func:`run_frames` is the outer loop that calls one frame after
another. Nothing here draws or reads keys: the scenes do, in the callables given.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pygame

SPEEDS = (1.0, 0.5, 0.25, 0.125)  # the clock's rate: normal, then slow motion (T cycles them)
SPEED_NAMES = ("", "1/2", "1/4", "1/8")
FRAME_CAP = 240  # frames per second at most when the window has no vsync


def clamp_frame(frame_time: float, longest: float) -> float:
    """A frame's real time, at most ``longest`` seconds: a stall (a dragged window, a debugger)
    becomes one long frame, not a burst of catching up."""
    return min(frame_time, longest)


class FixedStep:
    """The accumulator of real time not yet run as ticks."""

    def __init__(self, max_ticks: int) -> None:
        self.max_ticks = max_ticks  # ticks a frame at most
        self.acc = 0.0  # s of real time (already slowed by slow motion) not yet run

    def reset(self) -> None:
        """Forget the time not yet run (paused, or a level just started)."""
        self.acc = 0.0

    def advance(self, seconds: float, dt: float, tick: Callable[[], None],
                go: Callable[[], bool]) -> int:
        """Add ``seconds`` and call ``tick`` once per whole ``dt`` in store, while ``go()`` says
        ticks may run (not paused, not finished) and at most ``max_ticks`` times; past the cap
        the backlog is dropped down to one tick. Returns the ticks run."""
        self.acc += seconds
        ticks = 0
        while self.acc >= dt and ticks < self.max_ticks and go():
            tick()
            self.acc -= dt
            ticks += 1
        if ticks == self.max_ticks:
            self.acc = min(self.acc, dt)  # too far behind: drop the backlog
        return ticks

    def alpha(self, dt: float) -> float:
        """How far the picture is between the last tick and the next, 0 to 1."""
        return min(self.acc / dt, 1.0)


def run_frames(frame: Callable[[float], None], running: Callable[[], bool], *,
               max_frames: int | None = None, frame_time: float | None = None,
               vsync: Callable[[], bool] = lambda: False) -> int:
    """Call ``frame(seconds since the last one)`` while ``running()``; returns the frames run.

    ``max_frames``: stop after that many (tools and tests). ``frame_time``: pretend every frame
    lasted that long instead of reading the clock (a deterministic replay). Without vsync the
    loop sleeps to at most :data:`FRAME_CAP` frames a second.
    """
    clock = pygame.time.Clock()
    last = time.perf_counter()
    frames = 0
    while running():
        now = time.perf_counter()
        frame(now - last if frame_time is None else frame_time)
        last = now
        frames += 1
        if max_frames is not None and frames >= max_frames:
            break
        clock.tick(0 if vsync() else FRAME_CAP)
    return frames
