"""Stage 1b of loading: checking a map's XML tree before pytmx sees it.

Every mistake pytmx would meet with a bare exception (a missing tileset, a broken layer, ...)
 gets a message that says what to change in Tiled. Everything the game later
trusts is checked here too, so that ``--headless`` passing means the window will run: numbers
parse and are finite and within reach, tile layers hold the map's cells, and every image the
window will load is a PNG, GIF, BMP or JPEG (known by its signature, walked through to its end:
``game.maps.imagefile``) as large as its tiles need.
"""

from __future__ import annotations

import bisect
import math
import os
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from game.errors import UserError, quoted
from game.maps.imagefile import FORMATS, BadImage, ImageInfo, probe, verify
from game.maps.limits import (MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE, MAX_LAYER_CELLS,
                              MAX_LAYERS, MAX_MAP_CELLS, MAX_MAP_PX, MAX_POINTS, MAX_TILE_PX,
                              MAX_TILES, MAX_TILESETS, MIN_TILE_PX, Budget, file_kind, shown)
from game.maps.orientation import ORTHOGONAL, Orientation, read_orientation
from game.maps.safexml import check_layer_data, int_or_none, note_gids, read_xml
from game.maps.shapes import Shape, shape_of
from game.maps.tileset import Tileset

FLIP_H, FLIP_V, FLIP_D = 0x80000000, 0x40000000, 0x20000000
GID_MASK = 0x0FFFFFFF
HEX_120 = 0x10000000  # Tiled's 120-degree turn of a tile on a hexagonal map (else ignored)
# Attributes pytmx sets on maps, layers, tilesets and objects: a custom property of one of these
# names makes it raise.
RESERVED = {"id", "name", "type", "class", "x", "y", "width", "height", "visible", "opacity",
            "offsetx", "offsety", "rotation", "gid", "properties", "source", "version",
            "tiledversion", "orientation", "renderorder", "tilewidth", "tileheight", "firstgid",
            "tilecount", "columns", "data", "encoding", "compression", "tintcolor", "parallaxx",
            "parallaxy", "infinite", "nextlayerid", "nextobjectid", "backgroundcolor", "color",
            "draworder", "image", "images", "layers", "objects", "tilesets", "filename", "parent",
            "spacing", "margin", "trans", "points", "closed", "template", "locked"}



@dataclass(frozen=True)
class LayerData:
    """A tile layer's cells as decoded once by the checks, for pytmx and the level to share."""

    gids: Sequence[int]  # Tiled's gids with their flip bits, row by row (array 'I' or list)
    used: tuple[int, ...]  # the different ones, in the order they first appear
    new: tuple[int, ...]  # those of ``used`` that no earlier layer holds


@dataclass(frozen=True)
class MapInfo:
    tilesets: tuple[Tileset, ...]  # sorted by firstgid, in file order among equals
    files: tuple[Path, ...]
    firstgids: tuple[int, ...] = ()  # of ``tilesets``, for bisecting
    layers: tuple[LayerData, ...] = ()  # of every <layer>, in file order
    notes: tuple[str, ...] = ()  # what the checks let pass but a level author should know
    orientation: Orientation = ORTHOGONAL

    def tileset_of(self, tiled_gid: int) -> Tileset | None:
        """The tileset of a gid, as Tiled decides: the one with the largest firstgid <= gid
        (the first of those, in file order, if two share it)."""
        i = bisect.bisect_right(self.firstgids, tiled_gid)
        if i == 0:
            return None
        return self.tilesets[bisect.bisect_left(self.firstgids, self.firstgids[i - 1])]



def check_map(path: Path, root: ET.Element, budget: Budget, play: bool = True) -> MapInfo:
    """``play``: the map is to be played, not only drawn (only orthogonal maps are played)."""
    orientation = read_orientation(path, root, play)
    resize = "set the map's size in Tiled with Map > Resize Map"
    retile = "set the map's tile size in Tiled in Map > Map Properties"
    cols = whole(path, root, "width", "the map", resize, most=MAX_MAP_CELLS)
    rows = whole(path, root, "height", "the map", resize, most=MAX_MAP_CELLS)
    tw = whole(path, root, "tilewidth", "the map", retile, least=MIN_TILE_PX, most=MAX_TILE_PX)
    th = whole(path, root, "tileheight", "the map", retile, least=MIN_TILE_PX, most=MAX_TILE_PX)
    _check_map_size(path, root, cols, rows, tw, th)
    for what, tags, most in (("tilesets", ("tileset",), MAX_TILESETS),
                             ("layers (tile, object, image and group layers)", _LAYERS,
                              MAX_LAYERS)):
        count = sum(1 for el in root.iter() if el.tag in tags)
        if count > most:
            raise UserError(path, f"the map has {count:,} {what}, far more than any real "
                            f"level; at most {most:,} are read; merge or delete some")
    files = [path]
    tilesets = tuple(sorted((_check_tileset(path, ts, files, budget, (tw, th))
                             for ts in root.iter("tileset")), key=lambda ts: ts.firstgid))
    missing_pictures = []
    for layer in root.iter("imagelayer"):
        image = layer.find("image")
        if image is not None:
            try:
                _check_image(path, path.parent, image,
                             f"image layer {quoted(layer.get('name', ''))}", files, budget)
            except _MissingImage as exc:  # a picture only: Tiled draws the layer empty
                missing_pictures.append(f"{path}: {exc.message}; the layer is drawn empty, "
                                        "as Tiled draws it")
                # watched, so that putting it back reloads the level
                files.append(Path(os.path.normpath(path.parent / image.get("source"))))
    gids: dict[int, None] = {}  # every gid placed, in the order first placed
    layers = []
    for layer in root.iter("layer"):
        values, used = check_layer_data(path, layer, cols, rows)
        layers.append(LayerData(values, tuple(used), tuple(g for g in used if g not in gids)))
        note_gids(path, [used], gids)
    objects = (int_or_none(o.get("gid")) for o in root.iter("object") if o.get("gid"))
    note_gids(path, [[o for o in objects if o is not None]], gids)  # tile objects are drawn too
    gids.pop(0, None)
    notes = _missing_images(path, tilesets, gids)
    _spend_pixels(path, f"the {len(gids):,} different tiles the map places", len(gids) * tw * th,
                  budget)
    _check_numbers(path, root, budget)
    reserved: list[str] = []
    _check_reserved_names(path, root, reserved)
    notes = (*notes, *missing_pictures, *reserved)
    _check_object_ids(path, root)
    return MapInfo(tilesets, tuple(dict.fromkeys(f.resolve() for f in files)),
                    tuple(ts.firstgid for ts in tilesets), tuple(layers), notes, orientation)


def whole(where: Path, el: ET.Element, attr: str, what: str, fix: str, least: int = 1,
           default: int | None = None, most: int | None = None) -> int:
    """Attribute ``attr`` of ``el`` as a whole number from ``least`` to ``most`` (absent:
    ``default``)."""
    raw = el.get(attr)
    if raw is None and default is not None:
        return default
    try:
        value = int(raw) if raw is not None else None
    except ValueError:  # not a number, or more digits than Python converts
        value = None
    if value is None or value < least or (most is not None and value > most):
        shown = f"no {attr}" if raw is None else f"{attr}={quoted(raw)}"
        if least == 1:
            must = "a whole number above 0" + (f", at most {most:,}" if most is not None else "")
        else:
            must = f"a whole number from {least} " + (f"to {most:,}" if most is not None else "up")
        raise UserError(where, f"{what} has {shown}; it must be {must}; {fix}")
    return value


def _check_map_size(path: Path, root: ET.Element, cols: int, rows: int, tw: int,
                    th: int) -> None:
    """The map's size against the limits, from its attributes alone, before any layer is read."""
    resize = "make it smaller with Map > Resize Map, or split it into several levels"
    if cols * rows > MAX_MAP_CELLS:
        raise UserError(path, f"the map is {cols}x{rows} tiles ({cols * rows:,} cells); at most "
                        f"{MAX_MAP_CELLS:,} cells are read (e.g. 2000x1000); {resize}")
    for side, tiles, size in (("wide", cols, tw), ("high", rows, th)):
        if tiles * size > MAX_MAP_PX:
            raise UserError(path, f"the map is {tiles * size:,} px {side} ({tiles} tiles of "
                            f"{size} px); at most {MAX_MAP_PX:,} px are read; {resize}")
    layers = sum(1 for _ in root.iter("layer"))
    if layers * cols * rows > MAX_LAYER_CELLS:
        raise UserError(path, f"the map has {layers} tile layers of {cols}x{rows} tiles "
                        f"({layers * cols * rows:,} cells); at most {MAX_LAYER_CELLS:,} are read "
                        "(tile layers x map size); merge or delete tile layers, or make the map "
                        "smaller")


_LAYERS = ("layer", "group", "objectgroup", "imagelayer")


def _check_numbers(path: Path, root: ET.Element, budget: Budget) -> None:
    """Every number the game reads from objects and layers is finite and within the map's reach
    (nan, inf or 1e300 would pass headless and break the window's drawing)."""
    reach = f"from {-MAX_MAP_PX:,} to {MAX_MAP_PX:,} px"
    for el in root.iter():
        if el.tag == "object":
            what = f"object {quoted(el.get('name', ''))} (id {quoted(el.get('id', '?'))})"
            fix = "fix it in Tiled's Properties panel (or in the file)"
            for attr in ("x", "y"):
                _number(path, el, attr, what, -MAX_MAP_PX, MAX_MAP_PX, reach, fix)
            for attr in ("width", "height"):
                _number(path, el, attr, what, 0, MAX_MAP_PX, f"from 0 to {MAX_MAP_PX:,} px", fix)
            _number(path, el, "rotation", what, -360, 360, "from -360 to 360 degrees", fix)
            whole(path, el, "id", what, fix, least=0, default=0, most=2**31 - 1)
        elif el.tag in _LAYERS:
            what = f"{el.tag} {quoted(el.get('name', ''))}"
            fix = "fix it in Tiled's Properties panel (or in the file)"
            for attr in ("offsetx", "offsety"):
                _number(path, el, attr, what, -MAX_MAP_PX, MAX_MAP_PX, reach, fix)
            _number(path, el, "opacity", what, 0, 1, "from 0 to 1", fix)
        elif el.tag in ("polygon", "polyline"):
            budget.points += (el.get("points") or "").count(" ") + 1
            if budget.points > MAX_POINTS:
                raise UserError(path, f"the map and its tilesets hold more than {MAX_POINTS:,} "
                                "polygon and polyline points, far more than any real level; "
                                "simplify those shapes")


def _number(where: Path, el: ET.Element, attr: str, what: str, least: float, most: float,
            span: str, fix: str) -> None:
    raw = el.get(attr)
    if raw is None:
        return
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not least <= value <= most:  # false for nan too
        raise UserError(where, f"{what} has {attr}={quoted(raw)}; it must be a number {span}; "
                        f"{fix}")


def _missing_images(path: Path, tilesets: tuple[Tileset, ...], gids: dict[int, None]) -> tuple:
    """A placed tile whose image is missing is refused; a missing image of tiles never placed is
    a note (the tile is left out of the level's pictures)."""
    firstgids = [ts.firstgid for ts in tilesets]
    for gid in gids:
        i = bisect.bisect_right(firstgids, gid & GID_MASK) - 1
        if i >= 0 and (tilesets[i].missing or tilesets[i].cut_short):
            ts = tilesets[i]
            tile = (gid & GID_MASK) - ts.firstgid
            if ts.is_missing(tile):
                raise ts.missing.get(tile) or ts.missing.get(-1) or ts.cut_short[1]
    notes = []
    for ts in tilesets:
        if ts.grown is not None:
            notes.append(f"{ts.file}: {ts.grown}")
        for attr, value, known in (("tilerendersize", ts.render_size, ("tile", "grid")),
                                   ("fillmode", ts.fill_mode, ("stretch", "preserve-aspect-fit"))):
            if value not in known:
                notes.append(f"{ts.file}: tileset {ts.name}: {attr} {quoted(value)} is not one "
                             f"Tiled knows, so it is read as Tiled reads it, {quoted(known[0])}; "
                             "pick one in the Tileset Properties")
        if ts.cut_short is not None:
            notes.append(f"{ts.file}: tileset {ts.name}: its image holds only its first "
                         f"{ts.cut_short[0]} tiles; no tile past them is placed, so the map loads "
                         "(fix the tile count in Tiled's Tileset Properties to silence this)")
        if ts.missing:
            what = ("its image" if -1 in ts.missing
                    else f"the images of {len(ts.missing)} tile{'s' if len(ts.missing) > 1 else ''}")
            notes.append(f"{ts.file}: tileset {ts.name}: {what} not found; no tile that needs one "
                         "is placed, so the map loads without them (remove those tiles from the "
                         "tileset in Tiled, or put the images back, to silence this)")
    return tuple(notes)


class _MissingImage(UserError):
    """An image file that is not there (a placed tile's is refused, an unplaced one's noted)."""


def _check_tileset(map_path: Path, ts: ET.Element, files: list[Path], budget: Budget,
                   grid: tuple[int, int]) -> Tileset:
    """``grid``: the map's tile size."""
    where, node, base = map_path, ts, map_path.parent
    source = ts.get("source")
    label = shown(source or ts.get("name", "?"))
    firstgid = whole(map_path, ts, "firstgid", f"tileset {label}", "re-save the map from Tiled",
                      most=GID_MASK)
    if source:
        tsx = Path(os.path.normpath(map_path.parent / source))
        if file_kind(tsx) != "file":
            raise UserError(map_path, f"tileset {label} not found (looked in {tsx.parent}); "
                            "put the .tsx file there or fix the path with Tiled's "
                            "Map > Replace Tileset")
        node = read_xml(tsx, "tileset", "a Tiled tileset (.tsx)", budget)
        where, base = tsx, tsx.parent
        files.append(tsx)
        _check_numbers(tsx, node, budget)
        _check_reserved_names(tsx, node)
    name = shown(node.get("name") or source or "?")
    # where its tiles are drawn from their cell, where a tile object's position is on it, at
    # what size a cell draws them and how they fill it
    placing = (_tile_offset(where, node), node.get("objectalignment") or "unspecified",
               node.get("tilerendersize") or "tile", node.get("fillmode") or "stretch", grid)
    what = f"tileset {name}"
    fix = "fix it in Tiled's Tileset Properties (or in the file) and save the tileset again"
    sheet = node.find("image")
    least = 1 if sheet is not None else 0  # Tiled 1.10 writes 0 for an empty image collection
    size = (whole(where, node, "tilewidth", what, fix, least=least, most=MAX_IMAGE_SIDE),
            whole(where, node, "tileheight", what, fix, least=least, most=MAX_IMAGE_SIDE))
    margin = whole(where, node, "margin", what, fix, least=0, default=0, most=MAX_IMAGE_SIDE)
    spacing = whole(where, node, "spacing", what, fix, least=0, default=0, most=MAX_IMAGE_SIDE)
    count = whole(where, node, "tilecount", what, fix, least=0, default=-1, most=MAX_TILES)
    columns = whole(where, node, "columns", what, fix, least=0, default=-1, most=MAX_IMAGE_SIDE)
    ids, sizes, subrects, shapes, missing = _tiles_of(where, base, node, name, fix, files, budget)
    if sheet is None:  # an image collection: every tile has its own picture
        return _placed(Tileset(firstgid, name, where, size, ids=frozenset(ids), sizes=sizes,
                               subrects=subrects, shapes=shapes, missing=missing), placing)
    try:
        image = _check_image(where, base, sheet, f"tileset {name}", files, budget)
    except _MissingImage as exc:  # refused only if one of its tiles is placed
        tiles = max(count, 0)
        return _placed(Tileset(firstgid, name, where, size, margin, spacing, tiles,
                               max(columns, 1), shapes=shapes, missing={-1: exc}), placing)
    if image is None:  # image data inside the file, which pytmx does not read
        return _placed(Tileset(firstgid, name, where, size, margin, spacing, max(count, 0), 1,
                               shapes=shapes), placing)
    real = (image.width, image.height)
    label = f"tileset image {shown(sheet.get('source'))} of tileset {name}"
    redo = "re-save the tileset from Tiled"
    declared = (whole(where, sheet, "width", label, redo, default=real[0], most=MAX_IMAGE_SIDE),
                whole(where, sheet, "height", label, redo, default=real[1], most=MAX_IMAGE_SIDE))

    # What Tiled cuts from the image: it goes by the real picture, whatever the file says.
    def grid_of(w: int, h: int) -> tuple[int, int]:
        return (max(0, (w - margin + spacing) // (size[0] + spacing)),
                max(0, (h - margin + spacing) // (size[1] + spacing)))
    now = grid_of(*real)
    if (real[0] < declared[0] or real[1] < declared[1]) and 0 in now:  # refused if placed
        short = UserError(where, f"{label} is {real[0]}x{real[1]} px but the tileset says "
                          f"{declared[0]}x{declared[1]} px, too small for a single tile; put the "
                          "full image back, or pick the image again in Tiled's Tileset "
                          "Properties and check the tiles")
        return _placed(Tileset(firstgid, name, where, size, margin, spacing, max(count, 0),
                               max(columns, 1), shapes=shapes, missing={-1: short}), placing)
    grown, said = None, declared
    if now != grid_of(*declared):  # more or fewer whole tiles than the file says
        was = grid_of(*declared)
        grown = (f"{label} is {real[0]}x{real[1]} px but the tileset says {declared[0]}x"
                 f"{declared[1]} px; Tiled cuts it by the picture, into {now[0]}x{now[1]} tiles "
                 f"(not {was[0]}x{was[1]}), and so does the game (open the tileset in Tiled, "
                 "check its tiles and save it again to silence this)")
        declared, columns = real, now[0]
        if count >= 0:  # fewer: the ids past the picture are missing (refused if placed)
            count = max(count, now[0] * now[1])
    # pytmx registers every tile of the grid it cuts (game.maps.tmxparse gives it the real
    # picture's size), used or not.
    _spend_tiles(where, name, len(range(margin, declared[0] + margin - size[0] + 1,
                                        size[0] + spacing))
                 * len(range(margin, declared[1] + margin - size[1] + 1, size[1] + spacing)),
                 budget)
    fit_cols, fit_rows = grid_of(*declared)
    cols = columns if columns > 0 else fit_cols
    tiles = count if count >= 0 else fit_cols * fit_rows
    rows = -(-tiles // cols) if cols else 0
    need = (margin + cols * size[0] + max(cols - 1, 0) * spacing,
            margin + rows * size[1] + max(rows - 1, 0) * spacing)
    short = None
    if tiles and (cols == 0 or need[0] > declared[0] or need[1] > declared[1]):
        extra = f", margin {margin}, spacing {spacing}" if margin or spacing else ""
        real_note = (f" (the file itself is {real[0]}x{real[1]} px)" if real != declared else
                     f" (the tileset says {said[0]}x{said[1]} px)" if said != declared else "")
        short = UserError(where, f"tileset {name} has {tiles} tiles of {size[0]}x{size[1]} px in "
                        f"{cols} columns{extra}, which need an image of at least "
                        f"{need[0]}x{need[1]} px, but its image "
                        f"{shown(sheet.get('source'))} is {declared[0]}x{declared[1]} "
                        f"px{real_note}; use the full image, or fix the tile size, margin and "
                        "spacing in Tiled's Tileset Properties")
        if not 0 < cols <= fit_cols or fit_rows == 0:
            raise short
        short = (fit_rows * cols, short)  # whole rows fit: the ids past them are missing
    return _placed(Tileset(firstgid, name, where, size, margin, spacing, tiles, max(fit_cols, 1),
                           shapes=shapes, cut_short=short, grown=grown), placing)


def _tile_offset(where: Path, node: ET.Element) -> tuple[int, int]:
    """The tileset's drawing offset (``<tileoffset>``): every tile of it is drawn this far from
    its cell (or tile object), in px."""
    el = node.find("tileoffset")
    if el is None:
        return 0, 0
    what = f"the tile offset of tileset {shown(node.get('name') or '?')}"
    fix = "fix it in Tiled's Tileset Properties (Drawing Offset)"
    return tuple(whole(where, el, axis, what, fix, least=-MAX_IMAGE_SIDE, default=0,
                       most=MAX_IMAGE_SIDE) for axis in "xy")


def _placed(tileset: Tileset, placing: tuple) -> Tileset:
    offset, alignment, render_size, fill_mode, grid = placing
    out = replace(tileset, offset=offset, alignment=alignment, render_size=render_size,
                  fill_mode=fill_mode, grid=grid)
    if out.at_grid and out.shapes:  # collision shapes drawn as the picture is
        shapes = {}
        for tile_id, found in out.shapes.items():
            sx, sy, dx, dy = out.drawn(tile_id)
            shapes[tile_id] = tuple(Shape(tuple((dx + x * sx, dy + y * sy) for x, y in s.points),
                                          s.closed) for s in found)
        out = replace(out, shapes=shapes)
    return out


def _tiles_of(where: Path, base: Path, node: ET.Element, name: str, fix: str, files: list[Path],
              budget: Budget):
    """What the tileset's <tile> elements say: (ids with an image of their own, their sizes,
    their sub-rectangles, collision shapes, missing images)."""
    ids, sizes, subrects, shapes, missing = set(), {}, {}, {}, {}
    for tile in node.iter("tile"):
        tile_id = whole(where, tile, "id", f"a <tile> of tileset {name}", fix, least=0,
                         most=GID_MASK)
        _spend_tiles(where, name, 1, budget)
        group = tile.find("objectgroup")
        if group is not None:
            found = tuple(s for s in map(shape_of, group.iter("object")) if s is not None)
            if found:
                shapes[tile_id] = found
        image = tile.find("image")
        if image is not None:
            try:
                real = _check_image(where, base, image, f"tileset {name}", files, budget)
            except _MissingImage as exc:
                ids.add(tile_id)
                missing[tile_id] = exc
                real = None
            if real is not None:
                ids.add(tile_id)
                sizes[tile_id] = (int_or_none(image.get("width")) or real.width,
                                  int_or_none(image.get("height")) or real.height)
                part = [int_or_none(tile.get(k)) for k in ("x", "y", "width", "height")]
                if part[2] and part[3]:  # a sub-rectangle of the image (Tiled 1.9)
                    x, y = part[0] or 0, part[1] or 0
                    if 0 <= x <= real.width - part[2] and 0 <= y <= real.height - part[3]:
                        subrects[tile_id] = (x, y, part[2], part[3])
                        sizes[tile_id] = (part[2], part[3])
                _spend_pixels(where, f"the tiles of tileset {name}",  # a copy per tile
                              real.width * real.height, budget)
    return ids, sizes, subrects, shapes, missing


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


def _check_image(where: Path, base: Path, image: ET.Element, owner: str, files: list[Path],
                 budget: Budget) -> ImageInfo | None:
    """An <image> of ``owner``: None if it has no file (its data inside the XML, which pytmx
    does not read); else its format and size, once it is known that pygame will load it."""
    src = image.get("source")
    if not src:
        return None
    file = Path(os.path.normpath(base / src))  # the path the window will open (normpath too)
    label = f"tileset image {shown(src)} of {owner}"
    if owner.startswith("image layer"):
        label = f"image {shown(src)} of {owner}"
    kind = file_kind(file)
    if kind == "missing":
        raise _MissingImage(where, f"{label} not found (looked in {file.parent}); put the image "
                        "there or fix the image path in Tiled")
    if kind != "file":
        raise UserError(where, f"{label} is not a file; point it at an image ({FORMATS}) in "
                        "Tiled")
    files.append(file)
    key = file.resolve()
    if key in budget.images:
        return budget.images[key]
    try:
        budget.image_bytes += file.stat().st_size
        if budget.image_bytes > MAX_IMAGE_BYTES:
            raise UserError(where, f"{label} takes the map's image files past "
                            f"{MAX_IMAGE_BYTES // 1_000_000} MB together, far more than any real "
                            "level; check that it is the right file, or use smaller images")
        info = probe(file)
        if info.width > MAX_IMAGE_SIDE or info.height > MAX_IMAGE_SIDE:
            raise UserError(where, f"{label} is {info.width}x{info.height} px; at most "
                            f"{MAX_IMAGE_SIDE} px a side is read; use a smaller image")
        _spend_pixels(where, f"{label} ({info.width}x{info.height} px) and the images "
                      "before it", info.width * info.height, budget)
        verify(file, info)
    except BadImage as exc:
        raise UserError(where, f"{label} {exc}; {exc.fix}") from None
    except OSError as exc:
        raise UserError(where, f"cannot read {label} ({exc.strerror or exc})") from None
    budget.images[key] = info
    return info


def _check_object_ids(path: Path, root: ET.Element) -> None:
    """No two objects of the map's object layers share an id (Tiled never writes that; a
    platform's ``path`` would then point at whichever came last). Objects without an id (maps
    from before Tiled 1.0) and the shapes inside tilesets, which number their own, are left out."""
    seen: dict[str, int] = {}

    def walk(el: ET.Element) -> None:
        for child in el:
            if child.tag == "group":
                walk(child)
            elif child.tag == "objectgroup":
                for obj in child.iter("object"):
                    if obj.get("id") is not None:
                        seen[obj.get("id")] = seen.get(obj.get("id"), 0) + 1
    walk(root)
    twice = [i for i, n in seen.items() if n > 1]
    if twice:
        listed = ", ".join(shown(i, 12) for i in twice[:10]) + (", ..." if len(twice) > 10 else "")
        raise UserError(path, f"objects share an id (id{'s' if len(twice) > 1 else ''} {listed}), "
                        "which Tiled never writes; give each object its own id (copy the objects "
                        "and paste them back in Tiled, or edit the file)")


def _map_has(name: str) -> bool:
    """Is ``name`` an attribute of pytmx's map, so that a map property of that name clashes?"""
    from game.maps.tmxparse import import_pytmx  # pytmx, imported headless, once it is needed

    return name in RESERVED and hasattr(import_pytmx().TiledMap(), name)


def _check_reserved_names(path: Path, root: ET.Element, notes: list[str] | None = None) -> None:
    """pytmx raises on a custom property named like a built-in attribute (``type`` on an
    object...). In the map's own tree (``notes`` given) such a property is taken out before
    pytmx sees it, with a note: the game reads none of them. In an external tileset, which
    pytmx reads from its file, it is one ``error:`` line."""
    owners = ("map", "layer", "objectgroup", "imagelayer", "group", "object", "tileset")
    for el in root.iter():
        if el.tag not in owners:
            continue
        props = el.find("properties")
        if props is None:
            continue
        for prop in props.findall("property"):
            name = prop.get("name", "")
            if el.tag == "map" and name not in el.attrib and not _map_has(name):
                continue  # pytmx reads a map property named like a layer's attribute
            if name in RESERVED or name in el.attrib:
                label = el.get("name") or el.get("id") or ""
                owner = "the map" if el.tag == "map" else f"{el.tag} {quoted(label)}"
                if notes is None:
                    raise UserError(path, f"custom property {quoted(name)} on {owner} has the "
                                    "name of a built-in attribute; rename it in Tiled")
                props.remove(prop)
                notes.append(f"{path}: custom property {quoted(name)} on {owner} has the name "
                             "of a built-in attribute, which pytmx cannot read, so it is left "
                             "out (the game uses no such property); rename it in Tiled")
