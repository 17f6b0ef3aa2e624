"""Hostile config files, map physics properties, input scripts and --ticks, through the real CLI.

Each case runs the command line in this process (``helpers.run_cli``) and expects what every user
mistake gets: exit status 2 and one short ``error:`` line naming the file. The runs that need a
process of their own (input from stdin, the extremes of every range under an address-space limit)
start ``main.py`` with a timeout and that limit. Before
these checks existed, such inputs hung the mover (a sub-step count in the millions), grew memory
without bound (``/dev/zero``, a key of thousands of dotted parts), crashed with a traceback, or
echoed megabytes into the error line.
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import threading
from dataclasses import fields
from pathlib import Path

import pytest
from helpers import run_cli

from game.config import CONFIG_LIMIT, PhysicsConfig
from game.maps.grid import TileGrid
from game.sim.inputs import SCRIPT_LIMIT, parse_script
from game.resolvers.base import substeps

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).parent / "data"
FLAT = DATA / "flat.tmx"
MEMORY_LIMIT = 1 << 30  # bytes of address space for each run: far above a normal run's needs
RUN_AND_JUMP = "0 right+jump\n20 -\n30 left+jump\n50 right\n"


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run_process(*args: str | Path, feed: bytes | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    return subprocess.run([sys.executable, "main.py", *map(str, args)], cwd=ROOT, env=env,
                          input=feed, capture_output=True, timeout=30,
                          preexec_fn=_limit_memory)


def one_error(proc: subprocess.CompletedProcess, name: str, *words: str) -> str:
    """The run ended with exit 2 and one short ``error:`` line naming ``name`` and ``words``."""
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 2, f"exit {proc.returncode}; stderr {err[:1000]!r}"
    lines = err.splitlines()
    assert len(lines) == 1, err[:1000]
    line = lines[0]
    assert line.startswith("error: ") and "Traceback" not in err
    assert len(line) < 500, f"{len(line):,} characters: {line[:300]!r}..."
    for word in (name, *words):
        assert word in line, f"{word!r} not in {line!r}"
    return line


def headless(*extra: str | Path, ticks: str = "120", config: Path | None = None,
             level: Path = FLAT) -> list[str | Path]:
    args: list[str | Path] = ["--headless", "--ticks", ticks, "--level", level]
    if config is not None:
        args += ["--config", config]
    return args + list(extra)


def script(tmp_path: Path, text: str = RUN_AND_JUMP) -> Path:
    path = tmp_path / "moves.txt"
    path.write_text(text, "utf-8")
    return path


def map_with_properties(tmp_path: Path, props: str, name: str = "hostile.tmx") -> Path:
    """tests/data/flat.tmx with map custom properties (the <property> elements in ``props``)."""
    shutil.copy(DATA / "tiles4.png", tmp_path / "tiles4.png")
    text = FLAT.read_text("utf-8").replace(
        "\n <tileset", f"\n <properties>{props}</properties>\n <tileset", 1)
    path = tmp_path / name
    path.write_text(text, "utf-8")
    return path


# ----------------------------------------------------------------------------------------------
# 1. Physics values past anything a level could want: refused at load, with the range
# ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("key,value,bound", [
    ("jump_speed", "1e308", "5000"),       # was an OverflowError in the mover
    ("jump_speed", "1e7", "5000"),         # was a hang: millions of sub-steps a tick
    ("jump_speed", "1e200", "5000"),
    ("max_fall_speed", "1e9", "5000"),
    ("max_fall_speed", "1e308", "5000"),
    ("run_speed", "1e9", "5000"),
    ("gravity", "1e9", "100000"),
    ("gravity", "1e308", "100000"),
    ("air_accel", "1e308", "100000"),
    ("ground_decel", "1e12", "100000"),
])
def test_a_huge_physics_value_in_the_config_is_refused_with_its_range(tmp_path, key, value,
                                                                     bound):
    cfg = tmp_path / "bad.toml"
    cfg.write_text(f"[physics]\n{key} = {value}\n", "utf-8")
    proc = run_cli(*headless("--input", script(tmp_path), config=cfg))
    one_error(proc, "bad.toml", key, bound)


@pytest.mark.parametrize("key,value,bound", [
    ("jump_speed", "1e7", "5000"),
    ("gravity", "1e308", "100000"),
    ("max_fall_speed", "1e9", "5000"),
    ("run_speed", "123456789", "5000"),
])
def test_a_huge_physics_value_as_a_map_property_is_refused_with_its_range(tmp_path, key, value,
                                                                         bound):
    level = map_with_properties(tmp_path, f'<property name="{key}" type="float" value="{value}"/>')
    proc = run_cli(*headless("--input", script(tmp_path), level=level))
    one_error(proc, "hostile.tmx", key, bound)


@pytest.mark.parametrize("section,key,value,bound", [
    ("player", "width", "1e9", "256"),
    ("player", "height", "300", "256"),
    ("physics", "tick_rate", "1e9", "1000"),
    ("physics", "respawn_delay", "1e300", "60"),
])
def test_other_sizes_have_an_upper_bound_too(tmp_path, section, key, value, bound):
    cfg = tmp_path / "bad.toml"
    cfg.write_text(f"[{section}]\n{key} = {value}\n", "utf-8")
    one_error(run_cli(*headless(config=cfg)), "bad.toml", key, bound)


def _hi(name: str) -> float:
    return next(f for f in fields(PhysicsConfig) if f.name == name).metadata["hi"]


def _lo(name: str) -> float:
    return next(f for f in fields(PhysicsConfig) if f.name == name).metadata["lo"]


def test_every_physics_value_has_an_upper_bound():
    assert all(f.metadata["hi"] is not None for f in fields(PhysicsConfig))


def test_the_fastest_allowed_motion_needs_few_sub_steps_even_on_the_smallest_tiles():
    """The bounds' reason: the slowest tick rate at the top speeds moves at most so far in one
    tick, and the mover's sub-steps are never shorter than half a pixel (1 px tiles or body)."""
    dt = 1.0 / _lo("tick_rate")
    fastest = max(_hi("run_speed"), _hi("jump_speed"), _hi("max_fall_speed")) * dt
    tiny = TileGrid.from_rows(["." * 4] * 4, tile_w=1, tile_h=1)
    assert substeps(tiny, 1.0, 1.0, fastest, fastest) <= 1000


@pytest.mark.slow
def test_the_extremes_of_every_range_run_quickly_with_every_resolver(tmp_path):
    """Slowest ticks, fastest speeds, hardest accelerations: 120 ticks of running and jumping
    with each resolver, within the subprocess timeout."""
    cfg = tmp_path / "extreme.toml"
    cfg.write_text("[physics]\ntick_rate = 10\ngravity = 100000\nmax_fall_speed = 5000\n"
                   "run_speed = 5000\njump_speed = 5000\nground_accel = 100000\n"
                   "ground_decel = 100000\nair_accel = 100000\nair_decel = 100000\n", "utf-8")
    moves = script(tmp_path)
    from game import resolvers
    for name in resolvers.names():
        proc = run_process(*headless("--input", moves, "--resolver", name, config=cfg))
        assert proc.returncode == 0, proc.stderr.decode()


def test_the_shipped_config_and_levels_stay_valid():
    for level in sorted((ROOT / "levels").glob("*.tmx")):
        proc = run_cli(*headless(ticks="2", level=level, config=ROOT / "config.toml"))
        assert proc.returncode == 0, proc.stderr.decode()


# ----------------------------------------------------------------------------------------------
# 2. TOML that makes the parser itself work hard
# ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("value", ["[" * 5000 + "]" * 5000, "{a = " * 5000 + "1" + "}" * 5000])
def test_deeply_nested_toml_is_one_error_line(tmp_path, value):
    cfg = tmp_path / "deep.toml"
    cfg.write_text(f"[physics]\ngravity = {value}\n", "utf-8")
    one_error(run_cli(*headless(config=cfg)), "deep.toml", "nested too deeply")


@pytest.mark.parametrize("text", [
    "a" + ".a" * 20_000 + " = 1\n",        # tomllib's time and memory grow with the square
    "[a" + ".a" * 20_000 + "]\n",          # of the number of parts in one key
    "[physics]\ngravity" + " . b" * 6000 + " = 1\n",
])
def test_a_key_of_thousands_of_dotted_parts_is_refused_quickly(tmp_path, text):
    cfg = tmp_path / "dotted.toml"
    cfg.write_text(text, "utf-8")
    one_error(run_cli(*headless(config=cfg)), "dotted.toml", "line")


def test_a_number_of_thousands_of_digits_in_the_config(tmp_path):
    cfg = tmp_path / "digits.toml"
    cfg.write_text("[display]\nwidth = " + "7" * 5000 + "\n", "utf-8")
    one_error(run_cli(*headless(config=cfg)), "digits.toml")


# ----------------------------------------------------------------------------------------------
# 3. Files that never end, or are not text
# ----------------------------------------------------------------------------------------------

def test_config_from_dev_zero_is_refused_at_its_size_limit():
    one_error(run_cli(*headless(config=Path("/dev/zero"))), "/dev/zero", "larger than", "KB")


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_input_script_from_a_device_that_never_ends(device):
    one_error(run_cli(*headless("--input", device)), device, "larger than", "MB")


def test_a_config_over_the_limit_is_refused(tmp_path):
    cfg = tmp_path / "big.toml"
    cfg.write_text("# padding\n" * (CONFIG_LIMIT // 10 + 1), "utf-8")
    one_error(run_cli(*headless(config=cfg)), "big.toml", "larger than")


def test_an_input_script_over_the_limit_is_refused(tmp_path):
    big = tmp_path / "big.txt"
    big.write_text("# padding\n" * (SCRIPT_LIMIT // 10 + 1), "utf-8")
    one_error(run_cli(*headless("--input", big)), "big.txt", "larger than")


def test_a_config_that_is_not_utf8(tmp_path):
    cfg = tmp_path / "latin1.toml"
    cfg.write_bytes(b"# caf\xe9\n[physics]\ngravity = 900\n")
    one_error(run_cli(*headless(config=cfg)), "latin1.toml", "UTF-8")


def test_a_config_saved_with_a_byte_order_mark_is_read(tmp_path):
    """Windows' Notepad writes one; before, tomllib's 'Invalid statement (at line 1, column 1)'
    said nothing of what to change."""
    from game import config
    cfg = tmp_path / "bom.toml"
    cfg.write_bytes("\ufeff[physics]\ngravity = 900.0\n".encode("utf-8"))
    assert config.load(cfg).physics.gravity == 900.0


def test_an_input_script_that_is_not_utf8(tmp_path):
    bad = tmp_path / "bytes.txt"
    bad.write_bytes(b"0 right\n\x80\x81\xfe 10 left\n")
    one_error(run_cli(*headless("--input", bad)), "bytes.txt", "UTF-8")


def test_a_small_input_script_from_a_fifo_still_works(tmp_path):
    fifo = tmp_path / "moves.fifo"
    os.mkfifo(fifo)

    def feed() -> None:
        with open(fifo, "w", encoding="utf-8") as f:
            f.write(RUN_AND_JUMP)

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    proc = run_cli(*headless("--input", fifo, ticks="40"))
    writer.join(timeout=5)
    assert proc.returncode == 0, proc.stderr.decode()
    assert b"40 ticks" in proc.stdout


def test_an_input_script_from_stdin_still_works():
    proc = run_process(*headless("--input", "/dev/stdin", ticks="40"),
                       feed=RUN_AND_JUMP.encode())
    assert proc.returncode == 0, proc.stderr.decode()


# ----------------------------------------------------------------------------------------------
# 4. Long text in the file is cut in the error line
# ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,words", [
    ("0 " + "x" * 2_000_000 + "\n", ["line 1", "keys"]),            # keys
    ("0 right " + "y" * 2_000_000 + "\n", ["line 1", "expected"]),  # a third field
    ("0 right\n" + "9" * 1_000_000 + " left\n", ["line 2", "tick"]),  # a tick of a million digits
    ("0 right\n" + "1" + "0" * 100 + " left\n", ["line 2", "tick"]),  # 10**100
    ("0 " + "+" * 3_000_000 + "\n", ["line 1", "keys"]),
    ("0 " + "ab+" * 1_000_000 + "\n", ["line 1", "keys"]),
])
def test_long_text_in_an_input_script_is_cut_in_the_error(tmp_path, text, words):
    one_error(run_cli(*headless("--input", script(tmp_path, text))), "moves.txt", *words)


def test_a_tick_past_the_run_is_fine(tmp_path):
    moves = script(tmp_path, "0 right\n" + "0" * 100_000 + "7 left\n999999999999999999 jump\n")
    proc = run_cli(*headless("--input", moves, ticks="30"))
    assert proc.returncode == 0, proc.stderr.decode()


LONG = "z" * 50_000


@pytest.mark.parametrize("text,words", [
    (f'[physics]\ngravity = "{LONG}"\n', ["gravity", "number"]),
    (f'resolver = "{LONG}"\n', ["resolver"]),
    (f"{LONG} = 1\n", ["unknown key"]),
    (f"[physics]\n{LONG} = 1\n", ["unknown key"]),
    (f"[player]\n'{LONG}' = 1\n", ["unknown key"]),
    (f"[resolvers.{LONG}]\n", ["resolvers"]),
    (f"[resolvers]\n{LONG} = 3\n", ["resolvers"]),
    (f"[physics]\ngravity = [{'1,' * 20_000}]\n", ["gravity", "array"]),
    (f"[physics]\ngravity = {{ {LONG} = 1 }}\n", ["gravity", "table"]),
    ("[display]\nwidth = " + "9" * 4000 + "\n", ["width", "7680"]),
])
def test_long_text_in_a_config_is_cut_in_the_error(tmp_path, text, words):
    cfg = tmp_path / "long.toml"
    cfg.write_text(text, "utf-8")
    one_error(run_cli(*headless(config=cfg)), "long.toml", *words)


def test_a_long_map_property_value_is_cut_in_the_error(tmp_path):
    level = map_with_properties(tmp_path, f'<property name="gravity" value="{LONG}"/>')
    one_error(run_cli(*headless(level=level)), "hostile.tmx", "gravity")


def test_a_long_resolver_name_on_the_command_line_is_cut(tmp_path):
    one_error(run_cli(*headless("--resolver", LONG)), "command line", "--resolver")


# ----------------------------------------------------------------------------------------------
# 5. --ticks
# ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("ticks,words", [
    ("9" * 100_000, ["--ticks", "too large"]),   # int() refuses past 4,300 digits
    ("x" * 100_000, ["--ticks", "whole number"]),
])
def test_a_monstrous_ticks_value_is_one_short_error_line(ticks, words):
    one_error(run_cli(*headless(ticks=ticks)), "command line", *words)


def test_a_script_parsed_in_process_shares_one_held_record_per_key_set():
    """Memory stays proportional to the lines, not to the keys written on each."""
    s = parse_script([f"{i} right+jump" for i in range(100)], "s")
    assert len({id(held) for _, held in s.entries}) == 1
