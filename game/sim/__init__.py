"""The simulation: one :class:`~game.sim.world.World` steps the player, walkers, moving platforms
and spears through the chosen resolver, one fixed tick at a time, from input given as data.

Headless by design: nothing here imports ``pygame.display``, ``pygame.event`` or ``pygame.key``.
"""
