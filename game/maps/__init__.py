"""Map data: a Tiled file becomes the game's own :class:`~game.maps.level.Level`.

No pygame display and no images here: the simulation, the tests and the benchmarks read levels
headless. Only the view turns a level's tile layers into pictures.
"""
