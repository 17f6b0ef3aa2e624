"""The window: real time in, fixed ticks of the simulation, an interpolated picture out.

Loop (Fiedler's "Fix Your Timestep!"): real time goes into an accumulator, clamped to
``max_frame_time`` so a stall never spirals; whole ticks of ``1 / tick_rate`` run while the
accumulator allows (at most ``max_ticks_per_frame``); the picture blends the previous and current
player position by ``alpha = accumulator / dt``.

The world is drawn at low resolution (the *view*, about 240 px high) and scaled up by a whole
number into the window, so pixel art stays crisp; text is drawn at window resolution on top.
"""

from __future__ import annotations

import math
import os
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from game import resolvers  # noqa: E402
from game.sim.camera import CameraState, camera_step, camera_view, px  # noqa: E402
from game.sim.ghosts import Comparison, push_out  # noqa: E402
from game.config import Config  # noqa: E402
from game.errors import UserError  # noqa: E402
from game.maps.grid import ONE_WAY, SLOPE, SOLID  # noqa: E402
from game.runs.headless import trace_record  # noqa: E402
from game.sim.inputs import Held, InputScript, InputSequencer  # noqa: E402
from game.maps.level import Level  # noqa: E402
from game.resolvers.base import Contacts  # noqa: E402
from game.runs.settings import Settings, Store, clamp_window  # noqa: E402
from game.view.pad import Gamepads, either  # noqa: E402
from game.view.render import MapRenderer, Recent, TileImages, blit_scaled  # noqa: E402
from game.view.living import ItemSprites, hud_line  # noqa: E402
from game.view.sound import Snapshot, Sounds, event_sounds, heard  # noqa: E402
from game.view.sprites import (SPEAR_LENGTH, Background, PlatformSprite,  # noqa: E402
                               PlayerSprite, SpearSprite, WalkerSprite)
from game.view.text import wrap_text  # noqa: E402
from game.view.title import QUIT, Backdrop, Play, TitleScreen  # noqa: E402
from game.sim.world import World, load_world  # noqa: E402

VIEW_HEIGHT = 240  # px of map visible vertically at the automatic scale
LEFT_KEYS = (pygame.K_LEFT, pygame.K_a)
RIGHT_KEYS = (pygame.K_RIGHT, pygame.K_d)
UP_KEYS = (pygame.K_UP, pygame.K_w)
DOWN_KEYS = (pygame.K_DOWN, pygame.K_s)
JUMP_KEYS = (pygame.K_SPACE, pygame.K_z)
THROW_KEYS = (pygame.K_x, pygame.K_f)
HOT_RELOAD_PERIOD = 0.5  # s between checks of the level file's modification time
BANNER_TIME = 2.0  # s a "level complete" message stays up
TITLE_TIME = 1.5  # s the "Level N: title" banner stays up after a level is swapped in
RELOADED_TIME = 1.0  # s the "Reloaded" banner stays up
MUTE_TIME = 1.0  # s the "Sound off" / "Sound on" banner stays up
# Volume down / up by a tenth ('=' is the unshifted '+' on most layouts)
VOLUME_KEYS = {pygame.K_MINUS: -0.1, pygame.K_KP_MINUS: -0.1, pygame.K_EQUALS: 0.1,
               pygame.K_PLUS: 0.1, pygame.K_KP_PLUS: 0.1}
WINDOWLESS_DRIVERS = ("offscreen", "dummy")  # SDL video drivers that show nothing
NO_WINDOW_FIX = "play on a desktop session, or run without a window with --headless --ticks N"
ERROR_BAR = (120, 20, 30)
KEEPING = "(keeping the last good level)"
PANEL = (12, 14, 28, 165)  # translucent dark panel behind text drawn over the level
SHADOW = (20, 20, 35)  # text's drop shadow
GOAL_GLOW = (255, 240, 120)
# The debug view's colours, shared by the scene and its legend.
DEBUG_TILES = {SOLID: (255, 80, 80, 110), ONE_WAY: (80, 200, 255, 200), SLOPE: (255, 170, 60, 220)}
PROBED = (255, 255, 0, 70)
HITBOX_STANDING, HITBOX_AIR = (60, 255, 90), (255, 255, 255)
CONTACT_EDGE = (255, 40, 200)
PUSH_OUT = (255, 255, 255)  # the player's push-out; a ghost's is in its colour
GHOST_ALPHA = 120  # of 255: ghosts are translucent, the player solid
SPEEDS = (1.0, 0.5, 0.25, 0.125)  # slow motion (T cycles them)
SPEED_NAMES = ("", "1/2", "1/4", "1/8")
# Keys that do not take control back from a demo (--input in the window): they only change the
# view or the clock, so a demo can be watched paused, stepped, slowed, with the debug view.
VIEW_KEYS = (pygame.K_F3, pygame.K_h, pygame.K_F1, pygame.K_g, pygame.K_p, pygame.K_PERIOD,
             pygame.K_t, pygame.K_F11, pygame.K_m, pygame.K_TAB) + tuple(VOLUME_KEYS)
HELP = ("arrows/WASD move   Space/Up/W/Z jump   Down+jump drop through   X/F throw spear   "
        "Tab resolver   G ghosts   F3 debug   R reload   Backspace restart   Home first level   "
        "P pause   . one tick (paused)   T slow motion 1/2 1/4 1/8   Esc title screen   "
        "F11 fullscreen   M sound on/off   -/+ volume   "
        "Gamepad: stick/d-pad move   A jump   X throw   LB/RB resolver   Start pause   "
        "Back restart")


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


def read_keys(pressed, jump_tapped: bool, throw_tapped: bool = False) -> Held:
    """The keyboard as one snapshot for a tick (a jump or throw tapped between ticks counts)."""
    def any_of(keys):
        return any(pressed[k] for k in keys)

    return Held(left=any_of(LEFT_KEYS), right=any_of(RIGHT_KEYS), up=any_of(UP_KEYS),
                down=any_of(DOWN_KEYS), jump=any_of(JUMP_KEYS) or jump_tapped,
                throw=any_of(THROW_KEYS) or throw_tapped)


def level_sequence(current: Path) -> list[Path]:
    return sorted(current.resolve().parent.glob("*.tmx"))


def next_level_path(level: Level) -> tuple[Path, bool]:
    """The level after this one: its ``next_level`` property, else the next file by name.

    Returns the path and whether the sequence wrapped round to the first level.
    """
    if level.next_level:
        return (level.path.parent / level.next_level), False
    seq = level_sequence(level.path)
    here = level.path.resolve()
    if here in seq and seq.index(here) + 1 < len(seq):
        return seq[seq.index(here) + 1], False
    return (seq[0] if seq else level.path), True


def level_name(level: Level) -> str:
    """``Level N: title``, N counting the level files in its folder; just the title for a level
    outside that sequence."""
    seq = level_sequence(level.path)
    here = level.path.resolve()
    return f"Level {seq.index(here) + 1}: {level.title}" if here in seq else level.title


def feet_on_slope(grid, x: float, y: float, w: float, h: float) -> float:
    """How far below the hitbox's bottom the slope surface under its centre lies (view only).

    On a slope the hitbox rests on the highest point of the surface under it, one corner
    touching: exact for collision, but the sprite's feet, drawn at the centre, would float. The
    sprite is drawn down onto the surface under its centre instead; the hitbox does not move.
    """
    cx, bottom = x + w / 2, y + h
    col = math.floor(cx / grid.tile_w)
    first = math.floor((bottom - 1e-6) / grid.tile_h)
    for row in (first, first + 1):
        if grid.kind(col, row) == SLOPE:
            surface = grid.surface_y(col, row, cx)
            if surface >= bottom - 1e-6:
                return min(surface - bottom, float(grid.tile_h))
    return 0.0


def push_text(world: World) -> str:
    """The last move's push-out (resolved minus attempted), for the debug view's text."""
    push = push_out(world)
    return "-" if push is None else f"{push[2] - push[0]:+.2f}, {push[3] - push[1]:+.2f}"


@dataclass
class Banner:
    text: str
    until: float
    colour: tuple[int, int, int] = (255, 255, 255)


class App:
    """Two states: the title screen (``self.title_screen`` set) and play. Esc in play goes back
    to the title, Esc on the title quits."""

    def __init__(self, cfg: Config, level_path: Path, *, max_frames: int | None = None,
                 screenshot: str | None = None, script: InputScript | None = None,
                 frame_time: float | None = None, title: bool = False,
                 levels_dir: Path | None = None, store: Store | None = None,
                 max_ticks: int | None = None, trace=None, ghosts: bool = False,
                 record=None, pause_at: int | None = None) -> None:
        self.cfg = cfg
        # For tools and tests: stop after max_frames, save the window to screenshot, take the keys
        # from an input script (by tick) instead of the keyboard, pretend every frame lasted
        # frame_time seconds (a deterministic replay) instead of reading the clock.
        self.max_frames, self.screenshot, self.script = max_frames, screenshot, script
        self.frame_time = frame_time
        # max_ticks: close after that many ticks (--ticks). trace: called at the end with the
        # trace records and the level (--trace), as headless writes them. ghosts: start with
        # the ghosts shown (--ghosts). record: a game.runs.record.Recorder (--record).
        self.max_ticks, self.trace, self.record = max_ticks, trace, record
        self.pause_at = pause_at  # for tools: pause once the world reaches that tick
        self.trace_records: list[dict] | None = [] if trace is not None else None
        self.ticks_run = 0
        self.record_error: UserError | None = None
        self.ghosts_on = ghosts
        self.comparison: Comparison | None = None
        self.speed = 0  # index into SPEEDS
        self._step_pending = False  # '.' while paused: one tick at the next frame
        self.ghost_labels: list[tuple[str, tuple[int, int], tuple[int, int, int]]] = []
        # title: open on the title screen with level_path selected, instead of playing it.
        # levels_dir: the folder the title lists. store: the settings file, None to leave it be.
        self.levels_dir = Path(levels_dir) if levels_dir is not None else Path(cfg.level).parent
        self.store = store
        self.done: set[Path] = set()  # levels completed since the game started (resolved)
        self.title_screen: TitleScreen | None = None
        self._resolvers = {}
        self.world = None if title else load_world(level_path, cfg, self._resolver(cfg.resolver))
        try:
            with quiet_wayland():
                pygame.display.init()
        except pygame.error as exc:
            raise UserError("display", f"no video device ({exc}); {NO_WINDOW_FIX}") from None
        check_display_driver()
        pygame.font.init()
        self.pads = Gamepads.start(cfg.gamepad.dead_zone)
        self.sounds = Sounds.open(cfg.audio)
        self._item_sprites: ItemSprites | None = None
        self._heard_world: World | None = None  # the world the level-start sound was played for
        self.fullscreen = cfg.display.fullscreen
        self.vsync = False
        self.window = self._open_window()
        self.font = self.small = None
        self._fonts_for = 0
        self._wrapped: dict[tuple, list[str]] = {}  # wrap_text's answers, kept between frames
        # Kept between frames, so that a frame makes no surfaces: the view drawn at scale 1 (the
        # map renderer's buffers are encoded for it: see MapRenderer.draw), and the text images,
        # panels and overlays the last frames drew.
        self._scene: pygame.Surface | None = None
        self._made = Recent()
        self.background = Background()
        self.player_sprite = PlayerSprite()
        self.walker_sprite = WalkerSprite()
        self.platform_sprite = PlatformSprite()
        self.spear_sprite = SpearSprite()
        if self.world is not None:
            try:
                images = TileImages(self.world.level)
            except UserError:
                pygame.quit()  # close the window: the command line prints the one error line
                raise
            self._use_level(self.world.level, images)
        self.keys_seq = InputSequencer()
        if self.world is not None:
            self._new_run()
        self.paused = False
        self.debug = cfg.display.debug
        self.show_help = False
        self.banner: Banner | None = None
        self.camera: CameraState | None = None  # None: on the player at the next frame
        self.view_origin = (0, 0)  # top-left of the last drawn view, map px
        # What the last frame's HUD drew where: (text, area) and the panels under the text.
        self.hud_text: list[tuple[str, pygame.Rect]] = []
        self.hud_panels: list[pygame.Rect] = []
        self.error_line: str | None = None
        self.error_note = KEEPING
        self.pending_level: tuple[Path, float] | None = None
        # After the next level failed to load, the goal stays inert until the player has left
        # it (or restarted): standing on it must not retry the load every second.
        self.goal_wait = False
        self._jump_tapped = False
        self._throw_tapped = False
        self.running = True
        self._acc = 0.0
        self._next_check = 0.0
        if title:
            self.open_title(level_path, cfg.resolver)

    # --- set-up ---------------------------------------------------------------------------------
    def _resolver(self, name: str):
        if name not in self._resolvers:
            self._resolvers[name] = resolvers.create(name, self.cfg.resolver_options(name))
        return self._resolvers[name]

    def _open_window(self) -> pygame.Surface:
        d = self.cfg.display
        flags = pygame.FULLSCREEN if self.fullscreen else pygame.RESIZABLE
        size = (0, 0) if self.fullscreen else getattr(self, "windowed_size", (d.width, d.height))
        if d.vsync:
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

    def _use_level(self, level: Level, images: TileImages) -> None:
        self.images = images
        self.renderer = MapRenderer(level, images)
        self._watch = self._stamp(level)
        self._update_title()

    def _update_title(self) -> None:
        w = self.world
        pygame.display.set_caption(f"{w.level.title} - resolver: {w.resolver.name} - tilecollide")

    @staticmethod
    def _stamp(level: Level) -> tuple:
        """Modification times of the level's files (the .tmx, its tilesets, their images): a
        change triggers a hot reload."""
        files = level.files
        if not files:  # a Level made without its file list: the map and the tilesets beside it
            files = [level.path] + sorted(level.path.parent.glob("*.tsx"))
        out = []
        for f in files:
            try:
                out.append(f.stat().st_mtime_ns)
            except OSError:
                out.append(None)
        return tuple(out)

    # --- geometry -------------------------------------------------------------------------------
    def scale(self) -> int:
        w, h = self.window.get_size()
        s = self.cfg.display.scale
        return s if s > 0 else max(1, h // VIEW_HEIGHT)

    def view_size(self) -> tuple[int, int]:
        s = self.scale()
        w, h = self.window.get_size()
        return -(-w // s), -(-h // s)

    # --- ghosts and recordings ------------------------------------------------------------------
    def _new_run(self, follow: bool = False) -> None:
        """The player (re)starts on this level: ghosts from the same start (from where the
        player stands if ``follow``), and a fresh recording."""
        w = self.world
        self.comparison = None
        if self.ghosts_on:
            self.comparison = Comparison.create(w.level, w.physics, self.cfg)
            if follow:
                self.comparison.follow(w)
        if self.record is not None:
            self.record.start(w, self.cfg)

    def toggle_ghosts(self) -> None:
        self.ghosts_on = not self.ghosts_on
        if self.ghosts_on:
            w = self.world
            self.comparison = Comparison.create(w.level, w.physics, self.cfg)
            self.comparison.follow(w)
        else:
            self.comparison = None

    def finish_recording(self) -> None:
        """Write what was played on this level (--record); a failure shows in the error bar."""
        if self.record is None:
            return
        try:
            out = self.record.finish()
        except UserError as exc:
            self.record_error = exc
            self.error_line, self.error_note = exc.line(), "(the recording was not saved)"
            return
        if out is not None:
            self.banner = Banner(f"Recorded to {out}", time.monotonic() + BANNER_TIME)

    def ghosts(self) -> list[World]:
        """The ghosts shown: every world of the comparison but the player's resolver's."""
        if self.comparison is None:
            return []
        mine = self.world.resolver.name
        return [g for g in self.comparison.worlds if g.resolver.name != mine]

    # --- levels ---------------------------------------------------------------------------------
    def load(self, path: Path, keep_position: bool = False) -> bool:
        """Load ``path`` with its tile images; only when all of that worked, swap it in.

        On any failure the current level keeps playing and the error is shown in the bar: a
        user error as its own line, anything else as ``error: <file>: could not load (...)``.
        """
        got = self._open_level(path, self.world.resolver)
        if isinstance(got, str):
            return self._load_failed(path, got)
        world, images = got
        self.error_line = None
        self.error_note = KEEPING
        if keep_position:
            p = self.world.player
            spot = (p.x, p.y)
            self.world.replace_level(world.level, world.physics)
            if (p.x, p.y) != spot:
                self.camera = None  # sent back to the spawn: the camera goes with them
            self._new_run(follow=True)
        else:
            self._enter(world)
        self._use_level(self.world.level, images)
        return True

    def _open_level(self, path: Path, resolver) -> tuple[World, TileImages] | str:
        """The level at ``path`` with its tile images, or the error line saying why not: a user
        error as its own line, anything else as ``error: <file>: could not load (...)``."""
        try:
            world = load_world(path, self.cfg, resolver)
            return world, TileImages(world.level)
        except UserError as exc:
            return exc.line()
        except Exception as exc:  # a half-saved file can break a library in any way
            return UserError(path, f"could not load ({type(exc).__name__}: {exc})").line()

    def _enter(self, world: World) -> None:
        """Play ``world`` from its start."""
        if self.world is not None:
            self.finish_recording()
        self.camera = None
        self.world = world
        self._new_run()
        self.goal_wait = False
        # A new level: what was said about the last one ("Level complete!") is over, and a
        # level change still to come was for the last one too.
        self.pending_level = None
        self.banner = Banner(level_name(world.level), time.monotonic() + TITLE_TIME)

    def reload(self) -> bool:
        """Load the level's file again, the player kept in place: R, and the hot reload."""
        if not self.load(self.world.level.path, keep_position=True):
            return False
        self.banner = Banner("Reloaded", time.monotonic() + RELOADED_TIME)
        return True

    def _load_failed(self, path: Path, line: str) -> bool:
        self.error_line = line
        self.error_note = KEEPING
        if Path(path).resolve() == self.world.level.path.resolve():
            self._watch = self._stamp(self.world.level)  # don't retry until it changes again
        return False

    def load_next(self, path: Path) -> bool:
        """Go on to the next level; if it fails, say so and stay, the goal inert until left."""
        if self.load(path):
            return True
        self.error_line = f"next level: {self.error_line}"
        self.error_note = ("(staying on this level: fix that file, then step off the goal and "
                           "touch it again, or press Backspace to restart)")
        self.goal_wait = True
        self.world.goal_reached = False
        return False

    def complete_level(self) -> None:
        self.done.add(self.world.level.path.resolve())
        nxt, wrapped = next_level_path(self.world.level)
        text = "All levels done! Back to the first." if wrapped else "Level complete!"
        self.banner = Banner(text, time.monotonic() + BANNER_TIME, (255, 230, 120))
        self.pending_level = (nxt, time.monotonic() + BANNER_TIME * 0.6)

    def hot_reload_check(self) -> None:
        stamp = self._stamp(self.world.level)
        if stamp != self._watch:
            self._watch = stamp
            self.reload()

    # --- the title screen -----------------------------------------------------------------------
    def open_title(self, selected: Path | None, resolver: str) -> None:
        """Show the title screen, ``selected`` chosen in its list. Behind it pans the level just
        played, or else the selected one (nothing when that cannot be loaded)."""
        backdrop = None
        if self.world is not None:
            backdrop = Backdrop(self.world.level, self.images)
        elif selected is not None:
            got = self._open_level(selected, self._resolver(resolver))
            if not isinstance(got, str):
                backdrop = Backdrop(got[0].level, got[1])
        self.title_screen = TitleScreen(self.levels_dir, selected, resolver, self.done, backdrop)
        self.set_paused(False)
        self.show_help = False
        pygame.display.set_caption("tilecollide")

    def back_to_title(self) -> None:
        """Esc in play: the title screen, with this level and resolver chosen."""
        self.finish_recording()
        self.remember()
        self.open_title(self.world.level.path, self.world.resolver.name)

    def start_level(self, play: Play) -> bool:
        """Enter on the title: play the chosen level with the chosen resolver; if it does not
        load, the title screen stays and shows why."""
        got = self._open_level(play.path, self._resolver(play.resolver))
        if isinstance(got, str):
            self.title_screen.error_line = got
            return False
        world, images = got
        self.title_screen = None
        self.error_line = None
        self.error_note = KEEPING
        self._enter(world)
        self._use_level(world.level, images)
        self._acc = 0.0
        self.keys_seq = InputSequencer()
        self.remember()
        return True

    def _title_event(self, e: pygame.event.Event) -> None:
        if e.type == pygame.QUIT or (e.type == pygame.KEYDOWN and e.key == pygame.K_F11):
            self.handle_event(e)
            return
        action = self.title_screen.handle_event(e)
        if action == QUIT:
            self.running = False
        elif isinstance(action, Play):
            self.start_level(action)

    def _title_frame(self, frame_time: float) -> None:
        self.title_screen.update(frame_time)
        self.title_screen.draw(self.window, self.scale(), self.background)
        pygame.display.flip()

    # --- settings that last ---------------------------------------------------------------------
    def remember(self) -> None:
        """Save to the settings file (if any) the level and resolver last chosen (in play, or
        selected on the title screen) and the window's size when not fullscreen."""
        if self.store is None:
            return
        s = self.store.saved
        level, resolver = s.level, s.resolver
        if self.title_screen is not None:
            entry = self.title_screen.selected
            level = str(entry.path) if entry is not None else level
            resolver = self.title_screen.resolver
        elif self.world is not None:
            level, resolver = str(self.world.level.path.resolve()), self.world.resolver.name
        size = (getattr(self, "windowed_size", None) if self.fullscreen
                else self.window.get_size())
        w, h = clamp_window(*size) if size else (s.window_width, s.window_height)
        sounds = getattr(self, "sounds", None)
        volume = sounds.volume if sounds is not None else s.volume
        self.store.save(Settings(level=level, resolver=resolver, volume=volume,
                                 window_width=w, window_height=h))

    # --- input ----------------------------------------------------------------------------------
    def handle_event(self, e: pygame.event.Event) -> None:
        action = self.pads.handle(e)
        if action is not None:
            self.pad_action(action)
        elif e.type == pygame.QUIT:
            self.running = False
        elif e.type == pygame.KEYDOWN:
            k = e.key
            if self.script is not None and k not in VIEW_KEYS:
                self.script = None  # a key hands control back from the demo
            if k == pygame.K_ESCAPE:
                self.back_to_title()
            elif k == pygame.K_p:
                self.set_paused(not self.paused)
            elif self.paused and k == pygame.K_q:
                self.running = False
            elif self.paused and k == pygame.K_PERIOD:
                self._step_pending = True
            elif k == pygame.K_t:
                self.speed = (self.speed + 1) % len(SPEEDS)
            elif k == pygame.K_g:
                self.toggle_ghosts()
            elif k == pygame.K_F11:
                if not self.fullscreen:
                    self.windowed_size = self.window.get_size()  # back to this size after
                self.fullscreen = not self.fullscreen
                self.window = self._open_window()
            elif k == pygame.K_TAB:
                self.switch_resolver(-1 if e.mod & pygame.KMOD_SHIFT else 1)
            elif k == pygame.K_F3:
                self.debug = not self.debug
            elif k in (pygame.K_h, pygame.K_F1):
                self.show_help = not self.show_help
            elif k == pygame.K_r:
                self.reload()
            elif k == pygame.K_BACKSPACE:
                self.restart()
            elif k == pygame.K_m:
                self.toggle_mute()
            elif k in VOLUME_KEYS:
                self.change_volume(VOLUME_KEYS[k])
            elif k == pygame.K_HOME:
                seq = level_sequence(self.world.level.path)
                if seq:
                    self.load(seq[0])
                self.set_paused(False)
            elif (k in JUMP_KEYS or k in UP_KEYS) and not self.paused:
                self._jump_tapped = True  # a tap while paused is not kept for the resume
            elif k in THROW_KEYS and not self.paused:
                self._throw_tapped = True

    def pad_action(self, action: str) -> None:
        """A gamepad button press: as its key would (see game.view.pad)."""
        if action != "pause":
            self.script = None  # a button hands control back from the demo
        if action == "pause":
            self.set_paused(not self.paused)
        elif action == "restart":
            self.restart()
        elif action in ("next_resolver", "previous_resolver"):
            self.switch_resolver(1 if action == "next_resolver" else -1)
        elif action == "jump" and not self.paused:
            self._jump_tapped = True
        elif action == "throw" and not self.paused:
            self._throw_tapped = True

    def set_paused(self, paused: bool) -> None:
        self.paused = paused
        self._jump_tapped = self._throw_tapped = False

    def switch_resolver(self, step: int) -> None:
        names = resolvers.names()
        i = names.index(self.world.resolver.name) if self.world.resolver.name in names else 0
        self.world.set_resolver(self._resolver(names[(i + step) % len(names)]))
        self._update_title()
        if self.record is not None:  # a script cannot say "switch here": record afresh
            self.record.start(self.world, self.cfg)

    def restart(self) -> None:
        self.world.restart()
        self._new_run()
        self.camera = None
        self.goal_wait = False
        self.set_paused(False)

    def change_volume(self, step: float) -> None:
        volume = self.sounds.change_volume(step)
        text = (f"Volume {round(volume * 100)}%" if self.sounds.device
                else "No audio device: playing without sound")
        self.banner = Banner(text, time.monotonic() + MUTE_TIME)

    def toggle_mute(self) -> None:
        muted = self.sounds.toggle_mute()
        if not self.sounds.device:
            text = "No audio device: playing without sound"
        else:
            text = "Sound off" if muted else "Sound on"
        self.banner = Banner(text, time.monotonic() + MUTE_TIME)

    # --- the loop -------------------------------------------------------------------------------
    def run(self) -> int:
        clock = pygame.time.Clock()
        last = time.perf_counter()
        frames = 0
        if self.max_ticks == 0:
            self.running = False
        while self.running:
            now = time.perf_counter()
            self.frame(now - last if self.frame_time is None else self.frame_time)
            last = now
            frames += 1
            if self.max_frames is not None and frames >= self.max_frames:
                break
            clock.tick(0 if self.vsync else 240)
        if self.screenshot:
            pygame.image.save(self.window, self.screenshot)
        if self.world is not None and self.title_screen is None:
            self.finish_recording()
        self.remember()
        pygame.quit()
        if self.trace is not None:
            self.trace(self.trace_records, self.world.level if self.world else None)
        if self.record_error is not None:
            raise self.record_error  # the window is closed: one error line, exit code 2
        return 0

    def frame(self, frame_time: float) -> None:
        """One frame: events, the ticks the time allows, level changes, hot reload, the picture."""
        frame_time = min(frame_time, self.cfg.display.max_frame_time)
        for e in pygame.event.get():  # each to the state it arrives in (Esc, Enter switch)
            if self.title_screen is None:
                self.handle_event(e)
            else:
                self._title_event(e)
        if self.title_screen is not None:
            return self._title_frame(frame_time)
        w = self.world
        dt = w.physics.dt
        if w is not self._heard_world:
            self._heard_world = w
            self.sounds.play("level_start")
        if self.paused:
            self._acc = 0.0
            if self._step_pending:  # '.': exactly one tick, then paused again
                self._step_pending = False
                self.tick_once()
        else:
            self._acc += frame_time * SPEEDS[self.speed]
            ticks = 0
            while (self._acc >= dt and ticks < self.cfg.display.max_ticks_per_frame
                   and self.running and not self.paused):
                self.tick_once()
                self._acc -= dt
                ticks += 1
            if ticks == self.cfg.display.max_ticks_per_frame:
                self._acc = min(self._acc, dt)  # too far behind: drop the backlog
            p = w.player
            self.player_sprite.update(frame_time, p.on_ground, p.vx, p.vy, w.physics.run_speed)
            # A replay (--ticks, --trace) stays on its level, as headless does.
            replay = self.max_ticks is not None or self.trace is not None
            if w.goal_reached and self.pending_level is None and not replay:
                self.complete_level()
        mono = time.monotonic()
        if self.pending_level and mono >= self.pending_level[1]:
            path, _ = self.pending_level
            self.pending_level = None
            self.load_next(path)
        if self.cfg.display.hot_reload and mono >= self._next_check:
            self._next_check = mono + HOT_RELOAD_PERIOD
            self.hot_reload_check()
        self.draw(min(self._acc / self.world.physics.dt, 1.0), 0.0 if self.paused else frame_time)
        pygame.display.flip()

    def tick_once(self) -> None:
        """One tick of the simulation: the keys (the demo script's, or the keyboard's and the
        pads'), the world, the ghosts with the same input, the recording and the trace."""
        w = self.world
        if self.script is not None:
            held = self.script.held_at(w.tick)
        else:
            held = either(read_keys(pygame.key.get_pressed(), self._jump_tapped,
                                    self._throw_tapped), self.pads.held())
        self._jump_tapped = self._throw_tapped = False
        before = Snapshot.of(w)
        frame = self.keys_seq.frame(held)
        w.step(frame)
        if self.comparison is not None:
            self.comparison.step(frame)
            self.comparison.track_parting(w)
        if self.record is not None:
            self.record.add(held)
        if self.trace_records is not None:
            if self.comparison is not None:
                self.trace_records.extend(trace_record(g) for g in self.comparison.worlds)
            else:
                self.trace_records.append(trace_record(w))
        if self.goal_wait:
            if w.goal_reached:
                w.goal_reached = False  # still on the goal whose next level failed
            else:
                self.goal_wait = False  # left it: the next touch counts again
        for name in heard(before, Snapshot.of(w)) + event_sounds(w.events):
            self.sounds.play(name)
        self.ticks_run += 1
        if self.pause_at is not None and w.tick >= self.pause_at:
            self.pause_at = None
            self.set_paused(True)
        if self.max_ticks is not None and self.ticks_run >= self.max_ticks:
            self.running = False

    # --- drawing --------------------------------------------------------------------------------
    def draw(self, alpha: float, dt: float = 0.0) -> None:
        """The picture ``alpha`` of a tick after the last one; the camera moves on ``dt`` s."""
        w = self.world
        view_w, view_h = self.view_size()
        self._made.next_frame()
        if self._scene is None or self._scene.get_size() != (view_w, view_h):
            self._scene = pygame.Surface((view_w, view_h))
        scene = self._scene
        p = w.player
        bx = w.prev[0] + (p.x - w.prev[0]) * alpha
        by = w.prev[1] + (p.y - w.prev[1]) * alpha
        g = w.level.grid
        # The camera looks at the drawn hitbox's centre, measured up from its bottom by whole
        # pixels: the sprite is placed by its bottom, so both round alike (see game.sim.camera).
        centre = p.h - px(p.h / 2)
        target = (bx + p.w / 2, by + centre)
        view, world = (view_w, view_h), (g.width_px, g.height_px)
        if p.respawning:
            self.camera = None  # back on the player where they reappear
        self.camera = camera_step(self.camera, target, p.y + centre if p.on_ground else None, dt,
                                  view, world, self.cfg.camera)
        origin = self.view_origin = camera_view(self.camera, target, view, world)
        if w.level.background is not None:
            scene.fill(w.level.background)
        else:
            self.background.draw(scene, origin, (g.width_px, g.height_px))
        self.renderer.draw(scene, origin)
        self._items().draw(scene, w, origin, self.images)
        self._draw_goals(scene, origin)
        self._draw_walkers(scene, origin, alpha)
        self._draw_bodies(scene, origin, alpha)
        self._draw_ghosts(scene, origin, alpha)
        if not p.respawning:
            img = self.player_sprite.image(p.facing, p.vy)
            # The sprite's bottom centre sits on the hitbox's bottom centre; on a slope, on the
            # surface under that centre (see feet_on_slope).
            drop = feet_on_slope(g, bx, by, p.w, p.h) if (
                p.on_ground and w.resolver.supports_slopes) else 0.0
            sx = px(bx + p.w / 2) - img.get_width() // 2 - origin[0]
            sy = px(by + p.h + drop) - img.get_height() - origin[1]
            scene.blit(img, (sx, sy))
        self.renderer.draw_front(scene, origin)  # tile layers after the object layer
        if self.debug:
            self._draw_debug(scene, origin, bx, by)
        blit_scaled(scene, self.scale(), self.window)
        self._draw_hud()

    def _draw_ghosts(self, scene: pygame.Surface, origin: tuple[int, int], alpha: float) -> None:
        """Each ghost translucent in its resolver's colour, blended like the player, with its
        hitbox outlined; where it parted from the player, a marker and a line to it now. Their
        names are drawn later, at window resolution (``ghost_labels``)."""
        self.ghost_labels: list[tuple[str, tuple[int, int], tuple[int, int, int]]] = []
        ox, oy = origin
        g = self.world.level.grid
        for ghost in self.ghosts():
            name = ghost.resolver.name
            colour = resolvers.colour(name)
            k = ghost.player
            x = ghost.prev[0] + (k.x - ghost.prev[0]) * alpha
            y = ghost.prev[1] + (k.y - ghost.prev[1]) * alpha
            parted = self.comparison.parted.get(name)
            if parted is not None:
                px0, py0 = parted.ghost_xy
                start = (px(px0 + k.w / 2) - ox, px(py0 + k.h / 2) - oy)
                pygame.draw.line(scene, colour, start, (px(x + k.w / 2) - ox,
                                                        px(y + k.h / 2) - oy))
                pygame.draw.circle(scene, colour, start, 3, 1)
            if k.respawning:
                continue
            img = self.player_sprite.image(k.facing, k.vy)
            tinted = self._made.get(("ghost", name, id(img)), lambda: self._tint(img, colour))
            drop = feet_on_slope(g, x, y, k.w, k.h) if (
                k.on_ground and ghost.resolver.supports_slopes) else 0.0
            sx = px(x + k.w / 2) - img.get_width() // 2 - ox
            sy = px(y + k.h + drop) - img.get_height() - oy
            scene.blit(tinted, (sx, sy))
            pygame.draw.rect(scene, colour, (px(x) - ox, px(y) - oy, px(k.w), px(k.h)), 1)
            self.ghost_labels.append((name, (px(x + k.w / 2) - ox, sy), colour))

    @staticmethod
    def _tint(img: pygame.Surface, colour: tuple[int, int, int]) -> pygame.Surface:
        """``img`` half way to ``colour`` and translucent: a ghost's look."""
        out = img.copy()
        out.fill(tuple(c // 2 + 64 for c in colour), special_flags=pygame.BLEND_RGB_MULT)
        out.fill(tuple(c // 2 for c in colour), special_flags=pygame.BLEND_RGB_ADD)
        out.set_alpha(GHOST_ALPHA)
        return out

    def _items(self) -> ItemSprites:
        """Coins, checkpoints, switches and doors' pictures, loaded on first use."""
        if self._item_sprites is None:
            self._item_sprites = ItemSprites()
        return self._item_sprites

    def _draw_walkers(self, scene: pygame.Surface, origin: tuple[int, int], alpha: float) -> None:
        """The walkers inside the view, each blended between its last two ticks like the player,
        its sprite's bottom centre on its hitbox's (on a slope, on the surface: feet_on_slope)."""
        w = self.world
        if not w.walkers:
            return
        g, sprite = w.level.grid, self.walker_sprite
        slopes = w.resolver.supports_slopes
        m = 16  # px: a sprite reaches less than a frame past its hitbox
        left, top = origin[0] - m, origin[1] - m
        right, bottom = origin[0] + scene.get_width() + m, origin[1] + scene.get_height() + m
        drawn = []
        for k in w.walkers:
            x = k.prev_x + (k.x - k.prev_x) * alpha
            y = k.prev_y + (k.y - k.prev_y) * alpha
            if k.fallen or x + k.w < left or x > right or y + k.h < top or y > bottom:
                continue
            img = sprite.image(k.facing, x)
            drop = feet_on_slope(g, x, y, k.w, k.h) if k.on_ground and slopes else 0.0
            drawn.append((img, (px(x + k.w / 2) - img.get_width() // 2 - origin[0],
                                px(y + k.h + drop) - img.get_height() - origin[1])))
        scene.blits(drawn, doreturn=False)

    def _draw_bodies(self, scene: pygame.Surface, origin: tuple[int, int], alpha: float) -> None:
        """The moving platforms and the spears in play, blended between their last two ticks."""
        w = self.world
        for pl in w.platforms:
            x = pl.prev_x + (pl.x - pl.prev_x) * alpha
            y = pl.prev_y + (pl.y - pl.prev_y) * alpha
            img = self.platform_sprite.image(max(1, px(pl.w)), max(1, px(pl.h)), pl.one_way)
            scene.blit(img, (px(x) - origin[0], px(y) - origin[1]))
        for s in w.spears:
            if not s.state:
                continue
            x = s.prev_x + (s.x - s.prev_x) * alpha + s.w / 2
            y = s.prev_y + (s.y - s.prev_y) * alpha + s.h / 2
            img = self.spear_sprite.image(s.vx, s.vy, s.facing)
            if s.vx == 0.0 and s.vy == 0.0:  # stuck or lying: the tip at the box's front edge
                x += s.facing * (s.w / 2 + 2 - SPEAR_LENGTH / 2)
            scene.blit(img, (px(x) - img.get_width() // 2 - origin[0],
                             px(y) - img.get_height() // 2 - origin[1]))

    def _draw_goals(self, scene: pygame.Surface, origin: tuple[int, int]) -> None:
        t = time.monotonic()
        for goal in self.world.level.goals:
            glow = 120 + int(60 * (1 + math.sin(t * 4)) / 2)
            rect = pygame.Rect(px(goal.x) - origin[0], px(goal.y) - origin[1],
                               max(1, px(goal.w)), max(1, px(goal.h))).clip(scene.get_rect())
            overlay = self._made.get(("goal", rect.size),
                                     lambda: pygame.Surface(rect.size, pygame.SRCALPHA))
            overlay.fill(GOAL_GLOW + (glow // 4,))
            scene.blit(overlay, rect)

    def _draw_debug(self, scene: pygame.Surface, origin: tuple[int, int], bx: float,
                    by: float) -> None:
        w = self.world
        g = w.level.grid
        tw, th = g.tile_w, g.tile_h
        ox, oy = origin
        vw, vh = scene.get_size()
        colours = DEBUG_TILES
        grid_layer = self._made.get(("debug grid", (vw, vh)),
                                    lambda: pygame.Surface((vw, vh), pygame.SRCALPHA))
        grid_layer.fill((0, 0, 0, 0))
        for row in range(max(0, oy // th), min(g.rows, (oy + vh) // th + 1)):
            for col in range(max(0, ox // tw), min(g.cols, (ox + vw) // tw + 1)):
                kind = g.kind(col, row)
                if kind in colours:
                    r = pygame.Rect(col * tw - ox, row * th - oy, tw, th)
                    if kind == SLOPE:
                        left, right = g.slope_heights(col, row)
                        pts = [(r.left, r.bottom - left), (r.right, r.bottom - right),
                               (r.right, r.bottom), (r.left, r.bottom)]
                        pygame.draw.lines(grid_layer, colours[kind], True, pts)
                    else:
                        pygame.draw.rect(grid_layer, colours[kind], r, 1)
        scene.blit(grid_layer, (0, 0))
        for col, row in set(w.player.contacts.probed):
            r = pygame.Rect(col * tw - ox, row * th - oy, tw, th)
            scene.blit(self._made.get(("probed", r.size), lambda: self._overlay(r.size, PROBED)), r)
        for ghost in self.ghosts():
            colour = resolvers.colour(ghost.resolver.name)
            for col, row in set(ghost.player.contacts.probed):
                pygame.draw.rect(scene, colour, (col * tw - ox + 1, row * th - oy + 1,
                                                 tw - 2, th - 2), 1)
        for world in [w] + self.ghosts():
            push = push_out(world)
            if push is not None:
                colour = (resolvers.colour(world.resolver.name)
                          if world is not w else PUSH_OUT)
                self._draw_push(scene, origin, world.player, push, colour)
        p = w.player
        c = p.contacts
        box = pygame.Rect(px(bx) - ox, px(by) - oy, px(p.w), px(p.h))
        pygame.draw.rect(scene, HITBOX_STANDING if p.on_ground else HITBOX_AIR, box, 1)
        edge = CONTACT_EDGE
        if c.on_ground:
            pygame.draw.line(scene, edge, box.bottomleft, box.bottomright)
        if c.hit_ceiling:
            pygame.draw.line(scene, edge, box.topleft, box.topright)
        if c.hit_left:
            pygame.draw.line(scene, edge, box.topleft, box.bottomleft)
        if c.hit_right:
            pygame.draw.line(scene, edge, box.topright, box.bottomright)

    @staticmethod
    def _draw_push(scene, origin, body, push, colour) -> None:
        """A push-out: the box the move tried to reach (dotted corners) and a line from its
        centre to the resolved box's centre, ending in a dot."""
        ax, ay, rx, ry = push
        ox, oy = origin
        a = (px(ax + body.w / 2) - ox, px(ay + body.h / 2) - oy)
        r = (px(rx + body.w / 2) - ox, px(ry + body.h / 2) - oy)
        tried = pygame.Rect(px(ax) - ox, px(ay) - oy, px(body.w), px(body.h))
        for corner in (tried.topleft, tried.topright, tried.bottomleft, tried.bottomright):
            scene.set_at(corner, colour)
        pygame.draw.line(scene, colour, a, r)
        pygame.draw.circle(scene, colour, r, 1)

    @staticmethod
    def _overlay(size: tuple[int, int], colour: tuple[int, int, int, int]) -> pygame.Surface:
        overlay = pygame.Surface(size, pygame.SRCALPHA)
        overlay.fill(colour)
        return overlay

    def _fonts(self) -> None:
        size = max(16, self.window.get_height() // 26)
        if self._fonts_for != size:
            self.font = pygame.font.Font(None, size)
            self.small = pygame.font.Font(None, max(14, size * 4 // 5))
            self._fonts_for = size

    def _wrap(self, text: str, width: int, sep: str = " ", big: bool = False) -> list[str]:
        """wrap_text in the small font (the large one if ``big``), remembered between frames."""
        key = (text, width, self._fonts_for, sep, big)
        if key not in self._wrapped:
            if len(self._wrapped) > 16:
                self._wrapped.clear()
            self._wrapped[key] = wrap_text(self.font if big else self.small, text, width, sep)
        return self._wrapped[key]

    def _text(self, font, text: str, pos: tuple[int, int], colour=(255, 255, 255),
              anchor: str = "topleft") -> pygame.Rect:
        """Text with a drop shadow; returns (and keeps in ``hud_text``) the area both cover."""
        img, shadow = self._made.get(("text", font, text, colour), lambda: (
            font.render(text, True, colour), font.render(text, True, SHADOW)))
        rect = img.get_rect(**{anchor: pos})
        self.window.blit(shadow, rect.move(2, 2))
        self.window.blit(img, rect)
        covered = rect.union(rect.move(2, 2))
        self.hud_text.append((text, covered))
        return covered

    def _panel(self, rect: pygame.Rect) -> None:
        """A translucent dark panel, so that text reads over sky, clouds and dirt alike."""
        if rect.width <= 0 or rect.height <= 0:
            return
        self.window.blit(self._made.get(("panel", rect.size), lambda: self._make_panel(rect.size)),
                         rect)
        self.hud_panels.append(rect)

    @staticmethod
    def _make_panel(size: tuple[int, int]) -> pygame.Surface:
        panel = pygame.Surface(size, pygame.SRCALPHA)
        pygame.draw.rect(panel, PANEL, panel.get_rect(), border_radius=max(2, size[1] // 12))
        return panel

    def _width(self, font, text: str) -> int:
        """``font.size(text)[0]``, remembered while the text is shown."""
        return self._made.get(("width", font, text), lambda: font.size(text)[0])

    def _block(self, rows: list[tuple[str, tuple[int, int, int]]], font, left: int, top: int,
               inner: int) -> pygame.Rect:
        """Lines of text on one panel, their top-left at (left, top); returns the panel."""
        width = max(self._width(font, text) for text, _ in rows) + 2
        line_h = font.get_linesize()
        panel = pygame.Rect(left - inner, top - inner, width + 2 * inner,
                            len(rows) * line_h + 2 * inner)
        self._panel(panel)
        for i, (text, colour) in enumerate(rows):
            self._text(font, text, (left, top + i * line_h), colour)
        return panel

    def _label(self, text: str, centre: tuple[int, int], colour: tuple[int, int, int],
               inner: int) -> None:
        """A message in the large font on its own panel, centred at ``centre``."""
        w, h = self.font.size(text)
        self._panel(pygame.Rect(0, 0, w + 2 + 2 * inner, h + 2 * inner).move(
            centre[0] - w // 2 - inner, centre[1] - h // 2 - inner))
        self._text(self.font, text, centre, colour, "center")

    def _debug_lines(self, c: Contacts | None = None) -> list[str]:
        """The debug view's text: the player's position, speed and ``c`` (default: the contacts
        of the player's last move)."""
        w = self.world
        p = w.player
        c = p.contacts if c is None else c
        flags = " ".join(n for n, v in (("ground", c.on_ground), ("ceiling", c.hit_ceiling),
                                        ("left", c.hit_left), ("right", c.hit_right),
                                        ("one-way", c.on_one_way)) if v)
        probed = len(set(c.probed))
        return [f"x {p.x:8.2f}  y {p.y:8.2f}", f"vx {p.vx:7.1f}  vy {p.vy:7.1f} px/s",
                f"contacts: {flags or '-'}", f"probed: {probed} cell{'' if probed == 1 else 's'}",
                f"tick {w.tick}"]

    LEGEND = ("solid tile", "one-way tile", "slope tile", "probed cell",
              "hitbox (white: in the air)", "contact edge", "a ghost's probed cell",
              "push-out: tried -> resolved")

    def _legend(self, left: int, top: int, inner: int) -> pygame.Rect:
        """The debug view's key: each mark drawn as the scene draws it, and its name."""
        font = self.small
        line_h = font.get_linesize()
        size = max(6, line_h - 4)
        width = size + 8 + max(self._width(font, name) for name in self.LEGEND) + 2
        panel = pygame.Rect(left - inner, top - inner, width + 2 * inner,
                            len(self.LEGEND) * line_h + 2 * inner)
        self._panel(panel)
        for i, name in enumerate(self.LEGEND):
            self.window.blit(self._made.get(("swatch", i, size, self.scale()),
                                            lambda: self._swatch(i, size)),
                             (left, top + i * line_h + (line_h - size) // 2))
            self._text(font, name, (left + size + 8, top + i * line_h), (220, 220, 235))
        return panel

    def _swatch(self, item: int, size: int) -> pygame.Surface:
        """The mark for LEGEND[item], ``size`` px square."""
        sw = pygame.Surface((size, size), pygame.SRCALPHA)
        r = sw.get_rect()
        t = max(1, min(self.scale(), size // 4))  # as thick as the scaled scene's 1 px lines
        if item == 0:  # more opaque than in the scene: on the dark panel it would hardly show
            pygame.draw.rect(sw, DEBUG_TILES[SOLID][:3] + (220,), r, t)
        elif item == 1:
            pygame.draw.rect(sw, DEBUG_TILES[ONE_WAY], r, t)
        elif item == 2:
            pygame.draw.polygon(sw, DEBUG_TILES[SLOPE], [r.bottomleft, (r.right - 1, r.top),
                                                          (r.right - 1, r.bottom - 1)], t)
        elif item == 3:
            sw.fill(PROBED[:3] + (120,))
            pygame.draw.rect(sw, PROBED[:3] + (200,), r, 1)
        elif item == 6:
            pygame.draw.rect(sw, resolvers.colour("sweep"), r.inflate(-2, -2), 1)
        elif item == 7:
            pygame.draw.line(sw, PUSH_OUT, (1, 1), (r.right - 2, r.bottom - 2), max(1, t // 2))
            pygame.draw.circle(sw, PUSH_OUT, (r.right - 2, r.bottom - 2), max(1, t))
        else:  # the hitbox, and for a contact its touching edge
            pygame.draw.rect(sw, HITBOX_STANDING, r, t)
            if item == 5:
                y = r.bottom - 1 - t // 2
                pygame.draw.line(sw, CONTACT_EDGE, (0, y), (r.right, y), max(2, t))
        return sw

    def _draw_hud(self) -> None:
        self._fonts()
        self.hud_text.clear()
        self.hud_panels.clear()
        w = self.world
        win_w, win_h = self.window.get_size()
        pad = max(8, win_h // 60)
        inner = max(4, pad // 2)  # text to panel edge
        line_h = self.small.get_linesize()

        # Each ghost's name above its head (scene px to window px).
        # Ghosts drawn at one spot share a label, one name above the other.
        s = self.scale()
        taken: list[pygame.Rect] = []
        for name, (gx, gy), colour in self.ghost_labels:
            r = pygame.Rect(0, 0, self._width(self.small, name) + 4, line_h)
            r.midbottom = (gx * s, gy * s - 2)
            while r.collidelist(taken) >= 0:
                r.move_ip(0, -line_h)
            taken.append(r)
            self._text(self.small, name, r.midbottom, colour, "midbottom")

        # Top right: the two keys worth knowing.
        hint = "H help   F3 debug"
        hint_w = self._width(self.small, hint) + 2
        self._panel(pygame.Rect(win_w - pad - hint_w - inner, pad - inner, hint_w + 2 * inner,
                                line_h + 2 * inner))
        self._text(self.small, hint, (win_w - pad - 2, pad), (220, 220, 235), "topright")

        # Top left: the level, the resolver and what it does, wrapped to fit any window.
        d = resolvers.describe(w.resolver.name)
        slopes = "slopes" if d["slopes"] else "slopes as boxes"
        full = win_w - 2 * pad - 2
        text_w = min(full, max(win_w * 3 // 5, 480))
        title_w = max(full - hint_w - 2 * inner - pad, full // 3)
        rows = [(line, self.font, (255, 255, 255))
                for line in self._wrap(w.level.title, title_w, big=True)]
        rows += [(line, self.font, (255, 235, 150)) for line in self._wrap(
            f"resolver: {w.resolver.name}  (Tab to switch)", full, big=True)]
        rows += [(line, self.small, (220, 220, 235))
                 for line in self._wrap(f"{d['summary']}; {d['axis_order']}; {slopes}", text_w)]
        flow = hud_line(w)  # coins and checkpoint, on a level with them
        if flow:
            rows.append((flow, self.font, (150, 235, 160)))
        height = sum(f.get_linesize() for _, f, _ in rows)
        width = max(self._width(f, t) for t, f, _ in rows) + 2
        self._panel(pygame.Rect(pad - inner, pad - inner, width + 2 * inner, height + 2 * inner))
        y = pad
        for text, font, colour in rows:
            self._text(font, text, (pad, y), colour)
            y += font.get_linesize()
        below_top = y + inner + pad // 2

        # What is drawn at the bottom stacks upward from the window's bottom edge.
        bottom = win_h
        if self.error_line:
            lines = self._wrap(f"{self.error_line}  {self.error_note}", win_w - 2 * pad)
            bar = pygame.Rect(0, win_h - len(lines) * line_h - 2 * pad, win_w,
                              len(lines) * line_h + 2 * pad)
            self.window.fill(ERROR_BAR, bar)
            for i, line in enumerate(lines):
                self._text(self.small, line, (pad, bar.top + pad + i * line_h))
            bottom = bar.top
        if self.show_help:
            lines = self._wrap(HELP, win_w - 2 * pad - 2 * inner - 2, "   ")
            top = bottom - pad - len(lines) * line_h
            widest = max(self._width(self.small, line) for line in lines) + 2
            self._panel(pygame.Rect((win_w - widest) // 2 - inner, top - inner,
                                    widest + 2 * inner, len(lines) * line_h + 2 * inner))
            for i, line in enumerate(lines):
                self._text(self.small, line, (win_w // 2, top + i * line_h), anchor="midtop")
            bottom = top - inner

        # The debug numbers and the key to the debug view's colours, under the top left block:
        # one above the other where there is room, else side by side.
        if self.debug:
            rows = [(line, (170, 255, 190)) for line in self._debug_lines()]
            rows.append((f"push-out: {push_text(w)}", (170, 255, 190)))
            for ghost in self.ghosts():
                name, gp = ghost.resolver.name, ghost.player
                parted = self.comparison.parted.get(name)
                where = f"parted at tick {parted.tick}" if parted else "with the player"
                rows.append((f"{name}: x {gp.x:.2f} y {gp.y:.2f}  push-out {push_text(ghost)}  "
                             f"{where}", resolvers.colour(name)))
            nums = self._block(rows, self.small, pad, below_top + inner, inner)
            legend_h = len(self.LEGEND) * line_h + 2 * inner
            if nums.bottom + pad // 2 + legend_h <= bottom:
                self._legend(pad, nums.bottom + pad // 2 + inner, inner)
            else:
                self._legend(nums.right + pad // 2 + inner, below_top + inner, inner)

        if w.player.respawning:
            self._label("Oops! Respawning...", (win_w // 2, win_h // 3), (255, 200, 200), inner)
        if self.banner and time.monotonic() < self.banner.until:
            self._label(self.banner.text, (win_w // 2, win_h // 4), self.banner.colour, inner)
        # The clock: paused (the scene stays live: '.' steps it), slow motion, a demo playing.
        state = []
        if self.paused:
            state.append((f"Paused at tick {w.tick}", self.font, (255, 255, 255)))
            state.append(("'.' one tick   P resume   Esc title screen   Q quit   "
                          "Backspace restart   Home first level", self.small, (220, 220, 235)))
        if self.speed:
            state.append((f"slow motion {SPEED_NAMES[self.speed]}  (T: faster)", self.small,
                          (255, 235, 150)))
        if self.script is not None:
            state.append(("demo: playing the input script (a key takes over)", self.small,
                          (255, 235, 150)))
        if state:
            height = sum(f.get_linesize() for _, f, _ in state)
            width = max(self._width(f, t) for t, f, _ in state) + 2
            top = bottom - pad - height
            self._panel(pygame.Rect((win_w - width) // 2 - inner, top - inner,
                                    width + 2 * inner, height + 2 * inner))
            for text, font, colour in state:
                self._text(font, text, (win_w // 2, top), colour, "midtop")
                top += font.get_linesize()


def run_app(cfg: Config, level_path: Path, **kwargs) -> int:
    return App(cfg, level_path, **kwargs).run()
