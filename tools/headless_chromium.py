"""A tiny client for Debian's headless Chromium, with Python's standard library alone.

Chromium speaks its DevTools protocol (CDP: JSON commands and events) over a pair of pipes when
started with ``--remote-debugging-pipe``: it reads commands from its file descriptor 3 and writes
answers and events to its descriptor 4, each message ending in a NUL byte. That needs no
WebSocket, no port and no package from npm or PyPI (playwright would bring its own browser build
or need a version matched to Debian's), so ``tools/build_web.py --check`` runs wherever Debian's
``chromium`` is installed. Only what the check uses is here: open a page, wait for something in
it, read a value out of it, list the requests it made, and take a screenshot.

Chromium is started with the options that keep it from reaching for the network on its own
(background networking, component updates, sync, QUIC) and a fresh profile folder, which is
removed afterwards: in a closed network it would otherwise wait on those requests.
"""

from __future__ import annotations

import base64
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

OPTIONS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           "--disable-default-apps", "--mute-audio", "--remote-debugging-pipe")
# A few keys as the DevTools protocol sends them: DOM code -> (DOM key, Windows key number).
KEYS = {"ArrowRight": ("ArrowRight", 39), "ArrowLeft": ("ArrowLeft", 37), "Space": (" ", 32),
        "KeyP": ("p", 80), "Period": (".", 190), "Tab": ("Tab", 9)}
NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


class BrowserError(Exception):
    """Chromium went away, answered with an error, or a page did not get where it was asked."""


def find_chromium() -> str | None:
    for name in NAMES:
        path = shutil.which(name)
        if path:
            return path
    return None


class Chromium:
    """One headless Chromium and one tab in it (use as a context manager)."""

    def __init__(self, executable: str, size: tuple[int, int] = (1280, 1000)) -> None:
        self.profile = tempfile.mkdtemp(prefix="tilecollide-chromium-")
        to_child, self._to_browser = os.pipe()  # we write commands, it reads them on fd 3
        self._from_browser, from_child = os.pipe()  # it writes on fd 4, we read

        def pipes_on_3_and_4() -> None:  # in the child, before Chromium starts
            a, b = os.dup(to_child), os.dup(from_child)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.log = open(Path(self.profile) / "chromium.log", "w+b")
        try:
            self.proc = subprocess.Popen(
                [executable, *OPTIONS, f"--user-data-dir={self.profile}",
                 f"--window-size={size[0]},{size[1]}", "about:blank"],
                pass_fds=(3, 4), preexec_fn=pipes_on_3_and_4, stdin=subprocess.DEVNULL,
                stdout=self.log, stderr=self.log)
        finally:
            os.close(to_child)
            os.close(from_child)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict] = []
        self.session = ""
        target = self.send("Target.createTarget", {"url": "about:blank"}, session=None)
        self.session = self.send("Target.attachToTarget", {"targetId": target["targetId"],
                                                           "flatten": True},
                                 session=None)["sessionId"]
        for domain in ("Page", "Runtime", "Network"):
            self.send(f"{domain}.enable")
        self.send("Emulation.setDeviceMetricsOverride", {"width": size[0], "height": size[1],
                                                         "deviceScaleFactor": 1,
                                                         "mobile": False})

    def __enter__(self) -> Chromium:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        try:
            if self.proc.poll() is None:
                try:
                    self.send("Browser.close", session=None, timeout=5)
                except (BrowserError, OSError):
                    pass
                try:
                    self.proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait()
        finally:
            for fd in (self._to_browser, self._from_browser):
                try:
                    os.close(fd)
                except OSError:
                    pass
            self.log.close()
            shutil.rmtree(self.profile, ignore_errors=True)

    # --- the protocol ------------------------------------------------------------------------

    def send(self, method: str, params: dict | None = None, session: str | None = "",
             timeout: float = 60.0) -> dict:
        """Send one command (to the tab unless ``session`` is None) and wait for its answer;
        events that come meanwhile are kept in :attr:`events`."""
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session or self.session
        data = json.dumps(message).encode() + b"\0"
        try:
            while data:
                data = data[os.write(self._to_browser, data):]
        except BrokenPipeError:
            raise BrowserError(f"Chromium has stopped ({self._tail()})") from None
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error'].get('message')}")
                return reply.get("result", {})
            self.events.append(reply)

    def _read(self, deadline: float) -> dict:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._from_browser], [], [], left)[0]:
                raise BrowserError("Chromium did not answer in time")
            chunk = os.read(self._from_browser, 1 << 20)
            if not chunk:
                raise BrowserError(f"Chromium has stopped ({self._tail()})")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(raw)

    def _tail(self) -> str:
        self.log.flush()
        self.log.seek(0)
        lines = [ln for ln in self.log.read().decode("utf-8", "replace").splitlines()
                 if "dbus" not in ln]
        return lines[-1].strip() if lines else f"exit code {self.proc.poll()}"

    # --- what the check does -----------------------------------------------------------------

    def open(self, url: str) -> None:
        self.events.clear()
        self.send("Page.navigate", {"url": url})

    def value(self, expression: str):
        """The value of a JavaScript expression in the page (JSON-able)."""
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": True})
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression}: {result['exceptionDetails'].get('text')}")
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 180.0, every: float = 0.1):
        """Poll ``expression`` until it is truthy; its value."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                value = self.value(expression)
            except BrowserError:  # the page is still being replaced by the new one
                value = None
            if value:
                return value
            thrown = [e for e in self.events if e.get("method") == "Runtime.exceptionThrown"]
            if thrown:
                raise BrowserError("the page stopped on an error: " + self.page_errors()[0])
            if time.monotonic() > deadline:
                raise BrowserError(f"waited {timeout:g} s for {expression}; the page said: "
                                   + "; ".join(self.page_errors()[-3:]))
            time.sleep(every)

    def requested(self) -> list[str]:
        """Every URL the page asked for since it was opened."""
        return [e["params"]["request"]["url"] for e in self.events
                if e.get("method") == "Network.requestWillBeSent"]

    def page_errors(self) -> list[str]:
        """The page's uncaught exceptions and console errors since it was opened."""
        out = []
        for e in self.events:
            if e.get("method") == "Runtime.exceptionThrown":
                d = e["params"]["exceptionDetails"]
                out.append((d.get("exception") or {}).get("description") or d.get("text", ""))
            elif (e.get("method") == "Runtime.consoleAPICalled"
                  and e["params"].get("type") == "error"):
                out.append(" ".join(str(a.get("value", a.get("description", "")))
                                    for a in e["params"].get("args", [])))
        return out

    def key(self, code: str, down: bool) -> None:
        """Press (``down``) or let go of a key, named as the DOM's ``KeyboardEvent.code``."""
        key, number = KEYS[code]
        self.send("Input.dispatchKeyEvent", {"type": "keyDown" if down else "keyUp",
                                             "code": code, "key": key,
                                             "windowsVirtualKeyCode": number})

    def screenshot(self, down_to: str | None = None) -> bytes:
        """The page as a PNG: all of it, or down to the bottom of the element the CSS selector
        ``down_to`` names."""
        height = int(self.value("document.documentElement.scrollHeight") if down_to is None
                     else self.value(f"Math.ceil(document.querySelector({down_to!r})"
                                     ".getBoundingClientRect().bottom + window.scrollY + 12)"))
        width = int(self.value("document.documentElement.scrollWidth"))
        data = self.send("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}})["data"]
        return base64.b64decode(data)
