"""The one exception type for mistakes a user can fix: a bad config, map, input script or option."""

from __future__ import annotations

import os


class UserError(Exception):
    """A problem in something the user wrote, reported as ``error: <where>: <what to change>``.

    ``where`` names the file (or ``command line``); the message says what to change. The command
    line prints it as one line on stderr and exits with code 2, never with a traceback.
    """

    def __init__(self, where: str | os.PathLike[str], message: str) -> None:
        self.where = os.fspath(where)
        self.message = " ".join(message.split())  # always one line
        super().__init__(f"{self.where}: {self.message}")

    def line(self) -> str:
        return f"error: {self}"
