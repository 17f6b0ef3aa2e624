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
   like ground are art (``game.maps.marks``);
5. **object layers** (:func:`collision_object`): objects in a layer named like 4, or whose
   class says solid, collision, wall... (or name, unless it also names a body, an item or a
   hazard), or with Box2D's ``bodyType`` ``static``;
   ``platform``/``one-way`` ones are one-way. A tile object collides as its tile's properties
   say, never by its tile's collision shapes: those are a sprite's hitbox;
6. the last resort, on a map with no mark at all and no start object: its ground layer is
   guessed (``game.maps.marks.ground_layer``), and the note names the option that says it instead.

Every inference is said in a ``note:`` line (``game.maps.marks.Marks.notes``), and each solid cell remembers
which convention made it (:data:`SOURCE_NAMES`) for the debug view. How shapes become cells is
``game.maps.shapes``; the grid is built from these marks by ``game.maps.collision``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from game.errors import UserError, quoted
from game.maps.grid import EMPTY, ONE_WAY, SOLID
from game.maps.model import MapModel, MapObject
from game.maps.shapes import Shape

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
               "geometry", "bloco", "blocos", "bloque", "bloques"}
ONE_WAY_WORDS = ("oneway", "jumpthrough", "semisolid", "passthrough", "throughplatform")
# Of those, the words that say collision outright rather than what the tiles look like
# (``ground``, ``terrain``, ``floor``, ``walls``... may be a layer of art named after its tileset).
COLLISION_WORDS = {"collision", "collisions", "collide", "collider", "colliders", "collides",
                   "solid", "solids", "geom", "geometry", "nonpassable", "impassable",
                   "unpassable"}
START_WORDS = ("player", "spawn", "start", "hero")
# Whole words saying the way into the level (``enter``, ``LevelBeginDoor``).
START_ENTRY = ("enter", "entrance", "entry", "begin")
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
    """Does the object's name or class, or the name of one of its true boolean properties
    (``LevelBeginDoor = true``), say it is the player's start (never a wall)?"""
    flags = " ".join(str(k) for k, v in o.properties.items() if v is True)
    label = f"{o.name} {o.kind} {flags}"
    return any(w in label.lower() for w in START_WORDS) or any(
        w in START_ENTRY for w in words_of(label))


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



def scenery(name: str) -> bool:
    """Does a tile layer's name say scenery (``Background1``, ``Static Foreground``, ``sky``)?"""
    return any(w in BACKDROP_WORDS for w in words_of(name))


def option_hint(layer: str | None) -> str:
    """The option, config key and map property that say which layer is the ground."""
    name = quoted(layer) if layer else "NAME"
    return (f"run with --solid-layer {name} (or set solid_layers = [{name}] in config.toml's "
            "[map] table, or give the map the property solid_layers; docs/levels.md, "
            "'Bringing your own map')")


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
