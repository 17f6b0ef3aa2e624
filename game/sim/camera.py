"""The camera as pure functions of target, view size and map size.

Across, the view is centred on the target. Up and down it uses *platform snapping*, as good
platformer cameras do: the camera keeps a height of its own (:class:`CameraState`) that glides to
the player's height at ``snap_speed`` only while they stand on something, so a jump does not bob
the world; a player who leaves a band around that height (``dead_zone_up`` above it,
``dead_zone_down`` below it) is followed at once, so a long fall or a climb past the band never
takes them off screen. Both dead zones at 0 lock the camera on the player. The view is clamped to
the map either way, and a map narrower than the view is centred in it (one lower than the view
stands on its bottom edge: sky above, no strip under the floor). Across, the view looks a
little ahead of a running player (``look_ahead``), gliding there, so they see where they go; and
the top of the view is kept clear of a jump (``clear_top``) so no jump takes the player under
the HUD or off the screen.

Everything on screen is placed with :func:`px` (round half up), and the camera rounds its target
with the same function *before* centring, so a sprite the camera follows always lands on the same
screen pixel and the tiles under it move by whole pixels with it: nothing jitters. For that the
target must differ from the sprite's own anchor by whole pixels only (the dead zones are whole
pixels for the same reason), and both must come from the same drawn (interpolated) position.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

BAND_LIMIT = 3  # the band reaches at most view height / BAND_LIMIT from the view's centre


class CameraTuning(Protocol):
    """What :func:`camera_step` reads from ``[camera]`` (``game.config.CameraConfig``)."""

    dead_zone_up: int
    dead_zone_down: int
    snap_speed: float
    look_ahead: int
    look_speed: float


@dataclass(frozen=True)
class CameraState:
    """What the camera remembers from one drawn frame to the next: the height (map px, y down)
    that the view's centre looks at, and how far ahead of the player (px, + right) it looks."""

    y: float
    ahead: float = 0.0


def px(v: float) -> int:
    """Round half up: the one rounding used for the camera and every sprite."""
    return math.floor(v + 0.5)


def camera_axis(target: float, view: int, world: int) -> int:
    """Left (or top) edge of the view on one axis: centred on target, clamped to the map.

    A map smaller than the view is centred in it (the result is then negative).
    """
    if world <= view:
        return -((view - world) // 2)
    return min(max(px(target) - view // 2, 0), world - view)


def camera_origin(target: tuple[float, float], view: tuple[int, int],
                  world: tuple[int, int]) -> tuple[int, int]:
    """Top-left of the view in map pixels, whole pixels.

    A map lower than the view stands on the view's bottom edge, the extra height all above it
    (sky over a side-view level), instead of being centred as across: centred, a strip under
    the map's floor would show nothing but the backdrop's flat bottom. A departure from a
    camera centred both ways, on purpose."""
    x = camera_axis(target[0], view[0], world[0])
    y = world[1] - view[1] if world[1] < view[1] else camera_axis(target[1], view[1], world[1])
    return x, y


def _clamp_focus(y: float, view: int, world: int) -> float:
    """``y`` kept where moving it still moves the view: beyond, the view is against the map's
    edge, and a camera that drifted there would answer late when the player comes back."""
    if world <= view:
        return y
    return min(max(y, float(view // 2)), float(world - view + view // 2))


def camera_start(target: tuple[float, float], view: tuple[int, int],
                 world: tuple[int, int]) -> CameraState:
    """The camera on the player: a new level, a restart, a respawn."""
    return CameraState(_clamp_focus(target[1], view[1], world[1]))


def look_ahead(ahead: float, heading: int, dt: float, cfg: CameraTuning) -> float:
    """How far ahead the camera looks after ``dt`` s: it glides at ``cfg.look_speed`` px/s to
    ``cfg.look_ahead`` px in the direction the player runs (``heading`` -1, 0 or 1), and stays
    where it is while they stand, so stopping does not swing the view back."""
    if not heading:
        return max(-cfg.look_ahead, min(cfg.look_ahead, ahead))
    goal = heading * cfg.look_ahead
    reach = cfg.look_speed * max(dt, 0.0)
    return goal if abs(goal - ahead) <= reach else ahead + math.copysign(reach, goal - ahead)


def camera_step(state: CameraState | None, target: tuple[float, float], ground: float | None,
                dt: float, view: tuple[int, int], world: tuple[int, int],
                cfg: CameraTuning, heading: int = 0, clear_top: int = 0) -> CameraState:
    """The camera after a drawn frame of ``dt`` seconds, ``target`` being the drawn position.

    ``ground`` is the target's height where the player stands after the last tick, or None in
    the air. While standing, the camera's height glides there at ``cfg.snap_speed`` px/s (to
    where they stand, not to the drawn target: that one trails by up to a tick, and on a landing
    it is still above the floor, so gliding to it would dip the view). A target more than
    ``dead_zone_up`` above the camera's height or ``dead_zone_down`` below it drags it along at
    once. The dead zones are cut to a third of the view's height, so that the target stays at
    least a sixth of the view away from its top and bottom edges (where the map allows).
    ``clear_top`` (px) is kept clear above the target at the view's top (the HUD and the
    player's head): a jump that would reach it is followed. Across, the view looks
    :func:`look_ahead` of the player in the direction ``heading`` they run.
    ``state`` None starts the camera on the target.
    """
    if state is None:
        return camera_start(target, view, world)
    limit = view[1] // BAND_LIMIT
    up, down = min(cfg.dead_zone_up, limit), min(cfg.dead_zone_down, limit)
    if clear_top:
        up = min(up, max(0, view[1] // 2 - clear_top))
    y, ty = state.y, target[1]
    if ground is not None:
        reach = cfg.snap_speed * max(dt, 0.0)
        y = ground if abs(ground - y) <= reach else y + math.copysign(reach, ground - y)
    if ty < y - up:
        y = ty + up
    elif ty > y + down:
        y = ty - down
    return CameraState(_clamp_focus(y, view[1], world[1]),
                       look_ahead(state.ahead, heading, dt, cfg))


def camera_view(state: CameraState, target: tuple[float, float], view: tuple[int, int],
                world: tuple[int, int], clear_top: int = 0) -> tuple[int, int]:
    """Top-left of the view in map pixels: centred across on the target plus the camera's
    look-ahead (whole pixels, so the player moves by whole pixels on screen), on the camera's
    height up and down, clamped to the map.

    One way past the clamp, on purpose: a body may rise above the map's top (nothing collides
    there), and a view held at the top edge would lose it under the HUD or off the screen; then
    the view rises past the edge, keeping ``clear_top`` px above the target (at least a sixth of
    the view once the target is above the map)."""
    x, y = camera_origin((target[0] + px(state.ahead), state.y), view, world)
    ty = px(target[1])
    if ty < 0:  # above the map: at least a sixth of the view over it
        y = min(y, ty - max(clear_top, view[1] // (2 * BAND_LIMIT)))
    elif y <= 0 and ty - clear_top < y:  # against the top edge, the HUD would cover the head
        y = ty - clear_top
    return x, y
