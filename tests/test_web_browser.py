"""The web page in a real browser: ``tools/build_web.py`` builds it, headless Chromium runs it.

The check replays input scripts through the page's links on every shipped level and compares the
traces the page writes with ``main.py --headless --ghosts --trace``'s, byte for byte; it picks
every lab scenario in the page and compares its row with ``--lab``'s; and it makes sure the page
asks for nothing beyond the folder it was built into.

These need Debian's ``chromium`` and ``npm`` (which fetches the pinned Pyodide once). Where they
are absent the tests skip and say why; with TILECOLLIDE_REQUIRE_BROWSER=1 (set by .ci/run, which
installs them) a missing one is a failure instead.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tools.headless_chromium import find_chromium

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "build_web.py"

pytestmark = pytest.mark.slow


def need(what: str, found: bool) -> None:
    if found:
        return
    if os.environ.get("TILECOLLIDE_REQUIRE_BROWSER"):
        pytest.fail(f"{what} not found, and TILECOLLIDE_REQUIRE_BROWSER is set: .ci/run "
                    "installs it (apt-get install chromium npm)")
    pytest.skip(f"{what} not found (Debian: apt-get install chromium npm)")


def need_npm() -> None:
    installed = (ROOT / "web" / "node_modules" / "pyodide" / "package.json").is_file()
    need("npm", installed or shutil.which("npm") is not None)


def test_the_page_builds_from_the_checkout(tmp_path):
    need_npm()
    out = tmp_path / "site"
    proc = subprocess.run([sys.executable, str(TOOL), "--out", str(out)], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    # the first build in a fresh checkout says first that npm fetches Pyodide
    assert proc.stdout.splitlines()[-1].startswith(f"built {out}: pyodide "), proc.stdout
    manifest = json.loads((out / "manifest.json").read_text())
    shipped = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "levels").glob("*.tmx"))
    lab = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "levels" / "lab").glob("*.tmx"))
    assert [m["path"] for m in manifest["maps"]] == shipped + lab
    assert manifest["unreadable"] == []
    for name in ("index.html", "page.js", "page.css", "pyodide/pyodide.mjs",
                 "pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip", "assets/terrain.png",
                 "levels/terrain.tsx", "licenses/pytmx-LICENSE.txt", ".tilecollide-web"):
        assert (out / name).is_file(), name
    names = zipfile.ZipFile(out / "app.zip").namelist()
    assert {"game/sim/world.py", "game/resolvers/axis.py", "game/runs/headless.py",
            "web/page.py", "pytmx/pytmx.py", "config.toml", "levels/lab/06_ledge_bump.tmx",
            "assets/terrain.png"} <= set(names)
    assert not [n for n in names if n.startswith("game/view/") or "__pycache__" in n]
    # A second build replaces the first (it is the tool's own), the same bytes from the same
    # checkout.
    first = (out / "app.zip").read_bytes()
    again = subprocess.run([sys.executable, str(TOOL), "--out", str(out)], cwd=ROOT,
                           capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    assert (out / "app.zip").read_bytes() == first


def test_the_page_replays_links_exactly_as_the_desktop(tmp_path):
    need_npm()
    need("chromium", find_chromium() is not None)
    shot = tmp_path / "page.png"
    proc = subprocess.run([sys.executable, str(TOOL), "--check", "--screenshot", str(shot)],
                          cwd=ROOT, capture_output=True, text=True, timeout=1200)
    out = proc.stdout
    assert proc.returncode == 0, out + proc.stderr
    assert "DIFFERENT" not in out and out.rstrip().splitlines()[-1].startswith("no differences")
    for level in sorted((ROOT / "levels").glob("*.tmx")):  # every shipped level, two scripts
        rel = level.relative_to(ROOT).as_posix()
        assert out.count(f"same      {rel}, ") == 2, rel
    for scenario in sorted((ROOT / "levels" / "lab").glob("*.tmx")):
        assert f"same      {scenario.relative_to(ROOT).as_posix()}: " in out
    assert "zstd_first_steps.tmx: named in one line: error: " in out
    assert "ms per tick for the seven worlds" in out
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
