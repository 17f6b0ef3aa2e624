"""Writing files safely: the one way every file the game writes is written.

The trace (``--trace``), recordings (``--record``), the lab's results (``--lab``), pictures
(``--render-map``) and the remembered settings all come here. Two rules:

* **Never a user's file.** :func:`check_target` refuses a target that is one of the run's own
  inputs (also through a link), a folder, anything that is not a regular file, and an existing
  file that this game did not write (each writer says how it recognises its own: ``ours``). A
  target in a folder that does not exist is refused too. The refusal is a
  :class:`~game.errors.UserError` naming the option, the path and what to do.
* **Whole or not at all.** :func:`write_file` and :func:`replace_files` write into a temporary
  file beside the target, under a name nobody can guess (the process id and 64 random bits),
  created exclusively (``O_EXCL``, ``O_NOFOLLOW``: never an existing file, nor a link someone
  planted under that name), flushed to disk, and only then moved over the target with
  ``os.replace``. A failure or a stop (every stop signal unwinds, see ``main.py``) leaves every
  target as it was and no temporary file behind. An existing file keeps its permissions; a new one
  gets what the umask leaves of 0o666 (or the mode the writer asks for, 0o600 for the settings).
  A target that is a symbolic link stays one: the file it points to is replaced.

:func:`replace_files` writes every temporary file of a set before it moves any into place, so a
set of results (the lab's three files) is not left half new and half old.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import BinaryIO

from game.errors import UserError, quote_path


def check_target(path: Path, option: str, ours: Callable[[Path], bool], kind: str,
                 protected: Sequence[Path] = ()) -> os.stat_result | None:
    """Raise a UserError unless ``path`` may be written: a new file in an existing folder, or a
    regular file ``ours`` recognises as a ``kind`` this game wrote. Returns the target's status
    (None: it does not exist yet). ``protected`` are the run's inputs, never written over."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise target_error(option, path, f"cannot look at it ({reason(exc)})") from None
    if is_one_of(path, st, protected):
        raise target_error(option, path, "that is one of this run's input files; give a new "
                           "file name")
    folder = Path(os.path.realpath(path)).parent
    if st is None and not folder.is_dir():
        raise target_error(option, path, f"folder {quote_path(folder)} does not exist")
    if st is None:
        _writable(option, path, folder)
        return None
    if stat.S_ISDIR(st.st_mode):
        raise target_error(option, path, "that is a folder; give a file name")
    if not stat.S_ISREG(st.st_mode):
        raise target_error(option, path, "that is not a regular file (a device, a socket...); "
                           "give a file name (nothing was written)")
    try:
        mine = ours(path)
    except OSError as exc:
        raise target_error(option, path, f"cannot read it to check that it is a {kind} written "
                           f"by this game ({reason(exc)}); nothing was written") from None
    if not mine:
        raise target_error(option, path, f"that file exists and is not a {kind} written by this "
                           "game; give a new file name (nothing was written)")
    _writable(option, path, folder)
    return st


def _writable(option: str, path: Path, folder: Path) -> None:
    # The new file is made beside the target, so its folder must take new files. Said before the
    # work that makes the file (a recording is written after the play it records).
    if not os.access(folder, os.W_OK | os.X_OK):
        raise target_error(option, path, f"folder {quote_path(folder)} is not writable")


def write_file(target: Path, write: Callable[[BinaryIO], None], prefix: str,
               new_mode: int | None = None) -> None:
    """Replace ``target`` with what ``write`` writes into the binary file it is handed, streamed
    (a long trace is never held whole in memory); see the module's docstring. Raises OSError
    (then the target is as it was) or whatever ``write`` raises."""
    replace_files([(target, write)], prefix, new_mode)


def replace_files(items: Sequence[tuple[Path, bytes | Callable[[BinaryIO], None]]], prefix: str,
                  new_mode: int | None = None) -> None:
    """Replace each path of ``items`` with its bytes (or what its function writes), the whole set
    or none (see the module's docstring). Raises OSError; then no target has changed, unless the
    system failed between two renames."""
    targets = [Path(os.path.realpath(target)) for target, _ in items]
    # Every name is known before its file exists, so a stop at any moment (even as os.open
    # returns) can remove what was made.
    temps = [t.parent / f"{prefix}{os.getpid()}-{secrets.token_hex(8)}.tmp" for t in targets]
    made: list[Path] = []
    try:
        for target, tmp, (_, content) in zip(targets, temps, items):
            write = content if callable(content) else (lambda f, d=content: f.write(d))
            _fill(tmp, _mode_for(target, new_mode), write, made)
        for tmp, target in zip(temps, targets):
            os.replace(tmp, target)
            made.remove(tmp)
    finally:
        for tmp in made:
            _remove(tmp)


def target_error(option: str, path: str | os.PathLike[str], what: str) -> UserError:
    return UserError("command line", f"{option} {quote_path(path)}: {what}")


def reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def _fill(tmp: Path, mode: int, write: Callable[[BinaryIO], None], made: list[Path]) -> None:
    """Create ``tmp`` exclusively (never an existing file or a planted link), note it in
    ``made`` as soon as it exists, fill it with what ``write`` writes, give it ``mode`` and flush
    it to disk."""
    made.append(tmp)  # first: a stop as os.open returns still removes it
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0),
                     0o600)
    except FileExistsError:
        made.remove(tmp)  # someone else's file: never removed
        raise
    try:
        with open(fd, "wb", closefd=False) as f:
            write(f)
        os.chmod(tmp, mode)
        os.fsync(fd)  # the data is on disk before a name points at it
    finally:
        os.close(fd)


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


def is_one_of(path: Path, st: os.stat_result | None, protected: Sequence[Path]) -> bool:
    target = Path(os.path.realpath(path))
    for p in protected:
        if Path(os.path.realpath(p)) == target:
            return True
        if st is not None:
            with contextlib.suppress(OSError):
                if os.path.samestat(st, os.stat(p)):  # a hard link to it, too
                    return True
    return False


def _remove(path: Path) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)
