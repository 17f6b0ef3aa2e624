"""Text layout shared by the title screen and the game's HUD: words into lines of a width."""

from __future__ import annotations


def fit_text(font, text: str, width: int) -> str:
    """``text`` cut with "..." to fit ``width`` px."""
    if font.size(text)[0] <= width:
        return text
    while text and font.size(text + "...")[0] > width:
        text = text[:-1]
    return text + "..."


def wrap_text(font, text: str, width: int, sep: str = " ", cut_long: bool = False) -> list[str]:
    """``text`` broken at ``sep`` (any run of spaces by default) into lines no wider than
    ``width`` px in ``font``. A piece too long for a line on its own is broken between
    characters over several lines, or with ``cut_long`` cut short with "..." (the title screen's
    choice: a path there reads better cut than broken)."""
    lines: list[str] = []
    line = ""
    for word in (text.split() if sep == " " else [w for w in text.split(sep) if w.strip()]):
        word = word.strip()
        trial = f"{line}{sep}{word}" if line else word
        if font.size(trial)[0] <= width:
            line = trial
            continue
        if line:
            lines.append(line)
        if cut_long:
            word = fit_text(font, word, width)
        while font.size(word)[0] > width and len(word) > 1:
            cut = len(word) - 1
            while cut > 1 and font.size(word[:cut])[0] > width:
                cut -= 1
            lines.append(word[:cut])
            word = word[cut:]
        line = word
    if line or not lines:
        lines.append(line)
    return lines
