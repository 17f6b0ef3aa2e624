r"""Write levels/04_crowd.tmx, "Crowd": tiers of platforms carrying 200 walkers.

Run with `uv run python tools/make_crowd.py [--force]`. The layout below uses the characters of
tools/make_levels.py plus `w`: a walker standing in that air cell (a point object of class
`walker` at its feet). Each walker gets a speed from 25 to 85 px/s and a direction from its
place, so the crowd does not march in step. The player's way is the floor, from the spawn to the
flag, under the six tiers: walkers turn at ledges, so none comes down (a walker touched sends
the player back, and the playthrough bot must finish every level).

The map is written as a draft and then re-saved by Tiled (`tiled --export-map`, with
QT_QPA_PLATFORM=offscreen) so that the shipped file is in Tiled's own format; without Tiled on
the PATH the draft is kept as it is, and the tool says so.
"""
import argparse
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_levels import (  # noqa: E402
    LEVELS_DIR, TSX, Grid, T, build_layers, check_layout, prop, tile_layer,
)

NAME = "04_crowd.tmx"
TITLE = "Crowd"
WALKERS = 200
DEFAULT_SPEED, DEFAULT_DIRECTION = 40, "right"  # the walker class's defaults (game/maps/objects.py)

# 100 x 30 tiles. Six tiers of platforms over an open floor; `w` marks a walker.
MAIN = r"""
....................................................................................................
....................................................................................................
........w.w.w.w.w.w.w.w.w.w.w.w.w.w.w.w.w.w.w.w.w.w.w.w.w.w.........................................
.......#####################################################........................................
....................................................................................................
.....w.w.w.w.w.w.w.........w.w.w.w.w.w.w.............w.w.w.w.w.w.w.w...........w.w.w.w.w.w.w........
.....##############.......###############...........================...........##############.......
....................................................................................................
....................................................................................................
.w.w.w.w.w.w.w.w.......w.w.w.w.w.w.w.w.w.w.w.......w.w.w.w.w.w.w.w.w...........w.w.w.w.w.w.w.w.w.w..
.################......MMMMMMMMMMMMMMMMMMMMM.......##################.........####################..
....................................................................................................
....................................................................................................
.....w.w.w.w.w.w.w.w.........w.w.w.w.w.w.w.w...........w.w.w.w.w.w.w.w.........w.w.w.w.w.w.w.w.w....
....################........################...........===============.........#################....
....................................................................................................
....................................................................................................
.w.w.w.w.w.w.w.w.w.w.w.......w.w.w.w.w.w.w.w.w.w.........w.w.w.w.w.w.w.w.......w.w.w.w.w.w.w.w.w.w..
.######################......###################........#################......###################..
....................................................................................................
....................................................................................................
.......w.w.w.w.w.w.w.w.w.......w.w.w.w.w.w.w.w.w.......w.w.w.w.w.w.w.w.w.w.......w.w.w.w.w.w.w......
......BBBBBBBBBBBBBBBBBBB.....==================......#####################......BBBBBBBBBBBBB......
....................................................................................................
....................................................................................................
....................................................................................................
.P.t.f.......t.........f..T..........t........f..T........t.........f.........T...t......f.t.....F..
####################################################################################################
####################################################################################################
####################################################################################################
"""
BACK = "\n".join("." * 100 for _ in range(30))


def walker_objects(main: Grid, first_id: int) -> list[str]:
    out = []
    for i, (x, y) in enumerate(sorted(main.find("w"), key=lambda p: (p[1], p[0]))):
        speed = 25 + (x * 7 + y * 13) % 61
        direction = "left" if (x + y) % 3 == 0 else "right"
        props = ""
        if speed != DEFAULT_SPEED:
            props += '   <property name="speed" type="float" value="%d"/>\n' % speed
        if direction != DEFAULT_DIRECTION:
            props += ('   <property name="direction" type="string" propertytype="direction" '
                      'value="%s"/>\n' % direction)
        body = "  <properties>\n%s  </properties>\n" % props if props else ""
        out.append('  <object id="%d" type="walker" x="%d" y="%d">\n%s   <point/>\n  </object>\n'
                   % (first_id + i, x * T + T // 2, (y + 1) * T, body))
    return out


def crowd_tmx() -> str:
    main = Grid(MAIN.replace("w", "."))  # walkers stand in air cells
    back = Grid(BACK)
    check_layout(NAME, main, back)
    walkers = walker_objects(Grid(MAIN), 3)
    if len(walkers) != WALKERS:
        raise ValueError("%s: %d walkers in the layout, not %d" % (NAME, len(walkers), WALKERS))
    layers = build_layers(main, back)
    (sx, sy), = main.find("P")
    (fx, fy), = main.find("F")
    spawn = ('  <object id="1" name="spawn" type="player" x="%d" y="%d">\n   <point/>\n'
             '  </object>\n' % (sx * T + T // 2, (sy + 1) * T))
    goal = ('  <object id="2" name="goal" type="goal" x="%d" y="%d" width="16" height="32"/>\n'
            % (fx * T, (fy - 1) * T))
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" '
        'renderorder="right-down" width="%d" height="%d" tilewidth="%d" tileheight="%d" '
        'infinite="0" nextlayerid="6" nextobjectid="%d">\n'
        % (main.w, main.h, T, T, 3 + len(walkers))
        + " <properties>\n" + prop("backdrop", "dusk", propertytype="backdrop")
        + prop("title", TITLE) + " </properties>\n"
        + ' <tileset firstgid="1" source="%s"/>\n' % TSX
        + tile_layer(1, "back", layers["back"], "csv")
        + tile_layer(2, "ground", layers["ground"], "csv")
        + tile_layer(5, "decor", layers["decor"], "csv")
        + ' <objectgroup id="4" name="objects">\n' + spawn + goal + "".join(walkers)
        + " </objectgroup>\n"
        + tile_layer(3, "front", layers["front"], "csv")
        + "</map>\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--force", action="store_true", help="overwrite an existing levels/" + NAME)
    args = ap.parse_args(argv)
    return resave(NAME, crowd_tmx(), args.force)


def resave(name: str, text: str, force: bool) -> int:
    """Write levels/<name> from ``text`` through Tiled's own writer (kept as it is without
    Tiled); refuse to overwrite an existing file unless ``force``."""
    NAME = name
    out = os.path.join(LEVELS_DIR, NAME)
    if os.path.exists(out) and not force:
        print("refusing to overwrite levels/%s (edited in Tiled?); use --force" % NAME)
        return 1
    # The draft sits beside the output: Tiled rewrites relative paths for the output's folder.
    draft = os.path.join(LEVELS_DIR, ".draft_" + NAME)
    with open(draft, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    try:
        tiled = shutil.which("tiled")
        if tiled is None:
            os.replace(draft, out)
            print("wrote levels/%s (Tiled not found: not re-saved by Tiled)" % NAME)
            return 0
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
        subprocess.run([tiled, "--export-map", "tmx", draft, out], env=env, check=True,
                       timeout=120)
        print("wrote levels/%s (re-saved by Tiled)" % NAME)
        return 0
    finally:
        if os.path.exists(draft):
            os.remove(draft)


if __name__ == "__main__":
    sys.exit(main())
