"""The shipped Tiled project's "Play in tilecollide" command (F5 in Tiled) runs the game on the map
open in Tiled. Tiled replaces ``%mapfile`` and ``%projectpath`` itself (the map's path in quotes
inside the command, unquoted in the working directory) and splits the command line like a shell;
this test does the same and then runs what it gets, for a few ticks in a hidden window."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROJECT = ROOT / "levels" / "tilecollide.tiled-project"


def play_command() -> dict:
    commands = json.loads(PROJECT.read_text("utf-8"))["commands"]
    named = [c for c in commands if c["name"] == "Play in tilecollide"]
    assert len(named) == 1, commands
    return named[0]


def as_tiled_runs(command: dict, map_path: Path) -> tuple[list[str], Path]:
    """(argv, working directory) as Tiled builds them for the map open in it."""
    project_dir = str(PROJECT.parent)
    line = f'{command["command"]} {command["arguments"]}'
    line = line.replace("%mapfile", f'"{map_path}"').replace("%projectpath", f'"{project_dir}"')
    workdir = command["workingDirectory"].replace("%projectpath", project_dir)
    return shlex.split(line), Path(workdir).resolve()


def test_the_command_is_enabled_saves_first_and_has_f5():
    c = play_command()
    assert c["enabled"] and c["saveBeforeExecute"] and c["shortcut"] == "F5"


def test_the_command_line_plays_the_open_map_from_the_repository(tmp_path):
    level = ROOT / "levels" / "01_first_steps.tmx"
    argv, workdir = as_tiled_runs(play_command(), level)
    assert workdir == ROOT
    assert argv == ["uv", "run", "main.py", "--level", str(level)]
    # What uv runs (``python main.py --level MAP``), for 5 ticks in a hidden window.
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               TILECOLLIDE_NO_SETTINGS="1")
    r = subprocess.run([sys.executable, *argv[2:], "--ticks", "5"], cwd=workdir, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "error:" not in r.stderr


def test_a_map_path_with_spaces_stays_one_argument(tmp_path):
    level = tmp_path / "my levels" / "a map.tmx"
    argv, _ = as_tiled_runs(play_command(), level)
    assert argv[-2:] == ["--level", str(level)]


def test_the_session_file_tiled_leaves_beside_the_project_is_ignored_by_git():
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    r = subprocess.run(["git", "check-ignore", "-q", "levels/tilecollide.tiled-session"],
                       cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, "levels/*.tiled-session is not in .gitignore"
