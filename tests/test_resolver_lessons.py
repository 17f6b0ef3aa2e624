"""Each resolver's module reads as its article's lesson, and the docs say where everything is.

A lesson (``game/resolvers/<name>.py``) is short enough to read (about 450 lines, docstring
included), says in its docstring what goes beyond the article, and joins each of those pieces to
the article's code at a line marked ``# >> beyond the article``; the article's code comes before
them. Every module of ``game/resolvers`` (lessons, their companions, the fast twins) is named in
README.md and docs/resolvers.md.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from game import resolvers
from game.resolvers.fast import FAST

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "game" / "resolvers"
MOST_LINES = 465  # "about 450"
MARK = "# >> beyond the article"


def lesson(name: str) -> Path:
    return PACKAGE / f"{name}.py"


@pytest.mark.parametrize("name", resolvers.names())
def test_a_lesson_fits_a_readers_sitting(name):
    lines = lesson(name).read_text(encoding="utf-8").count("\n")
    assert lines <= MOST_LINES, f"game/resolvers/{name}.py has {lines} lines (at most about 450)"


@pytest.mark.parametrize("name", resolvers.names())
def test_what_goes_beyond_the_article_is_joined_at_marked_lines(name):
    text = lesson(name).read_text(encoding="utf-8")
    doc = ast.get_docstring(ast.parse(text)) or ""
    assert "Beyond the article" in doc, f"{name}: the docstring says nothing of what goes beyond"
    assert "Departures" in doc, f"{name}: the docstring lists no departures"
    code = text[text.index('"""', 3) + 3:]
    assert MARK in code, f"{name}: no line marked {MARK!r}"
    # the article's code comes first, then a section of what goes beyond it
    beyond = re.search(r"^ *# Beyond the article", code, re.M)
    assert beyond, f"{name}: no section headed '# Beyond the article'"
    assert code.index("def move_box(") < beyond.start(), name


@pytest.mark.parametrize("name", resolvers.names())
def test_the_lesson_says_where_plays_speed_is(name):
    doc = ast.get_docstring(ast.parse(lesson(name).read_text(encoding="utf-8"))) or ""
    if name in FAST:
        assert f"game.resolvers.fast.{name}.{FAST[name].__name__}" in doc.replace("\n", " "), name
    else:
        assert "no fast twin" in doc, name


def test_every_resolver_module_is_named_in_the_readme_and_the_resolvers_page():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    page = (ROOT / "docs" / "resolvers.md").read_text(encoding="utf-8")
    modules = sorted(PACKAGE.glob("*.py")) + sorted((PACKAGE / "fast").glob("*.py"))
    for path in modules:
        if path.name == "__init__.py":
            continue
        rel = path.relative_to(ROOT).as_posix()
        assert f"({rel})" in readme or path.name == "base.py", f"README.md does not name {rel}"
        assert f"(../{rel})" in page, f"docs/resolvers.md does not name {rel}"


def test_the_fast_package_holds_only_twins():
    names = {p.stem for p in (PACKAGE / "fast").glob("*.py")} - {"__init__"}
    assert names == set(FAST), "every module of game/resolvers/fast is a twin listed in FAST"
    for name, twin in FAST.items():
        text = (PACKAGE / "fast" / f"{name}.py").read_text(encoding="utf-8")
        assert re.search(rf"^class {twin.__name__}\({resolvers.REGISTRY[name].__name__}\):",
                         text, re.M), name
