"""Rewrite README.md's lab figures from a fresh lab run (uv run python tools/lab_readme.py).

Two places: the lab table, between the markers ``<!-- lab-table:begin -->`` and
``<!-- lab-table:end -->``, and the last column ("in the lab") of the resolver table, one cell
per resolver. tests/test_lab.py fails when either differs from what the lab measures now.
"""
import re
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from game import config
from game.runs import lab  # noqa: E402

BEGIN, END = "<!-- lab-table:begin -->", "<!-- lab-table:end -->"


def current_results():
    os.chdir(ROOT)  # paths relative to the clone
    return lab.run_lab(lab.scenario_paths([str(lab.default_folder())]), config.load(None))


def resolver_cell(results, name: str) -> str:
    """'14 of 17 as expected; ✗ 11_slope_up, ...' for one resolver."""
    mine = [(s, o) for s, outcomes in results for o in outcomes if o.resolver == name]
    wrong = [f"{s.name} ({lab.figure_text(s.measure, o.figure)})" for s, o in mine if not o.ok]
    text = f"{len(mine) - len(wrong)} of {len(mine)} scenarios as expected"
    return text + ("; ✗ " + ", ".join(wrong) if wrong else "")


def replace_block(text: str, results) -> str:
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    text = head + BEGIN + "\n" + lab.table(results) + END + tail
    for name in lab.resolvers.names():  # the resolver table's last cell
        row = re.compile(r"^(\| `%s` \| \[.*\|)[^|]*(\|)$" % re.escape(name), re.M)
        text, n = row.subn(lambda m: f"{m[1]} {resolver_cell(results, name)} {m[2]}", text, count=1)
        if n != 1:
            raise ValueError(f"README.md: no row for resolver {name} in the resolver table")
    return text


def main() -> int:
    readme = ROOT / "README.md"
    text = readme.read_text(encoding="utf-8")
    new = replace_block(text, current_results())
    if new != text:
        readme.write_text(new, encoding="utf-8")
        print("README.md: lab figures updated")
    else:
        print("README.md: lab figures already current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
