"""Every resolver plays every shipped level to its goal, driven by a small closed-loop bot.

The bot follows a route: a list of legs, each a target x in map px (the player's centre) and what
to do on the way. Every tick it reads the player (position, speed, on_ground, contacts), decides
which keys to hold, and those go through an :class:`InputSequencer` into ``World.step``, exactly
as keys from the keyboard would. Routes are per level and the same for every resolver.

Leg kinds:

* ``run(x)``: run toward x at full speed; the leg ends on the ground past x. ``jump_at`` presses
  jump when the centre passes that x (a running jump over a gap).
* ``stand(x)``: go to x, brake, and stand still there (``floor``: and wait until standing at that
  bottom, e.g. after falling down a hole that opens under x).
* ``jump(x, floor)``: jump from where the player stands, steer toward x in the air, hold jump for
  the full height; the leg ends on landing, which must be on ``floor``.
* ``drop(floor)``: down + jump on a one-way floor; the leg ends landing on ``floor``.
* ``climb(floor)``: hold up at a ladder; the leg ends standing on ``floor`` (the ladder's top,
  climbed past); with no floor, it ends when a ceiling stops the climb.
* ``climb_down(floor)``: hold down (on a ladder's top, or on a ladder); the leg ends standing on
  ``floor`` at the ladder's foot.
* ``wait(x, clear, floor)``: stand at x as ``stand`` does, then keep standing until no walker is within
  ``clear`` px ahead (to the right; a negative ``clear`` looks left) of the player's front edge,
  on the player's level or up to two tiles above or one below it (on a safe block, the pen below
  it and the step above it); the leg ends then. A pure look at the world each tick, so a run is
  the same every time.

On the ground, a walker just ahead at the runner's height is jumped (in every leg that moves the
player along the ground): over it, or onto it (a stomp).

On the ground, a player that a wall stops while it runs hops (jump when blocked): that is how the
box resolvers (axis, corners, overlap) get up the hills, where slope tiles are boxes to them. A hop
is only allowed in front of a wall: a solid tile (or, for a resolver without slopes, a slope tile)
in the column ahead, beside the body. Stopped with no wall ahead is a snag (a seam, or a slope the
resolver claims to walk), and the run fails there instead of hopping over the bug.

Every tick the test also checks the "no overlap" rule and that the player never falls out of the
map (no route here goes into a pit).

**A played run is a proof too.** A recording made while playing (``main.py --level L --record
tests/data/playthroughs/NAME.txt``: touch the flag, then Esc or close the window while the
end-of-level card shows) stands beside the routes: each recording in :data:`PROOFS` is replayed
on the level its header names, with the resolver it was played with, and must reach the goal
under the same rules (a death on the way is fine: a player is not a bot). A recording made with
other physics or another player size than the level now has fails and says to record again.

A level in ``levels/`` with neither a route nor a recording fails, it is not skipped; the
message says how to make either.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import pytest
from helpers import QUICK_RESOLVERS

from game import config, resolvers
from game.maps.grid import EPS, SLOPE, SOLID, TileGrid
from game.runs.record import MARK
from game.sim.inputs import Held, InputScript, InputSequencer, load_script
from game.sim.player import Player
from game.resolvers.base import Resolver, overlapping_tiles
from game.sim.world import World, load_world

ROOT = Path(__file__).resolve().parent.parent
LEVELS = sorted((ROOT / "levels").glob("*.tmx"))
PROOFS = ROOT / "tests" / "data" / "playthroughs"  # recordings that prove a level
MAX_SECONDS = 60.0  # of game time per run


# ----------------------------------------------------------------------------------------------
# Routes
# ----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Leg:
    kind: str  # "run", "stand", "jump", "drop", "climb", "climb_down" or "wait"
    x: float | None = None  # target of the player's centre, map px (None: stay where you are)
    jump_at: float | None = None  # run: jump when the centre passes this x
    floor: float | None = None  # the bottom (map px) the leg must end standing on
    note: str = ""
    clear: float | None = None  # wait: px ahead that must be free of walkers (negative: left)

    def __str__(self) -> str:
        parts = [self.kind] + [f"{k}={v:g}" for k, v in (("x", self.x), ("jump_at", self.jump_at),
                                                          ("floor", self.floor),
                                                          ("clear", self.clear)) if v is not None]
        return " ".join(parts) + (f" ({self.note})" if self.note else "")


def run(x: float, jump_at: float | None = None, floor: float | None = None, note: str = "") -> Leg:
    return Leg("run", x, jump_at, floor, note)


def stand(x: float, floor: float | None = None, note: str = "") -> Leg:
    return Leg("stand", x, None, floor, note)


def jump(x: float | None, floor: float, note: str = "") -> Leg:
    return Leg("jump", x, None, floor, note)


def drop(floor: float, note: str = "") -> Leg:
    return Leg("drop", None, None, floor, note)


def climb(floor: float | None = None, note: str = "") -> Leg:
    return Leg("climb", None, None, floor, note)


def climb_down(floor: float, note: str = "") -> Leg:
    return Leg("climb_down", None, None, floor, note)


def wait(x: float, clear: float, floor: float | None = None, note: str = "") -> Leg:
    return Leg("wait", x, None, floor, note, clear)


T = 16  # px per tile in the shipped levels; routes below are written in tiles where it reads better


def col(c: float) -> float:
    """The x of the centre of column c (c may be fractional)."""
    return c * T + T / 2


def row_top(r: int) -> float:
    return r * T


# Keyed by the level's file name; the same route for every resolver (none needs its own). Notes
# name tiles by column and row, counted from 0 at the map's top-left.
ROUTES: dict[str, list[Leg]] = {
    "01_first_steps.tmx": [
        run(col(26), note="two steps up (cols 16 and 21): the box resolvers hop them"),
        run(col(32), jump_at=col(27) - 4, floor=row_top(11), note="the 2-wide bottomless gap"),
        run(col(40), floor=row_top(8), note="hop the 3-tile climb at col 37"),
        run(col(46), floor=row_top(14), note="off the block's far side, down to the ground"),
        stand(col(50.5)),
        jump(col(50.5), floor=row_top(11), note="up through one-way stair 1 (cols 49-52)"),
        stand(col(52.2)),
        jump(col(55.5), floor=row_top(8), note="stair 2 (cols 54-57)"),
        stand(col(57.2)),
        jump(col(60.5), floor=row_top(5), note="stair 3 (cols 59-62)"),
        run(col(66), jump_at=col(62), floor=row_top(5), note="over the 1-wide hole onto the ledge"),
        run(col(75), note="the flag"),
    ],
    "02_every_tile.tmx": [
        run(col(19), floor=row_top(20), note="the 45-degree hill (cols 12-17)"),
        run(col(29), floor=row_top(20), note="the shallow hill (cols 21-27)"),
        stand(col(33), floor=row_top(26), note="stop on the 1-wide hole: fall into the cave"),
        run(col(52), floor=row_top(26), note="under the low ceiling, through the 1-tall tunnel"),
        stand(col(56)),
        jump(col(56), floor=row_top(23), note="up through the shaft's one-way (row 23)"),
        jump(col(56), floor=row_top(20), note="up through the shaft's top (row 20)"),
        jump(col(56), floor=row_top(17), note="onto the floating one-way (row 17)"),
        drop(floor=row_top(20), note="down + jump: back through it onto the shaft's top"),
        stand(col(64.5)),
        jump(col(64.5), floor=row_top(17), note="the tall wall's one-way platforms (cols 63-66)"),
        jump(col(64.5), floor=row_top(14)),
        jump(col(65.5), floor=row_top(11)),
        run(col(67.5), floor=row_top(9), note="hop onto the top of the wall (cols 67-68)"),
        run(col(72), floor=row_top(20), note="off its far side, down to the ground"),
        run(col(84), jump_at=col(77) - 4, note="jump the pit (cols 78-80) onto the slope"),
        run(col(114), note="along the plateau to the flag"),
    ],
    "03_moon_hop.tmx": [  # gravity 700, jump_speed 330: the pits and planks need the moon
        run(col(22), floor=row_top(16), note="over the shallow hill (cols 12-19)"),
        run(col(34), jump_at=col(25), floor=row_top(16), note="the 6-wide pit (cols 26-31)"),
        stand(col(35)),
        jump(col(35), floor=row_top(12), note="4 tiles up through the one-way (cols 34-36)"),
        stand(col(36.3)),
        jump(col(38.5), floor=row_top(8), note="4 more onto the one-way by the roof (cols 37-39)"),
        run(col(56), jump_at=col(46), floor=row_top(12),
            note="along the roof, leap the 7-wide pit (cols 47-53) onto the plateau"),
        run(col(67), note="down the 45-degree slope (cols 60-63) to the flag"),
    ],
    "04_crowd.tmx": [  # pens of walkers between 1-tile blocks (row 29)
        wait(col(7), clear=5 * T, floor=row_top(29),
             note="onto the first block (cols 6-7); wait until pen 1 (cols 8-19) is clear by it"),
        run(col(18.5), floor=row_top(30), note="through pen 1"),
        wait(col(21), clear=5 * T, floor=row_top(29), note="onto the block at cols 20-21"),
        run(col(32.5), floor=row_top(30), note="through pen 2"),
        wait(col(35), clear=5 * T, floor=row_top(29), note="checkpoint 1 (block at cols 34-35)"),
        run(col(48.5), floor=row_top(30), note="through pen 3"),
        wait(col(51), clear=5 * T, floor=row_top(29),
             note="the block at cols 50-51, until the plateau's walkers are away from its edge"),
        run(col(64.5), floor=row_top(28), note="up onto the plateau (cols 52-65) and across it"),
        wait(col(67), clear=5 * T, floor=row_top(29), note="down to checkpoint 2 (cols 66-67)"),
        run(col(82.5), floor=row_top(30), note="through pen 4"),
        wait(col(85), clear=5 * T, floor=row_top(29), note="checkpoint 3 (cols 84-85)"),
        run(col(92.5), floor=row_top(30), note="through pen 5"),
        stand(col(95), floor=row_top(29), note="onto the last block (cols 94-95)"),
        run(col(97), floor=row_top(30), note="the flag"),
    ],
    "05_features.tmx": [  # a touched hazard fails the run (respawning)
        run(col(20), jump_at=col(13.5), floor=row_top(12), note="over the spikes (cols 15-17)"),
        run(col(52), jump_at=col(46), floor=row_top(12),
            note="across the ice (cols 25-44) and over the lava (cols 48-50)"),
        run(col(72), floor=row_top(12),
            note="through the pool (cols 58-67): strokes up its two steps, a hop out"),
        stand(col(78), floor=row_top(12), note="under the lever, on the wall over the door"),
        jump(col(78), floor=row_top(12), note="up to the lever (col 79, row 8): the door opens"),
        run(col(112), floor=row_top(12), note="through the door (col 80) to the flag"),
    ],
    "06_ladders.tmx": [
        stand(col(8), floor=row_top(20), note="at the foot of ladder A (col 8)"),
        climb(floor=row_top(14), note="up A past its top: standing on it, level with the ledge"),
        stand(col(17), floor=row_top(14), note="along the ledge to ladder B, beside the wall"),
        climb(floor=row_top(7), note="up B along the wall (col 18), onto its top"),
        jump(col(20), floor=row_top(5), note="from B's top onto the wall's top (row 5)"),
        stand(col(25), floor=row_top(10), note="off the ledge's end, onto ladder C's top"),
        climb_down(floor=row_top(20), note="down through C's top to the ground"),
        stand(col(32), floor=row_top(20), note="at the foot of ladder D"),
        climb(note="up D until the low ceiling (row 12) stops the climb"),
        run(col(39.5), floor=row_top(14), note="sideways off D onto the ledge, to the flag"),
    ],
}


# ----------------------------------------------------------------------------------------------
# The bot
# ----------------------------------------------------------------------------------------------

class RouteFailed(AssertionError):
    pass


def centre(p: Player) -> float:
    return p.x + p.w / 2


def bottom(p: Player) -> float:
    return p.y + p.h


def wall_ahead(grid: TileGrid, p: Player, direction: int, slopes: bool) -> bool:
    """Is there a wall right in front of the body: a tile that a runner must jump, not walk?"""
    edge = p.x + p.w if direction > 0 else p.x
    c = math.floor((edge + direction * 0.5) / grid.tile_w)
    for r in grid.rows_between(p.y + EPS, p.y + p.h - EPS):
        kind = grid.kind(c, r)
        if kind == SOLID or (kind == SLOPE and not slopes):
            return True
    return False


class Bot:
    """Turns a route into held keys, one tick at a time, from the player's state."""

    TOLERANCE = 1.5  # px: close enough to a stand target

    def __init__(self, world: World, route: list[Leg]) -> None:
        self.world = world
        self.route = route
        self.index = 0
        self.slopes = bool(type(world.resolver).supports_slopes)
        self.jump_held = False  # what the bot held last tick (a press needs a release before it)
        self._start_leg()

    @property
    def done(self) -> bool:
        return self.index >= len(self.route)

    @property
    def leg(self) -> Leg:
        return self.route[self.index]

    def where(self) -> str:
        p = self.world.player
        leg = f"leg {self.index} [{self.leg}]" if not self.done else "after the last leg"
        feet = f"feet in col {int(centre(p) // T)}, row {int((bottom(p) - 1) // T)}"
        return (f"{leg}, tick {self.world.tick}: centre x={centre(p):.2f} bottom={bottom(p):.2f} "
                f"({feet}) vx={p.vx:.1f} vy={p.vy:.1f} on_ground={p.on_ground} "
                f"contacts=({_flags(p)})")

    def _start_leg(self) -> None:
        self.climbed = False  # this climb leg's player has been on the ladder
        self.pressed = False  # this leg's jump (or drop) has been pressed
        self.airborne = False  # the player has left the ground since the press
        if not self.done:
            p = self.world.player
            x = self.leg.x if self.leg.x is not None else centre(p)
            self.direction = 1 if x >= centre(p) else -1

    # --- steering --------------------------------------------------------------------------
    def _toward(self, x: float, brake: bool) -> int:
        """-1, 0 or +1: which way to hold to reach x (and, with brake, to stop on it)."""
        p, phys = self.world.player, self.world.physics
        d = x - centre(p)
        if brake:
            if abs(d) <= self.TOLERANCE / 2 and abs(p.vx) < 40:
                return 0
            decel = phys.ground_decel if p.on_ground else phys.air_decel
            stopping = p.vx * p.vx / (2 * decel)
            if p.vx * d > 0 and stopping >= abs(d) - 0.5:
                return 0  # let go: friction brings the player to rest on the target
        return 1 if d > 0 else -1 if d < 0 else 0

    def _blocked(self, move: int) -> bool:
        p = self.world.player
        c = p.contacts
        return bool(move and p.on_ground and (c.hit_right if move > 0 else c.hit_left))

    def _passed(self, x: float) -> bool:
        return (centre(self.world.player) - x) * self.direction >= 0

    def _on_floor(self, floor: float | None) -> bool:
        p = self.world.player
        return p.on_ground and (floor is None or abs(bottom(p) - floor) < 1e-3)

    # --- one tick ------------------------------------------------------------------------------
    def held(self) -> Held:
        """The keys for the next tick; advances through the legs as they are done."""
        while not self.done:
            self.new_press = self.up = False
            keys = self._leg_keys()
            if keys is not None:
                return self._press_rules(keys)
            self.index += 1
            self._start_leg()
        return Held()

    def _leg_keys(self) -> tuple[int, bool, bool] | None:
        """(move, down, want jump) for the current leg, or None if the leg is done."""
        p, leg = self.world.player, self.leg
        if self.pressed and not p.on_ground:
            self.airborne = True
        landed = self.pressed and self.airborne and p.on_ground

        if leg.kind == "run":
            if self._passed(leg.x) and self._on_floor(leg.floor) and (
                    leg.jump_at is None or landed):
                return None
            move = self.direction
            want_jump = False
            if leg.jump_at is not None and not self.pressed and p.on_ground and \
                    (centre(p) - leg.jump_at) * self.direction >= 0:
                self.pressed = self.new_press = want_jump = True
            return move, False, want_jump or self._hop(move) or self._walker_ahead(move)

        if leg.kind in ("stand", "wait"):
            move = self._toward(leg.x, brake=True)
            near = abs(centre(p) - leg.x) <= self.TOLERANCE
            if near and p.vx == 0 and self._on_floor(leg.floor) and (
                    leg.kind == "stand" or not self._walker_near(leg.clear)):
                return None
            return move, False, self._hop(move) or (move != 0 and self._walker_ahead(move))

        if leg.kind in ("jump", "drop"):
            if landed:
                if not self._on_floor(leg.floor):
                    raise RouteFailed(f"landed on the wrong floor (wanted bottom {leg.floor:g}): "
                                      + self.where())
                return None
            if not self.pressed:
                if not p.on_ground:
                    return 0, False, False  # wait to stand
                self.pressed = self.new_press = True
                return 0, leg.kind == "drop", True
            move = self._toward(leg.x, brake=True) if leg.x is not None else 0
            return move, False, p.vy < 0  # hold jump all the way up

        if leg.kind in ("climb", "climb_down"):
            self.climbed = self.climbed or p.climbing
            if self.climbed and not p.climbing and self._on_floor(leg.floor):
                return None
            if leg.floor is None and p.climbing and p.contacts.hit_ceiling:
                return None  # the ceiling stopped the climb
            if self.climbed and not p.climbing and not p.on_ground and leg.floor is not None:
                raise RouteFailed("let go of the ladder: " + self.where())
            self.up = leg.kind == "climb"
            return 0, leg.kind == "climb_down", False

        raise ValueError(f"unknown leg kind {leg.kind!r}")

    WALKER_GAP = 0.15  # s: jump when a walker ahead would touch the runner this soon

    def _walker_near(self, clear: float) -> bool:
        """Is a walker within ``clear`` px ahead of the front edge (negative: to the left), its
        feet from two tiles above the player's to one tile below?"""
        p = self.world.player
        if clear >= 0:
            lo, hi = p.x + p.w, p.x + p.w + clear
        else:
            lo, hi = p.x + clear, p.x
        feet = bottom(p)
        for k in self.world.walkers:
            if (not k.fallen and k.x < hi and k.x + k.w > lo
                    and feet - 2 * T <= k.y + k.h <= feet + T):
                return True
        return False

    def _walker_ahead(self, move: int) -> bool:
        """Jump (over it or onto it: a stomp) when a walker is just ahead at the runner's height;
        a walker that touches the player from the side would send them back."""
        p = self.world.player
        if not p.on_ground:
            return self.jump_held and p.vy < 0  # keep holding the jump
        for k in self.world.walkers:
            if k.fallen or k.y >= p.y + p.h or k.y + k.h <= p.y:
                continue
            gap = k.x - (p.x + p.w) if move > 0 else p.x - (k.x + k.w)
            closing = abs(p.vx) - k.facing * k.speed * move
            if 0 <= gap and gap <= self.WALKER_GAP * max(closing, 1.0):
                return True
        return False

    def _hop(self, move: int) -> bool:
        """Jump when a wall stops the runner; fail if nothing is there to stop it."""
        if not self._blocked(move):
            return self.jump_held and self.world.player.vy < 0  # keep holding a hop's jump
        if not wall_ahead(self.world.grid, self.world.player, move, self.slopes):
            raise RouteFailed("stopped on the ground with no wall ahead (a snag): " + self.where())
        return True

    def _press_rules(self, keys: tuple[int, bool, bool]) -> Held:
        move, down, want_jump = keys
        # A press only counts on the first tick jump is held: if it was held last tick, let go
        # now and press on the next tick.
        if self.new_press and self.jump_held:
            self.pressed = want_jump = False
        self.jump_held = want_jump
        return Held(left=move < 0, right=move > 0, up=self.up, down=down, jump=want_jump)


def _flags(p: Player) -> str:
    c = p.contacts
    names = ("on_ground", "hit_ceiling", "hit_left", "hit_right", "on_one_way")
    return ",".join(n for n in names if getattr(c, n)) or "none"


# ----------------------------------------------------------------------------------------------
# The test
# ----------------------------------------------------------------------------------------------

@dataclass
class Result:
    world: World
    ticks: int
    held: list[Held]


def play(level: Path, resolver_name: str, resolver: Resolver | None = None) -> Result:
    """Run the bot on a level with a resolver (``resolver``, or the one play makes by that
    name), checking the rules every tick."""
    route = ROUTES[level.name]
    if resolver is None:
        resolver = resolvers.create(resolver_name)
    world = load_world(level, config.load(), resolver)
    bot = Bot(world, route)
    held_log: list[Held] = []

    def held(_tick: int) -> Held:
        keys = bot.held()
        held_log.append(keys)
        return keys

    world = run_checked(world, held, round(MAX_SECONDS / world.physics.dt), bot.where,
                        deaths_allowed=False)
    if not world.goal_reached:
        raise RouteFailed(f"goal not reached in {MAX_SECONDS:g} s of game time; stuck at "
                          + bot.where())
    return Result(world, world.tick, held_log)


def run_checked(world: World, held: Callable[[int], Held], ticks: int,
                where: Callable[[], str], deaths_allowed: bool) -> World:
    """Step ``world`` with ``held(tick)`` until the goal or ``ticks`` ticks, checking the rules
    every tick: no overlap with a tile, and (unless ``deaths_allowed``) no fall, hazard or
    walker sending the player back."""
    p = world.player
    slopes = bool(world.resolver.supports_slopes)
    seq = InputSequencer()
    for tick in range(ticks):
        bottom_before = bottom(p)
        passing_before = p.dropping > 0 or p.climbing
        world.step(seq.frame(held(tick)))
        if p.respawning:
            assert deaths_allowed, "fell out of the map or touched a hazard: " + where()
            continue
        # A body dropping through a one-way floor, or climbing down through a ladder's top, is
        # inside it on purpose: then only solids and slopes count (one-way tiles never count for
        # a bottom_before of +inf).
        passing = passing_before or p.dropping > 0 or p.climbing
        before = math.inf if passing else bottom_before
        hits = overlapping_tiles(world.grid, p.x, p.y, p.w, p.h, before, slopes=slopes)
        assert not hits, f"overlaps tiles {hits} (col, row): " + where()
        if world.goal_reached:
            break
    return world


# ----------------------------------------------------------------------------------------------
# Recordings: a played run as a proof
# ----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Recording:
    """A ``--record`` file: its keys, and what its header says it was played on."""

    path: Path
    level: str  # the level's file name
    resolver: str
    physics: dict[str, str]  # as the header writes them
    player: str  # "width=12.0 height=14.0"
    ticks: int
    script: InputScript


def read_recording(path: Path) -> Recording:
    """The recording in ``path``; an AssertionError saying what is wrong with it."""
    text = path.read_text("utf-8")
    assert text.startswith(MARK + "\n"), (
        f"{path}: not a recording made with --record (its first line is not {MARK!r})")
    header = dict(line[2:].split(": ", 1) for line in text.splitlines()
                  if line.startswith("# ") and ": " in line)
    for key in ("level", "resolver", "physics", "player", "replay"):
        assert key in header, f"{path}: its header has no '{key}:' line; record it again"
    ticks = int(header["replay"].split("--ticks ", 1)[1].split()[0])
    physics = dict(kv.split("=", 1) for kv in header["physics"].split())
    return Recording(path, Path(header["level"]).name, header["resolver"], physics,
                     header["player"], ticks, load_script(path))


def recordings(folder: Path = PROOFS) -> list[Recording]:
    return [read_recording(p) for p in sorted(folder.glob("*.txt"))]


def record_command(level: Path) -> str:
    """What to run to make a recording that proves ``level``."""
    try:
        shown = level.relative_to(ROOT)
    except ValueError:
        shown = level
    out = PROOFS.relative_to(ROOT) / f"{level.stem}.txt"
    return f"uv run main.py --level {shown} --record {out}"


def replay(rec: Recording, level: Path) -> World:
    """Replay ``rec`` on ``level`` under the bot's rules (deaths allowed); the world at the
    goal. Fails, saying what to do, when the level or its physics changed since."""
    world = load_world(level, config.load(), resolvers.create(rec.resolver))
    now = {k: str(v) for k, v in asdict(world.physics).items()}
    changed = [f"{k} {rec.physics.get(k)} then, {v} now" for k, v in now.items()
               if rec.physics.get(k) != v]
    again = f"record it again: {record_command(level)}"
    assert not changed, (f"{rec.path.name} was played with other physics ({'; '.join(changed)}): "
                         + again)
    p = world.player
    size = f"width={p.w} height={p.h}"
    assert rec.player == size, f"{rec.path.name} was played as {rec.player}, now {size}: " + again

    def where() -> str:
        return (f"{rec.path.name} on {level.name} with {rec.resolver}, tick {world.tick}: "
                f"x={p.x:.2f} y={p.y:.2f}")

    world = run_checked(world, rec.script.held_at, rec.ticks, where, deaths_allowed=True)
    assert world.goal_reached, (f"{rec.path.name} no longer reaches the goal of {level.name} "
                                f"(the level changed since it was played?); at the end, {where()}; "
                                + again)
    return world


def proof_missing(level: Path) -> str:
    """The failure message for a level with neither a route nor a recording."""
    return (f"{level.name} has no playthrough proof. Play it to the flag with "
            f"`{record_command(level)}` (touch the flag, then press Esc or close the window "
            f"while the end-of-level card shows) and add the recording; or add a bot route for it "
            f"to ROUTES in tests/test_playthrough.py (every resolver then plays it). "
            f"docs/levels.md, section 6, says more.")


# ----------------------------------------------------------------------------------------------
# The tests
# ----------------------------------------------------------------------------------------------

# Every level with a route, with every resolver; a touch from a walker (or a hazard, or a fall)
# fails the run. The quick tier plays every level with two resolvers (helpers.QUICK_RESOLVERS),
# the full tier with all of them.
CASES = [pytest.param(level, name, id=f"{level.stem}-{name}",
                      marks=() if name in QUICK_RESOLVERS else (pytest.mark.slow,))
         for level in LEVELS if level.name in ROUTES for name in resolvers.names()]


def test_there_are_levels_to_play():
    assert LEVELS, "levels/*.tmx: no shipped level found"


def test_every_route_has_a_level():
    stale = sorted(set(ROUTES) - {p.name for p in LEVELS})
    assert not stale, f"routes for levels that are not in levels/: {stale}"


@pytest.mark.parametrize("level", LEVELS, ids=lambda p: p.stem)
def test_every_level_has_a_playthrough_proof(level):
    recorded = {r.level for r in recordings()}
    if level.name not in ROUTES and level.name not in recorded:
        pytest.fail(proof_missing(level), pytrace=False)


def test_every_recording_reaches_the_goal():
    for rec in recordings():
        level = ROOT / "levels" / rec.level
        assert level in LEVELS, (f"{rec.path.name} was played on {rec.level}, which is not in "
                                 "levels/: delete the recording or bring the level back")
        assert replay(rec, level).goal_reached


@pytest.mark.parametrize(("level", "resolver_name"), CASES)
def test_bot_reaches_the_goal(level, resolver_name):
    result = play(level, resolver_name)
    assert result.world.goal_reached


@pytest.mark.slow
def test_a_recording_made_in_the_window_proves_a_level_without_a_route(tmp_path):
    """A new level (a copy of Moon Hop under a name with no route) is played to its flag in the
    window with --record (the bot's keys played as a demo, as a player's would be); the
    recording then stands as its proof. Without the recording, the message says how to make
    one."""
    import shutil

    import pygame

    from game.runs.record import Recorder
    from game.sim.inputs import InputScript
    from game.view.app import App

    shutil.copytree(ROOT / "assets", tmp_path / "assets")
    levels = tmp_path / "levels"
    shutil.copytree(ROOT / "levels", levels)
    new = levels / "06_new_level.tmx"
    shutil.copy(levels / "03_moon_hop.tmx", new)
    assert new.name not in ROUTES
    assert "06_new_level.tmx has no playthrough proof" in proof_missing(new)
    assert "--record tests/data/playthroughs/06_new_level.txt" in proof_missing(new)
    assert "ROUTES" in proof_missing(new)

    bot = play(ROOT / "levels" / "03_moon_hop.tmx", "sweep")  # the keys a player pressed
    keys = InputScript(tuple((t, h) for t, h in enumerate(bot.held)))
    out = tmp_path / "proofs" / "mine.txt"
    out.parent.mkdir()
    c = config.load()
    cfg = replace(c, resolver="sweep", display=replace(c.display, width=640, height=360,
                                                       vsync=False, hot_reload=False))
    app = App(cfg, new, script=keys, record=Recorder.check(str(out), []), frame_time=1 / 60,
              max_frames=bot.ticks + 60)
    try:
        app.run()  # the goal, the card for a second, then the window closes
    finally:
        pygame.init()
    assert app.play.card is not None  # still on the card: one recording, for this level
    rec = read_recording(out)
    assert rec.level == new.name and rec.resolver == "sweep" and rec.ticks > bot.ticks
    assert {r.level for r in recordings(out.parent)} == {new.name}
    assert replay(rec, new).goal_reached
    # Played with other physics (a config of one's own): the proof says to record again.
    (out.parent / "mine.txt").write_text(out.read_text("utf-8").replace("gravity=700.0",
                                                                        "gravity=650.0"))
    with pytest.raises(AssertionError, match="other physics.*gravity 650.0 then, 700.0 now"):
        replay(read_recording(out), new)
