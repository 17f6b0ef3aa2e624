"""Scripted runs: ``main.py --headless`` with an input script and a JSON Lines trace.

A few runs go through a real subprocess (the command line exactly as a user types it); every
scenario is also run in-process through ``game.runs.headless.run`` and ``game.sim.inputs.parse_script``,
and the two traces must be identical.

The runs use tests/data/scenario.toml, an empty config file, so the numbers are the built-in
defaults whatever the repository's own config.toml says.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from game import config as cfgmod
from game import resolvers
from game.runs.headless import run
from game.sim.inputs import parse_script
from game.maps.level import load_level
from game.sim.world import EVENTS, World

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).parent / "data"
SCRIPTS = DATA / "scripts"
CONFIG = DATA / "scenario.toml"
FLAT = DATA / "flat.tmx"
PIT = DATA / "pit.tmx"

KEYS = {"tick", "x", "y", "w", "h", "vx", "vy", "on_ground", "respawning", "resolver", "events"}
P = cfgmod.PhysicsConfig()
W, H = 12.0, 14.0
# flat.tmx and pit.tmx: floor top at y = 64, spawn point at x = 40 (the feet's centre)
SPAWN = (40 - W / 2, 64 - H)


def env() -> dict[str, str]:
    e = dict(os.environ)
    e["SDL_VIDEODRIVER"] = "dummy"
    e["SDL_AUDIODRIVER"] = "dummy"
    return e


def run_main(tmp_path: Path, ticks: int, script: Path | None, level: Path = FLAT,
             *extra: str) -> list[dict]:
    trace = tmp_path / "trace.jsonl"
    args = [sys.executable, "main.py", "--headless", "--ticks", str(ticks), "--trace", str(trace),
            "--config", str(CONFIG), "--level", str(level), *extra]
    if script is not None:
        args += ["--input", str(script)]
    proc = subprocess.run(args, cwd=ROOT, env=env(), capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    lines = trace.read_text("utf-8").splitlines()
    return [json.loads(line) for line in lines]


def run_inprocess(ticks: int, script: Path | str | None, level: Path = FLAT,
                  resolver: str = "axis") -> list[dict]:
    cfg = cfgmod.load(CONFIG)
    lvl = load_level(level, (cfg.player.width, cfg.player.height))
    physics = cfgmod.with_map_properties(cfg, lvl.properties, lvl.path).physics
    world = World(lvl, physics, resolvers.create(resolver, cfg.resolver_options(resolver)))
    if script is None:
        lines: list[str] = []
    elif isinstance(script, Path):
        lines = script.read_text("utf-8").splitlines()
    else:
        lines = script.splitlines()
    frames = parse_script(lines, str(script)).frames(ticks)
    # the records are plain data: a JSON round trip leaves them unchanged
    return [json.loads(json.dumps(r)) for r in run(world, frames)]


def takeoffs(recs: list[dict]) -> int:
    """Ticks that leave the ground upward; the spawns used here stand on the floor (tick -1)."""
    grounded = [True] + [r["on_ground"] for r in recs]
    return sum(1 for i, r in enumerate(recs) if grounded[i] and not r["on_ground"] and r["vy"] < 0)


# ----------------------------------------------------------------------------------------------
# Scenario checks, shared by the subprocess and the in-process runs
# ----------------------------------------------------------------------------------------------

def check_format(recs: list[dict], ticks: int) -> None:
    assert len(recs) == ticks
    for i, r in enumerate(recs):
        assert set(r) == KEYS, f"tick {i}: keys {sorted(r)}"
        assert r["tick"] == i
        for k in ("x", "y", "w", "h", "vx", "vy"):
            assert isinstance(r[k], (int, float)) and not isinstance(r[k], bool)
        assert isinstance(r["on_ground"], bool) and isinstance(r["respawning"], bool)
        assert r["resolver"] == "axis"
        assert (r["w"], r["h"]) == (W, H)
        assert isinstance(r["events"], list) and all(e in EVENTS for e in r["events"])


def check_standing(recs: list[dict]) -> None:
    """No input: the spawn point is the feet's centre on the floor; x, y are the top-left."""
    r = recs[0]
    assert (r["x"], r["y"]) == SPAWN
    assert r["on_ground"] is True  # written after the step: the first tick already landed
    assert all((q["x"], q["y"], q["vx"], q["vy"]) == (*SPAWN, 0.0, 0.0) for q in recs)


def check_hold_right(recs: list[dict]) -> None:
    xs = [r["x"] for r in recs]
    vxs = [r["vx"] for r in recs]
    assert all(b >= a for a, b in zip(xs, xs[1:]))
    assert max(vxs) == P.run_speed
    reached = next(i for i, v in enumerate(vxs) if v == P.run_speed) + 1
    assert abs(reached - P.run_speed / P.ground_accel / P.dt) <= 2
    # at full speed: run_speed px/s, in map px per tick
    for i in range(reached + 1, reached + 20):
        assert xs[i] - xs[i - 1] == pytest.approx(P.run_speed * P.dt)
    # flat.tmx is 160 px wide: the right edge stops the player
    assert xs[-1] + W == pytest.approx(160.0)
    assert vxs[-1] == 0.0


def check_jump(recs: list[dict]) -> None:
    """Script: nothing until tick 10, jump held 10..59, then nothing."""
    assert all(r["on_ground"] for r in recs[:10])
    assert recs[10]["on_ground"] is False and recs[10]["vy"] < 0
    apex = min(r["y"] for r in recs)
    assert SPAWN[1] - apex == pytest.approx(P.jump_speed ** 2 / (2 * P.gravity), abs=1.0)
    top = min(range(len(recs)), key=lambda i: recs[i]["y"])
    assert recs[top - 1]["vy"] < 0 <= recs[top + 1]["vy"]
    landed = next(i for i in range(11, len(recs)) if recs[i]["on_ground"])
    assert recs[landed]["y"] == SPAWN[1]
    assert all(r["on_ground"] for r in recs[landed:])
    assert takeoffs(recs) == 1
    assert all(r["x"] == SPAWN[0] for r in recs)


def check_pit(recs: list[dict]) -> None:
    flags = [r["respawning"] for r in recs]
    first = flags.index(True)
    assert recs[first]["y"] > 96  # below the map's bottom (6 rows of 16 px)
    assert recs[first - 1]["respawning"] is False
    back = flags.index(False, first)
    assert abs((back - first) - P.respawn_delay / P.dt) <= 1
    r = recs[back]
    assert (r["x"], r["y"], r["vx"], r["vy"]) == (*SPAWN, 0.0, 0.0)
    # the player fell into the pit (columns 10..12), not somewhere else
    assert 10 * 16 - W < recs[first - 1]["x"] < 13 * 16


def check_release(recs: list[dict]) -> None:
    """Script: right for ticks 0..19, nothing from tick 20."""
    vxs = [r["vx"] for r in recs]
    assert all(v > 0 for v in vxs[:20])
    assert vxs[19] == P.run_speed
    assert vxs[20] == pytest.approx(P.run_speed - P.ground_decel * P.dt)
    stop = next(i for i in range(20, len(vxs)) if vxs[i] == 0.0)
    assert abs((stop - 19) - P.run_speed / P.ground_decel / P.dt) <= 2
    assert all(v == 0.0 for v in vxs[stop:])
    assert len({r["x"] for r in recs[stop:]}) == 1


def check_hold_jump(recs: list[dict]) -> None:
    """Jump held across three lines: jumps once, then stays on the ground; right from 30 to 59."""
    assert takeoffs(recs) == 1
    rising = [False] + [r["vy"] < 0 for r in recs]  # at rest before tick 0
    assert sum(1 for i in range(len(recs)) if rising[i + 1] and not rising[i]) == 1
    assert recs[0]["vy"] < 0, "the spawn stands on the floor: the jump held from tick 0 fires then"
    assert recs[-1]["on_ground"]
    assert all(r["vx"] == 0 for r in recs[:30])
    assert recs[30]["vx"] > 0


def check_two_jumps(recs: list[dict]) -> None:
    assert takeoffs(recs) == 2
    second = next(i for i in range(40, len(recs)) if recs[i]["vy"] < 0)
    assert second in (50, 51)  # the press at tick 50 (on the ground: jumps that tick)


def check_late_start(recs: list[dict]) -> None:
    assert all(r["vx"] == 0 for r in recs[:5])
    assert recs[5]["vx"] > 0


SCENARIOS = {
    # name: (level, script, ticks, check)
    "standing": (FLAT, None, 30, check_standing),
    "hold_right": (FLAT, SCRIPTS / "hold_right.txt", 90, check_hold_right),
    "jump": (FLAT, SCRIPTS / "jump.txt", 90, check_jump),
    "pit": (PIT, SCRIPTS / "hold_right.txt", 240, check_pit),
    "release": (FLAT, SCRIPTS / "release.txt", 70, check_release),
    "hold_jump": (FLAT, SCRIPTS / "hold_jump.txt", 150, check_hold_jump),
    "two_jumps": (FLAT, SCRIPTS / "two_jumps.txt", 120, check_two_jumps),
    "late_start": (FLAT, SCRIPTS / "late_start.txt", 20, check_late_start),
}


@pytest.mark.parametrize("name", SCENARIOS)
def test_scenario_in_process(name):
    level, script, ticks, check = SCENARIOS[name]
    recs = run_inprocess(ticks, script, level)
    check_format(recs, ticks)
    check(recs)


# Through a real subprocess: fewer, because each one starts Python.
@pytest.mark.parametrize("name", ["hold_right", "jump", "pit", "hold_jump"])
def test_scenario_through_main_py(tmp_path, name):
    level, script, ticks, check = SCENARIOS[name]
    recs = run_main(tmp_path, ticks, script, level)
    check_format(recs, ticks)
    check(recs)
    assert recs == run_inprocess(ticks, script, level)


def test_trace_lines_are_compact_json_objects(tmp_path):
    run_main(tmp_path, 5, None)
    lines = (tmp_path / "trace.jsonl").read_text("utf-8").splitlines()
    assert len(lines) == 5
    for line in lines:
        assert line.startswith("{") and line.endswith("}")
        assert isinstance(json.loads(line), dict)


def test_zero_ticks_writes_an_empty_trace(tmp_path):
    assert run_main(tmp_path, 0, None) == []


def test_stdout_trace_matches_the_file_trace(tmp_path):
    script = SCRIPTS / "jump.txt"
    proc = subprocess.run(
        [sys.executable, "main.py", "--headless", "--ticks", "40", "--trace", "-",
         "--config", str(CONFIG), "--level", str(FLAT), "--input", str(script)],
        cwd=ROOT, env=env(), capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    recs = [json.loads(line) for line in proc.stdout.splitlines()]
    assert recs == run_inprocess(40, script, FLAT)


def test_resolver_option_is_recorded_in_the_trace():
    for name in resolvers.names():
        recs = run_inprocess(3, None, FLAT, resolver=name)
        assert {r["resolver"] for r in recs} == {name}


# ----------------------------------------------------------------------------------------------
# The input script format, in-process
# ----------------------------------------------------------------------------------------------

def test_line_is_held_until_the_next_lines_tick():
    script = parse_script(["0 left", "3 right+down", "# note", "", "6 -", "8 jump+left"], "s")
    frames = list(script.frames(10))
    assert [f.move for f in frames] == [-1, -1, -1, 1, 1, 1, 0, 0, -1, -1]
    assert [f.down for f in frames] == [False] * 3 + [True] * 3 + [False] * 4
    assert [f.jump_pressed for f in frames] == [False] * 8 + [True, False]
    assert [f.jump_held for f in frames] == [False] * 8 + [True, True]


def test_jump_is_pressed_only_on_its_first_held_tick():
    script = parse_script(["0 jump", "2 jump+right", "4 jump", "6 -", "7 jump"], "s")
    frames = list(script.frames(9))
    assert [f.jump_pressed for f in frames] == [True, False, False, False, False, False, False,
                                                True, False]
    assert [f.jump_held for f in frames] == [True] * 6 + [False, True, True]


def test_last_line_is_held_to_the_end_and_script_may_be_longer_than_the_run():
    script = parse_script(["0 right", "100 left"], "s")
    assert [f.move for f in script.frames(5)] == [1] * 5
