"""How the player did (game/runs/progress.py) and how it is remembered (game/runs/settings.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.runs import settings as st
from game.runs.progress import Progress, Summary, level_key, time_text
from game.runs.settings import Finished

ROOT = Path(__file__).resolve().parent.parent
FIRST = ROOT / "levels" / "01_first_steps.tmx"
SECOND = ROOT / "levels" / "02_every_tile.tmx"


@pytest.mark.parametrize(("seconds", "text"), [(0.0, "0.00 s"), (23.456, "23.46 s"),
                                               (59.994, "59.99 s"), (59.996, "1:00.00"),
                                               (61.5, "1:01.50"), (3725.25, "62:05.25")])
def test_times_read_as_seconds_then_minutes(seconds, text):
    assert time_text(seconds) == text


def test_the_best_time_is_kept_and_only_a_faster_run_replaces_it():
    progress = Progress()
    assert not progress.done(FIRST) and progress.best_time(FIRST) is None
    assert progress.finish(FIRST, 30.0, "axis") is None  # the first finish: no best before
    assert progress.done(FIRST) and progress.best_time(FIRST) == 30.0
    assert progress.finish(FIRST, 35.0, "sweep") == 30.0  # slower: the best stays
    assert progress.best_time(FIRST) == 30.0
    assert progress.finish(FIRST, 25.0, "pixel") == 30.0  # faster: the new best
    assert progress.as_settings() == (Finished(level_key(FIRST), 25.0, "pixel"),)
    # The same level by another path is the same level.
    relative = Path("levels/01_first_steps.tmx")
    assert progress.done(relative.resolve()) and progress.count_done([FIRST, SECOND]) == 1


def test_at_most_so_many_finished_levels_are_kept_the_newest():
    progress = Progress()
    for i in range(st.MAX_FINISHED + 5):
        progress.finish(f"/levels/{i:04d}.tmx", float(i), "axis")
    kept = progress.as_settings()
    assert len(kept) == st.MAX_FINISHED and kept[-1].level == f"/levels/{st.MAX_FINISHED + 4:04d}.tmx"


def summary(**changes) -> Summary:
    base = dict(title="Level 1: First Steps", time=20.0, coins=None, deaths=0,
                resolvers=("axis",), best_before=None, done=1, total=5,
                next_title="Level 2: Every Tile", wrapped=False)
    base.update(changes)
    return Summary(**base)


def test_a_summary_says_a_new_best_and_all_done_only_when_true():
    assert summary().new_best  # a first finish is a best
    assert summary(best_before=25.0).new_best and not summary(best_before=15.0).new_best
    assert not summary(done=4, total=5, wrapped=True).all_done  # the last level, not all done
    assert summary(done=5, total=5, wrapped=True).all_done


def test_finished_levels_round_trip_through_the_settings_file(tmp_path):
    path = tmp_path / "settings.toml"
    saved = st.Settings(level=str(FIRST), resolver="axis", finished=(
        Finished(str(FIRST), 23.45, "axis"), Finished(str(tmp_path / 'a "quoted" map.tmx'),
                                                      61.5, "sweep")))
    assert st.save(path, saved)
    assert st.load(path, pytest.fail) == saved
    text = path.read_text("utf-8")
    assert text.count("[[finished]]") == 2 and "best_time = 23.45" in text


@pytest.mark.parametrize("entry", [
    'level = ""\nbest_time = 1.0\nresolver = "axis"',
    'level = "/a.tmx"\nbest_time = -1.0\nresolver = "axis"',
    'level = "/a.tmx"\nbest_time = "fast"\nresolver = "axis"',
    'level = "/a.tmx"\nbest_time = nan\nresolver = "axis"',
    'level = "/a.tmx"\nbest_time = 1.0\nresolver = "magic"',
    'best_time = 1.0\nresolver = "axis"',
])
def test_a_damaged_finished_entry_is_one_warning_and_nothing_written_over(tmp_path, entry):
    path = tmp_path / "settings.toml"
    path.write_text(f'resolver = "axis"\n\n[[finished]]\n{entry}\n', "utf-8")
    warnings = []
    store = st.Store(path, warnings.append)
    assert store.saved == st.Settings() and len(warnings) == 1
    assert "finished" in warnings[0]
    assert not store.save(st.Settings(resolver="sweep"))
    assert "[[finished]]" in path.read_text("utf-8")


def test_finished_must_be_tables(tmp_path):
    path = tmp_path / "settings.toml"
    path.write_text('finished = ["/a.tmx"]\n', "utf-8")
    warnings = []
    assert st.load(path, warnings.append) == st.Settings() and warnings


def test_an_older_file_without_finished_levels_still_loads(tmp_path):
    path = tmp_path / "settings.toml"
    path.write_text('resolver = "sweep"\nvolume = 0.4\n', "utf-8")
    assert st.load(path, pytest.fail) == st.Settings(resolver="sweep", volume=0.4)
