"""The window's shell: opens the window, holds what the scenes share, switches between the title
screen and play, and runs the frame loop.

Two scenes: the title screen (game.view.title: choose a level and a resolver) and play
(game.view.play: the level being played). Each owns its events and its drawing; the App gives
each event to the scene on screen and carries out what a scene hands back: Enter on the title
plays the chosen level, Esc in play goes back to the title, Esc on the title quits. The frame
loop itself is game.view.loop's.
"""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from game import resolvers  # noqa: E402
from game.config import Config  # noqa: E402
from game.errors import UserError  # noqa: E402
from game.runs.progress import Progress  # noqa: E402
from game.runs.settings import Settings, Store, clamp_window  # noqa: E402
from game.sim.inputs import InputScript  # noqa: E402
from game.sim.world import World, load_world  # noqa: E402
from game.view.keymap import key_action  # noqa: E402
from game.view.levels import open_level  # noqa: E402
from game.view.loop import clamp_frame, run_frames  # noqa: E402
from game.view.pad import Gamepads  # noqa: E402
from game.view.play import PlayScene, RunOptions, Shared  # noqa: E402
from game.view.render import TileImages  # noqa: E402
from game.view.sound import Sounds  # noqa: E402
from game.view.sprites import Background  # noqa: E402
from game.view.title import QUIT, Backdrop, Play, TitleScreen  # noqa: E402
from game.view.window import Window, start_display  # noqa: E402


class App:
    """The shell: the window and what the scenes share, the scene on screen, the loop."""

    def __init__(self, cfg: Config, level_path: Path, *, max_frames: int | None = None,
                 screenshot: str | None = None, script: InputScript | None = None,
                 frame_time: float | None = None, title: bool = False,
                 levels_dir: Path | None = None, store: Store | None = None,
                 max_ticks: int | None = None, trace=None, ghosts: bool = False,
                 record=None, pause_at: int | None = None) -> None:
        """Play ``level_path``, or with ``title`` open on the title screen with it selected.

        For tools and tests: stop after ``max_frames``, save the window to ``screenshot``,
        pretend every frame lasted ``frame_time`` seconds (a deterministic replay) instead of
        reading the clock. From the command line: ``levels_dir`` the folder the title lists,
        ``store`` the settings file (None to leave it be), ``script`` keys by tick (--input),
        ``max_ticks`` close after that many ticks (--ticks), ``trace`` called at the end with
        the trace records and the level (--trace), ``ghosts`` start with them shown
        (--ghosts), ``record`` a game.runs.record.Recorder (--record); ``pause_at`` pause once
        the world reaches that tick.
        """
        self.cfg = cfg
        self.max_frames, self.screenshot, self.frame_time = max_frames, screenshot, frame_time
        self.trace = trace
        self.options = RunOptions(script=script, max_ticks=max_ticks, trace=trace is not None,
                                  record=record, ghosts=ghosts, pause_at=pause_at)
        self.levels_dir = Path(levels_dir) if levels_dir is not None else Path(cfg.level).parent
        self.store = store
        self._resolvers: dict[str, object] = {}
        self.title_screen: TitleScreen | None = None
        self.play: PlayScene | None = None
        world = None if title else load_world(level_path, cfg, self.resolver(cfg.resolver))
        start_display()
        pads = Gamepads.start(cfg.gamepad.dead_zone)
        sounds = Sounds.open(cfg.audio)
        progress = Progress(store.saved.finished if store is not None else ())
        self.shared = Shared(cfg, Window(cfg.display), sounds, pads, Background(), self.resolver,
                             progress, self.remember)
        self.running = True
        if world is not None:
            try:
                images = TileImages(world.level)
            except UserError:
                pygame.quit()  # close the window: the command line prints the one error line
                raise
            self.play = PlayScene(self.shared, self.options, world, images)
        if title:
            self.open_title(level_path, cfg.resolver)

    def resolver(self, name: str):
        """The resolver called ``name``, made once and kept (its options from the config)."""
        if name not in self._resolvers:
            self._resolvers[name] = resolvers.create(name, self.cfg.resolver_options(name))
        return self._resolvers[name]

    @property
    def world(self) -> World | None:
        """The world in play (or last played, behind the title screen); None before any."""
        return self.play.world if self.play is not None else None

    @property
    def window(self) -> pygame.Surface:
        return self.shared.window.surface

    @property
    def sounds(self) -> Sounds:
        return self.shared.sounds

    @property
    def pads(self) -> Gamepads:
        return self.shared.pads

    # --- scenes -------------------------------------------------------------------------------
    def open_title(self, selected: Path | None, resolver: str) -> None:
        """Show the title screen, ``selected`` chosen in its list. Behind it pans the level just
        played, or else the selected one (nothing when that cannot be loaded)."""
        backdrop = None
        if self.play is not None:
            backdrop = Backdrop(self.play.world.level, self.play.images)
            self.play.leave()
        elif selected is not None:
            got = open_level(selected, self.cfg, self.resolver(resolver))
            if not isinstance(got, str):
                backdrop = Backdrop(got.world.level, got.images, got.renderer)
        self.title_screen = TitleScreen(self.levels_dir, selected, resolver,
                                        self.shared.progress, backdrop)
        pygame.display.set_caption("tilecollide")

    def back_to_title(self) -> None:
        """Esc in play: the title screen, with this level and resolver chosen."""
        self.play.finish_recording()
        self.remember()
        self.open_title(self.play.world.level.path, self.play.world.resolver.name)

    def start_level(self, choice: Play) -> bool:
        """Enter on the title: play the chosen level with the chosen resolver; if it does not
        load, the title screen stays and shows why."""
        got = open_level(choice.path, self.cfg, self.resolver(choice.resolver))
        if isinstance(got, str):
            self.title_screen.error_line = got
            return False
        world, images, renderer = got
        self.title_screen = None
        if self.play is None:
            self.play = PlayScene(self.shared, self.options, world, images, announce=True,
                                  renderer=renderer)
        else:
            self.play.start(world, images, renderer)
        self.remember()
        return True

    def remember(self) -> None:
        """Save to the settings file (if any) the level and resolver last chosen (in play, or
        selected on the title screen), the window's size when not fullscreen, and the levels
        finished with their best times."""
        if self.store is None:
            return
        s = self.store.saved
        level, resolver = s.level, s.resolver
        if self.title_screen is not None:
            entry = self.title_screen.selected
            level = str(entry.path) if entry is not None else level
            resolver = self.title_screen.resolver
        elif self.play is not None:
            level, resolver = str(self.world.level.path.resolve()), self.world.resolver.name
        size = self.shared.window.size_to_remember()
        w, h = clamp_window(*size) if size else (s.window_width, s.window_height)
        self.store.save(Settings(level=level, resolver=resolver, volume=self.sounds.volume,
                                 window_width=w, window_height=h,
                                 finished=self.shared.progress.as_settings()))

    # --- events and frames --------------------------------------------------------------------
    def handle_event(self, e: pygame.event.Event) -> None:
        """One event, to the scene on screen; what the scene hands back is done here."""
        if e.type == pygame.QUIT:
            self.running = False
            return
        if self.title_screen is None:
            self._do(self.play.handle_event(e))
        elif e.type == pygame.KEYDOWN and key_action(e.key) == "fullscreen":
            self._do("fullscreen")
        else:
            choice = self.title_screen.handle_event(e)
            if choice == QUIT:
                self.running = False
            elif isinstance(choice, Play):
                self.start_level(choice)

    def _do(self, action: str | None) -> None:
        if action == "title":
            self.back_to_title()
        elif action == "quit":
            self.running = False
        elif action == "fullscreen":
            self.shared.window.toggle_fullscreen()

    def frame(self, frame_time: float) -> None:
        """One frame: events, the scene on screen moved on by the time (clamped), the picture."""
        frame_time = clamp_frame(frame_time, self.cfg.display.max_frame_time)
        for e in pygame.event.get():  # each to the scene it arrives in (Esc, Enter switch)
            self.handle_event(e)
        window = self.shared.window
        if self.title_screen is not None:
            self.title_screen.update(frame_time)
            title = self.title_screen
            title.draw(window.surface, window.scale(title.physics_scale), self.shared.background)
        else:
            play = self.play
            play.update(frame_time, self.running)
            if play.finished:
                self.running = False
            play.draw(play.alpha(), 0.0 if play.paused else frame_time)
        pygame.display.flip()

    def run(self) -> int:
        if self.options.max_ticks == 0:
            self.running = False
        try:
            run_frames(self.frame, lambda: self.running, max_frames=self.max_frames,
                       frame_time=self.frame_time, vsync=lambda: self.shared.window.vsync)
        except Exception:
            # A frame that broke (a fault of the game's) still leaves what was played: the
            # trace asked for is written before the error goes on.
            pygame.quit()
            self._write_trace()
            raise
        if self.screenshot:
            pygame.image.save(self.window, self.screenshot)
        if self.play is not None and self.title_screen is None:
            self.play.finish_recording()
        self.remember()
        pygame.quit()
        self._write_trace()
        if self.play is not None and self.play.record_error is not None:
            raise self.play.record_error  # the window is closed: one error line, exit code 2
        return 0


    def _write_trace(self) -> None:
        if self.trace is not None:
            records = self.play.followers.trace_records if self.play is not None else []
            self.trace(records, self.world.level if self.world else None)


def run_app(cfg: Config, level_path: Path, **kwargs) -> int:
    return App(cfg, level_path, **kwargs).run()
