"""Each package's ``__init__.py`` lists its modules, and the list is complete: a module added or
removed without its line in the list fails here.

A list is the docstring's bullet lines (``- `` or ``* ``); the modules a line names are the
double-backticked names before its first ``:`` or `` -- `` (``game.sim`` in ``game/__init__.py``
counts as ``sim``)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = sorted(p.parent for top in ("game", "tools") for p in (ROOT / top).rglob("__init__.py"))

BULLET = re.compile(r"^\s*[-*] (.*)$")
HEAD_END = re.compile(r":(?:\s|$)| -- ")
NAME = re.compile(r"``([\w.]+)``")


def modules_of(package: Path) -> set[str]:
    """The modules and sub-packages in a package's folder."""
    return ({p.stem for p in package.glob("*.py") if p.name != "__init__.py"}
            | {p.name for p in package.iterdir() if (p / "__init__.py").is_file()})


def listed_in(docstring: str, dotted: str) -> set[str]:
    """The module names the bullet lines of ``docstring`` start with, without the package's own
    dotted name in front."""
    names: set[str] = set()
    for line in docstring.splitlines():
        bullet = BULLET.match(line)
        if bullet:
            head = HEAD_END.split(bullet.group(1), maxsplit=1)[0]
            names.update(n.removeprefix(dotted + ".") for n in NAME.findall(head))
    return names


def test_every_package_is_checked():
    rel = {p.relative_to(ROOT).as_posix() for p in PACKAGES}
    assert {"game", "game/maps", "game/sim", "game/view", "game/runs", "game/resolvers",
            "tools"} <= rel


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_package_lists_each_of_its_modules(package):
    rel = package.relative_to(ROOT).as_posix()
    init = package / "__init__.py"
    doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
    listed, present = listed_in(doc, rel.replace("/", ".")), modules_of(package)
    missing, gone = sorted(present - listed), sorted(listed - present)
    assert not missing, (f"{rel}/__init__.py does not list {missing}: add a line "
                         "'- ``name``: what it is' to its docstring")
    assert not gone, f"{rel}/__init__.py lists {gone}, which {rel}/ does not hold"


def test_the_check_sees_a_module_missing_or_gone(tmp_path):
    (tmp_path / "__init__.py").write_text('"""- ``kept``: here.\n- ``gone``: was here."""\n')
    (tmp_path / "kept.py").write_text("")
    (tmp_path / "new.py").write_text("")
    doc = ast.get_docstring(ast.parse((tmp_path / "__init__.py").read_text()))
    assert listed_in(doc, "pkg") == {"kept", "gone"}
    assert modules_of(tmp_path) == {"kept", "new"}
    assert listed_in("* ``pkg.a``    -- one\n- ``b`` and ``c``: two, not ``d``", "pkg") \
        == {"a", "b", "c"}
