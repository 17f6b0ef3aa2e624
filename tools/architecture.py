"""Draw the layers of the ``game`` package from its real imports into docs/architecture.md.

    uv run python tools/architecture.py           # rewrite the diagram in docs/architecture.md
    uv run python tools/architecture.py --check   # exit 1 if the doc is out of date, 0 if not

The packages are the layers, lowest first (``LAYERS``); a module belongs to the longest layer
name that prefixes its own. Every ``import`` of every module is read from the source with
``ast`` (also those inside functions), so the picture shows what the code does, not what
someone remembers. The diagram goes between ``<!-- architecture:begin -->`` and
``<!-- architecture:end -->``: a Mermaid ``flowchart`` (GitHub draws it) and the same as plain
text. ``tests/test_layers.py`` checks with the same reading that every import points down, and
``tests/test_docs.py`` fails when the doc differs from what this tool writes.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from tools.doc_blocks import replace_between

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "game"
DOC = ROOT / "docs" / "architecture.md"
BEGIN, END = "<!-- architecture:begin -->", "<!-- architecture:end -->"

# Lowest first. A module's layer is the longest prefix of its name listed here.
LAYERS = ["game.errors", "game.maps", "game.resolvers", "game.config", "game.sim", "game.runs",
          "game.view", "game.cli"]


def layer_of(module: str) -> int | None:
    """The index in ``LAYERS`` of the layer ``module`` belongs to, or None."""
    best = None
    for i, name in enumerate(LAYERS):
        if module == name or module.startswith(name + "."):
            if best is None or len(name) > len(LAYERS[best]):
                best = i
    return best


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> set[str]:
    """The ``game`` modules a file imports (``from game import x`` counts as ``game.x``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("game."))
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "game":
                found.update(f"game.{a.name}" for a in node.names)
            elif node.module.startswith("game."):
                found.add(node.module)
    return found


def sources(game: Path = GAME) -> list[Path]:
    """Every module of the package except ``game/__init__.py`` (the docstring that names the
    layers, which belongs to none of them)."""
    return [p for p in sorted(game.rglob("*.py"))
            if not (p.parent == game and p.name == "__init__.py")]


def read_layers(game: Path = GAME) -> tuple[dict[str, list[str]], set[tuple[str, str]]]:
    """(the modules of each layer, the (importer, imported) pairs of layers), from the source.
    A package's ``__init__`` is not listed; its imports count for its layer."""
    modules: dict[str, list[str]] = {name: [] for name in LAYERS}
    edges: set[tuple[str, str]] = set()
    for path in sources(game):
        me = module_name(path, game.parent)
        mine = layer_of(me)
        if mine is None:
            raise ValueError(f"{path.relative_to(game.parent)}: {me} belongs to no layer; add it to "
                             "LAYERS in tools/architecture.py and describe it in "
                             "docs/architecture.md")
        layer = LAYERS[mine]
        if me != layer:
            modules[layer].append(me[len(layer) + 1:])  # game.sim.world -> world
        elif path.name != "__init__.py":  # a layer that is one module: game/cli.py
            modules[layer].append(path.name)
        for other in imports_of(path):
            theirs = layer_of(other)
            if theirs is not None and theirs != mine:
                edges.add((layer, LAYERS[theirs]))
    return modules, edges


def _node(layer: str) -> str:
    return layer.split(".")[-1]


def _order(edges: set[tuple[str, str]]) -> list[tuple[str, str]]:
    """Highest importer first, then its imports from the highest down."""
    return sorted(edges, key=lambda e: (-LAYERS.index(e[0]), -LAYERS.index(e[1])))


def mermaid(modules: dict[str, list[str]], edges: set[tuple[str, str]]) -> str:
    lines = ["```mermaid", "flowchart TD"]
    for layer in reversed(LAYERS):
        names = modules[layer]
        mods = "<br/>".join(" · ".join(names[i:i + 4]) for i in range(0, len(names), 4))
        lines.append(f'    {_node(layer)}["{layer}<br/>{mods}"]')
    for a, b in _order(edges):
        upward = LAYERS.index(b) > LAYERS.index(a)
        arrow = " -. UPWARD .-> " if upward else " --> "
        lines.append(f"    {_node(a)}{arrow}{_node(b)}")
    lines.append("```")
    return "\n".join(lines) + "\n"


def plain(modules: dict[str, list[str]], edges: set[tuple[str, str]]) -> str:
    lines = ["```text", "highest layer first; 'imports' lists the lower layers it uses", ""]
    for layer in reversed(LAYERS):
        mods = ", ".join(modules[layer]) or "(empty)"
        uses = [b for a, b in _order(edges) if a == layer]
        lines.append(layer)
        lines.append(f"    modules: {mods}")
        lines.append(f"    imports: {', '.join(uses) if uses else '(nothing from game)'}")
        up = [b for b in uses if LAYERS.index(b) > LAYERS.index(layer)]
        if up:
            lines.append(f"    UPWARD (tests/test_layers.py fails): {', '.join(up)}")
    lines.append("```")
    return "\n".join(lines) + "\n"


def diagram(game: Path = GAME) -> str:
    modules, edges = read_layers(game)
    return (mermaid(modules, edges) + "\nThe same as text, for a terminal:\n\n"
            + plain(modules, edges))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv not in ([], ["--check"]):
        print("error: command line: the only option is --check (see the docstring of "
              "tools/architecture.py)", file=sys.stderr)
        return 2
    try:
        text = DOC.read_text(encoding="utf-8")
        new = replace_between(text, (BEGIN, END), diagram(), "docs/architecture.md")
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if argv == ["--check"]:
        if new != text:
            print("docs/architecture.md: the diagram is out of date; run "
                  "uv run python tools/architecture.py")
            return 1
        print("docs/architecture.md: the diagram is current")
        return 0
    if new != text:
        DOC.write_text(new, encoding="utf-8")
        print("docs/architecture.md: diagram updated")
    else:
        print("docs/architecture.md: diagram already current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
