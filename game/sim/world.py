"""The simulation: a level, a player, its walkers and a resolver, advanced one fixed tick at a time.

Headless: nothing here opens a window or reads a keyboard. The view keeps the previous and the
current position of the player (``prev``) to draw a blend of the two; each walker keeps its own
(``prev_x``, ``prev_y``).

Each tick, in this fixed order (so a run is the same every time):

1. the moving platforms, in Tiled object id order, carrying, pushing or squishing the player
   (``game.sim.platforms``);
2. the player, against the tiles with the current resolver (with the friction and water of the
   cells it is in, ``game.sim.living``), then against the platforms' boxes;
3. a throw, if pressed: a spear leaves the player's hand (``game.sim.spear``);
4. the walkers, in Tiled object id order (``game.sim.walkers``), with the current resolver;
5. the player against the walkers, through a broad phase (``game.sim.bodies``): stomp or hurt;
6. the level's flow (``game.sim.living``): hazards, checkpoints, coins, switches and their doors (a
   door that turns gives a new collision grid, read by every resolver from the next tick);
7. the spears, in pool order: flight, sticking or sliding, walkers they hit;
8. the goal.

A level without any of these runs exactly as before they existed.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Protocol

from game.sim.bodies import HURT, STOMP, WalkerHash, player_meets_walkers
from game.config import (Config, PhysicsConfig, SpearConfig, scaled_physics,
                         with_map_properties)
from game.errors import print_note
from game.maps.grid import TileGrid
from game.sim.inputs import InputFrame
from game.maps.conventions import OPTIONS, Declared
from game.maps.level import Level, load_level
from game.sim.living import Flow, ground_friction, in_water
from game.sim.platforms import make_platforms, move_platforms, overlaps_solid_platform
from game.sim.player import TIMER_EPS, Player
from game.resolvers.base import Resolver, overlapping_tiles
from game.sim.spear import FLYING, IDLE, make_spears, step_spears, throw
from game.sim.walkers import Walker, make_walkers, step_walkers

# What can happen on a tick, as the trace's ``events`` names it (``World.events``).
EVENTS = ("respawn", "checkpoint", "coin", "stomp", "hurt", "goal", "switch", "squish", "climb",
          "climb_off")


class WalkerTurn(Protocol):
    """Who takes the walkers' turn of a world's tick: the world itself (:class:`OwnWalkers`), or,
    in a comparison of resolvers, a share of walkers common to several worlds
    (``game.sim.shared_walkers.Member``). The world knows only these four calls."""

    def step(self, world: World) -> None:
        """Step the world's walkers one tick (and refile them in its hash)."""

    def claim(self, x: float, y: float, w: float, h: float) -> None:
        """The walkers touching this box are about to change for this world alone."""

    def leave(self, world: World) -> None:
        """The world goes on stepping walkers of its own."""

    def drop(self, world: World) -> None:
        """The world is about to make new walkers (a restart, a reload)."""


class OwnWalkers:
    """A world's walkers stepped by the world alone: the turn every world takes unless a
    comparison shares walkers between its worlds."""

    def step(self, world: World) -> None:
        ph = world.physics
        step_walkers(world.walkers, world.resolver, world.grid, ph.gravity, ph.max_fall_speed,
                     ph.dt)
        world.walker_hash.update()

    def claim(self, x: float, y: float, w: float, h: float) -> None:
        """Nothing to take: every walker is the world's own already."""

    def leave(self, world: World) -> None:
        """Nothing to leave."""

    def drop(self, world: World) -> None:
        """Nothing to drop: the world is about to make new walkers."""


OWN_WALKERS = OwnWalkers()  # keeps no state: one serves every world


class World:
    """One level played by one player with one resolver (see the module's docstring).

    ``World(level, physics, resolver)`` is ready to step: the player stands at the spawn (on
    the ground if there is ground), the walkers, platforms and spears are at theirs.
    """

    def __init__(self, level: Level, physics: PhysicsConfig, resolver: Resolver,
                 spear: SpearConfig = SpearConfig()) -> None:
        self.level = level
        self.physics = physics
        self.resolver = resolver
        self.spear = spear
        s = level.spawn
        self.player = Player(s.x, s.y, s.w, s.h)
        self.tick = 0
        self.goal_reached = False
        self.events: list[str] = []  # what happened on the last tick, in order (``EVENTS``)
        # Who steps the walkers: the world itself, or a comparison's share (shared_walkers).
        self.walker_turn: WalkerTurn = OWN_WALKERS
        # Checkpoints, coins, doors (game.sim.living); ``grid`` is the collision grid with the doors
        # as they are now: the level's own grid on a level without doors.
        self._reset_flow()
        self.player.settle(self.grid, resolver.supports_slopes)  # a spawn on the floor stands
        self.prev = (self.player.x, self.player.y)
        # In object id order, their stepping order: walkers, platforms; spears in pool order.
        # What the player's move meets besides tiles (``solids``): the platforms, then spears
        # stuck in walls.
        self._reset_walkers()
        self._wait_if_covered()

    @property
    def spawn_xy(self) -> tuple[float, float]:
        return self.level.spawn.x, self.level.spawn.y

    def step(self, inp: InputFrame) -> None:
        p, ph, grid = self.player, self.physics, self.grid
        feat = self.level.features
        events = self.events = []
        self.prev = (p.x, p.y)
        platforms = self.platforms
        if platforms and move_platforms(platforms, p, self.resolver, grid, ph.dt):
            self.send_back("squish")
        was_respawning, was_climbing = p.respawning, p.climbing
        prev_bottom = p.y + p.h
        if was_respawning and p.respawn_timer - ph.dt <= TIMER_EPS and not self._room_to_reappear():
            pass  # due to reappear, but a platform covers the respawn point: wait for it to pass
        elif self._alive:
            grid = self.grid  # a door over the respawn point may have just opened
            friction = ground_friction(feat, grid, p.x, p.y, p.w, p.h) if p.on_ground else 1.0
            water = in_water(feat, grid, p.x, p.y, p.w, p.h)
            p.step(inp, ph, self.resolver, grid, self.flow.respawn, self.solids, friction, water)
            if (water and inp.jump_held and not inp.jump_pressed and p.vy < 0 and not p.respawning
                    and not in_water(feat, grid, p.x, p.y, p.w, p.h)):
                p.vy = min(p.vy, -ph.water_hop)  # out of the surface with jump held: a hop
        else:
            p.step(inp, ph, self.resolver, grid, self.flow.respawn, self.solids)
        if p.climbing != was_climbing:
            events.append("climb" if p.climbing else "climb_off")  # grabbed, or left, a ladder
        if was_respawning and not p.respawning:
            self.prev = (p.x, p.y)  # just reappeared: don't blend from where they fell
            events.append("respawn")
        elif (platforms and not p.respawning
              and overlaps_solid_platform(platforms, p.x, p.y, p.w, p.h)):
            self.send_back("squish")  # two platforms closing on the player, or one and a slope
        if inp.throw_pressed and not p.respawning:
            if throw(self.spears, p, self.spear, self.tick, grid, self.resolver.supports_slopes):
                self._ledges_changed()  # the spear taken may have been a ledge
        if self.walkers:
            self.walker_turn.step(self)
            if not p.respawning and not was_respawning:
                # a stomp changes the walkers for this world alone: a shared one becomes its own
                self.walker_turn.claim(p.x, p.y, p.w, p.h)
                met = player_meets_walkers(self.walker_hash, p, prev_bottom)
                if met == STOMP:
                    p.vy, p.rising, p.on_ground, p.riding = -ph.stomp_speed, True, False, None
                    events.append("stomp")
                elif met == HURT:
                    self.send_back("hurt")
        if self._alive:
            # a closing door waits for the walkers and the spears in play, as for the player
            bodies = ([(w.x, w.y, w.w, w.h) for w in self.walkers]
                      + [(s.x, s.y, s.w, s.h) for s in self.spears if s.state != IDLE]
                      if feat.doors else ())
            if self.flow.after_player(p, bodies, events, ph.respawn_delay):
                self.grid = self.flow.grid(self.level.grid)
                _prepare(self.resolver, self.grid)  # every resolver reads it from the next tick
                grid = self.grid
        if any(s.state == FLYING for s in self.spears):
            self.walker_turn.leave(self)  # a spear may hit one of its walkers alone
        if step_spears(self.spears, self.resolver, grid, self.spear, ph.dt,
                       self.walker_hash if self.walkers else None):
            self._ledges_changed()
        self.tick += 1
        if (not self.goal_reached and not p.respawning
                and any(g.intersects(p.x, p.y, p.w, p.h) for g in self.level.goals)):
            self.goal_reached = True
            events.append("goal")

    def _room_to_reappear(self) -> bool:
        """Asked on the tick the player is due to reappear: is there room at the respawn point?
        Not while a solid platform covers it (the player waits, out of play, until it has moved
        on: a platform's path always leaves any spot, ``game.maps.respawn_room``); a door that
        has closed over it since the level started opens (``Flow.open_doors_over``) and closes
        again once the player is out of it. So nobody reappears inside something solid."""
        p = self.player
        x, y = self.flow.respawn
        if self.platforms and overlaps_solid_platform(self.platforms, x, y, p.w, p.h):
            return False
        if self.level.features.doors and self.flow.open_doors_over(x, y, p.w, p.h):
            self.grid = self.flow.grid(self.level.grid)
            _prepare(self.resolver, self.grid)
        return True

    def _wait_if_covered(self) -> None:
        """At a start or restart: a player whose spawn a solid platform covers waits, out of play,
        until it has moved on (the loader refuses such a map; a level made in code may have it)."""
        p = self.player
        if self.platforms and overlaps_solid_platform(self.platforms, p.x, p.y, p.w, p.h):
            p.hurt(0.0)

    def _ledges_changed(self) -> None:
        self.solids = self.platforms + [s for s in self.spears if s.ledge]

    def send_back(self, event: str) -> None:
        """The one way a body sends the player back (hurt by a walker, squished by a platform):
        they vanish, and after ``[physics] respawn_delay`` reappear at the last checkpoint or the
        spawn (``Player.step`` puts them there; the world then tells ``respawn``). ``event`` is what happened."""
        self.player.hurt(self.physics.respawn_delay)
        self.events.append(event)

    def set_resolver(self, resolver: Resolver) -> None:
        """Switch resolvers live; the player stays where they are, or as close as the new
        resolver allows (see :meth:`_fit_player`)."""
        self.walker_turn.leave(self)  # fitting them to the new resolver is for its walkers alone
        self.resolver = resolver
        _prepare(resolver, self.grid)
        self._fit_player()
        for w in self.walkers:
            w.fit(self.grid, resolver.supports_slopes)

    def _fit_player(self) -> None:
        """The same spot can be inside a tile for another resolver: three of them take a slope
        tile for a full box, so a player standing on a slope is inside that box. Lift the player
        by the least amount that frees them (at most a tile), then read whether they stand."""
        p, g = self.player, self.grid
        slopes = self.resolver.supports_slopes
        if p.respawning:
            return
        hits = overlapping_tiles(g, p.x, p.y, p.w, p.h, p.y + p.h, slopes)
        if hits:
            for y in sorted({row * g.tile_h - p.h for _, row in hits}, reverse=True):
                if 0 <= p.y - y <= g.tile_h and not overlapping_tiles(g, p.x, y, p.w, p.h, y + p.h,
                                                                      slopes):
                    p.y = y
                    self.prev = (self.prev[0], y)
                    break
        p.settle(g, slopes)

    def restart(self) -> None:
        """A new run of the level: the player and every walker back at their spawns; coins,
        checkpoints, doors reset; the tick count from 0 again."""
        self.tick = 0
        self._reset_flow()
        self.player.place(*self.spawn_xy, self.grid, self.resolver.supports_slopes)
        self.prev = self.spawn_xy
        self.goal_reached = False
        self.events = []
        self._reset_walkers()
        self._wait_if_covered()

    def set_walkers(self, walkers: list[Walker], walker_hash,
                    turn: WalkerTurn = OWN_WALKERS) -> None:
        """From now on the world's walkers are ``walkers`` (filed in ``walker_hash``), stepped by
        ``turn``: by the world itself, or by a comparison's share (``game.sim.shared_walkers``)."""
        self.walkers, self.walker_hash, self.walker_turn = walkers, walker_hash, turn

    def _reset_walkers(self) -> None:
        """Walkers and platforms back at their spawns (a restart, a reload)."""
        self.walker_turn.drop(self)
        walkers = make_walkers(self.level.walkers, self.grid, self.resolver.supports_slopes)
        self.set_walkers(walkers, WalkerHash(walkers))
        self.platforms = make_platforms(self.level.platforms)
        self.spears = make_spears(self.spear)
        self.solids = list(self.platforms)

    def _reset_flow(self) -> None:
        self._alive = self.level.features.alive  # anything for game.sim.living to do at all
        self.flow = Flow(self.level.features, self.spawn_xy)
        self.grid = self.flow.grid(self.level.grid)
        _prepare(self.resolver, self.grid)

    def replace_level(self, level: Level, physics: PhysicsConfig) -> None:
        """Hot reload: keep the player's spot if it is still free and inside the new map's sides
        and bottom, else go to the new spawn. The walkers start again from the new level's spawns
        (the map may have moved them)."""
        p = self.player
        self.level, self.physics = level, physics
        self._reset_flow()
        self._reset_walkers()
        g = self.grid
        outside = p.x < 0 or p.x + p.w > g.width_px or p.y + p.h > g.height_px
        blocked = (outside or overlapping_tiles(g, p.x, p.y, p.w, p.h, p.y + p.h, True)
                   or overlaps_solid_platform(self.platforms, p.x, p.y, p.w, p.h))
        if blocked or p.respawning:
            self.restart()
        else:
            p.settle(self.grid, self.resolver.supports_slopes)


def _prepare(resolver: Resolver, grid: TileGrid) -> None:
    """Let a resolver do its once-per-grid work now (at load, or when a door turns), rather than
    on the next tick."""
    prepare = getattr(resolver, "prepare", None)
    if prepare is not None:
        prepare(grid)


def declared(cfg: Config) -> Declared:
    """What the command line and config.toml's [map] table say of a map made elsewhere."""
    m = cfg.map
    return Declared(m.solid_layers, m.one_way_layers, m.solid_property, m.one_way_property,
                    m.start_object, said={name: f"{option} or [map] {name}"
                                          for name, option in OPTIONS.items()})


def load_world(path: str | os.PathLike, cfg: Config, resolver: Resolver,
               notes: Callable[[str], None] | None = print_note) -> World:
    """Load a level and start a world on it, with that map's [physics] overrides applied (and,
    on a map made elsewhere with other tiles, its lengths scaled: ``Level.physics_scale``).

    Every note of the level (what the loader guessed about a map made for another engine) goes
    to ``notes``: by default one ``note:`` line each on standard error, so headless runs and the
    window's start both say them.
    """
    level = load_level(path, (cfg.player.width, cfg.player.height), declared=declared(cfg))
    # the map's physics first: a mistake there is the one line said, with no notes before it
    physics = with_map_properties(cfg, level.properties, level.path).physics
    physics = scaled_physics(physics, level.physics_scale, keep=level.properties)
    if notes is not None:
        for line in level.notes:
            notes(line)
    return World(level, physics, resolver, cfg.spear)
