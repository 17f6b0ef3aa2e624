"""The collision resolvers: one module each, all behind :class:`base.Resolver`.

Each ``game/resolvers/<name>.py`` is a lesson: its article's technique, read top to bottom, then
what the project adds beyond it. Where a faster way to the same answers earns its keep, it lives
apart in ``game/resolvers/fast/<name>.py``: a subclass of the lesson that answers the usual moves
itself and hands the rest to the lesson, held to it bit for bit by the tests.

``REGISTRY`` maps a config name to its lesson class, in the order the articles are numbered;
``PLAY`` maps it to the class the game moves bodies with (the fast twin, or the lesson itself).

- ``base``: what every resolver shares: the contact flags and records, the interface, the mover.
- ``axis``: axis-separated move and push-out.
- ``corners``: probe the corners of the destination box.
- ``routing``: tile kind -> per-side functions.
- ``routing_faces``: for ``routing``, the sides of each cell a body can meet, from the grid.
- ``sweep``: a direction-specific half box, shrunk and stretched.
- ``overlap``: push out of every overlapping tile, largest overlap first.
- ``pixel``: whole pixels, one at a time (Celeste and TowerFall).
- ``swept``: swept AABB, time of impact, slide (the Minkowski-sum ray).
- ``swept_floors``: for ``swept``, the floor under a body: where a slide along it ends.
- ``footing``: slope geometry for the resolvers that began as box resolvers.
- ``fast``: the fast twins, held to their lessons bit for bit.
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
from game.resolvers.fast import FAST

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
# The class play uses for each resolver: its fast twin where one earns its keep, else the lesson.
PLAY: dict[str, type] = {name: FAST.get(name, cls) for name, cls in REGISTRY.items()}


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


def create(name: str, options: Any = None, *, lesson: bool = False) -> Resolver:
    """A resolver by config name, as play uses it (its fast twin if it has one), or with
    ``lesson`` its lesson class; ``options`` is its Options dataclass (defaults if None)."""
    # (a class registered without an entry in PLAY plays itself)
    cls = REGISTRY[name] if lesson else PLAY.get(name, REGISTRY[name])
    return cls(options if options is not None else cls.Options())


def is_lesson(resolver: Any) -> bool:
    """Is this resolver its article's lesson class itself (not a fast twin of it)?"""
    return type(resolver) is REGISTRY.get(getattr(resolver, "name", None), None)


def moved_by(resolver: Any) -> str:
    """Which class moves bodies with this resolver, in a few words (the debug view's line): its
    lesson's class (``AxisResolver``) or its fast twin's (``FastAxis``)."""
    return f"moved by {type(resolver).__name__}"


def describe(name: str) -> Mapping[str, Any]:
    cls = REGISTRY[name]
    return {"name": name, "article": cls.article, "axis_order": cls.axis_order,
            "slopes": cls.supports_slopes, "summary": cls.summary}


__all__ = ["COLOURS", "OTHER_COLOUR", "PLAY", "REGISTRY", "Body", "Contacts", "Move", "Resolver",
           "colour", "create", "describe", "is_lesson", "move_body", "move_box", "moved_by",
           "names"]
