"""Walkers shared by the worlds of a comparison (ghosts), each for as long as every world would
move it alike.

A comparison (``game.sim.ghosts``) runs one whole world per resolver on one level with the same
input, and each world's walkers are moved by that world's resolver: a ghost is stomped on or hurt
by the walkers its own resolver moved, which is part of what the comparison shows. But a walker's
motion depends only on the map, its own state and the resolver, and most of it not even on the
resolver: a cruising step (``game.sim.walkers``) is the same sum for all of them. Seven copies of
200 walkers, stepped alike, would be seven times the work for one answer.

So the worlds of a level whose grid never changes (no doors) that start with the same walkers in
the same state share them, walker by walker (a :class:`SharedWalkers` and one :class:`Member`
per world):

* each tick, the first member to reach its walkers' turn steps the shared walkers with its own
  resolver, and notes each that took a full step (one that asked the resolver), with its state
  before it;
* every other member takes each of those full steps again with its own resolver, from the noted
  state. Where its answer is the same to the bit, the shared walker is exactly what its own would
  be; where it differs, that walker becomes the member's own (its answer in it), stepped by the
  member alone from then on;
* a walker becomes a member's own before anything changes it for that member alone: its player
  touching it (a stomp defeats it). A member leaves altogether, with its own copies of every
  walker, when a spear of its flies or its resolver is switched; a restart or a reload gives it
  new walkers of its own.

A member's ``walkers`` list holds the shared walkers and its own ones in their places; it is the
world's ``walker_hash`` too: the shared walkers' hash less those it owns, and its own ones.
Each world therefore sees, every tick, exactly the walkers its resolver alone would give it (the
tests compare every walker of every world with a world run alone), and the comparison pays for
one set of walkers a tick, the few full steps taken again, and each world's own walkers.
"""

from __future__ import annotations

from game.sim.bodies import EPS, WalkerHash, walker_id
from game.sim.walkers import Walker, step_walkers

from game.sim.world import OWN_WALKERS, World


class SharedWalkers:
    """The shared walkers (in the level's order) and their hash, stepped once a tick."""

    def __init__(self, founder: World) -> None:
        self.walkers: list[Walker] = founder.walkers
        self.hash = WalkerHash(self.walkers)
        self.place = {id(k): i for i, k in enumerate(self.walkers)}
        self.lead = founder  # what a world must match to join (admits)
        self.tick = -1  # the world tick the walkers were last stepped on
        self.stepper: Member | None = None  # the member that stepped them on that tick
        # Each walker that took a full step on that tick, with its state before it:
        # (walker, x, y, vy, facing, on_ground).
        self.full: list[tuple] = []

    def admits(self, world: World) -> bool:
        """Could ``world`` share these walkers: the same level and grid (one without doors), the
        same physics and tick, and walkers in the same state, value for value."""
        lead = self.lead
        return (world.walker_turn is OWN_WALKERS and world.level is lead.level
                and world.grid is lead.grid
                and world.physics == lead.physics and world.tick == lead.tick
                and _states(world.walkers) == _states(self.walkers))


class Member:
    """One world's share: the shared walkers it has not taken as its own, and its own ones."""

    def __init__(self, group: SharedWalkers, world: World) -> None:
        self.group = group
        self.walkers = list(group.walkers)  # the world's walkers, shared and its own, in order
        self.own: list[Walker] = []  # in the level's order
        self.owned: set[int] = set()  # ids of the shared walkers it took as its own
        self.found: list[Walker] = []  # reused answer of touching()
        world.set_walkers(self.walkers, self, self)

    def step(self, world: World) -> None:
        """The world's walkers' turn of its tick (in place of ``step_walkers`` and the hash's
        update): the shared walkers stepped if no member has this tick, else its resolver's
        answers to their full steps checked; then its own walkers stepped."""
        group = self.group
        ph = world.physics
        args = (world.resolver, world.grid, ph.gravity, ph.max_fall_speed, ph.dt)
        if self.own:
            step_walkers(self.own, *args)
        if group.tick != world.tick:
            group.tick, group.stepper = world.tick, self
            group.full.clear()
            step_walkers(group.walkers, *args, full=group.full)
            group.hash.update()
            return
        owned = self.owned
        for before in group.full:
            k = before[0]
            if id(k) not in owned:
                again = _step_again(before, *args)
                if not _same(again, k):
                    self._take(k, again)

    def claim(self, x: float, y: float, w: float, h: float) -> None:
        """The shared walkers touching the box become this world's own (before its player meets
        them: a stomp changes them for this world alone)."""
        shared = [k for k in self.group.hash.touching(x, y, w, h) if id(k) not in self.owned]
        for k in shared:
            self._take(k, k.copy())

    def _take(self, k: Walker, mine: Walker) -> None:
        self.owned.add(id(k))
        self.walkers[self.group.place[id(k)]] = mine
        self.own.append(mine)
        self.own.sort(key=walker_id)

    def touching(self, x: float, y: float, w: float, h: float) -> list[Walker]:
        """:meth:`WalkerHash.touching` over this world's walkers (a reused list)."""
        found, owned = self.found, self.owned
        found.clear()
        for k in self.group.hash.touching(x, y, w, h):
            if id(k) not in owned:
                found.append(k)
        right, bottom = x + w - EPS, y + h - EPS
        for k in self.own:
            if (not k.fallen and k.x < right and k.x + k.w > x + EPS and k.y < bottom
                    and k.y + k.h > y + EPS):
                found.append(k)
        if len(found) > 1:
            found.sort(key=walker_id)
        return found

    def update(self) -> None:
        """Nothing to refile: the shared hash is the group's, its own walkers are looked at
        one by one."""

    def leave(self, world: World) -> None:
        """``world`` goes on with walkers of its own: copies of the shared ones as they are now,
        and the ones it already owns."""
        owned = {id(k) for k in self.own}
        mine = [k if id(k) in owned else k.copy() for k in self.walkers]
        world.set_walkers(mine, WalkerHash(mine))

    def drop(self, world: World) -> None:
        """``world`` is about to get new walkers of its own (a restart, a reload)."""
        world.set_walkers(world.walkers, world.walker_hash)


def share_walkers(worlds: list[World]) -> list[SharedWalkers]:
    """Let the worlds that can share their walkers (:meth:`SharedWalkers.admits`) do so, each
    group on its first world's walkers; a world with none to share with keeps its own. Returns
    the groups made (the comparison keeps them)."""
    groups: list[tuple[SharedWalkers, list[World]]] = []
    for w in worlds:
        if w.walker_turn is not OWN_WALKERS or not w.walkers or w.level.features.doors:
            continue
        for group, members in groups:
            if group.admits(w):
                members.append(w)
                break
        else:
            groups.append((SharedWalkers(w), [w]))
    made = []
    for group, members in groups:
        if len(members) > 1:
            for w in members:
                Member(group, w)
            made.append(group)
    return made


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
