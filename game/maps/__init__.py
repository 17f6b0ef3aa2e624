"""Map data: a Tiled file becomes the game's own :class:`~game.maps.level.Level`.

One pipeline, each step once (``game.maps.level``): every file read once (``files``), one plain
TMX document (``document``), pytmx's one parse, one typed model (``model``), the conventions
over it (``conventions``, ``collision``, ``start``, ``objects``), then a ``Level`` for the
simulation and its ``view`` (``art``) for what only the view needs.

No pygame display and no images here: the simulation, the tests and the benchmarks read levels
headless. Only the view turns a level's tile layers into pictures.
"""
