"""Stage 1, before the checks: object templates (``.tx``) folded into the map's own objects.

An object placed from a template (Tiled 1.1+) holds only what differs from it: its id, position
and the attributes and properties changed on it. pytmx does not read templates, so the instance
would have no name, type, size, tile or shape. Here each instance gets what it leaves out from
its template, as Tiled shows it: attributes, the shape element, and the properties it does not
set itself; a template's tile is renumbered into the map's tilesets.
"""

from __future__ import annotations

import copy
import os
import xml.etree.ElementTree as ET
from pathlib import Path

from game.errors import UserError
from game.maps.limits import Budget, file_kind, shown
from game.maps.safexml import int_or_none, read_xml

FLIPS = 0xF0000000


def resolve_templates(path: Path, root: ET.Element, budget: Budget) -> list[Path]:
    """Fold every object's template into it; returns the template files read."""
    read: dict[Path, ET.Element] = {}
    firstgid_of = {}  # a map tileset's file -> its firstgid
    for ts in root.findall("tileset"):
        if ts.get("source"):
            firstgid_of[Path(os.path.normpath(path.parent / ts.get("source")))] = ts.get("firstgid")
    for obj in root.iter("object"):
        source = obj.attrib.pop("template", None)
        if not source:
            continue
        file = Path(os.path.normpath(path.parent / source))
        if file not in read:
            if file_kind(file) != "file":
                raise UserError(path, f"object template {shown(source)} (of object id "
                                f"{shown(obj.get('id', '?'))}) not found (looked in "
                                f"{file.parent}); put the .tx file there, or detach the object "
                                "from its template in Tiled")
            read[file] = read_xml(file, "template", "a Tiled object template (.tx)", budget)
        _fold(obj, read[file], file, firstgid_of)
    return list(read)


def _fold(obj: ET.Element, template: ET.Element, file: Path, firstgid_of: dict) -> None:
    model = template.find("object")
    if model is None:
        return
    for key, value in model.attrib.items():
        if key not in obj.attrib and key not in ("id", "gid"):
            obj.set(key, value)
    if "gid" not in obj.attrib and model.get("gid"):
        gid = _map_gid(int_or_none(model.get("gid")), template, file, firstgid_of)
        if gid is not None:
            obj.set("gid", str(gid))
    for child in model:
        if child.tag == "properties":
            mine = obj.find("properties")
            if mine is None:
                obj.append(copy.deepcopy(child))
                continue
            have = {p.get("name") for p in mine.findall("property")}
            for prop in child.findall("property"):
                if prop.get("name") not in have:
                    mine.append(copy.deepcopy(prop))
        elif obj.find(child.tag) is None:
            obj.append(copy.deepcopy(child))


def _map_gid(gid: int | None, template: ET.Element, file: Path, firstgid_of: dict) -> int | None:
    """The template's tile as the map numbers it (the same .tsx, the map's firstgid)."""
    ts = template.find("tileset")
    if gid is None or ts is None or not ts.get("source"):
        return None
    tsx = Path(os.path.normpath(file.parent / ts.get("source")))
    first_map = int_or_none(firstgid_of.get(tsx))
    first_tx = int_or_none(ts.get("firstgid")) or 1
    if first_map is None:
        return None
    return (gid & FLIPS) | ((gid & ~FLIPS) - first_tx + first_map)
