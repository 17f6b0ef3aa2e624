"""The player's, the walkers', the moving platforms' and the spears' pictures and the parallax background: what the simulation
state looks like."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import pygame

ASSETS = Path(__file__).resolve().parent.parent.parent / "assets"

FRAME = 16  # px, square frames in assets/player.png
ANIMATIONS = {"idle": (0, 4, 4.0), "run": (1, 6, 12.0), "jump": (2, 2, 0.0)}  # row, frames, fps
CLIMB_FPS = 8.0  # on a ladder the run cycle steps at this rate while the player moves


def _load(name: str) -> pygame.Surface:
    img = pygame.image.load(str(ASSETS / name))
    return img.convert_alpha() if pygame.display.get_surface() is not None else img


@dataclass
class PlayerLook:
    """Animation state kept by the view: which animation, and how far into it."""

    animation: str = "idle"
    time: float = 0.0


class PlayerSprite:
    def __init__(self) -> None:
        sheet = _load("player.png")
        self.frames: dict[str, list[pygame.Surface]] = {}
        for name, (row, count, _fps) in ANIMATIONS.items():
            self.frames[name] = [sheet.subsurface((i * FRAME, row * FRAME, FRAME, FRAME)).copy()
                                 for i in range(count)]
        self.flipped = {name: [pygame.transform.flip(f, True, False) for f in frames]
                        for name, frames in self.frames.items()}
        self.look = PlayerLook()

    def update(self, dt: float, on_ground: bool, vx: float, vy: float, run_speed: float,
               climbing: bool = False) -> None:
        if climbing:  # the run cycle, stepping as the player climbs (still while holding on)
            if self.look.animation != "climb":
                self.look = PlayerLook("climb", 0.0)
            if vx or vy:
                self.look.time += dt
            return
        if not on_ground:
            anim = "jump"
        elif abs(vx) > 8.0:
            anim = "run"
        else:
            anim = "idle"
        if anim != self.look.animation:
            self.look = PlayerLook(anim, 0.0)
        speed = 1.0
        if anim == "run" and run_speed > 0:
            speed = max(0.4, min(1.5, abs(vx) / run_speed))
        self.look.time += dt * speed

    def image(self, facing: int, vy: float) -> pygame.Surface:
        anim = self.look.animation
        if anim == "climb":
            frames = (self.frames if facing >= 0 else self.flipped)["run"]
            return frames[int(self.look.time * CLIMB_FPS) % len(frames)]
        frames = (self.frames if facing >= 0 else self.flipped)[anim]
        if anim == "jump":
            return frames[0 if vy < 0 else 1]
        fps = ANIMATIONS[anim][2]
        return frames[int(self.look.time * fps) % len(frames)]


def _opaque_pixels(img: pygame.Surface) -> int:
    """How many of the image's pixels have alpha 255."""
    return pygame.mask.from_surface(img, 254).count()


WALKER_STRIDE = 3.0  # px walked per frame of assets/walker.png's walk cycle


class WalkerSprite:
    """The walkers' picture: a walk cycle facing right (assets/walker.png) and its mirror.

    The frame follows the distance walked (the walker's x), so walkers need no animation state
    of their own and one standing still stands still.
    """

    def __init__(self) -> None:
        sheet = _load("walker.png")
        count = sheet.get_width() // FRAME
        self.right = [sheet.subsurface((i * FRAME, 0, FRAME, FRAME)).copy() for i in range(count)]
        self.left = [pygame.transform.flip(f, True, False) for f in self.right]

    def image(self, facing: int, x: float) -> pygame.Surface:
        frames = self.right if facing >= 0 else self.left
        return frames[int(x // WALKER_STRIDE) % len(frames)]


# A backdrop's pictures (tools/make_art.py draws the day's, tools/make_backdrops.py the others).
BACKDROP_FILES = {"day": ("sky.png", "hills.png"), "dawn": ("dawn_sky.png", "dawn_hills.png"),
                  "dusk": ("dusk_sky.png", "dusk_hills.png"),
                  "night": ("night_sky.png", "night_hills.png"),
                  "moon": ("moon_sky.png", "moon_hills.png")}


class Background:
    """A sky that fills the view and a row of hills that scrolls slower than the map."""

    def __init__(self, sky: pygame.Surface | None = None,
                 hills: pygame.Surface | None = None) -> None:
        """The game's own day pictures unless others are given."""
        self.sky = _load("sky.png") if sky is None else sky
        self.hills = _load("hills.png") if hills is None else hills
        # A sky opaque everywhere covers the view: kept without alpha, it is copied, not
        # blended. Else the view is cleared to black (as a new surface is) before it is drawn.
        w, h = self.sky.get_size()
        self.sky_covers = _opaque_pixels(self.sky) == w * h
        if self.sky_covers and self.sky.get_flags() & pygame.SRCALPHA:
            plain = pygame.Surface((w, h))
            plain.blit(self.sky, (0, 0))
            self.sky = plain
        # Hills whose pixels are each opaque or clear are blitted run-length encoded: the clear
        # runs are skipped, the same pixels drawn. (Translucent pixels would be rounded apart
        # from a plain blit's blend, so such hills are blitted plainly.)
        if self.hills.get_flags() & pygame.SRCALPHA and (
                _opaque_pixels(self.hills) == pygame.mask.from_surface(self.hills, 0).count()):
            self.hills = self.hills.copy()
            self.hills.set_alpha(255, pygame.RLEACCEL)
        self._scaled_sky: pygame.Surface | None = None

    @classmethod
    def named(cls, backdrop: str, colour: tuple[int, int, int] | None = None) -> Background:
        """A level's backdrop (``game.maps.backdrop``); ``none`` is the map's own background
        colour (black without one) and no hills."""
        if backdrop in BACKDROP_FILES:
            sky, hills = BACKDROP_FILES[backdrop]
            return cls(_load(sky), _load(hills))
        plain = pygame.Surface((1, 1))
        plain.fill(colour or (0, 0, 0))
        return cls(plain, pygame.Surface((1, 1), pygame.SRCALPHA))

    def draw(self, target: pygame.Surface, origin: tuple[int, int], map_size: tuple[int, int]
             ) -> None:
        """Draw over the whole of ``target`` (a surface reused from the last frame is fine)."""
        w, h = target.get_size()
        if self._scaled_sky is None or self._scaled_sky.get_size() != (w, h):
            self._scaled_sky = pygame.transform.scale(self.sky, (w, h))
        if not self.sky_covers:
            target.fill((0, 0, 0))
        target.blit(self._scaled_sky, (0, 0))
        hw, hh = self.hills.get_size()
        # The hills move at a third of the camera's speed across, a sixth up and down.
        x = -((origin[0] // 3) % hw)
        bottom_scroll = max(0, map_size[1] - h - origin[1]) // 6
        y = h - hh + bottom_scroll
        while x < w:
            target.blit(self.hills, (x, y))
            x += hw


PLATFORM_SOLID = ((96, 104, 120), (150, 160, 178), (44, 48, 60))  # body, top light, outline
PLATFORM_ONE_WAY = ((150, 104, 60), (206, 160, 98), (74, 48, 26))
SPEAR_SHAFT = (120, 84, 48)
SPEAR_TIP = (214, 220, 230)
SPEAR_LENGTH = 16  # px drawn (the box is 8x4: the shaft trails behind it)
SPEAR_ANGLES = 32  # directions a flying spear is drawn at


class PlatformSprite:
    """Moving platforms drawn as boxes: a solid one as a riveted steel slab, a one-way one as a
    plank with a light top edge (land on it, jump through it). One picture per size, made once."""

    def __init__(self) -> None:
        self._made: dict[tuple[int, int, bool], pygame.Surface] = {}

    def image(self, w: int, h: int, one_way: bool) -> pygame.Surface:
        key = (w, h, one_way)
        img = self._made.get(key)
        if img is None:
            body, light, line = PLATFORM_ONE_WAY if one_way else PLATFORM_SOLID
            img = pygame.Surface((max(w, 1), max(h, 1)))
            img.fill(body)
            pygame.draw.rect(img, line, img.get_rect(), 1)
            pygame.draw.line(img, light, (1, 1), (max(w - 2, 1), 1))
            if one_way:
                for x in range(4, w - 2, 8):
                    pygame.draw.line(img, line, (x, 2), (x, h - 2))
            else:
                for x in (3, w - 4):
                    img.set_at((x, min(3, h - 1)), light)
            self._made[key] = img
        return img


class SpearSprite:
    """The spear: a shaft with a tip, drawn along its flight (one of ``SPEAR_ANGLES`` turns,
    made once each) and level when stuck or lying."""

    def __init__(self) -> None:
        base = pygame.Surface((SPEAR_LENGTH, 3), pygame.SRCALPHA)
        pygame.draw.line(base, SPEAR_SHAFT, (0, 1), (SPEAR_LENGTH - 4, 1))
        pygame.draw.polygon(base, SPEAR_TIP, [(SPEAR_LENGTH - 5, 0), (SPEAR_LENGTH - 1, 1),
                                              (SPEAR_LENGTH - 5, 2)])
        self.base = base
        self._turned: dict[int, pygame.Surface] = {}

    def image(self, vx: float, vy: float, facing: int) -> pygame.Surface:
        if vx == 0.0 and vy == 0.0:
            turn = 0 if facing >= 0 else SPEAR_ANGLES // 2
        else:
            turn = round(math.atan2(vy, vx) / (2 * math.pi) * SPEAR_ANGLES) % SPEAR_ANGLES
        img = self._turned.get(turn)
        if img is None:
            img = pygame.transform.rotate(self.base, -turn * 360.0 / SPEAR_ANGLES)
            self._turned[turn] = img
        return img
