"""Map data: a Tiled file becomes the game's own :class:`~game.maps.level.Level`.

One pipeline, each step once (``game.maps.level``): every file read once (``files``), one plain
TMX document (``document``), pytmx's one parse, one typed model (``model``), the conventions
over it (``conventions``, ``marks``, ``collision``, ``start``, ``objects``), then a ``Level`` for the
simulation and its ``view`` (``art``) for what only the view needs.

No pygame display and no images here: the simulation, the tests and the benchmarks read levels
headless. Only the view turns a level's tile layers into pictures.

The pipeline, in order:

- ``level``: ``load_level``: the pipeline's steps in order, ending in a ``Level``.
- ``files``: step 1: every file a level is made of, read once, within the limits.
- ``limits``: the loader's limits and the budget a map spends against them.
- ``tiled_json``: Tiled's JSON maps, tilesets and templates, as the TMX elements Tiled would save.
- ``templates``: object templates, each instance taking what it does not set itself.
- ``document``: step 2: one plain TMX document for pytmx, and the records of the typed model.
- ``decode``: the one decoder of tile data (CSV, base64, zlib, gzip, zstd, chunks) into gids.
- ``tilesets``: a tileset read once and checked: grid, pictures, shapes, animations, classes.
- ``imagefile``: what an image file is, from its own bytes, without keeping its pixels.
- ``orientation``: a map's orientation (orthogonal, isometric, staggered, hexagonal), checked.
- ``checked``: reading a value from a map's elements, checked where it is read.
- ``model``: the map as one small typed model, what every later stage reads.
- ``conventions``: how a map says what collides, one small function per engine's convention.
- ``marks``: the conventions run over one map, in their order: what collides, with its notes.
- ``collision``: the collision grid from the model: the game's own property or a convention.
- ``shapes``: collision shapes in map pixels, and what they make of the grid's cells.
- ``start``: where the player starts, on a map that may not say it the game's way.
- ``objects``: the game's own objects: spawn, goals, walkers, checkpoints, coins, switches.
- ``platform_spawns``: moving platforms as the map says them.
- ``respawn_room``: the spawn and respawn points kept clear of solid moving platforms.
- ``art``: what only the view needs of a level (``MapView``): pictures, tile objects, layers.
- ``backdrop``: which backdrop (sky and far hills) a level is drawn over.

What a level is, as plain data:

- ``records``: the loader's plain frozen records (``Level``, ``Rect``, ``WalkerSpawn``...).
- ``grid``: the collision grid (``TileGrid``): what each tile *is*.
- ``tiles``: what tiles and objects *do* beyond blocking: hazards, ice, water, doors, coins.
"""
