"""The developer tools answer a mistake the way main.py does: one ``error:`` line, exit code 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run_tool(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)


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
