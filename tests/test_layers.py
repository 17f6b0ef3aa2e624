"""The packages are layers and imports point one way: a module of ``game`` imports only from its
own layer or lower ones. Read from the source (every ``import``, also those inside functions), so
a lazy import cannot hide a wrong direction. ``docs/architecture.md`` draws the same order."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "game"

# Lowest first. A module's layer is the longest prefix of its name listed here.
LAYERS = ["game.errors", "game.maps", "game.resolvers", "game.config", "game.sim", "game.runs",
          "game.view", "game.cli"]


def layer_of(module: str) -> int:
    best = None
    for i, name in enumerate(LAYERS):
        if module == name or module.startswith(name + "."):
            if best is None or len(name) > len(LAYERS[best]):
                best = i
    assert best is not None, f"{module} belongs to no layer: add it to LAYERS and the docs"
    return best


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> set[str]:
    """The ``game`` modules a file imports (``from game import x`` counts as ``game.x``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("game."))
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "game":
                found.update(f"game.{a.name}" for a in node.names)
            elif node.module.startswith("game."):
                found.add(node.module)
    return found


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
