"""The scene: the world drawn at view resolution (map px), before it is scaled into the window.

:func:`follow` moves the camera for a frame and says where the view's top-left is;
:class:`WorldPainter` draws, back to front, the sky (or the level's background colour), the map,
coins and doors, the goals' glow, the walkers, the platforms and spears, the ghosts, the player
and the map's front layers. Moving things are drawn between their last two ticks (``alpha``),
each sprite's bottom centre on its hitbox's (on a slope, on the surface: :func:`feet_on_slope`;
on a ledge's or a lift's corner, moved over it: :func:`feet_shift`).
"""

from __future__ import annotations

import math
import time

import pygame

from game import resolvers
from game.config import CameraConfig
from game.maps.grid import ONE_WAY, SLOPE, SOLID
from game.sim.camera import CameraState, camera_step, camera_view, px
from game.sim.ghosts import Comparison
from game.sim.world import World
from game.view.living import ItemSprites
from game.view.render import MapRenderer, TileImages
from game.view.surfaces import Recent
from game.view.sprites import (SPEAR_LENGTH, Background, PlatformSprite, PlayerSprite,
                               SpearSprite, WalkerSprite)

GOAL_GLOW = (255, 240, 120)
GHOST_ALPHA = 120  # of 255: ghosts are translucent, the player solid
WALKER_MARGIN = 16  # px: a walker's sprite reaches less than this past its hitbox
GhostLabel = tuple[str, tuple[int, int], tuple[int, int, int]]  # name, scene px, colour


def feet_on_slope(grid, x: float, y: float, w: float, h: float) -> float:
    """How far below the hitbox's bottom the slope surface under its centre lies (view only).

    On a slope the hitbox rests on the highest point of the surface under it, one corner
    touching: exact for collision, but the sprite's feet, drawn at the centre, would float. The
    sprite is drawn down onto the surface under its centre instead; the hitbox does not move.
    """
    cx, bottom = x + w / 2, y + h
    col = math.floor(cx / grid.tile_w)
    first = math.floor((bottom - 1e-6) / grid.tile_h)
    for row in (first, first + 1):
        if grid.kind(col, row) == SLOPE:
            surface = grid.surface_y(col, row, cx)
            if surface >= bottom - 1e-6:
                return min(surface - bottom, float(grid.tile_h))
    return 0.0


FEET_REACH = 4  # px either side of the sprite's centre its feet cover (assets/player.png)
SUPPORT_EPS = 0.01  # px: a box top this close to the feet's height carries them


def support_span(world: World, x: float, w: float, bottom: float) -> tuple[float, float] | None:
    """Where under the span [x, x + w], whose bottom is ``bottom``, there is something to stand
    on: flat tiles (solid, one-way, a closed door) whose top is that height, and the boxes the
    player meets besides tiles (platforms, spears stuck in walls). The leftmost and rightmost
    x of all of it, cut to the span; None when nothing flat is there (in the air, on a slope)."""
    g = world.grid
    left, right = math.inf, -math.inf
    row = round(bottom / g.tile_h)
    if abs(row * g.tile_h - bottom) < SUPPORT_EPS:
        for col in g.cols_between(x, x + w):
            if g.kind(col, row) in (SOLID, ONE_WAY):
                left, right = min(left, col * g.tile_w), max(right, (col + 1) * g.tile_w)
    for box in world.solids:
        if abs(box.y - bottom) < SUPPORT_EPS and box.x < x + w and box.x + box.w > x:
            left, right = min(left, box.x), max(right, box.x + box.w)
    if left > right:
        return None
    return max(left, x), min(right, x + w)


def feet_shift(world: World, body, reach: float = FEET_REACH) -> int:
    """How far across (whole px) to draw a standing body's sprite so its feet touch what it
    stands on (view only).

    The hitbox stands when any of it is over a ledge, a lift's corner or a stuck spear; the
    sprite's feet, narrower than the hitbox and drawn at its centre, would then hang in the
    air beside the edge. The sprite moves toward the support until a foot's pixel is over it;
    the hitbox does not move. ``reach``: how far either side of the centre the feet go."""
    if not body.on_ground:
        return 0
    span = support_span(world, body.x, body.w, body.y + body.h)
    if span is None:
        return 0
    a, b = span
    centre = body.x + body.w / 2
    if b < centre - reach + 1:  # the support ends left of the feet
        return math.floor(b - (centre - reach + 1))
    if a > centre + reach - 1:  # it starts right of them
        return math.ceil(a - (centre + reach - 1))
    return 0


def drawn_position(world: World, alpha: float) -> tuple[float, float]:
    """The player's hitbox's top-left as drawn: ``alpha`` of the way from the last tick's."""
    p = world.player
    return (world.prev[0] + (p.x - world.prev[0]) * alpha,
            world.prev[1] + (p.y - world.prev[1]) * alpha)


THROW_ARM = (226, 72, 72)  # the player's red
RUNNING = 30.0  # px/s: faster than this across, the camera looks ahead of the player


def follow(camera: CameraState | None, world: World, drawn_at: tuple[float, float], dt: float,
           view: tuple[int, int], tuning: CameraConfig,
           hud_bottom: int = 0) -> tuple[CameraState, tuple[int, int]]:
    """The camera after a frame of ``dt`` s (None: start on the player), and the view's
    top-left in map px.

    The camera looks at the drawn hitbox's centre, measured up from its bottom by whole pixels:
    the sprite is placed by its bottom, so both round alike (see game.sim.camera). While the
    player is respawning it starts again where they reappear. ``hud_bottom`` (scene px) is how
    far down the HUD reaches: a jump is followed before the player's head gets there."""
    p = world.player
    g = world.level.grid
    centre = p.h - px(p.h / 2)
    target = (drawn_at[0] + p.w / 2, drawn_at[1] + centre)
    size = (g.width_px, g.height_px)
    if p.respawning:
        camera = None
    heading = 1 if p.vx > RUNNING else -1 if p.vx < -RUNNING else 0
    clear = hud_bottom + centre + 2 if hud_bottom else 0
    camera = camera_step(camera, target, p.y + centre if p.on_ground else None, dt, view, size,
                         tuning, heading, clear)
    return camera, camera_view(camera, target, view, size, clear)


def tint(img: pygame.Surface, colour: tuple[int, int, int]) -> pygame.Surface:
    """``img`` half way to ``colour`` and translucent: a ghost's look."""
    out = img.copy()
    out.fill(tuple(c // 2 + 64 for c in colour), special_flags=pygame.BLEND_RGB_MULT)
    out.fill(tuple(c // 2 for c in colour), special_flags=pygame.BLEND_RGB_ADD)
    out.set_alpha(GHOST_ALPHA)
    return out


class WorldPainter:
    """The sprites, and the scene surface kept between frames (so a frame makes no surfaces:
    the map renderer's buffers are encoded for it, see MapRenderer.draw)."""

    def __init__(self, made: Recent, background: Background | None = None) -> None:
        self.made = made  # images kept between frames (ghost tints, goal overlays)
        self.scene: pygame.Surface | None = None
        self.background = background if background is not None else Background()
        self._backdrops: dict[str, Background] = {}  # the other levels' skies, by name
        self.throwing = False  # draw the player's throw pose (game.view.effects)
        self.line = 1  # scene px: the width of a line (more where the scene is drawn reduced)
        self.player_sprite = PlayerSprite()
        self.walker_sprite = WalkerSprite()
        self.platform_sprite = PlatformSprite()
        self.spear_sprite = SpearSprite()
        self._item_sprites: ItemSprites | None = None

    def backdrop_for(self, level) -> Background | None:
        """The level's backdrop (``game.maps.backdrop``), loaded once; None: only the map's own
        background colour."""
        name = level.view.backdrop
        if name == "none":
            return None
        if name == "day":
            return self.background
        if name not in self._backdrops:
            self._backdrops[name] = Background.named(name)
        return self._backdrops[name]

    def scene_for(self, view: tuple[int, int]) -> pygame.Surface:
        """The scene surface, ``view`` px (made anew only when the size changes)."""
        if self.scene is None or self.scene.get_size() != view:
            self.scene = pygame.Surface(view)
        return self.scene

    def items(self) -> ItemSprites:
        """Coins, checkpoints, switches and doors' pictures, loaded on first use."""
        if self._item_sprites is None:
            self._item_sprites = ItemSprites()
        return self._item_sprites

    def draw(self, scene: pygame.Surface, w: World, renderer: MapRenderer, images: TileImages,
             origin: tuple[int, int], alpha: float, drawn_at: tuple[float, float],
             ghosts: list[World], comparison: Comparison | None) -> list[GhostLabel]:
        """The scene, its top-left at map px ``origin``; the player's hitbox at ``drawn_at``.
        Returns where each ghost's name goes (drawn later, at window resolution)."""
        g = w.level.grid
        backdrop = self.backdrop_for(w.level)
        if backdrop is None:
            scene.fill(w.level.view.background or (0, 0, 0))
        else:
            backdrop.draw(scene, origin, (g.width_px, g.height_px))
        renderer.draw(scene, origin)
        self.items().draw(scene, w, origin, images)
        self.draw_goals(scene, w, origin)
        self.draw_walkers(scene, w, origin, alpha)
        self.draw_bodies(scene, w, origin, alpha)
        labels = self.draw_ghosts(scene, w, ghosts, comparison, origin, alpha)
        p = w.player
        if not p.respawning:
            bx, by = drawn_at
            scale = w.level.physics_scale
            img = self.player_image(p, scale)
            drop = feet_on_slope(g, bx, by, p.w, p.h) if (
                p.on_ground and w.resolver.supports_slopes) else 0.0
            sx = (px(bx + p.w / 2) - img.get_width() // 2 - origin[0]
                  + feet_shift(w, p, FEET_REACH * scale))
            sy = px(by + p.h + drop) - img.get_height() - origin[1]
            scene.blit(img, (sx, sy))
            if self.throwing:  # the throw pose: an arm flung forward, the hand open
                ax = sx + img.get_width() // 2 + round(p.facing * 3 * scale)
                ay = sy + img.get_height() // 2
                pygame.draw.line(scene, THROW_ARM, (ax, ay), (ax + round(p.facing * 5 * scale),
                                                              ay - round(3 * scale)),
                                 max(2, round(2 * scale)))
        renderer.draw_front(scene, origin)  # tile layers after the object layer
        return labels

    def player_image(self, body, scale: float) -> pygame.Surface:
        """The player's picture for ``body`` now; on a map of bigger tiles (``scale``: the
        level's physics scale) the body was scaled, so is its picture (made once)."""
        img = self.player_sprite.image(body.facing, body.vy)
        if scale == 1.0:
            return img
        return self.made.get(("player", id(img), scale),
                             lambda: pygame.transform.scale_by(img, scale))

    def draw_ghosts(self, scene: pygame.Surface, w: World, ghosts: list[World],
                    comparison: Comparison | None, origin: tuple[int, int],
                    alpha: float) -> list[GhostLabel]:
        """Each ghost translucent in its resolver's colour, blended like the player, with its
        hitbox outlined; where it parted from the player, a marker and a line to it now."""
        labels: list[GhostLabel] = []
        ox, oy = origin
        g = w.level.grid
        scale, line = w.level.physics_scale, self.line
        for ghost in ghosts:
            name = ghost.resolver.name
            colour = resolvers.colour(name)
            k = ghost.player
            x, y = drawn_position(ghost, alpha)
            parted = comparison.parted.get(name) if comparison is not None else None
            if parted is not None:
                px0, py0 = parted.ghost_xy
                start = (px(px0 + k.w / 2) - ox, px(py0 + k.h / 2) - oy)
                pygame.draw.line(scene, colour, start, (px(x + k.w / 2) - ox,
                                                        px(y + k.h / 2) - oy), line)
                pygame.draw.circle(scene, colour, start, round(3 * scale), line)
            if k.respawning:
                continue
            img = self.player_image(k, scale)
            tinted = self.made.get(("ghost", name, id(img)), lambda: tint(img, colour))
            drop = feet_on_slope(g, x, y, k.w, k.h) if (
                k.on_ground and ghost.resolver.supports_slopes) else 0.0
            sx = (px(x + k.w / 2) - img.get_width() // 2 - ox
                  + feet_shift(ghost, k, FEET_REACH * scale))
            sy = px(y + k.h + drop) - img.get_height() - oy
            scene.blit(tinted, (sx, sy))
            pygame.draw.rect(scene, colour, (px(x) - ox, px(y) - oy, px(k.w), px(k.h)), line)
            labels.append((name, (px(x + k.w / 2) - ox, sy), colour))
        return labels

    def draw_walkers(self, scene: pygame.Surface, w: World, origin: tuple[int, int],
                     alpha: float) -> None:
        """The walkers inside the view, each blended between its last two ticks."""
        if not w.walkers:
            return
        g, sprite = w.level.grid, self.walker_sprite
        slopes = w.resolver.supports_slopes
        m = WALKER_MARGIN
        left, top = origin[0] - m, origin[1] - m
        right, bottom = origin[0] + scene.get_width() + m, origin[1] + scene.get_height() + m
        drawn = []
        for k in w.walkers:
            x = k.prev_x + (k.x - k.prev_x) * alpha
            y = k.prev_y + (k.y - k.prev_y) * alpha
            if k.fallen or x + k.w < left or x > right or y + k.h < top or y > bottom:
                continue
            img = sprite.image(k.facing, x)
            drop = feet_on_slope(g, x, y, k.w, k.h) if k.on_ground and slopes else 0.0
            drawn.append((img, (px(x + k.w / 2) - img.get_width() // 2 - origin[0],
                                px(y + k.h + drop) - img.get_height() - origin[1])))
        scene.blits(drawn, doreturn=False)

    def draw_bodies(self, scene: pygame.Surface, w: World, origin: tuple[int, int],
                    alpha: float) -> None:
        """The moving platforms and the spears in play, blended between their last two ticks."""
        for pl in w.platforms:
            x = pl.prev_x + (pl.x - pl.prev_x) * alpha
            y = pl.prev_y + (pl.y - pl.prev_y) * alpha
            img = self.platform_sprite.image(max(1, px(pl.w)), max(1, px(pl.h)), pl.one_way)
            scene.blit(img, (px(x) - origin[0], px(y) - origin[1]))
        for s in w.spears:
            if not s.state:
                continue
            x = s.prev_x + (s.x - s.prev_x) * alpha + s.w / 2
            y = s.prev_y + (s.y - s.prev_y) * alpha + s.h / 2
            img = self.spear_sprite.image(s.vx, s.vy, s.facing)
            if s.vx == 0.0 and s.vy == 0.0:  # stuck or lying: the tip at the box's front edge
                x += s.facing * (s.w / 2 + 2 - SPEAR_LENGTH / 2)
            scene.blit(img, (px(x) - img.get_width() // 2 - origin[0],
                             px(y) - img.get_height() // 2 - origin[1]))

    def draw_goals(self, scene: pygame.Surface, w: World, origin: tuple[int, int]) -> None:
        """Each goal glowing, the glow pulsing with the clock."""
        t = time.monotonic()
        for goal in w.level.goals:
            glow = 120 + int(60 * (1 + math.sin(t * 4)) / 2)
            rect = pygame.Rect(px(goal.x) - origin[0], px(goal.y) - origin[1],
                               max(1, px(goal.w)), max(1, px(goal.h))).clip(scene.get_rect())
            overlay = self.made.get(("goal", rect.size),
                                    lambda: pygame.Surface(rect.size, pygame.SRCALPHA))
            overlay.fill(GOAL_GLOW + (glow // 4,))
            scene.blit(overlay, rect)
