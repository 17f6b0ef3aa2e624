"""Play: ``uv run main.py``. Options: ``uv run main.py --help``."""

# Before anything else, so that a stop at any moment -- even while the game's modules are still
# being imported -- ends quietly: no traceback, and no temp file left beside a --trace target.
import os
import signal
import sys
import threading

REMIND_AFTER = 5.0  # s: a stop not finished by then is finished at once (see stop_quietly)

# Ctrl-C, kill, a closed terminal, Ctrl-\, and the signals whose default is to end the process.
STOP_SIGNALS = [getattr(signal, name) for name in (
    "SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGALRM")
    if hasattr(signal, name)]


STOPPED: list[int] = []  # the stop signal received, if one was


def stop_quietly() -> None:
    """Make each stop signal unwind the program (``finally`` blocks run, a half-written trace is
    removed) and exit with status 128 + its number. A signal the parent set to be ignored
    (``nohup``, a background job) stays ignored. A second signal while unwinding ends at once."""
    installed = []

    def now(signum, _frame):
        os._exit(128 + signum)

    def unwind(signum, _frame):
        STOPPED.append(signum)
        for sig in installed:
            signal.signal(sig, now)
        # Python drops an exception raised while it runs a finaliser or a callback ("Exception
        # ignored in ..."), and the program would then go on as if never stopped. So the stop
        # is said again a little later: if the process is still alive by then, the signal comes
        # back to ``now`` and ends it.
        reminder = threading.Timer(REMIND_AFTER, os.kill, (os.getpid(), signum))
        reminder.daemon = True
        reminder.start()
        raise SystemExit(128 + signum)

    for sig in STOP_SIGNALS:
        if signal.getsignal(sig) is not signal.SIG_IGN:
            signal.signal(sig, unwind)
            installed.append(sig)


def keep_standard_fds_taken() -> None:
    """If the shell closed stdin, stdout or stderr (``>&-``), put /dev/null (read-only) in that
    slot, so no file this program opens gets the number and receives output meant for it;
    writing there fails, and ``--trace -`` reports the closed stream."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            os.open(os.devnull, os.O_RDONLY)  # takes the lowest free number: this one


def run() -> int:
    """The game's entry point, imported only now (a stop during the import is quiet too). The
    stop's SystemExit can meet code that turns it into another exception on its way out (a C
    extension's module set-up reports a failed import, for one), or be caught: once a stop signal
    has come, the exit status is the stop's, whatever reaches this frame."""
    try:
        from game.cli import main

        code = main()
    except BaseException:
        if STOPPED:
            return 128 + STOPPED[0]
        raise
    return 128 + STOPPED[0] if STOPPED else code


if __name__ == "__main__":
    stop_quietly()
    keep_standard_fds_taken()
    sys.exit(run())
