"""Stage 3 of loading: the map's objects become the game's: the spawn, goals, walkers, and the
objects of level flow (checkpoints, coins, switches: ``game.maps.tiles``). Moving platforms are
``game.maps.platform_spawns``.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path

from game.errors import UserError, quoted
from game.maps.art import GID_MASK
from game.maps.grid import TileGrid, overlapping_tiles
from game.maps.limits import MAX_BODY_PX, MAX_WALKERS
from game.maps.platform_spawns import float_value
from game.maps.records import Rect, WalkerSpawn
from game.maps.safexml import raw_properties
from game.maps.tiles import (NO_FEATURES, TileFeatures, cell_features, check_clear_of_doors,
                             door_groups, flow_objects)


# A walker's Tiled properties (the class ``walker`` of levels/tilecollide.tiled-project declares
# them with these defaults: Tiled does not save a class member left at its default).
WALKER_SIZE = (12.0, 12.0)  # a point walker's hitbox, px, feet at the point
WALKER_SPEED = 40.0  # px/s
WALKER_TOP_SPEED = 1000.0  # the most a walker's speed property may say, px/s
WALKER_DIRECTIONS = {"left": -1, "right": 1}
WALKER_DIRECTION = "right"


def features(path: Path, tile_layers, cells, feature_of, objects, grid: TileGrid,
              spawn: Rect, walkers: tuple[WalkerSpawn, ...]) -> TileFeatures:
    """Hazards, friction, water, doors and the flow objects (game.maps.tiles); none: NO_FEATURES."""
    kinds = {o["kind"] for o in objects}
    if not feature_of and not kinds & {"checkpoint", "coin", "switch"} and not any(
            "door" in layer.properties for layer in tile_layers):
        return NO_FEATURES
    cols, tw, th = grid.cols, grid.tile_w, grid.tile_h
    layers = [(layer.name, layer.properties, gids) for layer, gids in zip(tile_layers, cells)]
    hazards, friction, water = cell_features(
        [gids for _n, props, gids in layers if "door" not in props], feature_of, cols, tw, th)
    doors = door_groups(path, layers, cols)

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


def px(v: float) -> str:
    return f"{v:g}"


# Tiled's object alignments (a tileset's "objectalignment", Tiled 1.4+): the point of a tile
# object's picture that its position gives, as fractions of its width and height.
ALIGNMENTS = {"topleft": (0.0, 0.0), "top": (0.5, 0.0), "topright": (1.0, 0.0),
              "left": (0.0, 0.5), "center": (0.5, 0.5), "right": (1.0, 0.5),
              "bottomleft": (0.0, 1.0), "bottom": (0.5, 1.0), "bottomright": (1.0, 1.0)}


def align_tile_objects(path: Path, root: ET.Element, info) -> list[str]:
    """Move each tile object whose tileset sets its own object alignment to the position it
    would have with the map's default one, keeping its picture where Tiled shows it; returns
    notes.

    The default is Tiled's "unspecified": the bottom-left corner (the bottom middle on an
    isometric map). Everything after this (pytmx, the collision conventions, the objects the
    game brings to life, the art) then reads every tile object one way. A turned object turns
    about its position, so the move is turned with it; on an isometric map the alignment is
    on screen, and the move is taken back to the map's own coordinates. ``info``: the checked
    map (``game.maps.checks.MapInfo``)."""
    iso = info.orientation.kind == "isometric"
    default = ALIGNMENTS["bottom" if iso else "bottomleft"]
    notes = [f"{path}: tileset {quoted(ts.name)} sets object alignment {quoted(ts.alignment)}, "
             "which Tiled does not know; its tile objects are placed as Tiled's default "
             "(\"unspecified\") places them: pick an alignment in its Tileset Properties"
             for ts in info.tilesets if ts.alignment not in ALIGNMENTS
             and ts.alignment != "unspecified"]
    if all(ALIGNMENTS.get(ts.alignment, default) == default for ts in info.tilesets):
        return notes
    slope = int(root.get("tileheight")) / int(root.get("tilewidth"))  # isometric only
    for obj in _map_objects(root):
        number = (obj.get("gid") or "").strip()
        gid = int(number) & GID_MASK if number.isascii() and number.isdigit() and \
            len(number) <= 10 else 0
        ts = info.tileset_of(gid) if gid else None
        at = None if ts is None else ALIGNMENTS.get(ts.alignment)
        if at is None or at == default:
            continue
        try:
            x, y = float(obj.get("x", 0)), float(obj.get("y", 0))
            w, h = float(obj.get("width", 0)), float(obj.get("height", 0))
            turn = math.radians(float(obj.get("rotation", 0)))
        except ValueError:
            continue  # the checks refuse it
        if not w or not h:  # saved without a size (Tiled 1.0): its tile's picture's own
            size = ts.own_size_of(gid - ts.firstgid)
            w, h = w or size[0], h or size[1]
        a, b = (default[0] - at[0]) * w, (default[1] - at[1]) * h
        a, b = a * math.cos(turn) - b * math.sin(turn), a * math.sin(turn) + b * math.cos(turn)
        if iso:  # screen px -> the map's px (a tile is tileheight x tileheight there)
            a, b = b + a * slope, b - a * slope
        obj.set("x", repr(x + a))
        obj.set("y", repr(y + b))
    return notes


def _map_objects(el: ET.Element):
    """The objects of the map's object layers (not those of tilesets' collision shapes)."""
    for child in el:
        if child.tag == "group":
            yield from _map_objects(child)
        elif child.tag == "objectgroup":
            yield from child.iter("object")


def read_objects(root: ET.Element):
    """Every object of every object layer, in map pixels, with ``kind`` from type or class."""
    def walk(el: ET.Element, ox: float, oy: float):
        for child in el:
            if child.tag in ("group", "objectgroup"):
                yield from walk(child, ox + float(child.get("offsetx", 0)),
                                oy + float(child.get("offsety", 0)))
            elif child.tag == "object" and el.tag == "objectgroup":
                x, y = float(child.get("x", 0)) + ox, float(child.get("y", 0)) + oy
                w, h = float(child.get("width", 0)), float(child.get("height", 0))
                if child.get("gid"):
                    y -= h  # tile objects are anchored at their bottom-left corner
                shape = next((s for s in ("point", "ellipse", "polygon", "polyline", "text")
                              if child.find(s) is not None), "rectangle")
                kind = (child.get("type") or child.get("class") or "").strip().lower()
                obj = {"id": int(child.get("id", 0)), "name": child.get("name", ""),
                       "kind": kind, "shape": shape, "x": x, "y": y, "w": w, "h": h}
                if kind in ("walker", "switch", "platform"):
                    obj["props"] = raw_properties(child)
                if shape == "polyline":
                    obj["points"] = _polyline_points(child.find("polyline"), x, y)
                yield obj
    yield from walk(root, 0.0, 0.0)


def _polyline_points(el: ET.Element, x: float, y: float) -> tuple[tuple[float, float], ...]:
    """A polyline's vertices in map pixels (Tiled writes them relative to the object); a vertex
    that is not two numbers is left out (the platform loader then says the path is too short)."""
    points = []
    for pair in (el.get("points") or "").split():
        try:
            px, py = (float(v) for v in pair.split(","))
        except ValueError:
            continue
        if math.isfinite(px) and math.isfinite(py):
            points.append((x + px, y + py))
    return tuple(points)


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


def walkers(path: Path, objects: tuple[dict, ...], grid: TileGrid) -> tuple[WalkerSpawn, ...]:
    """The spawns of the objects of class (type) ``walker``, in object id order."""
    found = sorted((o for o in objects if o["kind"] == "walker"), key=lambda o: o["id"])
    if len(found) > MAX_WALKERS:
        raise UserError(path, f"the map has {len(found):,} walker objects, more than the "
                        f"{MAX_WALKERS:,} a level may hold; remove some in Tiled")
    return tuple(_walker(path, o, grid) for o in found)


def _walker(path: Path, o: dict, grid: TileGrid) -> WalkerSpawn:
    label = f"walker {quoted(o['name'])} (id {o['id']})" if o["name"] else f"walker (id {o['id']})"
    if o["shape"] == "point":
        w, h = WALKER_SIZE
        x, y = o["x"] - w / 2, o["y"] - h
    elif o["shape"] != "rectangle" or o["w"] <= 0 or o["h"] <= 0:
        raise UserError(path, f"the {label} is a {o['shape']}; make it a point (the feet of a "
                        f"{px(WALKER_SIZE[0])}x{px(WALKER_SIZE[1])} px walker) or a rectangle "
                        "with a size (its hitbox)")
    elif max(o["w"], o["h"]) > MAX_BODY_PX:
        raise UserError(path, f"the {label} is {px(o['w'])}x{px(o['h'])} px; a walker's hitbox "
                        f"is at most {MAX_BODY_PX}x{MAX_BODY_PX} px: make it smaller in Tiled")
    else:
        x, y, w, h = o["x"], o["y"], o["w"], o["h"]
    if x < 0 or y < 0 or x + w > grid.width_px or y + h > grid.height_px:
        raise UserError(path, f"the {label} at x={px(o['x'])}, y={px(o['y'])} is outside the "
                        f"map: its {px(w)}x{px(h)} px hitbox spans x {px(x)} to {px(x + w)}, "
                        f"y {px(y)} to {px(y + h)}; the map is {grid.width_px}x"
                        f"{grid.height_px} px; move the walker inside it")
    bad = overlapping_tiles(grid, x, y, w, h, y + h, True)
    if bad:
        c, r = bad[0]
        raise UserError(path, f"the {label} overlaps a collision tile at column {c}, row {r}; "
                        "move it into free space in Tiled (a point walker stands on the point)")

    speed, direction = WALKER_SPEED, WALKER_DIRECTION
    for name, (kind, value) in o["props"].items():
        if name == "speed":
            number = float_value(kind, value)
            if number is None or not 0 <= number <= WALKER_TOP_SPEED:  # nan fails too
                raise UserError(path, f"the {label} has speed={quoted(value)} ({kind}); make it "
                                f"a float property from 0 to {WALKER_TOP_SPEED:g} (px/s) in "
                                "Tiled's Properties panel")
            speed = number
        elif name == "direction":
            if value not in WALKER_DIRECTIONS:
                raise UserError(path, f"the {label} has direction={quoted(value)}; use "
                                + " or ".join(WALKER_DIRECTIONS) + " (the enum 'direction' of "
                                "the project lists them)")
            direction = value
        else:
            close = [k for k in ("speed", "direction") if one_edit_apart(name, k)]
            if close:
                raise UserError(path, f"the {label} has a property {quoted(name)}; did you mean "
                                f"{close[0]}? (rename it in Tiled's Properties panel)")
    return WalkerSpawn(o["id"], x, y, w, h, speed, WALKER_DIRECTIONS[direction])


def spawn(path: Path, objects: tuple[dict, ...], size: tuple[float, float],
           grid: TileGrid) -> tuple[Rect, bool]:
    found = [o for o in objects if o["name"] == "spawn" or o["kind"] == "player"]
    if not found:
        raise UserError(path, "no spawn: add an object named 'spawn' (or of class 'player') to an "
                        "object layer, as a point at the player's feet or a rectangle")
    if len(found) > 1:
        ids = ", ".join(str(o["id"]) for o in found)
        raise UserError(path, f"{len(found)} spawn objects (ids {ids}); keep exactly one object "
                        "named 'spawn' or of class 'player'")
    o = found[0]
    if o["shape"] == "point":
        w, h = size
        box, is_point = Rect(o["x"] - w / 2, o["y"] - h, w, h), True
    elif o["shape"] != "rectangle" or o["w"] <= 0 or o["h"] <= 0:
        raise UserError(path, f"the spawn object (id {o['id']}) is a {o['shape']}; make it a point "
                        "or a rectangle with a size")
    elif max(o["w"], o["h"]) > MAX_BODY_PX:
        raise UserError(path, f"the spawn rectangle (id {o['id']}) is {px(o['w'])}x{px(o['h'])} "
                        f"px; the player's hitbox is at most {MAX_BODY_PX}x{MAX_BODY_PX} px: "
                        "make it smaller in Tiled")
    else:
        box, is_point = Rect(o["x"], o["y"], o["w"], o["h"]), False
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


def _check_spawn_inside(path: Path, o: dict, box: Rect, is_point: bool, grid: TileGrid) -> None:
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
    label = f"{quoted(o['name'])} " if o["name"] else ""
    what = (f"the player's {px(box.w)}x{px(box.h)} px hitbox standing on it (size from "
            "config.toml's [player] width/height)" if is_point else "its rectangle")
    raise UserError(path, f"the spawn object {label}(id {o['id']}) at x={px(o['x'])}, "
                    f"y={px(o['y'])} is outside the map: {what} spans x {px(box.x)} to "
                    f"{px(box.x + box.w)}, y {px(box.y)} to {px(box.y + box.h)} and {side}; "
                    f"the map is {map_w}x{map_h} px ({grid.cols}x{grid.rows} tiles); move the "
                    "spawn inside it")
