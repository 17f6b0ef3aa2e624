"""Settings that last (game/runs/settings.py): where they live, reading, atomic writing, precedence.

No test here touches the real user folder: each points the config folder (XDG_CONFIG_HOME, and
HOME and APPDATA for the other platforms) at its tmp_path, or passes paths directly.
"""

import os
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from game import cli, config
from game.runs import settings as st

ROOT = Path(__file__).resolve().parent.parent
FIRST = ROOT / "levels" / "01_first_steps.tmx"
SECOND = ROOT / "levels" / "02_every_tile.tmx"
FLAT = ROOT / "tests" / "data" / "flat.tmx"


@pytest.fixture
def home(tmp_path, monkeypatch):
    """The settings folder in tmp_path on every platform, and settings switched on."""
    monkeypatch.delenv(st.NO_SETTINGS_ENV, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("USERPROFILE", str(tmp_path / "home"))
    monkeypatch.setenv("APPDATA", str(tmp_path / "appdata"))
    path = st.settings_path()
    assert tmp_path in path.parents
    return path


def collect():
    lines = []
    return lines, lines.append


# --- where ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("platform,env,expected", [
    ("linux", {"XDG_CONFIG_HOME": "/cfg"}, "/cfg/tilecollide/settings.toml"),
    ("linux", {}, "/h/.config/tilecollide/settings.toml"),
    ("linux", {"XDG_CONFIG_HOME": "relative/dir"}, "/h/.config/tilecollide/settings.toml"),
    ("freebsd13", {"XDG_CONFIG_HOME": "/cfg"}, "/cfg/tilecollide/settings.toml"),
    ("darwin", {"XDG_CONFIG_HOME": "/cfg"},
     "/h/Library/Application Support/tilecollide/settings.toml"),
])
def test_the_settings_file_is_in_the_platforms_config_folder(platform, env, expected):
    assert st.settings_path(env, platform, Path("/h")) == Path(expected)


@pytest.mark.parametrize("platform", ["linux", "darwin", "win32"])
def test_no_home_folder_means_nothing_remembered_never_a_relative_folder(platform):
    assert st.settings_path({}, platform, Path("~")) is None
    assert st.settings_path({"XDG_CONFIG_HOME": "rel", "APPDATA": "rel"}, platform,
                            Path("~")) is None


def test_no_home_folder_the_game_still_starts(monkeypatch, tmp_path):
    monkeypatch.delenv(st.NO_SETTINGS_ENV, raising=False)
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(Path, "home", classmethod(lambda cls: Path("~")))
    monkeypatch.setattr(sys, "platform", "linux")
    assert cli.setup(args()).store is None
    assert list(tmp_path.iterdir()) == []


def test_windows_uses_appdata(monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setenv("APPDATA", str(tmp_path / "Roaming"))
    assert st.settings_path() == tmp_path / "Roaming" / "tilecollide" / "settings.toml"
    monkeypatch.delenv("APPDATA")
    assert st.settings_path(home=tmp_path) == (tmp_path / "AppData" / "Roaming" / "tilecollide"
                                               / "settings.toml")


def test_macos_and_linux_read_the_environment_at_call_time(monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "platform", "darwin")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert st.settings_path() == (tmp_path / "Library" / "Application Support" / "tilecollide"
                                  / "settings.toml")
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "x"))
    assert st.settings_path() == tmp_path / "x" / "tilecollide" / "settings.toml"


def test_the_file_is_never_in_the_repository(home):
    assert ROOT not in home.parents


@pytest.mark.parametrize("value,off", [("1", True), ("yes", True), ("", False), ("0", False)])
def test_the_environment_variable_switches_settings_off(value, off):
    assert st.disabled({st.NO_SETTINGS_ENV: value}) is off


# --- reading and writing -------------------------------------------------------------------------

def test_round_trip(tmp_path):
    path = tmp_path / "deep" / "er" / "settings.toml"
    s = st.Settings(level=str(tmp_path / 'a "quoted" \\ level\twith\x7fodd.tmx'),
                    resolver="sweep", volume=0.35, window_width=900, window_height=500)
    assert st.save(path, s)
    assert st.load(path) == s
    assert st.load(path, warn=pytest.fail) == s  # no warning on a good file


def test_a_missing_file_is_quietly_nothing_remembered(tmp_path):
    assert st.load(tmp_path / "none.toml", warn=pytest.fail) == st.Settings()


def test_a_path_that_is_not_utf8_is_left_out_not_written_wrong(tmp_path):
    path = tmp_path / "settings.toml"
    s = st.Settings(level="/levels/\udcff.tmx", resolver="corners")
    assert st.save(path, s)
    assert st.load(path) == st.Settings(resolver="corners")


def test_a_failed_write_leaves_the_old_file_and_no_temp_file(tmp_path, monkeypatch):
    path = tmp_path / "settings.toml"
    old = st.Settings(resolver="axis", window_width=1000, window_height=600)
    assert st.save(path, old)
    before = path.read_bytes()

    def refuse(*_args):
        raise OSError(28, "No space left on device")

    lines, warn = collect()
    monkeypatch.setattr(os, "replace", refuse)
    assert not st.save(path, st.Settings(resolver="sweep"), warn)
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["settings.toml"]
    assert len(lines) == 1 and lines[0].startswith(f"warning: {path}: cannot save")
    assert "No space left on device" in lines[0]


def test_a_write_stopped_halfway_leaves_no_partial_file(tmp_path, monkeypatch):
    path = tmp_path / "settings.toml"

    def fail(_fd):
        raise OSError(5, "Input/output error")

    lines, warn = collect()
    monkeypatch.setattr(os, "fsync", fail)
    assert not st.save(path, st.Settings(resolver="sweep"), warn)
    monkeypatch.undo()
    assert list(tmp_path.iterdir()) == [] and len(lines) == 1


def test_a_folder_that_cannot_be_made_is_one_warning(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    lines, warn = collect()
    assert not st.save(blocker / "tilecollide" / "settings.toml", st.Settings(), warn)
    assert len(lines) == 1 and "cannot save the settings" in lines[0]


def test_the_store_warns_once_and_skips_unchanged_writes(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    lines, warn = collect()
    store = st.Store(blocker / "settings.toml", warn)
    assert len(lines) == 1 and "using defaults" in lines[0]  # cannot even look: one warning
    for name in ("axis", "sweep", "overlap"):
        assert not store.save(st.Settings(resolver=name))
    assert len(lines) == 2 and "cannot save the settings" in lines[1]  # and one for the saves
    good = st.Store(tmp_path / "ok" / "settings.toml", pytest.fail)
    assert good.save(st.Settings(resolver="sweep"))
    (tmp_path / "ok" / "settings.toml").unlink()
    assert good.save(st.Settings(resolver="sweep"))  # unchanged: not written again
    assert not (tmp_path / "ok" / "settings.toml").exists()


BAD_FILES = {
    "not toml": b"resolver = \n[[[",
    "binary": b"\x00\xff\xfe\x00garbage",
    "half written": b'resolver = "swe',
    "wrong type": b"resolver = 3\n",
    "unknown resolver": b'resolver = "magic"\n',
    "window too small": b"window_width = 10\nwindow_height = 600\n",
    "window not whole": b"window_width = 800.5\n",
    "volume negative": b"volume = -1\n",
    "volume not a number": b'volume = "loud"\n',
    "level not a string": b"level = [1, 2]\n",
    "too big": b"#" * (st.SETTINGS_LIMIT + 1),
    "nested deeply": b"x = " + b"[" * 5000 + b"]" * 5000 + b"\n",
}


@pytest.mark.parametrize("name", BAD_FILES)
def test_a_corrupt_file_is_one_warning_and_the_defaults(tmp_path, name):
    path = tmp_path / "settings.toml"
    path.write_bytes(BAD_FILES[name])
    lines, warn = collect()
    assert st.load(path, warn) == st.Settings()
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"warning: {path}: ") and lines[0].endswith(st.KEPT)
    assert "using defaults" in lines[0] and "\n" not in lines[0] and len(lines[0]) < 400


@pytest.mark.parametrize("name", BAD_FILES)
def test_a_file_that_cannot_be_used_is_never_written_over(tmp_path, name):
    """A hand edit gone wrong is the user's: the game says so once, and leaves it as it is."""
    path = tmp_path / "settings.toml"
    path.write_bytes(BAD_FILES[name])
    lines, warn = collect()
    store = st.Store(path, warn)
    assert not store.save(st.Settings(resolver="sweep", window_width=900, window_height=600))
    assert path.read_bytes() == BAD_FILES[name]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["settings.toml"]
    assert len(lines) == 1 and "leaving the file as it is" in lines[0] and str(path) in lines[0]


def test_a_settings_file_that_is_a_symbolic_link_stays_one(tmp_path):
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    real = dotfiles / "tilecollide.toml"
    assert st.save(real, st.Settings(resolver="axis"))
    real.chmod(0o640)
    link = tmp_path / "config" / "tilecollide" / "settings.toml"
    link.parent.mkdir(parents=True)
    link.symlink_to(real)
    store = st.Store(link, pytest.fail)
    assert store.saved == st.Settings(resolver="axis")
    assert store.save(st.Settings(resolver="sweep"))
    assert link.is_symlink() and link.resolve() == real.resolve()
    assert st.load(real) == st.Settings(resolver="sweep")
    assert oct(real.stat().st_mode & 0o777) == oct(0o640)
    assert sorted(p.name for p in dotfiles.iterdir()) == ["tilecollide.toml"]
    assert sorted(p.name for p in link.parent.iterdir()) == ["settings.toml"]


def test_a_folder_or_a_pipe_in_its_place_is_one_warning_and_does_not_block(tmp_path):
    folder = tmp_path / "a" / "settings.toml"
    folder.mkdir(parents=True)
    lines, warn = collect()
    assert st.load(folder, warn) == st.Settings() and len(lines) == 1
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "fifo.toml"
        os.mkfifo(fifo)
        assert st.load(fifo, warn) == st.Settings() and len(lines) == 2


def test_keys_a_newer_game_wrote_are_skipped(tmp_path):
    path = tmp_path / "settings.toml"
    path.write_text('resolver = "routing"\ncolour_scheme = "dark"\n[future]\nx = 1\n')
    assert st.load(path, pytest.fail) == st.Settings(resolver="routing")


# --- precedence -----------------------------------------------------------------------------------

SAVED = st.Settings(level=str(SECOND), resolver="sweep", volume=0.2, window_width=800,
                    window_height=450)


def test_saved_settings_fill_what_the_config_file_does_not_write():
    base = config.Config()
    got = st.apply(base, SAVED, frozenset())
    assert (got.resolver, got.level) == ("sweep", str(SECOND))
    assert (got.display.width, got.display.height) == (800, 450)
    pinned = st.pinned_keys({"resolver": "overlap", "display": {"width": 1000}})
    assert pinned == {"resolver", "display.width"}
    got = st.apply(replace(base, resolver="overlap"), SAVED, pinned)
    assert got.resolver == "overlap" and got.display.width == base.display.width
    assert got.display.height == 450 and got.level == str(SECOND)


def test_a_remembered_level_that_is_gone_is_not_used(tmp_path):
    got = st.apply(config.Config(), st.Settings(level=str(tmp_path / "gone.tmx")), frozenset())
    assert got.level == config.Config().level


def write_settings(home: Path, s: st.Settings) -> None:
    assert st.save(home, s)


def args(*argv):
    return cli.make_parser().parse_args(list(argv))


def test_the_command_line_sees_defaults_then_settings_then_config_then_options(home, tmp_path):
    write_settings(home, SAVED)
    s = cli.setup(args())  # the repository's config.toml shows these keys only as comments
    assert s.store is not None and s.title
    assert (s.config.resolver, s.level_path) == ("sweep", SECOND)
    assert (s.config.display.width, s.config.display.height) == (800, 450)
    assert s.levels_dir == ROOT / "levels"

    pinned = tmp_path / "pinned.toml"
    pinned.write_text('resolver = "overlap"\n[display]\nheight = 600\n')
    s = cli.setup(args("--config", str(pinned)))
    assert s.config.resolver == "overlap" and s.config.display.height == 600
    assert s.config.display.width == 800 and s.level_path == SECOND

    s = cli.setup(args("--config", str(pinned), "--resolver", "corners", "--level", str(FIRST)))
    assert s.config.resolver == "corners" and s.level_path == FIRST and not s.title


def test_no_settings_flag_and_variable_leave_the_file_alone(home, monkeypatch):
    write_settings(home, SAVED)
    s = cli.setup(args("--no-settings"))
    assert s.store is None and s.config.resolver == config.load().resolver
    monkeypatch.setenv(st.NO_SETTINGS_ENV, "1")
    assert cli.setup(args()).store is None


def test_headless_runs_neither_read_nor_write_settings(home, capsys):
    write_settings(home, SAVED)
    before = home.read_bytes()
    assert cli.main(["--headless", "--ticks", "2", "--level", str(FLAT)]) == 0
    assert "with axis" in capsys.readouterr().out  # not the remembered sweep
    assert home.read_bytes() == before
    assert not cli.setup(args("--headless", "--ticks", "1")).store


def test_a_corrupt_settings_file_does_not_stop_the_game(home, capsys):
    home.parent.mkdir(parents=True, exist_ok=True)
    home.write_bytes(b"\xff\xfe not toml [[[")
    s = cli.setup(args())
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("warning: ") and "using defaults" in err[0]
    assert s.config.resolver == config.load().resolver
