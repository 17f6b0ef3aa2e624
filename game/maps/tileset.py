"""A tileset as the loader knows it once checked: its grid, its tiles' own sizes and collision
shapes, and how Tiled draws them (drawing offset, object alignment, render size and fill mode).
Made by ``game.maps.checks``; read by the stages after it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from game.errors import UserError
from game.maps.shapes import Shape, fit_into


@dataclass(frozen=True)
class Tileset:
    """What the loader needs of one tileset, read from its XML before pytmx sees the map."""

    firstgid: int
    name: str
    file: Path  # where its tiles are edited: the .tsx, or the map for an embedded tileset
    tile_size: tuple[int, int]
    margin: int = 0
    spacing: int = 0
    count: int | None = None  # tiles cut from its image (None: an image collection)
    columns: int = 0  # columns of tiles Tiled cuts from its image
    ids: frozenset[int] = frozenset()  # an image collection's tile ids
    # tile id -> (w, h) of its own image: an image collection's tiles, each its own size
    sizes: Mapping[int, tuple[int, int]] = field(default_factory=dict)
    # tile id -> (x, y, w, h): the part of its image a collection tile shows (Tiled 1.9+)
    subrects: Mapping[int, tuple[int, int, int, int]] = field(default_factory=dict)
    # tile id -> its collision shapes (Tiled's Tile Collision Editor), in px within the tile
    shapes: Mapping[int, tuple[Shape, ...]] = field(default_factory=dict)
    # tile id (-1: the whole sheet) -> the error for its missing image, if the tile is placed
    missing: Mapping[int, UserError] = field(default_factory=dict)
    # (first id, error): a sheet smaller than its tile count; the tiles from that id on are not
    # in the image (refused if placed, as Tiled would show them empty)
    cut_short: tuple[int, UserError] | None = None
    offset: tuple[int, int] = (0, 0)  # <tileoffset>: where its tiles are drawn from their cell
    # Tiled 1.4+ "objectalignment": the point of a tile object of this tileset that its
    # position gives ("unspecified": the map's default; see game.maps.objects.align)
    alignment: str = "unspecified"
    # Tiled 1.9+: "tilerendersize" (a cell draws a tile at its own size, "tile", or at the map's
    # grid size, "grid") and "fillmode" (a tile drawn at another size is stretched, "stretch",
    # or keeps its shape, "preserve-aspect-fit"), as the file says; ``grid``: the map's tile size
    render_size: str = "tile"
    fill_mode: str = "stretch"
    grid: tuple[int, int] = (0, 0)
    grown: str | None = None  # a note: its picture is bigger than it says, by whole tiles

    def size_of(self, tile_id: int) -> tuple[int, int]:
        """The tile's picture size, as Tiled draws it in a cell (bottom-left on it): the map's
        grid size for a tileset drawn at it, else the picture's own."""
        return self.grid if self.at_grid else self.own_size_of(tile_id)

    def own_size_of(self, tile_id: int) -> tuple[int, int]:
        return self.sizes.get(tile_id, self.tile_size)

    @property
    def at_grid(self) -> bool:
        """Are its tiles drawn at the map's grid size (Tiled 1.9+ "tilerendersize" grid)?"""
        return self.render_size == "grid"

    @property
    def fit(self) -> bool:
        """Does a tile drawn at another size keep its shape (scaled alike, centred)?"""
        return self.fill_mode == "preserve-aspect-fit"

    def drawn(self, tile_id: int) -> tuple[float, float, float, float]:
        """(sx, sy, dx, dy): a point (x, y) of the tile's own picture is drawn in its cell's
        box at (dx + x * sx, dy + y * sy), as Tiled's renderer places it."""
        return fit_into(self.own_size_of(tile_id), self.size_of(tile_id), self.fit)

    def is_missing(self, tile_id: int) -> bool:
        return (tile_id in self.missing or -1 in self.missing
                or (self.cut_short is not None and tile_id >= self.cut_short[0]))

    def holds(self, tile_id: int) -> bool:
        if self.count is not None:
            return 0 <= tile_id < self.count
        return tile_id in self.ids

    def rect(self, tile_id: int) -> tuple[int, int, int, int]:
        """Where Tiled cuts a tile from the sheet (pytmx miscounts columns when margin > 0)."""
        (w, h), step = self.tile_size, (self.tile_size[0] + self.spacing,
                                        self.tile_size[1] + self.spacing)
        row, col = divmod(tile_id, self.columns)
        return self.margin + col * step[0], self.margin + row * step[1], w, h
