"""Rewrite the generated resolver tables (uv run python tools/lab_readme.py).

Three places, all between markers or in marked rows, nothing else touched:

* README.md, between ``<!-- resolvers:begin -->`` and ``<!-- resolvers:end -->``: the short
  resolver table, one row per resolver of ``game.resolvers.REGISTRY`` (its name, its article
  with author and year, its one-line summary, its lesson module and the resolver modules that
  lesson imports, and where play's speed is: its fast twin's module, if it has one), from the
  registry and the lesson's imports alone;
* docs/resolvers.md, between ``<!-- lab-table:begin -->`` and ``<!-- lab-table:end -->``: the
  collision lab's table (scenario x resolver), from a fresh lab run;
* docs/resolvers.md, the last column ("in the lab") of the long resolver table, one cell per
  resolver; the other cells of a row are written by hand, so a new resolver needs its row added
  there first.

tests/test_lab.py fails when any of them differs from what the registry says and the lab
measures now.
"""
import ast
import re
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
from game import config, resolvers
from game.runs import lab, lab_report
from tools.doc_blocks import replace_between

README = ROOT / "README.md"
PAGE = ROOT / "docs" / "resolvers.md"
LAB_MARKERS = ("<!-- lab-table:begin -->", "<!-- lab-table:end -->")
README_MARKERS = ("<!-- resolvers:begin -->", "<!-- resolvers:end -->")


def current_results():
    os.chdir(ROOT)  # paths relative to the clone
    return lab.run_lab(lab.scenario_paths([str(lab.default_folder())]), config.load(None))


def resolver_cell(results, name: str) -> str:
    """'14 of 17 as expected; ✗ 11_slope_up, ...' for one resolver."""
    mine = [(s, o) for s, outcomes in results for o in outcomes if o.resolver == name]
    wrong = [f"{s.name} ({lab.figure_text(s.measure, o.figure)})" for s, o in mine if not o.ok]
    text = f"{len(mine) - len(wrong)} of {len(mine)} scenarios as expected"
    return text + ("; ✗ " + ", ".join(wrong) if wrong else "")


def resolvers_page(text: str, results) -> str:
    """docs/resolvers.md with its lab table and its "in the lab" cells as measured."""
    text = replace_between(text, LAB_MARKERS, lab_report.table(results), "docs/resolvers.md")
    for name in resolvers.names():
        row = re.compile(r"^(\| `%s` \| \[.*\|)[^|]*(\|)$" % re.escape(name), re.M)
        text, n = row.subn(lambda m: f"{m[1]} {resolver_cell(results, name)} {m[2]}", text, count=1)
        if n != 1:
            raise ValueError(f"docs/resolvers.md: no row for resolver {name} in the resolver "
                             "table; add one by hand (its last cell is filled in)")
    return text


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def lesson_modules(name: str) -> list[str]:
    """The lesson's module and, after it, the modules of ``game.resolvers`` it imports (its
    companions: shared slope geometry, faces, floors), ``base`` aside: paths from the root."""
    path = ROOT / "game" / "resolvers" / f"{name}.py"
    found = [f"game/resolvers/{name}.py"]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("game.resolvers."):
            module = node.module.split(".", 2)[2]
            if module != "base" and not module.startswith("fast"):
                found.append(f"game/resolvers/{module.replace('.', '/')}.py")
    return list(dict.fromkeys(found))


def readme_table() -> str:
    """The short resolver table of README.md, from the registry (and the lessons' imports)."""
    rows = ["| resolver | after the article | in one line | the lesson | play's speed |",
            "|---|---|---|---|---|"]
    for name in resolvers.names():
        a = resolvers.describe(name)
        art = a["article"]
        title = art.title.split(" (")[0]  # "Collision Detection And Response (Tile Based ...)"
        lesson = ", ".join(f"[{p.rsplit('/', 1)[1]}]({p})" for p in lesson_modules(name))
        if resolvers.PLAY[name] is resolvers.REGISTRY[name]:
            speed = "none: play runs the lesson"
        else:
            twin = resolvers.PLAY[name]
            speed = f"[fast/{name}.py](game/resolvers/fast/{name}.py) (`{twin.__name__}`)"
        rows.append(f"| `{name}` | [{_cell(title)}]({art.url}), {_cell(art.author)}, "
                    f"{_cell(art.year)} | {_cell(a['summary'])} | {lesson} | {speed} |")
    return "\n".join(rows) + "\n"


def readme(text: str) -> str:
    """README.md with its short resolver table as the registry says."""
    return replace_between(text, README_MARKERS, readme_table(), "README.md")


def main() -> int:
    try:
        pages = [(README, readme), (PAGE, lambda t: resolvers_page(t, results))]
        results = current_results()
        for path, update in pages:
            text = path.read_text(encoding="utf-8")
            new = update(text)
            where = path.relative_to(ROOT)
            if new != text:
                path.write_text(new, encoding="utf-8")
                print(f"{where}: generated tables updated")
            else:
                print(f"{where}: generated tables already current")
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
