"""The player's movement: one ``step`` per tick, read top to bottom.

input -> ladders -> horizontal speed -> jump (coyote time, buffer, drop-through) -> jump cut ->
gravity -> resolve -> contacts -> falling out of the map. Animation, sound and camera live
elsewhere. All tuning is in :class:`game.config.PhysicsConfig`, in per-second units.

Ladders (``TileGrid.ladders``): up or down while the player overlaps a ladder (down also while
standing on a ladder's top) grabs it, which moves the body over the ladder's middle (through the
resolver, so never into a wall); on it gravity is off, up and down climb at ``climb_speed``
and left and right move at ``climb_side_speed`` (off the ladder's side, the player lets go and
falls). The jump key leaves the ladder with a jump; up does not (it climbs). Climbing up past the
top puts the player standing on it; climbing down onto the ground stands there. While climbing,
coyote time is full (a jump off a ladder always works, and after letting go sideways the usual
coyote window runs from there) and a jump press buffered before the grab is dropped (grabbing a
ladder in the air never turns into a jump off it). A map without ladders never reaches that code.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from game.config import PhysicsConfig
from game.maps.grid import EPS, TileGrid, overlaps_any
from game.sim.inputs import InputFrame
from game.sim.platforms import Platform, clip_to_platforms
from game.resolvers.base import (HIT_CEILING, HIT_LEFT, HIT_RIGHT, NO_CONTACT, ON_GROUND,
                                 ON_ONE_WAY, Body, Contacts, Resolver, contacts_from, move_box,
                                 support_under)

TIMER_EPS = 1e-9  # timers are sums of 1/tick_rate; don't let rounding add or drop a tick
CLIMBED, JUMPED_OFF = "climbed", "jumped off"  # what Player.climb made of a tick


def approach(value: float, target: float, amount: float) -> float:
    if value < target:
        return min(value + amount, target)
    return max(value - amount, target)


@dataclass
class Player:
    x: float
    y: float
    w: float
    h: float
    vx: float = 0.0
    vy: float = 0.0
    facing: int = 1
    on_ground: bool = False
    on_one_way: bool = False
    air_time: float = 0.0  # s since the player was last on the ground (coyote time)
    since_press: float = math.inf  # s since jump was pressed, while the press waits (buffer)
    rising: bool = False  # going up from a jump: releasing jump cuts the rise
    dropping: float = 0.0  # s left of falling through one-way tiles
    # s since a jump off a one-way platform: Down within jump_buffer of it turns it into a drop
    since_one_way_jump: float = math.inf
    respawn_timer: float = 0.0  # s left before reappearing at the spawn
    climbing: bool = False  # on a ladder: gravity off, up and down climb
    contact_flags: int = 0  # what the last move touched: ON_GROUND | HIT_LEFT ... (resolvers.base)
    # The moving platform the player stood on after the last move (game.sim.platforms), or None.
    riding: object = field(default=None, repr=False, compare=False)
    # The last move's arguments, to list the cells it probed when asked (see ``contacts``).
    _last_move: tuple | None = field(default=None, init=False, repr=False, compare=False)
    _contacts: Contacts | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def respawning(self) -> bool:
        return self.respawn_timer > 0.0

    @property
    def contacts(self) -> Contacts:
        """The last move's contacts as a record, with the cells the resolver probed (for the
        debug view and tests).

        Play never collects probed cells. A move is a pure function of its arguments, so asking
        for them takes the last move again with a probe list: the same answer, with the cells.
        """
        if self._contacts is None:
            if self._last_move is None:
                self._contacts = contacts_from(self.contact_flags)
            else:
                resolver, grid, x, y, dx, dy, drop, grounded = self._last_move
                probe: list[tuple[int, int]] = []
                move_box(resolver, grid, x, y, self.w, self.h, dx, dy, one_way_bottom=y + self.h,
                         drop_through=drop, was_on_ground=grounded, probe=probe)
                self._contacts = contacts_from(self.contact_flags, probe)
        return self._contacts

    def body(self) -> Body:
        return Body(self.x, self.y, self.w, self.h, self.vx, self.vy)

    def place(self, x: float, y: float, grid: TileGrid, slopes: bool) -> None:
        """Put the player at (x, y) at rest, as at a (re)spawn, standing if there is ground."""
        self.x, self.y, self.vx, self.vy = x, y, 0.0, 0.0
        self.rising = self.climbing = False
        self.dropping = self.respawn_timer = self.air_time = 0.0
        self.since_press = self.since_one_way_jump = math.inf
        self.contact_flags, self._last_move, self._contacts = 0, None, NO_CONTACT
        self.riding = None
        self.settle(grid, slopes)

    def settle(self, grid: TileGrid, slopes: bool) -> None:
        """Read ``on_ground`` off the map where no move has said it yet (a spawn, a reload)."""
        self.on_ground, self.on_one_way = support_under(grid, self.x, self.w, self.y + self.h,
                                                        slopes)

    def hurt(self, delay: float) -> None:
        """Out of play (a hazard, a fall out of the map): wait ``delay`` s, then respawn."""
        self.vx = self.vy = 0.0
        self.on_ground = self.rising = self.climbing = False
        self.riding = None
        self.respawn_timer = max(delay, TIMER_EPS * 2)

    def step(self, inp: InputFrame, ph: PhysicsConfig, resolver: Resolver, grid: TileGrid,
             spawn: tuple[float, float], platforms: Sequence[Platform] = (),
             friction: float = 1.0, water: bool = False) -> None:
        """One tick. ``platforms`` are the moving boxes the move meets after the tiles.
        ``friction`` (0 to 1) scales the ground's acceleration and deceleration (ice); ``water``
        scales gravity, fall and run speeds and makes jump a swim stroke (see ``[physics]
        water_*``). Their defaults leave the arithmetic exactly as without them."""
        dt = ph.dt

        # --- respawning: wait, then reappear at the spawn with zero velocity -------------------
        if self.respawning:
            self.respawn_timer -= dt
            if self.respawn_timer <= TIMER_EPS:
                self.place(*spawn, grid, resolver.supports_slopes)
            return

        # --- ladders: grab one, or climb the one held (climbing replaces what follows) ------------
        off_ladder = False  # jumping off a ladder this tick
        pressed = inp.jump_pressed
        if grid.ladders:
            # up climbs here, so a press of the jump key counts even while up is held (on a map
            # without ladders the two are one jump button, as they always were)
            pressed = pressed or inp.jump_key_pressed
            if self.climbing or inp.up or inp.down:
                took = self.climb(inp, ph, resolver, grid, platforms)
                if took == CLIMBED:
                    return
                off_ladder = took == JUMPED_OFF

        # --- horizontal speed: accelerate toward the wanted speed, decelerate to a stop ---------
        target = inp.move * (ph.run_speed * ph.water_run if water else ph.run_speed)
        if self.on_ground:
            rate = (ph.ground_accel if inp.move else ph.ground_decel) * friction
        else:
            rate = ph.air_accel if inp.move else ph.air_decel
        if inp.move and self.vx * inp.move < 0:  # turning round
            rate = max(rate, ph.ground_decel * friction if self.on_ground else ph.air_decel)
        self.vx = approach(self.vx, target, rate * dt)
        if inp.move:
            self.facing = inp.move

        # --- jump: coyote time after leaving the ground, a buffer before reaching it ------------
        # Both are measured the same way, in whole ticks of elapsed time: a jump works up to
        # coyote_time after the last tick on the ground, and a press waits up to jump_buffer.
        self.air_time = 0.0 if self.on_ground else self.air_time + dt
        self.since_press = 0.0 if pressed else self.since_press + dt
        jumped = False
        can_jump = self.on_ground or off_ladder or self.air_time <= ph.coyote_time + TIMER_EPS
        self.since_one_way_jump += dt
        if water and pressed and not (inp.down and self.on_ground and self.on_one_way):
            self.vy, self.rising, jumped = -ph.swim_stroke, False, True  # a stroke, any time
            self.since_press = math.inf
        elif self.since_press <= ph.jump_buffer + TIMER_EPS and can_jump:
            if inp.down and self.on_ground and self.on_one_way:
                self.dropping = ph.drop_through_time  # down + jump: drop through the platform
            else:
                self.vy, self.rising, jumped = -ph.jump_speed, True, True
                self.air_time = math.inf  # no second jump from the coyote window
                if self.on_ground and self.on_one_way:
                    self.since_one_way_jump = 0.0
            self.since_press = math.inf
        elif (inp.down and inp.jump_held and self.rising
              and self.since_one_way_jump <= ph.jump_buffer + TIMER_EPS):
            # Jump pressed a moment before Down, off a one-way platform: the pair counts as
            # down + jump within the jump buffer, so the hop becomes a drop. The drop lasts
            # long enough to fall back past the platform from the height the hop reached.
            self.vy, self.rising = 0.0, False
            self.dropping = ph.drop_through_time + 2.0 * self.since_one_way_jump
            self.since_one_way_jump = math.inf

        # --- jump cut: letting go of jump early ends the rise sooner ----------------------------
        if self.rising and self.vy < 0 and not inp.jump_held:
            self.vy *= ph.jump_cut
            self.rising = False

        # --- gravity (the step's motion is exact for constant acceleration) ----------------------
        vy0 = self.vy
        if water:
            self.vy = min(self.vy + ph.gravity * ph.water_gravity * dt,
                          ph.max_fall_speed * ph.water_max_fall)
        else:
            self.vy = min(self.vy + ph.gravity * dt, ph.max_fall_speed)
        dx, dy = self.vx * dt, (vy0 + self.vy) * 0.5 * dt

        # --- resolve against the tiles ------------------------------------------------------------
        dropping = self.dropping > TIMER_EPS
        grounded = self.on_ground and not jumped and not dropping
        x, y = self.x, self.y
        self.x, self.y, c = move_box(resolver, grid, x, y, self.w, self.h, dx, dy,
                                     one_way_bottom=y + self.h, drop_through=dropping,
                                     was_on_ground=grounded)
        self._last_move, self._contacts = (resolver, grid, x, y, dx, dy, dropping, grounded), None
        if platforms:  # then against the moving platforms' boxes, alike for every resolver
            c = clip_to_platforms(platforms, self, x, y, dy, grounded, c, dropping, resolver,
                                  grid)
        self.dropping = max(0.0, self.dropping - dt)

        # --- contacts: the resolver says what was touched; velocity follows -----------------------
        self.contact_flags = c
        self.on_ground, self.on_one_way = bool(c & ON_GROUND), bool(c & ON_ONE_WAY)
        if c & ON_GROUND and self.vy > 0:
            self.vy = 0.0
        if c & ON_GROUND or self.vy >= 0:
            self.rising = False
        if c & HIT_CEILING and self.vy < 0:
            self.vy, self.rising = 0.0, False  # a ceiling stops the rise at once
        if (c & HIT_LEFT and self.vx < 0) or (c & HIT_RIGHT and self.vx > 0):
            self.vx = 0.0

        # --- out of the map's bottom: wait, then respawn -------------------------------------------
        if self.y > grid.height_px:
            self.hurt(ph.respawn_delay)

    def climb(self, inp: InputFrame, ph: PhysicsConfig, resolver: Resolver, grid: TileGrid,
              platforms: Sequence[Platform]) -> str | None:
        """A tick on a ladder, if the player is on one or grabs one now (see the module's
        docstring): CLIMBED, or JUMPED_OFF (the jump key: the usual jump takes the tick), or None
        (no ladder: the usual run, jump and fall take it)."""
        col = math.floor((self.x + self.w * 0.5) / grid.tile_w)  # the ladder is where the middle is
        if not self.climbing:
            touching = self.ladder_beside(grid, col)
            top = self.ladder_top_under(grid, col)
            # down grabs a ladder from its top, or one the player hangs beside in the air (standing
            # at a ladder's foot, down has nowhere to climb)
            grabs_down = inp.down and not (inp.jump_pressed or inp.jump_key_pressed) and (
                top is not None or (touching and not self.on_ground))
            if not ((inp.up and touching) or grabs_down):
                return None
            self.climbing, self.rising, self.vx, self.vy = True, False, 0.0, 0.0
            self.since_press = math.inf  # a press from before the grab is not a jump off it
            grabbed = True
        elif inp.jump_key_pressed:  # the jump key leaves the ladder with a jump
            self.climbing = False
            return JUMPED_OFF
        else:
            grabbed = False
        # on the ladder: no gravity; up and down climb, left and right edge sideways
        self.air_time, self.dropping = 0.0, 0.0
        self.vx = inp.move * ph.climb_side_speed
        self.vy = (int(inp.down) - int(inp.up)) * ph.climb_speed
        if inp.move:
            self.facing = inp.move
        dx, dy = self.vx * ph.dt, self.vy * ph.dt
        if grabbed:  # hands on the rungs: the grab moves the body over the ladder's middle
            dx = col * grid.tile_w + (grid.tile_w - self.w) * 0.5 - self.x
        x, y = self.x, self.y
        down = dy > 0  # climbing down passes the ladder's own top (a one-way tile)
        c = self._climb_move(resolver, grid, platforms, x, y, dx, dy, down)
        col = math.floor((self.x + self.w * 0.5) / grid.tile_w)
        if dy < 0 and not self.ladder_beside(grid, col):
            # up past the top: stand on it (the ladder's top cell is the floor just left)
            top_row = math.floor((y + self.h - EPS) / grid.tile_h)
            if grid.ladder(col, top_row):
                stand = top_row * grid.tile_h - self.h
                if not overlaps_any(grid, self.x, stand, self.w, self.h, math.inf,
                                    resolver.supports_slopes):
                    self.y = stand
                    c = (c & ~HIT_CEILING) | ON_GROUND | ON_ONE_WAY
                else:  # a floor beside the top is higher (a slope): land on it, as a move
                    self.x, self.y, landed = move_box(
                        resolver, grid, self.x, self.y, self.w, self.h, 0.0, stand - self.y,
                        one_way_bottom=self.y + self.h, was_on_ground=True)
                    c = (c & ~HIT_CEILING) | landed
            self.climbing = False
        elif c & ON_GROUND and dy > 0:
            self.climbing = False  # climbed down onto the ground: stand there
        elif not self.ladder_beside(grid, col):
            self.climbing = False  # off the ladder's side: let go, and fall from here
            if down:  # no longer on the ladder, so not through a one-way top beside it either
                c = self._climb_move(resolver, grid, platforms, x, y, dx, dy, False)
        self.contact_flags = c
        self.on_ground, self.on_one_way = bool(c & ON_GROUND), bool(c & ON_ONE_WAY)
        self.vy = 0.0 if self.climbing or self.on_ground else self.vy
        if (c & HIT_LEFT and self.vx < 0) or (c & HIT_RIGHT and self.vx > 0):
            self.vx = 0.0
        return CLIMBED

    def _climb_move(self, resolver: Resolver, grid: TileGrid, platforms: Sequence[Platform],
                    x: float, y: float, dx: float, dy: float, through: bool) -> int:
        """The climb's move from (x, y): against the tiles (``through``: one-way tiles, a ladder's
        top among them, let the body pass), then the platforms; its contact flags."""
        self.x, self.y, c = move_box(resolver, grid, x, y, self.w, self.h, dx, dy,
                                     one_way_bottom=y + self.h, drop_through=through,
                                     was_on_ground=False)
        self._last_move, self._contacts = (resolver, grid, x, y, dx, dy, through, False), None
        if platforms:
            c = clip_to_platforms(platforms, self, x, y, dy, False, c, through, resolver, grid)
        return c

    def ladder_beside(self, grid: TileGrid, col: int) -> bool:
        """Does the body overlap a ladder cell of column ``col`` (the one its middle is in)?"""
        return any(grid.ladder(col, row)
                   for row in grid.rows_between(self.y + EPS, self.y + self.h - EPS))

    def ladder_top_under(self, grid: TileGrid, col: int) -> int | None:
        """The row of the ladder top the player stands on in column ``col``, if any."""
        row = round((self.y + self.h) / grid.tile_h)
        if (abs(row * grid.tile_h - (self.y + self.h)) <= EPS and grid.ladder(col, row)
                and not grid.ladder(col, row - 1)):
            return row
        return None
