"""The camera as a pure function of target, view size and map size.

Everything on screen is placed with :func:`px` (round half up), and the camera rounds its target
with the same function *before* centring, so a sprite the camera follows always lands on the same
screen pixel and the tiles under it move by whole pixels with it: nothing jitters.
"""

from __future__ import annotations

import math


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
    """Top-left of the view in map pixels, whole pixels."""
    return camera_axis(target[0], view[0], world[0]), camera_axis(target[1], view[1], world[1])
