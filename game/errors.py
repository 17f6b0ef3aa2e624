"""The one exception type for mistakes a user can fix, and the helpers every reader of user files
shares: quoting what the user wrote without echoing megabytes, and reading a file with a bound."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

QUOTE_LIMIT = 60  # characters of a user's text shown in an error line


class UserError(Exception):
    """A problem in something the user wrote, reported as ``error: <where>: <what to change>``.

    ``where`` names the file (or ``command line``); the message says what to change. The command
    line prints it as one line on stderr and exits with code 2, never with a traceback.
    """

    def __init__(self, where: str | os.PathLike[str], message: str) -> None:
        self.where = quote_path(where)
        self.message = " ".join(message.split())  # always one line
        super().__init__(f"{self.where}: {self.message}")

    def line(self) -> str:
        return f"error: {self}"


def note_line(message: str) -> str:
    """What the game had to guess about something the user made, as its one stderr line."""
    return "note: " + " ".join(message.split())


def print_note(message: str) -> None:
    print(note_line(message), file=sys.stderr)


def quoted(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)``, cut to about ``limit`` characters with the full length said, so a 10 MB
    line in a user's file never becomes a 10 MB error line."""
    text = repr(value)
    if len(text) <= limit:
        return text
    size = len(value) if isinstance(value, (str, bytes)) else len(text)
    return f"{text[:limit]}... ({size:,} characters)"


def quote_path(where: str | os.PathLike[str], limit: int = 300) -> str:
    """A path as shown in an error line, cut in the middle past ``limit`` characters; a
    character no terminal shows (a NUL from a JSON string) written as its escape."""
    text = " ".join(os.fspath(where).split()) or "''"
    if not text.isprintable():
        text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    if len(text) <= limit:
        return text
    half = limit // 2
    return f"{text[:half]}...{text[-half:]}"


def size_text(size: int) -> str:
    """A byte count as said in a message: ``64 KB``, ``8 MB`` (decimal units, rounded down)."""
    return f"{size // 1_000_000:,} MB" if size >= 1_000_000 else f"{size // 1000:,} KB"


def read_bounded(path: str | os.PathLike[str], limit: int, what: str, fix: str) -> bytes:
    """The bytes of a user's file, refusing anything over ``limit`` bytes.

    A regular file is judged by its size before anything is read. Anything else that can be read
    (a pipe, ``<(...)``, ``/dev/stdin``, or a device like ``/dev/zero`` that never ends) is read
    only up to ``limit`` bytes: one past the limit is refused, so nothing grows without bound.
    ``what`` names the file for the message ("config file"), ``fix`` says what to do when it is
    not found ("check the --config path").
    """
    p = Path(path)
    try:
        st = os.stat(p)
    except FileNotFoundError:
        raise UserError(p, f"{what} not found; {fix}") from None
    except OSError as exc:
        raise UserError(p, f"cannot read the {what} ({exc.strerror or exc})") from None
    if stat.S_ISDIR(st.st_mode):
        raise UserError(p, f"is a folder, not a {what}; {fix}")
    too_big = (f"{what} is larger than {size_text(limit)}, far more than any real one; "
               "check that this is the right file")
    if stat.S_ISREG(st.st_mode) and st.st_size > limit:
        raise UserError(p, too_big)
    try:
        with open(p, "rb") as f:
            data = f.read(limit + 1)
    except OSError as exc:
        raise UserError(p, f"cannot read the {what} ({exc.strerror or exc})") from None
    if len(data) > limit:
        raise UserError(p, too_big)
    return data
