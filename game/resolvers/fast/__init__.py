"""Fast twins of the lessons: for a resolver whose lesson costs too much for play, a subclass
that answers the usual moves with fewer interpreter steps and hands every other move (and every
move whose probed cells are wanted) to the lesson. Each is held to its lesson bit for bit by
``tests/test_resolver_fast.py``; one that saves less than a third of a mover-step's cost in
``tools/bench.py`` is deleted rather than kept.

``FAST`` maps a resolver's name to its twin; a resolver missing from it plays its lesson.

- ``axis``, ``corners``, ``routing``, ``sweep``, ``overlap``, ``pixel``, ``swept``: the twin of
  the lesson of the same name (``FastAxis`` of ``game.resolvers.axis``, and so on).
"""

from __future__ import annotations

from game.resolvers.fast.axis import FastAxis
from game.resolvers.fast.corners import FastCorners
from game.resolvers.fast.routing import FastRouting
from game.resolvers.fast.overlap import FastOverlap
from game.resolvers.fast.pixel import FastPixel
from game.resolvers.fast.sweep import FastSweep
from game.resolvers.fast.swept import FastSwept

FAST: dict[str, type] = {cls.name: cls for cls in (FastAxis, FastCorners, FastRouting,
                                                   FastSweep, FastOverlap, FastPixel, FastSwept)}
