"""The window itself: finding a display, opening the window (windowed or fullscreen, with vsync
where the platform has it), and the scale from the view to the window.

The world is drawn at low resolution (the *view*, about :data:`VIEW_HEIGHT` px high) and scaled
up into the window, by a whole number where one fits (:func:`auto_scale`), so pixel art stays
crisp; text is drawn at window resolution on top. A map made for other engines with bigger
tiles, whose physics are scaled (``Level.physics_scale``), shows the same world: that many
times more map px, drawn that many times smaller (:func:`map_scale`; below 1 on 64 and 128 px
tiles, the view then reduced smoothly into the window).
"""

from __future__ import annotations

import math
import os
import tempfile
from contextlib import contextmanager

import pygame

from game.config import DisplayConfig
from game.errors import UserError

VIEW_HEIGHT = 240  # px of map the automatic scale aims to show from top to bottom
MAX_VIEW_HEIGHT = 300  # px: a whole scale showing more than this is passed over (too small)
WINDOWLESS_DRIVERS = ("offscreen", "dummy")  # SDL video drivers that show nothing
NO_WINDOW_FIX = "play on a desktop session, or run without a window with --headless --ticks N"


@contextmanager
def quiet_wayland():
    """Hide libwayland's own complaint while SDL looks for a display.

    SDL tries Wayland first; with ``XDG_RUNTIME_DIR`` unset (or not an absolute path, as over
    ``su`` or ``ssh``), libwayland-client prints ``error: XDG_RUNTIME_DIR is invalid or not set
    in the environment.`` to stderr by itself, so a missing display looked like two errors. For
    the look only, the variable points at an empty private folder: libwayland finds no socket
    there and stays quiet, and SDL goes on to X11 or to our own one-line error. The variable is
    put back (and the folder removed) as soon as SDL has its driver.
    """
    old = os.environ.get("XDG_RUNTIME_DIR")
    if old is not None and old.startswith("/"):
        yield
        return
    with tempfile.TemporaryDirectory(prefix="tilecollide-") as private:
        os.environ["XDG_RUNTIME_DIR"] = private
        try:
            yield
        finally:
            if old is None:
                os.environ.pop("XDG_RUNTIME_DIR", None)
            else:
                os.environ["XDG_RUNTIME_DIR"] = old


def check_display_driver() -> None:
    """Refuse SDL's windowless drivers unless asked for: with no display SDL quietly falls back
    to ``offscreen``, and the game would run forever where nobody can see it."""
    driver = (pygame.display.get_driver() or "").lower()
    asked = [d.strip().lower() for d in os.environ.get("SDL_VIDEODRIVER", "").split(",")]
    if driver in WINDOWLESS_DRIVERS and driver not in asked:
        pygame.display.quit()
        raise UserError("display", f"no display to open a window on; {NO_WINDOW_FIX}")


def start_display() -> None:
    """Start SDL's video and fonts, or say in one error line why there is no window."""
    try:
        with quiet_wayland():
            pygame.display.init()
    except pygame.error as exc:
        raise UserError("display", f"no video device ({exc}); {NO_WINDOW_FIX}") from None
    check_display_driver()
    pygame.font.init()


class Window:
    """The game's window: its surface, fullscreen or not, and the scale of the view in it."""

    def __init__(self, display: DisplayConfig) -> None:
        self.cfg = display
        self.fullscreen = display.fullscreen
        self.vsync = False
        self.windowed_size: tuple[int, int] | None = None  # to go back to from fullscreen
        self.surface = self.open()

    def open(self) -> pygame.Surface:
        """(Re)open the window as ``fullscreen`` says; vsync where the platform allows."""
        d = self.cfg
        flags = pygame.FULLSCREEN if self.fullscreen else pygame.RESIZABLE
        size = (0, 0) if self.fullscreen else (self.windowed_size or (d.width, d.height))
        self.surface = self._set_mode(size, flags)
        return self.surface

    def _set_mode(self, size: tuple[int, int], flags: int) -> pygame.Surface:
        if self.cfg.vsync:
            try:
                win = pygame.display.set_mode(size, flags, vsync=1)
                self.vsync = True
                return win
            except pygame.error:
                pass  # no vsync on this platform: fall back to a frame cap
        self.vsync = False
        try:
            return pygame.display.set_mode(size, flags)
        except pygame.error as exc:
            raise UserError("display", f"cannot open a window ({exc}); {NO_WINDOW_FIX}") from None

    def toggle_fullscreen(self) -> None:
        if not self.fullscreen:
            self.windowed_size = self.surface.get_size()  # back to this size after
        self.fullscreen = not self.fullscreen
        self.open()

    def size_to_remember(self) -> tuple[int, int] | None:
        """The windowed size, to open at next time (None: fullscreen from the start)."""
        return self.windowed_size if self.fullscreen else self.surface.get_size()

    def scale(self, physics_scale: float = 1.0) -> float:
        """Window px per view px for a map whose physics are scaled ``physics_scale`` (1: tiles
        of 16 px, as the shipped levels): the configured scale, or :func:`auto_scale`, made
        :func:`map_scale` for such a map."""
        s = self.cfg.scale
        return map_scale(s if s > 0 else auto_scale(self.surface.get_height()), physics_scale)

    def view_size(self, physics_scale: float = 1.0) -> tuple[int, int]:
        """The view, in map px, that covers the window at :meth:`scale`."""
        return view_size(self.surface.get_size(), self.scale(physics_scale))


def auto_scale(height: int) -> float:
    """The pixel scale for a window ``height`` px tall: the whole scale that shows nearest
    VIEW_HEIGHT px of the map (720 px: 3; 450 px: 2, 225 px of map), so the art stays crisp
    and the player never shrinks to a speck; a whole number, unless the nearest whole scale
    would show more than MAX_VIEW_HEIGHT px (a window 301 to 359 px tall, where 1 shows up to
    359 px and 2 too little): then the fractional ``height / VIEW_HEIGHT``, drawn crisply by
    :func:`game.view.surfaces.blit_scaled`. Below VIEW_HEIGHT px it is 1 (never shrinking)."""
    whole = max(1, round(height / VIEW_HEIGHT))
    if whole > 1 or height <= MAX_VIEW_HEIGHT:
        return whole
    return height / VIEW_HEIGHT


def map_scale(scale: float, physics_scale: float) -> float:
    """Window px per map px on a map whose physics are scaled ``physics_scale`` (its tiles that
    many times 16 px high: game.maps.level), where a shipped level is shown at ``scale``: the
    view shows the same world, as many tiles and the player as big, so ``scale /
    physics_scale`` (128 px tiles in a 720 px window: 3 / 8, 15 tiles high, as a shipped level).
    A whole number when one is within an eighth of it (18 px tiles: 3, not 2.67), so pixel art
    stays crisp where it nearly can."""
    if physics_scale == 1.0:
        return scale
    exact = scale / physics_scale
    whole = round(exact)
    return whole if whole >= 1 and abs(whole - exact) <= exact / 8 + 1e-9 else exact


def view_size(window: tuple[int, int], scale: float) -> tuple[int, int]:
    """The view, in map px, that covers a ``window`` px window at ``scale``."""
    w, h = window
    return math.ceil(w / scale), math.ceil(h / scale)
