"""Ways to run the simulation without a window: headless traces, the collision lab, recordings of
play, and the settings the window saves between runs (with the levels finished and their best
times)."""
