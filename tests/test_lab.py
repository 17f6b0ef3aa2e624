"""The collision lab: --lab over the shipped scenarios and a user's, its files, its errors, and
the tables it produces in docs/resolvers.md (and the README's resolver table beside them)."""

from __future__ import annotations

import json
import re
import shutil
import time
from pathlib import Path

import pytest

from game import config, resolvers
from game.runs import lab, lab_report
from game.view import lab_picture
from game.cli import main
from game.sim.world import World
from tools import lab_readme

ROOT = Path(__file__).resolve().parent.parent
LAB = ROOT / "levels" / "lab"
SCENARIOS = sorted(LAB.glob("*.tmx"))


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
    assert data["kind"] == lab_report.JSON_KIND and data["resolvers"] == resolvers.names()
    assert len(data["scenarios"]) == len(SCENARIOS) >= 12
    md = (out / "lab.md").read_text(encoding="utf-8")
    assert md.startswith(lab_report.MARK)
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
    # slopes and half tiles: every resolver that reads slopes climbs to the wall or the ceiling
    # and no further, steps down half tiles and hops onto one
    for scenario in ("18_half_tile_steps_down", "19_half_tile_hop", "20_slope_into_wall",
                     "21_slope_under_low_ceiling"):
        for name in resolvers.names():
            if resolvers.describe(name)["slopes"]:
                assert by[scenario][name]["ok"], (scenario, name, by[scenario][name])
    for name in resolvers.names():
        if resolvers.describe(name)["slopes"]:
            assert 64 <= by["20_slope_into_wall"][name]["figure"] <= 66  # the wall: x 84 - 18
            assert 48 <= by["21_slope_under_low_ceiling"][name]["figure"] <= 52
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
        world = World(scenario.level, run_cfg.physics, resolvers.create(name))
        got = lab.judge(records, (world.player.x, world.player.y), scenario.script,
                        scenario.measure, scenario.expect_goal)
        o = lab.run_scenario(scenario, run_cfg, name)
        assert got == (o.goal, o.ok, o.figure)


def test_resolvers_page_tables_are_what_the_lab_measures():
    text = lab_readme.PAGE.read_text(encoding="utf-8")
    assert lab_readme.resolvers_page(text, lab_readme.current_results()) == text, (
        "docs/resolvers.md's lab figures are out of date: run uv run python tools/lab_readme.py")


def test_a_hand_edited_lab_figure_is_caught():
    text = lab_readme.PAGE.read_text(encoding="utf-8")
    results = lab_readme.current_results()
    for old, new in (("✗ 06_ledge_bump (1.33 px)", "✗ 06_ledge_bump (9 px)"),
                     ("| bump_px | ✓ 0 px", "| bump_px | ✓ 5 px")):
        assert old in text
        assert lab_readme.resolvers_page(text.replace(old, new), results) == text


def test_a_resolver_without_a_row_is_named():
    text = lab_readme.PAGE.read_text(encoding="utf-8")
    text = re.sub(r"(?m)^\| `sweep` \| \[.*\n", "", text)
    with pytest.raises(ValueError, match="no row for resolver sweep"):
        lab_readme.resolvers_page(text, lab_readme.current_results())


def test_readme_resolver_table_is_the_registry():
    text = lab_readme.README.read_text(encoding="utf-8")
    assert lab_readme.readme(text) == text, (
        "README.md's resolver table is out of date: run uv run python tools/lab_readme.py")
    table = text.split(lab_readme.README_MARKERS[0])[1].split(lab_readme.README_MARKERS[1])[0]
    for name in resolvers.names():
        d = resolvers.describe(name)
        row = next(line for line in table.splitlines() if line.startswith(f"| `{name}` |"))
        assert d["article"].url in row and d["article"].author in row and d["summary"] in row
        # the lesson's module, and where play's speed is
        assert f"(game/resolvers/{name}.py)" in row
        assert (f"(game/resolvers/fast/{name}.py)" in row) == (
            resolvers.PLAY[name] is not resolvers.REGISTRY[name])
    assert lab_readme.readme(text.replace("| `axis` |", "| `axes` |")) == text


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


# ----------------------------------------------------------------------------------------------
# Bounded, whole and safe output (issue 17)
# ----------------------------------------------------------------------------------------------

def _big_scenario(folder: Path, n: int, fall: bool = False) -> Path:
    """An n x n tile map: a floor at the bottom, the body running right along it (or, with
    ``fall``, dropping from the top at 50 px a tick onto it)."""
    rows = ",\n".join(",".join(["2" if r == n - 1 else "0"] * n) for r in range(n))
    y = 32 if fall else (n - 1) * 16
    physics = ('<property name="gravity" type="float" value="20000"/>'
               '<property name="max_fall_speed" type="float" value="3000"/>' if fall else "")
    p = folder / f"big{n}{'_fall' if fall else ''}.tmx"
    p.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<map version="1.8" orientation="orthogonal" renderorder="right-down" width="{n}" '
        f'height="{n}" tilewidth="16" tileheight="16" infinite="0" nextlayerid="3" '
        'nextobjectid="3"><properties><property name="script">0 right\n</property>'
        f'<property name="ticks" type="int" value="150"/>{physics}</properties>'
        f'<tileset firstgid="1" source="{ROOT / "levels" / "terrain.tsx"}"/>'
        f'<layer id="1" name="ground" width="{n}" height="{n}"><data encoding="csv">\n{rows}\n'
        '</data></layer><objectgroup id="2" name="objects">'
        f'<object id="1" name="spawn" type="player" x="24" y="{y}"><point/></object>'
        f'<object id="2" name="goal" type="goal" x="272" y="{(n - 2) * 16}" width="16" '
        'height="16"/></objectgroup></map>\n', encoding="utf-8")
    return p


def _png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head.startswith(b"\x89PNG")
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def test_a_large_map_gives_a_bounded_picture_quickly(tmp_path):
    """A 300 x 300 tile map (4,800 px square; 9,600 at the lab's scale) is cropped to the paths
    and scaled to fit a panel; a fall down the whole map is drawn too, scaled down."""
    maps = [_big_scenario(tmp_path, 300), _big_scenario(tmp_path, 300, fall=True)]
    out = tmp_path / "out"
    t = time.perf_counter()
    assert main(["--lab", *map(str, maps), "--out", str(out)]) == 0
    assert time.perf_counter() - t < 30
    w, h = _png_size(out / "lab.png")
    assert w <= lab_picture.THREE * (lab_picture.PANEL_PX + 20) and h <= 36 + lab_picture.PANEL_PX + 70
    for s, outcomes in lab.run_lab(maps, config.load(None)):
        v = lab_picture.view_of(s, outcomes)
        assert max(v.size) <= lab_picture.PANEL_PX
        for o in outcomes:  # every path is in view
            assert all(v.x <= x and x + w_ <= v.x + v.w + 1e-6 and v.y <= y
                       and y + h_ <= v.y + v.h + 1e-6 for x, y, w_, h_ in o.path)


def test_many_scenarios_give_a_bounded_picture():
    """180 scenarios: the picture stops before IMAGE_MAX_H."""
    results = lab.run_lab(SCENARIOS[:3], config.load(None)) * 60
    img = lab_picture.draw(results)
    assert img.get_height() <= lab_picture.IMAGE_MAX_H and img.get_width() <= 3 * (lab_picture.PANEL_PX + 20)


def test_planted_links_at_temp_names_change_nothing(tmp_path):
    """Links named like the temporary files of earlier versions, or any name at all: the lab's
    temporary files are new, unpredictable and opened exclusively, so nothing they point at is
    written."""
    out, victim = tmp_path / "out", tmp_path / "victim.txt"
    out.mkdir()
    victim.write_text("mine\n")
    names = (".lab.md.tmp", ".lab.json.tmp", ".lab.tmp.png")
    for name in names:
        (out / name).symlink_to(victim)
    assert main(["--lab", str(LAB / "01_floor_seams.tmx"), "--out", str(out)]) == 0
    assert victim.read_text() == "mine\n"
    assert sorted(p.name for p in out.iterdir()) == sorted([*names, *lab_report.FILES])
    assert all((out / n).is_symlink() for n in names)


def test_a_failure_while_drawing_leaves_the_earlier_results_whole(capsys, tmp_path, monkeypatch):
    import pygame

    out = tmp_path / "out"
    assert main(["--lab", str(LAB / "01_floor_seams.tmx"), "--out", str(out)]) == 0
    before = {n: (out / n).read_bytes() for n in lab_report.FILES}

    def out_of_memory(_results):
        raise pygame.error("Out of memory")

    monkeypatch.setattr(lab_picture, "draw", out_of_memory)
    fails(capsys, ["--lab", str(LAB / "02_wall_seams.tmx"), "--out", str(out)], "lab.png",
          "Out of memory", "nothing was written")
    assert {n: (out / n).read_bytes() for n in lab_report.FILES} == before
    assert sorted(p.name for p in out.iterdir()) == sorted(lab_report.FILES)
