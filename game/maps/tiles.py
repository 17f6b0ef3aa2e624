"""What a level's tiles and objects *do* beyond blocking: hazards, ice, water, doors, and the
objects of level flow (checkpoints, coins, switches). Plain data, built once by the loader
(``game.maps.level``); the simulation that uses it is ``game.sim.living``.

A level without any of these gets :data:`NO_FEATURES` and runs exactly as before they existed.

Tile properties (set on tiles of the tileset; ``levels/tilecollide.tiled-project`` declares them):

* ``hazard`` (bool): touching the tile hurts. "Touching" is the player's hitbox *overlapping*
  the hazard box by some area (resting on its edge is not touching). The hazard box is the
  tile's collision shape drawn in Tiled's tile collision editor (the first rectangle), or the
  whole tile when it has none. A spike tile's box covers only its points.
* ``friction`` (float, 0 to 1, default 1): scales the ground acceleration and deceleration of a
  player standing on it. 1 is normal ground; ice is about 0.15. 0 gives no grip at all.
* ``water`` (bool): water. A body whose hitbox centre is in a water cell swims (see
  ``[physics] water_*`` in config.toml).

A door is a tile layer with a string property ``door`` naming its group; every cell it paints is
solid while the group is closed and is whatever the other layers say while it is open. A bool
layer property ``open`` (default false) gives its state at the start.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

FRICTION_DEFAULT = 1.0
HAZARD = "hazard"
FRICTION = "friction"
WATER = "water"
TILE_KEYS = (HAZARD, FRICTION, WATER)
SWITCH_KINDS = ("lever", "plate")
# The tile classes of levels/tilecollide.tiled-project and their members' defaults, which Tiled
# leaves out of the file: a tile of class ``ice`` has friction 0.15 unless it says otherwise.
ICE_FRICTION = 0.15
TILE_CLASSES = {"hazard": {HAZARD: True}, "water": {WATER: True}, "ice": {FRICTION: ICE_FRICTION}}
MAX_FLOW_OBJECTS = 5000  # checkpoints, coins and switches of one map, together


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    w: float
    h: float

    def overlaps(self, x: float, y: float, w: float, h: float) -> bool:
        return x < self.x + self.w and self.x < x + w and y < self.y + self.h and self.y < y + h


@dataclass(frozen=True)
class DoorGroup:
    name: str
    cells: frozenset[int]  # row * cols + col, the cells the group's layers paint
    open: bool  # at the start
    layers: tuple[str, ...]  # the tile layers of the group, by name (the view draws them)


@dataclass(frozen=True)
class Checkpoint:
    id: int
    box: Box  # touching it makes it the respawn point
    spawn: tuple[float, float]  # the player's top-left on respawning here: feet on its bottom


@dataclass(frozen=True)
class Coin:
    id: int
    box: Box


@dataclass(frozen=True)
class Switch:
    id: int
    box: Box
    door: str  # the door group it opens and closes
    mode: str  # "lever": each touch toggles; "plate": open while the player is on it


@dataclass(frozen=True, eq=False)
class TileFeatures:
    hazards: Mapping[int, Box] = field(default_factory=dict)  # cell -> hazard box, map px
    friction: Mapping[int, float] = field(default_factory=dict)  # cell -> friction, if not 1
    water: frozenset[int] = frozenset()
    doors: Mapping[str, DoorGroup] = field(default_factory=dict)
    checkpoints: tuple[Checkpoint, ...] = ()
    coins: tuple[Coin, ...] = ()
    switches: tuple[Switch, ...] = ()

    @property
    def alive(self) -> bool:
        """Anything at all for the simulation to look at."""
        return bool(self.hazards or self.friction or self.water or self.doors or self.checkpoints
                    or self.coins or self.switches)


NO_FEATURES = TileFeatures()


# ----------------------------------------------------------------------------------------------
# Reading them (called by game.maps.level while it builds a level)
# ----------------------------------------------------------------------------------------------

class FeatureError(Exception):
    """A tile property of the game's living level with a value it cannot hold: ``key`` names
    the property, ``error`` is the line to say (another engine's map may mean something else by
    the name: the loader then leaves it out)."""

    def __init__(self, key: str, error) -> None:
        super().__init__(error.message)
        self.key, self.error = key, error


def tile_feature(where: str, file, props: Mapping, kind: str, shapes, flags: int, tw: int,
                 th: int):
    """(hazard box relative to the tile or None, friction or None, water) of a tile, from its
    properties and class (``kind``); None when it has none of them. ``shapes`` are its
    collision shapes (``game.maps.shapes.Shape``, px in the tile), ``flags`` the flip bits it is
    placed with. A mistake is a :class:`FeatureError` naming ``file`` (the tileset)."""
    from game.errors import UserError, quoted
    from game.maps.model import FLIP_H, FLIP_V

    cls = kind.strip().lower()
    if cls in TILE_CLASSES:  # Tiled does not save a class member left at its default
        props = {**TILE_CLASSES[cls], **props}
    if not any(k in props for k in TILE_KEYS):
        return None
    for key in (HAZARD, WATER):
        if key in props and not isinstance(props[key], bool):
            raise FeatureError(key, UserError(file, f"{where} has {key}={quoted(props[key])}; "
                                              f"make {key} a bool property (a tick box in Tiled)"))
    friction = props.get(FRICTION)
    if friction is not None:
        if isinstance(friction, bool) or not isinstance(friction, (int, float)) or not (
                0.0 <= friction <= 1.0):
            raise FeatureError(FRICTION, UserError(
                file, f"{where} has friction={quoted(friction)}; make friction a float property "
                "from 0 (no grip) to 1 (normal ground)"))
        friction = float(friction)
        if friction == FRICTION_DEFAULT:
            friction = None
    hazard = None
    if props.get(HAZARD):
        hazard = (0.0, 0.0, float(tw), float(th))
        boxes = [sh.bounds() for sh in (shapes or ()) if sh.closed]
        boxes = [b for b in boxes if b[2] > b[0] and b[3] > b[1]]
        if boxes:  # the tile's collision shape (Tiled's tile collision editor): its first box
            bx0, by0, bx1, by1 = boxes[0]
            x0, y0 = max(0.0, bx0), max(0.0, by0)
            x1, y1 = min(float(tw), bx1), min(float(th), by1)
            if x1 <= x0 or y1 <= y0:
                raise FeatureError(HAZARD, UserError(
                    file, f"{where} is a hazard whose collision shape lies outside the tile; "
                    "redraw it inside the tile in Tiled's tile collision editor"))
            if flags & FLIP_H:
                x0, x1 = tw - x1, tw - x0
            if flags & FLIP_V:
                y0, y1 = th - y1, th - y0
            hazard = (x0, y0, x1 - x0, y1 - y0)
    return hazard, friction, bool(props.get(WATER))


def cell_features(layers, feature_of: Mapping[int, tuple], cols: int, tw: int, th: int):
    """The per-cell hazards, friction and water of the tile layers' cells (``layers``: lists of
    pytmx gids, row * cols + col)."""
    hazards: dict[int, Box] = {}
    friction: dict[int, float] = {}
    water: set[int] = set()
    for gids in layers:
        for i, gid in enumerate(gids):
            f = feature_of.get(gid)
            if f is None:
                continue
            hz, fr, wet = f
            row, col = divmod(i, cols)
            if hz is not None and i not in hazards:
                hazards[i] = Box(col * tw + hz[0], row * th + hz[1], hz[2], hz[3])
            if fr is not None:
                friction[i] = min(fr, friction.get(i, 1.0))
            if wet:
                water.add(i)
    return hazards, friction, frozenset(water)


def door_groups(path, layers, cols: int) -> dict[str, DoorGroup]:
    """Door groups from the tile layers with a ``door`` property: ``layers`` holds
    (name, properties, pytmx gids) of each tile layer."""
    from game.errors import UserError, quoted

    cells: dict[str, set[int]] = {}
    opened: dict[str, bool] = {}
    names: dict[str, list[str]] = {}
    for name, props, gids in layers:
        if "door" not in props:
            continue
        group = props["door"]
        if not isinstance(group, str) or not group.strip():
            raise UserError(path, f"tile layer {quoted(name)} has door={quoted(group)}; make door "
                            "a string property naming the door group (a switch names it too)")
        is_open = props.get("open", False)
        if not isinstance(is_open, bool):
            raise UserError(path, f"tile layer {quoted(name)} has open={quoted(is_open)}; make "
                            "open a bool property (ticked: the door starts open)")
        if group in opened and opened[group] != is_open:
            raise UserError(path, f"the layers of door group {quoted(group)} disagree on open; "
                            "give them all the same value")
        opened[group] = is_open
        names.setdefault(group, []).append(name)
        cells.setdefault(group, set()).update(i for i, gid in enumerate(gids) if gid)
    return {g: DoorGroup(g, frozenset(cells[g]), opened[g], tuple(names[g])) for g in cells}


def _label(kind: str, o) -> str:
    return f"{kind} {o.name!r} (id {o.id})" if o.name else f"{kind} (id {o.id})"


def _object_box(path, kind: str, o, tw: int, th: int, point_size: tuple[float, float],
                map_w: int, map_h: int) -> Box:
    """A flow object's box: a rectangle's (or a tile object's) own, an ellipse's (Tiled draws it
    inside that box), or ``point_size`` standing on a point, or on an ellipse or rectangle of no
    size (a marker at its position: LÖVE games place coins so, and read their x, y alone)."""
    from game.errors import UserError

    if o.shape == "point" or (o.shape in ("rectangle", "ellipse") and o.w == 0 and o.h == 0
                              and not o.gid):
        w, h = point_size
        box = Box(o.x - w / 2, o.y - h, w, h)
    elif o.shape in ("rectangle", "ellipse") and o.w > 0 and o.h > 0:
        box = Box(o.x, o.top, o.w, o.h)
    else:
        raise UserError(path, f"the {_label(kind, o)} is a {o.shape}; make it a point, a "
                        "rectangle or ellipse with a size, or a tile object")
    if box.x < 0 or box.y < 0 or box.x + box.w > map_w or box.y + box.h > map_h:
        raise UserError(path, f"the {_label(kind, o)} at x={o.x:g}, y={o.y:g} is outside "
                        f"the map ({map_w}x{map_h} px); move it inside")
    return box


def flow_objects(path, objects, grid, player: tuple[float, float], doors: Mapping[str, DoorGroup],
                 free) -> tuple[tuple[Checkpoint, ...], tuple[Coin, ...], tuple[Switch, ...]]:
    """Checkpoints, coins and switches from the map's objects (of those classes), in id order.
    ``free(x, y, w, h)`` says where the player's box overlaps no collision tile (None if free,
    else the (col, row) in the way)."""
    from game.errors import UserError, quoted
    from game.maps.model import written

    tw, th, mw, mh = grid.tile_w, grid.tile_h, grid.width_px, grid.height_px
    found = sorted((o for o in objects if o.kind in ("checkpoint", "coin", "switch")),
                   key=lambda o: o.id)
    if len(found) > MAX_FLOW_OBJECTS:
        raise UserError(path, f"the map has {len(found):,} checkpoints, coins and switches, more "
                        f"than the {MAX_FLOW_OBJECTS:,} a level may hold; remove some in Tiled")
    checkpoints, coins, switches = [], [], []
    pw, ph = player
    for o in found:
        kind = o.kind
        props = o.properties
        if kind == "checkpoint":
            box = _object_box(path, kind, o, tw, th, (float(tw), float(th) * 2), mw, mh)
            sx, sy = box.x + box.w / 2 - pw / 2, box.y + box.h - ph
            bad = free(sx, sy, pw, ph)
            if bad is not None or sx < 0 or sx + pw > mw or sy + ph > mh:
                where = f" at column {bad[0]}, row {bad[1]}" if bad else " outside the map"
                raise UserError(path, f"the {_label(kind, o)}: the player respawning on it "
                                f"({pw:g}x{ph:g} px, feet on its bottom edge) would be in a "
                                f"collision tile{where}; move it into free space")
            checkpoints.append(Checkpoint(o.id, box, (sx, sy)))
        elif kind == "coin":
            box = _object_box(path, kind, o, tw, th, (tw / 2, th / 2 + th / 4), mw, mh)
            coins.append(Coin(o.id, box))
        else:
            box = _object_box(path, kind, o, tw, th, (float(tw), float(th)), mw, mh)
            door = props.get("door", "")
            if not isinstance(door, str) or not door:
                raise UserError(path, f"the {_label(kind, o)} has no door property; add a string "
                                "property door naming a door group (a tile layer with the same "
                                "door property)")
            if door not in doors:
                known = ", ".join(sorted(doors)) or "none: give a tile layer a door property"
                raise UserError(path, f"the {_label(kind, o)} names door group "
                                f"{quoted(written(door))}, "
                                f"which does not exist (door groups: {known})")
            how = props.get("mode", "lever") or "lever"
            if how not in SWITCH_KINDS:
                raise UserError(path, f"the {_label(kind, o)} has mode={quoted(written(how))}; use "
                                + " or ".join(SWITCH_KINDS))
            switches.append(Switch(o.id, box, door, how))
    return tuple(checkpoints), tuple(coins), tuple(switches)


def check_clear_of_doors(path, doors: Mapping[str, DoorGroup], grid, boxes) -> None:
    """No body may start inside a door that starts closed: ``boxes`` are (label, x, y, w, h)."""
    from game.errors import UserError, quoted

    closed = [d for d in doors.values() if not d.open]
    for label, x, y, w, h in boxes:
        for row in grid.rows_between(y + 1e-6, y + h - 1e-6):
            for col in grid.cols_between(x + 1e-6, x + w - 1e-6):
                for d in closed:
                    if 0 <= col < grid.cols and row * grid.cols + col in d.cells:
                        raise UserError(path, f"the {label} overlaps door group {quoted(d.name)}, "
                                        f"closed at the start, at column {col}, row {row}; move "
                                        "it out of the door (or tick the door layer's open)")
