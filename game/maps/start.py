"""Where the player starts, on a map that may not say it the game's way.

0. The object the author declared (``--start-object NAME``, config.toml's ``[map]
   start_object``, or the map property ``start_object``), by its name or class.
1. The game's own spawn: an object of class ``player`` or, on a map made with the game's kit,
   named ``spawn`` (exactly one; its mistakes are errors: ``game.maps.objects.spawn``).
2. Else the map's own start object: the first whose name or class says ``player`` or ``hero``,
   else ``start`` (or the whole word ``enter``, ``entrance``, ``entry``), else ``spawn`` (any
   case; one that also says ``enemy``, ``monster``... is another body's spawn point), or whose
   text property ``type``, ``kind``, ``role``, ``loader``... says so; failing
   those, an object whose layer's name says so (the first in a layer named ``player``, the one
   object of a layer named ``start`` or ``spawn``): a point is the player's feet; a tile object
   is a sprite, its box padding and all, so the player stands at its bottom centre; a rectangle
   is the hitbox when its size is plausible for a body (:func:`plausible`) and it is clear of
   collision, else the feet are at its bottom centre. A start drawn into the ground is lifted
   out of it, up to :data:`LIFT_TILES` tiles, and one past the map's sides is moved into it.
3. Else where the map's or a layer's properties say, as two numbers (``LevelStartX`` /
   ``LevelStartY``, ``startX`` / ``startY``, ``spawn_x`` / ``spawn_y``...: :func:`property_start`):
   whole numbers inside the map's size in tiles are a cell (the feet at its bottom centre),
   others a point in px.
4. Else, on a map not marked with the game's own property, standing on the first solid ground
   from the left: the first column, scanning from the top, with a floor the player fits on.

Every guess is a ``note:`` line; a map with nowhere to stand is one ``error:`` line.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from pathlib import Path

from game.errors import UserError, quoted
from game.maps.conventions import OTHERS, Declared
from game.maps.grid import EMPTY, SLOPE, TileGrid, overlapping_tiles
from game.maps.limits import MAX_BODY_PX
from game.maps.model import MapModel, MapObject, px
from game.maps.objects import is_spawn, spawn
from game.maps.records import Rect

LIFT_TILES = 2  # how far a start drawn into the ground is lifted out of it
MIN_BODY_PX = 2.0  # a smaller rectangle is a marker, not a body
# Words of a start object, best first: the player's own, a start, a spawn point (any part of
# the name: ``PlayerSpawn``, ``startpoint``).
RANKS = (("player", "hero"), ("start",), ("spawn",))
# Whole words saying the way into the level, as good as a start (tilnewman/platformer's object
# ``enter``; not parts of words: ``center``, ``sentry``).
ENTRY_WORDS = ("enter", "entrance", "entry")
# Words a start layer's name may have beside those: ``Player Layer``, ``spawn points``.
PLACE_WORDS = ("layer", "layers", "object", "objects", "point", "points", "position", "positions",
               "location", "locations")


# A property giving one coordinate of the start, its name squeezed to small letters
# (jimjergins/pygame-platformer-tiled: a layer 'Level_Properties' with LevelStartX, LevelStartY).
START_XY = re.compile(r"^(?:level|player|hero)?(?:start|spawn)(?:point|pos|position)?([xy])$")


def property_start(model: MapModel, origin: tuple[int, int] = (0, 0)
                   ) -> tuple[float, float, str] | None:
    """Where the map's own properties, or one of its layers', say the player starts: the feet
    (x, y) in map px and how it was read, or None. Whole numbers inside the map's size in tiles
    are a cell (``origin``: the tile an infinite map's grid starts at), others px."""
    holders = [("the map's properties", model.properties)] + [
        (f"the properties of layer {quoted(la.name)}", la.properties) for la in model.layers]
    for label, props in holders:
        found: dict[str, tuple[str, float]] = {}
        for name, value in props.items():
            m = START_XY.match(re.sub(r"[^a-z]", "", str(name).lower()))
            number = _number(value)
            if m and number is not None:
                found.setdefault(m.group(1), (name, number))
        if len(found) < 2:
            continue
        (nx, x), (ny, y) = found["x"], found["y"]
        names = f"{nx} = {x:g}, {ny} = {y:g} in {label}"
        col, row = int(x) - origin[0], int(y) - origin[1]
        if x.is_integer() and y.is_integer() and 0 <= col < model.cols and 0 <= row < model.rows:
            return ((col + 0.5) * model.tile_w, (row + 1) * model.tile_h,
                    f"{names}: the cell at column {col}, row {row}")
        return (x - origin[0] * model.tile_w, y - origin[1] * model.tile_h,
                f"{names}: a point in px")
    return None


def _number(value) -> float | None:
    if isinstance(value, bool):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def plausible(w: float, h: float, grid: TileGrid) -> bool:
    """Is a w x h start rectangle the size of a body (not a marker, not a room)?"""
    return (MIN_BODY_PX <= w <= min(4 * grid.tile_w, MAX_BODY_PX)
            and MIN_BODY_PX <= h <= min(4 * grid.tile_h, MAX_BODY_PX))


def _words(label: str) -> list[str]:
    return re.findall(r"[a-z]+", re.sub(r"([a-z])([A-Z])", r"\1 \2", label).lower())


def _says(words: list[str]) -> int | None:
    """Which of RANKS a name's words say (0 best), -1 for another body's, None for neither."""
    if any(w in OTHERS or any(w.startswith(x) for x in OTHERS) for w in words):
        return -1
    joined = "".join(words)
    for i, found in enumerate(RANKS):
        if any(w in joined for w in found) or (i == 1 and set(words) & set(ENTRY_WORDS)):
            return i
    return None


# A text property naming what an object is, in engines that do not use Tiled's class
# (pirate-platformer's templates say loader = "player"): its value counts as the class.
ROLE_PROPERTIES = ("type", "kind", "class", "role", "entity", "loader")


def _roles(o: MapObject) -> str:
    """The values of ``o``'s text properties named like :data:`ROLE_PROPERTIES`."""
    return " ".join(v for k, v in o.properties.items() if isinstance(v, str) and any(
        r in re.sub(r"[^a-z]", "", str(k).lower()) for r in ROLE_PROPERTIES))


def rank(o: MapObject, alone: bool = False) -> int | None:
    """How surely ``o`` is the player's start (0 best), or None if it is not one. Its own name
    and class first (or, where those say nothing, a text property naming what it is:
    :data:`ROLE_PROPERTIES`); an object saying nothing itself, by its layer's name, after every
    object that says it: the first in a layer named for the player and nothing else
    (GianniBuoni/pirate-platformer keeps its player, a templated tile object, in a layer
    ``player``; not ``Player Death Zones``), or one ``alone`` in a layer named ``start`` or
    ``spawn``."""
    said = _says(_words(f"{o.name} {o.kind}"))
    if said is None and o.properties:
        said = _says(_words(_roles(o)))
    if said is not None:
        return said if said >= 0 else None
    words = [w for w in _words(o.layer) if w not in PLACE_WORDS]
    layer = _says(words) if words else None
    if layer is not None and layer >= 0 and (layer == 0 or alone) and all(
            _says([w]) is not None for w in words):  # not 'Player Death Zones'
        return len(RANKS) + layer
    return None


def start_ranks(objects: tuple[MapObject, ...]) -> list[tuple[int, int]]:
    """(rank, index) of every start-like object of ``objects``, best first (see :func:`rank`)."""
    per_layer = Counter(o.layer for o in objects)
    return sorted((r, i) for i, o in enumerate(objects)
                  if (r := rank(o, per_layer[o.layer] == 1)) is not None)


def find_start(path: Path, objects: tuple[MapObject, ...], size: tuple[float, float],
               grid: TileGrid, own: bool, notes: list[str],
               declared: Declared | None = None,
               said: tuple[float, float, str] | None = None
               ) -> tuple[Rect, bool, MapObject | None]:
    """The player's hitbox at the start, whether it stands on a point, and the object it
    stands at (None: at what the properties ``said`` (:func:`property_start`), or on the first
    ground): see the module."""
    if declared is not None and declared.start_object:
        name = declared.start_object
        found = [o for o in objects if o.name == name or o.kind == name] or [
            o for o in objects if name.lower() in (o.name.lower(), o.kind.lower())]
        if not found:
            starts = [f"{quoted(objects[i].name or objects[i].kind)} (id {objects[i].id})"
                      for _, i in start_ranks(objects)][:8]
            said = declared.said.get("start_object", "the start object")
            raise UserError(path, f"{said} names {quoted(name)}, but no object of the map has "
                            "that name or class (" + ("its start-like objects: "
                                                      + ", ".join(starts) if starts else
                                                      "it has no start-like object") + ")")
        return (*_from_object(path, found, size, grid, notes,
                              f" (as {declared.said.get('start_object', 'declared')} says)"),
                found[0])
    own_spawn = [o for o in objects if is_spawn(o, own)]
    if own_spawn:
        return (*spawn(path, own_spawn, size, grid), own_spawn[0])
    ranked = start_ranks(objects)
    if ranked:
        best = [objects[i] for r, i in ranked if r == ranked[0][0]]
        return (*_from_object(path, best, size, grid, notes), best[0])
    if said is not None and not own:
        x, y, how = said
        w, h = size
        box = _inside(Rect(x - w / 2, y - h, w, h), grid)
        lifted = _lift(grid, box)
        if lifted is not None and 0 < lifted.y + lifted.h <= grid.height_px:
            up = f", lifted {px(box.y - lifted.y)} px out of the ground" if lifted != box else ""
            notes.append(f"{path}: the player starts where {how}{up}; add a point object named "
                         "'spawn', or run with --start-object NAME, to choose")
            return lifted, True, None
    if own:
        raise UserError(path, "no spawn: add an object named 'spawn' (or of class 'player') to an "
                        "object layer, as a point at the player's feet or a rectangle")
    box = _first_ground(grid, size)
    markers = _markers(objects)
    if box is None:
        raise UserError(path, "nowhere to stand: the map has no start object and no solid ground "
                        "the player fits on; add a point object named 'spawn' where the player "
                        f"starts, or say which object it is with --start-object NAME{markers}, "
                        "and mark the ground as collision (docs/levels.md, 'Bringing your own "
                        "map')")
    column, y = int(box.x // grid.tile_w), px(box.y + box.h)
    notes.append(f"{path}: no start object, so the player starts standing on the first solid "
                 f"ground from the left (column {column}, at y={y}); add a point object named "
                 f"'spawn', or run with --start-object NAME{markers}, to choose")
    return box, True, None


def _markers(objects: tuple[MapObject, ...], most: int = 6) -> str:
    """The names of the map's point objects, the likeliest places another engine starts its
    player (Silly Sam's avatar is the point 'sam'), for a note: ``" (its point objects: 'sam',
    'cameraFocus')"``, or nothing."""
    names = list(dict.fromkeys(o.name for o in objects if o.shape == "point" and o.name))
    if not names:
        return ""
    more = f" and {len(names) - most:,} more" if len(names) > most else ""
    return " (its point objects: " + ", ".join(quoted(n) for n in names[:most]) + more + ")"


def _from_object(path: Path, found: list[MapObject], size: tuple[float, float], grid: TileGrid,
                 notes: list[str], why: str = "") -> tuple[Rect, bool]:
    o = found[0]
    label = f"{quoted(o.name)} " if o.name else ""
    label = f"object {label}(id {o.id}{', ' + o.kind if o.kind else ''})"
    w, h = size
    if o.shape == "rectangle" and o.gid and o.w > 0:  # a sprite: its picture's box, padding too
        box, is_point = _at_bottom_centre(o, size), True
        how = (f"it is a tile object (a {px(o.w)}x{px(o.h)} px picture), so a {px(w)}x{px(h)} "
               "px player stands at its bottom centre")
    elif o.shape == "rectangle" and plausible(o.w, o.h, grid):
        box, is_point, how = Rect(o.x, o.top, o.w, o.h), False, "its rectangle"
    elif o.shape == "rectangle" and o.w > 0:
        box, is_point = _at_bottom_centre(o, size), True
        how = (f"its {px(o.w)}x{px(o.h)} px box is no body's size, so a {px(w)}x{px(h)} "
               "px player stands at its bottom centre")
    else:
        box, is_point = Rect(o.x - w / 2, o.y - h, w, h), True
        how = "the player's feet at its position"
    moved = _inside(box, grid)
    lifted = _lift(grid, moved)
    if lifted is None and not is_point:  # a sprite's box, padding and all: try its feet
        small = _inside(_at_bottom_centre(o, size), grid)
        lifted = _lift(grid, small)
        if lifted is not None:
            box, moved, is_point = _at_bottom_centre(o, size), small, True
            how = (f"its {px(o.w)}x{px(o.h)} px box overlaps collision, so a {px(w)}x"
                   f"{px(h)} px player stands at its bottom centre")
    if lifted is None:
        c, r = overlapping_tiles(grid, moved.x, moved.y, moved.w, moved.h,
                                 moved.y + moved.h, True)[0]
        raise UserError(path, f"the start {label} overlaps a collision tile at column {c}, row "
                        f"{r}; move it into free space in Tiled")
    if moved.y + moved.h > grid.height_px or lifted.y + lifted.h <= 0:
        raise UserError(path, f"the start {label} is outside the map; move it inside in Tiled")
    more = f" (of {len(found)} start-like objects, the first)" if len(found) > 1 else ""
    side = f", moved {px(abs(moved.x - box.x))} px into the map" if moved.x != box.x else ""
    up = f", lifted {px(moved.y - lifted.y)} px out of the ground" if lifted != moved else ""
    notes.append(f"{path}: the player starts at {label}{more}{why}: {how}{side}{up}; give it "
                 "class 'player' to make it the game's own spawn (or run with --start-object "
                 "NAME to start at another)")
    return lifted, is_point


def _at_bottom_centre(o: MapObject, size: tuple[float, float]) -> Rect:
    """A player of ``size`` standing at the bottom centre of object ``o``'s box."""
    w, h = size
    return Rect(o.x + o.w / 2 - w / 2, o.top + o.h - h, w, h)


def _inside(box: Rect, grid: TileGrid) -> Rect:
    """``box`` moved along x into the map, where it fits."""
    return Rect(min(max(box.x, 0.0), max(grid.width_px - box.w, 0.0)), box.y, box.w, box.h)


def _lift(grid: TileGrid, box: Rect) -> Rect | None:
    """The box, or the box moved up just out of what it overlaps (at most LIFT_TILES tiles)."""
    for dy in range(0, LIFT_TILES * grid.tile_h + 1):
        y = box.y - dy
        if not overlapping_tiles(grid, box.x, y, box.w, box.h, y + box.h, True):
            return Rect(box.x, y, box.w, box.h)
    return None


def _first_ground(grid: TileGrid, size: tuple[float, float]) -> Rect | None:
    """The player's box standing on the first floor from the left (each column scanned from
    the top), with room for the player above it inside the map; None if there is none."""
    w, h = size
    tw, th = grid.tile_w, grid.tile_h
    for col in range(grid.cols):
        x = min(max(col * tw + tw / 2 - w / 2, 0.0), max(grid.width_px - w, 0.0))
        for row in range(grid.rows):
            kind = grid.kind(col, row)
            if kind == EMPTY or (row > 0 and grid.kind(col, row - 1) != EMPTY):
                continue
            top = grid.surface_top(col, row, x, x + w) if kind == SLOPE else row * th
            box = Rect(x, top - h, w, h)
            if box.y >= 0 and not overlapping_tiles(grid, box.x, box.y, box.w, box.h,
                                                    box.y + box.h, True):
                return box
    return None
