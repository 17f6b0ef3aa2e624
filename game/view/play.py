"""The play scene: a level being played in the window.

It owns its events (keys and pad buttons become actions through game.view.keymap), runs the
simulation's ticks as the frame loop allows (game.view.loop), moves from level to level
(game.view.levels), reloads a level saved in Tiled (game.view.hot_reload), keeps the ghosts,
the recording and the trace in step (game.view.followers), and draws: the scene
(game.view.world_view), the debug marks (game.view.debug), the HUD (game.view.hud).

What it cannot do itself it hands back to the App as an action: ``title`` (Esc), ``quit``
(Q while paused) and ``fullscreen`` (F11).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pygame

from game import resolvers
from game.config import Config, scaled_camera
from game.errors import UserError
from game.runs.progress import Progress, RunTally, Summary
from game.sim.camera import CameraState
from game.sim.inputs import InputScript, InputSequencer
from game.sim.world import World
from game.view import banners
from game.view.banners import Banner
from game.view.debug import debug_rows, draw_marks
from game.view.effects import Effects, Moment
from game.view.followers import Followers
from game.view.hot_reload import Watcher
from game.view.hud import NOTE_TIME, HudInfo, draw_hud
from game.view.keymap import VOLUME_STEPS, applies, held_keys, key_action, takes_over
from game.view.levels import (level_name, level_sequence, next_level_path, open_level,
                              sequence_title)
from game.view.loop import SPEEDS, FixedStep
from game.view.pad import Gamepads, either
from game.view.painter import TextPainter
from game.view.render import MapRenderer, TileImages
from game.view.surfaces import Recent, blit_scaled
from game.view.sound import Snapshot, Sounds, event_sounds, heard
from game.view.sprites import Background
from game.view.window import Window
from game.view.world_view import WorldPainter, drawn_position, follow

KEEPING = "(keeping the last good level)"
CARD_TIME = 4.0  # s the end-of-level card stays up before the next level comes in (Enter: now)
NOT_SAVED = "(the recording was not saved)"
STAYING = ("(staying on this level: fix that file, then step off the goal and touch it again, "
           "or press Backspace to restart)")
TO_APP = frozenset({"title", "quit", "fullscreen"})  # actions the App carries out


@dataclass
class Shared:
    """What the scenes share, set up once by the App."""

    cfg: Config
    window: Window
    sounds: Sounds
    pads: Gamepads
    background: Background
    resolver: Callable[[str], object]  # a resolver by its name, each made once
    progress: Progress = field(default_factory=Progress)  # levels finished, best times
    remember: Callable[[], None] = lambda: None  # save the settings (the App's), as after a finish


@dataclass
class RunOptions:
    """How the window was asked to play, by the command line, a tool or a test."""

    script: InputScript | None = None  # keys by tick (--input), until a key takes over
    max_ticks: int | None = None  # close after that many ticks (--ticks)
    trace: bool = False  # collect the trace records (--trace)
    record: object = None  # a game.runs.record.Recorder (--record)
    ghosts: bool = False  # start with the ghosts shown (--ghosts)
    pause_at: int | None = None  # for tools: pause once the world reaches that tick


class PlayScene:
    def __init__(self, shared: Shared, options: RunOptions, world: World, images: TileImages,
                 announce: bool = False, renderer: MapRenderer | None = None) -> None:
        """Play ``world`` (``images``: its tiles' pictures; ``renderer``: its renderer, if
        made already); ``announce``: show the level's name on a banner, as when a level is
        chosen on the title screen."""
        self.shared = shared
        self.cfg = shared.cfg
        self.script = options.script
        self.max_ticks, self.pause_at = options.max_ticks, options.pause_at
        # A replay (--ticks, --trace) stays on its level, as headless does.
        self.replay = options.max_ticks is not None or options.trace
        self.followers = Followers(self.cfg, options.ghosts, options.record, options.trace)
        self.ticks_run = 0
        self.finished = False  # the ticks asked for (--ticks) have run: the window closes
        self.record_error: UserError | None = None
        # The clock: real time into ticks, paused or stepped ('.'), slowed (SPEEDS index).
        self.clock = FixedStep(self.cfg.display.max_ticks_per_frame)
        self.paused = False
        self.step_pending = False  # '.' while paused: one tick at the next frame
        self.speed = 0
        self.keys_seq = InputSequencer()
        self.jump_tapped = self.throw_tapped = False  # pressed since the last tick
        # What is shown besides the level.
        self.debug = self.cfg.display.debug
        self.show_help = False
        self.banner: Banner | None = None
        self.error_line: str | None = None
        self.error_note = KEEPING
        self.pending_level: tuple[Path, float] | None = None  # the next level, and when
        # After the next level failed to load, the goal stays inert until the player has left
        # it (or restarted): standing on it must not retry the load every second.
        self.goal_wait = False
        self.tally = RunTally()  # this run of the level: deaths, resolvers used
        self.card: Summary | None = None  # the end-of-level card, up until the next level
        self.camera: CameraState | None = None  # None: on the player at the next frame
        self.view_origin = (0, 0)  # top-left of the last drawn view, map px
        self.hud_bottom = 0  # how far down the HUD's top line reached last frame, window px
        self.notes_until = 0.0  # the loader's notes show until then (time.monotonic)
        self.effects = Effects(shake=self.cfg.display.screen_shake)  # feedback, view only
        self.watcher = Watcher()
        self.made = Recent()  # images kept between frames, for the scene and the text
        self.painter = WorldPainter(self.made, shared.background)
        self.text = TextPainter(self.made)
        self.ghost_labels: list = []
        self._handlers = self._make_handlers()
        self._heard_world: World | None = None  # the world the level-start sound was played for
        self.world = world
        self._use_level(images, renderer)
        self.followers.start(world)
        self.tally.use(world.resolver.name)
        if announce:
            self.banner = banners.level_title(level_name(world.level), time.monotonic())

    # --- events -------------------------------------------------------------------------------
    def handle_event(self, e: pygame.event.Event) -> str | None:
        """A key or pad button as its action; returns the action if the App is to carry it
        out (``title``, ``quit``, ``fullscreen``), else None."""
        action = self.shared.pads.handle(e)
        if action is not None:
            if takes_over(action, from_pad=True):
                self.script = None  # a button hands control back from the demo
            return self.act(action)
        if e.type == pygame.KEYDOWN:
            if self.card is not None and e.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.go_on()  # the end-of-level card read: on to the next level now
                return None
            action = key_action(e.key, e.mod)
            if self.script is not None and takes_over(action):
                self.script = None  # a key hands control back from the demo
            if action is not None:
                return self.act(action)
        return None

    def act(self, action: str) -> str | None:
        """Carry out ``action`` (see game.view.keymap), or return it for the App."""
        if not applies(action, self.paused):
            return None
        if action in TO_APP:
            return action
        self._handlers[action]()
        return None

    def _make_handlers(self) -> dict[str, Callable[[], None]]:
        """What each action the scene carries out does."""
        handlers = {"pause": lambda: self.set_paused(not self.paused),
                    "step": self._step_one, "slow_motion": self._slower,
                    "ghosts": lambda: self.followers.toggle_ghosts(self.world),
                    "debug": self._toggle_debug, "help": self._toggle_help,
                    "reload": self.reload, "restart": self.restart, "mute": self.toggle_mute,
                    "first_level": self.first_level, "jump": self._tap_jump,
                    "throw": self._tap_throw,
                    "next_resolver": lambda: self.switch_resolver(1),
                    "previous_resolver": lambda: self.switch_resolver(-1)}
        for action, step in VOLUME_STEPS.items():
            handlers[action] = lambda step=step: self.change_volume(step)
        return handlers

    def _step_one(self) -> None:
        self.step_pending = True

    def _slower(self) -> None:
        self.speed = (self.speed + 1) % len(SPEEDS)

    def _toggle_debug(self) -> None:
        self.debug = not self.debug

    def _toggle_help(self) -> None:
        self.show_help = not self.show_help

    def _tap_jump(self) -> None:
        self.jump_tapped = True  # a tap between two ticks still jumps

    def _tap_throw(self) -> None:
        self.throw_tapped = True

    def set_paused(self, paused: bool) -> None:
        self.paused = paused
        self.jump_tapped = self.throw_tapped = False  # a tap is not kept for the resume

    def leave(self) -> None:
        """Off to the title screen: not paused, no help, full speed, when the player comes
        back."""
        self.set_paused(False)
        self.show_help = False
        self.speed = 0

    def switch_resolver(self, step: int) -> None:
        names = resolvers.names()
        i = names.index(self.world.resolver.name) if self.world.resolver.name in names else 0
        self.world.set_resolver(self.shared.resolver(names[(i + step) % len(names)]))
        self._update_caption()
        self.followers.resolver_switched(self.world)
        self.tally.use(self.world.resolver.name)

    def restart(self) -> None:
        """Backspace: a new run of the level (a level change still to come is dropped)."""
        self.world.restart()
        self.effects.clear()
        self.followers.start(self.world)
        self._new_run()
        self.camera = None
        self.goal_wait = False
        self.set_paused(False)

    def _new_run(self) -> None:
        """A run starts: nothing counted yet, no card, no level change to come."""
        self.tally = RunTally()
        self.tally.use(self.world.resolver.name)
        self.card = None
        self.pending_level = None

    def change_volume(self, step: float) -> None:
        level = self.shared.sounds.change_volume(step)
        self.banner = banners.volume(level, self.shared.sounds.device, time.monotonic())

    def toggle_mute(self) -> None:
        is_muted = self.shared.sounds.toggle_mute()
        self.banner = banners.muted(is_muted, self.shared.sounds.device, time.monotonic())

    # --- time ---------------------------------------------------------------------------------
    def update(self, frame_time: float, live: bool = True) -> None:
        """A frame's worth of play: the ticks the time allows (none unless ``live``), then
        level changes and the hot reload."""
        w = self.world
        if w is not self._heard_world:
            self._heard_world = w
            self.shared.sounds.play("level_start")
        if self.paused:
            self.clock.reset()
            if self.step_pending:  # '.': exactly one tick, then paused again
                self.step_pending = False
                self.tick_once()
        else:
            self.clock.advance(frame_time * SPEEDS[self.speed], w.physics.dt, self.tick_once,
                               lambda: live and not self.finished and not self.paused)
            p = w.player
            vx, vy = p.vx, p.vy
            if p.climbing:  # on a ladder the player keeps no vertical speed: step as it moves
                vx, vy = p.x - w.prev[0], p.y - w.prev[1]
            self.painter.player_sprite.update(frame_time, p.on_ground, vx, vy,
                                              w.physics.run_speed, p.climbing)
            if w.goal_reached and self.pending_level is None and not self.replay:
                self.complete_level()
        now = time.monotonic()
        if self.pending_level and now >= self.pending_level[1]:
            path, _ = self.pending_level
            self.pending_level = None
            self.load_next(path)
        if self.cfg.display.hot_reload and self.watcher.due(now):
            self.hot_reload_check()

    def alpha(self) -> float:
        """How far the picture is between the last tick and the next."""
        return self.clock.alpha(self.world.physics.dt)

    def tick_once(self) -> None:
        """One tick of the simulation: the keys (the demo script's, or the keyboard's and the
        pads'), the world, what follows it (ghosts, recording, trace), the sounds."""
        w = self.world
        if self.script is not None:
            held = self.script.held_at(w.tick)
        else:
            held = either(held_keys(pygame.key.get_pressed(), self.jump_tapped,
                                    self.throw_tapped), self.shared.pads.held())
        self.jump_tapped = self.throw_tapped = False
        before, moment = Snapshot.of(w), Moment.of(w)
        frame = self.keys_seq.frame(held)
        self.followers.advance(w, frame)
        if w.player.respawning and not moment.respawning:
            self.tally.deaths += 1
        self.effects.react(moment, Moment.of(w), w.events, w.level.goals, w.walkers)
        self.followers.step(w, held, frame)
        if self.goal_wait:
            if w.goal_reached:
                w.goal_reached = False  # still on the goal whose next level failed
            else:
                self.goal_wait = False  # left it: the next touch counts again
        for name in heard(before, Snapshot.of(w)) + event_sounds(w.events):
            self.shared.sounds.play(name)
        self.ticks_run += 1
        if self.pause_at is not None and w.tick >= self.pause_at:
            self.pause_at = None
            self.set_paused(True)
        if self.max_ticks is not None and self.ticks_run >= self.max_ticks:
            self.finished = True

    def ghosts(self) -> list[World]:
        """The ghosts shown: every world of the comparison but the player's resolver's."""
        return self.followers.shown(self.world)

    # --- levels -------------------------------------------------------------------------------
    def start(self, world: World, images: TileImages,
              renderer: MapRenderer | None = None) -> None:
        """Play ``world`` from its start, as chosen on the title screen."""
        self.error_line = None
        self.error_note = KEEPING
        self.enter(world)
        self._use_level(images, renderer)
        self.clock.reset()
        self.keys_seq = InputSequencer()

    def load(self, path: Path, keep_position: bool = False) -> bool:
        """Load ``path`` with its tile images; only when all of that worked, swap it in.

        On any failure the current level keeps playing and the error is shown in the bar: a
        user error as its own line, anything else as ``error: <file>: could not load (...)``.
        """
        got = open_level(path, self.cfg, self.world.resolver)
        if isinstance(got, str):
            return self._load_failed(path, got)
        world, images, renderer = got
        self.error_line = None
        self.error_note = KEEPING
        if keep_position:
            p = self.world.player
            spot = (p.x, p.y)
            self.world.replace_level(world.level, world.physics)
            if (p.x, p.y) != spot:
                self.camera = None  # sent back to the spawn: the camera goes with them
            self.followers.start(self.world, follow=True)
        else:
            self.enter(world)
        self._use_level(images, renderer)
        return True

    def enter(self, world: World) -> None:
        """Play ``world`` from its start."""
        self.finish_recording()
        self.camera = None
        self.world = world
        self.speed = 0  # slow motion was for the level before
        self.effects.clear()
        self.followers.start(world)
        self.goal_wait = False
        # A new level: the card about the last one is over, and a level change still to come
        # was for the last one too.
        self._new_run()
        self.banner = banners.level_title(level_name(world.level), time.monotonic())

    def reload(self) -> bool:
        """Load the level's file again, the player kept in place: R, and the hot reload."""
        if not self.load(self.world.level.path, keep_position=True):
            return False
        self.banner = banners.reloaded(time.monotonic())
        return True

    def hot_reload_check(self) -> None:
        if self.watcher.changed(self.world.level):
            self.reload()

    def load_next(self, path: Path) -> bool:
        """Go on to the next level; if it fails, say so and stay, the goal inert until left."""
        if self.load(path):
            return True
        self.error_line = f"next level: {self.error_line}"
        self.error_note = STAYING
        self.card = None
        self.goal_wait = True
        self.world.goal_reached = False
        return False

    def complete_level(self) -> None:
        """The goal reached: the run's time goes into the progress (saved at once), the
        end-of-level card comes up, and the next level after CARD_TIME (or Enter)."""
        w = self.world
        level = w.level
        run_time = w.tick * w.physics.dt
        best_before = self.shared.progress.finish(level.path, run_time, w.resolver.name)
        nxt, wrapped = next_level_path(level)
        seq = level_sequence(level.path)
        coins = (len(w.flow.coins), w.flow.coins_total) if w.flow.coins_total else None
        self.tally.use(w.resolver.name)
        resolvers_used = [n for n in self.tally.resolvers if n != w.resolver.name]
        self.card = Summary(
            title=level_name(level), time=run_time, coins=coins, deaths=self.tally.deaths,
            resolvers=(*resolvers_used, w.resolver.name), best_before=best_before,
            done=self.shared.progress.count_done(seq), total=len(seq),
            next_title=sequence_title(nxt), wrapped=wrapped)
        self.banner = None
        self.pending_level = (nxt, time.monotonic() + CARD_TIME)
        self.shared.remember()

    def go_on(self) -> None:
        """Enter on the end-of-level card: the next level now."""
        if self.pending_level is not None:
            self.pending_level = (self.pending_level[0], time.monotonic())

    def first_level(self) -> None:
        """Home: the first level of the folder's sequence."""
        seq = level_sequence(self.world.level.path)
        if seq:
            self.load(seq[0])
        self.set_paused(False)

    def finish_recording(self) -> None:
        """Write what was played on this level (--record); a failure shows in the error bar."""
        got = self.followers.finish_recording()
        if isinstance(got, UserError):
            self.record_error = got
            self.error_line, self.error_note = got.line(), NOT_SAVED
        elif got is not None:
            self.banner = banners.recorded(got, time.monotonic())

    def _load_failed(self, path: Path, line: str) -> bool:
        self.error_line = line
        self.error_note = KEEPING
        if Path(path).resolve() == self.world.level.path.resolve():
            self.watcher.watch(self.world.level)  # don't retry until it changes again
        return False

    def _use_level(self, images: TileImages, renderer: MapRenderer | None = None) -> None:
        self.images = images
        # the loader's notes (also on stderr): shown once, for a while, after each load
        self.notes_until = time.monotonic() + NOTE_TIME if self.world.level.notes else 0.0
        self.renderer = renderer or MapRenderer(self.world.level, images)
        self.effects.scale = self.world.level.physics_scale  # bursts as big beside the player
        self.watcher.watch(self.world.level)
        self._update_caption()

    def _update_caption(self) -> None:
        w = self.world
        pygame.display.set_caption(f"{w.level.title} - resolver: {w.resolver.name} - tilecollide")

    # --- drawing ------------------------------------------------------------------------------
    def draw(self, alpha: float, dt: float = 0.0) -> None:
        """The picture ``alpha`` of a tick after the last one; the camera moves on ``dt`` s."""
        w = self.world
        window = self.shared.window
        self.made.next_frame()
        # A map of bigger tiles (physics scaled) shows as much world as a shipped level: more
        # map px, drawn smaller (game.view.window.map_scale); the camera's lengths scale alike.
        k = w.level.physics_scale
        scene = self.painter.scene_for(window.view_size(k))
        drawn_at = drawn_position(w, alpha)
        scale = window.scale(k)
        self.camera, origin = follow(self.camera, w, drawn_at, dt, scene.get_size(),
                                     scaled_camera(self.cfg.camera, k),
                                     math.ceil(self.hud_bottom / scale))
        self.effects.update(dt)
        sx, sy = self.effects.shake()
        origin = (origin[0] + sx, origin[1] + sy)
        self.view_origin = origin
        ghosts = self.ghosts()
        comparison = self.followers.comparison
        self.painter.throwing = self.effects.throwing > 0
        line = math.ceil(1 / scale)  # map px: a line at least a window px wide
        self.painter.line = line
        self.ghost_labels = self.painter.draw(scene, w, self.renderer, self.images, origin, alpha,
                                              drawn_at, ghosts, comparison)
        self.effects.draw(scene, origin, self.painter.walker_sprite)
        if self.debug:  # lines at least a window px wide, however much the view is reduced
            draw_marks(scene, self.made, w, ghosts, origin, drawn_at, line)
        blit_scaled(scene, scale, window.surface, self.made)
        banner = self.banner
        p = w.player
        player = pygame.Rect(round(round(drawn_at[0] - origin[0]) * scale),
                             round(round(drawn_at[1] - origin[1]) * scale),
                             round(p.w * scale), round(p.h * scale)).inflate(
                                 round(4 * scale), round(4 * scale))
        self.hud_bottom = draw_hud(self.text, window.surface, HudInfo(
            card=self.card,
            player=None if p.respawning else player,
            notes=self.world.level.notes if time.monotonic() < self.notes_until else (),
            world=w, scale=scale, ghost_labels=self.ghost_labels,
            error=f"{self.error_line}  {self.error_note}" if self.error_line else None,
            show_help=self.show_help,
            debug_rows=debug_rows(w, ghosts, comparison) if self.debug else None,
            banner=banner if banner is not None and banner.showing(time.monotonic()) else None,
            paused=self.paused, speed=self.speed, demo=self.script is not None))
