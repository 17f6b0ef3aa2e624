"""What stopped real platformer maps from playing (issue 30), each cause fixed as a rule and held
here on a real public map that shows it (tests/data/real_maps) or on a small map made for it;
what an author using this game's own kit is told; and what the author can say on the command
line, in config.toml's [map] table or as map properties when the game cannot guess."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest

from game import resolvers
from game.cli import main
from game.config import Config
from game.errors import UserError
from game.maps.conventions import LAYER_NAME, Declared
from game.maps.grid import ONE_WAY, SOLID, overlapping_tiles
from game.maps.level import load_level, read_map
from game.sim.inputs import InputFrame
from game.sim.world import load_world
from test_conventions import FLOOR, SPAWN, kinds, layer, noted, prop, tile_props, tileset, write

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "data" / "real_maps"
MANIFEST = tomllib.loads((CORPUS / "manifest.toml").read_text("utf-8"))["map"]


def real(key: str) -> Path:
    return CORPUS / MANIFEST[key]["path"]


def stands(path: Path, cfg: Config = Config(), resolver: str = "axis", seconds: int = 1):
    """The world after ``seconds`` of standing still: (world, its notes)."""
    notes: list[str] = []
    world = load_world(path, cfg, resolvers.create(resolver), notes=notes.append)
    for _ in range(60 * seconds):
        world.step(InputFrame())
    return world, notes


# --- 1. the game's own object rules, for the game's own objects only --------------------------

def test_several_objects_named_spawn_on_a_real_map_start_at_the_first():
    """Fish Game (macroquad): five objects named spawn are its players' start points. The
    game's rule 'exactly one spawn' is its own maps'; this one starts at the first, said."""
    level = load_level(real("fishgame"), declared=Declared(solid_layers=("main layer",)))
    (o,) = [o for o in read_map(real("fishgame"))[1].objects if o.id == 1]
    assert level.spawn.x + level.spawn.w / 2 == pytest.approx(o.x)
    noted(level, "object 'spawn' (id 1)", "of 5 start-like objects, the first")


def test_other_bodies_spawn_points_do_not_start_the_player(tmp_path):
    """A map whose enemies' spawn points are named spawn, and whose player is an object of its
    own: the player starts at the player's object, whatever comes first in the file."""
    objects = ('<object id="1" name="spawn" type="enemy" x="100" y="64"><point/></object>'
               '<object id="2" name="EnemySpawn" x="80" y="64"><point/></object>'
               '<object id="3" name="spawn" x="60" y="64"><point/></object>'
               '<object id="4" name="Player" x="24" y="64"><point/></object>')
    level = load_level(write(tmp_path, layers=layer(FLOOR, "ground"), objects=objects))
    assert level.spawn.x + level.spawn.w / 2 == 24
    noted(level, "object 'Player' (id 4)")


def test_another_engines_ellipse_coin_is_left_alone_with_a_note(tmp_path):
    """The game's coins are objects of class coin; a pickup of another engine's class Coin is
    that engine's business."""
    coin = ('<object id="5" name="c" type="Coin" x="40" y="40" width="8" height="8">'
            '<ellipse/></object>')
    level = load_level(write(tmp_path, layers=layer(FLOOR, "ground"), objects=SPAWN + coin))
    assert not level.features.coins
    noted(level, "left alone", "'Coin'")
    own = ('<object id="5" name="c" type="coin" x="40" y="40" width="8" height="8">'
           '<ellipse/></object>')
    (coin,) = load_level(write(tmp_path, layers=layer(FLOOR, "ground"), objects=SPAWN + own,
                               name="own.tmx")).features.coins
    assert (coin.box.x, coin.box.y, coin.box.w, coin.box.h) == (40, 40, 8, 8)


def test_a_coin_drawn_as_a_circle_is_its_box_on_a_real_love_map(tmp_path):
    """manuelsanchezweb/lua-love2d-platformer (LÖVE, STI) places its coins, of class coin, as
    ellipses of no size and reads each by its x, y: the game takes such a marker as a point, and
    an ellipse with a size by its box (it refused the map before)."""
    coins = "".join(f'<object id="{i}" name="Coin" type="coin" x="{16 * i}" y="40" width="16" '
                    'height="16"><ellipse/></object>' for i in (2, 3))
    level = load_level(write(tmp_path, layers=layer(FLOOR, "ground"), objects=SPAWN + coins))
    assert [(c.box.x, c.box.w) for c in level.features.coins] == [(32, 16), (48, 16)]
    marker = '<object id="4" name="Coin" type="coin" x="40" y="40"><ellipse/></object>'
    (coin,) = load_level(write(tmp_path, layers=layer(FLOOR, "ground"), objects=SPAWN + marker,
                               name="marker.tmx")).features.coins
    assert (coin.box.x + coin.box.w / 2, coin.box.y + coin.box.h) == (40, 40)  # as a point
    polygon = ('<object id="4" type="coin" x="40" y="40"><polygon points="0,0 8,0 8,8"/>'
               '</object>')
    with pytest.raises(UserError, match="is a polygon; make it a point"):
        load_level(write(tmp_path, layers=layer(FLOOR, "ground"), objects=SPAWN + polygon,
                         name="polygon.tmx"))


# --- 2. a sprite's hitbox is not ground -----------------------------------------------------

HITBOX = ('<tile id="0"><objectgroup draworder="index"><object id="1" x="3" y="2" width="10" '
          'height="14"/></objectgroup></tile>')


def test_a_tile_objects_collision_shape_is_not_ground_not_even_the_starts(tmp_path):
    """A player placed as a tile object whose tile has a hitbox drawn in the collision editor:
    the hitbox is the sprite's, not a wall, and the player stands on the floor under it (not
    on top of its own sprite)."""
    player = '<object id="1" name="Player" gid="1" x="24" y="64" width="16" height="16"/>'
    crate = '<object id="2" name="crate" gid="1" x="80" y="64" width="16" height="16"/>'
    path = write(tmp_path, layers=layer(FLOOR, "ground", gid=2), objects=player + crate,
                 tilesets=tileset(HITBOX))
    level = load_level(path)
    assert kinds(level)[3] == "........"  # neither sprite is a wall
    assert level.spawn.y + level.spawn.h == 64  # on the floor, where the sprite stands
    world, _ = stands(path)
    assert world.player.on_ground and world.player.y + world.player.h == 64


# --- 3. a platforms layer collides whole, its tiles' shapes refining it ------------------------

@pytest.mark.parametrize("key,cell", [("arcade-map2-level-1", (8, 9)),
                                      ("monogame-extended-platformer", (7, 7))])
def test_a_platforms_layer_collides_whole_where_a_few_tiles_carry_shapes(key, cell):
    """Python Arcade's convention: every tile of the Platforms layer is a wall, a tile's shapes
    only refine its hitbox. Arcade's own map and MonoGame.Extended's sample both have a few
    tiles with collision shapes; the plain ground tiles of the layer are solid all the same."""
    level = load_level(real(key), declared=Declared())
    c, r = cell
    assert level.grid.kind(c, r) == SOLID
    assert level.view.sources[r * level.grid.cols + c] == LAYER_NAME


# --- 4. vocabulary ---------------------------------------------------------------------------

def test_a_one_way_tile_in_another_spelling_on_a_real_map():
    """LÖVE's platformer marks its cloud platforms collidable and class = one_way (a string
    property of that name): one-way, not solid."""
    model = read_map(real("love-platformer-blue"))[1]
    level = load_level(real("love-platformer-blue"))
    one_way = {t for ts in model.tilesets for t, tile in ts.tiles.items()
               if tile.properties.get("class") == "one_way"}
    ground, *others = model.tile_layers
    placed = [i for i, g in enumerate(ground.cells)  # where no other layer places a tile
              if g and model.tile_of(g)[1] in one_way and not any(la.cells[i] for la in others)]
    assert len(placed) > 20 and all(level.grid.kinds[i] == ONE_WAY for i in placed)


@pytest.mark.parametrize("name", ["nonpassable", "Non-Passable", "impassable", "Murs",
                                  "GroundLayer", "collisionLayer", "platformsColliders",
                                  "solidtiles"])
def test_layer_names_in_other_words(tmp_path, name):
    level = load_level(write(tmp_path, layers=layer(FLOOR, name), objects=SPAWN))
    assert kinds(level)[4] == "########"
    noted(level, "the name of tile layer")


@pytest.mark.parametrize("name", ["BackgroundLayer", "groundBack", "backgroundlayer"])
def test_a_name_saying_scenery_is_not_ground(tmp_path, name):
    level = load_level(write(tmp_path, layers=layer(FLOOR, name), objects=SPAWN))
    assert kinds(level)[4] == "........"


@pytest.mark.parametrize("name", ["solide", "Solid", "isSolid", "oneWay", "OneWay"])
def test_tile_properties_in_other_spellings(tmp_path, name):
    level = load_level(write(tmp_path, layers=layer(FLOOR, "tiles"), objects=SPAWN,
                             tilesets=tileset(tile_props(prop(name)))))
    want = "========" if "way" in name.lower() else "########"
    assert kinds(level)[4] == want


def test_a_tile_its_author_marked_not_solid_stays_open_in_a_ground_layer(tmp_path):
    """Tiles marked by their class (Flame's way) leave the ground layer's other tiles solid;
    a tile whose author says solid = false is not made solid by that."""
    tiles = ('<tile id="0" type="Ground"/>'
             + tile_props(prop("solid", "false"), tile_id=1))
    rows = ["........", "........", "........", "........", "#######."]
    data = ",".join("1" if ch == "#" else "0" for row in rows for ch in row)
    data = data[:-1] + "2"  # the last cell: the tile marked not solid
    lay = (f'<layer id="1" name="Ground" width="8" height="5"><data encoding="csv">{data}'
           '</data></layer>')
    level = load_level(write(tmp_path, layers=lay, objects=SPAWN, tilesets=tileset(tiles)))
    assert kinds(level)[4] == "#######."


def test_objects_told_apart_by_name_on_a_real_map():
    """A pygame platformer read with pytmx names its walls 'blocker' (rectangles and polygons in
    an object layer named 'Objektebene 1'; its code picks objects by name): they are its ground,
    and the player stands on them from its Start object."""
    path = real("pygame-platformer")
    model = read_map(path)[1]
    blockers = [o for o in model.objects if o.name == "blocker" and o.shape == "rectangle"]
    level = load_level(path)
    g = level.grid
    for o in blockers:  # every cell inside a blocker rectangle is solid
        cols = range(int(o.x // g.tile_w), int((o.x + o.w) // g.tile_w))
        rows = range(int(o.y // g.tile_h), int((o.y + o.h) // g.tile_h))
        assert all(g.kind(c, r) == SOLID for c in cols for r in rows), o
    noted(level, "collision objects")
    world, _ = stands(path)
    assert world.player.on_ground and not world.player.respawning


def test_a_name_that_says_a_body_is_not_a_wall(tmp_path):
    """Named like ground but a body ('GroundEnemy', 'wall_item'): not collision."""
    objects = SPAWN + "".join(
        f'<object id="{i}" name="{n}" x="0" y="16" width="32" height="16"/>'
        for i, n in ((2, "GroundEnemy"), (3, "wall_item"), (4, "Walls")))
    level = load_level(write(tmp_path, layers=layer(FLOOR, "tiles"), objects=objects))
    assert kinds(level)[1] == "##......"  # the one named Walls
    assert kinds(level)[4] == "........"


# --- 5. sub-pixel slop ------------------------------------------------------------------------

def test_a_shape_half_a_pixel_outside_its_tile_is_snapped_to_the_grid(tmp_path):
    """A ground tile's collision box drawn from y = -0.5: the half pixel above the tile does
    not make the cell above solid ground (the player would stand 16 px above the ledge)."""
    shape = ('<tile id="0"><objectgroup draworder="index"><object id="1" x="-0.25" y="-0.5" '
             'width="16.5" height="16.5"/></objectgroup></tile>')
    level = load_level(write(tmp_path, layers=layer(FLOOR, "tiles"), objects=SPAWN,
                             tilesets=tileset(shape)))
    assert kinds(level)[3:] == ["........", "########"]
    world, _ = stands(write(tmp_path, layers=layer(FLOOR, "tiles"), objects=SPAWN,
                            tilesets=tileset(shape), name="again.tmx"))
    assert world.player.y + world.player.h == 64


# --- 6. an empty image layer -------------------------------------------------------------------

def test_an_empty_image_layer_as_tiled_writes_it_is_skipped(tmp_path):
    empty = '<imagelayer id="7" name="Image Layer 1"/>'
    level = load_level(write(tmp_path, layers=layer(FLOOR, "ground") + empty, objects=SPAWN))
    assert kinds(level)[4] == "########"
    assert not any("re-save" in n for n in level.notes)


# --- 7. an infinite map of objects only -------------------------------------------------------

def test_an_infinite_map_of_objects_only_is_sized_by_its_objects(tmp_path):
    """Its objects lie left of and above the map's nominal size: the grid is laid around them,
    and its start is inside the map."""
    objects = ('<object id="1" name="player" x="-200" y="-40"><point/></object>'
               '<object id="2" type="solid" x="-240" y="-40" width="160" height="16"/>')
    path = tmp_path / "objects.tmx"
    path.write_text('<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.10" '
                    'orientation="orthogonal" renderorder="right-down" width="30" height="20" '
                    'tilewidth="16" tileheight="16" infinite="1"><objectgroup id="1" name="o">'
                    f'{objects}</objectgroup></map>', "utf-8")
    level = load_level(path)
    g = level.grid
    assert (g.cols, g.rows) == (10, 2)  # tiles (-15, -3) to (-5, -1): every object's box
    assert 0 <= level.spawn.x and level.spawn.x + level.spawn.w <= g.width_px
    noted(level, "no tiles", "sized by its objects")
    world, _ = stands(path)
    assert world.player.on_ground


# --- 8. more engines' ways of saying it (maps tried after the issue) ---------------------------

def group(name: str, objects: str, group_id: int = 5) -> str:
    return f'<objectgroup id="{group_id}" name="{name}">{objects}</objectgroup>'


def test_the_one_object_of_a_layer_named_player_is_the_start(tmp_path):
    """GianniBuoni/pirate-platformer (Go) keeps its player, an unnamed templated tile object, in
    an object layer named 'player'. A layer that says more ('Player Death Zones', Arcade's) or a
    'spawn' layer of several objects does not make a start."""
    zones = group("Player Death Zones", '<object id="2" x="0" y="0" width="32" height="16"/>')
    spawns = group("spawns", '<object id="3" x="100" y="64"><point/></object>'
                             '<object id="4" x="110" y="64"><point/></object>', 6)
    player = group("player", '<object id="5" x="40" y="64"><point/></object>', 7)
    level = load_level(write(tmp_path, layers=layer(FLOOR, "ground") + zones + spawns + player))
    assert level.spawn.x + level.spawn.w / 2 == 40
    noted(level, "(id 5)")
    level = load_level(write(tmp_path, layers=layer(FLOOR, "ground") + zones + spawns,
                             name="none.tmx"))
    noted(level, "first solid ground from the left")


def test_an_object_whose_loader_property_says_player_is_the_start(tmp_path):
    """pirate-platformer's player template says what it is in a property, loader = "player"
    (its name 'fall' is its sprite's); the level keeps it among 50 other objects."""
    def obj(i: int, x: int, role: str, name: str = "role") -> str:
        return (f'<object id="{i}" name="fall" x="{x}" y="64"><properties><property '
                f'name="{name}" value="{role}"/></properties><point/></object>')
    objects = obj(2, 24, "crate") + obj(3, 40, "player", "loader") + obj(4, 56, "enemy")
    level = load_level(write(tmp_path, layers=layer(FLOOR, "ground"), objects=objects))
    assert level.spawn.x + level.spawn.w / 2 == 40
    aimed = obj(2, 24, "player", "target") + obj(3, 40, "enemy", "type")  # not what it is
    level = load_level(write(tmp_path, layers=layer(FLOOR, "ground"), objects=aimed,
                             name="aimed.tmx"))
    noted(level, "first solid ground from the left")


def test_a_tile_object_start_is_a_sprite_the_player_stands_under(tmp_path):
    """pirate-platformer's player is a 3 x 3 tile sprite (192 px a side, padding and all):
    not the body's box; the game's player stands at its bottom centre."""
    sprite = group("player", '<object id="5" gid="1" x="16" y="64" width="48" height="48"/>', 7)
    level = load_level(write(tmp_path, layers=layer(FLOOR, "ground") + sprite))
    s = level.spawn
    assert (s.w, s.h) == (12, 14) and (s.x + s.w / 2, s.y + s.h) == (40, 64)
    noted(level, "is a tile object", "bottom centre")
    drawn = [o for art in level.view.art.layers for o in getattr(art, "objects", ())]
    assert not drawn  # the game draws the player there, not the sprite standing still


def test_a_start_given_as_properties_in_tiles_or_px(tmp_path):
    """jimjergins/pygame-platformer-tiled puts its start in a layer 'Level_Properties':
    LevelStartX = 6, LevelStartY = 54, in tiles. Whole numbers inside the map's size in tiles
    are a cell (the feet at its bottom centre); others are px."""
    props = ('<properties><property name="LevelStartX" value="2"/>'
             '<property name="LevelStartY" value="3"/></properties>')
    level = load_level(write(tmp_path, layers=layer(FLOOR, "Blocks")
                             + layer(["........"] * 5, "Level_Properties", 0, 2, props)))
    assert (level.spawn.x + level.spawn.w / 2, level.spawn.y + level.spawn.h) == (40, 64)
    noted(level, "LevelStartX = 2", "column 2, row 3")
    in_px = ('<properties><property name="spawn_x" type="float" value="100"/>'
             '<property name="spawn_y" type="float" value="60.5"/></properties>')
    level = load_level(write(tmp_path, layers=layer(FLOOR, "Blocks"), map_props=in_px,
                             name="px.tmx"))
    assert (level.spawn.x + level.spawn.w / 2, level.spawn.y + level.spawn.h) == (100, 60.5)
    noted(level, "a point in px")


def test_the_last_resort_takes_a_see_through_ground_before_a_layer_named_water(tmp_path):
    """ponytiled's demo map (Solar2D) marks nothing: its 'land' is drawn at 80 % opacity, its
    'water' opaque with more tiles. The name says more than the opacity: 'land' is the ground."""
    water = layer(["........", "........", "........", "........", "########"], "water", 1, 1)
    land = layer(["........", "........", "...###..", "........", "........"], "land", 1, 2)
    land = land.replace('<layer id="2"', '<layer id="2" opacity="0.8"')
    level = load_level(write(tmp_path, layers=water + land))
    assert kinds(level)[2:] == ["...###..", "........", "........"]
    noted(level, "tile layer 'land'", "--solid-layer 'land'")


def test_a_turn_past_a_full_circle_is_the_same_turn(tmp_path):
    """Tiled keeps whatever rotation was typed or dragged: Silly Sam's maps (LÖVE) have
    391.098 and -365.908. They were refused; 391 is 31."""
    def grid_of(turn: str, name: str):
        wall = (f'<object id="2" name="rectangle" x="32" y="32" width="48" height="16" '
                f'rotation="{turn}"><properties><property name="static" type="bool" '
                'value="true"/></properties></object>')
        return kinds(load_level(write(tmp_path, layers=layer(FLOOR, "ground"),
                                      objects=SPAWN + wall, name=name)))
    assert grid_of("391", "a.tmx") == grid_of("31", "b.tmx")
    assert grid_of("-365.908", "c.tmx") == grid_of("-5.908", "d.tmx")
    with pytest.raises(UserError, match="rotation='1e300'"):
        grid_of("1e300", "e.tmx")


def test_a_static_body_is_ground_and_the_note_names_the_point_objects(tmp_path):
    """Silly Sam builds its ground from rectangles with a bool 'static' (a LÖVE physics body
    that never moves; 'static' false: a box that falls). Its avatar is a point named 'sam',
    which no rule can guess: the note lists the point objects to give to --start-object."""
    def rect(i: int, x: int, static: str) -> str:
        return (f'<object id="{i}" name="rectangle" x="{x}" y="64" width="32" height="16">'
                f'<properties><property name="static" type="bool" value="{static}"/>'
                '</properties></object>')
    objects = (rect(2, 0, "true") + rect(3, 64, "false")
               + '<object id="4" name="sam" x="16" y="64"><point/></object>')
    rows = ["........"] * 5
    level = load_level(write(tmp_path, layers=layer(rows, "tiles"), objects=objects))
    assert kinds(level)[4] == "##......"
    noted(level, "--start-object NAME (its point objects: 'sam')")
    world, _ = stands(write(tmp_path, layers=layer(rows, "tiles"), objects=objects,
                            name="again.tmx"),
                      replace(Config(), map=replace(Config().map, start_object="sam")))
    assert world.player.on_ground and world.player.x + world.player.w / 2 == 16


@pytest.mark.parametrize("name, starts", [("enter", True), ("Entrance", True),
                                          ("center", False), ("sentry", False)])
def test_an_object_named_enter_is_the_start(tmp_path, name, starts):
    """tilnewman/platformer (C++/SFML) names its start 'enter' (and its end 'exit'): a whole
    word saying the way in is a start; 'center' or 'sentry' are not."""
    objects = f'<object id="2" name="{name}" x="40" y="64"><point/></object>'
    level = load_level(write(tmp_path, layers=layer(FLOOR, "ground"), objects=objects))
    assert (level.spawn.x + level.spawn.w / 2 == 40) == starts


def test_a_hazard_named_like_floor_is_not_ground(tmp_path):
    """pirate-platformer's 'floor_spikes' hurt; they are not a floor to stand on."""
    objects = SPAWN + ('<object id="2" name="floor_spikes" x="64" y="48" width="32" height="16"/>'
                       '<object id="3" name="floor" x="0" y="16" width="32" height="16"/>')
    level = load_level(write(tmp_path, layers=layer(FLOOR, "tiles"), objects=objects))
    assert kinds(level)[1] == "##......"
    assert kinds(level)[3] == "........"


def test_a_geometry_object_layer_is_collision(tmp_path):
    """shinomontaz/platformer (Go) reads its walls from an object layer named 'geom'."""
    geom = group("geom", '<object id="2" x="0" y="64" width="128" height="16"/>')
    rows = ["........"] * 5
    level = load_level(write(tmp_path, layers=layer(rows, "tiles") + geom, objects=SPAWN))
    assert kinds(level)[4] == "########"
    noted(level, "1 collision object")


def test_layers_that_only_look_like_ground_give_way_to_a_layer_named_collision(tmp_path):
    """A tile layer named for its art ('forest-ground': the ground and grass tufts on it)
    under an object layer named 'collision' that redraws that ground: the objects are the
    collision, the tiles art. A 'platform' layer beside it stays (the pirate game's one-way
    ledges); 'Ground' on a map with nothing else, or beside a collision layer of a few extra
    blockers away from it, or beside an empty one, stays the ground."""
    collision = group("collision", '<object id="2" x="0" y="64" width="128" height="16"/>')
    art = layer(["........", "........", "........", "###.....", "########"], "forest-ground")
    level = load_level(write(tmp_path, layers=art + collision, objects=SPAWN))
    assert kinds(level)[3:] == ["........", "########"]
    noted(level, "'forest-ground' only looks like ground", "--solid-layer 'forest-ground'")
    ledge = layer(["........", "........", "........", "......##", "........"], "platform", 2, 2)
    level = load_level(write(tmp_path, layers=art + ledge + collision, objects=SPAWN,
                             name="ledge.tmx"))
    assert kinds(level)[3] == "......##"
    level = load_level(write(tmp_path, layers=art, objects=SPAWN, name="alone.tmx"))
    assert kinds(level)[3] == "###....."
    blocker = group("Collision", '<object id="2" x="112" y="0" width="16" height="16"/>')
    level = load_level(write(tmp_path, layers=art + blocker, objects=SPAWN, name="extra.tmx"))
    assert kinds(level)[:4:3] == [".......#", "###....."]
    empty = layer(["........"] * 5, "Collision", 1, 3)
    level = load_level(write(tmp_path, layers=art + empty, objects=SPAWN, name="empty.tmx"))
    assert kinds(level)[3] == "###....."


@pytest.mark.slow
def test_a_real_map_whose_ground_layers_are_art_starts_at_enter_on_its_collision():
    """tilnewman/platformer's forest: before, its 'forest-ground' tiles (a tree over the start)
    were solid and the start object 'enter' was refused as inside a wall."""
    path = real("tilnewman-platformer-forest")
    (enter,) = [o for o in read_map(path)[1].objects if o.name == "enter"]
    for resolver in resolvers.names():
        world, notes = stands(path, resolver=resolver)
        p = world.player
        assert p.on_ground and p.x == enter.x and p.y + p.h == enter.y + enter.h, resolver
    assert any("only look like ground" in n for n in notes)


# --- the author's own kit ------------------------------------------------------------------------

GOAL = '<object id="9" type="goal" x="96" y="48" width="16" height="16"/>'
OWN = tile_props('<property name="collision" value="solid"/>')


@pytest.mark.parametrize("kind,meant", [("checkpiont", "checkpoint"), ("Coin", "coin"),
                                        ("Walker", "walker")])
def test_a_class_one_typo_from_the_games_says_did_you_mean(tmp_path, kind, meant):
    obj = f'<object id="5" type="{kind}" x="40" y="40" width="8" height="8"/>'
    level = load_level(write(tmp_path, layers=layer(FLOOR, "ground"), tilesets=tileset(OWN),
                             objects=SPAWN + GOAL + obj))
    note = noted(level, f"'{kind}'", "did you mean")
    assert f"'{meant}'" in note


def test_a_level_without_a_goal_says_it_cannot_be_finished(tmp_path):
    level = load_level(write(tmp_path, layers=layer(FLOOR, "ground"), tilesets=tileset(OWN),
                             objects=SPAWN))
    noted(level, "no goal", "cannot be finished")
    done = load_level(write(tmp_path, layers=layer(FLOOR, "ground"), tilesets=tileset(OWN),
                            objects=SPAWN + GOAL, name="done.tmx"))
    assert not any("goal" in n for n in done.notes)


def test_a_tileset_of_another_tile_size_is_named_in_its_own_line(tmp_path):
    """A tileset of 32x16 px tiles on a map of 16 px tiles (an author's slip): one note naming
    the tileset and both sizes, and none about collision shapes the author never drew."""
    wide = ('<tileset firstgid="1" name="wide" tilewidth="32" tileheight="16" tilecount="2" '
            'columns="2"><image source="tiles4.png" width="64" height="16"/>'
            f'{OWN}</tileset>')
    level = load_level(write(tmp_path, layers=layer(FLOOR, "ground"), tilesets=wide,
                             objects=SPAWN + GOAL))
    note = noted(level, "tileset 'wide'", "32x16 px tiles", "16x16 px tiles")
    assert "Tileset Properties" in note
    assert not any("shape" in n for n in level.notes)


def test_a_goal_outside_the_map_is_an_error_line(tmp_path, capsys):
    far = '<object id="9" type="goal" x="5000" y="48" width="16" height="16"/>'
    path = write(tmp_path, layers=layer(FLOOR, "ground"), tilesets=tileset(OWN),
                 objects=SPAWN + far)
    assert main(["--headless", "--ticks", "1", "--level", str(path)]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"error: {path}: the goal") and "outside the map" in line


# --- one option away ---------------------------------------------------------------------------

def test_a_map_that_says_nothing_is_one_option_away_and_the_note_says_which(tmp_path):
    """Fish Game marks nothing (its code makes 'main layer' solid): the player falls, and the
    note names the exact option; with it the map plays from its own start, on every resolver."""
    path = real("fishgame")
    world, notes = stands(path)
    assert not world.player.on_ground
    (note,) = [n for n in notes if "no collision marks found" in n]
    assert "--solid-layer 'main layer'" in note
    cfg = replace(Config(), map=replace(Config().map, solid_layers=("main layer",)))
    for name in resolvers.names():
        world, notes = stands(path, cfg, name)
        p = world.player
        assert p.on_ground and not overlapping_tiles(world.grid, p.x, p.y, p.w, p.h, p.y + p.h,
                                                     True)
        assert any("collision as declared: 'main layer'" in n for n in notes)


def test_the_option_on_the_real_command_line(tmp_path):
    proc = subprocess.run([sys.executable, str(ROOT / "main.py"), "--headless", "--ticks", "60",
                           "--level", str(real("fishgame")), "--solid-layer", "main layer",
                           "--no-settings"], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "on_ground=True" in proc.stdout
    assert all(line.startswith("note: ") for line in proc.stderr.splitlines())


def test_the_same_as_map_properties(tmp_path):
    props = ('<properties><property name="solid_layers" value="level, more"/>'
             '<property name="start_object" value="hero"/></properties>')
    layers = layer(FLOOR, "level") + layer(["########"] + ["........"] * 4, "more", layer_id=2)
    objects = ('<object id="1" name="spawn" type="enemy" x="100" y="64"><point/></object>'
               '<object id="2" name="hero" x="24" y="64"><point/></object>')
    level = load_level(write(tmp_path, layers=layers, objects=objects, map_props=props))
    assert kinds(level)[0] == "########" and kinds(level)[4] == "########"
    assert level.spawn.x + level.spawn.w / 2 == 24
    noted(level, "collision as declared", "the map property solid_layers")


def test_the_command_line_wins_over_the_maps_property(tmp_path):
    props = '<properties><property name="solid_layers" value="more"/></properties>'
    layers = layer(FLOOR, "level") + layer(["########"] + ["........"] * 4, "more", layer_id=2)
    path = write(tmp_path, layers=layers, objects=SPAWN, map_props=props)
    level = load_level(path, declared=Declared(solid_layers=("level",)))
    assert kinds(level)[0] == "........" and kinds(level)[4] == "########"


@pytest.mark.parametrize("declared,words", [
    (Declared(solid_layers=("Grund",), said={"solid_layers": "--solid-layer"}),
     ["--solid-layer names layer 'Grund'", "'ground'"]),
    (Declared(solid_property="colides", said={"solid_property": "--solid-property"}),
     ["--solid-property", "'colides'", "no tile"]),
    (Declared(start_object="Hero", said={"start_object": "--start-object"}),
     ["--start-object names 'Hero'", "no object"]),
])
def test_a_declaration_that_names_nothing_is_one_error_line(tmp_path, declared, words):
    path = write(tmp_path, layers=layer(FLOOR, "ground"), objects=SPAWN,
                 tilesets=tileset(tile_props(prop("collides"))))
    with pytest.raises(UserError) as info:
        load_level(path, declared=declared)
    for word in words:
        assert word in info.value.message, info.value.message


def test_a_declared_property_with_a_value(tmp_path):
    """``--solid-property terrain=rock``: the tiles whose text property terrain says rock."""
    tiles = (tile_props(prop("terrain", "rock", "string"))
             + tile_props(prop("terrain", "grass", "string"), tile_id=1))
    data = ",".join("1" if ch == "#" else "0" for row in FLOOR[:-1] for ch in row)
    data += ",1,1,1,1,2,2,2,2"
    lay = f'<layer id="1" name="t" width="8" height="5"><data encoding="csv">{data}</data></layer>'
    level = load_level(write(tmp_path, layers=lay, objects=SPAWN, tilesets=tileset(tiles)),
                       declared=Declared(solid_property="terrain=rock"))
    assert kinds(level)[4] == "####...."


def test_config_tomls_map_table(tmp_path):
    from game.config import load as load_config
    cfg_path = tmp_path / "c.toml"
    cfg_path.write_text('[map]\nsolid_layers = ["main layer"]\nstart_object = "spawn"\n')
    cfg = load_config(cfg_path)
    assert cfg.map.solid_layers == ("main layer",) and cfg.map.start_object == "spawn"
    world, _ = stands(real("fishgame"), cfg)
    assert world.player.on_ground
    cfg_path.write_text('[map]\nsolid_layers = "main layer"\n')
    with pytest.raises(UserError, match="an array of strings"):
        load_config(cfg_path)
