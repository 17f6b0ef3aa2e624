"""Play a level in a real window from an input script and save what the window shows.

    xvfb-run -a -s "-screen 0 1280x720x24" uv run python tools/screenshot.py \\
        --level levels/01_first_steps.tmx --input SCRIPT --seconds 3 --out shot.png [--debug]
        [--window 800x450]

Also ``--render-map OUT.png``: the whole level at scale 1 over the sky colour, for docs; and
``--title [--keys down,right] [--levels-dir DIR]``: the title screen, after pressing those keys
(pygame's key names, comma-separated) on its first frame. ``--settings PATH`` reads (and
writes) that remembered-settings file, e.g. to show best times on the title screen.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
from game import config
from game.errors import UserError
from game.sim.inputs import load_script


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # a bad option is one 'error:' line, like main.py's
        raise UserError("command line", f"{message} (see --help)")


def main(argv: list[str] | None = None) -> int:
    """Like main.py: a mistake in what was asked for is one ``error:`` line and exit code 2."""
    try:
        return _main(argv)
    except UserError as exc:
        print(exc.line(), file=sys.stderr)
        return 2


def _main(argv: list[str] | None) -> int:
    ap = _Parser(description=__doc__.split("\n")[0])
    ap.add_argument("--level", default=None)
    ap.add_argument("--input", default=None, help="input script (ticks) to play")
    ap.add_argument("--resolver", default=None)
    ap.add_argument("--seconds", type=float, default=2.0, help="how long to run (60 fps frames)")
    ap.add_argument("--out", default="screenshot.png")
    ap.add_argument("--debug", action="store_true")
    ap.add_argument("--window", default=None, metavar="WxH", help="the window's size in px")
    ap.add_argument("--ghosts", action="store_true", help="show every other resolver as a ghost")
    ap.add_argument("--pause-at", type=int, default=None, metavar="TICK",
                    help="pause at that tick (the picture is taken paused)")
    ap.add_argument("--render-map", metavar="OUT", help="save the whole level instead")
    ap.add_argument("--title", action="store_true", help="show the title screen")
    ap.add_argument("--keys", default="", help="title: keys pressed on the first frame")
    ap.add_argument("--levels-dir", default=None, help="title: the folder it lists")
    ap.add_argument("--settings", default=None, metavar="PATH",
                    help="use this remembered-settings file (best times, finished levels); "
                    "default: none")
    a = ap.parse_args(argv)
    if not 0 < a.seconds <= 3600:
        raise UserError("command line", f"--seconds must be above 0 and at most 3600, not "
                        f"{a.seconds:g}")
    cfg = config.load()
    if a.resolver:
        cfg = replace(cfg, resolver=config.check_resolver(a.resolver, "command line",
                                                          "--resolver"))
    level = Path(a.level or cfg.level)
    if a.render_map:
        import os

        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        import pygame

        from game.maps.level import load_level
        from game.view.render import TileImages, render_map

        pygame.display.init()
        pygame.display.set_mode((8, 8))
        lv = load_level(level)
        img = render_map(lv, TileImages(lv))
        out = pygame.Surface(img.get_size())
        out.fill((150, 200, 240))
        out.blit(img, (0, 0))
        pygame.image.save(out, a.render_map)
        return 0

    from game.view.app import App

    cfg = replace(cfg, display=replace(cfg.display, vsync=False, debug=a.debug))
    if a.window:
        try:
            w, h = (int(v) for v in a.window.lower().split("x"))
        except ValueError:
            raise UserError("command line", f"--window: give the size as WxH (e.g. 800x450), "
                            f"not {a.window!r}") from None
        cfg = replace(cfg, display=replace(cfg.display, width=w, height=h))
    script = load_script(a.input) if a.input else None
    levels_dir = Path(a.levels_dir) if a.levels_dir else None
    store = None
    if a.settings:
        from game.runs.settings import Store

        store = Store(Path(a.settings))
    app = App(cfg, level, max_frames=int(a.seconds * 60), screenshot=a.out, script=script,
              frame_time=1 / 60, title=a.title, levels_dir=levels_dir, ghosts=a.ghosts,
              pause_at=a.pause_at, store=store)
    if a.keys:
        import pygame

        for name in a.keys.split(","):
            try:
                code = pygame.key.key_code(name.strip())
            except ValueError:
                raise UserError("command line", f"--keys: unknown key {name.strip()!r}") from None
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode="",
                                                 scancode=0))
    return app.run()


if __name__ == "__main__":
    sys.exit(main())
