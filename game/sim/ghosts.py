"""Ghosts: every resolver playing the same level with the same input, side by side.

A :class:`Comparison` holds one whole :class:`~game.sim.world.World` per resolver, in
``resolvers.names()`` order (the order of ``--list-resolvers``). Each has its own player, its own
walkers and its own resolver instance (made with that resolver's own ``[resolvers.<name>]``
options); they share only the level, which is read-only data. Every tick each world is stepped
with the same :class:`~game.sim.inputs.InputFrame`, so a world's motion is by construction exactly
what a run with that resolver alone gives: nothing passes between the worlds.

The window shows the worlds whose resolver is not the player's as translucent ghosts; headless
``--ghosts`` writes one trace line per world per tick. Where a ghost's player is more than
:data:`PART_PX` away from the reference player, :meth:`Comparison.track_parting` remembers the
first tick it parted (until they come back together).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from game import resolvers
from game.config import Config, PhysicsConfig
from game.sim.inputs import InputFrame
from game.maps.level import Level
from game.sim.world import World

PART_PX = 1.0  # px: further apart than this on either axis counts as parted


@dataclass
class Parting:
    """Where a ghost left the player: the tick, and both hitboxes' top-left then."""

    tick: int
    player_xy: tuple[float, float]
    ghost_xy: tuple[float, float]


class Comparison:
    """One world per resolver on one level, stepped together (see the module docstring)."""

    def __init__(self, worlds: list[World]) -> None:
        self.worlds = worlds  # in resolvers.names() order
        self.parted: dict[str, Parting | None] = {w.resolver.name: None for w in worlds}

    @classmethod
    def create(cls, level: Level, physics: PhysicsConfig, cfg: Config) -> Comparison:
        """A fresh world per registered resolver, each from the level's spawn."""
        return cls([World.create(level, physics,
                                 resolvers.create(name, cfg.resolver_options(name)), cfg.spear)
                    for name in resolvers.names()])

    def world(self, name: str) -> World:
        for w in self.worlds:
            if w.resolver.name == name:
                return w
        raise KeyError(name)

    def step(self, frame: InputFrame) -> None:
        for w in self.worlds:
            w.step(frame)

    def track_parting(self, player: World) -> None:
        """After a tick: note where each world first parted from ``player`` by more than
        :data:`PART_PX`; forget it once they are back together."""
        p = player.player
        for w in self.worlds:
            g = w.player
            name = w.resolver.name
            apart = abs(g.x - p.x) > PART_PX or abs(g.y - p.y) > PART_PX
            if not apart:
                self.parted[name] = None
            elif self.parted[name] is None:
                self.parted[name] = Parting(player.tick - 1, (p.x, p.y), (g.x, g.y))

    def follow(self, player: World) -> None:
        """Start every world from where ``player``'s player is now (the G key mid-level, a hot
        reload): each a copy of the player, fitted to its own resolver, with the player's
        progress (checkpoint, coins, switches, doors); walkers their own."""
        for w in self.worlds:
            body = copy.copy(player.player)
            body.contact_flags, body._last_move, body._contacts = 0, None, None
            w.player = body
            w.prev = player.prev
            w.tick = player.tick
            w.goal_reached = player.goal_reached
            w.flow = player.flow.copy()
            w.grid = w.flow.grid(w.level.grid)
            w.set_resolver(w.resolver)  # prepares it for the grid, fits the player and walkers
        self.parted = dict.fromkeys(self.parted)


def push_out(world: World) -> tuple[float, float, float, float] | None:
    """The last move's attempted top-left (x + dx, y + dy) and where the resolver put the body,
    when they differ: the push-out the resolver applied (for the debug view)."""
    p = world.player
    last = p._last_move
    if last is None or p.respawning:
        return None
    _, _, x, y, dx, dy, _, _ = last
    ax, ay = x + dx, y + dy
    if abs(ax - p.x) < 1e-6 and abs(ay - p.y) < 1e-6:
        return None
    return ax, ay, p.x, p.y
