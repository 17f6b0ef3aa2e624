"""Which backdrop (a sky and a row of far hills, behind every layer) a level is drawn over.

The map property ``backdrop`` names one: ``day`` (the default), ``dawn``, ``dusk``, ``night``, ``moon``,
or ``none`` (only the map's own background colour and image layers). A map that sets neither
the property nor anything of its own is drawn over the day sky; a map with its own background
colour or image layers (most maps made for other engines) keeps its own look: ``none``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from game.errors import UserError, quoted

BACKDROPS = ("day", "dawn", "dusk", "night", "moon", "none")


def backdrop_of(path: Path, properties: Mapping[str, Any], own_background: bool) -> str:
    """The backdrop named by the map's ``backdrop`` property, or the default for the map."""
    value = properties.get("backdrop")
    if value is None or value == "":
        return "none" if own_background else "day"
    if not isinstance(value, str) or value.strip().lower() not in BACKDROPS:
        raise UserError(path, f"map property backdrop is {quoted(str(value))}; use one of "
                        f"{', '.join(BACKDROPS)} (Map > Map Properties)")
    return value.strip().lower()
