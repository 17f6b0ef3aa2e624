"""The packages are layers and imports point one way: a module of ``game`` imports only from its
own layer or lower ones. Read from the source (every ``import``, also those inside functions), so
a lazy import cannot hide a wrong direction. ``tools/architecture.py`` holds the layers and that
reading, and draws the same order into ``docs/architecture.md``.

The tools import the project one way: the project is installed into its environment, so a tool
imports ``game.x`` and ``tools.x`` from any folder, and none touches ``sys.path``."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from tools.architecture import LAYERS, imports_of, module_name
from tools.architecture import layer_of as _layer_of

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "game"


def layer_of(module: str) -> int:
    best = _layer_of(module)
    assert best is not None, f"{module} belongs to no layer: add it to LAYERS and the docs"
    return best


SOURCES = sorted(GAME.rglob("*.py"))


def test_every_module_has_a_layer():
    for path in SOURCES:
        if path.name != "__init__.py" or path.parent != GAME:
            layer_of(module_name(path))


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_point_down(path):
    if path.parent == GAME and path.name == "__init__.py":
        return
    me = module_name(path)
    mine = layer_of(me)
    upward = sorted(m for m in imports_of(path) if layer_of(m) > mine)
    assert not upward, f"{me} ({LAYERS[mine]}) imports from a higher layer: {upward}"


def test_the_check_sees_an_upward_import(tmp_path):
    bad = tmp_path / "m.py"
    bad.write_text("def f():\n    from game.view import app\n")
    assert imports_of(bad) == {"game.view"}
    assert layer_of("game.view") > layer_of("game.sim.world")


TOOL_SOURCES = sorted((ROOT / "tools").rglob("*.py"))
TOOL_MODULES = {p.stem for p in (ROOT / "tools").glob("*.py")} | {
    p.parent.name for p in (ROOT / "tools").glob("*/__init__.py")}


def import_style_faults(path: Path) -> list[str]:
    """What in a file breaks the tools' one import style: ``sys.path`` touched, a relative import,
    or a tool imported by its bare name (``import bench_scenario``, not ``from tools import``)."""
    faults = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if (isinstance(node, ast.Attribute) and node.attr == "path"
                and isinstance(node.value, ast.Name) and node.value.id == "sys"):
            faults.append(f"line {node.lineno}: sys.path")
        elif isinstance(node, ast.ImportFrom) and node.level:
            faults.append(f"line {node.lineno}: a relative import")
        else:
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module] if isinstance(node, ast.ImportFrom) else [])
            faults += [f"line {node.lineno}: import {n} (write tools.{n})" for n in names
                       if n.split(".")[0] in TOOL_MODULES]
    return faults


@pytest.mark.parametrize("path", TOOL_SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_tool_imports_the_project_one_way(path):
    assert not import_style_faults(path)


def test_the_style_check_sees_a_path_edit_and_a_bare_tool_import(tmp_path):
    bad = tmp_path / "t.py"
    bad.write_text("import sys\nsys.path.insert(0, 'tools')\nimport bench_scenario\n"
                   "from make_art import T\nfrom . import doc_blocks\nfrom tools import bench\n")
    assert sorted(f.split(":")[0] for f in import_style_faults(bad)) == ["line 2", "line 3",
                                                                        "line 4", "line 5"]


def test_a_tool_runs_from_any_folder(tmp_path):
    """Run by its path from a folder outside the project, a tool still finds ``game`` and the
    other tools (``tools/architecture.py`` imports ``tools.doc_blocks`` and reads ``game``)."""
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "architecture.py"), "--check"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "current" in r.stdout
