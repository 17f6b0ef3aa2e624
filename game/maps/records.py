"""What a level *is*, as the loader hands it over: plain frozen records, no pygame, no pytmx.

:class:`Level` is built by :func:`game.maps.level.load_level` for the simulation; what only the
view needs is its :class:`~game.maps.art.MapView`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.maps.art import NO_VIEW, MapView
from game.maps.grid import TileGrid
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
    """A level for the simulation (what only the view needs is :attr:`view`)."""

    path: Path
    title: str
    grid: TileGrid
    spawn: Rect  # the player's hitbox at the start
    spawn_is_point: bool
    goals: tuple[Rect, ...]
    next_level: str | None
    properties: Mapping[str, Any]
    walkers: tuple[WalkerSpawn, ...] = ()  # in Tiled object id order
    # Hazards, friction, water, doors, checkpoints, coins, switches (game.maps.tiles). ``grid`` is
    # the grid with every door open; the world closes the closed ones (game.sim.living).
    features: TileFeatures = NO_FEATURES
    platforms: tuple[PlatformSpawn, ...] = ()  # in Tiled object id order (game.maps.platform_spawns)
    # Physics and the player's size are tuned for 16 px tiles: a map made elsewhere with other
    # tiles scales every length (px, px/s, px/s^2) by this (game.config.scaled_physics).
    physics_scale: float = 1.0
    # What the loader said about the map (guesses, what it left out), one line each, without the
    # leading "note: ": printed on stderr at the start, shown in the window and the debug view.
    notes: tuple[str, ...] = ()
    # The map, every tileset, template and picture it uses, resolved: what a hot reload watches.
    files: tuple[Path, ...] = ()
    view: MapView = NO_VIEW  # what only the view needs (game.maps.art)

    @property
    def tile_size(self) -> tuple[int, int]:
        return self.grid.tile_w, self.grid.tile_h
