"""Build the web page: the seven resolvers side by side in a browser, with no install.

    uv run python tools/build_web.py --out DIR          # build the page into DIR
    python -m http.server -d DIR                         # serve it (any static server will do)
    uv run python tools/build_web.py --check            # build, open in headless Chromium, compare

What DIR gets, all of it served from DIR, so the page works with no network once built:

* ``index.html``, ``page.js``, ``page.css`` (``web/``): the drawing layer and the controls;
* ``pyodide/``: Python compiled to WebAssembly, the core files of the npm package ``pyodide``
  at the version pinned in ``web/package.json`` and ``web/package-lock.json`` (``npm ci`` fetches
  it into ``web/node_modules`` when it is not there yet: the one step that needs the network);
* ``app.zip``: what Python runs, unpacked into the page's file system: the game's own modules
  (``game/`` less ``game/view``, which draws with pygame), ``web/page.py``, pytmx's
  pure-Python files as installed in the project's environment (``uv sync``), ``config.toml``,
  the shipped levels and the collision lab's maps with their tilesets and pictures;
* the same maps and pictures as plain files (the browser draws the tiles from them),
  ``manifest.json`` (the maps offered, with titles, and those the browser cannot read) and
  ``licenses/``.

A map is "one the browser cannot read" when the game's own loader refuses it without the
``zstandard`` library, which has no wheel for the browser: the page names each such map in one
line instead of offering it. ``--maps MAP...`` adds maps of your own to the page (each with the
tilesets and pictures it uses, under ``maps/``).

``--check`` builds into a temporary folder, serves it on 127.0.0.1, opens it in Debian's
headless Chromium (``tools/headless_chromium.py``: the DevTools protocol over a pipe, standard
library only), replays input scripts on every shipped level and every lab scenario through the
page's replay links (``index.html?level=...&input=...&ticks=...&trace=1``), and compares each
trace the page writes with the one ``main.py --headless --ghosts --trace`` writes, byte for byte.
It also checks that the page asked for nothing but the local server, that a zstd-compressed map
is named in one line, and reads the page's own ms-per-tick figure. It prints what it compared;
exit code 0 when everything matched, 1 on any difference. ``--screenshot PNG`` (with
``--check``) also saves a picture of the page.

A bad option, a missing tool (npm, Chromium) or an ``--out`` folder that holds something else
ends with exit code 2 and one ``error:`` line; nothing of yours is overwritten: ``--out`` must be
new, empty, or a folder this tool built (it holds ``.tilecollide-web``).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import hashlib
import http.server
import importlib.metadata
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
from game.errors import UserError, quote_path
from game.maps.level import load_level
from web import page

WEB = ROOT / "web"
PAGE_FILES = ("index.html", "page.js", "page.css")
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")
MARK = ".tilecollide-web"  # in a folder this tool built: it may be replaced
LEVEL_SUFFIXES = (".tmx", ".tmj", ".json")
ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # every file in app.zip: the same bytes from the same checkout
EXIT_DIFFERENT, EXIT_USAGE = 1, 2


class Refused(Exception):
    """The build cannot go on: one line saying what to do."""


# ----------------------------------------------------------------------------------------------
# Building
# ----------------------------------------------------------------------------------------------

def pinned_pyodide() -> str:
    lock = json.loads((WEB / "package-lock.json").read_text(encoding="utf-8"))
    return lock["packages"]["node_modules/pyodide"]["version"]


def pyodide_files() -> Path:
    """web/node_modules/pyodide at the pinned version, fetched with ``npm ci`` if needed."""
    want = pinned_pyodide()
    folder = WEB / "node_modules" / "pyodide"

    def installed() -> str | None:
        try:
            return json.loads((folder / "package.json").read_text(encoding="utf-8"))["version"]
        except (OSError, ValueError, KeyError):
            return None

    if installed() != want or not all((folder / f).is_file() for f in PYODIDE_FILES):
        npm = shutil.which("npm")
        if npm is None:
            raise Refused("npm not found: install Node.js and npm (Debian: apt-get install "
                          "npm), which fetch the pinned Pyodide, then run again")
        print(f"npm ci: fetching pyodide {want} into web/node_modules", flush=True)
        proc = subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
                              cwd=WEB, capture_output=True, text=True)
        if proc.returncode != 0 or installed() != want:
            last = (proc.stderr.strip().splitlines() or ["no message"])[-1]
            raise Refused(f"npm ci in web/ failed ({last}); it needs the network once, to fetch "
                          f"pyodide {want}")
    return folder


def shipped_maps() -> list[Path]:
    """The shipped levels, then the collision lab's scenarios."""
    return ([p for p in sorted((ROOT / "levels").iterdir()) if p.suffix in LEVEL_SUFFIXES]
            + sorted((ROOT / "levels" / "lab").glob("*.tmx")))


def app_files() -> dict[str, Path]:
    """What Python needs in the page, by its path there (relative to the page's folder)."""
    files: dict[str, Path] = {}
    for p in sorted((ROOT / "game").rglob("*.py")):
        rel = p.relative_to(ROOT)
        if rel.parts[1] != "view" and "__pycache__" not in rel.parts:
            files[rel.as_posix()] = p
    files["web/page.py"] = WEB / "page.py"
    files["config.toml"] = ROOT / "config.toml"
    dist = importlib.metadata.distribution("pytmx")
    for f in dist.files or ():
        if f.parts[0] == "pytmx" and f.suffix == ".py":
            files[f.as_posix()] = Path(dist.locate_file(f))
    if "pytmx/__init__.py" not in files:
        raise Refused("pytmx is not installed in this environment: run 'uv sync' first")
    return files


def data_files(extra: list[Path]) -> dict[str, Path]:
    """The maps, their tilesets and pictures, and the game's sprites, by path in the page."""
    files: dict[str, Path] = {}
    for p in sorted((ROOT / "levels").rglob("*")):
        if p.is_file() and p.suffix in (*LEVEL_SUFFIXES, ".tsx", ".tsj", ".tx", ".tj", ".png"):
            files[p.relative_to(ROOT).as_posix()] = p
    for p in sorted((ROOT / "assets").glob("*.png")):
        files[p.relative_to(ROOT).as_posix()] = p
    for path in extra:
        try:  # read with everything the desktop has, to know every file it uses
            level = load_level(path)
        except UserError as exc:
            raise Refused(f"--maps: {exc}") from None
        used = [Path(f).resolve() for f in level.files]
        base = Path(os.path.commonpath([f.parent for f in used]))
        for f in used:
            rel = "maps/" + f.relative_to(base).as_posix()
            if rel in files and files[rel].read_bytes() != f.read_bytes():
                raise Refused(f"--maps: two maps need different files at {rel}; build them "
                              "into separate pages")
            files[rel] = f
    return files


@contextlib.contextmanager
def as_the_browser():
    """The game's loader as it runs in the page: without the zstandard library."""
    saved = sys.modules.get("zstandard", False)
    sys.modules["zstandard"] = None  # type: ignore[assignment]  # import now raises ImportError
    try:
        yield
    finally:
        if saved is False:
            del sys.modules["zstandard"]
        else:
            sys.modules["zstandard"] = saved


def write_zip(path: Path, files: dict[str, Path]) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, files[name].read_bytes())


def check_out(out: Path) -> None:
    """``--out`` must be new, empty, or a page this tool built."""
    if out.exists() and not out.is_dir():
        raise Refused(f"--out {quote_path(out)} is a file; give a folder")
    if out.is_dir() and any(out.iterdir()) and not (out / MARK).is_file():
        raise Refused(f"--out {quote_path(out)} holds files this tool did not build; give a "
                      "new or empty folder (nothing was written)")
    if not out.parent.is_dir():
        raise Refused(f"--out {quote_path(out)}: folder {quote_path(out.parent)} does not exist")


def build(out: Path, extra: list[Path] = ()) -> dict:
    """Build the page into ``out`` (see the module docstring); returns its manifest."""
    check_out(out)
    extra = [Path(p) for p in extra]
    pyodide = pyodide_files()
    staging = Path(tempfile.mkdtemp(prefix=".web-build-", dir=out.parent))
    try:
        staging.chmod(0o755)  # a web server running as another user reads it
        for name in PAGE_FILES:
            shutil.copyfile(WEB / name, staging / name)
        (staging / "pyodide").mkdir()
        for name in PYODIDE_FILES:
            shutil.copyfile(pyodide / name, staging / "pyodide" / name)
        data = data_files(extra)
        for name, src in data.items():
            (staging / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, staging / name)
        maps = [staging / p.relative_to(ROOT) for p in shipped_maps()]
        maps += [staging / name for name, src in data.items()
                 if name.startswith("maps/") and src.resolve() in {p.resolve() for p in extra}]
        cwd = os.getcwd()
        with as_the_browser():
            os.chdir(staging)  # the map's paths as the page names them
            try:
                catalogue = page.catalogue([m.relative_to(staging) for m in maps], Path("."))
            finally:
                os.chdir(cwd)
        write_zip(staging / "app.zip", {**app_files(), **data})
        licences = staging / "licenses"
        licences.mkdir()
        dist = importlib.metadata.distribution("pytmx")
        for f in dist.files or ():
            if f.name.upper().startswith("LICENSE"):
                shutil.copyfile(dist.locate_file(f), licences / "pytmx-LICENSE.txt")
        sizes = {f"pyodide/{n}": (staging / "pyodide" / n).stat().st_size for n in PYODIDE_FILES}
        sizes["app.zip"] = (staging / "app.zip").stat().st_size
        manifest = {"pyodide": pinned_pyodide(), "maps": catalogue["maps"],
                    "unreadable": catalogue["unreadable"], "sizes": sizes}
        (staging / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n",
                                               encoding="utf-8")
        (staging / MARK).write_text("built by tools/build_web.py; replaced by its next build\n",
                                    encoding="utf-8")
        old = None
        if out.exists():
            old = out.parent / f"{staging.name}-old"
            out.rename(old)
        staging.rename(out)
        if old is not None:
            shutil.rmtree(old)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return manifest


# ----------------------------------------------------------------------------------------------
# Checking in headless Chromium
# ----------------------------------------------------------------------------------------------

# Input scripts replayed on every shipped level: a tour of the keys, and a seeded random one.
TOUR = """# run, jump, throw, turn back, drop through, run on
0 right
30 right+jump
52 right
90 right+jump
100 right
150 right+throw
152 right
200 -
210 left
240 left+jump
262 left
300 right
330 down+jump
345 right
400 right+jump
430 right
500 -
"""
TOUR_TICKS = 600
RANDOM_TICKS = 900


def random_script(seed: int, ticks: int) -> str:
    """Keys that change every few ticks, mostly running and jumping: a repeatable scramble."""
    rng = random.Random(seed)
    choices = ["right", "right", "right+jump", "left", "left+jump", "jump", "-", "down+jump",
               "right+throw", "down", "up"]
    lines, tick = [f"# random keys, seed {seed}"], 0
    while tick < ticks:
        lines.append(f"{tick} {rng.choice(choices)}")
        tick += rng.randint(3, 40)
    return "\n".join(lines) + "\n"


def desktop_trace(level: str, script: str, ticks: int, folder: Path) -> bytes:
    """What ``main.py --headless --ghosts --trace -`` writes for this run."""
    path = folder / f"script-{hashlib.sha256(script.encode()).hexdigest()[:12]}.txt"
    path.write_text(script, encoding="utf-8")
    proc = subprocess.run([sys.executable, str(ROOT / "main.py"), "--headless", "--ghosts",
                           "--ticks", str(ticks), "--level", level, "--input", str(path),
                           "--trace", "-"], cwd=ROOT, capture_output=True)
    if proc.returncode != 0:
        raise Refused(f"main.py --headless failed on {level}: "
                      f"{proc.stderr.decode(errors='replace').strip()}")
    return proc.stdout


def zstd_copy(folder: Path) -> Path:
    """A copy of the first shipped level whose tile layers are zstd-compressed (with its tileset
    and picture beside it, as in the checkout)."""
    import base64
    import xml.etree.ElementTree as ET

    import zstandard

    src = shipped_maps()[0]
    for rel in ("levels/terrain.tsx", "assets/terrain.png"):
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / rel, folder / rel)
    tree = ET.parse(src)
    for props in tree.getroot().findall("properties"):
        for prop in props.findall("property"):
            if prop.get("name") == "next_level":  # the next level is not beside the copy
                props.remove(prop)
    for data in tree.getroot().iter("data"):
        if data.get("encoding") != "csv":
            raise Refused(f"{src}: expected csv tile layers to recompress")
        gids = [int(v) for v in data.text.replace("\n", "").split(",") if v.strip()]
        raw = b"".join(g.to_bytes(4, "little") for g in gids)
        data.set("encoding", "base64")
        data.set("compression", "zstd")
        data.text = base64.b64encode(zstandard.ZstdCompressor().compress(raw)).decode()
    out = folder / "levels" / "zstd_first_steps.tmx"
    tree.write(out, encoding="UTF-8", xml_declaration=True)
    return out


class Server:
    """DIR on http://127.0.0.1:<free port>/, in a thread, quiet."""

    def __init__(self, folder: Path) -> None:
        class Handler(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

        self.httpd = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(Handler, directory=str(folder)))
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def link(base: str, **query) -> str:
    """The page's address with ``query`` (URL-encoded)."""
    return base + "index.html?" + urllib.parse.urlencode(query, quote_via=urllib.parse.quote)


def desktop_lab(folder: Path) -> dict[str, list[str]]:
    """Each lab scenario's cells (one per resolver) as ``main.py --lab`` writes them in lab.md."""
    proc = subprocess.run([sys.executable, str(ROOT / "main.py"), "--lab", "--out",
                           str(folder / "lab")], cwd=ROOT, capture_output=True, text=True)
    if proc.returncode != 0:
        raise Refused(f"main.py --lab failed: {proc.stderr.strip()}")
    rows = {}
    for line in (folder / "lab" / "lab.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) > 3 and cells[1] in ("yes", "no"):
            rows[cells[0]] = cells[3:]
    return rows


class Page:
    """The built page in headless Chromium: open a link, wait for it, read it."""

    def __init__(self, browser, base: str) -> None:
        self.browser, self.base = browser, base

    def open(self, states: tuple[str, ...] = ("done", "error"), **query) -> tuple[str, str]:
        """Open ``index.html?query`` and wait until it is in one of ``states`` (done: a replay
        ended; ready: playing; error: refused); (its state, and its trace when done, else its
        message line)."""
        self.browser.open(link(self.base, **query))
        return self.wait(states)

    def wait(self, states: tuple[str, ...] = ("done", "error")) -> tuple[str, str]:
        state = self.browser.wait_for(f"{list(states)!r}.includes(document.body.dataset.state)"
                                      " && document.body.dataset.state")
        return state, self.text("trace" if state == "done" else "message")

    def text(self, element: str) -> str:
        return self.browser.value(f"document.getElementById({element!r}).textContent")

    def elsewhere(self) -> list[str]:
        """What the page asked for from anywhere but the local server."""
        return [u for u in self.browser.requested()
                if not u.startswith((self.base, "data:", "blob:"))]

    def pick(self, path: str) -> tuple[str, str]:
        """Choose ``path`` in the page's map list, as a visitor does; (state, message)."""
        self.browser.value(f"(() => {{ const s = document.getElementById('map'); "
                           f"s.value = {path!r}; s.dispatchEvent(new Event('change')); }})()")
        return self.wait(("ready", "error"))

    def tick(self) -> int:
        return int(self.browser.value("document.body.dataset.tick") or -1)

    def press(self, code: str, hold: float = 0.0) -> None:
        self.browser.key(code, True)
        time.sleep(hold)
        self.browser.key(code, False)

    def lab_cells(self) -> list[str]:
        return self.browser.value("[...document.querySelectorAll('#resolvers tbody .lab')]"
                                  ".map((td) => td.textContent)")


def check(screenshot: Path | None = None) -> int:
    from concurrent.futures import ThreadPoolExecutor

    from tools.headless_chromium import BrowserError, Chromium, find_chromium

    chromium = find_chromium()
    if chromium is None:
        raise Refused("chromium not found: install Debian's chromium (apt-get install "
                      "chromium), then run again")
    differences, compared = 0, 0

    def report(same: bool, what: str) -> None:
        nonlocal differences, compared
        compared += 1
        differences += not same
        print(f"{'same     ' if same else 'DIFFERENT'} {what}", flush=True)

    with tempfile.TemporaryDirectory(prefix="tilecollide-web-check-") as tmp, \
            ThreadPoolExecutor(max_workers=2) as pool:
        tmp = Path(tmp)
        t0 = time.monotonic()
        manifest = build(tmp / "site")
        print(f"built the page in {time.monotonic() - t0:.1f} s: pyodide {manifest['pyodide']}, "
              f"{len(manifest['maps'])} maps, app.zip {manifest['sizes']['app.zip']:,} bytes")
        # and again with a zstd-compressed map of its own (--maps), which it cannot read
        with_zstd = build(tmp / "zstd-site", [zstd_copy(tmp / "zstd")])
        levels = [m["path"] for m in manifest["maps"] if not m["lab"]]
        scenarios = [m["path"] for m in manifest["maps"] if m["lab"]]
        runs = []
        for i, level in enumerate(levels):
            runs.append((level, "a tour of the keys", TOUR, TOUR_TICKS))
            runs.append((level, f"random keys (seed {i})", random_script(i, RANDOM_TICKS),
                         RANDOM_TICKS))
        # The desktop's answers, worked out while the browser works.
        traces = [pool.submit(desktop_trace, lv, script, ticks, tmp)
                  for lv, _, script, ticks in runs]
        lab_rows = pool.submit(desktop_lab, tmp)
        server, zstd_server = Server(tmp / "site"), Server(tmp / "zstd-site")
        try:
            with Chromium(chromium) as browser:
                page_ = Page(browser, server.url)
                print("replay links (&trace=1) against main.py --headless --ghosts --trace:")
                for (level, name, script, ticks), want in zip(runs, traces):
                    want = want.result()
                    state, got = page_.open(level=level, input=script, ticks=ticks, trace=1)
                    elsewhere = page_.elsewhere()
                    got_bytes = got.encode("utf-8")
                    if elsewhere:
                        report(False, f"{level}, {name}: the page asked for {elsewhere[0]}")
                    elif state != "done":
                        report(False, f"{level}, {name}: the page stopped: {got}")
                    elif got_bytes != want:
                        report(False, f"{level}, {name}, {ticks} ticks: "
                               + first_difference(want, got_bytes))
                    else:
                        lines = want.count(b"\n")
                        report(True, f"{level}, {name}, {ticks} ticks x 7 resolvers: "
                               f"{lines} lines, sha256 "
                               f"{hashlib.sha256(want).hexdigest()[:16]}")
                print("each lab scenario, picked in the page, against main.py --lab's lab.md:")
                page_.open(level=scenarios[0])
                rows = lab_rows.result()
                for path in scenarios:
                    state, said = page_.pick(path)
                    cells = page_.lab_cells() if state == "ready" else [said]
                    want = rows.get(Path(path).stem)
                    report(cells == want, f"{path}: {' | '.join(cells)}"
                           + ("" if cells == want else f" (lab.md: {want})"))
                print("played with the keys, then its 'Copy a link to this run' replayed:")
                play_and_link(page_, tmp, report)
                print("a map the browser cannot read (a page built with --maps of one):")
                unreadable = next(u["path"] for u in with_zstd["unreadable"])
                zstd_page = Page(browser, zstd_server.url)
                state, said = zstd_page.open(level=unreadable)
                listed = zstd_page.text("unreadable")
                report(state == "error" and said.startswith("error: ") and unreadable in said
                       and "zstd" in said and "\n" not in said and unreadable in listed
                       and not zstd_page.elsewhere(), f"{unreadable}: named in one line: {said}")
                print("links with a mistake in them:")
                for query, said in (({"input": "0 fly\n", "ticks": "60"},
                                     "error: link's input: line 1: keys 'fly'"),
                                    ({"ticks": "ten"}, "error: link: ticks='ten'")):
                    state, line = page_.open(level=levels[0], **query)
                    report(state == "error" and line.startswith(said) and "\n" not in line,
                           f"{urllib.parse.urlencode(query)}: {line}")
                print("the page's own figure, replaying in real time at 60 ticks a second:")
                for level in ("levels/04_crowd.tmx", "levels/02_every_tile.tmx"):
                    page_.open(level=level, input=TOUR, ticks=240)
                    ms = browser.value("document.getElementById('speed').dataset.msPerTick")
                    print(f"          {level}: {ms} ms per tick for the seven worlds (a quarter "
                          f"of a frame is 4.17 ms)")
                if screenshot is not None:
                    page_.open(level=SHOT["level"], input=SHOT["input"], ticks=SHOT["ticks"],
                               you=SHOT["you"], debug=1)
                    time.sleep(0.3)
                    screenshot.write_bytes(browser.screenshot(down_to=".hint"))
                    print(f"wrote {screenshot}")
        except BrowserError as exc:
            report(False, f"headless Chromium: {exc}")
        finally:
            server.close()
            zstd_server.close()
    print(f"{'no differences' if not differences else f'{differences} difference(s)'} in "
          f"{compared} comparisons")
    return EXIT_DIFFERENT if differences else 0


def play_and_link(page_: Page, tmp: Path, report) -> None:
    """Play level 1 with the keyboard (run, jump), pause, step one tick, switch resolvers, take
    the page's link to the run, and check that the link replays what main.py gives."""
    level = "levels/01_first_steps.tmx"
    page_.open(("ready", "error"), level=level)
    browser = page_.browser
    browser.key("ArrowRight", True)
    time.sleep(0.6)
    page_.press("Space", 0.3)
    time.sleep(0.4)
    browser.key("ArrowRight", False)
    page_.press("KeyP")
    time.sleep(0.2)
    paused = page_.tick()
    page_.press("Period")
    stepped = browser.wait_for(f"document.body.dataset.tick > {paused} && "
                               "document.body.dataset.tick", timeout=10)
    time.sleep(0.2)
    report(int(stepped) == paused + 1 and page_.tick() == paused + 1,
           f"P paused at tick {paused}; '.' stepped to tick {stepped}, and no further")
    page_.press("Tab")
    you = browser.value("document.querySelector('#resolvers tr.you .name button').textContent")
    report(you == "corners", f"Tab: you play {you} (after axis)")
    browser.value("document.getElementById('link').click()")
    url = browser.wait_for("document.getElementById('link-text').value", timeout=10)
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query))
    played = "right" in query.get("input", "") and "jump" in query.get("input", "")
    ticks = int(query.get("ticks", "0"))
    want = desktop_trace(level, query.get("input", ""), ticks, tmp)
    state, got = page_.open(**{**query, "trace": "1"})
    same = state == "done" and got.encode("utf-8") == want and played and query["level"] == level
    report(same, f"the link replays {ticks} ticks of your keys "
           f"({', '.join(query.get('input', '').splitlines()[1:])}) as main.py does"
           + ("" if same else f": {state}, {first_difference(want, got.encode('utf-8'))}"))


# The README's picture: on Every Tile, sweep runs over a pit the others fall into; debug view on.
SHOT = {"level": "levels/02_every_tile.tmx", "input": "0 right\n", "ticks": 232,
        "you": "sweep"}


def first_difference(want: bytes, got: bytes) -> str:
    a, b = want.splitlines(), got.splitlines()
    for n, (x, y) in enumerate(zip(a, b), 1):
        if x != y:
            return (f"line {n} differs: desktop {x.decode()[:160]} / page "
                    f"{y.decode(errors='replace')[:160]}")
    return f"{len(a)} lines on the desktop, {len(b)} in the page"


# ----------------------------------------------------------------------------------------------

class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        raise Refused(f"command line: {message} (see --help)")


def main(argv: list[str] | None = None) -> int:
    p = _Parser(prog="tools/build_web.py", description="Build the web page (see the module's "
                "docstring), or build it and check it in headless Chromium.")
    p.add_argument("--out", metavar="DIR", help="build the page into DIR (new, empty, or an "
                   "earlier build)")
    p.add_argument("--check", action="store_true", help="build into a temp folder, replay "
                   "input scripts in headless Chromium, compare with main.py's traces")
    p.add_argument("--maps", nargs="+", metavar="MAP", default=[], help="--out: also put these "
                   "maps (with their tilesets and pictures) in the page")
    p.add_argument("--screenshot", metavar="PNG", help="--check: also save a picture of the page")
    try:
        args = p.parse_args(argv)
        if args.check == (args.out is not None):
            raise Refused("command line: give --out DIR or --check (see --help)")
        if args.check and args.maps:
            raise Refused("command line: --maps goes with --out (--check uses the shipped maps)")
        if args.screenshot and not args.check:
            raise Refused("command line: --screenshot goes with --check")
        if args.check:
            shot = Path(args.screenshot) if args.screenshot else None
            if shot is not None and (shot.suffix.lower() != ".png" or not shot.parent.is_dir()):
                raise Refused(f"--screenshot {quote_path(shot)}: give a .png in an existing "
                              "folder")
            return check(shot)
        for m in args.maps:
            if not Path(m).is_file():
                raise Refused(f"--maps {quote_path(m)}: not found; give a Tiled map (.tmx)")
        manifest = build(Path(args.out), [Path(m) for m in args.maps])
        print(f"built {args.out}: pyodide {manifest['pyodide']}, {len(manifest['maps'])} maps"
              + (f", {len(manifest['unreadable'])} the browser cannot read"
                 if manifest["unreadable"] else "")
              + f"; serve it with: python -m http.server -d {args.out}")
        return 0
    except Refused as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
