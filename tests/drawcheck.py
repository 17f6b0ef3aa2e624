"""What the headless run accepts, the window and ``--render-map`` draw: one check for both,
run as a script in a process of its own (``tests/drawing.py`` starts it, held to 1 GiB).

    python tests/drawcheck.py MAP [--play] [--declare JSON] [--reload-from GOOD] OUT_FOLDER

With ``--play`` (the map plays headless): the window plays it for a few frames (the App, as the
command line starts it), then its renderer draws views of the window's size all over its
picture and beyond, at several animation times, with parallax layers wherever a camera there
puts them; with ``--reload-from GOOD``, the window first plays GOOD (a map in the same folder),
then MAP is saved over it and hot reloaded: the window must go on, and its trace must hold
every tick it ran. Then ``main.py --render-map MAP --out OUT_FOLDER/map.png``.

Prints one JSON line: what each part ended in (``window``: "ok", or the error line of a level
the window refused; ``render``: the exit code and standard error of --render-map).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ["TILECOLLIDE_NO_SETTINGS"] = "1"

import pygame  # noqa: E402

from game import config  # noqa: E402
from game.cli import main  # noqa: E402
from game.config import MapConfig  # noqa: E402
from game.view.app import App  # noqa: E402
from game.view.render import MapRenderer, TileImages, picture_bounds  # noqa: E402

VIEW = (640, 360)  # the window's scene: what its renderer draws each frame
TICKS = 240  # ticks the window plays when it hot reloads (all of them in its trace)


def settings(declare: dict) -> config.Config:
    cfg = config.load(ROOT / "config.toml")
    cfg = replace(cfg, display=replace(cfg.display, width=VIEW[0] * 2, height=VIEW[1] * 2,
                                       scale=2, vsync=False, hot_reload=False))
    if declare:
        cfg = replace(cfg, map=replace(MapConfig(), **{k: tuple(v) if isinstance(v, list)
                                                       else v for k, v in declare.items()}))
    return cfg


def play(path: Path, cfg: config.Config) -> str:
    """The window plays ``path`` for a few frames, and its renderer pans all over the map."""
    app = App(cfg, path, max_frames=20, frame_time=1 / 60)
    level, images = app.world.level, app.play.images
    renderer = MapRenderer(level, images)
    bounds = picture_bounds(level)
    view = pygame.Surface(VIEW)
    xs = [bounds.left - VIEW[0], bounds.left, bounds.centerx - VIEW[0] // 2,
          bounds.right - VIEW[0], bounds.right]
    ys = [bounds.top - VIEW[1], bounds.top, bounds.centery - VIEW[1] // 2,
          bounds.bottom - VIEW[1], bounds.bottom]
    for t, (x, y) in enumerate((x, y) for y in ys for x in xs):
        renderer.update(t * 0.137)
        renderer.draw(view, (x, y))
        renderer.draw_front(view, (x, y))
    assert app.run() == 0
    pygame.init()
    return "ok"


def reload(path: Path, good: Path, cfg: config.Config) -> dict:
    """Play ``good`` saved as ``path``, then ``path``'s own map saved over it, hot reloaded."""
    text = path.read_bytes()
    shutil.copyfile(good, path)
    traced: list[int] = []
    app = App(cfg, path, max_frames=TICKS, frame_time=1 / 60, max_ticks=TICKS,
              trace=lambda records, level: traced.append(len(records)))
    for _ in range(TICKS // 2):
        app.frame(1 / 60)
    before = app.world.level
    path.write_bytes(text)
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))  # a later mtime
    app.play.hot_reload_check()
    swapped = app.world.level is not before
    error = app.play.error_line
    app.max_frames = TICKS
    assert app.run() == 0
    pygame.init()
    return {"reloaded": swapped, "reload_error": error, "traced": traced}


def render(path: Path, out: Path) -> dict:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["--render-map", str(path), "--out", str(out / "map.png")])
    lines = [line for line in err.getvalue().splitlines() if not line.startswith("note: ")]
    return {"render": code, "render_errors": lines}


def check(argv: list[str]) -> dict:
    args = list(argv)
    declare, good = {}, None
    if "--declare" in args:
        i = args.index("--declare")
        declare = json.loads(args[i + 1])
        del args[i:i + 2]
    if "--reload-from" in args:
        i = args.index("--reload-from")
        good = Path(args[i + 1])
        del args[i:i + 2]
    playable = "--play" in args
    path, out = (Path(a) for a in args if a != "--play")
    pygame.init()
    got: dict = {}
    cfg = settings(declare)
    with contextlib.redirect_stderr(io.StringIO()):
        if good is not None:
            got.update(reload(path, good, cfg))
        if playable:
            got["window"] = play(path, cfg)
    got.update(render(path, out))
    return got


if __name__ == "__main__":
    print(json.dumps(check(sys.argv[1:])))
