"""Where Tiled puts a map's cells and objects on screen, for each of its orientations.

The rules are those of Tiled's renderers (``src/libtiled/isometricrenderer.cpp``,
``hexagonalrenderer.cpp``, ``staggeredrenderer.cpp``; the picture's size as
``src/tmxrasterizer/tmxrasterizer.cpp`` computes it), written again here:

* **orthogonal**: cell (col, row) covers ``col * tw .. (col + 1) * tw`` across and the same down;
  the game's own view buffers draw these (``game.view.render``), this module only sizes them.
* **isometric**: a cell is a diamond; its top corner is at ``((col - row) * tw/2 + rows * tw/2,
  (col + row) * th/2)``, so the map is ``(cols + rows) * tw/2`` by ``(cols + rows) * th/2`` px.
  Cells are drawn a screen row (a diagonal, ``col + row`` constant) at a time, top to bottom,
  each from left to right. Objects are placed in a space of ``th`` px per cell along both axes
  and projected like cells; a tile object stands on its position by the middle of its bottom
  edge (Tiled's default alignment on isometric maps).
* **staggered** and **hexagonal**: every other row (stagger axis y) or column (x) is shifted by
  half a cell (``staggerindex`` says which: odd or even), the steps from one cell to the next
  as :class:`game.maps.orientation.GridSteps` says (a hexagon's flat side ``hexsidelength``
  adds to them; a staggered map is a hexagonal one with sides of 0). Cells are drawn row by
  row, top to bottom; with stagger axis x each row's unshifted columns first, then its shifted
  ones (they sit lower). Objects are where the file says, in screen px.

Every orientation anchors a tile's picture at its cell's bottom-left corner (then moved by its
tileset's drawing offset), as the orthogonal one does; Tiled's ``renderorder`` is only read by
its orthogonal renderer.

Where Tiled 1.8 is off its own rules, the rules win: on a stagger-x hexagonal map whose tile
width (rounded down to even) less its side is odd, Tiled steps two columns by ``tile width +
side`` where its cell positions step by two column widths, one px less, so its cells drift a px
every other column (seen against tmxrasterizer); an odd tile width on an isometric map rounds
alike. A tileset's own object alignment (``objectalignment``) is read when the map is loaded:
``game.maps.objects.align_tile_objects`` moves its tile objects to the positions that give the
same picture with the default alignment, the only one this module places by.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import pygame

from game.maps.art import TileLayerArt
from game.maps.level import Level
from game.maps.orientation import Orientation


class Projection:
    """One map's layout: :meth:`bounds`, :meth:`cells` (in Tiled's order, each with where its
    picture is anchored), :meth:`to_screen` for objects, :attr:`pivot` for tile objects."""

    def __init__(self, orientation: Orientation, cols: int, rows: int, tile_w: int,
                 tile_h: int) -> None:
        self.orientation = orientation
        self.cols, self.rows, self.tile_w, self.tile_h = cols, rows, tile_w, tile_h
        self.kind = orientation.kind
        self.steps = orientation.steps(tile_w, tile_h)
        self.origin_x = rows * tile_w // 2  # isometric: the top corner of cell (0, 0)
        # Where along its bottom edge (a fraction of its width) a tile object stands on its
        # position: Tiled's default object alignment (bottom-left; bottom on isometric maps).
        self.pivot = 0.5 if self.kind == "isometric" else 0.0

    @classmethod
    def of(cls, level: Level) -> Projection:
        g = level.grid
        return cls(level.view.orientation, g.cols, g.rows, g.tile_w, g.tile_h)

    def bounds(self) -> tuple[int, int, int, int]:
        """The map's rectangle on screen (x, y, w, h), as big as Tiled makes it."""
        tw, th, cols, rows = self.tile_w, self.tile_h, self.cols, self.rows
        if self.kind == "orthogonal":
            return 0, 0, cols * tw, rows * th
        if self.kind == "isometric":
            side = cols + rows
            return 0, 0, side * tw // 2, side * th // 2
        s = self.steps
        if self.orientation.stagger_x:
            return (0, 0, cols * s.column_width + s.side_offset_x,
                    rows * (s.tile_h + s.side_y) + (s.row_height if cols > 1 else 0))
        return (0, 0, cols * (s.tile_w + s.side_x) + (s.column_width if rows > 1 else 0),
                rows * s.row_height + s.side_offset_y)

    def anchor(self, col: int, row: int) -> tuple[int, int]:
        """Where a tile in cell (``col``, ``row``) has its picture's bottom-left corner."""
        if self.kind == "orthogonal":
            return col * self.tile_w, (row + 1) * self.tile_h
        if self.kind == "isometric":
            # The diamond's top corner, less half a cell across, plus a cell down (Tiled draws
            # at whole px across and half px down: a half rounds down here).
            x = (col - row) * self.tile_w / 2 + self.origin_x - self.tile_w // 2
            return int(x), math.floor((col + row) * self.tile_h / 2) + self.tile_h
        s = self.steps
        if self.orientation.stagger_x:
            y = row * (s.tile_h + s.side_y)
            if self.orientation.staggered(col):
                y += s.row_height
            return col * s.column_width, y + s.tile_h
        x = col * (s.tile_w + s.side_x)
        if self.orientation.staggered(row):
            x += s.column_width
        return x, row * s.row_height + s.tile_h

    def cells(self, lines: range | None = None) -> Iterator[tuple[int, int, int, int]]:
        """Every cell as (col, row, x, y), (x, y) its :meth:`anchor`, in the order Tiled draws
        them (so a tall picture covers the cells behind it, not those in front); or only those
        of ``lines`` (:meth:`lines_between`), in the same order."""
        cols, rows, anchor = self.cols, self.rows, self.anchor
        if self.kind == "isometric":
            for diagonal in range(cols + rows - 1) if lines is None else lines:
                for col in range(max(0, diagonal - rows + 1), min(cols, diagonal + 1)):
                    yield (col, diagonal - col, *anchor(col, diagonal - col))
        elif self.kind != "orthogonal" and self.orientation.stagger_x:
            staggered = self.orientation.staggered
            first = [c for c in range(cols) if not staggered(c)]
            then = [c for c in range(cols) if staggered(c)]
            for row in range(rows) if lines is None else lines:
                for col in first + then:
                    yield (col, row, *anchor(col, row))
        else:
            for row in range(rows) if lines is None else lines:
                for col in range(cols):
                    yield (col, row, *anchor(col, row))

    def lines_between(self, top: float, bottom: float) -> range:
        """The lines of cells Tiled draws one after another (an isometric map's diagonals, the
        others' rows) that hold every cell whose anchor's y is from ``top`` to ``bottom``
        (screen px), and maybe a few more: for drawing a band of a picture."""
        if self.kind == "isometric":
            count, step, low = self.cols + self.rows - 1, self.tile_h / 2, self.tile_h
            high = low
        else:
            count = self.rows
            s = self.steps
            if self.kind != "orthogonal" and self.orientation.stagger_x:
                step, low, high = s.tile_h + s.side_y, s.tile_h, s.tile_h + s.row_height
            elif self.kind == "orthogonal":
                step, low, high = self.tile_h, self.tile_h, self.tile_h
            else:
                step, low, high = s.row_height, s.tile_h, s.tile_h
        step = max(step, 1)
        first = max(0, math.floor((top - high) / step) - 1)
        last = min(count, math.ceil((bottom - low) / step) + 2)
        return range(first, max(first, last))

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        """An object's position (the map's pixel coordinates, as the file has it) on screen."""
        if self.kind != "isometric":
            return x, y
        tw, th = self.tile_w, self.tile_h
        return (x - y) / th * tw / 2 + self.origin_x, (x + y) / th * th / 2

    def place(self, obj) -> tuple[float, float, float]:
        """Where a tile object (``game.maps.art.TileObject``) stands: (x, y, pivot), its
        position on screen with its layer's and tileset's offsets, and :attr:`pivot`."""
        x, y = self.to_screen(*obj.at)
        return x + obj.x - obj.at[0], y + obj.y - obj.at[1], self.pivot


def picture_bounds(level: Level) -> pygame.Rect:
    """The map's rectangle (:meth:`Projection.bounds`) grown by every layer's offset, hidden
    layers and object and image layers too, each rounded up, as Tiled sizes a picture of a map:
    a layer moved 6.1 px right adds 7 px on the right."""
    offsets = [layer.offset for layer in level.view.layers]
    if level.view.art is not None:
        offsets += [a.look.offset for a in level.view.art.layers if not isinstance(a, TileLayerArt)]
    left = top = right = bottom = 0
    for x, y in offsets:
        left, top = max(left, math.ceil(-x)), max(top, math.ceil(-y))
        right, bottom = max(right, math.ceil(x)), max(bottom, math.ceil(y))
    x, y, w, h = Projection.of(level).bounds()
    return pygame.Rect(x - left, y - top, w + left + right, h + top + bottom)
