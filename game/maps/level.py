"""Loading a Tiled map into the game's own level data (no pygame, no images): ``load_level``.

Loading runs in stages, each its own module:

1. reading the file safely: ``game.maps.safexml`` parses the XML with limits and decodes the tile
   layers, ``game.maps.checks`` checks everything pytmx would trip on or the game later trusts
   (``game.maps.limits`` holds the limits), and ``game.maps.tmxparse`` hands the checked tree to
   pytmx, without images;
2. the tile layers (``game.maps.tilelayers``): the collision grid, what tiles do beyond blocking,
   and for the view the layers in file order with every tile's picture;
3. the objects (``game.maps.objects``, ``game.maps.start``, ``game.maps.platform_spawns``): the
   spawn, goals, walkers, moving platforms and the objects of level flow.

Between 1 and 2, the **map conventions** (``game.maps.conventions``, shapes in
``game.maps.shapes``) decide how a map made for another engine marks its collision; a map marked
with the game's own ``collision`` property is read by that alone. What was guessed is in
:attr:`Level.notes`.

The records a level is made of are in ``game.maps.records``; this module re-exports them and the
limits, so ``from game.maps.level import Level, load_level`` is all a caller needs.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from game.errors import UserError
from game.maps import formats
from game.maps.art import ImageLayerArt, read_art
from game.maps.backdrop import backdrop_of
from game.maps.checks import FLIP_D, FLIP_H, FLIP_V, GID_MASK, RESERVED, check_map
from game.maps.limits import (MAX_BODY_PX, MAX_GROUP_DEPTH, MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS,
                              MAX_IMAGE_SIDE, MAX_LAYER_CELLS, MAX_LAYERS, MAX_MAP_CELLS,
                              MAX_MAP_PX, MAX_POINTS, MAX_SHAPE_CELLS, MAX_TILE_PX,
                              MAX_TILE_VARIANTS, MAX_TILES,
                              MAX_TILESETS, MAX_WALKERS, MAX_XML_ATTRIBUTES,
                              MAX_XML_ATTRIBUTES_TOTAL, MAX_XML_BYTES, MAX_XML_DEPTH,
                              MAX_XML_ELEMENTS, MIN_TILE_PX, Budget, file_kind, shown)
from game.maps.objects import (WALKER_DIRECTION, WALKER_DIRECTIONS, WALKER_SIZE, WALKER_SPEED,
                               WALKER_TOP_SPEED, align_tile_objects, features, read_objects,
                               walkers)
from game.maps.platform_spawns import platform_spawns
from game.maps.records import Level, Rect, TileImage, TileLayer, WalkerSpawn
from game.maps.respawn_room import check_respawn_room
from game.maps.safexml import read_bytes, read_xml
from game.maps.start import find_start
from game.maps.tilelayers import (COLLISION_KINDS, build_tiles, colour, draw_layers,
                                  tile_images, tile_offsets)
from game.maps.tmxparse import import_pytmx, parse_with_pytmx

TUNED_TILE_PX = 16  # the tile height the physics in config.toml are tuned for

__all__ = [
    "COLLISION_KINDS", "FLIP_D", "FLIP_H", "FLIP_V", "GID_MASK", "MAX_BODY_PX", "MAX_GROUP_DEPTH",
    "MAX_IMAGE_BYTES", "MAX_IMAGE_PIXELS", "MAX_IMAGE_SIDE", "MAX_LAYER_CELLS", "MAX_LAYERS",
    "MAX_MAP_CELLS", "MAX_MAP_PX", "MAX_POINTS", "MAX_SHAPE_CELLS", "MAX_TILE_PX",
    "MAX_TILE_VARIANTS", "MAX_TILES",
    "MAX_TILESETS", "MAX_WALKERS", "MAX_XML_ATTRIBUTES", "MAX_XML_ATTRIBUTES_TOTAL",
    "MAX_XML_BYTES", "MAX_XML_DEPTH", "MAX_XML_ELEMENTS", "MIN_TILE_PX", "RESERVED",
    "WALKER_DIRECTION", "WALKER_DIRECTIONS", "WALKER_SIZE", "WALKER_SPEED", "WALKER_TOP_SPEED",
    "Level", "Rect", "TileImage", "TileLayer", "WalkerSpawn", "import_pytmx", "load_level",
]


def load_level(path: str | os.PathLike, player_size: tuple[float, float] = (12.0, 14.0),
               play: bool = True) -> Level:
    """Read a Tiled map (.tmx, or JSON .tmj), or raise UserError saying what to change in Tiled.

    ``player_size`` is the hitbox of a point spawn: config.toml's ``[player] width/height``.
    ``play=False`` reads a map to draw it (``--render-map``): what only play needs (a place to
    start, room to respawn, a next level that exists, an orthogonal grid) is not asked of it.
    """
    path = Path(path)
    budget = Budget()
    root = read_xml(path, "map", "a Tiled map (.tmx or .tmj)", budget)  # stage 1: reading safely
    # JSON tilesets and templates in place, an infinite map made finite, zstd unpacked: from
    # here on the map is a plain TMX tree (game.maps.formats).
    done = formats.normalise(
        path, root, read_xml=lambda p, tag, what: read_xml(p, tag, what, budget),
        read_bytes=lambda p, what: read_bytes(p, what, budget), max_cells=MAX_MAP_CELLS)
    info = check_map(path, root, budget, play)
    aligned = align_tile_objects(path, root, info)  # every tile object anchored one way
    if done.files:
        info = replace(info, files=tuple(dict.fromkeys(
            (*info.files, *(f.resolve() for f in done.files)))))
    tmx = parse_with_pytmx(path, root, info)
    tiles = build_tiles(path, root, tmx, info)  # the conventions, then stage 2: the tile layers
    grid, marks = tiles.grid, tiles.marks
    notes = [*(f"{path}: {n}" for n in done.notes), *info.notes, *aligned, *marks.notes]
    props = dict(tmx.properties)
    scale = 1.0
    if not marks.native and grid.tile_h != TUNED_TILE_PX:
        scale = grid.tile_h / TUNED_TILE_PX
        player_size = (min(player_size[0] * scale, MAX_BODY_PX),
                       min(player_size[1] * scale, MAX_BODY_PX))
        notes.append(f"{path}: tiles are {grid.tile_h} px high and physics are tuned for "
                     f"{TUNED_TILE_PX} px, so the player's size and every speed, acceleration "
                     f"and gravity are scaled x{scale:g} (the player is {player_size[0]:g}x"
                     f"{player_size[1]:g} px); set them as map properties to choose")

    objects = tuple(o for o in read_objects(root)  # stage 3: the objects
                    if o["id"] not in marks.one_way_objects or o["kind"] != "platform")
    try:
        start, is_point = find_start(path, objects, player_size, grid, marks.native, notes)
        goals = tuple(Rect(o["x"], o["y"], o["w"], o["h"]) for o in objects
                      if o["kind"] == "goal")
        walker_spawns = walkers(path, objects, grid)
        level_features = features(path, tiles.tile_layers, tiles.cells, tiles.feature_of,
                                  objects, grid, start, walker_spawns)
        platforms = platform_spawns(path, objects, grid)
        check_respawn_room(path, start, level_features.checkpoints, platforms)
        next_level = _next_level(path, props)
    except UserError:
        if play:
            raise
        # Only to be drawn: the tiles' own features (doors, hazards...), no bodies.
        start, is_point, goals, walker_spawns, platforms, next_level = (
            Rect(0.0, 0.0, *player_size), True, (), (), (), None)
        level_features = features(path, tiles.tile_layers, tiles.cells, tiles.feature_of, (),
                                  grid, start, ())
    drawn = read_art(path, root, lambda p: read_xml(p, "tileset", "a Tiled tileset (.tsx)",
                                                    Budget()))
    background = colour(root.get("backgroundcolor"))
    own_look = background is not None or any(isinstance(a, ImageLayerArt) for a in drawn.layers)
    return Level(
        path=path,
        title=str(props.get("title") or path.stem.replace("_", " ")),
        grid=grid,
        spawn=start,
        spawn_is_point=is_point,
        goals=goals,
        next_level=next_level,
        properties=props,
        layers=tuple(draw_layers(root, tiles.cells, grid.cols)),
        tiles=tile_images(tmx, tiles.flags_of, info),
        tile_offsets=tile_offsets(tmx, info),
        background=background,
        objects=objects,
        files=info.files,
        walkers=walker_spawns,
        features=level_features,
        platforms=platforms,
        notes=tuple(notes),
        sources=tiles.sources,
        physics_scale=scale,
        art=drawn,
        backdrop=backdrop_of(path, props, own_look),
        orientation=info.orientation,
    )


def _next_level(path: Path, props: dict) -> str | None:
    next_level = props.get("next_level")
    if next_level is not None and not isinstance(next_level, str):
        raise UserError(path, "map property next_level must be a string (a .tmx file name)")
    if next_level and file_kind(path.parent / next_level) != "file":
        raise UserError(path, f"map property next_level names {shown(next_level)}, which "
                        f"does not exist (looked in {path.parent}); fix the property in Map > "
                        "Map Properties")
    return next_level or None
