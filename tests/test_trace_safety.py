"""--trace never destroys what it should not: devices, a file that only looks like a trace, a log
that stdout appends to, an earlier trace when the disk is full or the run is stopped.

Subprocess cases run ``main.py`` itself, since signals, closed streams and appending redirections
belong to a real process. Waits are for something to happen (a temp file to appear, the signal
handlers to be in place), with generous limits, never a bare sleep standing in for "it started".
"""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest

from game.runs import headless as headless_mod
from game.cli import main
from game.runs.headless import TRACE_KEYS, TraceRecord, is_trace

# The full tier only: each case starts main.py and signals, kills or races it.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).parent / "data"
FLAT = DATA / "flat.tmx"
CONFIG = DATA / "scenario.toml"
LONG = "100000000"  # ticks: far more than any test waits for
WAIT = 90.0  # seconds: the most any wait here allows on a loaded machine

posix_only = pytest.mark.skipif(os.name != "posix", reason="signals and /dev are POSIX")


def args(*extra: str, ticks: str = "10") -> list[str]:
    return ["--headless", "--ticks", ticks, "--level", str(FLAT), "--config", str(CONFIG),
            *extra]


def fails(capsys, argv: list[str], *words: str) -> str:
    rc = main(argv)
    out, err = capsys.readouterr()
    assert rc == 2, f"exit {rc}; stderr {err!r}"
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    for word in words:
        assert word in lines[0], f"{word!r} not in {lines[0]!r}"
    return lines[0]


def earlier_trace(path: Path, ticks: str = "3") -> bytes:
    """A real trace from an earlier run at ``path``; its bytes, to check it is left alone."""
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(args("--trace", str(path), ticks=ticks)) == 0
    return path.read_bytes()


def temp_files(folder: Path) -> list[Path]:
    return sorted(folder.glob(".trace-*"))


def env() -> dict:
    return dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
                PYGAME_HIDE_SUPPORT_PROMPT="1")


def run_main(*argv: str, **kw) -> subprocess.CompletedProcess:
    kw.setdefault("capture_output", True)
    return subprocess.run([sys.executable, str(ROOT / "main.py"), *argv], cwd=ROOT, env=env(),
                          text=True, timeout=WAIT, **kw)


def run_shell(command: str) -> subprocess.CompletedProcess:
    return subprocess.run(f"exec {sys.executable} main.py {command}", shell=True, cwd=ROOT,
                          env=env(), capture_output=True, text=True, timeout=WAIT)


def default_stops(*ignored: int):
    """For a child: every stop signal back to its default (a test run in a background job
    inherits SIGINT and SIGQUIT ignored), except ``ignored``."""
    def reset():
        for name in STOPS:
            signal.signal(getattr(signal, name), signal.SIG_DFL)
        for sig in ignored:
            signal.signal(sig, signal.SIG_IGN)
    return reset


def start_main(*argv: str, ignored: tuple[int, ...] = ()) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, str(ROOT / "main.py"), *argv], cwd=ROOT, env=env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            preexec_fn=default_stops(*ignored))


def wait_for(condition, what: str, proc: subprocess.Popen) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        if proc.poll() is not None:
            pytest.fail(f"main.py ended (exit {proc.returncode}) before {what}: "
                        f"{proc.stderr.read()}")
        if time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"gave up waiting for {what}")
        time.sleep(0.005)


def one_line_at_most(stderr: str) -> None:
    assert "Traceback" not in stderr and "Exception ignored" not in stderr, stderr
    assert len(stderr.splitlines()) <= 1, stderr


def one_error_line(proc: subprocess.CompletedProcess, *words: str) -> str:
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr
    for word in words:
        assert word in lines[0], f"{word!r} not in {lines[0]!r}"
    return lines[0]


# ----------------------------------------------------------------------------------------------
# 1. What the path is decides, not its name
# ----------------------------------------------------------------------------------------------

@posix_only
@pytest.mark.parametrize("device", ["/dev/full", "/dev/zero"])
def test_character_devices_are_refused(capsys, device):
    if not Path(device).exists():
        pytest.skip(f"no {device} here")
    fails(capsys, args("--trace", device), device, "not a regular file")


@posix_only
def test_a_symbolic_link_to_a_device_is_refused_too(tmp_path, capsys):
    link = tmp_path / "t.jsonl"
    link.symlink_to("/dev/zero")
    fails(capsys, args("--trace", str(link)), "not a regular file")
    assert link.is_symlink()


def test_a_socket_is_refused(tmp_path, capsys):
    if not hasattr(socket, "AF_UNIX"):
        pytest.skip("no Unix sockets here")
    path = tmp_path / "s.jsonl"
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(path))
        fails(capsys, args("--trace", str(path)), "socket")


@pytest.mark.parametrize("kind", [stat.S_IFBLK, stat.S_IFCHR])
def test_device_nodes_are_refused(tmp_path, capsys, kind):
    # Major 240 is reserved for local use and has no driver here, so even before this was
    # refused a write could only fail: the test never risks a real disk.
    node = tmp_path / "disk.jsonl"
    try:
        os.mknod(node, kind | 0o600, os.makedev(240, 0))
    except (PermissionError, AttributeError):
        pytest.skip("making device nodes needs root (test_character_devices_are_refused "
                    "covers devices without it)")
    fails(capsys, args("--trace", str(node)), "device")
    assert stat.S_IFMT(node.lstat().st_mode) == kind


@pytest.fixture
def shm_dir():
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        pytest.skip("no writable /dev/shm here")
    folder = shm / f"tilecollide-test-{os.getpid()}-{time.monotonic_ns()}"
    folder.mkdir()
    yield folder
    shutil.rmtree(folder)


def test_a_users_file_under_dev_shm_is_protected_like_any_file(shm_dir, capsys):
    mine = shm_dir / "notes.jsonl"
    mine.write_text('{"tick": 0, "resolver": "mine", "note": "keep"}\n')
    fails(capsys, args("--trace", str(mine)), "not a trace")
    assert mine.read_text() == '{"tick": 0, "resolver": "mine", "note": "keep"}\n'


def test_an_earlier_trace_under_dev_shm_is_replaced_whole(shm_dir, capsys):
    trace = shm_dir / "t.jsonl"
    earlier_trace(trace)
    os.chmod(trace, 0o640)
    assert main(args("--trace", str(trace), ticks="5")) == 0
    assert len(trace.read_text().splitlines()) == 5
    assert stat.S_IMODE(trace.stat().st_mode) == 0o640
    assert temp_files(shm_dir) == []


def test_dev_null_is_fine(capsys):
    # Writing into /dev/null destroys nothing, so it stays allowed (it runs the simulation and
    # prints the summary, like no --trace at all).
    if not Path(os.devnull).exists():
        pytest.skip("no null device here")
    assert main(args("--trace", os.devnull, ticks="3")) == 0
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


# ----------------------------------------------------------------------------------------------
# 2. The standard streams are written through the descriptor the shell opened
# ----------------------------------------------------------------------------------------------

@posix_only
@pytest.mark.parametrize("name", ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"])
def test_trace_to_stdout_appending_to_a_log_keeps_the_log(tmp_path, name):
    if not Path(name).exists():
        pytest.skip(f"no {name} here")
    log = tmp_path / "app.log"
    log.write_text("earlier lines\nstay here\n")
    with open(log, "a") as appending:
        proc = run_main(*args("--trace", name, ticks="4"), stdout=appending,
                        stderr=subprocess.PIPE, capture_output=False)
    assert proc.returncode == 0, proc.stderr
    lines = log.read_text().splitlines()
    assert lines[:2] == ["earlier lines", "stay here"]
    # only the trace follows: the summary would spoil a trace on stdout, as with --trace -
    assert [json.loads(line)["tick"] for line in lines[2:]] == [0, 1, 2, 3]


@posix_only
def test_trace_to_stderr_appending_to_a_log_keeps_the_log(tmp_path):
    log = tmp_path / "err.log"
    log.write_text("earlier\n")
    with open(log, "a") as appending:
        proc = run_main(*args("--trace", "/dev/stderr", ticks="3"), stderr=appending,
                        stdout=subprocess.PIPE, capture_output=False)
    assert proc.returncode == 0
    lines = log.read_text().splitlines()
    assert lines[0] == "earlier" and len(lines) == 4
    assert "3 ticks" in proc.stdout  # the summary still goes to stdout


@posix_only
def test_trace_to_stdout_into_a_pipe(tmp_path):
    proc = run_main(*args("--trace", "/dev/stdout", ticks="3"))
    assert proc.returncode == 0 and proc.stderr == ""
    assert [json.loads(line)["tick"] for line in proc.stdout.splitlines()] == [0, 1, 2]


@posix_only
@pytest.mark.parametrize("target", ["-", "/dev/stdout"])
def test_a_closed_stdout_is_one_error_line(target):
    proc = run_shell(" ".join(args("--trace", target, ticks="3")) + " >&-")
    one_error_line(proc, "standard output is closed")


@posix_only
def test_a_full_stdout_is_one_error_line():
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    proc = run_shell(" ".join(args("--trace", "-", ticks="3000")) + " >/dev/full")
    one_error_line(proc, "standard output", os.strerror(errno.ENOSPC))


# ----------------------------------------------------------------------------------------------
# 3. An earlier trace is recognised strictly: every line, exactly the trace's keys, ticks 0, 1...
# ----------------------------------------------------------------------------------------------

def line(tick: int = 0, **change) -> str:
    rec = {"tick": tick, "x": 1.0, "y": 2.0, "w": 12.0, "h": 14.0, "vx": 0.0, "vy": 0.0,
           "on_ground": True, "respawning": False, "resolver": "axis", "events": []}
    rec.update(change)
    return json.dumps({k: v for k, v in rec.items() if v is not ...}) + "\n"


LOOK_ALIKES = {
    "first line only": line(0) + '{"event": "mine"}\n',
    "an extra key": line(0, note="mine"),
    "a missing key": line(0, vy=...),
    "events but a missing key": line(0, resolver=...),
    "ticks not from 0": line(5) + line(6),
    "a tick skipped": line(0) + line(1) + line(3),
    "a tick repeated": line(0) + line(0),
    "a tick that is text": line("0"),
    "a tick that is true": line(True),
    "a key twice": line(0).replace('"x": 1.0', '"x": 1.0, "x": 1.0'),
    "no newline at the end": line(0) + line(1).rstrip("\n"),
    "a blank line": line(0) + "\n" + line(1),
    "an array": json.dumps(list(line(0))) + "\n",
    "a trace then text": line(0) + line(1) + "my notes\n",
    "a long line": line(0, resolver="a" * 5000),
    "deep nesting": "[" * 3000 + "]" * 3000 + "\n",
    "only whitespace": " \n",
}


@pytest.mark.parametrize("case", LOOK_ALIKES)
def test_a_file_that_only_looks_like_a_trace_is_kept(tmp_path, capsys, case):
    mine = tmp_path / "mine.jsonl"
    mine.write_text(LOOK_ALIKES[case])
    fails(capsys, args("--trace", str(mine)), "not a trace")
    assert mine.read_text() == LOOK_ALIKES[case]


def test_an_earlier_trace_of_any_resolver_or_length_is_replaced(tmp_path, capsys):
    trace = tmp_path / "t.jsonl"
    trace.write_text(line(0, resolver="swept") + line(1, on_ground=False, vy=-12.5))
    assert main(args("--trace", str(trace), ticks="2")) == 0
    earlier_trace(trace, ticks="200")
    assert main(args("--trace", str(trace), ticks="7")) == 0
    assert len(trace.read_text().splitlines()) == 7


def test_a_trace_from_before_events_is_still_ours(tmp_path, capsys):
    trace = tmp_path / "t.jsonl"
    trace.write_text(line(0, events=...) + line(1, events=...))
    assert main(args("--trace", str(trace), ticks="3")) == 0
    assert [json.loads(x)["events"] for x in trace.read_text().splitlines()] == [[], [], []]


def test_trace_keys_are_the_keys_written(tmp_path, capsys):
    trace = tmp_path / "t.jsonl"
    earlier_trace(trace)
    for rec in map(json.loads, trace.read_text().splitlines()):
        assert list(rec) == list(TraceRecord._fields)
        assert rec.keys() == TRACE_KEYS
    with open(trace, "rb") as f:
        assert is_trace(f)


def test_recognising_a_trace_reads_a_line_at_a_time(tmp_path):
    big = tmp_path / "big.jsonl"
    with open(big, "w") as f:
        f.write(line(0) + line(1))
        f.write("x" * 20_000_000)  # 20 MB with no newline: a user's file, read in bounded memory
    tracemalloc.start()
    try:
        with open(big, "rb") as f:
            assert not is_trace(f)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000


# ----------------------------------------------------------------------------------------------
# 4. A full disk, a read-only place, no permission: one error line, the earlier trace intact
# ----------------------------------------------------------------------------------------------

def failing_write_trace(err: int):
    real = headless_mod.write_trace

    def write_trace(records, out):
        real((rec for _, rec in zip(range(50), records)), out)
        out.flush()  # the first 50 lines reach the temp file before the disk "fills"
        raise OSError(err, os.strerror(err))
    return write_trace


def raising(err: int):
    def fail(*_args):
        raise OSError(err, os.strerror(err))
    return fail


def failing_on_temp_files(real, err: int):
    def fake(path, *a, **kw):
        if Path(path).name.startswith(".trace-"):
            raise OSError(err, os.strerror(err), os.fspath(path))
        return real(path, *a, **kw)
    return fake


@pytest.mark.parametrize("where,err", [
    ("write", errno.ENOSPC),   # a full disk
    ("write", errno.EDQUOT),   # over quota
    ("open", errno.EROFS),     # a read-only file system
    ("open", errno.EACCES),    # a folder the user may not write in
    ("fsync", errno.EIO),
    ("replace", errno.EPERM),  # an immutable earlier trace
])
def test_a_failing_write_keeps_the_earlier_trace(tmp_path, capsys, monkeypatch, where, err):
    trace = tmp_path / "t.jsonl"
    before = earlier_trace(trace)
    if where == "write":
        monkeypatch.setattr(headless_mod, "write_trace", failing_write_trace(err))
    elif where == "open":
        monkeypatch.setattr(os, "open", failing_on_temp_files(os.open, err))
    else:
        monkeypatch.setattr(os, where, raising(err))
    fails(capsys, args("--trace", str(trace), ticks="300"), str(trace), os.strerror(err),
          "unchanged")
    assert trace.read_bytes() == before
    assert temp_files(tmp_path) == []


def test_a_failing_write_of_a_new_trace_leaves_nothing(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(headless_mod, "write_trace", failing_write_trace(errno.ENOSPC))
    fails(capsys, args("--trace", str(tmp_path / "new.jsonl"), ticks="300"),
          os.strerror(errno.ENOSPC), "nothing was written")
    assert list(tmp_path.iterdir()) == []


def test_a_real_write_error_in_a_real_process(tmp_path):
    # A file-size limit makes the kernel refuse writes past 20 kB (EFBIG), with no root or mount.
    resource = pytest.importorskip("resource")

    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (20_000, 20_000))

    trace = tmp_path / "t.jsonl"
    before = earlier_trace(trace)
    proc = run_main(*args("--trace", str(trace), ticks="5000"), preexec_fn=limit)
    one_error_line(proc, str(trace), os.strerror(errno.EFBIG), "unchanged")
    assert trace.read_bytes() == before
    assert temp_files(tmp_path) == []


@pytest.fixture
def small_tmpfs(tmp_path):
    """A 64 kB tmpfs at tmp_path/mnt, where this process may mount one (root, no sandbox)."""
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    if shutil.which("mount") is None or subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mnt)],
            capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here (the in-process cases above still run)")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], capture_output=True)


def test_a_full_disk_in_a_real_process(small_tmpfs):
    trace = small_tmpfs / "t.jsonl"
    before = earlier_trace(trace)
    proc = run_main(*args("--trace", str(trace), ticks="5000"))
    one_error_line(proc, os.strerror(errno.ENOSPC), "unchanged")
    assert trace.read_bytes() == before
    assert temp_files(small_tmpfs) == []


def test_a_read_only_disk_in_a_real_process(small_tmpfs):
    trace = small_tmpfs / "t.jsonl"
    before = earlier_trace(trace)
    assert subprocess.run(["mount", "-o", "remount,ro", str(small_tmpfs)]).returncode == 0
    proc = run_main(*args("--trace", str(trace), ticks="50"))
    one_error_line(proc, str(trace), "not writable")  # said before the run
    assert trace.read_bytes() == before


@posix_only
def test_a_folder_the_user_may_not_write_in(tmp_path):
    folder = tmp_path / "locked"
    folder.mkdir()
    trace = folder / "t.jsonl"
    before = earlier_trace(trace)
    if os.geteuid() == 0:  # permission bits do not stop root; the immutable flag does
        if shutil.which("chattr") is None or subprocess.run(
                ["chattr", "+i", str(folder)], capture_output=True).returncode != 0:
            pytest.skip("root, and chattr +i is not possible here (the in-process EACCES case "
                        "still runs)")
        undo = ["chattr", "-i", str(folder)]
    else:
        folder.chmod(0o555)
        undo = ["chmod", "755", str(folder)]
    try:
        proc = run_main(*args("--trace", str(trace), ticks="50"))
    finally:
        subprocess.run(undo, check=True)
    one_error_line(proc, str(trace), "not writable")  # said before the run
    assert trace.read_bytes() == before
    assert temp_files(folder) == []


# ----------------------------------------------------------------------------------------------
# Inputs stay protected however the path reaches them
# ----------------------------------------------------------------------------------------------

@posix_only
@pytest.mark.parametrize("how", ["symlink", "hard link"])
def test_a_link_to_an_input_is_refused(tmp_path, capsys, how):
    cfg = tmp_path / "c.toml"
    shutil.copy(CONFIG, cfg)
    before = cfg.read_bytes()
    link = tmp_path / "t.jsonl"
    link.symlink_to(cfg) if how == "symlink" else os.link(cfg, link)
    fails(capsys, ["--headless", "--ticks", "3", "--level", str(FLAT), "--config", str(cfg),
                   "--trace", str(link)], "input files")
    assert cfg.read_bytes() == before


# ----------------------------------------------------------------------------------------------
# 5. Stopped by a signal: unwind, remove the temp file, exit 128 + the signal's number
# ----------------------------------------------------------------------------------------------

STOPS = [s for s in ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGALRM")
         if hasattr(signal, s)]


@posix_only
@pytest.mark.parametrize("name", STOPS)
def test_a_signal_while_writing_leaves_the_earlier_trace_and_no_temp(tmp_path, name):
    trace = tmp_path / "t.jsonl"
    before = earlier_trace(trace)
    proc = start_main(*args("--trace", str(trace), ticks=LONG))
    wait_for(lambda: temp_files(tmp_path), "the temp file appeared", proc)
    sig = getattr(signal, name)
    proc.send_signal(sig)
    assert proc.wait(timeout=WAIT) == 128 + sig
    assert proc.stderr.read() == ""
    assert temp_files(tmp_path) == []
    assert trace.read_bytes() == before


@posix_only
def test_a_signal_ignored_by_the_parent_stays_ignored(tmp_path):
    # nohup: a closed terminal must not stop the run
    proc = start_main(*args("--trace", str(tmp_path / "t.jsonl"), ticks=LONG),
                      ignored=(signal.SIGHUP,))
    wait_for(lambda: temp_files(tmp_path), "the temp file appeared", proc)
    proc.send_signal(signal.SIGHUP)
    with pytest.raises(subprocess.TimeoutExpired):
        proc.wait(timeout=0.5)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=WAIT) == 128 + signal.SIGTERM
    assert temp_files(tmp_path) == []


# ----------------------------------------------------------------------------------------------
# 6. A stop at any moment after main.py starts, even while it imports the game, is quiet
# ----------------------------------------------------------------------------------------------

def catches(pid: int, sig: int) -> bool:
    """Whether process ``pid`` has a handler for ``sig`` (Linux: the SigCgt mask)."""
    with contextlib.suppress(OSError):
        for text in Path(f"/proc/{pid}/status").read_text().splitlines():
            if text.startswith("SigCgt:"):
                return bool(int(text.split()[1], 16) >> (sig - 1) & 1)
    return False


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux's /proc")
@pytest.mark.parametrize("delay", [0.0, 0.05, 0.2, 0.5, 1.0])
def test_ctrl_c_at_any_moment_after_start_is_quiet(tmp_path, delay):
    # Timed from the moment main.py's first statements have run (its handler for SIGUSR1 is in
    # place): the interpreter's own start-up before main.py is outside what main.py can change.
    trace = tmp_path / "t.jsonl"
    proc = start_main(*args("--trace", str(trace), ticks=LONG))
    try:
        wait_for(lambda: catches(proc.pid, signal.SIGUSR1), "main.py began", proc)
        time.sleep(delay)
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=WAIT)
        assert code == 130, f"exit {code}; stderr {proc.stderr.read()!r}"
    finally:
        if proc.poll() is None:  # never leave it running (and using the CPU) after a failure
            proc.kill()
            proc.wait()
    one_line_at_most(proc.stderr.read())
    assert temp_files(tmp_path) == [] and not trace.exists()


def test_a_stop_that_comes_back_as_another_exception_still_ends_with_the_stops_status(
        monkeypatch):
    """A stop's SystemExit turned into another exception on its way out (as a C extension's
    module set-up can do to it), or caught and the run ended normally: the status is the
    stop's, and an exception with no stop behind it is not hidden."""
    import importlib.util

    import game.cli

    spec = importlib.util.spec_from_file_location("main_entry", ROOT / "main.py")
    entry = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(entry)

    def stopped_then_broken():
        entry.STOPPED.append(signal.SIGINT)
        raise ImportError("initialization of a module raised an unreported exception")

    monkeypatch.setattr(game.cli, "main", stopped_then_broken)
    assert entry.run() == 130
    entry.STOPPED.clear()
    monkeypatch.setattr(game.cli, "main", lambda: (entry.STOPPED.append(signal.SIGTERM), 0)[1])
    assert entry.run() == 128 + signal.SIGTERM
    entry.STOPPED.clear()

    def broken():
        raise ImportError("a real fault")

    monkeypatch.setattr(game.cli, "main", broken)
    with pytest.raises(ImportError):
        entry.run()
