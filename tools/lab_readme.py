"""Rewrite README.md's collision lab table from a fresh lab run (uv run python tools/lab_readme.py).

The table sits between the markers ``<!-- lab-table:begin -->`` and ``<!-- lab-table:end -->``;
tests/test_lab.py fails when it differs from what the lab measures now.
"""
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from game import config, lab  # noqa: E402

BEGIN, END = "<!-- lab-table:begin -->", "<!-- lab-table:end -->"


def current_table() -> str:
    os.chdir(ROOT)  # paths in the table relative to the clone
    results = lab.run_lab(lab.scenario_paths([str(lab.default_folder())]), config.load(None))
    return lab.table(results)


def replace_block(text: str, table: str) -> str:
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return head + BEGIN + "\n" + table + END + tail


def main() -> int:
    readme = ROOT / "README.md"
    text = readme.read_text(encoding="utf-8")
    new = replace_block(text, current_table())
    if new != text:
        readme.write_text(new, encoding="utf-8")
        print("README.md: lab table updated")
    else:
        print("README.md: lab table already current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
