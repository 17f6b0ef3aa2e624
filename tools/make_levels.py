r"""Write the Tiled levels from readable ASCII layouts.

Run with `uv run python tools/make_levels.py`. It writes, under levels/:
  terrain.tsx                external tileset (collision properties per tile)
  tilecollide.tiled-project  Tiled project declaring the custom types
  01_first_steps.tmx, 02_every_tile.tmx
(04_crowd.tmx comes from tools/make_crowd.py, with this file's tile picking.)

Authors polish these files in Tiled afterwards, so an existing file is never
overwritten unless --force is given. --check only validates the layouts.

Layout characters (main grid; one character per 16x16 tile):
  .  air
  #  grass-topped dirt; edges, corners and fills are picked automatically
  B  stone brick              M  stone brick with a mossy top
  =  one-way wooden platform (ends picked automatically)
  /  45-degree slope rising right      \  45-degree slope rising left
  r  shallow slope rising right, low half (0->8)   R  its high half (8->16)
  L  shallow slope rising left, high half (16->8)  l  its low half (8->0)
  h  half tile: ground 8 px high (a slope of equal heights; a step half a tile high)
  P  player spawn (an air cell, the player stands on the tile below)
  F  exit flag pole (air; the flag top goes in the cell above, goal around both)
Decorations, drawn on the `front` layer (air for collision):
  t tufts   T tall grass   f flowers   * bush   o rock   m mushroom
  s sign (arrow right)   S the same sign flipped (arrow left)   | fence
Background grid (`back` layer):  x background bricks   d background dirt
"""
import argparse
import base64
import json
import os
import struct
import sys
import zlib
from xml.sax.saxutils import quoteattr

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_art import COLS, LAB_TILES, LIVING_TILES, TILES, TILE_ID, T  # noqa: E402  (shared tile table)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LEVELS_DIR = os.path.join(ROOT, "levels")
TSX = "terrain.tsx"
PROJECT = "tilecollide.tiled-project"
# Tiled's "Play in tilecollide" (F5, and Tiled's command button): saves the map open in Tiled, then
# plays it in the game's window. Tiled puts %mapfile in quotes itself and runs the command from
# the project's folder's parent, the repository (where main.py and uv's project are).
PLAY_COMMAND = {"arguments": "run main.py --level %mapfile", "command": "uv", "enabled": True,
                "name": "Play in tilecollide", "saveBeforeExecute": True, "shortcut": "F5",
                "showOutput": True, "workingDirectory": "%projectpath/.."}
FLIP_X = 0x80000000

SOLID = set("#BM")
SLOPE_H = {"/": (0, 16), "\\": (16, 0), "r": (0, 8), "R": (8, 16), "L": (16, 8), "l": (8, 0),
           "h": (8, 8)}
SLOPE_KEY = {"/": "slope_r45", "\\": "slope_l45", "r": "slope_r_low", "R": "slope_r_high",
             "L": "slope_l_high", "l": "slope_l_low", "h": "half"}
UNDER_KEY = {"/": "under_r45", "\\": "under_l45", "r": "under_r_low", "l": "under_l_low"}
DECOR_KEY = {"t": "tufts", "T": "tall_grass", "f": "flowers", "*": "bush", "o": "rock",
             "m": "mushroom", "s": "sign", "S": "sign", "|": "fence", "F": "flag_base"}
FLIPPED = set("S")  # only decorations: pytmx does not copy tile properties to flipped gids
BACK_KEY = {"x": "back_brick", "d": "back_dirt"}
IN_FRONT = set("tTf")  # tufts, tall grass, flowers
AIR = set(".P") | set(DECOR_KEY)


def gid(key, flip=False):
    return (TILE_ID[key] + 1) | (FLIP_X if flip else 0)


# ---------------------------------------------------------------- layouts
LEVEL1_MAIN = r"""
...............................................................................B
...............................................................................B
...............................................................................B
...............................................................................B
##...............................................................tf.*.T..f.F.t.B
##.........................................................====.################
##..............................................................################
##...................................t.f.o.*....................################
##...................................########.........====......################
##...................................########...................################
##...................f.t*.o...T.f.m..########...................################
##...................#######..###############....====...........################
##..............tf.t.#######..###############...................################
##t.P.s.f.tT|||*############..###############.t.o..f..T.m..t.f.*################
############################..##################################################
############################..##################################################
############################..##################################################
############################..##################################################
"""

LEVEL1_BACK = r"""
................................................................................
....................................................................x.x.x.x.x.x.
....................................................................xx..xxxxxxx.
....................................................................xx..xxxxxxx.
....................................................................xxxxxxxxxxx.
.......................................x..x.....................................
.......................................xxxx.....................................
.......................................xxxx.....................................
................................................................................
................................................................................
................................................................................
................................................................................
................................................................................
................................................................................
................................................................................
................................................................................
................................................................................
................................................................................
"""

LEVEL2_MAIN = r"""
........................................................................................................................
........................................................................................................................
........................................................................................................................
........................................................................................................................
........................................................................................................................
........................................................................................................................
##......................................................................................................................
##......................................................................................................................
##......................................................................................................................
##.................................................................MM...................................................
##.................................................................BB.................................................##
##.............................................................====BB.................................................##
##.................................................................BB.................................................##
##.................................................................BB.............................MMMMMMMMM...........##
##.............................................................====BB.............................BBBBBBBBB...........##
##.................................................................BB.................................................##
##.................................................................BB..........................#......................##
##............tf.......................................===.....====BB.................................................##
##.........../##\......f*t.........................................BB..................T.f.t..*..o.m..|||||...f.t.F.t.##
##t.P.f.st../####\T..rR###Ll.o.t...f..T..m..t..*.f..t.......S..ft..BBt.*..f.o......tf./#################################
#################################.####################=====###################...#######################################
#################################.####################.....###################...#######################################
##############################...........#############.....###################...#######################################
##############################......=....#############.===.###################...#######################################
##############################.................#######.....###################...#######################################
##############################s...o.....tm.....t..o..T.....###################...#######################################
##############################################################################...#######################################
##############################################################################...#######################################
##############################################################################...#######################################
##############################################################################...#######################################
"""

LEVEL2_BACK = r"""
........................................................................................................................
........................................................................................................................
........................................................................................................................
........................................................................................................................
........................................................................................................................
........................................................................................................................
........................................................................................................................
........................................................................................................................
........................................................................................................................
........................................................................................................................
.................................................................................................x.x.x.x.x.x.x.x.x.x.x..
..............................................................x.x.x..............................xxxxxxxxxxxxxxxxxxxxx..
..............................................................xxxxx..............................xxxxxxxxxxxx..xxx..xx..
..............................................................xxxxx..............................x.........xx..xxx..xx..
..............................................................xxxxx..............................x.........xxxxxxxxxxx..
..............................................................xxxxx..............................xxxxxxxxxxxxxxxxxxxxx..
..............................................................xxxxx..............................xxxxxxxxxxxxxxxxxxxxx..
..............................................................xxxxx..............................xxxxxxxxxxxxxxxxxxxxx..
..............................................................xxxxx..............................xxxxxxxxxxxxxxxxxxxxx..
..............................................................xxxxx.....................................................
.................................d....................ddddd.............................................................
.................................d....................ddddd.............................................................
..............................ddddddddddd.............ddddd.............................................................
..............................ddddddddddd.............ddddd.............................................................
..............................ddddddddddddddddd.......ddddd.............................................................
..............................ddddddddddddddddddddddddddddd.............................................................
........................................................................................................................
........................................................................................................................
........................................................................................................................
........................................................................................................................
"""

LEVELS = {
    "01_first_steps.tmx": dict(
        title="First Steps", next_level="02_every_tile.tmx", main=LEVEL1_MAIN,
        back=LEVEL1_BACK, spawn="point", ground_encoding="csv", front_offset=(0, 0)),
    "02_every_tile.tmx": dict(
        title="Every Tile", next_level=None, backdrop="dawn", main=LEVEL2_MAIN,
        back=LEVEL2_BACK, spawn="rect", ground_encoding="zlib", front_offset=(3, 2),
        every_tile=True),
}


# ---------------------------------------------------------------- tiles from layout
class Grid:
    def __init__(self, text):
        self.rows = text.strip("\n").split("\n")
        self.h, self.w = len(self.rows), len(self.rows[0])
        if any(len(r) != self.w for r in self.rows):
            raise ValueError("layout rows differ in length")

    def __getitem__(self, xy):
        x, y = xy
        return self.rows[y][x] if 0 <= x < self.w and 0 <= y < self.h else None

    def find(self, ch):
        return [(x, y) for y, r in enumerate(self.rows) for x, c in enumerate(r) if c == ch]


def earthy(g, x, y):
    """Does this cell count as connected earth when picking edge tiles?
    Outside the map counts as earth, so floors run seamlessly off the edges."""
    c = g[x, y]
    return c is None or c in SOLID or c in SLOPE_H


def ground_key(g, x, y):
    above = g[x, y - 1]
    if above in UNDER_KEY:
        return UNDER_KEY[above]
    up, down, left, right = (earthy(g, x + dx, y + dy)
                             for dx, dy in ((0, -1), (0, 1), (-1, 0), (1, 0)))
    if not up:
        if not left and not right:
            return "lone"
        if not left or not right:
            return "top_left" if not left else "top_right"
        return "top_alt" if (x * 7 + y * 3) % 6 == 0 else "top"
    if not down:
        return "bottom_left" if not left else "bottom_right" if not right else "bottom"
    if not left:
        return "left"
    if not right:
        return "right"
    return "fill_alt" if (x * 5 + y * 3) % 4 == 0 else "fill"


def plank_key(g, x, y):
    left, right = g[x - 1, y] == "=", g[x + 1, y] == "="
    return {(False, False): "plank_single", (False, True): "plank_left",
            (True, True): "plank_mid", (True, False): "plank_right"}[(left, right)]


def build_layers(main, back):
    w, h = main.w, main.h
    layers = {name: [[0] * w for _ in range(h)] for name in ("back", "ground", "decor", "front")}
    for y in range(h):
        for x in range(w):
            c = main[x, y]
            if c == "#":
                layers["ground"][y][x] = gid(ground_key(main, x, y))
            elif c in "BM":
                layers["ground"][y][x] = gid("brick" if c == "B" else "brick_moss")
            elif c == "=":
                layers["ground"][y][x] = gid(plank_key(main, x, y))
            elif c in SLOPE_KEY:
                layers["ground"][y][x] = gid(SLOPE_KEY[c])
            elif c in DECOR_KEY:
                # Low see-through plants go in front of the player; the rest stays behind it.
                layer = "front" if c in IN_FRONT else "decor"
                layers[layer][y][x] = gid(DECOR_KEY[c], c in FLIPPED)
                if c == "F":
                    layers["decor"][y - 1][x] = gid("flag_top")
            b = back[x, y]
            if b in BACK_KEY:
                layers["back"][y][x] = gid(BACK_KEY[b])
    return layers


# ---------------------------------------------------------------- checks
def check_layout(name, main, back):
    """Raise ValueError describing every problem found in a layout."""
    errors = []
    err = errors.append
    if (back.w, back.h) != (main.w, main.h):
        err("back grid is %dx%d, main grid %dx%d" % (back.w, back.h, main.w, main.h))
    known = SOLID | set(SLOPE_H) | AIR | {"="}
    for y, row in enumerate(main.rows):
        for x, c in enumerate(row):
            if c not in known:
                err("unknown character %r at %d,%d" % (c, x, y))
    for y, row in enumerate(back.rows):
        for x, c in enumerate(row):
            if c not in ".xd":
                err("unknown background character %r at %d,%d" % (c, x, y))
    for ch in "PF":
        if len(main.find(ch)) != 1:
            err("need exactly one %r, found %d" % (ch, len(main.find(ch))))
    for x, y in main.find("P"):
        if main[x, y + 1] not in SOLID:
            err("spawn %d,%d does not stand on solid ground" % (x, y))
    for x, y in main.find("F"):
        if main[x, y - 1] not in AIR or main[x, y + 1] not in SOLID:
            err("flag %d,%d needs air above and solid ground below" % (x, y))
    for ch in DECOR_KEY:
        for x, y in main.find(ch):
            if main[x, y + 1] not in SOLID | {"="}:
                err("decoration %r at %d,%d floats" % (ch, x, y))
    for x, y in [p for ch in SLOPE_H for p in main.find(ch)]:
        errors.extend(check_slope(main, x, y))
    if errors:
        raise ValueError("%s:\n  %s" % (name, "\n  ".join(errors)))


def side_height(c, side):
    """Floor height (px) of a cell at its left (0) or right (1) edge."""
    if c in SLOPE_H:
        return SLOPE_H[c][side]
    return 16 if c in SOLID else None


def check_slope(g, x, y):
    """A slope's high side must meet ground or a slope at the same height;
    its low side must meet air over a floor (or a slope bottoming out)."""
    c = g[x, y]
    errors = []
    if g[x, y + 1] not in SOLID:
        errors.append("slope %r at %d,%d has no solid dirt under it" % (c, x, y))
    for side, dx in ((0, -1), (1, 1)):
        h = SLOPE_H[c][side]
        n = g[x + dx, y]
        facing = side_height(n, 1 - side)
        if h > 0 and n in SLOPE_H and facing != h:
            errors.append("slope %r at %d,%d: height %d meets %r at %s" % (c, x, y, h, n, facing))
        elif h > 0 and n not in SLOPE_H and not (n in SOLID and h == 16):
            errors.append("slope %r at %d,%d: high side (%d px) meets %r" % (c, x, y, h, n))
        elif h == 0 and n in SLOPE_H and facing != 0:
            errors.append("slope %r at %d,%d: low side meets %r" % (c, x, y, n))
        elif h == 0 and n not in SLOPE_H:
            under = g[x + dx, y + 1]
            if n in SOLID or side_height(under, 1 - side) != 16:
                errors.append("slope %r at %d,%d: low side does not meet a floor" % (c, x, y))
    return errors


# ---------------------------------------------------------------- writers
def csv_data(rows):
    return "\n".join(",".join(str(v) for v in row) + ("," if i < len(rows) - 1 else "")
                     for i, row in enumerate(rows))


def tile_layer(layer_id, name, rows, encoding, extra=""):
    h, w = len(rows), len(rows[0])
    head = ' <layer id="%d" name="%s" width="%d" height="%d"%s>\n' % (layer_id, name, w, h, extra)
    if encoding == "csv":
        data = '  <data encoding="csv">\n%s\n</data>\n' % csv_data(rows)
    else:
        flat = [v for row in rows for v in row]
        raw = struct.pack("<%dI" % len(flat), *flat)
        text = base64.b64encode(zlib.compress(raw)).decode("ascii")
        data = ('  <data encoding="base64" compression="zlib">\n   %s\n  </data>\n' % text)
    return head + data + " </layer>\n"


def prop(name, value, kind=None, propertytype=None):
    t = ' type="%s"' % kind if kind else ""
    t += ' propertytype="%s"' % propertytype if propertytype else ""
    return '  <property name="%s"%s value=%s/>\n' % (name, t, quoteattr(str(value)))


def level_tmx(spec):
    main, back = Grid(spec["main"]), Grid(spec["back"])
    layers = build_layers(main, back)
    (sx, sy), = main.find("P")
    (fx, fy), = main.find("F")
    if spec["spawn"] == "point":   # the player's bottom-centre
        spawn = ('  <object id="1" name="spawn" type="player" x="%d" y="%d">\n'
                 '   <point/>\n  </object>\n' % (sx * T + T // 2, (sy + 1) * T))
    else:                          # the 12x14 hitbox, bottom-centred in the cell
        spawn = ('  <object id="1" name="spawn" type="player" x="%d" y="%d" width="12" '
                 'height="14"/>\n' % (sx * T + 2, (sy + 1) * T - 14))
    goal = ('  <object id="2" name="goal" type="goal" x="%d" y="%d" width="16" height="32"/>\n'
            % (fx * T, (fy - 1) * T))
    props = ""
    if spec.get("backdrop"):
        props += prop("backdrop", spec["backdrop"], propertytype="backdrop")
    if spec["next_level"]:
        props += prop("next_level", spec["next_level"], "file")
    props += prop("title", spec["title"])
    ox, oy = spec["front_offset"]
    offset = ' offsetx="%d" offsety="%d"' % (ox, oy) if (ox or oy) else ""
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" '
        'renderorder="right-down" width="%d" height="%d" tilewidth="%d" tileheight="%d" '
        'infinite="0" nextlayerid="6" nextobjectid="3">\n' % (main.w, main.h, T, T)
        + " <properties>\n" + props + " </properties>\n"
        + ' <tileset firstgid="1" source="%s"/>\n' % TSX
        + tile_layer(1, "back", layers["back"], "csv")
        + tile_layer(2, "ground", layers["ground"], spec["ground_encoding"])
        + tile_layer(5, "decor", layers["decor"], "csv", offset)
        + ' <objectgroup id="4" name="objects">\n' + spawn + goal + " </objectgroup>\n"
        + tile_layer(3, "front", layers["front"], "csv", offset)  # after the objects: in front
        + "</map>\n")


def tileset_tsx():
    rows = -(-len(TILES) // COLS)
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n'
           '<tileset version="1.10" tiledversion="1.10.2" name="terrain" tilewidth="%d" '
           'tileheight="%d" tilecount="%d" columns="%d">\n' % (T, T, len(TILES), COLS),
           ' <image source="../assets/terrain.png" width="%d" height="%d"/>\n'
           % (COLS * T, rows * T)]
    for i, (key, _desc, collision, slope, _paint) in enumerate(TILES):
        if not collision:
            continue
        cls = ' type="slope"' if slope else ""
        out.append(' <tile id="%d"%s>\n  <properties>\n' % (i, cls))
        out.append('   <property name="collision" type="string" propertytype="collision" '
                   'value="%s"/>\n' % collision)
        if slope:
            out.append('   <property name="slope_left" type="int" value="%d"/>\n' % slope[0])
            out.append('   <property name="slope_right" type="int" value="%d"/>\n' % slope[1])
        out.append("  </properties>\n </tile>\n")
    out.append("</tileset>\n")
    return "".join(out)


def project_json():
    def cls(type_id, name, color, use_as, members):
        return {"color": color, "drawFill": True, "id": type_id, "members": members,
                "name": name, "type": "class", "useAs": use_as}
    types = [
        {"id": 1, "name": "collision", "storageType": "string", "type": "enum",
         "values": ["solid", "one_way", "slope"], "valuesAsFlags": False},
        cls(2, "slope", "#ffc08040", ["tile"], [
            {"name": "collision", "propertyType": "collision", "type": "string", "value": "slope"},
            {"name": "slope_left", "type": "int", "value": 0},
            {"name": "slope_right", "type": "int", "value": 16}]),
        cls(3, "player", "#ffee5a5a", ["object"], []),
        cls(4, "goal", "#ffffd23f", ["object"], []),
        {"id": 5, "name": "direction", "storageType": "string", "type": "enum",
         "values": ["left", "right"], "valuesAsFlags": False},
        # the map property ``backdrop`` (game/maps/backdrop.py; an id is given below if new)
        {"id": 0, "name": "backdrop", "storageType": "string", "type": "enum",
         "values": ["day", "dawn", "dusk", "night", "moon", "none"], "valuesAsFlags": False},
        # Defaults as game/maps/objects.py's WALKER_SPEED and WALKER_DIRECTION: Tiled does not save a
        # member left at its default, so the game must assume the same value.
        cls(6, "walker", "#ff8a5ad6", ["object"], [
            {"name": "direction", "propertyType": "direction", "type": "string",
             "value": "right"},
            {"name": "speed", "type": "float", "value": 40}]),
        # The collision lab's scenario maps (game/runs/lab.py): defaults as DEFAULT_EXPECT_GOAL and
        # DEFAULT_MEASURE there; script and ticks must be set.
        {"id": 7, "name": "lab_measure", "storageType": "string", "type": "enum",
         "values": ["goal_tick", "stuck_ticks", "landing_tick", "bump_px", "drift_px",
                    "rise_px", "air_ticks"], "valuesAsFlags": False},
        cls(8, "lab_scenario", "#ff6ab0de", ["map"], [
            {"name": "about", "type": "string", "value": ""},
            {"name": "expect_goal", "type": "bool", "value": True},
            {"name": "measure", "propertyType": "lab_measure", "type": "string",
             "value": "goal_tick"},
            {"name": "script", "type": "string", "value": ""},
            {"name": "ticks", "type": "int", "value": 0}]),
    ]
    # The project also holds types declared in Tiled or by other tools (the living level's
    # classes): keep every type this file does not define, by name, with its id.
    path = os.path.join(LEVELS_DIR, PROJECT)
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            kept = json.load(f).get("propertyTypes", [])
        ours = {t["name"]: t for t in types}
        ids = {t["name"]: t["id"] for t in kept}
        next_id = max([t["id"] for t in kept] + [0]) + 1
        for t in types:
            if t["name"] in ids:
                t["id"] = ids[t["name"]]
            else:
                t["id"], next_id = next_id, next_id + 1
        types = [ours.get(t["name"], t) for t in kept] + [t for t in types if t["name"] not in ids]
    project = {"automappingRulesFile": "", "commands": [PLAY_COMMAND], "compatibilityVersion": 1100,
               "extensionsPath": "extensions", "folders": ["."], "properties": [],
               "propertyTypes": types}
    return json.dumps(project, indent=4) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--force", action="store_true", help="overwrite existing files")
    ap.add_argument("--check", action="store_true", help="only validate the layouts")
    args = ap.parse_args(argv)
    for name, spec in LEVELS.items():
        check_layout(name, Grid(spec["main"]), Grid(spec["back"]))
        if spec.get("every_tile"):
            layers = build_layers(Grid(spec["main"]), Grid(spec["back"]))
            used = {(v & ~FLIP_X) - 1 for rows in layers.values() for row in rows for v in row}
            # shown by 05_features and the lab instead
            living = {key for key, *_rest in LIVING_TILES + LAB_TILES}
            unused = [key for key, i in TILE_ID.items() if i not in used and key not in living]
            if unused:
                raise ValueError("%s should use every tile; unused: %s" % (name, ", ".join(unused)))
    if args.check:
        print("layouts ok")
        return 0
    outputs = {TSX: tileset_tsx(), PROJECT: project_json()}
    outputs.update({name: level_tmx(spec) for name, spec in LEVELS.items()})
    os.makedirs(LEVELS_DIR, exist_ok=True)
    refused = 0
    for name, text in outputs.items():
        path = os.path.join(LEVELS_DIR, name)
        if os.path.exists(path) and not args.force:
            print("refusing to overwrite levels/%s (edited in Tiled?); use --force" % name)
            refused += 1
            continue
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        print("wrote levels/%s" % name)
    return 1 if refused else 0


if __name__ == "__main__":
    sys.exit(main())
