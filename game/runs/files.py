"""Replacing files whole, the one way ``--record``, ``--lab`` and the settings file write.

Each new file is first written to a temporary file beside its target, under a name nobody can
guess (the process id and 64 random bits) created exclusively (``O_EXCL``: never an existing file,
nor a symbolic link someone planted under that name, is opened), flushed to disk, and only then
moved over the target with ``os.replace``. A failure or a stop at any moment leaves every target
as it was, and no temporary file behind. :func:`replace_files` writes every temporary file of a
set before it moves any into place, so a set of results (the lab's three files) is not left half
new and half old because one of them could not be made.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from collections.abc import Sequence
from pathlib import Path


def new_temp(folder: Path, prefix: str, data: bytes, mode: int) -> Path:
    """A new file in ``folder`` under an unpredictable name starting with ``prefix``, holding
    ``data``, with permissions ``mode``, flushed to disk. Removed again if anything fails."""
    tmp = folder / f"{prefix}{os.getpid()}-{secrets.token_hex(8)}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(tmp, flags, 0o600)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.chmod(tmp, mode)
            os.fsync(fd)  # the data is on disk before a name points at it
        finally:
            os.close(fd)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return tmp


def replace_files(items: Sequence[tuple[Path, bytes]], prefix: str,
                  new_mode: int | None = None) -> None:
    """Replace each path of ``items`` with its bytes (see the module docstring). The paths are
    replaced as given (a symbolic link there is replaced by the file: resolve first to write
    through one). An existing file's permissions are kept; a new file gets ``new_mode``, or by
    default what the umask leaves of 0o666. Raises OSError; then no target has changed, unless
    the system failed between two renames."""
    temps: list[Path] = []
    try:
        for target, data in items:
            temps.append(new_temp(target.parent, prefix, data, _mode_for(target, new_mode)))
        for tmp, (target, _data) in zip(temps, items):
            os.replace(tmp, target)
        temps = []
    finally:
        for tmp in temps:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def _mode_for(target: Path, new_mode: int | None) -> int:
    try:
        st = os.stat(target)
    except OSError:
        st = None
    if st is not None and stat.S_ISREG(st.st_mode):
        return stat.S_IMODE(st.st_mode)
    if new_mode is not None:
        return new_mode
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask
