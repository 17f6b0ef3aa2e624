"""Object templates (``.tx``, ``.tj``): each instance takes every attribute, property and shape of
its template that it does not set itself, as Tiled does when it detaches a template (Tiled saves
only what an instance changes).

Each template file is read once, however many instances it has; a tile template's tile is found
in the map's copy of its tileset (the same file), and a tileset the map lacks is added to it once,
whatever the number of instances that need it.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

from game.errors import UserError
from game.maps import checked
from game.maps.decode import GID_MASK
from game.maps.files import TEMPLATE, Reader, real
from game.maps.limits import shown

SHAPES = ("ellipse", "point", "polygon", "polyline", "text")


class Templates:
    """Applies templates to a map's objects. ``tileset_for(file)`` gives the map's firstgid of
    the tileset in ``file``, adding the tileset to the map if it lacks it."""

    def __init__(self, map_path: Path, reader: Reader,
                 tileset_for: Callable[[Path, Path], int]) -> None:
        self.map_path, self.reader, self.tileset_for = map_path, reader, tileset_for
        self._read: dict[Path, tuple[ET.Element, ET.Element | None]] = {}

    def applied(self, obj: ET.Element) -> ET.Element:
        """``obj`` as Tiled detaches it: a new element if it is a template's instance."""
        source = obj.get("template")
        if not source:
            return obj
        file = Path(os.path.normpath(self.map_path.parent / source))
        template, ref = self._template(file)
        merged = ET.Element("object", {k: v for k, v in obj.attrib.items() if k != "template"})
        for key, value in template.attrib.items():
            if key not in ("id", "x", "y", "gid"):  # an instance's place and id are its own
                merged.attrib.setdefault(key, value)
        mine = [el for el in obj if el.tag in SHAPES]
        merged.extend(mine or [el for el in template if el.tag in SHAPES])
        props = ET.SubElement(merged, "properties")
        own = obj.find("properties")
        have = set()
        for p in (own.findall("property") if own is not None else ()):
            props.append(p)
            have.add(p.get("name"))
        theirs = template.find("properties")
        for p in (theirs.findall("property") if theirs is not None else ()):
            if p.get("name") not in have:
                props.append(p)
        if template.get("gid") and "gid" not in obj.attrib:
            merged.set("gid", str(self._gid(file, template, ref)))
        return merged

    def _template(self, file: Path) -> tuple[ET.Element, ET.Element | None]:
        key = real(file)
        if key not in self._read:
            root = self.reader.document(file, TEMPLATE)
            found = root.find("object")
            if found is None:
                raise UserError(file, "the template holds no object; re-save it from Tiled")
            self._read[key] = (found, root.find("tileset"))
        return self._read[key]

    def _gid(self, file: Path, template: ET.Element, ref: ET.Element | None) -> int:
        """The map's gid for a tile template's tile: the same tile of the same tileset file in
        the map's numbering."""
        if ref is None or not ref.get("source"):
            raise UserError(file, "the template places a tile but names no tileset; re-save it "
                            "from Tiled")
        fix = "re-save the template from Tiled"
        raw = checked.whole(file, template, "gid", "the template's object", fix, least=1,
                            most=(1 << 32) - 1)
        firstgid = checked.whole(file, ref, "firstgid", f"its tileset {shown(ref.get('source'))}",
                                 fix, most=GID_MASK)
        local = (raw & GID_MASK) - firstgid
        if local < 0:
            raise UserError(file, f"the template's tile (gid {raw & GID_MASK}) comes before its "
                            f"tileset's first gid {firstgid}; {fix}")
        start = self.tileset_for(file, Path(os.path.normpath(file.parent / ref.get("source"))))
        return (start + local) | (raw & ~GID_MASK)
