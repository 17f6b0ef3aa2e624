"""Ways to run the simulation without a window: headless traces, the collision lab, recordings of
play, and the settings the window saves between runs (with the levels finished and their best
times).

- ``headless``: N ticks from an input script with no window, and the JSON Lines trace.
- ``lab``: the collision lab: every resolver through small scenario maps, a verdict and a figure.
- ``lab_report``: the lab's results as ``lab.md`` and ``lab.json`` (and ``lab.png``, drawn by
  ``game.view.lab_picture``).
- ``record``: ``--record``: what was played, written as an input script.
- ``settings``: what lasts between runs: last level, resolver, volume, window size, progress.
- ``progress``: the levels finished, the best times, and the summary of one run of a level.
- ``files``: the one way every file the game writes is written, safely.
"""
