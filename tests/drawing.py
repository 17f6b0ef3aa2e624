"""``draws(map)``: the window and ``--render-map`` draw a map the headless run accepts, in a
process of its own held to the 1 GiB the hostile maps' tests hold the command line to
(tests/drawcheck.py is that process; tests/test_hostile_maps.py's ``run_level`` the headless
run). Every file beside the map is as it was afterwards."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MEMORY = 1 << 30  # as tests/test_hostile_maps.py
PICTURE_CAP = "its whole picture would be"  # --render-map's one refusal of a map it reads


def _hold_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def _files(folder: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in folder.iterdir() if p.is_file()}


def draws(path: Path, out: Path, play: bool = True, declare: dict | None = None,
          reload_from: Path | None = None) -> dict:
    """Run tests/drawcheck.py on ``path`` (``out``: a folder for its picture) and check what it
    says: the window played it (``play``: the headless run accepts it), a hot reload into it
    (from ``reload_from``) kept the window and its whole trace, ``--render-map`` wrote it or
    said in one ``error:`` line that its picture is over the cap. Returns what it said."""
    args = [sys.executable, str(ROOT / "tests" / "drawcheck.py"), str(path), str(out)]
    if play:
        args.append("--play")
    if declare:
        args += ["--declare", json.dumps(declare)]
    if reload_from is not None:
        args += ["--reload-from", str(reload_from)]
    before = _files(path.parent)
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    proc = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
                          errors="backslashreplace",
                          preexec_fn=_hold_memory)
    assert proc.returncode == 0, proc.stderr[-2000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    if play:
        assert got["window"] == "ok"
    if reload_from is not None:
        assert got["traced"] == [240], got  # tests/drawcheck.py's TICKS, every one written
        assert got["reloaded"] or got["reload_error"], got
    errors = got["render_errors"]
    if got["render"] == 0:
        assert errors == [] and (out / "map.png").is_file(), got
    else:
        assert got["render"] == 2 and len(errors) == 1 and PICTURE_CAP in errors[0], got
    assert _files(path.parent) == before, "a file beside the map changed"
    return got
