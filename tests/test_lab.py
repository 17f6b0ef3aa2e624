"""The collision lab: --lab over the shipped scenarios and a user's, its files, its errors, and
the README table it produces."""

from __future__ import annotations

import json
import re
import shutil
import sys
import time
from pathlib import Path

import pytest

from game import config, resolvers
from game.runs import lab
from game.cli import main
from game.sim.world import World

ROOT = Path(__file__).resolve().parent.parent
LAB = ROOT / "levels" / "lab"
SCENARIOS = sorted(LAB.glob("*.tmx"))
sys.path.insert(0, str(ROOT / "tools"))
import lab_readme  # noqa: E402


def fails(capsys, argv: list[str], *names: str) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: "), err
    for n in names:
        assert n in err, err
    return err


@pytest.fixture(scope="module")
def shipped(tmp_path_factory):
    out = tmp_path_factory.mktemp("lab")
    t = time.perf_counter()
    assert main(["--lab", "--out", str(out)]) == 0
    return out, time.perf_counter() - t


def test_shipped_lab_writes_three_files_quickly(shipped):
    out, seconds = shipped
    assert seconds < 60
    assert sorted(p.name for p in out.iterdir()) == ["lab.json", "lab.md", "lab.png"]
    data = json.loads((out / "lab.json").read_text(encoding="utf-8"))
    assert data["kind"] == lab.JSON_KIND and data["resolvers"] == resolvers.names()
    assert len(data["scenarios"]) == len(SCENARIOS) >= 12
    md = (out / "lab.md").read_text(encoding="utf-8")
    assert md.startswith(lab.MARK)
    for s in data["scenarios"]:
        assert s["name"] in md and set(s["results"]) == set(resolvers.names())
    png = (out / "lab.png").read_bytes()
    assert png.startswith(b"\x89PNG")


def test_the_lab_shows_differences_between_resolvers(shipped):
    """Scenarios earn their place: the ledge bump is sweep's alone, slopes split the resolvers
    that read slopes from those that take them for boxes, the wall corner splits axis orders."""
    data = json.loads((shipped[0] / "lab.json").read_text(encoding="utf-8"))
    by = {s["name"]: s["results"] for s in data["scenarios"]}
    bump = by["06_ledge_bump"]
    assert bump["sweep"]["figure"] > 0 and not bump["sweep"]["ok"]
    assert all(bump[n]["figure"] == 0 for n in resolvers.names() if n != "sweep")
    for name in resolvers.names():
        assert by["11_slope_up"][name]["ok"] == resolvers.describe(name)["slopes"]
    assert {n for n, r in by["08_wall_corner_jump"].items() if not r["ok"]} == {
        "axis", "corners", "routing", "pixel"}
    # pixel's corner correction reaches 4 px on 16 px tiles and no further; sweep's slide, 2 px
    assert {n for n, r in by["22_ceiling_corner_4px"].items() if not r["ok"]} == {"pixel"}
    assert by["22_ceiling_corner_4px"]["pixel"]["figure"] == 4
    assert all(r["ok"] for r in by["23_ceiling_corner_5px"].values())
    # seams: every resolver runs on after a fast landing where a solid floor meets a one-way one
    assert all(r["ok"] for r in by["24_seam_landing_fast"].values())
    # moving a whole tick's x before its y catches a step's corner that a continuous box misses
    assert {n for n, r in by["25_fast_fall_past_a_step"].items() if not r["ok"]} == {
        "sweep", "pixel"}


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_verdict_equals_the_headless_trace(path, tmp_path):
    """Run each scenario through --headless --trace, and judge the trace file alone."""
    cfg = config.load(None)
    scenario, run_cfg = lab.load_scenario(path, cfg)
    script = tmp_path / "script.txt"
    script.write_text(scenario.level.properties["script"], encoding="utf-8")
    for name in resolvers.names():
        trace = tmp_path / f"{name}.jsonl"
        assert main(["--headless", "--level", str(path), "--resolver", name, "--ticks",
                     str(scenario.ticks), "--input", str(script), "--trace", str(trace)]) == 0
        records = [json.loads(line) for line in trace.read_text().splitlines()]
        world = World.create(scenario.level, run_cfg.physics, resolvers.create(name))
        got = lab.judge(records, (world.player.x, world.player.y), scenario.script,
                        scenario.measure, scenario.expect_goal)
        o = lab.run_scenario(scenario, run_cfg, name)
        assert got == (o.goal, o.ok, o.figure)


def test_readme_table_is_what_the_lab_measures():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert lab_readme.replace_block(text, lab_readme.current_results()) == text, (
        "README's lab figures are out of date: run uv run python tools/lab_readme.py")


def test_a_hand_edited_readme_figure_is_caught():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    results = lab_readme.current_results()
    for old, new in (("✗ 06_ledge_bump (1.33 px)", "✗ 06_ledge_bump (9 px)"),
                     ("| bump_px | ✓ 0 px", "| bump_px | ✓ 5 px")):
        assert old in text
        assert lab_readme.replace_block(text.replace(old, new), results) == text


def test_measures_match_the_tiled_project():
    project = json.loads((ROOT / "levels" / "tilecollide.tiled-project").read_text())
    types = {t["name"]: t for t in project["propertyTypes"]}
    assert types["lab_measure"]["values"] == list(lab.MEASURES)
    members = {m["name"]: m["value"] for m in types["lab_scenario"]["members"]}
    assert members["expect_goal"] == lab.DEFAULT_EXPECT_GOAL
    assert members["measure"] == lab.DEFAULT_MEASURE


def test_lab_maps_stay_off_the_title_screen_and_golden_traces():
    assert not [p for p in (ROOT / "levels").glob("*.tmx") if "lab" in p.stem]
    assert SCENARIOS and all(p.parent == LAB for p in SCENARIOS)


def _scenario(folder: Path, name: str, text_edit=None) -> Path:
    src = (LAB / "10_drop_through.tmx").read_text(encoding="utf-8")
    src = src.replace('source="../terrain.tsx"', f'source="{(ROOT / "levels" / "terrain.tsx")}"')
    if text_edit:
        src = text_edit(src)
    p = folder / name
    p.write_text(src, encoding="utf-8")
    return p


def test_user_folder_of_scenarios(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    _scenario(mine, "a.tmx")
    _scenario(mine, "b.tmx", lambda s: s.replace('name="expect_goal" type="bool" value="true"',
                                                 'name="expect_goal" type="bool" value="false"'))
    (mine / "notes.txt").write_text("not a map")
    (mine / "sub").mkdir()
    _scenario(mine / "sub", "c.tmx")  # sub-folders are not read
    out = tmp_path / "out"
    assert main(["--lab", str(mine), "--out", str(out)]) == 0
    data = json.loads((out / "lab.json").read_text())
    assert [s["name"] for s in data["scenarios"]] == ["a", "b"]
    assert all(r["ok"] for r in data["scenarios"][0]["results"].values())
    assert not any(r["ok"] for r in data["scenarios"][1]["results"].values())
    # a second run replaces the lab's own files
    assert main(["--lab", str(mine / "a.tmx"), "--out", str(out)]) == 0
    assert len(json.loads((out / "lab.json").read_text())["scenarios"]) == 1


def test_defaults_when_tiled_leaves_class_members_out(tmp_path):
    """Tiled 1.9+ writes the map's class, and does not save a class member left at its
    default: expect_goal and measure."""
    p = _scenario(tmp_path, "d.tmx", lambda s: re.sub(
        r'  <property name="(expect_goal|measure)"[^>]*/>\n', "", s).replace(
            "<map ", '<map class="lab_scenario" ', 1))
    assert 'class="lab_scenario"' in p.read_text()
    s, _ = lab.load_scenario(p, config.load(None))
    assert s.expect_goal is lab.DEFAULT_EXPECT_GOAL and s.measure == lab.DEFAULT_MEASURE


@pytest.mark.parametrize("edit, words", [
    (lambda s: re.sub(r'  <property name="script">[^<]*</property>\n', "", s), ["'script'"]),
    (lambda s: s.replace("20 down+jump", "20 down+jmup"), ["'script'", "line 1", "jmup"]),
    (lambda s: s.replace("20 down+jump\n26 -", "20 down+jump\n10 -"), ["'script'", "line 2"]),
    (lambda s: re.sub(r'  <property name="ticks"[^>]*/>\n', "", s), ["'ticks'", "int"]),
    (lambda s: s.replace('name="ticks" type="int" value="90"',
                         'name="ticks" type="int" value="0"'), ["'ticks'"]),
    (lambda s: re.sub(r'name="measure"([^>]*)value="goal_tick"', r'name="measure"\1value="speed"',
                      s), ["'measure'", "'speed'", "stuck_ticks"]),
    (lambda s: s.replace('name="expect_goal" type="bool"', 'name="expect_goal"'),
     ["'expect_goal'", "bool"]),
    (lambda s: re.sub(r'  <object id="2"[^>]*/>\n', "", s), ["goal"]),
])
def test_bad_scenario_files(capsys, tmp_path, edit, words):
    p = _scenario(tmp_path, "bad.tmx", edit)
    fails(capsys, ["--lab", str(p), "--out", str(tmp_path / "out")], str(p), *words)
    assert not (tmp_path / "out").exists()


def test_bad_targets(capsys, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    fails(capsys, ["--lab", str(empty)], str(empty), "no scenario maps")
    fails(capsys, ["--lab", str(tmp_path / "nope.tmx")], "nope.tmx", "not found")
    text = tmp_path / "notes.tmx"
    text.write_text("hello")
    fails(capsys, ["--lab", str(text)], "notes.tmx")
    fails(capsys, ["--lab", "--resolver", "axis"], "--resolver")
    fails(capsys, ["--out", str(tmp_path)], "--out goes with --lab")


def test_never_overwrites_a_users_files(capsys, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "lab.md").write_text("my notes\n")
    fails(capsys, ["--lab", str(LAB / "01_floor_seams.tmx"), "--out", str(out)], "lab.md",
          "not written by --lab")
    assert (out / "lab.md").read_text() == "my notes\n" and len(list(out.iterdir())) == 1
    (out / "lab.md").unlink()
    (out / "lab.png").write_bytes(b"\x89PNG my picture")
    fails(capsys, ["--lab", str(LAB / "01_floor_seams.tmx"), "--out", str(out)], "lab.png")
    afile = tmp_path / "file"
    afile.write_text("x")
    fails(capsys, ["--lab", str(LAB / "01_floor_seams.tmx"), "--out", str(afile)], "folder")
    shutil.rmtree(out)
