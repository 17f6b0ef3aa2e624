"""Reading a value from a map's elements, checked where it is read: whole numbers and numbers
within their reach, and custom properties as pytmx will be able to type them.

Every mistake is one :class:`~game.errors.UserError` naming the file where it is edited (the map,
or the ``.tsx`` or template it is in) and what to change in Tiled.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from game.errors import UserError, quoted

FIX = "fix it in Tiled's Properties panel (or in the file)"


# --- colours: one parser --------------------------------------------------------------------------
Colour = tuple[int, int, int, int]  # RGBA, 0-255
WHITE: Colour = (255, 255, 255, 255)


def colour(value: Any) -> Colour | None:
    """A Tiled colour (``#RRGGBB`` or ``#AARRGGBB``, the ``#`` optional, spaces around it
    ignored) as RGBA; None for anything else."""
    if not isinstance(value, str):
        return None
    v = value.strip().lstrip("#")
    if len(v) not in (6, 8) or not all(c in "0123456789abcdefABCDEF" for c in v):
        return None
    n = [int(v[i:i + 2], 16) for i in range(0, len(v), 2)]
    return (n[1], n[2], n[3], n[0]) if len(n) == 4 else (n[0], n[1], n[2], 255)


def times(a: Colour, b: Colour) -> Colour:
    """Two tints together, as Tiled multiplies a group's tint into its layers'."""
    return tuple(round(x * y / 255) for x, y in zip(a, b))  # type: ignore[return-value]


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
        said = f"no {attr}" if raw is None else f"{attr}={quoted(raw)}"
        if least == 1:
            must = "a whole number above 0" + (f", at most {most:,}" if most is not None else "")
        else:
            must = f"a whole number from {least} " + (f"to {most:,}" if most is not None else "up")
        raise UserError(where, f"{what} has {said}; it must be {must}; {fix}")
    return value


def number(where: Path, el: ET.Element, attr: str, what: str, least: float, most: float,
           default: float, fix: str = FIX) -> float:
    """Attribute ``attr`` of ``el`` as a finite number from ``least`` to ``most`` (absent:
    ``default``): nan, infinities and 1e300 would pass headless and break the window."""
    raw = el.get(attr)
    if raw is None:
        return default
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not least <= value <= most:  # false for nan too
        span = f"from {least:,g} to {most:,g}"
        raise UserError(where, f"{what} has {attr}={quoted(raw)}; it must be a number {span}; "
                        f"{fix}")
    return value


MAX_DEGREES = 1e6  # an angle beyond this many degrees is no angle an editor wrote


def angle(where: Path, el: ET.Element, attr: str, what: str, fix: str = FIX) -> float:
    """Attribute ``attr`` of ``el`` as an angle in degrees, brought into -360..360: Tiled keeps
    whatever was typed or turned (Silly Sam's maps have 391.098, which is 31.098), so any
    finite number up to :data:`MAX_DEGREES` is one."""
    return math.fmod(number(where, el, attr, what, -MAX_DEGREES, MAX_DEGREES, 0.0, fix), 360.0)


def flag(el: ET.Element, attr: str, default: bool = False) -> bool:
    """A Tiled 0/1 attribute (``visible``, ``repeatx``...): anything but "0" is 1, as Tiled reads
    it, and "true"/"false" as the JSON formats say it."""
    raw = el.get(attr)
    if raw is None:
        return default
    raw = raw.strip().lower()
    return raw not in ("0", "false", "")


def text_of(el: ET.Element, attr: str) -> str:
    return (el.get(attr) or "").strip()


# --- custom properties ---------------------------------------------------------------------------

_CHECK = {"int": int, "object": int, "float": float}


def properties(where: Path, el: ET.Element, owner: str, reserved: frozenset[str],
               dropped: dict) -> tuple[ET.Element | None, tuple[str, ...]]:
    """``el``'s custom properties written for pytmx, and their names.

    A property named like one of pytmx's attributes of the element (``reserved``: pytmx raises)
    is left out, its owner added to ``dropped[(where, name)]`` for the note :func:`dropped_notes`
    says (the game reads none of those); a class-typed property (pytmx would look its class up
    in a Tiled project it does not have) is left out silently: the game reads none. A value its
    type cannot hold is one error line."""
    found = el.find("properties")
    if found is None:
        return None, ()
    out = ET.Element("properties")
    names: list[str] = []
    for prop in found.findall("property"):
        name = prop.get("name")
        kind = prop.get("type") or "string"
        if not name or kind == "class":
            continue
        if name in reserved:
            dropped.setdefault((str(where), name), []).append(owner)
            continue
        value = prop.get("value")
        if value is None:
            value = prop.text or ""
        if kind == "bool":
            low = value.strip().lower()
            if low not in ("true", "false", "1", "0"):
                raise UserError(where, f"custom property {quoted(name)} on {owner} is a bool "
                                f"with the value {quoted(value)}; tick or untick it in Tiled")
            value = "true" if low in ("true", "1") else "false"
        elif kind in _CHECK:
            try:
                checked = _CHECK[kind](value.strip() or ("0" if kind == "object" else value))
            except (ValueError, OverflowError):
                raise UserError(where, f"custom property {quoted(name)} on {owner} is of type "
                                f"{kind} with the value {quoted(value)}, which is not one; "
                                f"{FIX}") from None
            value = repr(checked) if kind == "float" else str(checked)
        elif kind not in ("string", "color", "file"):
            kind = "string"  # an enum or a type a later Tiled adds: read as its text
        copy = ET.SubElement(out, "property", name=name)
        if kind != "string":
            copy.set("type", kind)
        if "\n" in value and kind == "string":
            copy.text = value  # pytmx reads a multi-line string from the text, untyped
        else:
            copy.set("value", value)
        names.append(name)
    return (out if names else None), tuple(dict.fromkeys(names))


def dropped_notes(dropped: dict) -> list[str]:
    """One note per file and property name for the properties :func:`properties` left out."""
    notes = []
    for (where, name), owners in dropped.items():
        said = owners[0] if len(owners) == 1 else (
            f"{len(owners)} elements ({', '.join(owners[:3])}{', ...' if len(owners) > 3 else ''})")
        notes.append(f"{where}: custom property {quoted(name)} on {said} has the name of a "
                     "built-in attribute, which pytmx cannot read, so it is left out (the game "
                     "uses no such property); rename it in Tiled")
    return notes

