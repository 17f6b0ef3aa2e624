"""Feedback drawn over the scene, in the art's style: small bursts of square pixels that the
world's changes set off. View only: the simulation and its traces never see any of it.

* the player vanishing (hurt, squished, a fall, a hazard): a burst of the body's colours and a
  red flash over the view, fading in a quarter of a second;
* a landing from a fall: two puffs of dust at the feet;
* a stomp: the walker squashed flat for a moment, a puff at the feet and, unless
  ``[display] screen_shake`` is off, a short shake;
* a coin: a sparkle where the player took it;
* a spear thrown: the throw pose for a moment (:attr:`Effects.throwing`);
* the goal: a golden pennant rises up the flag's pole, and confetti.

:meth:`Effects.react` is told each tick what changed (a :class:`Moment` before and after);
:meth:`Effects.update` moves the particles by real time; :meth:`Effects.draw` draws them.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import pygame

BODY = ((226, 72, 72), (255, 214, 90), (250, 250, 250))  # the player's red, cap, eyes
DUST = ((196, 176, 136), (150, 132, 104))
SPARKLE = ((255, 240, 150), (255, 255, 255), (255, 200, 60))
CONFETTI = ((255, 90, 90), (90, 200, 255), (255, 230, 90), (120, 230, 120), (230, 130, 255))
GRAVITY = 500.0  # px/s^2 on the particles that fall
LAND_SPEED = 180.0  # px/s: a landing at least this fast raises dust
SHAKE_TIME, SHAKE_PX = 0.18, 3  # a stomp's shake: how long, how far at first
SQUASH_TIME = 0.45  # s a stomped walker lies squashed before it is gone
SQUASH_HEIGHT = 0.35  # of its picture's height, flattened
FLASH_TIME, FLASH_ALPHA = 0.25, 110  # the hurt flash: how long, how strong at first (of 255)
FLASH = (255, 40, 40)
THROW_TIME = 0.2  # s the throw pose is held
PENNANT_TIME = 0.7  # s the goal's pennant takes to rise
MAX_PARTICLES = 600


@dataclass(frozen=True)
class Moment:
    """What the effects need to know of the world at one tick."""

    x: float
    y: float
    w: float
    h: float
    vy: float
    on_ground: bool
    respawning: bool
    coins: int
    last_throw: int  # the tick the newest spear was thrown (-1: none yet)
    goal: bool

    @classmethod
    def of(cls, world) -> Moment:
        p = world.player
        flow = getattr(world, "flow", None)
        coins = len(flow.coins) if flow is not None else 0
        last_throw = max((s.born for s in getattr(world, "spears", ())), default=-1)
        return cls(p.x, p.y, p.w, p.h, p.vy, p.on_ground, p.respawning, coins, last_throw,
                   world.goal_reached)


@dataclass
class Squash:
    """A stomped walker, flattened where it stood, for a moment."""

    x: float  # its bottom centre
    bottom: float
    facing: int
    age: float = 0.0


@dataclass
class Particle:
    x: float
    y: float
    vx: float
    vy: float
    life: float
    colour: tuple[int, int, int]
    size: int = 1
    falls: bool = True
    age: float = 0.0


class Effects:
    def __init__(self, shake: bool = True, seed: int = 7) -> None:
        self.shake_on = shake
        self.rng = random.Random(seed)
        self.particles: list[Particle] = []
        self.shake_left = 0.0
        self.throwing = 0.0  # s of the throw pose left
        self.pennant: tuple[float, float, float] | None = None  # goal (x, bottom, top), rising
        self.pennant_age = 0.0
        self.squashes: list[Squash] = []
        self.flash_left = 0.0  # s of the hurt flash left
        self._flash: pygame.Surface | None = None  # its overlay, the view's size
        # Map px per px of the effects' art: the level's physics scale (a map of bigger tiles,
        # Level.physics_scale), so bursts, speeds and the shake keep their size beside the player.
        self.scale = 1.0

    def clear(self) -> None:
        """A new level, a restart: nothing carried over."""
        self.particles.clear()
        self.squashes.clear()
        self.shake_left = self.throwing = self.pennant_age = self.flash_left = 0.0
        self.pennant = None

    # --- what happened ------------------------------------------------------------------------
    def react(self, before: Moment, after: Moment, events, goals=(), walkers=()) -> None:
        """What a tick from ``before`` to ``after`` sets off; ``events`` the world's for the
        tick, ``goals`` the level's, ``walkers`` the world's (a stomped one is squashed)."""
        cx, feet = before.x + before.w / 2, before.y + before.h
        if after.respawning and not before.respawning:
            self.burst(cx, before.y + before.h / 2, 28, BODY, speed=140, life=0.7, size=2)
            self.flash_left = FLASH_TIME
        if (after.on_ground and not before.on_ground and before.vy >= LAND_SPEED * self.scale
                and not after.respawning):
            for side in (-1, 1):
                for _ in range(4):
                    self.add(after.x + after.w / 2 + side * after.w / 2, after.y + after.h - 1,
                             side * self.rng.uniform(20, 60) * self.scale,
                             -self.rng.uniform(5, 30) * self.scale,
                             0.35, self.rng.choice(DUST), size=2, falls=False)
        if "stomp" in events:
            landed = after.y + after.h  # the feet where the stomp put them, on its top
            for k in walkers:  # the ones just defeated under the player's feet
                if (k.fallen and abs(landed - k.y) <= k.h / 2
                        and k.x < after.x + after.w + 2 and k.x + k.w > after.x - 2):
                    self.squashes.append(Squash(k.x + k.w / 2, k.y + k.h, k.facing))
            self.burst(cx, feet, 10, DUST, speed=70, life=0.3)
            if self.shake_on:
                self.shake_left = SHAKE_TIME
        if after.coins > before.coins or "coin" in events:
            self.burst(cx, before.y, 14, SPARKLE, speed=60, life=0.5, falls=False)
        if after.last_throw != before.last_throw:
            self.throwing = THROW_TIME
        if after.goal and not before.goal:
            goal = next((g for g in goals if g.intersects(after.x, after.y, after.w, after.h)),
                        goals[0] if goals else None)
            if goal is not None:
                self.pennant = (goal.x + goal.w / 2, goal.y + goal.h, goal.y)
                self.pennant_age = 0.0
                self.burst(goal.x + goal.w / 2, goal.y, 40, CONFETTI, speed=160, life=1.2,
                           size=2)

    def burst(self, x: float, y: float, n: int, colours, speed: float, life: float,
              size: int = 1, falls: bool = True) -> None:
        speed *= self.scale
        for _ in range(n):
            a = self.rng.uniform(0, 2 * math.pi)
            v = self.rng.uniform(speed * 0.3, speed)
            self.add(x, y, math.cos(a) * v, math.sin(a) * v - speed * 0.4,
                     life * self.rng.uniform(0.6, 1.0), self.rng.choice(colours), size, falls)

    def add(self, x, y, vx, vy, life, colour, size: int = 1, falls: bool = True) -> None:
        """A particle (``size``: art px, made map px by :attr:`scale`)."""
        if len(self.particles) < MAX_PARTICLES:
            self.particles.append(Particle(x, y, vx, vy, life, colour,
                                           max(1, round(size * self.scale)), falls))

    # --- time -----------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        dt = max(0.0, min(dt, 0.25))  # a stalled frame moves them no further than the loop
        alive = []
        gravity = GRAVITY * self.scale
        for p in self.particles:
            p.age += dt
            if p.age >= p.life:
                continue
            if p.falls:
                p.vy += gravity * dt
            p.x += p.vx * dt
            p.y += p.vy * dt
            alive.append(p)
        self.particles = alive
        self.shake_left = max(0.0, self.shake_left - dt)
        self.throwing = max(0.0, self.throwing - dt)
        self.flash_left = max(0.0, self.flash_left - dt)
        for sq in self.squashes:
            sq.age += dt
        self.squashes = [sq for sq in self.squashes if sq.age < SQUASH_TIME]
        if self.pennant is not None:
            self.pennant_age += dt

    def shake(self) -> tuple[int, int]:
        """How far the view is shaken now, whole px (it dies away)."""
        if self.shake_left <= 0:
            return 0, 0
        k = self.shake_left / SHAKE_TIME
        n = round(SHAKE_PX * self.scale * k)
        phase = int(self.shake_left * 60)
        return (n if phase % 2 else -n), (n if phase % 3 == 0 else 0)

    # --- drawing --------------------------------------------------------------------------------
    def draw(self, scene: pygame.Surface, origin: tuple[int, int], walker_sprite=None) -> None:
        """The effects over ``scene`` (its top-left at map px ``origin``); ``walker_sprite``
        (game.view.sprites.WalkerSprite) draws the squashed walkers."""
        ox, oy = origin
        if walker_sprite is not None:
            for sq in self.squashes:
                if sq.age > SQUASH_TIME * 0.7 and int(sq.age * 30) % 2:
                    continue  # blink out
                img = walker_sprite.image(sq.facing, 0.0)
                w, h = img.get_width() + 4, max(1, round(img.get_height() * SQUASH_HEIGHT))
                flat = pygame.transform.scale(img, (w, h))
                scene.blit(flat, (round(sq.x - w / 2) - ox, round(sq.bottom) - h - oy))
        if self.pennant is not None:
            x, bottom, top = self.pennant
            t = min(1.0, self.pennant_age / PENNANT_TIME)
            y = bottom + (top - bottom) * (1 - (1 - t) ** 2)  # eases to the top
            px_, py_ = round(x) - ox, round(y) - oy
            s = self.scale
            one, three, six, nine = (max(1, round(n * s)) for n in (1, 3, 6, 9))
            flag = [(px_ + one, py_), (px_ + nine, py_ + three), (px_ + one, py_ + six)]
            pygame.draw.polygon(scene, (255, 214, 60), flag)
            pygame.draw.line(scene, (150, 100, 20), (px_ + one, py_), (px_ + one, py_ + six),
                             one)
        for p in self.particles:
            fade = 1.0 - p.age / p.life
            if fade < 0.3 and int(p.age * 30) % 2:  # blink out, as pixel art does
                continue
            scene.fill(p.colour, (round(p.x) - ox, round(p.y) - oy, p.size, p.size))
        if self.flash_left > 0:
            if self._flash is None or self._flash.get_size() != scene.get_size():
                self._flash = pygame.Surface(scene.get_size())
                self._flash.fill(FLASH)
            self._flash.set_alpha(round(FLASH_ALPHA * self.flash_left / FLASH_TIME))
            scene.blit(self._flash, (0, 0))
