"""Loading a Tiled map into the game's own level data (no pygame, no images): ``load_level``.

One pipeline, each step once::

    files.Reader        every file read once, within the limits (limits.py)
      -> document       one plain TMX document (every format Tiled writes) + the model's records
      -> pytmx          parses that document once; its typed properties complete the model
      -> model          MapModel: layers in file order, tilesets, objects (model.py)
      -> conventions    what collides and where the player starts (conventions, collision, start)
      -> Level          for the simulation, and its MapView for the view (records.py, art.py)

What the loader guessed, or left out, is in :attr:`Level.notes`.
"""

from __future__ import annotations

import os
from pathlib import Path

from game.errors import UserError
from game.maps.art import map_view
from game.maps.backdrop import backdrop_of
from game.maps.collision import build, is_native
from game.maps.conventions import (NOTHING_DECLARED, Declared, check_declared_properties,
                                   declared_by_map)
from game.maps.document import Document, normalise
from game.maps.files import Reader
from game.maps.limits import MAX_BODY_PX, file_kind, shown
from game.maps.model import ImageLayer, MapModel, parse, with_properties
from game.maps.objects import (GAME_CLASSES, check_inside, features, is_spawn, kit_notes,
                               walkers)
from game.maps.platform_spawns import platform_spawns
from game.maps.records import Level, Rect, WalkerSpawn
from game.maps.respawn_room import check_respawn_room
from game.maps.start import find_start, property_start, start_ranks

TUNED_TILE_PX = 16  # the tile height the physics in config.toml are tuned for

__all__ = ["Level", "Rect", "WalkerSpawn", "load_level", "read_map"]


def read_map(path: str | os.PathLike, play: bool = True) -> tuple[Document, MapModel]:
    """The map at ``path`` read into its document and its model: each file it is made of
    opened once, pytmx's parse once. ``play=False``: the map is only drawn."""
    path = Path(path)
    document = normalise(path, Reader(), play)
    tmx = parse(path, document.tree)
    return document, with_properties(document.model, tmx, document.names)


def load_level(path: str | os.PathLike, player_size: tuple[float, float] = (12.0, 14.0),
               play: bool = True, declared: Declared = NOTHING_DECLARED) -> Level:
    """Read a Tiled map (.tmx, or JSON .tmj), or raise UserError saying what to change in Tiled.

    ``player_size`` is the hitbox of a point spawn: config.toml's ``[player] width/height``.
    ``play=False`` reads a map to draw it (``--render-map``): what only play needs (a place to
    start, room to respawn, a next level that exists, an orthogonal grid) is not asked of it.
    ``declared`` is what the author says of the map on the command line or in config.toml
    (``game.maps.conventions.Declared``); the map's own properties of those names complete it.
    """
    path = Path(path)
    document, model = read_map(path, play)
    notes = list(document.notes)
    declared = declared_by_map(model, declared)
    check_declared_properties(model, declared)
    objects = tuple(model.objects)
    own = is_native(model)
    said = property_start(model, document.origin)
    has_start = bool(declared.start_object or start_ranks(objects) or said) or any(
        is_spawn(o, own) for o in objects)
    collision = build(model, declared, has_start)
    grid, marks = collision.grid, collision.marks
    notes += marks.notes
    props = dict(model.properties)
    scale = 1.0
    if not marks.native and grid.tile_h != TUNED_TILE_PX:
        scale = grid.tile_h / TUNED_TILE_PX
        player_size = (min(player_size[0] * scale, MAX_BODY_PX),
                       min(player_size[1] * scale, MAX_BODY_PX))
        notes.append(f"{path}: tiles are {grid.tile_h} px high and physics are tuned for "
                     f"{TUNED_TILE_PX} px, so the player's size and every speed, acceleration "
                     f"and gravity are scaled x{scale:g} (the player is {player_size[0]:g}x"
                     f"{player_size[1]:g} px); set them as map properties to choose")
    # the game's objects: one-way platforms without a path are collision (game.maps.conventions)
    kit = tuple(o for o in objects if o.id not in marks.one_way_objects or o.kind != "platform")
    layers = model.tile_layers
    try:
        start, is_point, at = find_start(path, kit, player_size, grid, own, notes, declared,
                                         said)
        check_inside(path, kit, grid)
        goals = tuple(Rect(o.x, o.top, o.w, o.h) for o in kit if o.kind == "goal")
        walker_spawns = walkers(path, kit, grid)
        level_features = features(path, layers, collision.feature_of, kit, grid, start,
                                  walker_spawns)
        platforms = platform_spawns(path, kit, grid)
        check_respawn_room(path, start, level_features.checkpoints, platforms)
        next_level = _next_level(path, props)
    except UserError:
        if play:
            raise
        # Only to be drawn: the tiles' own features (doors, hazards...), no bodies.
        start, is_point, at, goals, walker_spawns, platforms, next_level = (
            Rect(0.0, 0.0, *player_size), True, None, (), (), (), None)
        level_features = features(path, layers, collision.feature_of, (), grid, start, ())
    if play:  # what an author should know to play it (a picture of the map needs none of it)
        # made with the game's kit: its collision property, or its objects (another engine's
        # map may well have a class 'player' of its own)
        own_kit = own or any(o.kind in GAME_CLASSES and o.kind != "player" for o in objects)
        used = marks.collision_objects | ({at.id} if at is not None else set())
        notes += kit_notes(path, [o for o in objects if o.id not in used], own_kit, bool(goals))
    own_look = model.background is not None or any(isinstance(la, ImageLayer)
                                                   for la in model.layers)
    view = map_view(model, backdrop_of(path, props, own_look), collision.sources,
                    at.id if play and at is not None else None)  # a picture keeps every sprite
    return Level(
        path=path,
        title=str(props.get("title") or path.stem.replace("_", " ")),
        grid=grid,
        spawn=start,
        spawn_is_point=is_point,
        goals=goals,
        next_level=next_level,
        properties=props,
        walkers=walker_spawns,
        features=level_features,
        platforms=platforms,
        physics_scale=scale,
        notes=tuple(notes),
        files=document.files,
        view=view,
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
