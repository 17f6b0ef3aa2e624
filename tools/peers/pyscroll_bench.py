"""pyscroll's renderer and pytmx's loader on the benchmark's map: one measurement, one JSON line.

tools/bench.py's worker for the pyscroll side (it starts one fresh process per round). ``render``
needs the ``peers`` dependency group (``uv run --group peers ...``); ``load`` needs only pytmx.

    python tools/peers/pyscroll_bench.py render --tmx MAP.tmx --frames 600 --warmup 10
    python tools/peers/pyscroll_bench.py load --tmx MAP.tmx

``render``: the map is loaded with ``pytmx.load_pygame`` and the renderer built as pyscroll's
documentation shows, with every option stated (the defaults of pyscroll 2.31)::

    pyscroll.BufferedRenderer(pyscroll.TiledMapData(tmx), (1280, 720), clamp_camera=True,
                              colorkey=None, alpha=False, zoom=1.0)

then centred on the camera path's first point and drawn once (it fills its buffer); all of that
is outside the timer, as our renderer's set-up is. Each frame calls ``center()`` with the camera
path's point (a view centre inside the map, so clamping never moves it) and ``draw()`` onto the
1280x720 screen, then flips, as our side does. Animated tiles run on game time, 1/60 s a frame,
on both sides (pyscroll reads ``time.time()`` for them: its module's ``time`` is given the game
clock). pyscroll draws tile layers only: the lively map's parallax and tile objects are drawn by
our side alone.

``load``: seconds for ``pytmx.load_pygame`` (the map and its tile images, converted to the
display's format), the loader a pyscroll user calls.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from importlib.metadata import version
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

import pygame  # noqa: E402
import pytmx  # noqa: E402

from tools import bench_scenario as S  # noqa: E402

OPTIONS = {"clamp_camera": True, "colorkey": None, "alpha": False, "zoom": 1.0}


class GameClock:
    """Game time, 1/60 s a frame, for pyscroll's tile animations (which read ``time.time()``):
    the same clock our side's animations run on."""

    def __init__(self) -> None:
        self.seconds = 0.0

    def time(self) -> float:
        return self.seconds


def render(tmx_path: Path, frames: int, warmup: int) -> dict:
    import pyscroll
    import pyscroll.data

    clock = GameClock()
    pyscroll.data.time = clock  # its animation clock (time.time() in pyscroll 2.31)

    pygame.display.init()
    screen = pygame.display.set_mode(S.VIEW)
    tmx = pytmx.load_pygame(str(tmx_path))
    path = S.camera_path(warmup + frames, S.VIEW,
                         (tmx.width * tmx.tilewidth, tmx.height * tmx.tileheight))
    rect = screen.get_rect()
    t0 = time.perf_counter()
    renderer = pyscroll.BufferedRenderer(pyscroll.TiledMapData(tmx), S.VIEW,
                                         time_source=clock.time, **OPTIONS)
    renderer.center(path[0])
    renderer.draw(screen, rect)  # its first, full buffer render
    setup_s = time.perf_counter() - t0
    for i, centre in enumerate(path[:warmup]):
        clock.seconds = i * S.STEP_S
        renderer.center(centre)
        renderer.draw(screen, rect)
    t0, c0 = time.perf_counter(), time.process_time()
    for i, centre in enumerate(path[warmup:], warmup):
        clock.seconds = i * S.STEP_S
        renderer.center(centre)
        renderer.draw(screen, rect)
        pygame.display.flip()
    run_s, cpu_s = time.perf_counter() - t0, time.process_time() - c0
    pygame.display.quit()
    return {"value": frames / run_s, "unit": "fps", "run_s": run_s, "setup_s": setup_s,
            "cpu_fps": frames / cpu_s,
            "pyscroll": version("pyscroll"), "options": OPTIONS}


def load(tmx_path: Path) -> dict:
    pygame.display.init()
    pygame.display.set_mode(S.VIEW)  # load_pygame converts images to the display's format
    t0 = time.perf_counter()
    pytmx.load_pygame(str(tmx_path))
    load_s = time.perf_counter() - t0
    pygame.display.quit()
    return {"value": load_s, "unit": "s", "pytmx": version("pytmx")}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    p = sub.add_parser("render")
    p.add_argument("--tmx", required=True, type=Path)
    p.add_argument("--frames", required=True, type=int)
    p.add_argument("--warmup", required=True, type=int)
    p = sub.add_parser("load")
    p.add_argument("--tmx", required=True, type=Path)
    a = ap.parse_args(argv)
    res = render(a.tmx, a.frames, a.warmup) if a.what == "render" else load(a.tmx)
    print(json.dumps(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
