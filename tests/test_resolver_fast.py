"""Each fast twin (``game/resolvers/fast/``) gives its lesson's answers, bit for bit.

A resolver's lesson (``game/resolvers/<name>.py``) is the article's technique written to be read;
where play needs fewer steps, its fast twin answers the usual moves itself and hands the rest to
the lesson. Here the two meet the same moves and must agree to the last bit (positions compared
by ``repr``, contact flags exactly):

* random moves of every kind: random maps of solid, one-way, slope and half tiles on tiles of any
  aspect ratio, bodies of any size placed free or (rarely) inside a tile, small and large motions,
  walks on a row's top, drops through, a tick that began higher; each straight to ``move_box`` and
  through the shared mover (sub-steps and ground snap);
* the benchmark's calls: the movers of ``tools/bench_scenario.py`` on its level, as
  ``tools/bench_ours.py`` steps them;
* every shipped level played to its goal by the bot of ``tests/test_playthrough.py``.

The checked resolver moves with the twin and asks the lesson every call (:func:`checked`).
"""

from __future__ import annotations

import math

import pytest
from helpers import QUICK_RESOLVERS
from hypothesis import given, note
from hypothesis import strategies as st

from game import resolvers
from game.maps.grid import EMPTY, SOLID, TileGrid
from game.resolvers import PLAY, REGISTRY, move_box
from game.resolvers.fast import FAST

TWINS = sorted(FAST, key=resolvers.names().index)


def checked(name: str, options=None):
    """A resolver that moves with ``name``'s play class (its fast twin) and asserts, call by
    call, that its lesson class answers the same (probed cells aside, which only the lesson
    lists)."""
    fast, lesson_cls = PLAY[name], REGISTRY[name]

    class Checked(fast):
        def __init__(self, options=None) -> None:
            super().__init__(options)
            self.lesson = lesson_cls(options)
            self.calls = 0

        def prepare(self, grid: TileGrid) -> None:
            for prepare in (getattr(super(), "prepare", None),
                            getattr(self.lesson, "prepare", None)):
                if prepare is not None:
                    prepare(grid)

        def move_box(self, grid, x, y, w, h, dx, dy, one_way_bottom, drop_through, probe):
            got = super().move_box(grid, x, y, w, h, dx, dy, one_way_bottom, drop_through, probe)
            if probe is None:
                want = self.lesson.move_box(grid, x, y, w, h, dx, dy, one_way_bottom,
                                            drop_through, None)
                assert (repr(got[0]), repr(got[1]), got[2]) == (
                    repr(want[0]), repr(want[1]), want[2]), (
                    f"{name}: fast {got} != lesson {want} for move_box(grid {grid.cols}x"
                    f"{grid.rows} of {grid.tile_w}x{grid.tile_h} px, {x!r}, {y!r}, {w!r}, {h!r}, "
                    f"{dx!r}, {dy!r}, {one_way_bottom!r}, {drop_through})")
                self.calls += 1
            return got

    Checked.__name__ = f"Checked{fast.__name__}"
    return Checked(options if options is not None else fast.Options())


# ----------------------------------------------------------------------------------------------
# The twins and where they live
# ----------------------------------------------------------------------------------------------

def test_play_moves_with_the_twin_and_everything_else_names_the_lesson():
    for name in resolvers.names():
        lesson = REGISTRY[name]
        assert lesson.__module__ == f"game.resolvers.{name}", name
        play = resolvers.create(name)
        assert type(play) is FAST.get(name, lesson), name
        assert type(resolvers.create(name, lesson=True)) is lesson, name
        assert resolvers.is_lesson(resolvers.create(name, lesson=True)), name
        assert resolvers.is_lesson(play) == (name not in FAST), name


@pytest.mark.parametrize("name", TWINS)
def test_a_twin_is_its_lessons_subclass_in_the_fast_package(name):
    twin = FAST[name]
    assert issubclass(twin, REGISTRY[name]) and twin is not REGISTRY[name]
    assert twin.__module__ == f"game.resolvers.fast.{name}"
    assert resolvers.moved_by(twin()) == f"moved by {twin.__name__}"
    assert resolvers.moved_by(REGISTRY[name]()) == f"moved by {REGISTRY[name].__name__}"


# ----------------------------------------------------------------------------------------------
# Random moves of every kind
# ----------------------------------------------------------------------------------------------

# Tile shapes of every aspect: square, wide, and tall as steep slopes make them.
SHAPES = [(16, 16), (8, 8), (16, 8), (32, 16), (12, 20), (8, 24)]
CELLS = "......###==/\\abh"


@st.composite
def grids(draw) -> TileGrid:
    tw, th = draw(st.sampled_from(SHAPES))
    cols, rows = draw(st.integers(1, 10)), draw(st.integers(1, 9))
    height = st.floats(0.0, float(th), allow_nan=False)
    chars = {"a": (draw(height), draw(height)), "b": (draw(height), draw(height))}
    half = draw(height)
    chars["h"] = (half, half)
    lines = ["".join(draw(st.lists(st.sampled_from(CELLS), min_size=cols, max_size=cols)))
             for _ in range(rows)]
    note(f"{tw}x{th} px tiles, slopes {chars}:\n" + "\n".join(lines))
    return TileGrid.from_rows(lines, tw, th, chars)


def _motion(tile: int):
    """One tick's motion on an axis: nought, the game's usual amounts, small, or up to 4 tiles."""
    return st.one_of(st.just(0.0), st.sampled_from((130 / 60, -130 / 60, 1500 / 3600, 8.0,
                                                     -410 / 60, 0.2083)),
                     st.floats(-1.0, 1.0, allow_nan=False),
                     st.floats(-4.0 * tile, 4.0 * tile, allow_nan=False))


@pytest.mark.parametrize("name", [pytest.param(n, marks=() if n in QUICK_RESOLVERS else
                                                 (pytest.mark.slow,)) for n in TWINS])
@given(data=st.data())
def test_random_moves_of_every_kind_give_the_lessons_answers(name, data):
    grid = data.draw(grids(), label="grid")
    tw, th = grid.tile_w, grid.tile_h
    sizes = st.one_of(st.sampled_from((12.0, 14.0, 16.0, 4.0, 24.0)),
                      st.floats(1.0, 2.5 * max(tw, th), allow_nan=False))
    w, h = data.draw(sizes, label="w"), data.draw(sizes, label="h")
    x = data.draw(st.floats(-tw, max(-tw, grid.width_px + tw - w), allow_nan=False), label="x")
    y = data.draw(st.floats(-2.0 * th, grid.height_px + th, allow_nan=False), label="y")
    if data.draw(st.booleans(), label="on a row's top or a column's side"):
        x = round(x / tw) * tw
        y = round((y + h) / th) * th - h
    twin = checked(name)
    twin.prepare(grid)
    on_ground = False
    for _ in range(data.draw(st.integers(1, 6), label="ticks")):
        dx, dy = data.draw(_motion(tw), label="dx"), data.draw(_motion(th), label="dy")
        drop = data.draw(st.booleans(), label="drop through")
        began = y + h - data.draw(st.sampled_from((0.0, 0.0, 1.0, th / 2)), label="began higher")
        twin.move_box(grid, x, y, w, h, dx, dy, began, drop, None)  # straight to the core
        x, y, flags = move_box(twin, grid, x, y, w, h, dx, dy, one_way_bottom=began,
                               drop_through=drop, was_on_ground=on_ground)
        on_ground = bool(flags & 1)
        assert math.isfinite(x) and math.isfinite(y)


# ----------------------------------------------------------------------------------------------
# The benchmark's calls and the bot's levels
# ----------------------------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("name", TWINS)
def test_the_benchmarks_calls_give_the_lessons_answers(name):
    from tools import bench_ours
    from tools import bench_scenario as S

    w, h = 200, 50
    level = S.generate_level(w, h)
    grid = TileGrid(w, h, S.TILE, S.TILE, bytes(SOLID if c else EMPTY for r in level for c in r))
    twin = checked(name)
    twin.prepare(grid)
    bench_ours._physics_run(twin, grid, S.spawn_points(level, 100), 200)
    assert twin.calls >= 100 * 200


@pytest.mark.slow
@pytest.mark.parametrize("name", TWINS)
def test_every_shipped_level_played_by_the_bot_gives_the_lessons_answers(name):
    from test_playthrough import LEVELS, play

    for level in LEVELS:
        twin = checked(name)
        result = play(level, name, resolver=twin)
        assert result.world.goal_reached and twin.calls > result.ticks, level.name

