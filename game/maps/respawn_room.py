"""Room to (re)appear: the load-time rule that keeps the player's spawn and respawn points clear
of the solid moving platforms (map data; the world applies the rest, ``game.sim.world``).

* The **spawn** may not overlap a solid platform's box where that platform starts: the player
  would start inside it.
* No **respawn point** (the spawn, a checkpoint's) may be covered by a solid platform wherever
  that platform is on its path. The world holds a player due to reappear while a platform covers
  the point, and lets them in once it has moved on; a platform that never uncovers it would hold
  them for ever.

A platform's box overlaps the player's box (x, y, w, h) exactly when its top-left corner lies in
the open rectangle ``(x - pw, x + w) x (y - ph, y + h)``. The corner travels the straight lines
between the stops of its path, and that rectangle is convex, so the point is covered all along
the path exactly when it is covered at every stop, that is when the stops' bounding box lies in
that rectangle.

One-way platforms are not solid: they never stop anyone appearing.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from game.errors import UserError
from game.maps.platform_spawns import PlatformSpawn

EPS = 1e-6  # px: touching is not overlapping (as game.sim.platforms)


def check_respawn_room(path: Path, spawn, checkpoints: Sequence, platforms: Sequence[PlatformSpawn]
                       ) -> None:
    """Raise a UserError if the spawn starts inside a solid platform, or if a solid platform
    covers the spawn or a checkpoint's respawn point all along its path (module docstring).
    ``spawn`` is the player's box (x, y, w, h); each checkpoint has ``id`` and ``spawn``."""
    w, h = spawn.w, spawn.h
    points = [("spawn", spawn.x, spawn.y)] + [
        (f"checkpoint (id {c.id})'s respawn point", *c.spawn) for c in checkpoints]
    for pl in platforms:
        if pl.one_way:
            continue
        if _inside(pl, pl.x, pl.x, pl.y, pl.y, spawn.x, spawn.y, w, h):
            raise UserError(path, f"the spawn overlaps the platform (id {pl.id}) where it "
                            "starts: the player would start inside it; move the spawn or the "
                            "platform in Tiled")
        xs, ys = [sx for sx, _ in pl.path], [sy for _, sy in pl.path]
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
        for label, x, y in points:
            if _inside(pl, x0, x1, y0, y1, x, y, w, h):
                raise UserError(path, f"the {label} is covered by the platform (id {pl.id}) "
                                "all along its path, so a player sent back there could never "
                                "reappear; move it, or the platform or its path, in Tiled")


def _inside(pl: PlatformSpawn, x0: float, x1: float, y0: float, y1: float, x: float, y: float,
            w: float, h: float) -> bool:
    """Does the platform overlap the box (x, y, w, h) wherever its top-left corner is in
    [x0, x1] x [y0, y1]?"""
    return (x0 > x - pl.w + EPS and x1 < x + w - EPS
            and y0 > y - pl.h + EPS and y1 < y + h - EPS)
