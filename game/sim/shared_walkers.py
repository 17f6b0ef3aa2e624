"""Walkers shared by the worlds of a comparison (ghosts) for as long as they would move them alike.

A comparison (``game.sim.ghosts``) runs one whole world per resolver on one level with the same
input, and each world's walkers are moved by that world's resolver: a ghost is stomped on or hurt
by the walkers its own resolver moved, which is part of what the comparison shows. But a walker's
motion depends only on the map, its own state and the resolver, and most of it not even on the
resolver: a cruising step (``game.sim.walkers``) is the same sum for all of them. Seven copies of
200 walkers, stepped alike, would be seven times the work for one answer.

So worlds on a level whose grid never changes (no doors) that hold the same walkers in the same
state share one list of :class:`~game.sim.walkers.Walker` and one
:class:`~game.sim.bodies.WalkerHash`, a :class:`SharedWalkers`:

* each tick, the first member to reach its walkers' turn steps them with its own resolver, and
  notes every walker that took a full step (one that asked the resolver), with its state before;
* every other member takes each of those full steps again with its own resolver, from the noted
  state. Where every answer is the same to the bit, the shared walkers are exactly what its own
  would be. Where one differs, it leaves with its own copies of the walkers, its answers in them;
* a member leaves, with its own copies of the walkers as they are, before anything changes them
  for it alone: its player touches a walker (a stomp defeats it), a spear of its flies among them,
  its resolver is switched; a restart or a reload gives it new walkers of its own.

Each world therefore sees, every tick, exactly the walkers its resolver alone would give it (the
tests compare every walker of every world with a world run alone), and the comparison pays for
one set of walkers a tick plus the few full steps taken again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.sim.bodies import WalkerHash
from game.sim.walkers import Walker, step_walkers

if TYPE_CHECKING:
    from game.sim.world import World


class SharedWalkers:
    """One list of walkers and its hash, shared by ``members`` (worlds, the first its founder)."""

    def __init__(self, founder: World) -> None:
        self.walkers: list[Walker] = founder.walkers
        self.hash: WalkerHash = founder.walker_hash
        self.members: list[World] = [founder]
        founder.shared = self
        self.tick = -1  # the world tick the walkers were last stepped on
        # Each walker that took a full step on that tick, with its state before it:
        # (walker, x, y, vy, facing, on_ground).
        self.full: list[tuple] = []

    def admits(self, world: World) -> bool:
        """Could ``world`` share these walkers: the same level and grid (one without doors), the
        same physics and tick, and walkers in the same state, value for value."""
        lead = self.members[0]
        return (world.shared is None and world.level is lead.level and world.grid is lead.grid
                and world.physics == lead.physics and world.tick == lead.tick
                and _states(world.walkers) == _states(self.walkers))

    def join(self, world: World) -> None:
        world.walkers, world.walker_hash, world.shared = self.walkers, self.hash, self
        self.members.append(world)

    def step(self, world: World) -> None:
        """Member ``world``'s walkers' turn of its tick (in place of ``step_walkers`` and the
        hash's update): step them if no member has this tick, else check its resolver's answers
        to the full steps taken."""
        ph = world.physics
        args = (world.resolver, world.grid, ph.gravity, ph.max_fall_speed, ph.dt)
        if self.tick != world.tick:
            self.tick = world.tick
            self.full.clear()
            step_walkers(self.walkers, *args, full=self.full)
            self.hash.update()
            return
        mine = {}
        for before in self.full:
            again = _step_again(before, *args)
            if not _same(again, before[0]):
                mine[id(before[0])] = again
        if mine:
            self.leave(world, mine)

    def leave(self, world: World, mine: dict[int, Walker] | None = None) -> None:
        """``world`` goes on with walkers of its own: copies of the shared ones as they are now,
        or, for the walkers in ``mine`` (by ``id``), its own answers."""
        mine = mine or {}
        own = [mine.get(id(k)) or k.copy() for k in self.walkers]
        world.walkers, world.walker_hash = own, WalkerHash(own)
        self.drop(world)

    def drop(self, world: World) -> None:
        """``world`` is no longer a member (it has, or is about to get, walkers of its own). A
        member left alone stays one: mid-tick, the walkers may already be a tick ahead of it."""
        world.shared = None
        self.members.remove(world)


def share_walkers(worlds: list[World]) -> None:
    """Group the worlds that can share their walkers (:meth:`SharedWalkers.admits`), each group
    on its first world's walkers; a world with none to share with keeps its own."""
    groups: list[SharedWalkers] = []
    for w in worlds:
        if w.shared is not None or not w.walkers or w.level.features.doors:
            continue
        for g in groups:
            if g.admits(w):
                g.join(w)
                break
        else:
            groups.append(SharedWalkers(w))
    for g in groups:
        if len(g.members) == 1:
            g.members.pop().shared = None


def _states(walkers: list[Walker]) -> list[tuple]:
    return [(k.spawn, _bits(k.x), _bits(k.y), _bits(k.vy), k.facing, k.on_ground, k.fallen,
             _bits(k.prev_x), _bits(k.prev_y), k.w, k.h, k.speed) for k in walkers]


def _bits(v: float) -> str:
    return float(v).hex()  # tells -0.0 from 0.0, which a trace would print apart


def _step_again(before: tuple, resolver, grid, gravity: float, max_fall_speed: float,
                dt: float) -> Walker:
    """A walker's full step taken again from its state before it, with another resolver: a new
    walker holding the answer."""
    k, x, y, vy, facing, on_ground = before
    again = k.copy()
    again.wake()
    again.x, again.y, again.vy, again.facing, again.on_ground = x, y, vy, facing, on_ground
    again.fallen = False  # only a walker in play takes a full step
    step_walkers((again,), resolver, grid, gravity, max_fall_speed, dt)
    return again


def _same(a: Walker, b: Walker) -> bool:
    return (_bits(a.x) == _bits(b.x) and _bits(a.y) == _bits(b.y) and _bits(a.vy) == _bits(b.vy)
            and a.facing == b.facing and a.on_ground == b.on_ground and a.fallen == b.fallen)
