"""What a level *is*, as the loader hands it over: plain frozen records, no pygame, no pytmx.

:class:`Level` is built by :func:`game.maps.level.load_level`; the stages in between
(``safexml`` and ``checks`` read the file, ``tmxparse`` hands it to pytmx, ``tilelayers`` and
``objects`` turn it into these records) share them from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.maps.grid import TileGrid
from game.maps.orientation import ORTHOGONAL, Orientation
from game.maps.platform_spawns import PlatformSpawn
from game.maps.tiles import NO_FEATURES, TileFeatures


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float

    def intersects(self, x: float, y: float, w: float, h: float) -> bool:
        return x < self.x + self.w and self.x < x + w and y < self.y + self.h and self.y < y + h


@dataclass(frozen=True)
class TileImage:
    """Where a tile's picture is: image file, source rectangle, and Tiled's flip flags; and, for
    a tileset drawn at the map's grid size (Tiled 1.9+ "tilerendersize"), the size its cells
    draw the picture at (None: its own) and whether it keeps its shape there ("fillmode"
    preserve-aspect-fit: scaled alike both ways, centred) or is stretched. ``fit`` is also how
    a tile object stretched to its own size draws it."""

    source: str
    rect: tuple[int, int, int, int]
    flip_h: bool = False
    flip_v: bool = False
    flip_d: bool = False
    size: tuple[int, int] | None = None
    fit: bool = False
    turned_120: bool = False  # on a hexagonal map: turned 120 degrees more (Tiled's bit 28)


@dataclass(frozen=True)
class TileLayer:
    """A tile layer as Tiled draws it: its own attributes combined with its groups'.

    ``in_front`` marks a layer that comes after the first object layer in the file: the game
    draws it over the player (the object layer stands for where the sprites are).
    """

    name: str
    visible: bool
    opacity: float
    offset: tuple[float, float]
    gids: tuple[tuple[int, ...], ...]  # [row][col], pytmx gids (0 = empty)
    in_front: bool = False
    door: str | None = None  # the door group the layer paints (game.maps.tiles); the view draws it


@dataclass(frozen=True)
class WalkerSpawn:
    """Where a walker starts: its hitbox at the start, its speed and its first direction.

    ``id`` is the Tiled object id: walkers are stepped in that order (``game.sim.walkers``).
    """

    id: int
    x: float
    y: float
    w: float
    h: float
    speed: float  # px/s
    facing: int  # -1 left, 1 right

@dataclass(frozen=True, eq=False)
class Level:
    path: Path
    title: str
    grid: TileGrid
    spawn: Rect  # the player's hitbox at the start
    spawn_is_point: bool
    goals: tuple[Rect, ...]
    next_level: str | None
    properties: Mapping[str, Any]
    layers: tuple[TileLayer, ...]
    tiles: Mapping[int, TileImage]  # pytmx gid -> picture
    background: tuple[int, int, int] | None = None
    objects: tuple[dict, ...] = field(default_factory=tuple)
    # The .tmx, every .tsx it uses and every tileset image, resolved: what a hot reload watches.
    files: tuple[Path, ...] = ()
    walkers: tuple[WalkerSpawn, ...] = ()  # in Tiled object id order
    # Hazards, friction, water, doors, checkpoints, coins, switches (game.maps.tiles). ``grid`` is
    # the grid with every door open; the world closes the closed ones (game.sim.living).
    features: TileFeatures = NO_FEATURES
    platforms: tuple[PlatformSpawn, ...] = ()  # in Tiled object id order (game.maps.platform_spawns)
    # What the loader guessed about a map made for another engine, one line each, without the
    # leading "note: " (game.maps.conventions, game.maps.start): printed on stderr at the start.
    notes: tuple[str, ...] = ()
    # Per cell (row * cols + col): what made it collide, an index into
    # game.maps.conventions.SOURCE_NAMES (0: nothing); b"" for a level built by hand.
    sources: bytes = b""
    # Physics and the player's size are tuned for 16 px tiles: a map made elsewhere with other
    # tiles scales every length (px, px/s, px/s^2) by this (game.config.scaled_physics).
    physics_scale: float = 1.0
    # Tile objects, image layers, animations, parallax, tints (game.maps.art.MapArt); None: none
    art: Any = None
    backdrop: str = "day"  # the sky and hills behind the map (game.maps.backdrop)
    # pytmx gid -> (dx, dy) px its picture is drawn off its cell: its tileset's <tileoffset>
    tile_offsets: Mapping[int, tuple[int, int]] = field(default_factory=dict)
    # How Tiled lays the cells out on screen; only an orthogonal map is played (``play=False``
    # reads the others, to draw them: game.view.projection)
    orientation: Orientation = ORTHOGONAL

    @property
    def tile_size(self) -> tuple[int, int]:
        return self.grid.tile_w, self.grid.tile_h
