"""Moving platforms as the map says them: the objects of class ``platform`` read into
:class:`PlatformSpawn` records (map data; :mod:`game.sim.platforms` moves them).

A platform is a rectangle object (its box where it starts). Its property ``path`` (an object
reference, Tiled's "object" property type) points at the way it travels:

* a **point** object: the platform's top-left corner goes to the point and back;
* a **polyline** object: the top-left corner goes through each vertex in turn (a first vertex on
  the platform's own corner is the start, not a stop).

``speed`` (px/s), ``wait`` (s at each end or vertex), ``one_way`` (landable from above only,
jumped through from below) and ``mode`` (``ping_pong``: back along the path; ``loop``: from
the last vertex straight to the start) have defaults, declared with the class ``platform`` in
levels/tilecollide.tiled-project (Tiled does not save a member left at its default).
"""

from __future__ import annotations

import difflib
import math
from dataclasses import dataclass
from pathlib import Path

from game.errors import UserError, quoted
from game.maps.grid import TileGrid
from game.maps.model import type_name, written

MAX_PLATFORMS = 500  # objects of class platform in one map (each moves every tick)
MAX_PLATFORM_PX = 1024  # a platform's width and height
MAX_PATH_POINTS = 256  # vertices of one platform's path
PLATFORM_SPEED = 60.0  # px/s
PLATFORM_TOP_SPEED = 1000.0  # px/s: the most ``speed`` may say
PLATFORM_WAIT = 0.5  # s
PLATFORM_LONGEST_WAIT = 60.0  # s
PLATFORM_MODES = ("ping_pong", "loop")
PLATFORM_PROPERTIES = ("path", "speed", "wait", "one_way", "mode")


@dataclass(frozen=True)
class PlatformSpawn:
    """A platform as loaded: its box at the start, the stops of its top-left corner (the start
    first), its speed, wait, whether it is one-way and whether its path loops."""

    id: int
    x: float
    y: float
    w: float
    h: float
    path: tuple[tuple[float, float], ...]  # top-left corner's stops, path[0] == (x, y)
    speed: float  # px/s
    wait: float  # s at each stop
    one_way: bool
    loop: bool  # True: last stop -> first stop; False: ping-pong


def float_value(value) -> float | None:
    """A Tiled float or int property's number, or None (another type)."""
    return float(value) if type(value) in (int, float) else None


def _px(v: float) -> str:
    return f"{v:g}"


def platform_spawns(path: Path, objects: tuple, grid: TileGrid) -> tuple[PlatformSpawn, ...]:
    """The platforms of the map's objects (``game.maps.model.MapObject``) of class
    ``platform``, in object id order."""
    found = sorted((o for o in objects if o.kind == "platform"), key=lambda o: o.id)
    if not found:
        return ()
    if len(found) > MAX_PLATFORMS:
        raise UserError(path, f"the map has {len(found):,} platform objects, more than the "
                        f"{MAX_PLATFORMS:,} a level may hold; remove some in Tiled")
    by_id: dict = {}
    for o in objects:
        by_id.setdefault(o.id, o)  # ids are the map's own (game.maps.document)
    return tuple(_platform(path, o, by_id, grid) for o in found)


def _platform(path: Path, o, by_id: dict, grid: TileGrid) -> PlatformSpawn:
    label = f"platform {quoted(o.name)} (id {o.id})" if o.name else f"platform (id {o.id})"
    if o.shape != "rectangle" or o.w <= 0 or o.h <= 0:
        raise UserError(path, f"the {label} is a {o.shape}; make it a rectangle with a size "
                        "(the platform's box where it starts)")
    if max(o.w, o.h) > MAX_PLATFORM_PX:
        raise UserError(path, f"the {label} is {_px(o.w)}x{_px(o.h)} px; a platform is at "
                        f"most {MAX_PLATFORM_PX}x{MAX_PLATFORM_PX} px: make it smaller in Tiled")
    x, y, w, h = o.x, o.top, o.w, o.h
    speed, wait, one_way, loop = PLATFORM_SPEED, PLATFORM_WAIT, False, False
    target = None
    for name, value in o.properties.items():
        kind, said = type_name(value), quoted(written(value))
        if name == "path":
            ref = value if type(value) is int else 0  # Tiled's object property: an id
            target = by_id.get(ref)
            if target is None or target.shape not in ("point", "polyline"):
                raise UserError(path, f"the {label} has path={said} ({kind}); make it "
                                "an object property that refers to a point or a polyline "
                                "object (Tiled: click the property, then the object)")
        elif name in ("speed", "wait"):
            top = PLATFORM_TOP_SPEED if name == "speed" else PLATFORM_LONGEST_WAIT
            number = float_value(value)
            ok = number is not None and (0 < number <= top if name == "speed" else 0 <= number <= top)
            if not ok:
                unit = "px/s" if name == "speed" else "s"
                least = "above 0" if name == "speed" else "from 0"
                raise UserError(path, f"the {label} has {name}={said} ({kind}); make it "
                                f"a float property {least} to {top:g} ({unit}) in Tiled's "
                                "Properties panel")
            if name == "speed":
                speed = number
            else:
                wait = number
        elif name == "one_way":
            if not isinstance(value, bool):
                raise UserError(path, f"the {label} has one_way={said} ({kind}); make "
                                "it a bool property (a tick box in Tiled)")
            one_way = value
        elif name == "mode":
            if value not in PLATFORM_MODES:
                raise UserError(path, f"the {label} has mode={said}; use "
                                + " or ".join(PLATFORM_MODES) + " (the enum 'platform_mode' of "
                                "the project lists them)")
            loop = value == "loop"
        else:
            close = difflib.get_close_matches(name.lower(), PLATFORM_PROPERTIES, n=1, cutoff=0.75)
            if close:
                raise UserError(path, f"the {label} has a property {quoted(name)}; did you mean "
                                f"{close[0]}? (rename it in Tiled's Properties panel)")
    if target is None:
        raise UserError(path, f"the {label} has no path; give it an object property 'path' "
                        "that refers to a point (it goes there and back) or a polyline (it "
                        "follows the vertices)")
    if target.shape == "point":
        stops = [(target.x, target.y)]
    else:
        stops = list(target.points)
        if stops and math.dist(stops[0], (x, y)) < 1e-6:
            stops = stops[1:]
    stops = [(x, y)] + stops
    if len(stops) < 2 or len(stops) > MAX_PATH_POINTS:
        raise UserError(path, f"the {label}'s path has {len(stops) - 1} stops; a path needs 1 to "
                        f"{MAX_PATH_POINTS - 1} (a point, or a polyline's vertices)")
    for sx, sy in stops:
        if sx < 0 or sy < 0 or sx + w > grid.width_px or sy + h > grid.height_px:
            raise UserError(path, f"the {label}'s path takes its {_px(w)}x{_px(h)} px box to "
                            f"x={_px(sx)}, y={_px(sy)}, outside the {grid.width_px}x"
                            f"{grid.height_px} px map; move the path's point inside it")
    return PlatformSpawn(o.id, x, y, w, h, tuple(stops), speed, wait, one_way, loop)
