"""The simulation: one :class:`~game.sim.world.World` steps the player, walkers, moving platforms
and spears through the chosen resolver, one fixed tick at a time, from input given as data.

Headless by design: nothing here imports ``pygame.display``, ``pygame.event`` or ``pygame.key``.

- ``world``: :class:`~game.sim.world.World`: a level, the player, its other bodies and a
  resolver, stepped one tick at a time in a fixed order.
- ``inputs``: input as data: one frozen ``InputFrame`` per tick, held keys, input scripts.
- ``player``: the player's movement, one ``step`` per tick read top to bottom.
- ``walkers``: bodies that patrol a level with the world's resolver.
- ``platforms``: moving platforms that carry, push and squish the player.
- ``spear``: the thrown spear, which sticks or slides by the contact its resolver reports.
- ``bodies``: body-to-body contacts (stomp, hurt) through a broad phase.
- ``living``: friction, water, hazards, checkpoints, coins, switches and doors as the player
  meets them.
- ``camera``: the camera as pure functions of target, view size and map size.
- ``ghosts``: every resolver playing the same level with the same input, side by side.
- ``shared_walkers``: walkers shared by the ghosts' worlds while every world would move them alike.
"""
