"""The view: the window, its scenes, drawing, keys, pads and sound. Nothing below it (game.sim,
game.maps, ...) imports from here; the simulation runs without any of it.

The shell and the loop:

- ``app``: :class:`~game.view.app.App`, the shell: opens the window, holds what the scenes share,
  gives each event to the scene on screen (title or play), and runs the frame loop.
- ``loop``: the frame loop: clamp of a long frame, the fixed step's accumulator
  (:class:`~game.view.loop.FixedStep`), the interpolation ``alpha``, slow-motion speeds, and
  :func:`~game.view.loop.run_frames`.
- ``window``: finding a display (one ``error:`` line when there is none), opening the window
  (fullscreen, vsync) and the whole-number scale of the view in it.

The scenes:

- ``title``: the title screen: the level list, the resolver, a panning backdrop.
- ``play``: :class:`~game.view.play.PlayScene`, a level being played: its events as actions,
  the ticks, level changes, reloads, and the order in which a frame is drawn.

Input:

- ``keymap``: the tables: keys and pad buttons to actions, held keys to the tick's ``Held``,
  which actions leave a demo playing and which count only paused or only running.
- ``pad``: game controllers as data: hot-plug, stick and d-pad to ``Held``.

Parts of play, each usable without a window:

- ``levels``: the level sequence (next level, "Level N: title") and loading a level with its
  pictures, an error line instead of an exception.
- ``hot_reload``: the level files' modification times and a watcher that looks every half second.
- ``banners``: the timed messages (a level's name, "Reloaded", volume) and how long each stays.
- ``followers``: what follows the player's run: ghosts, the recording, the trace.

Drawing:

- ``world_view``: the scene at view resolution: camera following, sky, map, items, goals,
  walkers, platforms, spears, ghosts, the player.
- ``debug``: the debug view (F3): marks on the scene, its numbers, the key to its colours.
- ``hud``: the text over the scene: level and resolver, hint, help, error bar, clock state,
  ghost names, banners.
- ``painter``: text with shadows and panels at window resolution; a panel and its text are one
  image (a card), made once and kept while it is shown.
- ``render``: a level's map, every layer in file order as Tiled composes them: the frame's
  :class:`~game.view.render.MapRenderer` (view buffers up to a budget) and the whole map, a
  band at a time, its picture bounded.
- ``viewbuffer``: one run of tile layers kept drawn around the camera, so a frame costs one blit.
- ``tiledraw``: tile pictures cut once from their sheets, Tiled's flips, one layer's tiles blitted.
- ``animcells``: animated tiles drawn over a view buffer each frame (the buffer never changes).
- ``mapart``: what a map shows beyond its cells: tile objects (a huge one, the part in view),
  image layers, tints, parallax (exact however far).
- ``projection`` and ``projected``: isometric, staggered and hexagonal maps (``--render-map``
  only): where Tiled puts their cells and objects, and the whole map drawn.
- ``export``: ``--render-map``: the whole map as the game draws it, saved as a PNG.
- ``sprites``: the player, walkers, platforms, spears and the sky, drawn in code.
- ``living``: coins, checkpoints, switches and doors, and the HUD's line about them.
- ``effects``: small bursts of pixels that the world's changes set off (never in a trace).
- ``text``: wrapping and fitting text to a width.
- ``pixelfont``: the game's own 5x7 pixel font, scaled by whole pixels.
- ``surfaces``: what is kept between frames (``Recent``), pictures made from others kept up
  to a budget of bytes (``Kept``), and ``blit_scaled``: the view
  stretched into the window by whole pixels (a row stretched across once, then copied down).
- ``sound``: sound effects from the world's changes, volume and mute.
- ``lab_picture``: ``lab.png``, the collision lab's picture (the results come from
  ``game.runs.lab``).
"""
