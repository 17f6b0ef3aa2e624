"""The web page's Python side (web/page.py), run here under CPython, and the build tool's refusals.

What the page shows must be what the game computes: a session's trace is the command line's
``--headless --ghosts --trace`` byte for byte, whichever resolver the visitor plays, after a
restart, and when a recording of the keys is replayed. The same checks in the browser itself
(Pyodide in headless Chromium) are tests/test_web_browser.py's.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from game import resolvers
from game.cli import main as cli_main
from game.runs import lab, lab_report
from game.sim.inputs import KEY_NAMES
from tools import build_web
from web import page

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = "0 right\n30 right+jump\n50 right+throw\n52 right\n90 -\n100 left+jump\n130 down\n"


def headless_trace(tmp_path: Path, level: str, script: str, ticks: int) -> str:
    inp, out = tmp_path / "in.txt", tmp_path / "trace.jsonl"
    inp.write_text(script, encoding="utf-8")
    with contextlib.redirect_stdout(io.StringIO()):
        assert cli_main(["--headless", "--ghosts", "--ticks", str(ticks), "--level", level,
                         "--input", str(inp), "--trace", str(out)]) == 0
    return out.read_text(encoding="utf-8")


def replayed(level: str, script: str, ticks: int, you: str | None = None) -> page.Session:
    s = page.Session(level, you, tracing=True)
    s.play_script(script)
    s.steps(ticks)
    return s


@pytest.mark.parametrize("level", ["levels/02_every_tile.tmx", "levels/05_features.tmx"])
def test_a_session_writes_the_headless_ghosts_trace(tmp_path, level):
    want = headless_trace(tmp_path, level, SCRIPT, 160)
    assert len(want.splitlines()) == 160 * len(resolvers.names())
    assert replayed(level, SCRIPT, 160).trace() == want


def test_whoever_you_play_the_worlds_are_the_same():
    traces = {replayed("levels/02_every_tile.tmx", SCRIPT, 120, you).trace()
              for you in resolvers.names()}
    assert len(traces) == 1


def test_a_restart_runs_the_same_again():
    s = replayed("levels/05_features.tmx", SCRIPT, 140)
    first = s.trace()
    s.restart()
    assert s.tick == 0 and s.trace() == ""
    s.play_script(SCRIPT)
    s.steps(140)
    assert s.trace() == first


def test_keys_played_and_their_recording_replay_alike():
    bits = page.KEY_BITS
    s = page.Session("levels/01_first_steps.tmx", tracing=True)
    keys = [bits["right"]] * 40 + [bits["right"] | bits["jump"]] * 15 + [0] * 10 + \
        [bits["left"] | bits["up"]] * 20 + [bits["throw"]] * 3 + [bits["down"]] * 5
    for k in keys:
        s.step(k)
    recording = s.recording()
    assert recording.splitlines()[1:3] == ["0 right", "40 right+jump"]
    again = replayed("levels/01_first_steps.tmx", recording, len(keys))
    assert again.trace() == s.trace()


def test_keys_take_over_from_a_script():
    s = page.Session("levels/01_first_steps.tmx")
    s.play_script("0 right\n")
    s.steps(10)
    s.step(page.KEY_BITS["left"])
    s.step()  # no script any more: nothing held
    assert page.held_from_bits(page.KEY_BITS["left"]).left
    assert [h.right for h in s.held] == [True] * 10 + [False, False]
    assert s.held[10].left and not s.held[11].left


def test_the_state_says_where_each_ghost_parted():
    # On Every Tile, holding right: sweep runs on where every other resolver falls.
    s = replayed("levels/02_every_tile.tmx", "0 right\n", 240, you="sweep")
    state = json.loads(s.state(debug=True))
    assert [w["name"] for w in state["worlds"]] == resolvers.names()
    worlds = {w["name"]: w for w in state["worlds"]}
    assert worlds["sweep"]["parted"] is None
    for name in ("axis", "corners", "pixel", "swept"):
        tick, x, y = worlds[name]["parted"]
        assert 200 < tick < 240 and y > worlds["sweep"]["y"]
    assert all("probed" in w and len(w["contacts"]) == 4 for w in state["worlds"])
    assert state["tick"] == 240 and state["replaying"]
    s.set_you("axis")  # measured from the new one from the next tick
    assert all(w["parted"] is None for w in json.loads(s.state())["worlds"])


def test_the_level_data_names_the_pictures_and_the_doors():
    s = page.Session("levels/05_features.tmx")
    data = json.loads(s.level_data())
    cells = data["cols"] * data["rows"]
    assert len(data["kinds"]) == cells
    assert all(len(layer["gids"]) == cells for layer in data["layers"])
    assert {t[0] for t in data["tiles"].values()} == {"assets/terrain.png"}
    assert (ROOT / "assets" / "terrain.png").is_file()
    assert data["doors"] and any(layer["door"] for layer in data["layers"])
    assert data["coins"] and data["checkpoints"] and data["switches"]
    assert data["tick_rate"] == 60.0
    state = json.loads(s.state())
    assert state["doors_open"] == {name: False for name in data["doors"]}


@pytest.mark.parametrize("text, said", [
    ("abc", "is not a whole number"), ("-5", "is not a whole number"),
    ("٣", "is not a whole number"), ("36001", "more than this page replays"),
    ("9" * 5000, "more than this page replays")])
def test_a_bad_tick_count_in_a_link_is_one_error_line(text, said):
    value, line = page.attempt(page.link_ticks, text)
    assert value is None and line.startswith("error: link: ticks=") and said in line
    assert "\n" not in line and len(line) < 300
    assert page.attempt(page.link_ticks, "600") == (600, None)


def test_a_bad_input_script_in_a_link_is_one_error_line():
    s = page.Session("levels/01_first_steps.tmx")
    value, line = page.attempt(s.play_script, "0 right\n5 fly\n")
    assert value is None
    assert line == ("error: link's input: line 2: keys 'fly' must be '-' or names from "
                    + ", ".join(KEY_NAMES) + " joined by '+'")
    assert page.attempt(page.Session, "levels/no_such_level.tmx")[1].startswith("error: ")


def test_the_catalogue_names_the_maps_the_browser_cannot_read():
    maps = [Path("levels/01_first_steps.tmx"), Path("levels/lab/06_ledge_bump.tmx"),
            Path("tests/data/formats/zstd.tmx")]
    assert len(page.catalogue(maps, Path("."))["maps"]) == 3  # on the desktop, all of them
    with build_web.as_the_browser():
        found = page.catalogue(maps, Path("."))
    assert [(m["path"], m["title"], m["lab"]) for m in found["maps"]] == [
        ("levels/01_first_steps.tmx", "First Steps", False),
        ("levels/lab/06_ledge_bump.tmx", "Ledge bump", True)]
    ((bad),) = found["unreadable"]
    assert bad["path"] == "tests/data/formats/zstd.tmx"
    assert bad["error"].startswith("error: tests/data/formats/zstd.tmx: ") and "zstd" in bad["error"]
    import zstandard  # the desktop's is back  # noqa: F401


def test_the_lab_row_is_the_labs_own():
    path = Path("levels/lab/06_ledge_bump.tmx")
    row = page.lab_row(str(path))
    results = lab.run_lab([path], __import__("game.config").config.load())
    table_row = lab_report.table(results).splitlines()[2]
    assert table_row == (f"| 06_ledge_bump | {'yes' if row['expect_goal'] else 'no'} | "
                         f"{row['measure']} | "
                         + " | ".join(row["cells"][n] for n in resolvers.names()) + " |")
    assert row["script"] and row["ticks"] > 0 and row["measure_text"] == lab.MEASURES[row["measure"]]


def test_every_resolver_comes_with_its_article():
    listed = page.resolver_list()
    assert [r["name"] for r in listed] == resolvers.names()
    for r in listed:
        d = resolvers.describe(r["name"])
        assert r["summary"] == d["summary"] and r["article"]["url"] == d["article"].url
        assert r["colour"] == list(resolvers.colour(r["name"]))


# --- tools/build_web.py's refusals (no build needed) -------------------------------------------

@pytest.mark.parametrize("args, said", [
    ((), "give --out DIR or --check"),
    (("--check", "--out", "x"), "give --out DIR or --check"),
    (("--bogus",), "unrecognized arguments: --bogus"),
    (("--out", "x", "--screenshot", "a.png"), "--screenshot goes with --check"),
    (("--check", "--maps", "levels/01_first_steps.tmx"), "--maps goes with --out"),
    (("--check", "--screenshot", "/no/such/folder/a.png"), "give a .png in an existing folder"),
    (("--out", "x", "--maps", "no_such.tmx"), "--maps no_such.tmx: not found")])
def test_build_web_bad_options_are_one_error_line(capsys, args, said):
    assert build_web.main(list(args)) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("error: ") and err.count("\n") == 1
    assert said in err


def test_build_web_leaves_a_folder_of_yours_alone(tmp_path, capsys):
    mine = tmp_path / "site"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine")
    assert build_web.main(["--out", str(mine)]) == 2
    assert "holds files this tool did not build" in capsys.readouterr().err
    assert [p.name for p in mine.iterdir()] == ["notes.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]  # no temp folder left
    (tmp_path / "file").write_text("x")
    assert build_web.main(["--out", str(tmp_path / "file")]) == 2
    assert "is a file" in capsys.readouterr().err
