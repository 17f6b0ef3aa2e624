"""How a map says what collides: the conventions, each one small function over the map's model
(``game.maps.model``) that says what it reads and which engines use it.

Maps made with this game mark collision with the tile property ``collision`` (``solid``,
``one_way``, ``slope``); such a map is read by that alone, and nothing is guessed. A map made
for another engine is read in this order, the first that finds anything deciding:

0. what the **author declared** (:class:`Declared`: ``--solid-layer``, ``--one-way-layer``,
   ``--solid-property``, ``--one-way-property`` on the command line, the same keys in
   config.toml's ``[map]`` table, or as map properties ``solid_layers``... of the map itself):
   read alone, nothing guessed;
1. **tile properties and classes**: a bool tile property ``collides``, ``solid``, ...; one-way
   ones; a slope's direction; a tile class ``Platform``, ``Solid``... (:func:`tile_property`,
   :func:`slope_property`);
2. **tile collision shapes** drawn in Tiled's Tile Collision Editor (:func:`tile_shapes`);
3. **layer properties**: a tile layer with a bool property ``collides``/``solid``/``collision``
   collides whole (:func:`layer_property`); Flixel's ``nocollide`` never collides;
4. **layer names** (:func:`layer_name`): a tile layer named ``Collision``, ``Solid``,
   ``Ground``, ``Platforms``, ``Walls``, ``nonpassable``... collides whole, as Python Arcade
   reads the layer it is told to use: its tiles' own shapes (2) or classes (1) refine it. Where
   tiles are marked by a bool property (Phaser's way), the property alone says which tiles of
   any layer collide; when only Flixel's ``nocollide`` marks layers, every other one collides;
   beside a layer named for collision outright (``collision``, ``geom``), layers named only
   like ground are art (:func:`_only_looks_like_ground`);
5. **object layers** (:func:`collision_object`): objects in a layer named like 4, or whose
   class says solid, collision, wall... (or name, unless it also names a body, an item or a
   hazard), or with Box2D's ``bodyType`` ``static``;
   ``platform``/``one-way`` ones are one-way. A tile object collides as its tile's properties
   say, never by its tile's collision shapes: those are a sprite's hitbox;
6. the last resort, on a map with no mark at all and no start object: its ground layer is
   guessed (:func:`ground_layer`), and the note names the option that says it instead.

Every inference is said in a ``note:`` line (:attr:`Marks.notes`), and each solid cell remembers
which convention made it (:data:`SOURCE_NAMES`) for the debug view. How shapes become cells is
``game.maps.shapes``; the grid is built from these marks by ``game.maps.collision``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from game.errors import UserError, quoted
from game.maps.grid import EMPTY, ONE_WAY, SOLID
from game.maps.model import MapModel, MapObject, ObjectLayer, TileLayer
from game.maps.objects import GAME_CLASSES  # the game's own objects never collide as walls
from game.maps.shapes import Shape, fit_into, outline, rect_shape, untangled

# What made a cell collide, by code (one code per cell; 0: nothing).
NATIVE, TILE_PROPERTY, TILE_SHAPE, LAYER_PROPERTY, LAYER_NAME, OBJECT, DECLARED = range(1, 8)
SOURCE_NAMES = ("", "the tile property 'collision'", "a tile property", "a tile collision shape",
                "a layer property", "the layer's name", "a collision object",
                "what the author declared (--solid-layer...)")

# Tile and layer properties (bool true) that say "collides" in other engines' maps, in several
# languages (French solide, Spanish/Italian/Portuguese solido, German fest...).
SOLID_PROPERTIES = ("collides", "collide", "collision", "collidable", "colliding", "solid",
                    "blocked", "block", "blocking", "wall", "obstacle", "impassable",
                    "nonpassable", "nopass", "solide", "solido", "sólido", "fest", "ground")
ONE_WAY_PROPERTIES = ("one_way", "oneway", "one-way", "jumpthrough", "jump_through", "platform",
                      "semisolid", "semi_solid", "passthrough", "pass_through", "cloud",
                      "onewayplatform", "one_way_platform", "isplatform", "is_platform",
                      "topsolid", "top_solid")
NO_COLLIDE = "nocollide"  # HaxeFlixel's TiledLevel example: a tile layer that never collides
# Properties saying a tile does *not* collide (its author marked it so), in the same words.
PASSABLE_PROPERTIES = ("passable", "walkable", "nocollide", "no_collision", "nocollision")
# Words in a layer's name (or an object's class or name) that say what it is.
SOLID_WORDS = {"collision", "collisions", "collide", "collider", "colliders", "collides", "solid",
               "solids", "ground", "grounds", "terrain", "wall", "walls", "block", "blocks",
               "blocked", "blocker", "blockers", "obstacle", "obstacles", "floor", "floors",
               "static", "nonpassable", "impassable", "unpassable", "solide", "solido",
               "solidos", "sol", "suelo", "boden", "mur", "murs", "pared", "paredes", "geom",
               "geometry"}
ONE_WAY_WORDS = ("oneway", "jumpthrough", "semisolid", "passthrough", "throughplatform")
# Of those, the words that say collision outright rather than what the tiles look like
# (``ground``, ``terrain``, ``floor``, ``walls``... may be a layer of art named after its tileset).
COLLISION_WORDS = {"collision", "collisions", "collide", "collider", "colliders", "collides",
                   "solid", "solids", "geom", "geometry", "nonpassable", "impassable",
                   "unpassable"}
START_WORDS = ("player", "spawn", "start", "hero")
# Words of another body's spawn point (an enemy's, an item's): never the player's start.
OTHERS = ("enemy", "enemies", "monster", "mob", "npc", "foe", "boss", "item", "coin", "pickup",
          "powerup", "checkpoint")
# Words of a hazard's name (``floor_spikes``, ``saw``): it hurts, it is not a wall to stand on.
HAZARD_WORDS = ("spike", "spikes", "saw", "saws", "trap", "traps", "hazard", "hazards", "lava",
                "damage", "thorn", "thorns")
# Words in a tile layer's name that say it is scenery (never guessed to be the ground).
BACKDROP_WORDS = ("background", "back", "bg", "sky", "parallax", "backdrop", "decor", "decoration",
                  "decorations", "details", "detail", "front", "overlay", "shadow", "shadows",
                  "water", "clouds", "foreground", "fg", "deco")


@dataclass(frozen=True)
class Declared:
    """What the author says of a map, so that nothing is guessed: the tile (or object) layers
    that are solid and one-way, the bool tile property that means solid and one-way (``name``,
    or ``name=value`` for a property that must hold that text), and the object the player starts
    at (by name or class). ``said[field]`` is where each was said, for notes."""

    solid_layers: tuple[str, ...] = ()
    one_way_layers: tuple[str, ...] = ()
    solid_property: str = ""
    one_way_property: str = ""
    start_object: str = ""
    said: Mapping[str, str] = field(default_factory=dict)

    @property
    def collision(self) -> bool:
        return bool(self.solid_layers or self.one_way_layers or self.solid_property
                    or self.one_way_property)


NOTHING_DECLARED = Declared()
# The map properties and options that say the same (docs/levels.md, "Bringing your own map").
OPTIONS = {"solid_layers": "--solid-layer", "one_way_layers": "--one-way-layer",
           "solid_property": "--solid-property", "one_way_property": "--one-way-property",
           "start_object": "--start-object"}


def declared_by_map(model: MapModel, given: Declared) -> Declared:
    """``given`` (the command line's and config.toml's) with the map's own properties of the
    same names where those say nothing: what the player says when running a map wins over what
    the map says of itself."""
    values: dict[str, Any] = {}
    said = dict(given.said)
    for name in OPTIONS:
        prop = model.properties.get(name)
        mine = getattr(given, name)
        if prop is None or mine:
            values[name] = mine
            continue
        if not isinstance(prop, str):
            raise UserError(model.path, f"map property {name} is {quoted(prop)}; make it a "
                            "string property (layer names apart by commas)")
        values[name] = (tuple(n.strip() for n in prop.split(",") if n.strip())
                        if name.endswith("layers") else prop.strip())
        said[name] = f"the map property {name}"
    return Declared(**values, said=said)


@dataclass(frozen=True)
class TileMark:
    """How one placed tile collides: ``kind`` over its whole picture, or its ``shapes``."""

    kind: int
    source: int
    shapes: tuple[Shape, ...] | None = None  # in px within the tile, flips applied
    heights: tuple[float, float] | None = None  # a slope's, by the game's own property
    by_class: bool = False  # made by the tile's class (Platform, Slope...), not a property


# How a tile layer collides: the marks of its tiles to use (None: none), and the mark of the
# tiles without one of their own (None: they do not collide). A layer left out is None.
LayerMode = tuple[Mapping[int, TileMark] | None, TileMark | None]


@dataclass
class Marks:
    """What the conventions found, for ``game.maps.collision`` to build the grid from."""

    native: bool
    tiles: dict[int, TileMark] = field(default_factory=dict)  # placed gid -> mark
    layers: list[LayerMode | None] = field(default_factory=list)  # per tile layer, file order
    objects: list[tuple[Shape, int, str]] = field(default_factory=list)  # shape, kind, label
    notes: list[str] = field(default_factory=list)
    one_way_objects: set[int] = field(default_factory=set)  # ids: not moving platforms
    collision_objects: set[int] = field(default_factory=set)  # ids of the objects read as walls
    open_space: dict[int, set[int]] = field(default_factory=dict)  # layer -> gids taken as air


# --- the conventions ---------------------------------------------------------------------------

def true(value) -> bool:
    """A property that says yes: a bool true, or the text or number 1/true/yes."""
    if isinstance(value, str):
        return value.strip().lower() in ("true", "1", "yes")
    return value is True or (type(value) in (int, float) and value == 1)


def _false(value) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in ("false", "0", "no")
    return value is False or (type(value) in (int, float) and value == 0)


def _prop(props: Mapping, name: str):
    """A property by name, however it is spelt: any case, with or without ``_`` and ``-``, and
    with ``is`` or ``has`` before it (``Solid``, ``isSolid``, ``one-way``, ``OneWay``,
    ``has_collision``)."""
    if name in props:
        return props[name]
    want = _squeezed(name)
    return next((v for k, v in props.items()
                 if _squeezed(k) in (want, "is" + want, "has" + want)), None)


def _squeezed(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


# A tile property ``slope`` naming its direction (pytmx's test track, several tutorials): the
# floor's rise as (left, right) fractions of the tile's height.
SLOPE_WORDS = {"forward": (0.0, 1.0), "up": (0.0, 1.0), "right": (0.0, 1.0), "/": (0.0, 1.0),
               "backward": (1.0, 0.0), "down": (1.0, 0.0), "left": (1.0, 0.0), "\\": (1.0, 0.0),
               "level": (1.0, 1.0), "flat": (1.0, 1.0)}
LEAP_SLOPE = ("LeftTop", "RightTop")


def slope_property(props: Mapping, kind: str, size: tuple[int, int]) -> tuple[Shape, ...] | None:
    """A tile property ``slope`` = ``forward``/``backward``/``level`` (or up/down, right/left,
    / and \\): the tile is solid under that floor line; or Flame Leap's (Super Dash) int
    properties ``LeftTop`` and ``RightTop`` on a tile of class ``Slope``: the floor's height in px
    above the tile's bottom at its left and right edges. Its shape, or None."""
    w, h = size
    rise = SLOPE_WORDS.get(str(props.get("slope") or "").strip().lower())
    if rise is None and _leap_slope(props, kind):
        rise = tuple(min(max(float(props[k]), 0.0), float(h)) / h for k in LEAP_SLOPE)
    if rise is None:
        return None
    return (Shape(((0.0, float(h)), (0.0, h * (1 - rise[0])), (float(w), h * (1 - rise[1])),
                   (float(w), float(h)))),)


def _leap_slope(props: Mapping, kind: str) -> bool:
    return (kind.strip().lower() == "slope"
            and all(type(props.get(k)) in (int, float) for k in LEAP_SLOPE))


# String properties that name a tile's kind the way a class does (LÖVE's platformer example:
# ``class`` = ``one_way``; lttp's colliders: ``type`` = ``solid``).
KIND_PROPERTIES = ("class", "type", "kind", "collision", "collider", "tiletype", "tile_type")


def tile_property(props: Mapping, kind: str) -> tuple[int, str] | None:
    """A tile's mark by its properties or class:

    * one-way: a bool ``one_way``, ``oneWay``, ``jumpthrough``, ``platform``... (any case), or a
      string property ``class``/``type``/``kind`` naming it (``one_way``, ``semisolid``). It is
      read first: a tile marked collidable and one-way is a one-way platform;
    * solid: a bool ``collides`` (Phaser's ``setCollisionByProperty({collides: true})``),
      ``solid``, ``collision`` (bool, not the game's string), ``collidable``, ``blocked``
      (pyscroll/Tuxemon style), and the same in other languages and spellings (``solide``,
      ``nonpassable``...), or a string ``class``/``type`` property naming it;
    * not colliding, as its author marked it: one of those false, or ``passable`` true;
    * else the tile's class (Flame's Super Dash: ``Platform``; others: ``Solid``, ``Ground``,
      ``Wall``) read like a layer's name (:func:`name_kind`, a platform being one-way).

    (kind, what said it) or None. What a class or a class-like property says is marked as such
    (``class ...``): it says what a tile is, not that it is the layer's only solid tile."""
    for name in ONE_WAY_PROPERTIES:
        if true(_prop(props, name)):
            return ONE_WAY, name
    named = {n: v for n in KIND_PROPERTIES if isinstance(v := _prop(props, n), str)}
    for name, value in named.items():
        if name_kind(value, platform=ONE_WAY) == ONE_WAY:
            return ONE_WAY, f"class {value}"
    for name in SOLID_PROPERTIES:
        if true(_prop(props, name)):
            return SOLID, name
    if any(_false(_prop(props, n)) for n in SOLID_PROPERTIES) or any(
            true(_prop(props, n)) for n in PASSABLE_PROPERTIES):
        return EMPTY, "a property saying it does not collide"
    for value in (*named.values(), kind):  # a class, or a property saying one
        found = name_kind(value, platform=ONE_WAY)
        if found is not None:
            return found, f"class {value}"
    return None


# Ladders (climbed by the player; a ladder's top cell is a floor from above: game.maps.grid).
LADDER_PROPERTIES = ("ladder", "climbable", "climb")
LADDER_WORDS = ("ladder", "climb")  # in a layer's name or a tile's class: Ladders, Climbables


def ladder_tile(props: Mapping, kind: str, native: bool) -> bool:
    """Is a tile a ladder? The game's own way: ``collision = "ladder"``. Another engine's map: a
    property ``ladder`` or ``climbable`` that says yes (any case or spelling, ``isLadder``), or a
    class (or ``class``/``type`` property) naming a ladder."""
    if native:
        return props.get("collision") == "ladder"
    if any(true(_prop(props, n)) for n in LADDER_PROPERTIES):
        return True
    named = [v for n in KIND_PROPERTIES if isinstance(v := _prop(props, n), str)]
    return any(ladder_name(v) for v in (*named, kind))


def ladder_name(name: str) -> bool:
    """Does a layer's name (or a class) say ladders: ``Ladders``, ``Ladder``, ``Climb``,
    ``climbables``, ``ladder_layer``... (Python Arcade's sample map has a ``Ladders`` layer)."""
    squeezed = re.sub(r"[^a-z]", "", name.lower())
    return any(w in squeezed for w in LADDER_WORDS)


def tile_shapes(shapes: tuple[Shape, ...] | None) -> tuple[Shape, ...] | None:
    """The tile's collision shapes from Tiled's Tile Collision Editor (an ``<objectgroup>``
    inside its ``<tile>``), as Python Arcade, Godot's YATI importer and libGDX's TmxMapLoader
    read them; the caller applies the placed tile's flips."""
    return shapes or None


def layer_property(props: Mapping) -> int | None:
    """A tile layer's own bool property saying it collides whole (``collides``, ``solid``,
    ``collision``: the layer-level flag of many pygame and Godot tutorials, and their spellings
    above), or Flixel's ``nocollide`` (HaxeFlixel's TiledLevel example) saying it never does:
    SOLID, ONE_WAY, EMPTY or None."""
    if true(_prop(props, NO_COLLIDE)):
        return EMPTY
    if any(true(_prop(props, name)) for name in SOLID_PROPERTIES):
        return SOLID
    if any(true(_prop(props, name)) for name in ONE_WAY_PROPERTIES):
        return ONE_WAY
    return None


# What a word of a name may end in without changing what it says (``groundlayer``, ``solidtiles``).
SUFFIXES = ("layers", "layer", "tiles", "tile", "map", "objects")


def words_of(name: str) -> list[str]:
    """A name's words, lower case: split at anything not a letter and where a capital follows a
    small letter (``platformsColliders``, ``GroundLayer``), each also without a suffix of
    :data:`SUFFIXES` (``collisionlayer``)."""
    words = re.findall(r"[a-z]+", re.sub(r"([a-z])([A-Z])", r"\1 \2", name).lower())
    return words + [w[:-len(s)] for w in words for s in SUFFIXES
                    if w.endswith(s) and len(w) > len(s)]


def name_kind(name: str, platform: int = SOLID) -> int | None:
    """What a layer's name (or an object's or tile's class) says it is, any case:
    ``Collision``, ``Solid``, ``Ground``, ``Terrain``, ``Walls``, ``Blocks``, ``nonpassable``
    ... (Arcade's ``layer_options``, the pytmx/pyscroll demos and most tutorials name the layer
    they collide with) -> SOLID; ``one-way``, ``jumpthrough``, ``semisolid`` -> ONE_WAY;
    ``Platform(s)`` -> ``platform`` (a tile layer of platforms is ground, an object of class
    platform is one-way); else None."""
    squeezed = re.sub(r"[^a-z]", "", name.lower())
    if any(w in squeezed for w in ONE_WAY_WORDS):
        return ONE_WAY
    words = words_of(name)
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


def is_start_like(o: MapObject) -> bool:
    label = f"{o.name} {o.kind}".lower()
    return any(w in label for w in START_WORDS)


def _named_other(name: str) -> bool:
    """Does an object's name say it is a body, an item or a hazard (``ground enemy``,
    ``coin_block``, ``floor_spikes``)?"""
    words = words_of(name)
    return any(w.startswith(x) for w in words for x in OTHERS) or any(
        w in HAZARD_WORDS for w in words)


def collision_object(layer: str, o: MapObject) -> int | None:
    """An object used as collision: in an object layer named like :func:`name_kind` (Tuxemon,
    Arcade and tutorial maps), or of a class saying solid/collision/wall/platform, or named so
    (pygame games read with pytmx pick objects by name: ``blocker``) unless its name also says
    it is a body, an item (:data:`OTHERS`) or a hazard (:data:`HAZARD_WORDS`), or a
    Box2D-style body (``bodyType`` = ``static``, as Phaser and libGDX loaders read, or a bool
    ``static``), or with a bool ``collides``/``solid`` property. SOLID, ONE_WAY or None."""
    if is_start_like(o) or "goal" in f"{o.name} {o.kind}".lower():
        return None
    own = name_kind(o.kind, platform=ONE_WAY)
    if own is not None:
        return own
    if o.name and not _named_other(o.name):  # pytmx users tell objects apart by name
        named = name_kind(o.name, platform=ONE_WAY)
        if named is not None:
            return named
    props = o.properties
    if str(_prop(props, "bodyType") or "").lower() == "static" or any(
            true(_prop(props, n)) for n in ("collides", "solid", "collision", "static")):
        return SOLID  # a bool static: a LÖVE/Box2D game's body that never moves (Silly Sam)
    if any(true(_prop(props, n)) for n in ONE_WAY_PROPERTIES):
        return ONE_WAY
    return name_kind(layer)


# --- running them ------------------------------------------------------------------------------

@dataclass(frozen=True)
class LayerFacts:
    """What the conventions look at in one tile layer."""

    name: str
    properties: Mapping
    filled: int  # cells with a tile
    cells: int
    opaque: bool  # visible and at full opacity
    common: tuple = ()  # a layer filling every cell: its most common (gid, count), most first
    visible: bool = True
    gids: Any = ()  # its cells, row by row (the model's TileLayer.cells)


def ground_layer(layers: list[LayerFacts]) -> int | None:
    """The last resort, on a map that marks no collision and says nowhere where the player
    starts (so that otherwise there is nowhere to stand): the tile layer most likely to be the
    ground. That is the opaque, visible layer with the most tiles, not filling every cell and not
    named like scenery (``background``, ``sky``, ``details`` ...); failing that, the same drawn
    see-through (ponytiled's demo draws its ``land`` at 80 %: a name saying scenery, ``water``,
    says more than a layer's opacity); then one named like scenery; then a layer filling every
    cell (a picture of the level: see :func:`open_space`). Its index, or None."""
    def scenery(name: str) -> bool:
        return any(w in BACKDROP_WORDS for w in words_of(name))
    for full_ok, named_ok, opaque in ((False, True, True), (False, True, False),
                                      (False, False, True), (True, True, True),
                                      (True, False, True)):
        best = [(f.filled, i) for i, f in enumerate(layers)
                if (f.opaque or (not opaque and f.visible)) and f.filled
                and (full_ok or f.filled < f.cells) and not (named_ok and scenery(f.name))]
        if best:
            return max(best)[1]
    return None


OPEN_SHARE = 0.15  # in a layer filling every cell, a tile this common is taken as open space


def open_space(facts: LayerFacts) -> set[int]:
    """A ground layer that fills every cell is a picture of the whole level (maps converted from
    images, as melonJS's jamesbowman examples): its sky and backdrop are tiles too. The tiles
    covering at least OPEN_SHARE of its cells are taken as open space."""
    return {gid for gid, count in facts.common if count >= OPEN_SHARE * facts.cells}


def _open_full_layers(path, layers: list[LayerFacts], marks: Marks) -> None:
    for i, (facts, mode) in enumerate(zip(layers, marks.layers)):
        if mode is not None and mode[0] is None and facts.common:
            air = open_space(facts)
            if air:
                marks.open_space[i] = air
                tiles = "tiles are" if len(air) > 1 else "tile is"
                marks.notes.append(f"{path}: tile layer {facts.name!r} fills every cell, so its "
                                   f"{len(air)} most common {tiles} taken as open space (sky), "
                                   "the rest as solid; mark collision in Tiled, or say it with "
                                   "--solid-layer, to choose")


def option_hint(layer: str | None) -> str:
    """The option, config key and map property that say which layer is the ground."""
    name = quoted(layer) if layer else "NAME"
    return (f"run with --solid-layer {name} (or set solid_layers = [{name}] in config.toml's "
            "[map] table, or give the map the property solid_layers; docs/levels.md, "
            "'Bringing your own map')")


def read_marks(model: MapModel, layers: list[LayerFacts], tile_marks: dict[int, TileMark],
               native: bool, tile_of, declared: Declared, has_start: bool) -> Marks:
    """Decide, for a map not marked with the game's own property, which conventions make its
    collision (see the module's docstring). ``layers`` are the tile layers' facts in file order;
    ``tile_marks`` the placed tiles' marks by :func:`tile_property` and :func:`tile_shapes`;
    ``tile_of(gid)`` a tile object's tile's mark (by its properties only)."""
    path = model.path
    marks = Marks(native, dict(tile_marks))
    own = marks.tiles
    if native:  # ``layers`` is not needed
        marks.layers = [(own, None)] * len(model.tile_layers)
        return marks
    if declared.collision:
        return _declared(model, layers, tile_marks, declared, marks)
    by_property = [layer_property(f.properties) for f in layers]
    said = []
    marked = any(m.kind != EMPTY for m in own.values()) or any(k in (SOLID, ONE_WAY)
                                                                 for k in by_property)
    if marked:
        marks.layers = [None if k == EMPTY else (None, TileMark(k, LAYER_PROPERTY))
                        if k is not None else (own, None) for k in by_property]
        # A layer named like ground collides whole, its tiles' own marks refining it: Python
        # Arcade's platforms layer (tiles' shapes only refine their hitboxes), Flame Leap's
        # Ground layer (its tiles' classes say Platform, Slope, Hazard). Tiles marked by a bool
        # property (Phaser's way) mark the layer's solid ones themselves.
        by_prop = any(m.source == TILE_PROPERTY and not m.by_class for m in own.values())
        grounds = [i for i, (f, m) in enumerate(zip(layers, marks.layers))
                   if not by_prop and m == (own, None) and layer_name(f.name) is not None]
        for i in grounds:
            marks.layers[i] = (own, TileMark(layer_name(layers[i].name), LAYER_NAME))
        if grounds:
            said.append("the name of tile layer" + ("s " if len(grounds) > 1 else " ")
                        + ", ".join(repr(layers[i].name) for i in grounds)
                        + " (its tiles without a mark of their own)")
        used = {m.source for m in own.values() if m.kind != EMPTY}
        if TILE_PROPERTY in used:
            said.append("tile properties (collides, solid, ...)")
        if TILE_SHAPE in used:
            said.append("the tiles' collision shapes (Tiled's Tile Collision Editor)")
        named = [f.name for f, k in zip(layers, by_property) if k in (SOLID, ONE_WAY)]
        if named:
            said.append("the property of tile layer" + ("s " if len(named) > 1 else " ")
                        + ", ".join(repr(n) for n in named))
    else:
        by_name = [None if k == EMPTY else layer_name(f.name) for f, k in zip(layers, by_property)]
        looks = _only_looks_like_ground(model, layers, by_name)
        if looks:
            by_name = [None if i in looks else k for i, k in enumerate(by_name)]
            named = ", ".join(dict.fromkeys(repr(layers[i].name) for i in looks))
            many = len(looks) > 1
            marks.notes.append(f"{path}: tile layer{'s' if many else ''} {named} only "
                               f"look{'' if many else 's'} like ground: the map has a layer "
                               "named for collision, so that is its collision (to say "
                               f"otherwise, run with --solid-layer {quoted(layers[looks[0]].name)}"
                               ")")
        if any(by_name):
            marks.layers = [(None, TileMark(k, LAYER_NAME)) if k else None for k in by_name]
            named = [f.name for f, k in zip(layers, by_name) if k]
            said.append("the name of tile layer" + ("s " if len(named) > 1 else " ")
                        + ", ".join(repr(n) for n in named))
        elif EMPTY in by_property:  # Flixel: every layer without nocollide collides
            marks.layers = [None if k == EMPTY else (None, TileMark(SOLID, LAYER_PROPERTY))
                            for k in by_property]
            said.append("Flixel's convention (every tile layer without 'nocollide' collides)")
        else:
            marks.layers = [None] * len(layers)
    _read_objects(model, marks, tile_of)
    _open_full_layers(path, layers, marks)
    guess = ground_layer(layers)
    if not said and not marks.objects and not has_start:
        if guess is not None:
            marks.layers[guess] = (None, TileMark(SOLID, LAYER_NAME))
            marks.notes.append(f"{path}: no collision marks and no start object, so the tile layer "
                               f"{layers[guess].name!r} (the layer with the most tiles, not "
                               "named like scenery where one is not) is taken as the ground; to "
                               f"say which layer is, {option_hint(layers[guess].name)}")
            _open_full_layers(path, layers, marks)
            return marks
    if marks.objects:
        said.append(f"{len(marks.objects)} collision object{'s' if len(marks.objects) > 1 else ''}"
                    " (rectangles exact; polygons and polylines cell by cell: see docs/levels.md)")
    if said:
        marks.notes.append(f"{path}: collision read from " + "; ".join(said) + " (the map has no "
                           "tile property 'collision'; give tiles that property, or say it "
                           "with --solid-layer or --solid-property, to decide yourself)")
    else:
        hint = option_hint(layers[guess].name if guess is not None else None)
        marks.notes.append(f"{path}: no collision marks found, so nothing is solid; to say "
                           f"which tile layer is the ground, {hint} (or in Tiled give solid "
                           "tiles the bool property 'collides')")
    return marks


def _only_looks_like_ground(model: MapModel, layers: list[LayerFacts],
                            by_name: list[int | None]) -> list[int]:
    """The tile layers whose names say only what their tiles look like (``forest-ground``,
    ``Terrain``: no word of :data:`COLLISION_WORDS`, no platform or one-way word), on a map with
    a layer named for collision outright (``collision``, ``Solid``, ``geom``: an object layer
    with objects, or a tile layer with tiles) lying over at least :data:`REDRAWN_SHARE` of their
    tiles: its author drew the collision there, and the ground-looking layers are its art
    (tilnewman/platformer's ``forest-ground`` holds trees and grass tufts above its
    ``collision`` rectangles). Their indexes."""
    def outright(name: str) -> bool:
        return any(w in COLLISION_WORDS for w in words_of(name))
    explicit = any(outright(f.name) for f, k in zip(layers, by_name)
                   if k is not None and f.filled) or any(
        isinstance(la, ObjectLayer) and la.objects and outright(la.name) for la in model.layers)
    if not explicit:
        return []
    plain = ("platform", "platforms")
    looks = [i for i, (f, k) in enumerate(zip(layers, by_name))
             if k == SOLID and not outright(f.name) and not any(w in plain
                                                               for w in words_of(f.name))]
    # Only where the collision layers lie over the ground-looking tiles (the author redrew the
    # ground there); a few extra blockers beside a real 'Ground' layer leave it the ground.
    under = _cells_under(model, [la for la in model.layers if la.name and outright(la.name)])
    filled = [{j for j, gid in enumerate(layers[i].gids) if gid} for i in looks]
    total = sum(len(cells) for cells in filled)
    covered = sum(len(cells & under) for cells in filled)
    return looks if total and covered >= REDRAWN_SHARE * total else []


REDRAWN_SHARE = 1 / 3  # of the ground-looking tiles under the collision layers: ground redrawn


def _cells_under(model: MapModel, named: list) -> set[int]:
    """The cells (row * cols + col) the collision layers ``named`` cover: a tile layer's
    tiles, an object layer's objects' boxes."""
    cols, rows, tw, th = model.cols, model.rows, model.tile_w, model.tile_h
    cells: set[int] = set()
    for la in named:
        if isinstance(la, ObjectLayer):
            for o in la.objects:
                shape = outline(o)
                if shape is None:
                    continue
                x0, y0, x1, y1 = shape.bounds()
                for r in range(max(0, math.floor(y0 / th)), min(rows, math.ceil(y1 / th))):
                    cells.update(r * cols + c for c in range(max(0, math.floor(x0 / tw)),
                                                             min(cols, math.ceil(x1 / tw))))
        elif isinstance(la, TileLayer):
            cells.update(j for j, gid in enumerate(la.cells) if gid)
    return cells


def _declared(model: MapModel, layers: list[LayerFacts], tile_marks: dict[int, TileMark],
              declared: Declared, marks: Marks) -> Marks:
    """The collision the author declared, alone: the named tile layers collide whole (their
    tiles' collision shapes refining them), the named object layers' objects are solid, and the
    tiles with the named property."""
    path = model.path
    names = {f.name for f in layers} | {la.name for la in model.layers
                                        if isinstance(la, ObjectLayer)}
    for field_name in ("solid_layers", "one_way_layers"):
        for name in getattr(declared, field_name):
            if name not in names:
                known = ", ".join(sorted(repr(n) for n in names)) or "none"
                raise UserError(path, f"{declared.said.get(field_name, field_name)} names layer "
                                f"{quoted(name)}, which the map does not have (its layers: "
                                f"{known})")
    marks.tiles = {g: m for g, m in tile_marks.items() if m.source == DECLARED}
    refine = {g: m for g, m in tile_marks.items() if m.source == TILE_SHAPE}
    inside = {**refine, **marks.tiles}  # in a declared layer, the tiles' shapes refine it
    marks.layers = []
    for f in layers:
        if f.name in declared.solid_layers:
            marks.layers.append((inside, TileMark(SOLID, DECLARED)))
        elif f.name in declared.one_way_layers:
            marks.layers.append((inside, TileMark(ONE_WAY, DECLARED)))
        else:
            marks.layers.append((marks.tiles, None) if marks.tiles else None)
    for layer in model.layers:
        if isinstance(layer, ObjectLayer) and (layer.name in declared.solid_layers
                                              or layer.name in declared.one_way_layers):
            kind = SOLID if layer.name in declared.solid_layers else ONE_WAY
            for o in layer.objects:
                if is_start_like(o):
                    continue
                shape = outline(o)
                if shape is not None:
                    marks.objects.append((shape, kind, _label(o)))
                    marks.collision_objects.add(o.id)
                    if kind == ONE_WAY:
                        marks.one_way_objects.add(o.id)
    said = [f"{', '.join(repr(n) for n in getattr(declared, k))} "
            f"({declared.said.get(k, k)})" for k in ("solid_layers", "one_way_layers")
            if getattr(declared, k)]
    said += [f"tiles with {getattr(declared, k)} ({declared.said.get(k, k)})"
             for k in ("solid_property", "one_way_property") if getattr(declared, k)]
    marks.notes.append(f"{path}: collision as declared: " + "; ".join(said))
    return marks


def declared_tile(props: Mapping, declared: Declared) -> int | None:
    """A tile's kind by the declared properties, or None."""
    for name, kind in ((declared.solid_property, SOLID), (declared.one_way_property, ONE_WAY)):
        if not name:
            continue
        key, _, want = name.partition("=")
        value = _prop(props, key.strip())
        if (want and value is not None and str(value).strip().lower() == want.strip().lower()) \
                or (not want and true(value)):
            return kind
    return None


def check_declared_properties(model: MapModel, declared: Declared) -> None:
    """A declared property no tile of the map has is surely a typo: one error line."""
    for field_name in ("solid_property", "one_way_property"):
        name = getattr(declared, field_name)
        if not name:
            continue
        key = name.partition("=")[0].strip().lower()
        have = {k for ts in model.tilesets for t in ts.tiles.values() for k in t.properties}
        if key not in {k.lower() for k in have}:
            known = ", ".join(sorted(repr(k) for k in have)[:12]) or "none"
            raise UserError(model.path, f"{declared.said.get(field_name, field_name)} names the "
                            f"tile property {quoted(name.partition('=')[0].strip())}, which no "
                            f"tile of the map has (the tiles' properties: {known})")


def tile_object(o: MapObject, box: Shape, tile_of) -> tuple[int, Shape] | None:
    """A tile object (Insert Tile) collides as its tile's properties mark it (pytmx's test
    track places its ``block``/``slope`` tiles this way): (kind, shape in the map) or None. Its
    tile's collision shapes are not read: on a tile object they are a sprite's hitbox."""
    found = tile_of(o.gid)
    if found is None:
        return None
    mark, size, fit = found
    x0, y0, x1, y1 = box.bounds()
    if o.rotation or (mark.shapes is None and not fit):
        return mark.kind, box  # turned, or the whole picture filling the object
    sx, sy, dx, dy = fit_into(size, (x1 - x0, y1 - y0), fit)
    shape = mark.shapes[0] if mark.shapes is not None else rect_shape(0, 0, *size)
    return mark.kind, Shape(tuple((x0 + dx + px * sx, y0 + dy + py * sy)
                                  for px, py in shape.points), shape.closed)


def _label(o: MapObject) -> str:
    return f"object {o.name} (id {o.id})" if o.name else f"object (id {o.id})"


def _read_objects(model: MapModel, marks: Marks, tile_of) -> None:
    for layer in model.layers:
        if not isinstance(layer, ObjectLayer):
            continue
        for o in layer.objects:
            if o.kind in GAME_CLASSES and o.kind != "platform":
                continue
            kind = collision_object(layer.name, o)
            shape = outline(o)
            if kind is None and shape is not None and o.gid and not is_start_like(o):
                found = tile_object(o, shape, tile_of)
                if found is not None:
                    kind, shape = found
            if kind is None or kind == EMPTY or (kind == ONE_WAY and "path" in o.properties):
                continue  # a platform with a path is the game's moving platform
            if shape is None:
                continue
            shape, tangled = untangled(shape)
            if tangled:
                marks.notes.append(f"{model.path}: the collision polygon of {_label(o)} crosses "
                                   "itself, so it is read as the outline around it (redraw it so "
                                   "that its sides do not cross)")
            if kind == ONE_WAY:
                marks.one_way_objects.add(o.id)
            marks.objects.append((shape, kind, _label(o)))
            marks.collision_objects.add(o.id)

