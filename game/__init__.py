"""tilecollide: a pygame-ce platformer on Tiled levels, built to compare tile-map collision resolvers.

The packages are the layers, lowest first; a module imports only from its own layer or lower ones
(``tests/test_layers.py`` checks it, ``docs/architecture.md`` draws it):

* ``game.errors``    -- the one error a user's mistake becomes (``error:`` lines, exit 2)
* ``game.maps``      -- a Tiled file -> the game's level data (no pygame display, no images)
* ``game.resolvers`` -- the collision techniques, one module each, behind one interface
* ``game.config``    -- ``config.toml`` -> frozen dataclasses (physics, player, resolver options)
* ``game.sim``       -- the headless simulation: input as data, the world and its bodies, camera
* ``game.runs``      -- ways to run it without a window: headless traces, ghosts' records, the
  collision lab, recordings, saved settings
* ``game.view``      -- the window: the frame loop, scenes, drawing, keyboard and pad, sound
* ``game.cli``       -- the command line, which picks one of the above
"""
