r"""Write levels/04_crowd.tmx, "Crowd": a way along the floor through pens of walkers, under six
tiers of platforms carrying the rest of the crowd (200 walkers in all).

Run with `uv run python tools/make_crowd.py [--force]`. The tiers (rows 0-22) are the ASCII
layout `TIERS`, in the characters of tools/make_levels.py plus `w`: a walker standing in that air
cell (a point object of class `walker` at its feet), its speed from 25 to 85 px/s and its
direction from its place, so the crowd does not march in step. Tier walkers turn at ledges: none
of them comes down.

The player's way is the floor below (rows 23-32), built by `floor_rows` from the tables
`BLOCKS`, `PLATEAU`, `WAY_WALKERS`, `CHECKPOINTS` and `COINS`: 1-tile blocks cut the floor into
pens, and a walker patrols each pen, turning at the blocks' walls, so the player must jump it,
stomp it, or wait on a block (a safe place: a walker in the pen stays a tile below the player's
feet) and time a run past it. Halfway, the way climbs onto a plateau two tiles high whose
walkers turn at its edges (wait on the block below it until they are away). Every walker on the
way moves on a flat floor in full view; checkpoints stand on blocks, where no walker reaches;
coins hang over the pens, taken by jumping over the walkers. The floor is three rows lower than
the tiers' lowest platform can reach: a jump from the plateau stops well short of it.

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

# Rows 0-22 of the 100 x 33 tile map: six tiers of platforms; `w` marks a walker.
TIERS = r"""
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
.........w.w.w.w.w.w.............w.w.w.w.w.w.............w.w.w.w.w.w.w.............w.w.w.w.w........
......BBBBBBBBBBBBBBBBBBB.....==================......#####################......BBBBBBBBBBBBB......
"""

# The floor and the way along it (rows 23-32). Columns are inclusive ranges.
W, H = 100, 33
FLOOR = 30  # the floor's top row: the player runs with its feet at y = 480 px
BLOCKS = [(6, 7), (20, 21), (34, 35), (50, 51), (66, 67), (84, 85), (94, 95)]  # 1 tile high
PLATEAU = (52, 65)  # 2 tiles high, between the blocks at 50-51 and 66-67
# The walkers of the way: (column, speed px/s, first direction). On the plateau's columns a
# walker stands on the plateau, elsewhere on the floor; each pen's walkers start away from the
# block the player comes in by.
WAY_WALKERS = [
    (14, 30, "left"),  # pen 1 (columns 8-19): one slow walker
    (26, 40, "right"), (31, 55, "left"),  # pen 2 (22-33)
    (40, 60, "right"), (46, 45, "left"),  # pen 3 (36-49)
    (56, 35, "right"), (62, 50, "left"),  # the plateau (52-65)
    (72, 45, "left"), (77, 65, "right"), (81, 35, "left"),  # pen 4 (68-83)
    (90, 70, "right"),  # pen 5 (86-93)
]
CHECKPOINTS = [34, 66, 84]  # on these blocks (a 16 x 32 px flag standing on the block's left tile)
# Coins over the pens, three rows above the floor (over the plateau, above its top): a jump over
# a walker takes them.
COINS = [11, 14, 17, 25, 28, 31, 39, 43, 47, 55, 59, 63, 71, 75, 79, 88, 91]
DECOR = {1: "P", 3: "t", 12: "f", 24: "T", 29: "t", 38: "f", 44: "t", 70: "t", 74: "f",
         80: "T", 87: "t", 97: "F", 98: "t"}


def floor_rows() -> list[str]:
    """Rows 23-32: the blocks, the plateau, the walkers (`w`), checkpoints (`k`), coins (`c`),
    decorations, the spawn and the flag, and three rows of ground."""
    g = [["." for _ in range(W)] for _ in range(23, H)]

    def put(x: int, y: int, ch: str) -> None:
        g[y - 23][x] = ch

    for y in range(FLOOR, H):
        for x in range(W):
            put(x, y, "#")
    for a, b in BLOCKS:
        for x in range(a, b + 1):
            put(x, FLOOR - 1, "B")
    for x in range(PLATEAU[0], PLATEAU[1] + 1):
        put(x, FLOOR - 1, "#")
        put(x, FLOOR - 2, "#")
    for x, ch in DECOR.items():
        put(x, FLOOR - 1, ch)
    for x, _, _ in WAY_WALKERS:
        put(x, standing_row(x), "w")
    for x in CHECKPOINTS:
        put(x, FLOOR - 2, "k")
    for x in COINS:
        put(x, standing_row(x) - 2, "c")
    return ["".join(row) for row in g]


def standing_row(x: int) -> int:
    """The air row a body standing on the way at column x has its feet in."""
    return FLOOR - 3 if PLATEAU[0] <= x <= PLATEAU[1] else FLOOR - 1


MAIN = TIERS.strip("\n") + "\n" + "\n".join(floor_rows())
BACK = "\n".join("." * W for _ in range(H))
OBJECT_CHARS = "wkc"


def walker_objects(main: Grid, first_id: int) -> list[str]:
    way = {(x, standing_row(x)): (speed, direction) for x, speed, direction in WAY_WALKERS}
    out = []
    for i, (x, y) in enumerate(sorted(main.find("w"), key=lambda p: (p[1], p[0]))):
        speed = 25 + (x * 7 + y * 13) % 61
        direction = "left" if (x + y) % 3 == 0 else "right"
        speed, direction = way.get((x, y), (speed, direction))
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


def flow_objects(main: Grid, first_id: int) -> list[str]:
    """Checkpoints (16 x 32 px, standing on the cell below the `k`) and coins (10 x 10 px,
    centred in their cell), in that order."""
    out = []
    for x, y in main.find("k"):
        out.append('  <object id="%d" type="checkpoint" x="%d" y="%d" width="16" height="32"/>\n'
                   % (first_id + len(out), x * T, (y - 1) * T))
    for x, y in sorted(main.find("c"), key=lambda p: (p[1], p[0])):
        out.append('  <object id="%d" type="coin" x="%d" y="%d" width="10" height="10"/>\n'
                   % (first_id + len(out), x * T + 3, y * T + 3))
    return out


def crowd_tmx() -> str:
    plain = MAIN
    for ch in OBJECT_CHARS:  # walkers, checkpoints and coins stand in air cells
        plain = plain.replace(ch, ".")
    main, back = Grid(plain), Grid(BACK)
    check_layout(NAME, main, back)
    walkers = walker_objects(Grid(MAIN), 3)
    if len(walkers) != WALKERS:
        raise ValueError("%s: %d walkers in the layout, not %d" % (NAME, len(walkers), WALKERS))
    flow = flow_objects(Grid(MAIN), 3 + len(walkers))
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
        % (main.w, main.h, T, T, 3 + len(walkers) + len(flow))
        + " <properties>\n" + prop("backdrop", "dusk", propertytype="backdrop")
        + prop("title", TITLE) + " </properties>\n"
        + ' <tileset firstgid="1" source="%s"/>\n' % TSX
        + tile_layer(1, "back", layers["back"], "csv")
        + tile_layer(2, "ground", layers["ground"], "csv")
        + tile_layer(5, "decor", layers["decor"], "csv")
        + ' <objectgroup id="4" name="objects">\n' + spawn + goal + "".join(walkers)
        + "".join(flow) + " </objectgroup>\n"
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
