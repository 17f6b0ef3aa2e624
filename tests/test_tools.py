"""The developer tools answer a mistake the way main.py does (one ``error:`` line, exit code 2),
and the benchmark keeps running (its figures are never checked)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run_tool(*args: str, timeout: float = 60,
             env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", **(env or {}))
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout)


@pytest.mark.parametrize("args, words", [
    (("--resolver", "bogus"), ["unknown --resolver 'bogus'", "axis"]),
    (("--seconds", "-1"), ["--seconds"]),
    (("--no-such-option",), ["unrecognized arguments"]),
    (("--input", "no/such/script.txt"), ["script.txt", "not found"]),
])
def test_screenshot_tool_mistakes_are_one_error_line(args, words):
    r = run_tool("tools/screenshot.py", *args)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), r.stderr
    assert "Traceback" not in r.stderr
    for w in words:
        assert w in lines[0]


# ----------------------------------------------------------------------------------------------
# tools/bench.py: it must keep working (its figures are never checked, only that it runs)
# ----------------------------------------------------------------------------------------------

@pytest.mark.slow
def test_bench_quick_run_reports_every_figure_as_json():
    from game import resolvers

    r = run_tool("tools/bench.py", "--quick", "--json", timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    report = json.loads(r.stdout)
    figures = report["figures"]
    for name in resolvers.names():
        assert figures[f"physics/{name}"]["median"] > 0, name
        assert figures[f"physics/{name}"]["details"]["jumps"] > 0, name  # the movers moved
    size = report["settings"]["load_map"]
    for key in (f"render/ours/{report['settings']['render_maps'][0]}", f"load/ours/{size}",
                f"load/pytmx/{size}", "frame/ours"):
        assert figures[key]["median"] > 0, key
    for name in resolvers.names():
        walkers = figures[f"walkers/{name}"]
        assert walkers["median"] > 0 and walkers["details"]["walker_steps_per_s"] > 0, name
        assert walkers["details"]["walkers"] == report["settings"]["walkers"], name
    assert figures["frame/crowd"]["details"]["walkers"] == 200
    assert figures["frame/crowd"]["details"]["p99_ms"] > 0
    assert figures["frame/ours"]["details"]["ticks"] == report["settings"]["frames"]
    times = figures["frame/ours"]["frame_times"]
    for clock in ("", "cpu_"):
        assert 0 < times[f"{clock}p50_ms"]["median"] <= times[f"{clock}p99_ms"]["median"]
    assert times["floor_cpu_p50_ms"]["median"] > 0 and times["tick_cpu_p50_ms"]["median"] > 0
    assert report["ratios"][f"load/{size} vs pytmx"]["median"] > 0
    assert "physics/arcade" not in figures  # no --peers, no peers
    # the floors, the set-up times, the scaling rows and the ghosts' simulation
    floor = figures["physics/floor"]
    assert floor["median"] > 0 and floor["details"]["jumps"] > 0
    # the floor follows the scenario's rules exactly: its movers do what the resolvers' do
    assert floor["details"]["reversals"] == figures["physics/axis"]["details"]["reversals"]
    assert figures["render/blit"]["median"] > 0
    lively = f"lively-{report['settings']['render_maps'][0]}"
    assert figures[f"render/ours/{lively}"]["median"] > 0
    assert figures[f"render/floor/{lively}"]["details"]["layers"] == 4  # sky, hills, ground, trees
    for m in (*report["settings"]["render_maps"], lively):
        assert report["ratios"][f"render/{m} vs blit"]["field"] == "cpu_fps"
    assert report["ratios"][f"render/{lively} vs its layers"]["median"] > 0
    first = report["settings"]["render_maps"][0]
    assert report["ratios"][f"render/{first} vs its cut"]["median"] > 0
    # the scroll floor: each room timed, the fastest counts; set beside the targets, not one
    scroll = figures["render/scroll"]["details"]
    assert scroll["room"] in (32, 64, 128, 256, 640) and len([k for k in scroll["per_way_cpu_fps"] if k.startswith("room")]) == 5
    assert scroll["scrolls"]["room 32"] > 0  # the view moved and the picture followed it
    assert scroll["scrolls"]["room 32"] >= scroll["scrolls"]["room 640"]
    for m in report["settings"]["render_maps"]:
        assert report["ratios"][f"render/{m} vs scroll"]["theirs"] == "render/scroll"
    assert 0 < scroll["share_of_bare"] <= 2
    assert not any(t["what"].startswith("render/scroll") for t in report["targets"])
    aside = [t for t in report["beside_targets"] if t["what"].startswith("render/scroll")]
    assert len(aside) == 1 and aside[0]["value"] == scroll["share_of_bare"]
    # the issues' targets, each with its value and limit
    targets = {t["what"].split(":")[0]: t for t in report["targets"]}
    assert targets["physics/axis vs floor"]["limit"] == 2.0
    assert targets[f"render/{lively} vs blit"]["limit"] == 0.8
    assert targets["frame/ours"]["limit"] == 0.2 and targets["ghosts/crowd"]["limit"] == 2.5
    assert all(t["met"] == (t["value"] <= t["limit"] if t["at_most"] else
                            t["value"] >= t["limit"]) for t in report["targets"])
    load = figures[f"load/ours/{size}"]["details"]
    for name in resolvers.names():
        assert load[f"prepare_s/{name}"] >= 0, name
        assert figures[f"physics/{name}"]["details"]["setup_s"] >= 0, name
        assert report["ratios"][f"physics/{name} vs floor"]["cost"] is True
        # the lesson class beside play's, against the floor too, printed beside the target
        lesson = figures[f"physics/{name}/lesson"]["details"]
        assert lesson["class"] == resolvers.REGISTRY[name].__name__, name
        assert figures[f"physics/{name}"]["details"]["class"] == resolvers.PLAY[name].__name__
        assert report["ratios"][f"physics/{name}/lesson vs floor"]["median"] > 0, name
        assert f"physics/{name}/lesson vs floor" not in targets
        assert any(t["what"].startswith(f"physics/{name}/lesson vs floor")
                   for t in report["beside_targets"]), name
        assert report["ratios"][f"walkers/{name} vs floor"]["median"] > 0
    assert load["with_slowest_prepare_s"] >= figures[f"load/ours/{size}"]["median"]
    assert report["ratios"][f"load+prepare/{size} vs pytmx"]["median"] > 0
    assert figures[f"door/{size}"]["median"] > 0 and figures[f"door/{size}"]["unit"] == "ms"
    settings = report["settings"]
    for m in settings["scale_maps"]:
        for n in settings["scale_movers"]:
            assert figures[f"scaling/floor/{m}/{n}"]["median"] > 0
            for name in resolvers.names():
                assert report["ratios"][f"scaling/{name}/{m}/{n} vs floor"]["median"] > 0
    ghosts = figures["ghosts/crowd"]
    assert ghosts["details"]["worlds"] == len(resolvers.names())
    assert 0 < ghosts["frame_times"]["cpu_p50_ms"]["median"] <= ghosts["frame_times"][
        "cpu_p99_ms"]["median"]
    assert figures["frame/crowd"]["frame_times"]["cpu_p99_ms"]["median"] > 0


def test_bench_peers_without_the_group_says_how_to_get_it(tmp_path):
    # Stand-ins that fail to import, as if arcade and pyscroll were not installed.
    for name in ("arcade", "pyscroll"):
        (tmp_path / f"{name}.py").write_text("raise ImportError('not installed')\n")
    r = run_tool("tools/bench.py", "--peers", "--quick",
                 env={"PYTHONPATH": str(tmp_path)})
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), r.stderr
    assert "uv run --group peers python tools/bench.py --peers" in lines[0]


def test_bench_peers_quick_run_draws_the_lively_map_both_ways():
    """With the peers installed (the 'peers' group; CI has them not), pyscroll draws the lively
    map by itself and whole; the target is judged against the whole scene, the other ratio
    printed beside the targets."""
    pytest.importorskip("pyscroll")
    pytest.importorskip("arcade")
    r = run_tool("tools/bench.py", "--peers", "--quick", "--json", "--only", "render",
                 timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    report = json.loads(r.stdout)
    lively = f"lively-{report['settings']['render_maps'][0]}"
    figures = report["figures"]
    assert figures[f"render/pyscroll/{lively}"]["details"]["renderers"] == 1
    assert figures[f"render/pyscroll-whole/{lively}"]["details"]["renderers"] == 3
    for theirs in ("pyscroll", "pyscroll-whole"):
        ratio = report["ratios"][f"render/{lively} vs {theirs}"]
        assert ratio["theirs"] == f"render/{theirs}/{lively}" and ratio["median"] > 0
    judged = {t["what"].split(":")[0] for t in report["targets"]}
    assert f"render/{lively} vs pyscroll-whole" in judged
    assert f"render/{lively} vs pyscroll" not in judged
    assert f"render/{report['settings']['render_maps'][0]} vs pyscroll" in judged
    aside = [t["what"] for t in report["beside_targets"]]
    assert [a for a in aside if a.startswith("render/lively-")] == [
        a for a in aside if a.startswith(f"render/{lively} vs pyscroll:")]
    assert len([a for a in aside if a.startswith(f"render/{lively} vs pyscroll:")]) == 1
    assert "not a target" in aside[0]


def test_pyscroll_whole_scene_draws_the_lively_map_as_ours_does(tmp_path):
    """pyscroll's whole scene (a renderer per parallax factor, tile objects as sprites) and our
    MapRenderer draw the same frame of the lively map: outside the animated cells (where
    pyscroll times and blends frames its own way) no pixel differs by more than 1 in a channel
    (translucent rims, blended by two blitters). The 40x24 map: trees and hills in view, and a
    camera that never crosses a tile on both axes at once (where pyscroll draws a corner cell
    twice)."""
    pytest.importorskip("pyscroll")
    from tools import bench_scenario

    tmx = bench_scenario.write_lively_tmx(tmp_path / "lively.tmx", 40, 24)
    r = run_tool("tools/peers/pyscroll_bench.py", "compare", "--tmx", str(tmx), "--frame", "20",
                 "--out", str(tmp_path / "shots"))
    assert r.returncode == 0, r.stderr[-2000:]
    res = json.loads(r.stdout.strip().splitlines()[-1])
    assert res["differ_by_more_than_2_elsewhere"] == 0, res
    assert res["max_channel_difference_elsewhere"] <= 1, res
    assert res["differ"] < res["pixels"] // 50, res  # rims only: under 2% of the view
    for name in ("ours", "pyscroll-whole", "differences"):
        assert (tmp_path / "shots" / f"frame20_{name}.png").is_file()


@pytest.mark.parametrize("args, words", [
    (("--map", "wide"), ["--map", "'wide'", "WxH"]),
    (("--render-maps", "2x2"), ["--render-maps", "2x2"]),
    (("--repeat", "0"), ["--repeat"]),
    (("--only", "physics,sound"), ["--only", "'sound'"]),
    (("--bogus",), ["unrecognized arguments"]),
])
def test_bench_mistakes_are_one_error_line(args, words):
    r = run_tool("tools/bench.py", *args)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), r.stderr
    for w in words:
        assert w in lines[0]

