"""Real public Tiled maps made for other engines (tests/data/real_maps, manifest.toml, SOURCES.md)
load and play: issue 18.

Each platformer map loads, the player starts where the map says (its start object, or the
first ground from the left), stands on ground after a second with no input, and never overlaps
what the map marks solid while running both ways, with every resolver. Each other map loads
with its notes or gives one ``error:`` line. Nothing gives a traceback. Every platformer of
the corpus is read (the last one refused, Super Dash, has tilesets whose pictures are bigger
than the files say: the game now cuts them as Tiled does, with a note).
"""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest
from helpers import resolver_params

from game import resolvers
from game.config import Config, MapConfig
from game.errors import UserError
from game.maps.grid import overlapping_tiles
from game.maps.level import load_level, read_map
from game.sim.inputs import InputFrame
from game.sim.world import declared, load_world

CORPUS = Path(__file__).parent / "data" / "real_maps"
MANIFEST = tomllib.loads((CORPUS / "manifest.toml").read_text("utf-8"))["map"]
PLATFORMERS = sorted(k for k, m in MANIFEST.items() if m["kind"] == "platformer")
OTHERS = sorted(k for k, m in MANIFEST.items() if m["kind"] != "platformer")

TICK = 1 / 60
SECOND = 60


def path_of(key: str) -> Path:
    return CORPUS / MANIFEST[key]["path"]


def test_the_corpus_has_the_platformers_the_issue_asks_for():
    assert len(PLATFORMERS) >= 20
    read = PLATFORMERS
    conventions = {c.split(":")[0] for k in read for c in MANIFEST[k]["collision"]}
    assert {"tile_property", "tile_shapes", "layer_name", "nocollide", "object_layer",
            "object_property"} <= conventions


def config_of(key: str) -> Config:
    """The default config, with what the manifest says the map's author declares ([map])."""
    declare = MANIFEST[key].get("declare", {})
    return replace(Config(), map=replace(MapConfig(), **{k: tuple(v) if isinstance(v, list)
                                                         else v for k, v in declare.items()}))


def load_world_quietly(key: str, resolver: str):
    notes: list[str] = []
    world = load_world(path_of(key), config_of(key), resolvers.create(resolver),
                       notes=notes.append)
    return world, notes


def expected_start(key: str):
    """(x, y) of the feet the manifest gives: the start object's point, or None."""
    m = MANIFEST[key]
    if m["start"] == "none":
        return None
    return tuple(m["start_xy"])


@pytest.mark.parametrize("key", PLATFORMERS)
def test_platformer_starts_where_the_map_says_with_a_note(key):
    level = load_level(path_of(key), (12.0, 14.0), declared=declared(config_of(key)))
    assert level.notes, "a map made elsewhere is always said to be read by guesses"
    assert all("\n" not in n for n in level.notes)
    want = expected_start(key)
    s, grid = level.spawn, level.grid
    feet_x, feet_y = s.x + s.w / 2, s.y + s.h
    assert 0 <= s.x and s.x + s.w <= grid.width_px and 0 < feet_y <= grid.height_px
    if want is None:
        assert any("first solid ground from the left" in n for n in level.notes)
        assert overlapping_tiles(grid, s.x, s.y, s.w, s.h + 1, feet_y, True)  # on its floor
        return
    # an infinite map's objects moved with its tiles onto one grid: the note says how far
    moved = re.search(r"everything moved by \((-?[\d.]+), (-?[\d.]+)\) px", " ".join(level.notes))
    if moved:
        want = (want[0] + float(moved.group(1)), want[1] + float(moved.group(2)))
    # the start object as the file places it (a tile object hangs up from its x, y)
    o = next(o for o in read_map(path_of(key))[1].objects
             if math.isclose(o.x, want[0], abs_tol=0.01)
             and (math.isclose(o.top, want[1], abs_tol=0.01)
                  or math.isclose(o.top + o.h, want[1], abs_tol=0.01)))
    assert o.x - s.w <= feet_x <= o.x + o.w + s.w, (s, o)
    # the feet at the object's bottom, or lifted out of the ground it was drawn into
    assert o.top + o.h - 2 * grid.tile_h - s.h <= feet_y <= o.top + o.h + 0.01, (s, o)


@pytest.mark.parametrize("resolver", resolver_params())
@pytest.mark.parametrize("key", PLATFORMERS)
def test_platformer_stands_then_runs_both_ways_without_overlap(key, resolver):
    world, notes = load_world_quietly(key, resolver)
    grid, p = world.grid, world.player
    for _ in range(SECOND):
        world.step(InputFrame())
        assert_clear(world)
    assert p.on_ground, f"not on ground after a second: y={p.y:.1f} ({notes})"
    for move in (1, -1):
        for _ in range(2 * SECOND):
            world.step(InputFrame(move=move))
            assert_clear(world)
    assert 0 <= p.y + p.h <= grid.height_px + p.h or p.respawning


def assert_clear(world) -> None:
    p, grid = world.player, world.grid
    bad = overlapping_tiles(grid, p.x, p.y, p.w, p.h, p.y + p.h, world.resolver.supports_slopes)
    assert not bad, f"player at ({p.x:.2f}, {p.y:.2f}) overlaps {bad[:3]}"


@pytest.mark.parametrize("key", OTHERS)
def test_other_maps_load_with_notes_or_give_one_error_line(key):
    try:
        level = load_level(path_of(key))
    except UserError as exc:
        line = exc.line()
        assert line.startswith("error: ") and "\n" not in line
        return
    assert level.notes and all(n and "\n" not in n for n in level.notes)


def test_the_issue_counts_are_met():
    """Every real platformer map loads."""
    loaded = [key for key in PLATFORMERS
              if load_level(path_of(key), declared=declared(config_of(key)))]
    assert loaded == PLATFORMERS
