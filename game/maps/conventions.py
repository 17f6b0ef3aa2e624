"""The map-conventions stage: how a map made for another engine says what collides.

Maps made with this game mark collision with the tile property ``collision`` (``solid``,
``one_way``, ``slope``); such a map is read by that alone, exactly as before, and nothing here
is guessed. Any other map is read by the conventions found in the wild, each one small function
below that says what it reads and who uses it, tried in this order:

1. **tile properties**: a bool tile property ``collides``, ``solid``, ... (:func:`tile_property`);
2. **tile collision shapes** drawn in Tiled's Tile Collision Editor (:func:`tile_shapes`);
3. **layer properties**: a tile layer with a bool property ``collides``/``solid``/``collision``
   collides whole (:func:`layer_property`); Flixel's ``nocollide`` never collides;
4. **layer names** (:func:`layer_name`), only when no tile carries a mark of 1 or 2 and no layer
   one of 3: a tile layer named ``Collision``, ``Solid``, ``Ground``, ... collides whole; when
   only Flixel's ``nocollide`` marks layers, every other tile layer collides;
5. **object layers** (:func:`collision_object`): objects in a layer named like 4, or whose
   type/class says solid, collision, wall..., or with Box2D's ``bodyType`` ``static``;
   ``platform``/``one-way`` ones are one-way.

Every inference is said in a ``note:`` line (:attr:`Marks.notes`), and each solid cell remembers
which convention made it (:data:`SOURCE_NAMES`) for the debug view. How shapes become cells is
``game.maps.shapes``.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from game.maps.grid import EMPTY, ONE_WAY, SOLID
from game.maps.shapes import Shape, fit_into, rect_shape, shape_of

# What made a cell collide, by code (Level.sources holds one code per cell; 0: nothing).
NATIVE, TILE_PROPERTY, TILE_SHAPE, LAYER_PROPERTY, LAYER_NAME, OBJECT = 1, 2, 3, 4, 5, 6
SOURCE_NAMES = ("", "the tile property 'collision'", "a tile property", "a tile collision shape",
                "a layer property", "the layer's name", "a collision object")

# Tile and layer properties (bool true) that say "collides" in other engines' maps.
SOLID_PROPERTIES = ("collides", "collide", "collision", "collidable", "solid", "blocked", "block",
                    "wall", "obstacle")
ONE_WAY_PROPERTIES = ("one_way", "oneway", "jumpthrough", "platform", "semisolid")
NO_COLLIDE = "nocollide"  # HaxeFlixel's TiledLevel example: a tile layer that never collides
# Words in a layer's name (or an object's type or class) that say what it is.
SOLID_WORDS = {"collision", "collisions", "collide", "collider", "colliders", "collides", "solid",
               "solids", "ground", "grounds", "terrain", "wall", "walls", "block", "blocks",
               "blocked", "obstacle", "obstacles", "floor", "floors", "static"}
ONE_WAY_WORDS = ("oneway", "jumpthrough", "semisolid", "passthrough")
START_WORDS = ("player", "spawn", "start", "hero")
# Words in a tile layer's name that say it is scenery (never guessed to be the ground).
BACKDROP_WORDS = ("background", "back", "bg", "sky", "parallax", "backdrop", "decor", "decoration",
                  "decorations",
                  "details", "detail", "front", "overlay", "shadow", "shadows", "water", "clouds")


@dataclass(frozen=True)
class LayerFacts:
    """What the conventions look at in one tile layer."""

    name: str
    properties: Mapping
    filled: int  # cells with a tile
    cells: int
    opaque: bool  # visible and at full opacity
    common: tuple = ()  # a layer filling every cell: its most common (gid, count), most first


@dataclass(frozen=True)
class TileMark:
    """How one placed tile collides: ``kind`` over its whole picture, or its ``shapes``."""

    kind: int
    source: int
    shapes: tuple[Shape, ...] | None = None  # in px within the tile, flips applied
    heights: tuple[float, float] | None = None  # a slope's, by the game's own property
    by_class: bool = False  # made by the tile's class (Platform, Slope...), not a property


@dataclass
class Marks:
    """What the conventions found, for the tile-layer stage to build the grid from."""

    native: bool
    tiles: dict[int, TileMark] = field(default_factory=dict)  # pytmx gid -> mark
    # per tile layer (file order): None to leave it out, "tiles" to use the tiles' marks, a
    # TileMark every tile of the layer gets, or ("tiles", TileMark): the tiles' marks, that mark
    # for the tiles without one
    layers: list = field(default_factory=list)
    objects: list[tuple[Shape, int, str]] = field(default_factory=list)  # shape, kind, label
    notes: list[str] = field(default_factory=list)
    one_way_objects: set[int] = field(default_factory=set)  # ids: not moving platforms
    open_space: dict[int, set[int]] = field(default_factory=dict)  # layer -> gids taken as air


# --- the conventions ---------------------------------------------------------------------------

def _true(value) -> bool:
    """A property that says yes: a bool true, or the text or number 1/true/yes."""
    if isinstance(value, str):
        return value.strip().lower() in ("true", "1", "yes")
    return value is True or (type(value) in (int, float) and value == 1)


# A tile property ``slope`` naming its direction (pytmx's test track, several tutorials): the
# floor's rise as (left, right) fractions of the tile's height.
SLOPE_WORDS = {"forward": (0.0, 1.0), "up": (0.0, 1.0), "right": (0.0, 1.0), "/": (0.0, 1.0),
               "backward": (1.0, 0.0), "down": (1.0, 0.0), "left": (1.0, 0.0), "\\": (1.0, 0.0),
               "level": (1.0, 1.0), "flat": (1.0, 1.0)}


def slope_property(props: Mapping, size: tuple[int, int]) -> tuple[Shape, ...] | None:
    """A tile property ``slope`` = ``forward``/``backward``/``level`` (or up/down, right/left,
    / and \\): the tile is solid under that floor line; or Flame Leap's (Super Dash) int
    properties ``LeftTop`` and ``RightTop`` on a tile of class ``Slope``: the floor's height in px
    above the tile's bottom at its left and right edges. Its shape, or None."""
    w, h = size
    rise = SLOPE_WORDS.get(str(props.get("slope") or "").strip().lower())
    if rise is None and _leap_slope(props):
        rise = tuple(min(max(float(props[k]), 0.0), float(h)) / h for k in LEAP_SLOPE)
    if rise is None:
        return None
    return (Shape(((0.0, float(h)), (0.0, h * (1 - rise[0])), (float(w), h * (1 - rise[1])),
                   (float(w), float(h)))),)


LEAP_SLOPE = ("LeftTop", "RightTop")


def _leap_slope(props: Mapping) -> bool:
    return (any(str(props.get(k) or "").strip().lower() == "slope" for k in ("type", "class"))
            and all(type(props.get(k)) in (int, float) for k in LEAP_SLOPE))


def tile_property(props: Mapping) -> tuple[int, str] | None:
    """A bool tile property saying the tile collides: ``collides`` (Phaser's
    ``setCollisionByProperty({collides: true})``, its tutorials and many others), ``solid``,
    ``collision`` (bool, not the game's string), ``blocked`` (pyscroll/Tuxemon style) ...; or
    one-way: ``one_way``, ``jumpthrough``, ``platform``; or a tile class (Flame's Super Dash:
    ``Platform``; others: ``Solid``, ``Ground``, ``Wall``) read like a layer's name
    (:func:`name_kind`, a platform being one-way). (kind, what said it) or None."""
    for name in SOLID_PROPERTIES:
        if _true(props.get(name)):
            return SOLID, name
    for name in ONE_WAY_PROPERTIES:
        if _true(props.get(name)):
            return ONE_WAY, name
    for name in ("type", "class"):  # a tile class (Tiled 1.9+; written type=) naming its kind
        kind = name_kind(str(props.get(name) or ""), platform=ONE_WAY)
        if kind is not None:
            return kind, f"class {props[name]}"
    return None


def tile_shapes(shapes: tuple[Shape, ...] | None) -> tuple[Shape, ...] | None:
    """The tile's collision shapes from Tiled's Tile Collision Editor (an ``<objectgroup>``
    inside its ``<tile>``), as Python Arcade, Godot's YATI importer and libGDX's TmxMapLoader
    read them; the caller applies the placed tile's flips (pytmx does not)."""
    return shapes or None


def layer_property(props: Mapping) -> int | None:
    """A tile layer's own bool property saying it collides whole (``collides``, ``solid``,
    ``collision``: the layer-level flag of many pygame and Godot tutorials), or Flixel's
    ``nocollide`` (HaxeFlixel's TiledLevel example) saying it never does: SOLID, EMPTY or None."""
    if _true(props.get(NO_COLLIDE)):
        return EMPTY
    if any(_true(props.get(name)) for name in ("collides", "collision", "solid", "collidable")):
        return SOLID
    return None


def name_kind(name: str, platform: int = SOLID) -> int | None:
    """What a layer's name (or an object's type or class) says it is, any case: ``Collision``,
    ``Solid``, ``Ground``, ``Terrain``, ``Walls``, ``Blocks`` ... (Arcade's ``layer_options``,
    the pytmx/pyscroll demos and most tutorials name the layer they collide with) -> SOLID;
    ``one-way``, ``jumpthrough``, ``semisolid`` -> ONE_WAY; ``Platform(s)`` -> ``platform``
    (a tile layer of platforms is ground, an object of class platform is one-way); else None."""
    low = name.lower()
    squeezed = re.sub(r"[^a-z]", "", low)
    if any(w in squeezed for w in ONE_WAY_WORDS):
        return ONE_WAY
    words = re.findall(r"[a-z]+", low)
    if any(w in BACKDROP_WORDS for w in words):  # "ground_bg", "walls back": scenery
        return None
    if squeezed in ("platform", "platforms") or any(w in ("platform", "platforms") for w in words):
        return platform
    if squeezed in SOLID_WORDS or any(w in SOLID_WORDS for w in words):
        return SOLID
    return None


def layer_name(name: str) -> int | None:
    """A tile layer's name as a mark (see :func:`name_kind`); a one-way name gives one-way."""
    return name_kind(name)


def collision_object(layer_name: str, obj: ET.Element, props: Mapping[str, str]) -> int | None:
    """An object used as collision: in an object layer named like :func:`name_kind` (Tuxemon,
    Arcade and tutorial maps), or of a type/class saying solid/collision/wall/platform, or a
    Box2D-style body (``bodyType`` = ``static``, as Phaser and libGDX loaders read), or with a
    bool ``collides``/``solid`` property. SOLID, ONE_WAY or None."""
    label = f"{obj.get('name', '')} {obj.get('type') or obj.get('class') or ''}".lower()
    if any(w in label for w in START_WORDS) or "goal" in label:
        return None
    own = name_kind(obj.get("type") or obj.get("class") or "", platform=ONE_WAY)
    if own is not None:
        return own
    if props.get("bodyType", "").lower() == "static" or any(
            _true(props.get(n)) for n in ("collides", "solid", "collision")):
        return SOLID
    if any(_true(props.get(n)) for n in ONE_WAY_PROPERTIES):
        return ONE_WAY
    return name_kind(layer_name)


# --- running them ------------------------------------------------------------------------------

def object_elements(root: ET.Element) -> Iterator[tuple[str, ET.Element, float, float]]:
    """(layer name, object, x offset, y offset) of every object of the map's object layers
    (groups' and layers' offsets added), not the shapes inside tilesets."""
    def walk(el: ET.Element, ox: float, oy: float):
        for child in el:
            dx = ox + float(child.get("offsetx", 0))
            dy = oy + float(child.get("offsety", 0))
            if child.tag == "group":
                yield from walk(child, dx, dy)
            elif child.tag == "objectgroup":
                for obj in child.findall("object"):
                    yield child.get("name", ""), obj, dx, dy
    return walk(root, 0.0, 0.0)


def string_properties(el: ET.Element) -> dict[str, str]:
    props = el.find("properties")
    if props is None:
        return {}
    return {p.get("name", ""): p.get("value", p.text or "") for p in props.findall("property")}


def ground_layer(layers: list[LayerFacts]) -> int | None:
    """The last resort, on a map that marks no collision and says nowhere where the player
    starts (so that otherwise there is nowhere to stand): the tile layer most likely to be the
    ground. That is the opaque, visible layer with the most tiles, not filling every cell and not
    named like scenery (``background``, ``sky``, ``details`` ...); failing that, the same named
    like scenery; then a layer filling every cell (a picture of the level: see
    :func:`open_space`). Its index, or None."""
    def scenery(name: str) -> bool:
        return any(w in BACKDROP_WORDS for w in re.findall(r"[a-z]+", name.lower()))
    for full_ok, named_ok in ((False, True), (False, False), (True, True), (True, False)):
        best = [(f.filled, i) for i, f in enumerate(layers)
                if f.opaque and f.filled and (full_ok or f.filled < f.cells)
                and not (named_ok and scenery(f.name))]
        if best:
            return max(best)[1]
    return None


OPEN_SHARE = 0.15  # in a layer filling every cell, a tile this common is taken as open space


def open_space(facts: LayerFacts) -> set[int]:
    """A ground layer that fills every cell is a picture of the whole level (maps converted from
    images, as melonJS's jamesbowman examples): its sky and backdrop are tiles too. The tiles
    covering at least OPEN_SHARE of its cells are taken as open space."""
    return {gid for gid, count in facts.common if count >= OPEN_SHARE * facts.cells}


def _open_full_layers(path: Path, layers: list[LayerFacts], marks: Marks) -> None:
    for i, (facts, mode) in enumerate(zip(layers, marks.layers)):
        if isinstance(mode, TileMark) and facts.common:
            air = open_space(facts)
            if air:
                marks.open_space[i] = air
                marks.notes.append(f"{path}: tile layer {facts.name!r} fills every cell, so its "
                                   f"{len(air)} most common tile{'s are' if len(air) > 1 else ' is'}"
                                   " taken as open space (sky), the rest as solid; mark collision "
                                   "in Tiled to choose")


def read_marks(path: Path, root: ET.Element, layers: list[LayerFacts],
               tile_marks: dict[int, TileMark], native: bool, tile_of=lambda _gid: None) -> Marks:
    """Decide, for a map not marked with the game's own property, which conventions make its
    collision. ``layers`` are the tile layers' (name, properties) in file order;
    ``tile_marks`` the placed tiles' marks by :func:`tile_property` and :func:`tile_shapes`."""
    marks = Marks(native, tile_marks)
    if native:
        marks.layers = ["tiles"] * len(layers)
        return marks
    by_property = [layer_property(f.properties) for f in layers]
    said = []
    if tile_marks or any(k == SOLID for k in by_property):
        marks.layers = [None if k == EMPTY else TileMark(SOLID, LAYER_PROPERTY) if k == SOLID
                        else "tiles" for k in by_property]
        # Flame Leap (Super Dash): every tile of the layer named Ground is solid, but for those
        # whose class says otherwise (Platform: one-way, Slope, Hazard). So where tiles are
        # marked by their class alone, a layer named like ground is ground for its unmarked
        # tiles. (Tiles marked by a bool property, Phaser's way, mark the layer's solid ones.)
        by_class = tile_marks and all(m.by_class for m in tile_marks.values())
        grounds = [i for i, (f, m) in enumerate(zip(layers, marks.layers))
                   if by_class and m == "tiles" and layer_name(f.name) == SOLID]
        for i in grounds:
            marks.layers[i] = ("tiles", TileMark(SOLID, LAYER_NAME))
        if grounds:
            said.append("the name of tile layer" + ("s " if len(grounds) > 1 else " ")
                        + ", ".join(repr(layers[i].name) for i in grounds)
                        + " (its tiles without a mark of their own)")
        used = {m.source for m in tile_marks.values()}
        if TILE_PROPERTY in used:
            said.append("tile properties (collides, solid, ...)")
        if TILE_SHAPE in used:
            said.append("the tiles' collision shapes (Tiled's Tile Collision Editor)")
        named = [f.name for f, k in zip(layers, by_property) if k == SOLID]
        if named:
            said.append("the property of tile layer" + ("s " if len(named) > 1 else " ")
                        + ", ".join(repr(n) for n in named))
    else:
        by_name = [None if k == EMPTY else layer_name(f.name) for f, k in zip(layers, by_property)]
        if any(by_name):
            marks.layers = [TileMark(k, LAYER_NAME) if k else None for k in by_name]
            named = [f.name for f, k in zip(layers, by_name) if k]
            said.append("the name of tile layer" + ("s " if len(named) > 1 else " ")
                        + ", ".join(repr(n) for n in named))
        elif EMPTY in by_property:  # Flixel: every layer without nocollide collides
            marks.layers = [None if k == EMPTY else TileMark(SOLID, LAYER_PROPERTY)
                            for k in by_property]
            said.append("Flixel's convention (every tile layer without 'nocollide' collides)")
        else:
            marks.layers = [None] * len(layers)
    _read_objects(root, marks, tile_of)
    _open_full_layers(path, layers, marks)
    if not said and not marks.objects and not _has_start(root):
        guess = ground_layer(layers)
        if guess is not None:
            marks.layers[guess] = TileMark(SOLID, LAYER_NAME)
            marks.notes.append(f"{path}: no collision marks and no start object, so the tile layer "
                               f"{layers[guess].name!r} (the opaque layer with the most tiles, not "
                               "named like scenery) is taken as the ground; mark collision in "
                               "Tiled to choose (docs/levels.md, 'Bringing your own map')")
            _open_full_layers(path, layers, marks)
            return marks
    if marks.objects:
        said.append(f"{len(marks.objects)} collision object{'s' if len(marks.objects) > 1 else ''}"
                    " (rectangles exact; polygons and polylines cell by cell: see docs/levels.md)")
    if said:
        marks.notes.append(f"{path}: collision read from " + "; ".join(said) + " (the map has no "
                           "tile property 'collision'; give tiles that property to decide "
                           "yourself)")
    else:
        marks.notes.append(f"{path}: no collision marks found, so nothing is solid; in Tiled give "
                           "solid tiles the bool property 'collides' (or this game's 'collision' "
                           "= solid), or name the tile layer to stand on 'Collision'")
    return marks


def tile_object(obj: ET.Element, box: Shape, tile_of) -> tuple[int, Shape] | None:
    """A tile object (Insert Tile) collides as its tile is marked (1 or 2 above; pytmx's test
    track places its ``block``/``slope`` tiles this way): (kind, shape in the map) or None.
    ``tile_of(gid)`` gives the tile's mark, its picture's size and whether its tileset keeps a
    picture's shape (Tiled 1.9's preserve-aspect-fit); the shape is scaled to the object as the
    picture is: stretched, or scaled alike both ways and centred."""
    found = tile_of(int(obj.get("gid")))
    if found is None:
        return None
    mark, size, fit = found
    x0, y0, x1, y1 = box.bounds()
    if obj.get("rotation", "0") not in ("0", "0.0") or (mark.shapes is None and not fit):
        return mark.kind, box  # turned, or the whole picture filling the object
    sx, sy, dx, dy = fit_into(size, (x1 - x0, y1 - y0), fit)
    # its first shape (objects carry one), or its whole picture
    shape = mark.shapes[0] if mark.shapes is not None else rect_shape(0, 0, *size)
    return mark.kind, Shape(tuple((x0 + dx + px * sx, y0 + dy + py * sy)
                                  for px, py in shape.points), shape.closed)


def _has_start(root: ET.Element) -> bool:
    return any(any(w in f"{o.get('name', '')} {o.get('type') or o.get('class') or ''}".lower()
                   for w in START_WORDS) for _l, o, _x, _y in object_elements(root))


def _read_objects(root: ET.Element, marks: Marks, tile_of) -> None:
    for layer, obj, ox, oy in object_elements(root):
        props = string_properties(obj)
        kind = collision_object(layer, obj, props)
        shape = shape_of(obj)
        if kind is None and shape is not None and obj.get("gid"):
            found = tile_object(obj, shape, tile_of)
            if found is not None:
                kind, shape = found
        if kind is None or (kind == ONE_WAY and "path" in props):
            continue  # a platform with a path is the game's moving platform
        if shape is None:
            continue
        if kind == ONE_WAY and obj.get("id"):
            marks.one_way_objects.add(int(obj.get("id")))
        label = f"object {obj.get('name') or ''} (id {obj.get('id', '?')})".replace("  ", " ")
        marks.objects.append((shape.moved(ox, oy), kind, label))
