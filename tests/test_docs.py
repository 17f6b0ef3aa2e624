"""The docs stay true: every relative link in README.md and docs/ leads somewhere, the layer
diagram of docs/architecture.md is what the imports say, and the pages that list things (options,
config tables, resolver options, levels) list all of them."""

from __future__ import annotations

import re
import tomllib
from dataclasses import fields
from pathlib import Path

import pytest

from game import resolvers
from game.cli import make_parser
from tools import architecture
from tools.doc_blocks import replace_between

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]

FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
INLINE_CODE = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?\s*$", re.M)
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.M)


def prose(text: str) -> str:
    """The Markdown without code blocks and inline code, where links are not links."""
    return INLINE_CODE.sub("", FENCE.sub("", text))


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    text = re.sub(r"[^\w\- ]", "", text.lower())
    return text.replace(" ", "-")


def anchors(text: str) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    for heading in HEADING.findall(FENCE.sub("", text)):
        s = slug(heading)
        n = seen.get(s, 0)
        seen[s] = n + 1
        out.add(s if n == 0 else f"{s}-{n}")
    return out


def broken_links(page: Path) -> list[str]:
    """Every relative link of ``page`` that leads to no file, or to no heading of a page."""
    text = prose(page.read_text(encoding="utf-8"))
    bad = []
    for target in LINK.findall(text) + REFERENCE.findall(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # https:, mailto: ...
            continue
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            bad.append(f"{target} (no such file)")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(
                dest.read_text(encoding="utf-8")):
            bad.append(f"{target} (no such heading in {dest.name})")
    return bad


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_somewhere(page):
    assert broken_links(page) == []


def test_the_link_check_sees_broken_links(tmp_path):
    (tmp_path / "other.md").write_text("# Other page\n\n## Part two: the rest\n")
    page = tmp_path / "page.md"
    page.write_text("# Page\n\n[fine](other.md#part-two-the-rest) [fine](#page) "
                    "[gone](missing.md) [bad anchor](other.md#part-three) "
                    "![gone](pic.png) `[code](nowhere.md)` [web](https://example.com/x)\n\n"
                    "```sh\n[in a block](nowhere.md)\n```\n\n[ref]: gone/too.md\n")
    assert broken_links(page) == ["missing.md (no such file)",
                                  "other.md#part-three (no such heading in other.md)",
                                  "pic.png (no such file)", "gone/too.md (no such file)"]


@pytest.mark.parametrize("heading, anchor", [
    ("The collision lab (`--lab`)", "the-collision-lab---lab"),
    ("5. Map properties", "5-map-properties"),
    ("Measured: the collision lab", "measured-the-collision-lab"),
    ("Ghosts, replays and tick stepping", "ghosts-replays-and-tick-stepping"),
    ("`game.maps`: a Tiled file becomes level data", "gamemaps-a-tiled-file-becomes-level-data"),
])
def test_slugs_are_githubs(heading, anchor):
    assert slug(heading) == anchor


def test_readme_links_every_docs_page():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for page in sorted(DOCS.glob("*.md")):
        assert f"(docs/{page.name})" in readme, f"README.md does not link docs/{page.name}"


# --- docs/architecture.md ---------------------------------------------------------------------

def test_architecture_diagram_is_what_the_imports_say():
    text = architecture.DOC.read_text(encoding="utf-8")
    current = replace_between(text, (architecture.BEGIN, architecture.END), architecture.diagram(),
                              "docs/architecture.md")
    assert current == text, ("docs/architecture.md's diagram is out of date: run "
                             "uv run python tools/architecture.py")
    assert "```mermaid\nflowchart" in text and "```text" in text


def test_architecture_diagram_follows_the_source(tmp_path):
    """A package written here: its modules and its imports show, an upward one marked."""
    game = tmp_path / "game"
    for rel, src in {"__init__.py": "", "maps/__init__.py": "", "maps/grid.py": "",
                     "sim/__init__.py": "", "sim/world.py": "from game.maps import grid\n",
                     "sim/oops.py": "def f():\n    from game.view import app\n",
                     "view/__init__.py": "", "view/app.py": "import game.sim.world\n"}.items():
        (game / rel).parent.mkdir(parents=True, exist_ok=True)
        (game / rel).write_text(src)
    text = architecture.diagram(game)
    assert 'sim["game.sim<br/>oops · world"]' in text
    assert "    sim --> maps\n" in text and "    view --> sim\n" in text
    assert "    sim -. UPWARD .-> view\n" in text
    assert "UPWARD (tests/test_layers.py fails): game.view" in text
    (game / "cli.py").write_text("")
    (game / "stray.py").write_text("")
    with pytest.raises(ValueError, match="game.stray belongs to no layer"):
        architecture.diagram(game)


def test_architecture_tool_check_mode(capsys):
    assert architecture.main(["--check"]) == 0
    assert "current" in capsys.readouterr().out
    assert architecture.main(["--bogus"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1


def test_architecture_names_every_layer():
    text = architecture.DOC.read_text(encoding="utf-8")
    for layer in architecture.LAYERS:
        assert f"### `{layer}`" in text, f"docs/architecture.md has no paragraph on {layer}"


# --- pages that list things -------------------------------------------------------------------

def test_command_line_page_lists_every_option():
    page = (DOCS / "command-line.md").read_text(encoding="utf-8")
    for action in make_parser()._actions:
        for opt in action.option_strings:
            if opt.startswith("--") and opt != "--help":
                assert f"| `{opt}" in page, f"docs/command-line.md's option table lacks {opt}"


def test_configuration_page_names_every_table_and_key():
    page = (DOCS / "configuration.md").read_text(encoding="utf-8")
    shipped = (ROOT / "config.toml").read_text(encoding="utf-8")
    data = tomllib.loads(shipped)
    for name, value in data.items():
        if name == "resolvers":
            assert "`[resolvers.<name>]`" in page
        elif isinstance(value, dict):
            assert f"`[{name}]`" in page, f"docs/configuration.md does not name [{name}]"
            for key in value:
                assert f"`{key}`" in page, f"docs/configuration.md does not name [{name}] {key}"
    for key in re.findall(r"^# ?([a-z_]+) = ", shipped, re.M):  # the commented top-level keys
        assert f"`{key}`" in page


def test_resolvers_page_names_every_option():
    page = (DOCS / "resolvers.md").read_text(encoding="utf-8")
    for name in resolvers.names():
        assert f"| `{name}` | [" in page, f"docs/resolvers.md's table has no row for {name}"
        for f in fields(resolvers.REGISTRY[name].Options):
            assert f"`{name}.{f.name}`" in page, f"docs/resolvers.md does not name {name}.{f.name}"


def test_readme_lists_every_shipped_level():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for level in sorted((ROOT / "levels").glob("*.tmx")):
        assert f"`{level.name}`" in readme, f"README.md's level table lacks {level.name}"


def test_levels_page_names_every_collision_kind():
    """The kit's `collision` values (the project's enum, what the loader accepts) are each named
    where levels.md lists them: the custom types table and the error that lists them."""
    import json

    from game.maps.collision import COLLISION_KINDS, LADDER

    kinds = (*COLLISION_KINDS, LADDER)
    project = json.loads((ROOT / "levels" / "tilecollide.tiled-project").read_text())
    enum = next(t for t in project["propertyTypes"] if t["name"] == "collision")
    assert set(enum["values"]) == set(kinds)
    text = (DOCS / "levels.md").read_text()
    rows = [line for line in text.splitlines()
            if line.startswith("| `collision` | enum:") or "has collision='...'" in line]
    assert len(rows) == 2, rows
    for row in rows:
        assert all(f"`{kind}`" in row for kind in kinds), row
