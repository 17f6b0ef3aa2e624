"""A pygame-ce platformer on Tiled levels, built to compare tile-map collision resolvers.

Layers, imports pointing one way only:

* map data   -- ``game.grid`` and ``game.level`` (what a level *is*; no pygame at all)
* simulation -- ``game.resolvers``, ``game.player``, ``game.world``, ``game.camera``,
  ``game.inputs``, ``game.headless`` (headless: never imports pygame's display, event or key)
* view/app   -- ``game.view`` (window, drawing, keyboard, the real-time loop)
"""
