"""Generated text inside hand-written Markdown: the block between two marker lines.

Used by tools/architecture.py (the layer diagram) and tools/lab_readme.py (the resolver tables).
"""

from __future__ import annotations


def replace_between(text: str, markers: tuple[str, str], block: str, where: str) -> str:
    """``text`` with what lies between its two marker lines replaced by ``block`` (which ends
    with a newline). ValueError, naming ``where``, unless each marker is there once, in order."""
    begin, end = markers
    if text.count(begin) != 1 or text.count(end) != 1 or text.index(begin) > text.index(end):
        raise ValueError(f"{where}: needs one {begin} line and one {end} line after it")
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    return head + begin + "\n" + block + end + tail
