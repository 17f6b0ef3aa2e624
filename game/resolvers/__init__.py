"""The collision resolvers: one module each, all behind :class:`base.Resolver`.

``REGISTRY`` maps a config name to its class, in the order the articles are numbered.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from game.resolvers.axis import AxisResolver
from game.resolvers.base import Body, Contacts, Move, Resolver, move_body, move_box
from game.resolvers.corners import CornersResolver
from game.resolvers.overlap import OverlapResolver
from game.resolvers.pixel import PixelResolver
from game.resolvers.routing import RoutingResolver
from game.resolvers.sweep import SweepResolver
from game.resolvers.swept import SweptResolver

REGISTRY: dict[str, type] = {
    cls.name: cls
    for cls in (
        AxisResolver,
        CornersResolver,
        RoutingResolver,
        SweepResolver,
        OverlapResolver,
        PixelResolver,
        SweptResolver,
    )
}


# One colour per resolver (RGB), shared by every picture of them: ghosts, the debug view's probed
# cells and push-outs, the lab's paths in lab.png. Plain data: no display needed.
COLOURS: dict[str, tuple[int, int, int]] = {
    "axis": (255, 95, 95),
    "corners": (255, 205, 60),
    "routing": (90, 225, 120),
    "sweep": (90, 175, 255),
    "overlap": (225, 115, 255),
    "pixel": (255, 150, 40),
    "swept": (60, 230, 230),
}
OTHER_COLOUR = (230, 230, 230)  # a resolver missing from COLOURS


def colour(name: str) -> tuple[int, int, int]:
    """The resolver ``name``'s colour in every picture."""
    return COLOURS.get(name, OTHER_COLOUR)


def names() -> list[str]:
    return list(REGISTRY)


def create(name: str, options: Any = None) -> Resolver:
    """A resolver by config name; ``options`` is its Options dataclass (defaults if None)."""
    cls = REGISTRY[name]
    return cls(options if options is not None else cls.Options())


def describe(name: str) -> Mapping[str, Any]:
    cls = REGISTRY[name]
    return {"name": name, "article": cls.article, "axis_order": cls.axis_order,
            "slopes": cls.supports_slopes, "summary": cls.summary}


__all__ = ["COLOURS", "OTHER_COLOUR", "REGISTRY", "Body", "Contacts", "Move", "Resolver", "colour", "create", "describe", "move_body",
           "move_box", "names"]
