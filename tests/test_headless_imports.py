"""The simulation is headless: running it never imports pygame's display, event or key modules.

Each check runs in a fresh interpreter, since this test process may already have imported pygame.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).parent / "data"
WINDOW_MODULES = ("pygame.display", "pygame.event", "pygame.key")


def run_fresh(code: str) -> dict:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_headless_run_imports_no_window_modules(tmp_path):
    trace = tmp_path / "t.jsonl"
    result = run_fresh(f"""
        import io, json, sys, contextlib
        from game.cli import main
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = main(["--headless", "--ticks", "120", "--level", {str(DATA / "flat.tmx")!r},
                       "--config", {str(DATA / "scenario.toml")!r},
                       "--input", {str(DATA / "scripts" / "jump.txt")!r},
                       "--trace", {str(trace)!r}])
        loaded = [m for m in {WINDOW_MODULES!r} if m in sys.modules]
        print(json.dumps({{"rc": rc, "loaded": loaded}}))
    """)
    assert result == {"rc": 0, "loaded": []}
    assert len(trace.read_text().splitlines()) == 120


def test_simulation_modules_import_no_window_modules():
    result = run_fresh(f"""
        import json, sys
        import game.sim.world, game.resolvers, game.maps.level, game.sim.player, game.runs.headless, game.sim.inputs
        import game.config, game.sim.camera, game.maps.grid
        from game.maps.level import load_level
        load_level({str(DATA / "flat.tmx")!r})
        loaded = [m for m in {WINDOW_MODULES!r} if m in sys.modules]
        print(json.dumps({{"loaded": loaded}}))
    """)
    assert result == {"loaded": []}


def test_the_check_itself_would_see_pygame():
    # importing pygame does load the window modules: the checks above can fail
    result = run_fresh(f"""
        import json, sys
        import pygame
        print(json.dumps({{"loaded": [m for m in {WINDOW_MODULES!r} if m in sys.modules]}}))
    """)
    assert result["loaded"]
