"""The packages are layers and imports point one way: a module of ``game`` imports only from its
own layer or lower ones. Read from the source (every ``import``, also those inside functions), so
a lazy import cannot hide a wrong direction. ``tools/architecture.py`` holds the layers and that
reading, and draws the same order into ``docs/architecture.md``."""

from __future__ import annotations

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
