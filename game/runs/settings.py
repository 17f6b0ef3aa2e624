"""Settings that last between runs: the last level, the resolver, the volume, the window size,
and the levels finished with their best times.

They live in a small TOML file in the user's config folder, never in the repository:

* Linux and other Unix: ``$XDG_CONFIG_HOME/tilecollide/settings.toml`` (when that is an absolute
  path), else ``~/.config/tilecollide/settings.toml``;
* macOS: ``~/Library/Application Support/tilecollide/settings.toml``;
* Windows: ``%APPDATA%\\tilecollide\\settings.toml`` (else ``~\\AppData\\Roaming\\...``).

The game writes the file itself: a temp file in the same folder, flushed to disk, then moved over
the old one with ``os.replace``, so a failed or stopped write leaves the old file whole. A
settings file that is a symbolic link (into a dotfiles folder, say) stays a link: the file it
points to is replaced. A file that cannot be read, is not TOML, or holds a value of the wrong
kind (a hand edit gone wrong) is ignored as a whole, with one ``warning: <file>: ...; using
defaults and leaving the file as it is...`` line on stderr; it never stops the game, and the
game never writes over it: nothing is remembered until it is fixed or deleted. A failed save is
one warning line too.

Precedence, lowest first: the defaults, this file, the config file (``config.toml`` or
``--config``), the command line. "The config file wins" means a key *written* in the config file
pins that value and the saved one is not used; a key the config file leaves out (or only shows in
a comment, as the shipped config.toml does for ``resolver``, ``level`` and the window size) comes
from this file. The remembered level is used only while its file still exists.

Only the window reads and writes this file: ``--headless`` runs never do, so a trace depends only
on the files named on the command line. ``--no-settings`` or the environment variable
``TILECOLLIDE_NO_SETTINGS=1`` leaves it alone too.

This module is pure (no pygame): the CLI and the app call ``settings_path``, ``load``,
``apply`` and ``save``.
"""

from __future__ import annotations

import math
import os
import stat
import sys
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from game import config as config_mod
from game import resolvers
from game.errors import UserError, quote_path, quoted, read_bounded
from game.runs.files import replace_files

APP_FOLDER = "tilecollide"
FILE_NAME = "settings.toml"
NO_SETTINGS_ENV = "TILECOLLIDE_NO_SETTINGS"
SETTINGS_LIMIT = 128_000  # bytes: the file the game writes is a few hundred, plus about 150 a
# finished level (MAX_FINISHED of them at most)
MAX_FINISHED = 500  # finished levels remembered (the title screen lists at most 500 levels)
HEADER = ("# tilecollide's remembered settings, written by the game when you play.\n"
          "# Delete this file to forget them; a key set in config.toml wins over the same one "
          "here.\n")


@dataclass(frozen=True)
class Finished:
    """A level played to its goal, and the best run on it."""

    level: str  # absolute path of the level's file
    best_time: float  # s of game time from the start (or a restart) to the goal, the least yet
    resolver: str  # the resolver of that best run


@dataclass(frozen=True)
class Settings:
    """What is remembered; None: nothing remembered, the lower layers decide."""

    level: str | None = None  # absolute path of the last level started
    resolver: str | None = None  # a name from --list-resolvers
    volume: float | None = None  # a plain number, as [audio] volume takes it
    window_width: int | None = None  # px, the window's last size when not fullscreen
    window_height: int | None = None
    finished: tuple[Finished, ...] = ()  # the levels finished, one entry each


def settings_path(env: Mapping[str, str] | None = None, platform: str | None = None,
                  home: Path | None = None) -> Path | None:
    """Where the settings file lives on this platform (see the module's docstring); None when
    there is no such folder to name (no home folder): then nothing is remembered. A relative
    folder is never used, so nothing lands in the current folder (the repository)."""
    env = os.environ if env is None else env
    platform = sys.platform if platform is None else platform
    if home is None:
        try:
            home = Path.home()  # "~" unexpanded when the system knows no home folder
        except (RuntimeError, KeyError, OSError):
            home = None
    if home is not None and not home.is_absolute():
        home = None
    if platform.startswith("win"):
        appdata = env.get("APPDATA", "")
        base = Path(appdata) if appdata and os.path.isabs(appdata) else (
            home / "AppData" / "Roaming" if home else None)
    elif platform == "darwin":
        base = home / "Library" / "Application Support" if home else None
    else:
        xdg = env.get("XDG_CONFIG_HOME", "")
        # The XDG spec: a relative path is invalid and is ignored.
        base = Path(xdg) if xdg.startswith("/") else home / ".config" if home else None
    return base / APP_FOLDER / FILE_NAME if base is not None else None


def disabled(env: Mapping[str, str] | None = None) -> bool:
    """True when the environment asks to leave the settings file alone."""
    env = os.environ if env is None else env
    return env.get(NO_SETTINGS_ENV, "").strip().lower() not in ("", "0", "no", "false")


def warn(line: str) -> None:
    print(line, file=sys.stderr)


# ----------------------------------------------------------------------------------------------
# Reading
# ----------------------------------------------------------------------------------------------

class _Bad(Exception):
    """Why the settings file is ignored."""


def load(path: Path, warn: Callable[[str], None] = warn) -> Settings:
    """The settings in ``path``; empty Settings when there is no file yet (silently) or when it
    cannot be used (with one warning line through ``warn``)."""
    return _load(path, warn)[0]


def _load(path: Path, warn: Callable[[str], None]) -> tuple[Settings, bool]:
    """As :func:`load`, and whether something is there that must be kept: a file (or a folder,
    a pipe) that could not be used. The game never writes over it: the user may have made it,
    or be halfway through editing it by hand."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return Settings(), False
    except (OSError, ValueError) as exc:
        return _ignored(path, f"cannot look at it ({_reason(exc)})", warn), False
    if not stat.S_ISREG(st.st_mode):  # a folder, or a pipe that would block the start
        return _kept(path, "not a regular file", warn)
    try:
        data = read_bounded(path, SETTINGS_LIMIT, "settings file", "")
        return parse(data.decode("utf-8")), False
    except UserError as exc:
        return _kept(path, exc.message, warn)
    except UnicodeDecodeError:
        return _kept(path, "not UTF-8 text", warn)
    except tomllib.TOMLDecodeError as exc:
        return _kept(path, f"not valid TOML ({exc})", warn)
    except (_Bad, RecursionError, ValueError) as exc:
        return _kept(path, str(exc) or type(exc).__name__, warn)


def _ignored(path: Path, why: str, warn: Callable[[str], None], then: str = "") -> Settings:
    warn(f"warning: {quote_path(path)}: {' '.join(why.split())}; using defaults{then}")
    return Settings()


def _kept(path: Path, why: str, warn: Callable[[str], None]) -> tuple[Settings, bool]:
    return _ignored(path, why, warn, KEPT), True


KEPT = (" and leaving the file as it is, not writing over it: fix it or delete it to have "
        "settings remembered again")


def parse(text: str) -> Settings:
    """Settings from the file's text; raises (TOMLDecodeError, _Bad) when it cannot be used.
    Keys this version does not know are skipped: a newer game may have written them."""
    data = tomllib.loads(text)
    out: dict[str, Any] = {}
    for f in fields(Settings):
        if f.name not in data:
            continue
        value = data[f.name]
        if f.name == "finished":
            value = _finished(value)
        elif f.name in ("level", "resolver"):
            if not isinstance(value, str) or not value or "\0" in value:
                raise _Bad(f"{f.name} must be a non-empty string, not {_shown(value)}")
            if f.name == "resolver" and value not in resolvers.REGISTRY:
                raise _Bad(f"unknown resolver {quoted(value)}")
        elif f.name == "volume":
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not (
                    math.isfinite(value) and value >= 0):
                raise _Bad(f"volume must be a number of 0 or more, not {_shown(value)}")
            value = float(value)
        else:
            display_field = f.name.removeprefix("window_")
            try:
                value = config_mod.check_value(_display_field(display_field), value, f.name, "")
            except UserError as exc:
                raise _Bad(exc.message) from None
        out[f.name] = value
    return Settings(**out)


def _finished(value: Any) -> tuple[Finished, ...]:
    """The ``[[finished]]`` tables: each a level (a path), its best time (s) and the resolver
    of that run; at most MAX_FINISHED, one per level (a later entry for a level wins)."""
    if not isinstance(value, list) or not all(isinstance(t, dict) for t in value):
        raise _Bad("finished must be [[finished]] tables")
    if len(value) > MAX_FINISHED:
        raise _Bad(f"finished has {len(value):,} entries; at most {MAX_FINISHED} are kept")
    out: dict[str, Finished] = {}
    for t in value:
        level, best, resolver = t.get("level"), t.get("best_time"), t.get("resolver")
        if not isinstance(level, str) or not level or "\0" in level:
            raise _Bad(f"a [[finished]] level must be a non-empty string, not {_shown(level)}")
        if isinstance(best, bool) or not isinstance(best, (int, float)) or not (
                math.isfinite(best) and best >= 0):
            raise _Bad(f"a [[finished]] best_time must be a number of 0 or more, not "
                       f"{_shown(best)}")
        if not isinstance(resolver, str) or resolver not in resolvers.REGISTRY:
            raise _Bad(f"a [[finished]] resolver must be a resolver's name, not "
                       f"{_shown(resolver)}")
        out[level] = Finished(level, float(best), resolver)
    return tuple(out.values())


def _display_field(name: str):
    return next(f for f in fields(config_mod.DisplayConfig) if f.name == name)


def _shown(value: Any) -> str:
    return config_mod.shown(value)


def _reason(exc: BaseException) -> str:
    return getattr(exc, "strerror", None) or str(exc) or type(exc).__name__


# ----------------------------------------------------------------------------------------------
# Precedence
# ----------------------------------------------------------------------------------------------

def pinned_keys(table: Mapping[str, Any]) -> frozenset[str]:
    """The keys a config file's TOML table writes out (``resolver``, ``level``,
    ``display.width``...; see config.load_with_table): those win over the saved settings."""
    keys = {k for k, v in table.items() if not isinstance(v, dict)}
    for section, sub in table.items():
        if isinstance(sub, dict):
            keys.update(f"{section}.{k}" for k in sub)
    return frozenset(keys)


def apply(cfg: config_mod.Config, saved: Settings, pinned: frozenset[str]) -> config_mod.Config:
    """``cfg`` (defaults + config file) with the saved settings the config file does not pin.

    The saved volume goes to ``[audio] volume`` where this game has such a section."""
    changes: dict[str, Any] = {}
    if saved.resolver is not None and "resolver" not in pinned:
        changes["resolver"] = saved.resolver
    if saved.level is not None and "level" not in pinned and Path(saved.level).is_file():
        changes["level"] = saved.level
    display = {}
    if saved.window_width is not None and "display.width" not in pinned:
        display["width"] = saved.window_width
    if saved.window_height is not None and "display.height" not in pinned:
        display["height"] = saved.window_height
    if display:
        changes["display"] = replace(cfg.display, **display)
    audio = getattr(cfg, "audio", None)
    if saved.volume is not None and audio is not None and "audio.volume" not in pinned:
        volume = next((f for f in fields(audio) if f.name == "volume"), None)
        if volume is not None:
            try:
                changes["audio"] = replace(audio, volume=config_mod.check_value(
                    volume, saved.volume, "volume", ""))
            except UserError:
                pass  # out of this version's range: the config's volume stays
    return replace(cfg, **changes) if changes else cfg


# ----------------------------------------------------------------------------------------------
# Writing
# ----------------------------------------------------------------------------------------------

def dumps(s: Settings) -> str:
    """The file's text for ``s``; what has no value, or cannot be written as TOML text (a path
    with bytes that are not UTF-8), is left out."""
    lines = [HEADER]
    for f in fields(Settings):
        value = getattr(s, f.name)
        if value is None or f.name == "finished":
            continue
        if isinstance(value, str):
            text = _toml_string(value)
            if text is None:
                continue
        elif isinstance(value, float):
            if not math.isfinite(value):
                continue
            text = repr(value)
        else:
            text = str(int(value))
        lines.append(f"{f.name} = {text}\n")
    for done in s.finished[-MAX_FINISHED:]:
        level = _toml_string(done.level)
        if level is None or not math.isfinite(done.best_time):
            continue
        lines.append(f"\n[[finished]]\nlevel = {level}\nbest_time = {done.best_time!r}\n"
                     f"resolver = {_toml_string(done.resolver)}\n")
    return "".join(lines)


def _toml_string(value: str) -> str | None:
    out = ['"']
    for ch in value:
        code = ord(ch)
        if 0xD800 <= code <= 0xDFFF:  # a surrogate-escaped byte from a non-UTF-8 file name
            return None
        if ch in '"\\':
            out.append("\\" + ch)
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\u{code:04X}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def save(path: Path, s: Settings, warn: Callable[[str], None] = warn) -> bool:
    """Write ``s`` to ``path`` atomically (``game.runs.files``: a temp file beside it, flushed,
    then ``os.replace``). A ``path`` that is a symbolic link (into a dotfiles folder, say) stays
    one: the file it points to is replaced, in its own folder, with its permissions. On any
    failure the old file is as it was, no temp file stays, one warning line goes through
    ``warn``, and False is returned."""
    data = dumps(s).encode("utf-8")
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        replace_files([(Path(os.path.realpath(path)), data)], ".settings-", new_mode=0o600)
        return True
    except (OSError, ValueError) as exc:
        warn(f"warning: {quote_path(path)}: cannot save the settings ({_reason(exc)}); they are "
             "not remembered")
        return False


class Store:
    """The settings file of one run: read once at the start, written when a level starts and
    when the window closes. Warns at most once about a failed write."""

    def __init__(self, path: Path, warn: Callable[[str], None] = warn) -> None:
        self.path = path
        self._warn = warn
        self._warned = False
        self.saved, self.kept = _load(path, warn)  # kept: a file there that could not be used

    def save(self, s: Settings) -> bool:
        """Write ``s`` unless it is what the file holds, or the file there could not be used
        (it is the user's to fix: the load warning said so)."""
        if self.kept:
            return False
        if s == self.saved:
            return True
        ok = save(self.path, s, self._warn_once)
        if ok:
            self.saved = s
        return ok

    def _warn_once(self, line: str) -> None:
        if not self._warned:
            self._warned = True
            self._warn(line)


def clamp_window(width: int, height: int) -> tuple[int, int]:
    """A window size inside [display] width/height's ranges, so the saved file always loads."""
    def fit(name: str, value: int) -> int:
        meta = _display_field(name).metadata
        return int(min(max(value, meta["lo"]), meta["hi"]))

    return fit("width", width), fit("height", height)
