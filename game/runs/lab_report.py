"""The collision lab's results as files: ``lab.md`` (a Markdown table and what each scenario and
measure means), ``lab.json`` (the same as data) and, drawn by :mod:`game.view.lab_picture`,
``lab.png``; the three are written together (:func:`write_results`)."""

from __future__ import annotations

import json
from pathlib import Path

from game import resolvers
from game.errors import UserError, quote_path
from game.runs.files import replace_files
from game.runs.lab import MEASURES, cell

DEFAULT_OUT = "lab-results"
MARK = "<!-- written by tilecollide --lab -->"  # first line of lab.md: ours to replace
JSON_KIND = "tilecollide-lab"
FILES = ("lab.md", "lab.json", "lab.png")


def table(results) -> str:
    """The Markdown table: one row per scenario, one column per resolver."""
    names = [o.resolver for o in results[0][1]] if results else resolvers.names()
    lines = ["| scenario | goal expected | measures | " + " | ".join(f"`{n}`" for n in names)
             + " |", "|---|---|---|" + "---|" * len(names)]
    for s, outcomes in results:
        lines.append(f"| {s.name} | {'yes' if s.expect_goal else 'no'} | {s.measure} | "
                     + " | ".join(cell(o, s.measure) for o in outcomes) + " |")
    return "\n".join(lines) + "\n"


def markdown(results) -> str:
    parts = [MARK, "", "# Collision lab", "",
             "Every resolver through every scenario, headless, with the default options. ✓: "
             "the goal was reached exactly when the scenario expects it (as a solid box that "
             "neither snags nor slips would); ✗: not. The figure is what the scenario measures.",
             "", table(results), "## The scenarios", ""]
    for s, _ in results:
        parts += [f"* **{s.name}** ({s.title}; `{_shown(s.path)}`, {s.ticks} ticks). "
                  f"{s.about or ''} Goal expected: {'yes' if s.expect_goal else 'no'}. "
                  f"Measures `{s.measure}`: {MEASURES[s.measure]}."]
    parts += ["", "## The measures", ""] + [f"* `{k}`: {v}." for k, v in MEASURES.items()]
    return "\n".join(parts) + "\n"


def _shown(path: Path) -> str:
    """A path relative to the current folder when it is under it (so results read the same in
    any clone), else as given."""
    try:
        return quote_path(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return quote_path(path)


def as_json(results) -> dict:
    return {"kind": JSON_KIND, "version": 1, "resolvers": resolvers.names(),
            "measures": MEASURES,
            "scenarios": [{"name": s.name, "file": _shown(s.path), "title": s.title,
                           "about": s.about, "ticks": s.ticks, "expect_goal": s.expect_goal,
                           "measure": s.measure,
                           "results": {o.resolver: {"goal": o.goal, "ok": o.ok,
                                                    "figure": o.figure} for o in outcomes}}
                          for s, outcomes in results]}


def _ours(folder: Path) -> dict[str, bool]:
    """Which of the lab's files in ``folder`` may be replaced: absent, or written by the lab."""
    def md_ok(p: Path) -> bool:
        with open(p, encoding="utf-8", errors="replace") as f:
            return f.readline().rstrip("\n") == MARK

    def json_ok(p: Path) -> bool:
        try:
            with open(p, encoding="utf-8") as f:
                return json.load(f).get("kind") == JSON_KIND
        except (ValueError, AttributeError):
            return False

    ok = {}
    for name, check in (("lab.md", md_ok), ("lab.json", json_ok)):
        p = folder / name
        ok[name] = not p.exists() or (p.is_file() and check(p))
    png = folder / "lab.png"
    # A picture cannot say who drew it: replaced only beside a lab.json the lab wrote.
    ok["lab.png"] = not png.exists() or (png.is_file() and (folder / "lab.json").is_file()
                                         and ok["lab.json"])
    return ok


def write_results(results, out: Path, picture: bytes) -> list[Path]:
    """``lab.md``, ``lab.json`` and ``picture`` (``lab.png``) into the folder ``out``, the three
    replacing earlier results together (game.runs.files), never a file the lab did not write."""
    if out.exists() and not out.is_dir():
        raise UserError(out, "--out must be a folder, and this is a file; give a folder")
    if out.is_dir():
        refused = [n for n, ok in _ours(out).items() if not ok]
        if refused:
            raise UserError(out / refused[0], "exists and was not written by --lab; move it, or "
                            "give another --out folder (nothing was written)")
    # Everything is made in memory first, then the three files replace the old ones together
    # (game.runs.files): a failure anywhere leaves the folder as it was.
    md = markdown(results).encode("utf-8")
    data = (json.dumps(as_json(results), indent=1, ensure_ascii=False) + "\n").encode("utf-8")
    written = [out / name for name in FILES]
    try:
        out.mkdir(parents=True, exist_ok=True)
        replace_files(list(zip(written, (md, data, picture))), ".lab-")
    except OSError as exc:
        raise UserError(out, f"cannot write the lab's results ({exc.strerror or exc}); the "
                        "folder is as it was") from None
    return written
