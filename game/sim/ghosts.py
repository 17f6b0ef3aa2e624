"""Ghosts: every resolver playing the same level with the same input, side by side.

A :class:`Comparison` holds one whole :class:`~game.sim.world.World` per resolver, in
``resolvers.names()`` order (the order of ``--list-resolvers``). Each has its own player, its own
walkers and its own resolver instance (made with that resolver's own ``[resolvers.<name>]``
options); they share only the level, which is read-only data. Every tick each world is stepped
with the same :class:`~game.sim.inputs.InputFrame`, so a world's motion is by construction exactly
what a run with that resolver alone gives: nothing passes between the worlds.

The player's own world is one of them (``create(..., player=world)``), so it is stepped once a
tick, by :meth:`Comparison.step`, not once alone and once more as its resolver's ghost. When the
player switches resolvers, :meth:`Comparison.adopt` moves it to its new resolver's place and
leaves, in the old one's, a ghost that starts from where the player is.

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
from game.sim.shared_walkers import share_walkers
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

    def __init__(self, worlds: list[World], cfg: Config) -> None:
        self.worlds = worlds  # in resolvers.names() order
        self.cfg = cfg  # for the resolvers' options of the worlds made later (adopt)
        self.parted: dict[str, Parting | None] = {w.resolver.name: None for w in worlds}
        # The walkers the worlds share, stepped once a tick for all (game.sim.shared_walkers):
        # each world's walker turn is its member of a group, and the world knows no more.
        self.shared_walkers = share_walkers(worlds)

    @classmethod
    def create(cls, level: Level, physics: PhysicsConfig, cfg: Config,
               player: World | None = None) -> Comparison:
        """A world per registered resolver, each from the level's spawn; with ``player``, that
        world is the one for its resolver (stepped by :meth:`step` with the rest)."""
        mine = None if player is None else player.resolver.name
        return cls([player if name == mine else _new_world(level, physics, cfg, name)
                    for name in resolvers.names()], cfg)

    def world(self, name: str) -> World:
        for w in self.worlds:
            if w.resolver.name == name:
                return w
        raise KeyError(name)

    def step(self, frame: InputFrame) -> None:
        """One tick of every world, the player's among them, with the same input."""
        for w in self.worlds:
            w.step(frame)

    def adopt(self, player: World) -> None:
        """After the player's world switched resolvers: it becomes the world of its new resolver,
        and the resolver it left gets a new world, a ghost starting from where the player is."""
        name = player.resolver.name
        for i, place in enumerate(resolvers.names()):  # the worlds' order
            w = self.worlds[i]
            if place == name:
                self.worlds[i] = player
                self.parted[name] = None
            elif w is player:  # the place it left
                ghost = _new_world(player.level, player.physics, self.cfg, place)
                _follow(ghost, player)
                self.worlds[i] = ghost
                self.parted[place] = None
        self.shared_walkers += share_walkers(self.worlds)  # the new ghost may join a group

    def release(self, player: World) -> None:
        """Ghosts off: ``player``'s world goes on alone, with walkers of its own."""
        player.walker_turn.leave(player)

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
            if w is not player:
                _follow(w, player)
        self.parted = dict.fromkeys(self.parted)
        self.shared_walkers = share_walkers(self.worlds)


def _new_world(level: Level, physics: PhysicsConfig, cfg: Config, name: str) -> World:
    """A world on ``level`` with the resolver ``name`` (its own options), from the spawn."""
    return World(level, physics, resolvers.create(name, cfg.resolver_options(name)), cfg.spear)


def _follow(w: World, player: World) -> None:
    """Start ``w`` from where ``player``'s player is now: a copy of the player, fitted to ``w``'s
    own resolver, with the player's progress (checkpoint, coins, switches, doors)."""
    body = copy.copy(player.player)
    body.contact_flags, body._last_move, body._contacts = 0, None, None
    w.player = body
    w.prev = player.prev
    w.tick = player.tick
    w.goal_reached = player.goal_reached
    w.flow = player.flow.copy()
    w.grid = w.flow.grid(w.level.grid)
    w.set_resolver(w.resolver)  # prepares it for the grid, fits the player and walkers


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
