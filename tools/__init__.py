"""The developer's tools: each module is a command, ``uv run python tools/<name>.py`` (see its
docstring), or a part that such commands share.

The project is installed into its environment (``pyproject.toml``), so a tool imports the game
as ``from game... import ...`` and another tool as ``from tools import ...``, from any folder; no
tool touches ``sys.path``.

The benchmark (docs/benchmark.md):

- ``bench``: the benchmark's command: this project's resolvers, drawing and loader, beside the
  libraries a user might pick instead (``--peers``).
- ``bench_scenario``: the scenario every engine runs: a generated level, its movers' rules, the
  camera path, the level as a Tiled map.
- ``bench_ours``: one measurement of this project, in its own process, as one JSON line.
- ``bench_floor``: the floors: the same work written as plainly as Python allows.
- ``peers``: the same measurements with Python Arcade and pyscroll (``uv run --group peers``).

The web page (README.md, "In a browser"):

- ``build_web``: builds the web page (``--out DIR``) and checks it in a browser (``--check``).
- ``headless_chromium``: a small client for Debian's headless Chromium.

Pictures and generated text:

- ``screenshot``: plays a level in a real window from an input script and saves what it shows.
- ``lab_readme``: rewrites the resolver tables of README.md and docs/resolvers.md from the lab.
- ``architecture``: draws the layers of ``game`` from its imports into docs/architecture.md.
- ``doc_blocks``: the generated block between two marker lines of a Markdown file.

Art, sound and test maps, each rewriting committed files (run one after changing it or what it
reads):

- ``make_art``: the tileset, the player, the items and the day's backdrop (assets/).
- ``make_backdrops``: the other backdrops: dawn, dusk, night and moon (assets/).
- ``make_sounds``: the sound effects (assets/sounds/).
- ``make_format_maps``: tests/data/formats: levels 1 and 5 in every other form Tiled saves a map
  in (JSON, templates, infinite, zstd), exported by Tiled itself.
- ``make_placeholder_art``: the real maps' images (tests/data/real_maps) replaced by flat colours,
  for a map whose art has no clear licence.

The levels, their tileset and the Tiled project (levels/), the lab's scenarios (levels/lab) and
the bodies' demo maps (tests/data/bodies) are edited in Tiled; the generators that wrote their
first versions from ASCII layouts are in git's history.
"""
