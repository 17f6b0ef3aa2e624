"""The living level as the player meets it: ground friction, water, hazards, checkpoints, coins,
switches and doors (the data is ``game.maps.tiles``). Headless, like the rest of the simulation.

The world asks :func:`ground_friction` and :func:`in_water` before the player's step and calls
:meth:`Flow.after_player` after it. The rules, in order, each tick:

1. hazards: a player (not already respawning) whose hitbox overlaps a hazard box is hurt
   (``hurt``) and reappears at the last checkpoint, or the spawn, after ``respawn_delay``;
2. checkpoints: touching one that is not the current respawn point makes it so (``checkpoint``);
3. coins: touching one takes it (``coin``); a restart puts every coin back;
4. switches (``switch``): a lever toggles its door group each time the player starts touching
   it; a plate keeps its group open while the player touches it and lets it close after;
5. doors: a group that should close while a body (the player, a walker or a spear in play)
   overlaps one of its cells stays open until the cells are free, then closes: a door never
   closes on a body, so no body is ever left inside a solid tile. The new grid is what every resolver reads from the next
   tick on (the routing resolver prepares it at once).

A door that closed over the respawn point (the spawn or a checkpoint) after the level started
opens again when the player reappears there (:meth:`Flow.open_doors_over`); by rule 5 it then
closes once they are out of its cells. So nobody reappears inside a closed door either.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field

from game.maps.grid import EPS, SOLID, TileGrid
from game.maps.tiles import TileFeatures


def ground_friction(feat: TileFeatures, grid: TileGrid, x: float, y: float, w: float,
                    h: float) -> float:
    """The friction under a body's feet: the lowest of the cells its bottom edge rests on or
    sinks into (the slipperiest wins), 1 where none says otherwise."""
    fr = feat.friction
    if not fr:
        return 1.0
    best = 1.0
    bottom = y + h
    cols = grid.cols
    for row in (math.floor((bottom - 0.5) / grid.tile_h), math.floor((bottom + 0.5) / grid.tile_h)):
        for col in grid.cols_between(x, x + w):
            f = fr.get(row * cols + col) if 0 <= col < cols else None
            if f is not None and f < best:
                best = f
    return best


def in_water(feat: TileFeatures, grid: TileGrid, x: float, y: float, w: float, h: float) -> bool:
    """True if the cell under the body's centre is water."""
    if not feat.water:
        return False
    col = math.floor((x + w / 2) / grid.tile_w)
    row = math.floor((y + h / 2) / grid.tile_h)
    return 0 <= col < grid.cols and (row * grid.cols + col) in feat.water


def touches_hazard(feat: TileFeatures, grid: TileGrid, x: float, y: float, w: float,
                   h: float) -> bool:
    """True if the box overlaps a hazard box by some area (edges that only touch do not)."""
    hz = feat.hazards
    if not hz:
        return False
    cols = grid.cols
    for row in grid.rows_between(y + EPS, y + h - EPS):
        for col in grid.cols_between(x + EPS, x + w - EPS):
            box = hz.get(row * cols + col) if 0 <= col < cols else None
            if box is not None and box.overlaps(x + EPS, y + EPS, w - 2 * EPS, h - 2 * EPS):
                return True
    return False


@dataclass
class Flow:
    """One world's progress through its level: respawn point, coins taken, doors, switches."""

    feat: TileFeatures
    spawn: tuple[float, float]
    respawn: tuple[float, float] = (0.0, 0.0)
    checkpoint: int | None = None  # object id of the current checkpoint
    coins: set[int] = field(default_factory=set)  # ids of the coins taken
    touching: set[int] = field(default_factory=set)  # ids of the switches the player touches
    levers: dict[int, bool] = field(default_factory=dict)  # lever id -> flipped
    doors_open: dict[str, bool] = field(default_factory=dict)
    live: TileGrid | None = None  # the collision grid with the doors as they are now

    def __post_init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.respawn = self.spawn
        self.checkpoint = None
        self.coins = set()
        self.touching = set()
        self.levers = {s.id: False for s in self.feat.switches if s.mode == "lever"}
        self.doors_open = {name: d.open for name, d in self.feat.doors.items()}
        self.live = None

    def copy(self) -> Flow:
        """Another world's progress, the same as this one's now (the level data shared)."""
        other = copy.copy(self)  # not dataclasses.replace: __post_init__ would reset it
        other.coins, other.touching = set(self.coins), set(self.touching)
        other.levers, other.doors_open = dict(self.levers), dict(self.doors_open)
        return other

    @property
    def coins_total(self) -> int:
        return len(self.feat.coins)

    def grid(self, base: TileGrid) -> TileGrid:
        """The collision grid with the doors as they are now (``base`` when there are none);
        kept as ``live``."""
        feat = self.feat
        if not feat.doors:
            self.live = base
            return base
        kinds = bytearray(base.kinds)  # the level's grid has every door open
        for name, door in feat.doors.items():
            if not self.doors_open[name]:
                for i in door.cells:
                    kinds[i] = SOLID
        self.live = TileGrid(base.cols, base.rows, base.tile_w, base.tile_h, bytes(kinds),
                             base.slopes)
        return self.live

    def after_player(self, p, bodies, events: list[str], delay: float) -> bool:
        """Apply the rules above to the player ``p`` after its step; ``bodies`` are the walkers'
        and spears' boxes (x, y, w, h) a closing door must not catch. Returns True if the doors
        changed."""
        feat = self.feat
        x, y, w, h = p.x, p.y, p.w, p.h
        grid_changed = False
        if not p.respawning:
            if touches_hazard(feat, self.live, x, y, w, h):
                p.hurt(delay)
                events.append("hurt")
        alive = not p.respawning
        if alive:
            for cp in feat.checkpoints:
                if cp.id != self.checkpoint and cp.box.overlaps(x, y, w, h):
                    self.checkpoint, self.respawn = cp.id, cp.spawn
                    events.append("checkpoint")
            for coin in feat.coins:
                if coin.id not in self.coins and coin.box.overlaps(x, y, w, h):
                    self.coins.add(coin.id)
                    events.append("coin")
        if feat.switches:
            flipped: dict[str, bool] = {}  # door group -> turned from how it started
            for s in feat.switches:
                on = alive and s.box.overlaps(x, y, w, h)
                if on and s.id not in self.touching:
                    self.touching.add(s.id)
                    if s.mode == "lever":
                        self.levers[s.id] = not self.levers[s.id]
                    events.append("switch")
                elif not on:
                    self.touching.discard(s.id)
                was = flipped.get(s.door, False)
                # levers each turn the group over; a plate holds it turned while pressed
                flipped[s.door] = (was != self.levers[s.id]) if s.mode == "lever" else (was or on)
            for name, turned in flipped.items():
                door = feat.doors[name]
                target = door.open != turned
                if target == self.doors_open[name]:
                    continue
                if not target and self._occupied(door, [(x, y, w, h), *bodies]):
                    continue  # never close on a body: wait until its cells are free
                self.doors_open[name] = target
                grid_changed = True
        return grid_changed

    def open_doors_over(self, x: float, y: float, w: float, h: float) -> bool:
        """Open every closed door group with a cell under the box (x, y, w, h): the player is
        about to reappear there. Returns True if a door opened (the caller rebuilds the grid).
        The switches still say closed, so the door closes again once the box is out of it."""
        opened = False
        for name, door in self.feat.doors.items():
            if not self.doors_open[name] and self._occupied(door, ((x, y, w, h),)):
                self.doors_open[name] = True
                opened = True
        return opened

    def _occupied(self, door, boxes) -> bool:
        g = self.live
        for bx, by, bw, bh in boxes:
            for row in g.rows_between(by + EPS, by + bh - EPS):
                for col in g.cols_between(bx + EPS, bx + bw - EPS):
                    if 0 <= col < g.cols and 0 <= row < g.rows and row * g.cols + col in door.cells:
                        return True
        return False

