"""The libraries a user might pick instead, on the benchmark's scenario (``tools.bench_scenario``),
each run by ``tools/bench.py --peers`` in a process of its own (``uv run --group peers``):

- ``arcade_bench``: Python Arcade's platformer physics: one measurement, one JSON line.
- ``pyscroll_bench``: pyscroll's renderer and pytmx's loader: one measurement, one JSON line.
"""
