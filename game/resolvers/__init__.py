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
from game.resolvers.routing import RoutingResolver
from game.resolvers.sweep import SweepResolver

REGISTRY: dict[str, type] = {
    cls.name: cls
    for cls in (
        AxisResolver,
        CornersResolver,
        RoutingResolver,
        SweepResolver,
        OverlapResolver,
    )
}


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


__all__ = ["REGISTRY", "Body", "Contacts", "Move", "Resolver", "create", "describe", "move_body",
           "move_box", "names"]
