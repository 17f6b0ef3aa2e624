"""The game's own objects (its kit): the spawn, goals, walkers, and the objects of level flow
(checkpoints, coins, switches: ``game.maps.tiles``); moving platforms are
``game.maps.platform_spawns``. Read from the map's model (``game.maps.model.MapObject``).

The game's rules apply to the objects of the game's own classes (:data:`GAME_CLASSES`, spelled
as the project file ``levels/tilecollide.tiled-project`` declares them) and to its spawn;
another engine's objects are left alone (a note lists the classes left out). An author using the
kit is told of a class one typo away from the game's ("did you mean"), of a level without a goal,
and of a kit object outside the map (an error).
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from game.errors import UserError, quoted
from game.maps.grid import TileGrid, overlapping_tiles
from game.maps.limits import MAX_BODY_PX, MAX_WALKERS
from game.maps.model import MapObject, px, type_name, written
from game.maps.records import Rect, WalkerSpawn
from game.maps.tiles import (NO_FEATURES, TileFeatures, cell_features, check_clear_of_doors,
                             door_groups, flow_objects)

# The classes of levels/tilecollide.tiled-project: the objects the game brings to life.
GAME_CLASSES = ("player", "goal", "walker", "platform", "checkpoint", "coin", "switch")
# A walker's Tiled properties (the class ``walker`` of levels/tilecollide.tiled-project declares
# them with these defaults: Tiled does not save a class member left at its default).
WALKER_SIZE = (12.0, 12.0)  # a point walker's hitbox, px, feet at the point
WALKER_SPEED = 40.0  # px/s
WALKER_TOP_SPEED = 1000.0  # the most a walker's speed property may say, px/s
WALKER_DIRECTIONS = {"left": -1, "right": 1}
WALKER_DIRECTION = "right"


def features(path: Path, layers, feature_of, objects: tuple[MapObject, ...], grid: TileGrid,
             spawn: Rect, walkers: tuple[WalkerSpawn, ...]) -> TileFeatures:
    """Hazards, friction, water, doors and the flow objects (game.maps.tiles); none: NO_FEATURES.
    ``layers`` are the model's tile layers, ``feature_of`` what each placed gid does."""
    kinds = {o.kind for o in objects}
    if not feature_of and not kinds & {"checkpoint", "coin", "switch"} and not any(
            "door" in layer.properties for layer in layers):
        return NO_FEATURES
    cols, tw, th = grid.cols, grid.tile_w, grid.tile_h
    named = [(layer.name, layer.properties, layer.cells) for layer in layers]
    hazards, friction, water = cell_features(
        [cells for _n, props, cells in named if "door" not in props], feature_of, cols, tw, th)
    doors = door_groups(path, named, cols)

    def free(x, y, w, h):
        bad = overlapping_tiles(grid, x, y, w, h, y + h, True)
        return bad[0] if bad else None

    checkpoints, coins, switches = flow_objects(path, objects, grid, (spawn.w, spawn.h), doors,
                                                free)
    if doors:
        pw, ph = spawn.w, spawn.h
        check_clear_of_doors(path, doors, grid, [
            ("spawn", spawn.x, spawn.y, spawn.w, spawn.h),
            *((f"walker (id {w.id})", w.x, w.y, w.w, w.h) for w in walkers),
            *((f"checkpoint (id {c.id})'s respawn point", *c.spawn, pw, ph) for c in checkpoints)])
    return TileFeatures(hazards, friction, water, doors, checkpoints, coins, switches)


def kit_notes(path: Path, objects: Iterable[MapObject], own: bool, finishes: bool) -> list[str]:
    """What an author should know of the map's objects (``objects``: those the game did not
    read as its start or as collision): classes one typo away from the game's own (``Coin`` for
    ``coin``, ``checkpiont``), other engines' classes the game leaves alone, and, on a map made
    with the game's kit (``own``), that it cannot be finished without a goal (``finishes``: it
    has one)."""
    notes = []
    left: Counter[str] = Counter()
    near: dict[str, str] = {}
    for o in objects:
        if not o.kind or o.kind in GAME_CLASSES:
            continue
        close = difflib.get_close_matches(o.kind.lower(), GAME_CLASSES, n=1, cutoff=0.75)
        if close and own:  # on another engine's map, its own class: no typo of the game's
            near[o.kind] = close[0]
        else:
            left[o.kind] += 1
    for kind, game in near.items():
        notes.append(f"{path}: objects of class {quoted(kind)} are not the game's; did you mean "
                     f"{quoted(game)}? (the game's classes are {', '.join(GAME_CLASSES)}; "
                     "set the class in Tiled's Properties panel)")
    if left:
        listed = ", ".join(f"{quoted(k)} x{n}" if n > 1 else quoted(k)
                           for k, n in left.most_common(10))
        more = f" and {len(left) - 10} more" if len(left) > 10 else ""
        notes.append(f"{path}: objects of classes the game does not use are left alone: "
                     f"{listed}{more}")
    if own and not finishes:
        notes.append(f"{path}: the level has no goal, so it cannot be finished; add an object of "
                     "class 'goal' (a rectangle the player touches) in Tiled")
    return notes


def check_inside(path: Path, objects: Iterable[MapObject], grid: TileGrid) -> None:
    """Every goal must be reachable: a goal entirely outside the map is one error line (the
    other kit objects say it themselves, each with its own rule)."""
    for o in objects:
        if o.kind != "goal":
            continue
        top = o.top
        called = f"{quoted(o.name)} (id {o.id})" if o.name else f"(id {o.id})"
        if o.x + o.w <= 0 or o.x >= grid.width_px or top + o.h <= 0 or top >= grid.height_px:
            raise UserError(path, f"the goal {called} at x={px(o.x)}, y={px(o.y)} is outside "
                            f"the map ({grid.width_px}x{grid.height_px} px), where no one can "
                            "touch it; move it inside in Tiled")


def one_edit_apart(a: str, b: str) -> bool:
    """True if a and b differ by one typo: a letter changed, added, dropped or two swapped
    (case aside: 'Speed' is a typo of 'speed')."""
    a, b = a.lower(), b.lower()
    if a == b:
        return True
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                  and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1:] == short for i in range(len(long)))


def walkers(path: Path, objects: tuple[MapObject, ...], grid: TileGrid) -> tuple[WalkerSpawn, ...]:
    """The spawns of the objects of class ``walker``, in object id order."""
    found = sorted((o for o in objects if o.kind == "walker"), key=lambda o: o.id)
    if len(found) > MAX_WALKERS:
        raise UserError(path, f"the map has {len(found):,} walker objects, more than the "
                        f"{MAX_WALKERS:,} a level may hold; remove some in Tiled")
    return tuple(_walker(path, o, grid) for o in found)


def _walker(path: Path, o: MapObject, grid: TileGrid) -> WalkerSpawn:
    label = f"walker {quoted(o.name)} (id {o.id})" if o.name else f"walker (id {o.id})"
    if o.shape == "point":
        w, h = WALKER_SIZE
        x, y = o.x - w / 2, o.y - h
    elif o.shape != "rectangle" or o.w <= 0 or o.h <= 0:
        raise UserError(path, f"the {label} is a {o.shape}; make it a point (the feet of a "
                        f"{px(WALKER_SIZE[0])}x{px(WALKER_SIZE[1])} px walker) or a rectangle "
                        "with a size (its hitbox)")
    elif max(o.w, o.h) > MAX_BODY_PX:
        raise UserError(path, f"the {label} is {px(o.w)}x{px(o.h)} px; a walker's hitbox "
                        f"is at most {MAX_BODY_PX}x{MAX_BODY_PX} px: make it smaller in Tiled")
    else:
        x, y, w, h = o.x, o.top, o.w, o.h
    if x < 0 or y < 0 or x + w > grid.width_px or y + h > grid.height_px:
        raise UserError(path, f"the {label} at x={px(o.x)}, y={px(o.y)} is outside the "
                        f"map: its {px(w)}x{px(h)} px hitbox spans x {px(x)} to {px(x + w)}, "
                        f"y {px(y)} to {px(y + h)}; the map is {grid.width_px}x"
                        f"{grid.height_px} px; move the walker inside it")
    bad = overlapping_tiles(grid, x, y, w, h, y + h, True)
    if bad:
        c, r = bad[0]
        raise UserError(path, f"the {label} overlaps a collision tile at column {c}, row {r}; "
                        "move it into free space in Tiled (a point walker stands on the point)")

    speed, direction = WALKER_SPEED, WALKER_DIRECTION
    for name, value in o.properties.items():
        if name == "speed":
            ok = type(value) in (int, float) and 0 <= value <= WALKER_TOP_SPEED  # nan fails too
            if not ok:
                raise UserError(path, f"the {label} has speed={quoted(written(value))} "
                                f"({type_name(value)}); make it a float property from 0 to "
                                f"{WALKER_TOP_SPEED:g} (px/s) in Tiled's Properties panel")
            speed = float(value)
        elif name == "direction":
            if value not in WALKER_DIRECTIONS:
                raise UserError(path, f"the {label} has direction={quoted(written(value))}; use "
                                + " or ".join(WALKER_DIRECTIONS) + " (the enum 'direction' of "
                                "the project lists them)")
            direction = value
        else:
            close = [k for k in ("speed", "direction") if one_edit_apart(name, k)]
            if close:
                raise UserError(path, f"the {label} has a property {quoted(name)}; did you mean "
                                f"{close[0]}? (rename it in Tiled's Properties panel)")
    return WalkerSpawn(o.id, x, y, w, h, speed, WALKER_DIRECTIONS[direction])


def is_spawn(o: MapObject, own: bool) -> bool:
    """Is ``o`` the game's own spawn: of class ``player``, or, on a map made with the game's
    kit (``own``), named ``spawn``? (Another engine's map may name many objects spawn: its
    enemies' spawn points.)"""
    return o.kind == "player" or (own and o.name == "spawn")


def spawn(path: Path, found: list[MapObject], size: tuple[float, float],
          grid: TileGrid) -> tuple[Rect, bool]:
    """The player's box at the game's own spawn (``found``: the objects that are one)."""
    if len(found) > 1:
        ids = ", ".join(str(o.id) for o in found)
        raise UserError(path, f"{len(found)} spawn objects (ids {ids}); keep exactly one object "
                        "named 'spawn' or of class 'player'")
    o = found[0]
    if o.shape == "point":
        w, h = size
        box, is_point = Rect(o.x - w / 2, o.y - h, w, h), True
    elif o.shape != "rectangle" or o.w <= 0 or o.h <= 0:
        raise UserError(path, f"the spawn object (id {o.id}) is a {o.shape}; make it a point "
                        "or a rectangle with a size")
    elif max(o.w, o.h) > MAX_BODY_PX:
        raise UserError(path, f"the spawn rectangle (id {o.id}) is {px(o.w)}x{px(o.h)} "
                        f"px; the player's hitbox is at most {MAX_BODY_PX}x{MAX_BODY_PX} px: "
                        "make it smaller in Tiled")
    else:
        box, is_point = Rect(o.x, o.top, o.w, o.h), False
    _check_spawn_inside(path, o, box, is_point, grid)
    bad = overlapping_tiles(grid, box.x, box.y, box.w, box.h, box.y + box.h, True)
    if bad:
        c, r = bad[0]
        if is_point:
            raise UserError(path, f"the spawn overlaps a collision tile at column {c}, row {r}: "
                            f"the player's {px(box.w)}x{px(box.h)} px hitbox, standing on "
                            "the spawn point, reaches into it (its size comes from config.toml's "
                            "[player] width/height); move the spawn object into free space in "
                            "Tiled, or make [player] width/height smaller")
        raise UserError(path, f"the spawn overlaps a collision tile at column {c}, row {r}; move "
                        "the spawn object into free space in Tiled")
    return box, is_point


def _check_spawn_inside(path: Path, o: MapObject, box: Rect, is_point: bool,
                        grid: TileGrid) -> None:
    """The player's box must start inside the map; only its top may stick out above the map."""
    map_w, map_h = grid.width_px, grid.height_px
    if box.x < 0:
        side = "reaches left of the map (x < 0)"
    elif box.x + box.w > map_w:
        side = f"reaches right of the map (x > {map_w})"
    elif box.y + box.h > map_h:
        side = f"reaches below the map's bottom (y > {map_h})"
    elif box.y + box.h <= 0:
        side = "is entirely above the map's top (y < 0)"
    else:
        return
    label = f"{quoted(o.name)} " if o.name else ""
    what = (f"the player's {px(box.w)}x{px(box.h)} px hitbox standing on it (size from "
            "config.toml's [player] width/height)" if is_point else "its rectangle")
    raise UserError(path, f"the spawn object {label}(id {o.id}) at x={px(o.x)}, "
                    f"y={px(o.y)} is outside the map: {what} spans x {px(box.x)} to "
                    f"{px(box.x + box.w)}, y {px(box.y)} to {px(box.y + box.h)} and {side}; "
                    f"the map is {map_w}x{map_h} px ({grid.cols}x{grid.rows} tiles); move the "
                    "spawn inside it")
