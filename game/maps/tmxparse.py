"""Stage 1c of loading: pytmx reads the checked tree, without images and without pygame."""

from __future__ import annotations

import os
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from game.errors import UserError
from game.maps.checks import HEX_120, MapInfo
from game.maps.imagefile import BadImage, probe
from game.maps.limits import Budget, shown
from game.maps.safexml import read_xml


def import_pytmx():
    """pytmx, imported without pulling in pygame when pygame is not loaded yet.

    pytmx imports pygame only for a type hint and for its optional image helpers, and importing
    pygame loads its display, event and key modules. Level data needs none of that (the view
    loads tile images itself), so pygame is hidden while pytmx is first imported, and pytmx takes
    its documented no-pygame path. Loading a level, and so the whole simulation, stays headless.
    """
    if "pytmx" not in sys.modules and "pygame" not in sys.modules:
        hidden = ("pygame", "pytmx.util_pygame")
        for name in hidden:
            sys.modules[name] = None  # type: ignore[assignment]
        try:
            import pytmx
        finally:
            for name in hidden:
                if name in sys.modules and sys.modules[name] is None:
                    del sys.modules[name]
    import pytmx

    return pytmx


def parse_with_pytmx(path: Path, root: ET.Element, info: MapInfo):
    """pytmx's map, made from the very tree that was checked (not from the file read again).

    pytmx numbers the gids it meets in the order it meets them, calling Python once per cell of
    every tile layer, which is most of the time a big map takes to load. The checks have decoded
    every layer already, so pytmx gets, in place of each layer's cells, only the gids that layer
    places first, in the order it places them: it numbers them exactly as it would number the
    whole layer, and does the rest of its work (tilesets, tile properties, objects) as usual.
    Its tile layers then hold those few gids, not the cells: :func:`_build_level` reads the
    cells from ``info``. The tree is put back as it was.

    pytmx reads an external tileset only from a file named ``.tsx``; one saved under another
    name (Tiled also offers ``.xml``) is put into the tree for it, as if embedded.
    """
    pytmx = import_pytmx()
    inlined = _inline_tilesets(path, root)
    # pytmx reads layer offsets with int(), and Tiled writes fractional ones ("6.06061"): it
    # gets them rounded (the game reads its offsets from the tree itself). All put back after.
    offsets = [(el, dict(el.attrib)) for el in root.iter()
               if any(_fraction(el.get(k)) for k in ("offsetx", "offsety"))]
    # A class-typed property makes pytmx look its class up in a Tiled project it does not have
    # (a KeyError): it gets such properties as plain ones (the game reads none of them).
    classes = [(el, dict(el.attrib)) for el in root.iter("property") if el.get("type") == "class"]
    for el, _ in classes:
        del el.attrib["type"]
    offsets += classes
    for el, _ in offsets:
        for k in ("offsetx", "offsety"):
            if _fraction(el.get(k)):
                el.set(k, str(round(float(el.get(k)))))
    datas = [layer.find("data") for layer in root.iter("layer")]
    kept = [(data.text, dict(data.attrib)) for data in datas]
    for data, layer in zip(datas, info.layers, strict=True):
        data.attrib.clear()
        data.set("encoding", "csv")
        # pytmx knows three flip bits; a hexagonal 120-degree turn (bit 28) is numbered by
        # the game itself (game.maps.tilelayers), so pytmx sees the tile without it
        data.text = ",".join(map(str, dict.fromkeys(g & ~HEX_120 if 0 <= g < 1 << 32 else g
                                                    for g in layer.new))) or "0"
    try:
        tmx = pytmx.TiledMap()  # no file name: nothing parsed yet
        tmx.filename = str(path)  # what it finds .tsx files and images beside
        tmx.parse_xml(root)
        return tmx
    except Exception as exc:  # pytmx raises bare Exception/ValueError/KeyError for bad files
        raise UserError(path, f"pytmx could not read the map ({type(exc).__name__}: "
                        f"{shown(str(exc), 200)}); open and re-save it in Tiled 1.8 or "
                        "newer") from None
    finally:
        for el, attrib in offsets:
            el.attrib.clear()
            el.attrib.update(attrib)
        for ts, attrib, children in inlined:
            ts.attrib.clear()
            ts.attrib.update(attrib)
            ts[:] = children
        for data, (text, attrib) in zip(datas, kept):
            data.text = text
            data.attrib.clear()
            data.attrib.update(attrib)


def _inline_tilesets(path: Path, root: ET.Element) -> list:
    """Copy each external tileset not named .tsx into its <tileset> element, its images' paths
    made relative to the map; returns what to put back."""
    kept = []
    for ts in root.iter("tileset"):
        source = ts.get("source")
        if not source:
            _sized_images(ts, path.parent)
            continue
        file = Path(os.path.normpath(path.parent / source))
        node = read_xml(file, "tileset", "a Tiled tileset", Budget())  # checked once already
        if source[-4:].lower() == ".tsx" and not _sized_images(node, file.parent, dry=True):
            continue
        kept.append((ts, dict(ts.attrib), list(ts)))
        attrib = {**node.attrib, "firstgid": ts.get("firstgid", "1")}
        ts.attrib.clear()
        ts.attrib.update(attrib)
        ts[:] = list(node)
        _sized_images(ts, file.parent)
        for image in ts.iter("image"):
            if image.get("source"):
                image.set("source", os.path.relpath(file.parent / image.get("source"),
                                                    path.parent))
    return kept


def _sized_images(ts: ET.Element, base: Path, dry: bool = False) -> bool:
    """Give every <image> its file's real width and height, where the XML lacks them (pytmx
    needs them; Tiled does not always write them) or says otherwise (Tiled cuts tiles by the
    picture, game.maps.checks). Returns whether one needed it (``dry``: change nothing).
    An embedded tileset's changes stay: they are what Tiled sees, made explicit."""
    lacking = False
    for image in ts.iter("image"):
        if not image.get("source"):
            continue
        try:
            info = probe(Path(os.path.normpath(base / image.get("source"))))
        except (OSError, BadImage):
            info = None  # missing or unreadable: the checks have said what they make of it
        if info is None:
            continue
        if image.get("width") != str(info.width) or image.get("height") != str(info.height):
            lacking = True
            if not dry:
                image.set("width", str(info.width))
                image.set("height", str(info.height))
    return lacking


# ----------------------------------------------------------------------------------------------
# Building the level


def _fraction(text: str | None) -> bool:
    """Is ``text`` a number that is not a whole one (what pytmx's int() refuses)?"""
    if text is None:
        return False
    try:
        int(text)
        return False
    except ValueError:
        try:
            float(text)
            return True
        except ValueError:
            return False
