"""A tileset read once and checked: its grid, its tiles' pictures, collision shapes, animations
and classes, and how Tiled draws them (drawing offset, object alignment, render size, fill
mode). :func:`read_tileset` makes the :class:`Tileset` record and the ``<tileset>`` element the
map's document holds (every tileset in the document, so pytmx opens no file).

Every picture is checked the way the window will load it (``game.maps.imagefile``, through the
level's one :class:`~game.maps.files.Reader`), and Tiled's rules for a picture that is not the
size its tileset says are followed: Tiled cuts tiles from the picture itself.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from game.errors import UserError, quoted
from game.maps import checked
from game.maps.checked import colour
from game.maps.decode import GID_MASK
from game.maps.files import TILESET, Reader, image_problem
from game.maps.imagefile import FORMATS, BadImage
from game.maps.limits import (MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE, MAX_MAP_PX, MAX_POINTS, MAX_TILES,
                              Budget, file_kind, shown)
from game.maps.shapes import Shape, fit_into, shape_of, untangled

Colour = tuple[int, int, int, int]


@dataclass(frozen=True)
class Tile:
    """What a tileset says of one of its tiles (a tile it says nothing of has no record)."""

    id: int
    kind: str = ""  # its class (Tiled 1.9+, written type=)
    properties: Mapping[str, Any] = field(default_factory=dict)
    image: str | None = None  # an image collection tile's picture (absolute path)
    size: tuple[int, int] | None = None  # that picture's size, or its sub-rectangle's
    subrect: tuple[int, int, int, int] | None = None  # Tiled 1.9+: the part of the picture shown
    shapes: tuple[Shape, ...] = ()  # Tiled's Tile Collision Editor, px within its own picture
    frames: tuple[tuple[int, int], ...] = ()  # its animation: (tile id, ms)
    trans: Colour | None = None  # its picture's transparent colour


@dataclass(frozen=True)
class Tileset:
    """A tileset as the loader knows it once read and checked."""

    firstgid: int
    name: str
    file: Path  # where its tiles are edited: the .tsx, or the map for an embedded tileset
    tile_size: tuple[int, int]
    margin: int = 0
    spacing: int = 0
    count: int | None = None  # tiles cut from its image (None: an image collection)
    columns: int = 0  # columns of tiles Tiled cuts from its image
    image: str | None = None  # the picture tiles are cut from (absolute path)
    trans: Colour | None = None  # that picture's transparent colour
    tiles: Mapping[int, Tile] = field(default_factory=dict)
    properties: Mapping[str, Any] = field(default_factory=dict)
    # tile id (-1: the whole sheet) -> the error for its missing picture, if the tile is placed
    missing: Mapping[int, UserError] = field(default_factory=dict)
    # (first id, error): a sheet smaller than its tile count; the tiles from that id on are not
    # in the picture (refused if placed, as Tiled would show them empty)
    cut_short: tuple[int, UserError] | None = None
    offset: tuple[int, int] = (0, 0)  # <tileoffset>: where its tiles are drawn from their cell
    # Tiled 1.4+ "objectalignment": the point of a tile object of this tileset that its
    # position gives ("unspecified": the map's default; see game.maps.document)
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
        tile = self.tiles.get(tile_id)
        return tile.size if tile is not None and tile.size is not None else self.tile_size

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

    def shapes_in_cell(self, tile_id: int) -> tuple[Shape, ...]:
        """The tile's collision shapes where its picture is drawn in a cell's box."""
        tile = self.tiles.get(tile_id)
        if tile is None or not tile.shapes:
            return ()
        if not self.at_grid:
            return tile.shapes
        sx, sy, dx, dy = self.drawn(tile_id)
        return tuple(Shape(tuple((dx + x * sx, dy + y * sy) for x, y in s.points), s.closed)
                     for s in tile.shapes)

    def is_missing(self, tile_id: int) -> bool:
        return (tile_id in self.missing or -1 in self.missing
                or (self.cut_short is not None and tile_id >= self.cut_short[0]))

    def holds(self, tile_id: int) -> bool:
        if self.count is not None:
            return 0 <= tile_id < self.count
        tile = self.tiles.get(tile_id)
        return tile is not None and (tile.image is not None or tile_id in self.missing)

    def picture(self, tile_id: int) -> tuple[str, tuple[int, int, int, int] | None] | None:
        """(file, source rectangle or None for the whole file) of a tile's picture."""
        if self.count is not None:
            return (self.image, self.rect(tile_id)) if self.image else None
        tile = self.tiles.get(tile_id)
        if tile is None or tile.image is None:
            return None
        return tile.image, tile.subrect

    def rect(self, tile_id: int) -> tuple[int, int, int, int]:
        """Where Tiled cuts a tile from the sheet (pytmx miscounts columns when margin > 0)."""
        (w, h), step = self.tile_size, (self.tile_size[0] + self.spacing,
                                        self.tile_size[1] + self.spacing)
        row, col = divmod(tile_id, max(1, self.columns))
        return self.margin + col * step[0], self.margin + row * step[1], w, h

    def label(self, tile_id: int) -> str:
        return f"tile {tile_id} of tileset {self.name}"


# --- reading ---------------------------------------------------------------------------------

class MissingImage(UserError):
    """A picture file that is not there (a placed tile's is refused, an unplaced one's noted)."""


@dataclass
class Read:
    """What reading one tileset gives the document: its record, its element, and the custom
    property names of it and of its tiles (pytmx types their values)."""

    tileset: Tileset
    element: ET.Element
    names: dict[tuple, tuple[str, ...]]


def read_tileset(map_path: Path, ts: ET.Element, index: int, reader: Reader,
                 grid: tuple[int, int], reserved, notes: list[str], dropped: dict) -> Read:
    """The tileset of ``<tileset>`` element ``ts`` of the map (embedded, or its ``source``
    read through ``reader``). ``grid`` is the map's tile size; ``reserved(kind)`` the property
    names pytmx refuses on an element of that kind."""
    where, node, base = map_path, ts, map_path.parent
    source = ts.get("source")
    label = shown(source or ts.get("name", "?"))
    firstgid = checked.whole(map_path, ts, "firstgid", f"tileset {label}",
                             "re-save the map from Tiled", most=GID_MASK)
    if source:
        file = Path(os.path.normpath(map_path.parent / source))
        if file_kind(file) != "file":
            raise UserError(map_path, f"tileset {label} not found (looked in {file.parent}); "
                            "put the tileset file there or fix the path with Tiled's "
                            "Map > Replace Tileset")
        node = reader.document(file, TILESET)
        where, base = file, file.parent
    budget = reader.budget
    name = shown(node.get("name") or source or "?")
    what = f"tileset {name}"
    fix = "fix it in Tiled's Tileset Properties (or in the file) and save the tileset again"
    sheet = node.find("image")
    if sheet is not None and not sheet.get("source"):
        sheet = None  # image data inside the file, which no one reads: no picture
    least = 1 if sheet is not None else 0  # Tiled 1.10 writes 0 for an empty image collection
    size = (checked.whole(where, node, "tilewidth", what, fix, least=least, most=MAX_IMAGE_SIDE),
            checked.whole(where, node, "tileheight", what, fix, least=least, most=MAX_IMAGE_SIDE))
    margin = checked.whole(where, node, "margin", what, fix, least=0, default=0,
                           most=MAX_IMAGE_SIDE)
    spacing = checked.whole(where, node, "spacing", what, fix, least=0, default=0,
                            most=MAX_IMAGE_SIDE)
    count = checked.whole(where, node, "tilecount", what, fix, least=0, default=-1,
                          most=MAX_TILES)
    columns = checked.whole(where, node, "columns", what, fix, least=0, default=-1,
                            most=MAX_IMAGE_SIDE)
    offset = _tile_offset(where, node)
    out = ET.Element("tileset", firstgid=str(firstgid), name=node.get("name") or "",
                     tilewidth=str(size[0]), tileheight=str(size[1]), spacing=str(spacing),
                     margin=str(margin))
    names: dict[tuple, tuple[str, ...]] = {}
    props, names[("tileset", index)] = checked.properties(
        where, node, f"tileset {quoted(node.get('name') or '')}", reserved("tileset", node),
        dropped)
    if props is not None:
        out.append(props)
    if offset != (0, 0):
        ET.SubElement(out, "tileoffset", x=str(offset[0]), y=str(offset[1]))
    placing = dict(offset=offset, alignment=node.get("objectalignment") or "unspecified",
                   render_size=node.get("tilerendersize") or "tile",
                   fill_mode=node.get("fillmode") or "stretch", grid=grid)
    for attr in ("objectalignment", "tilerendersize", "fillmode"):
        if node.get(attr):
            out.set(attr, node.get(attr))
    tiles, missing = _tiles(where, base, node, name, firstgid, fix, reader, out, names, dropped,
                            reserved, notes)
    record = Tileset(firstgid, name, where, size, margin, spacing, tiles=tiles, **placing)
    if sheet is None:  # an image collection: every tile has its own picture
        out.set("tilecount", str(max(count, 0)))
        out.set("columns", "0")
        return Read(_finish(replace(record, missing=missing), notes), out, names)
    image_label = f"tileset image {shown(sheet.get('source'))} of tileset {name}"
    file = Path(os.path.normpath(base / sheet.get("source")))
    trans = _trans(sheet)
    try:
        real = _picture(where, file, image_label, reader)
    except MissingImage as exc:  # refused only if one of its tiles is placed
        tiles_n = max(count, 0)
        out.set("tilecount", str(tiles_n))
        out.set("columns", str(max(columns, 1)))
        return Read(_finish(replace(record, count=tiles_n, columns=max(columns, 1),
                                    missing={-1: exc}), notes), out, names)
    redo = "re-save the tileset from Tiled"
    declared = (checked.whole(where, sheet, "width", image_label, redo, default=real[0],
                              most=MAX_IMAGE_SIDE),
                checked.whole(where, sheet, "height", image_label, redo, default=real[1],
                              most=MAX_IMAGE_SIDE))

    # What Tiled cuts from the image: it goes by the real picture, whatever the file says.
    def grid_of(w: int, h: int) -> tuple[int, int]:
        return (max(0, (w - margin + spacing) // (size[0] + spacing)),
                max(0, (h - margin + spacing) // (size[1] + spacing)))
    now = grid_of(*real)
    image_el = ET.Element("image", source=str(file), width=str(real[0]), height=str(real[1]))
    if trans is not None:
        image_el.set("trans", sheet.get("trans").strip().lstrip("#"))
    record = replace(record, image=str(file), trans=trans)
    if (real[0] < declared[0] or real[1] < declared[1]) and 0 in now:  # refused if placed
        short = UserError(where, f"{image_label} is {real[0]}x{real[1]} px but the tileset "
                          f"says {declared[0]}x{declared[1]} px, too small for a single tile; "
                          "put the full image back, or pick the image again in Tiled's Tileset "
                          "Properties and check the tiles")
        out.set("tilecount", "0")
        out.set("columns", "0")
        out.insert(0, image_el)
        return Read(_finish(replace(record, count=max(count, 0), columns=max(columns, 1),
                                    missing={-1: short}), notes), out, names)
    grown, said = None, declared
    if now != grid_of(*declared):  # more or fewer whole tiles than the file says
        was = grid_of(*declared)
        grown = (f"{image_label} is {real[0]}x{real[1]} px but the tileset says {declared[0]}x"
                 f"{declared[1]} px; Tiled cuts it by the picture, into {now[0]}x{now[1]} tiles "
                 f"(not {was[0]}x{was[1]}), and so does the game (open the tileset in Tiled, "
                 "check its tiles and save it again to silence this)")
        declared, columns = real, now[0]
        if count >= 0:  # fewer: the ids past the picture are missing (refused if placed)
            count = max(count, now[0] * now[1])
    # pytmx registers every tile of the grid it cuts from the picture (the document gives it
    # the real picture's size), used or not
    _spend_tiles(where, name, len(range(margin, declared[0] + margin - size[0] + 1,
                                        size[0] + spacing))
                 * len(range(margin, declared[1] + margin - size[1] + 1, size[1] + spacing)),
                 budget)
    fit_cols, fit_rows = grid_of(*declared)
    cols = columns if columns > 0 else fit_cols
    tiles_n = count if count >= 0 else fit_cols * fit_rows
    rows = -(-tiles_n // cols) if cols else 0
    need = (margin + cols * size[0] + max(cols - 1, 0) * spacing,
            margin + rows * size[1] + max(rows - 1, 0) * spacing)
    short = None
    if tiles_n and (cols == 0 or need[0] > declared[0] or need[1] > declared[1]):
        extra = f", margin {margin}, spacing {spacing}" if margin or spacing else ""
        real_note = (f" (the file itself is {real[0]}x{real[1]} px)" if real != declared else
                     f" (the tileset says {said[0]}x{said[1]} px)" if said != declared else "")
        error = UserError(where, f"tileset {name} has {tiles_n} tiles of {size[0]}x{size[1]} px "
                          f"in {cols} columns{extra}, which need an image of at least "
                          f"{need[0]}x{need[1]} px, but its image "
                          f"{shown(sheet.get('source'))} is {declared[0]}x{declared[1]} "
                          f"px{real_note}; use the full image, or fix the tile size, margin and "
                          "spacing in Tiled's Tileset Properties")
        if not 0 < cols <= fit_cols or fit_rows == 0:
            raise error
        short = (fit_rows * cols, error)  # whole rows fit: the ids past them are missing
    out.set("tilecount", str(tiles_n))
    out.set("columns", str(max(fit_cols, 1)))
    out.insert(0, image_el)
    return Read(_finish(replace(record, count=tiles_n, columns=max(fit_cols, 1), cut_short=short,
                                grown=grown), notes), out, names)


def _finish(ts: Tileset, notes: list[str]) -> Tileset:
    """Animation frames that show a tile the tileset does not hold, or one it has no picture
    for (past the end of a sheet cut short, an image not found), are left out, with a note
    (they would draw nothing, or break the window). A tile with no picture of its own is never
    drawn (refused if placed): its frames are left as they are."""
    tiles, dropped = {}, []
    for tile_id, tile in ts.tiles.items():
        if ts.is_missing(tile_id):
            tiles[tile_id] = tile
            continue
        kept = tuple(f for f in tile.frames if ts.holds(f[0]) and not ts.is_missing(f[0]))
        if len(kept) != len(tile.frames):
            dropped.append(tile_id)
            tile = replace(tile, frames=kept)
        tiles[tile_id] = tile
    if dropped:
        listed = ", ".join(map(str, dropped[:8])) + (", ..." if len(dropped) > 8 else "")
        which = "tiles" if len(dropped) > 1 else "tile"
        notes.append(f"{ts.file}: tileset {ts.name}: the animations of {which} {listed} show "
                     "tiles the tileset does not hold or has no picture for; those frames are "
                     "left out (fix them in Tiled's Tile Animation Editor)")
    return replace(ts, tiles=tiles)


def _picture(where: Path, file: Path, label: str, reader: Reader) -> tuple[int, int]:
    """The real size of a tileset's (or tile's) picture, checked as the window will load it."""
    kind = file_kind(file)
    if kind == "missing":
        raise MissingImage(where, f"{label} not found (looked in {file.parent}); put the image "
                           "there or fix the image path in Tiled")
    if kind != "file":
        raise UserError(where, f"{label} is not a file; point it at an image ({FORMATS}) in "
                        "Tiled")
    try:
        info = reader.image(file)
    except (BadImage, OSError) as exc:
        raise UserError(where, f"{label} {image_problem(exc)}") from None
    return info.width, info.height


def _tile_offset(where: Path, node: ET.Element) -> tuple[int, int]:
    """The tileset's drawing offset (``<tileoffset>``): every tile of it is drawn this far from
    its cell (or tile object), in px."""
    el = node.find("tileoffset")
    if el is None:
        return 0, 0
    what = f"the tile offset of tileset {shown(node.get('name') or '?')}"
    fix = "fix it in Tiled's Tileset Properties (Drawing Offset)"
    return tuple(checked.whole(where, el, axis, what, fix, least=-MAX_IMAGE_SIDE, default=0,
                               most=MAX_IMAGE_SIDE) for axis in "xy")


def _trans(image: ET.Element):
    return colour(image.get("trans"))


def _tiles(where: Path, base: Path, node: ET.Element, name: str, firstgid: int, fix: str,
           reader: Reader, out: ET.Element, names: dict, dropped: dict, reserved,
           notes: list[str]):
    """The tileset's <tile> elements: (tile id -> Tile, tile id -> missing picture's error);
    each written into ``out`` for pytmx."""
    tiles: dict[int, Tile] = {}
    missing: dict[int, UserError] = {}
    budget = reader.budget
    for tile in node.findall("tile"):
        tile_id = checked.whole(where, tile, "id", f"a <tile> of tileset {name}", fix, least=0,
                                most=GID_MASK - firstgid)
        _spend_tiles(where, name, 1, budget)
        label = f"tile {tile_id} of tileset {name}"
        copy = ET.SubElement(out, "tile", id=str(tile_id))
        kind = checked.text_of(tile, "type") or checked.text_of(tile, "class")
        if kind:
            copy.set("type", kind)
        props, found = checked.properties(where, tile, label, reserved("tile", tile), dropped)
        if props is not None:
            copy.append(props)
            names[("tile", firstgid + tile_id)] = found
        record = Tile(tile_id, kind)
        image = tile.find("image")
        if image is not None and image.get("source"):
            file = Path(os.path.normpath(base / image.get("source")))
            try:
                real = _picture(where, file, f"tileset image {shown(image.get('source'))} of "
                                f"tileset {name}", reader)
            except MissingImage as exc:
                missing[tile_id] = exc
                real = None
            if real is not None:
                size = real
                part = tuple(_int(tile.get(k)) for k in ("x", "y", "width", "height"))
                subrect = None
                if part[2] and part[3]:  # a sub-rectangle of the picture (Tiled 1.9)
                    x, y = part[0] or 0, part[1] or 0
                    if 0 <= x <= real[0] - part[2] and 0 <= y <= real[1] - part[3]:
                        subrect = (x, y, part[2], part[3])
                        size = (part[2], part[3])
                        copy.set("x", str(x))
                        copy.set("y", str(y))
                        copy.set("width", str(part[2]))
                        copy.set("height", str(part[3]))
                _spend_pixels(where, f"the tiles of tileset {name}", real[0] * real[1], budget)
                image_el = ET.SubElement(copy, "image", source=str(file), width=str(real[0]),
                                         height=str(real[1]))
                trans = _trans(image)
                if trans is not None:
                    image_el.set("trans", image.get("trans").strip().lstrip("#"))
                record = replace(record, image=str(file), size=size, subrect=subrect,
                                 trans=trans)
        shapes = _shapes(where, tile, label, budget, notes)
        if shapes:
            group = ET.SubElement(copy, "objectgroup")
            for shape in shapes:
                pts = " ".join(f"{x!r},{y!r}" for x, y in shape.points)
                obj = ET.SubElement(group, "object", x="0", y="0")
                ET.SubElement(obj, "polygon" if shape.closed else "polyline", points=pts)
            record = replace(record, shapes=shapes)
        frames = _frames(where, tile, label, fix)
        if frames:
            anim = ET.SubElement(copy, "animation")
            for frame_id, ms in frames:
                ET.SubElement(anim, "frame", tileid=str(frame_id), duration=str(ms))
            record = replace(record, frames=frames)
        tiles[tile_id] = record
    return tiles, missing


def _shapes(where: Path, tile: ET.Element, label: str, budget: Budget,
            notes: list[str]) -> tuple[Shape, ...]:
    """A tile's collision shapes (its ``<objectgroup>``), in px of its own picture, numbers
    checked: every point finite and within the map's reach. A polygon that crosses itself is
    taken as its hull, with a note (``game.maps.shapes.untangled``)."""
    group = tile.find("objectgroup")
    if group is None:
        return ()
    found = []
    for obj in group.iter("object"):
        what = f"a collision shape of {label}"
        for attr in ("x", "y", "width", "height"):
            checked.number(where, obj, attr, what, -MAX_MAP_PX, MAX_MAP_PX, 0.0)
        checked.angle(where, obj, "rotation", what)
        for el in (obj.find("polygon"), obj.find("polyline")):
            if el is not None:
                budget.points += (el.get("points") or "").count(" ") + 1
                if budget.points > MAX_POINTS:
                    raise UserError(where, f"the map and its tilesets hold more than "
                                    f"{MAX_POINTS:,} polygon and polyline points, far more than "
                                    "any real level; simplify those shapes")
        shape = shape_of(obj)
        if shape is not None:
            shape, tangled = untangled(shape)
            if tangled:
                notes.append(f"{where}: {label}: a collision polygon crosses itself, so it is "
                             "read as the outline around it (redraw it in Tiled's Tile Collision "
                             "Editor so that its sides do not cross)")
            found.append(shape)
    return tuple(found)


def _frames(where: Path, tile: ET.Element, label: str, fix: str) -> tuple[tuple[int, int], ...]:
    anim = tile.find("animation")
    if anim is None:
        return ()
    frames = []
    for frame in anim.findall("frame"):
        what = f"an animation frame of {label}"
        frame_id = checked.whole(where, frame, "tileid", what, fix, least=0, most=GID_MASK)
        ms = checked.whole(where, frame, "duration", what, fix, least=0, default=100,
                           most=10_000_000)
        frames.append((frame_id, max(1, ms)))
    return tuple(frames)


def _int(text: str | None) -> int | None:
    try:
        return int(text) if text is not None else None
    except ValueError:
        return None


def _spend_tiles(where: Path, name: str, tiles: int, budget: Budget) -> None:
    budget.tiles += tiles
    if budget.tiles > MAX_TILES:
        raise UserError(where, f"tileset {name} takes the map's tilesets past {MAX_TILES:,} "
                        "tiles together, far more than any real level; use fewer or smaller "
                        "tilesets (or larger tiles)")


def _spend_pixels(where: Path, label: str, pixels: int, budget: Budget) -> None:
    budget.image_pixels += pixels
    if budget.image_pixels > MAX_IMAGE_PIXELS:
        raise UserError(where, f"{label} take the pictures the window holds past "
                        f"{MAX_IMAGE_PIXELS // 1_000_000} million pixels together (every image "
                        "file, a copy of every tile of an image collection and of every "
                        "different tile the map places), far more than any real level; use "
                        "fewer or smaller images or tiles")


spend_pixels = _spend_pixels
