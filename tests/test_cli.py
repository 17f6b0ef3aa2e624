"""The command line: exit codes, the one-line ``error:`` messages, --list-resolvers, --trace safety.

Most cases call ``game.cli.main`` in-process (an uncaught exception would fail the test just as a
traceback would); a few go through ``main.py`` in a subprocess to check the real exit status.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from game import resolvers
from game.cli import main

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).parent / "data"
FLAT = DATA / "flat.tmx"
CONFIG = DATA / "scenario.toml"
HOLD_RIGHT = DATA / "scripts" / "hold_right.txt"


def headless(*extra: str, ticks: str | None = "10", level: Path | str | None = FLAT,
             config: Path | str | None = CONFIG) -> list[str]:
    args = ["--headless"]
    if ticks is not None:
        args += ["--ticks", ticks]
    if level is not None:
        args += ["--level", str(level)]
    if config is not None:
        args += ["--config", str(config)]
    return args + list(extra)


def fails(capsys, argv: list[str], *names: str) -> str:
    """main(argv) exits 2 with one stderr line 'error: ...' mentioning every one of ``names``."""
    rc = main(argv)
    out, err = capsys.readouterr()
    assert rc == 2, f"exit {rc}; stderr {err!r}"
    lines = err.splitlines()
    assert len(lines) == 1, err
    line = lines[0]
    assert line.startswith("error: ")
    assert "Traceback" not in err
    for name in names:
        assert name in line, f"{name!r} not in {line!r}"
    return line


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, "utf-8")
    return p


# ----------------------------------------------------------------------------------------------
# Config mistakes
# ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,word", [
    ("[physics\n", "TOML"),                       # not TOML
    ("[physics]\ngravty = 1\n", "gravty"),        # unknown key
    ("[physics]\ngravity = 'x'\n", "gravity"),    # bad value
    ("[physics]\ngravity = -1\n", "gravity"),     # out of range
    ("resolver = 'nope'\n", "nope"),              # unknown resolver
    ("[resolver.axis]\n", "[resolvers.<name>]"),  # the singular table
])
def test_bad_config(tmp_path, capsys, text, word):
    cfg = write(tmp_path, "bad.toml", text)
    line = fails(capsys, headless(config=cfg), str(cfg), word)
    assert line.startswith(f"error: {cfg}:")


def test_missing_config(tmp_path, capsys):
    fails(capsys, headless(config=tmp_path / "gone.toml"), "gone.toml", "not found")


def test_bad_config_also_fails_when_playing(tmp_path, capsys):
    # the window is never opened: the config is checked first
    cfg = write(tmp_path, "bad.toml", "[display]\nvsync = 3\n")
    fails(capsys, ["--config", str(cfg)], "bad.toml", "vsync")


# ----------------------------------------------------------------------------------------------
# Map mistakes
# ----------------------------------------------------------------------------------------------

def test_missing_map(tmp_path, capsys):
    fails(capsys, headless(level=tmp_path / "nowhere.tmx"), "nowhere.tmx")


def test_bad_map(tmp_path, capsys):
    bad = write(tmp_path, "broken.tmx", "<map><layer></map>")
    fails(capsys, headless(level=bad), "broken.tmx")


def test_map_with_a_bad_physics_property(tmp_path, capsys):
    shutil.copy(DATA / "tiles4.png", tmp_path / "tiles4.png")
    text = FLAT.read_text("utf-8").replace(
        "\n <tileset", '\n <properties><property name="gravity" value="lots"/></properties>'
        "\n <tileset", 1)
    path = write(tmp_path, "heavy.tmx", text)
    fails(capsys, headless(level=path), "heavy.tmx", "gravity")


def test_map_without_a_spawn(tmp_path, capsys):
    shutil.copy(DATA / "tiles4.png", tmp_path / "tiles4.png")
    text = FLAT.read_text("utf-8").replace('name="spawn" type="player"', 'name="flag"')
    path = write(tmp_path, "nospawn.tmx", text)
    fails(capsys, headless(level=path), "nospawn.tmx", "spawn")


# ----------------------------------------------------------------------------------------------
# Input script mistakes
# ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,words", [
    ("0 right\nten jump\n", ["line 2", "ten"]),               # bad tick
    ("0 right\n-1 jump\n", ["line 2"]),                       # negative
    ("0 right\n5 left\n5 jump\n", ["line 3", "5"]),           # not increasing
    ("0 right\n9 left\n3 jump\n", ["line 3", "3"]),           # going back
    ("# c\n\n0 fly\n", ["line 3", "fly"]),                    # unknown key name
    ("0 right+hop\n", ["line 1", "hop"]),
    ("0 right jump\n", ["line 1"]),                           # three fields
    ("0\n", ["line 1"]),                                      # one field
    ("0 right+\n", ["line 1"]),                               # empty key name
])
def test_bad_input_script(tmp_path, capsys, text, words):
    script = write(tmp_path, "moves.txt", text)
    fails(capsys, headless("--input", str(script)), "moves.txt", *words)


def test_missing_input_script(tmp_path, capsys):
    fails(capsys, headless("--input", str(tmp_path / "none.txt")), "none.txt", "not found")


def test_input_script_that_is_not_text(tmp_path, capsys):
    script = tmp_path / "binary.txt"
    script.write_bytes(b"\xff\xfe\x00\x81 right")
    fails(capsys, headless("--input", str(script)), "binary.txt")


# ----------------------------------------------------------------------------------------------
# Command-line mistakes
# ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("argv,words", [
    (headless("--resolver", "magic"), ["magic", "--resolver"]),
    (headless(ticks="ten"), ["--ticks", "ten"]),
    (headless(ticks="-5"), ["--ticks"]),
    (headless(ticks="1.5"), ["--ticks"]),
    (["--headless", "--ticks", "1", "--record", "r.txt"], ["--record", "--headless"]),
    (["--ticks", "-1", "--level", str(FLAT)], ["--ticks"]),  # a window replay checks it too
    (["--headless", "--level", str(FLAT)], ["--ticks"]),
    (["--bogus"], ["--bogus"]),
    (["--headless", "--ticks"], ["--ticks"]),
    (["stray-argument"], ["stray-argument"]),
])
def test_command_line_mistakes(capsys, argv, words):
    line = fails(capsys, argv, *words)
    assert line.startswith("error: command line: ")


def test_help_exits_0(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    for opt in ("--headless", "--ticks", "--input", "--trace", "--level", "--resolver",
                "--config", "--list-resolvers"):
        assert opt in out


# ----------------------------------------------------------------------------------------------
# Success paths
# ----------------------------------------------------------------------------------------------

def test_list_resolvers(capsys):
    assert main(["--list-resolvers"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    lines = out.splitlines()
    assert [line.split()[0] for line in lines] == resolvers.names()
    assert "axis" in resolvers.names()


def test_headless_run_succeeds_and_reports(tmp_path, capsys):
    trace = tmp_path / "t.jsonl"
    assert main(headless("--input", str(HOLD_RIGHT), "--trace", str(trace))) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert len(trace.read_text().splitlines()) == 10
    assert "10 ticks" in out
    assert list(tmp_path.iterdir()) == [trace]  # no temporary file left behind


@pytest.mark.parametrize("ghosts", [(), ("--ghosts",)])
def test_headless_without_trace_builds_no_records_and_ends_where_a_trace_does(
        tmp_path, capsys, monkeypatch, ghosts):
    trace = tmp_path / "t.jsonl"
    assert main(headless("--input", str(HOLD_RIGHT), "--trace", str(trace), *ghosts)) == 0
    traced = capsys.readouterr().out

    def no_record(world):
        raise AssertionError("a trace record was built with no trace to write")

    import game.runs.headless

    monkeypatch.setattr(game.runs.headless, "trace_record", no_record)
    assert main(headless("--input", str(HOLD_RIGHT), *ghosts)) == 0
    assert capsys.readouterr().out == traced  # the same final state, every world


def test_trace_to_stdout_prints_only_the_trace(capsys):
    assert main(headless("--trace", "-", ticks="3")) == 0
    out, _ = capsys.readouterr()
    assert len(out.splitlines()) == 3
    assert all(line.startswith("{") for line in out.splitlines())


def test_resolver_from_the_command_line_is_used(tmp_path, capsys):
    for name in resolvers.names():
        trace = tmp_path / f"{name}.jsonl"
        assert main(headless("--resolver", name, "--trace", str(trace), ticks="2")) == 0
        assert f'"resolver":"{name}"' in trace.read_text()


# ----------------------------------------------------------------------------------------------
# The trace file is never damaged by a failing run
# ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("mistake", ["script", "map", "config", "ticks", "resolver"])
def test_failing_run_leaves_an_existing_trace_alone(tmp_path, capsys, mistake):
    trace = write(tmp_path, "old.jsonl", '{"keep": "me"}\n')
    before = trace.read_bytes()
    bad_script = write(tmp_path, "bad.txt", "0 right\n0 left\n")
    args = {
        "script": headless("--input", str(bad_script), "--trace", str(trace)),
        "map": headless("--trace", str(trace), level=tmp_path / "none.tmx"),
        "config": headless("--trace", str(trace), config=write(tmp_path, "c.toml", "x = 1\n")),
        "ticks": headless("--trace", str(trace), ticks="many"),
        "resolver": headless("--trace", str(trace), "--resolver", "nope"),
    }[mistake]
    fails(capsys, args)
    assert trace.read_bytes() == before
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".trace")]


def test_trace_onto_the_input_script_is_refused(tmp_path, capsys):
    script = write(tmp_path, "moves.txt", "0 right\n10 jump\n")
    before = script.read_bytes()
    fails(capsys, headless("--input", str(script), "--trace", str(script)), "--trace",
          "command line")
    assert script.read_bytes() == before
    # also through another spelling of the same path
    other = tmp_path / "." / "moves.txt"
    fails(capsys, headless("--input", str(script), "--trace", str(other)), "--trace")
    assert script.read_bytes() == before


def test_trace_onto_the_level_or_config_is_refused(tmp_path, capsys):
    shutil.copy(DATA / "tiles4.png", tmp_path / "tiles4.png")
    level = tmp_path / "flat.tmx"
    shutil.copy(FLAT, level)
    cfg = write(tmp_path, "c.toml", "")
    for target in (level, cfg):
        before = target.read_bytes()
        fails(capsys, headless("--trace", str(target), level=level, config=cfg), "--trace")
        assert target.read_bytes() == before


def test_trace_into_a_missing_folder_or_onto_a_folder(tmp_path, capsys):
    fails(capsys, headless("--trace", str(tmp_path / "no" / "t.jsonl")), "--trace")
    fails(capsys, headless("--trace", str(tmp_path)), "--trace")


# ----------------------------------------------------------------------------------------------
# Through a real process: exit status and stderr
# ----------------------------------------------------------------------------------------------

def run_main(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    return subprocess.run([sys.executable, "main.py", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("case", ["script", "option", "config"])
def test_exit_status_2_from_a_real_process(tmp_path, case):
    bad_script = write(tmp_path, "moves.txt", "0 jump\nnoon right\n")
    bad_cfg = write(tmp_path, "c.toml", "[player]\nwidth = 'wide'\n")
    args, name = {
        "script": (headless("--input", str(bad_script)), "moves.txt"),
        "option": (["--headless", "--ticks", "3", "--frobnicate"], "command line"),
        "config": (headless(config=bad_cfg), "c.toml"),
    }[case]
    proc = run_main(*args)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert name in lines[0]
    assert "Traceback" not in proc.stderr


def test_list_resolvers_from_a_real_process():
    proc = run_main("--list-resolvers")
    assert proc.returncode == 0
    assert [line.split()[0] for line in proc.stdout.splitlines()] == resolvers.names()


# ----------------------------------------------------------------------------------------------
# --trace never costs the user a file
# ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("victim", ["config.toml", "levels/terrain.tsx", "assets/terrain.png"])
def test_trace_refuses_to_replace_a_file_that_is_not_a_trace(tmp_path, capsys, victim):
    target = tmp_path / Path(victim).name
    shutil.copy(ROOT / victim, target)
    before = target.read_bytes()
    err = fails(capsys, headless("--trace", str(target)), target.name)
    assert "not a trace" in err
    assert target.read_bytes() == before


def test_the_default_config_is_protected_too(capsys):
    before = (ROOT / "config.toml").read_bytes()
    fails(capsys, headless("--trace", str(ROOT / "config.toml")), "config.toml")
    assert (ROOT / "config.toml").read_bytes() == before


def test_a_previous_trace_is_replaced_and_keeps_its_permissions(tmp_path, capsys):
    out = tmp_path / "run.jsonl"
    assert main(headless("--trace", str(out), ticks="3")) == 0
    os.chmod(out, 0o640)
    assert main(headless("--trace", str(out), ticks="5")) == 0
    assert len(out.read_text().splitlines()) == 5
    assert (out.stat().st_mode & 0o777) == 0o640
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert main(headless("--trace", str(empty), ticks="2")) == 0
    assert len(empty.read_text().splitlines()) == 2
    assert not list(tmp_path.glob(".trace-*"))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_trace_into_a_fifo_writes_into_it(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    proc = subprocess.Popen([sys.executable, str(ROOT / "main.py"), *headless(
        "--trace", str(fifo), ticks="4")], cwd=ROOT, stdout=subprocess.DEVNULL)
    with open(fifo, encoding="utf-8") as reader:
        lines = reader.read().splitlines()
    assert proc.wait(timeout=60) == 0
    assert len(lines) == 4 and fifo.is_fifo()


def test_trace_to_dev_null_leaves_it_a_device(capsys):
    if not Path("/dev/null").exists():
        pytest.skip("no /dev/null here")
    assert main(headless("--trace", "/dev/null", ticks="3")) == 0
    assert not Path("/dev/null").is_file()


def test_a_closed_pipe_on_stdout_ends_quietly():
    proc = subprocess.run(
        f"{sys.executable} main.py {' '.join(headless('--trace', '-', ticks='200000'))} | head -1",
        shell=True, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.stdout.startswith('{"tick":0')
    assert "Traceback" not in proc.stderr and "Error" not in proc.stderr


def test_stopping_a_run_leaves_no_temp_file(tmp_path):
    import signal
    import time

    out = tmp_path / "long.jsonl"
    proc = subprocess.Popen([sys.executable, str(ROOT / "main.py"), *headless(
        "--trace", str(out), ticks="50000000")], cwd=ROOT, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE)
    deadline = time.monotonic() + 90
    while not list(tmp_path.glob(".trace-*")) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert list(tmp_path.glob(".trace-*")), "the run never started writing"
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=90) == 128 + signal.SIGTERM, proc.stderr.read()
    assert not list(tmp_path.glob(".trace-*")) and not out.exists()


@pytest.mark.parametrize("tick", ["1_0", "+3", "\u0663", "0x1", "1.0"])
def test_ticks_are_plain_digits(tmp_path, capsys, tick):
    script = write(tmp_path, "s.txt", f"{tick} right\n")
    fails(capsys, headless("--input", str(script)), "s.txt", "line 1")


def test_a_byte_order_mark_is_fine(tmp_path, capsys):
    script = tmp_path / "bom.txt"
    script.write_bytes("\ufeff0 right\n".encode("utf-8"))
    assert main(headless("--input", str(script))) == 0


def test_no_resolver_says_the_same_thing_twice_in_its_one_line(capsys):
    """--list-resolvers (and the help overlay, the title screen) join the axis order and the
    summary: no phrase of one is repeated in the other (overlap said "axis of least separation"
    twice)."""
    from game import resolvers as registry
    def runs(text: str, n: int = 3) -> set[tuple[str, ...]]:
        words = text.replace(";", " ").replace(",", " ").split()
        return {tuple(words[i:i + n]) for i in range(len(words) - n + 1)}

    for name in registry.names():
        d = registry.describe(name)
        assert not runs(d["axis_order"]) & runs(d["summary"]), name
    assert runs("both at once; per tile, the axis of least separation") & runs(
        "push out along its axis of least separation")  # what the check would have caught


def test_resolver_on_the_command_line_in_any_case(capsys):
    assert main(headless("--resolver", "Axis")) == 0
    assert "with axis:" in capsys.readouterr().out


def test_a_mistyped_resolver_on_the_command_line_gets_a_did_you_mean(capsys):
    line = fails(capsys, headless("--resolver", "swept_aabb"), "--resolver", "swept_aabb")
    assert "did you mean swept?" in line
