r"""Write levels/05_features.tmx, "Living Level": hazards, ice, water, a lever and its door,
checkpoints and coins, each where the player meets it on the way to the flag.

Run with `uv run python tools/make_features.py [--force]`. The layout uses the characters of
tools/make_levels.py plus these:

  ^  spikes on the floor (air; tile `spikes`, a hazard whose box is its lower half)
  ~  lava surface   _  lava (air; tiles `lava_top`, `lava`: hazards)
  I  ice (solid; `ice_top` or `ice`: friction 0.15)
  w  water (air; `water_top` under air, else `water`, on the translucent layer `water`)
  D  a door cell (air in the ground; tile `door` on the layer `door`, door group `gate`)
  c  a coin      C  a coin in water      k  a checkpoint (16x32 px, standing on the floor)
  s  a lever for `gate` (on the wall above the door: pulled by jumping at it)

Columns 84-107: a one-way lift (a moving platform, `LIFT`) rises from above head height at
column 88 to a brick ledge (row 4, columns 91-101) where a walker patrols over three coins: jump
onto the lift, ride up, stomp the walker (or throw a spear at it). The floor below stays clear,
so the way to the flag does not need any of it.

The map is written as a draft and re-saved by Tiled, as tools/make_crowd.py does.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_crowd import resave  # noqa: E402
from make_levels import (  # noqa: E402
    TSX, Grid, T, build_layers, check_layout, gid, prop, tile_layer,
)

NAME = "05_features.tmx"
TITLE = "Living Level"

W, H = 116, 15
FLOOR = 12  # the floor's top row


def layout() -> str:
    """The map as rows of characters, built up section by section, left to right."""
    g = [["." for _ in range(W)] for _ in range(H)]

    def put(x, y, ch):
        g[y][x] = ch

    for y in range(FLOOR, H):
        for x in range(W):
            put(x, y, "#")
    put(1, FLOOR - 1, "P")
    for x in (4, 6, 8):  # coins to start with
        put(x, FLOOR - 1, "c")
    for x in (15, 16, 17):  # spikes to jump, a coin over them
        put(x, FLOOR - 1, "^")
    put(16, FLOOR - 4, "c")
    put(21, FLOOR - 1, "k")
    for x in range(25, 45):  # the ice rink, two tiles deep
        put(x, FLOOR, "I")
        put(x, FLOOR + 1, "I")
    for x in (30, 36, 42):
        put(x, FLOOR - 3, "c")
    for x in (48, 49, 50):  # a lava pit to leap from the ice's end
        for y in range(FLOOR, H):
            put(x, y, "~" if y == FLOOR else "_")
    put(48, FLOOR - 4, "c")
    put(54, FLOOR - 1, "k")
    for x in range(58, 68):  # the pool: two tiles of water over its floor
        for y in (FLOOR, FLOOR + 1):
            put(x, y, "w")
    put(68, FLOOR, "w")  # the step up out of it, under water
    for x in (60, 63, 66):
        put(x, FLOOR + 1, "C")
    put(72, FLOOR - 1, "k")
    # The lever hangs on the wall over the door, a jump above head height: running along the
    # floor never touches it, so coming back from a checkpoint never shuts the door again.
    put(79, FLOOR - 4, "s")
    for y in range(0, FLOOR - 3):
        put(80, y, "B")
    for y in range(FLOOR - 3, FLOOR):
        put(80, y, "D")
    for x in (82, 83):
        put(x, FLOOR - 1, "c")
    # columns 84-107: a lift up to a ledge with a walker and coins (above the floor's way)
    for x in range(91, 102):
        put(x, LEDGE, "B")
    for x in (94, 97, 100):
        put(x, LEDGE - 1, "c")
    put(86, FLOOR - 1, "t")
    put(96, FLOOR - 1, "f")
    put(106, FLOOR - 1, "t")
    put(112, FLOOR - 1, "F")
    return "\n".join("".join(row) for row in g)


LEDGE = 4  # the high ledge's row
# The lift: a one-way platform 2 tiles wide and 8 px tall, its top from y=152 px (a jump from the
# floor reaches it; the player runs under it) up to the ledge's top, waiting 1 s at each end.
LIFT = {"x": 88 * 16, "y": 152, "w": 32, "h": 8, "to_y": LEDGE * 16, "speed": 40, "wait": 1.0}
WALKER = (96, LEDGE - 1)  # a walker on the ledge (cell it stands in)

MAIN = layout()


def objects(layout: Grid) -> tuple[list[str], int]:
    out, i = [], 1
    (sx, sy), = layout.find("P")
    out.append('  <object id="%d" name="spawn" type="player" x="%d" y="%d">\n   <point/>\n'
               '  </object>\n' % (i, sx * T + T // 2, (sy + 1) * T))
    i += 1
    (fx, fy), = layout.find("F")
    out.append('  <object id="%d" name="goal" type="goal" x="%d" y="%d" width="16" height="32"/>\n'
               % (i, fx * T, (fy - 1) * T))
    i += 1
    for x, y in layout.find("k"):
        out.append('  <object id="%d" type="checkpoint" x="%d" y="%d" width="16" height="32"/>\n'
                   % (i, x * T, (y - 1) * T))
        i += 1
    for x, y in layout.find("s"):
        out.append('  <object id="%d" type="switch" x="%d" y="%d" width="16" height="16">\n'
                   '   <properties>\n    <property name="door" value="gate"/>\n'
                   '   </properties>\n  </object>\n' % (i, x * T, y * T))
        i += 1
    for x, y in sorted(layout.find("c") + layout.find("C"), key=lambda p: (p[1], p[0])):
        out.append('  <object id="%d" type="coin" x="%d" y="%d" width="10" height="10"/>\n'
                   % (i, x * T + 3, y * T + 3))
        i += 1
    lift = LIFT
    out.append('  <object id="%d" type="platform" x="%d" y="%d" width="%d" height="%d">\n'
               '   <properties>\n'
               '    <property name="one_way" type="bool" value="true"/>\n'
               '    <property name="path" type="object" value="%d"/>\n'
               '    <property name="speed" type="float" value="%g"/>\n'
               '    <property name="wait" type="float" value="%g"/>\n'
               '   </properties>\n  </object>\n'
               % (i, lift["x"], lift["y"], lift["w"], lift["h"], i + 1, lift["speed"],
                  lift["wait"]))
    out.append('  <object id="%d" x="%d" y="%d">\n   <point/>\n  </object>\n'
               % (i + 1, lift["x"], lift["to_y"]))
    i += 2
    wx, wy = WALKER
    out.append('  <object id="%d" type="walker" x="%d" y="%d">\n   <point/>\n  </object>\n'
               % (i, wx * T + T // 2, (wy + 1) * T))
    i += 1
    return out, i


def features_tmx() -> str:
    layout = Grid(MAIN)
    plain = MAIN
    for ch in "^~_wCDcks":
        plain = plain.replace(ch, ".")
    main = Grid(plain.replace("I", "#"))
    back = Grid("\n".join("." * main.w for _ in range(main.h)))
    check_layout(NAME, main, back)
    layers = build_layers(main, back)
    water = [[0] * main.w for _ in range(main.h)]
    door = [[0] * main.w for _ in range(main.h)]
    for y in range(main.h):
        for x in range(main.w):
            c = layout[x, y]
            if c == "^":
                layers["ground"][y][x] = gid("spikes")
            elif c in "~_":
                layers["ground"][y][x] = gid("lava_top" if c == "~" else "lava")
            elif c == "I":
                layers["ground"][y][x] = gid("ice" if layout[x, y - 1] == "I" else "ice_top")
            elif c in "wC":
                water[y][x] = gid("water" if layout[x, y - 1] in "wC" else "water_top")
            elif c == "D":
                door[y][x] = gid("door")
    door_layer = tile_layer(6, "door", door, "csv").replace(
        ">\n", ">\n  <properties>\n" + prop("door", "gate") + "  </properties>\n", 1)
    spawn_goal, next_id = objects(layout)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" '
        'renderorder="right-down" width="%d" height="%d" tilewidth="%d" tileheight="%d" '
        'infinite="0" nextlayerid="8" nextobjectid="%d">\n'
        % (main.w, main.h, T, T, next_id)
        + " <properties>\n" + prop("backdrop", "night", propertytype="backdrop")
        + prop("title", TITLE) + " </properties>\n"
        + ' <tileset firstgid="1" source="%s"/>\n' % TSX
        + tile_layer(1, "back", layers["back"], "csv")
        + tile_layer(2, "ground", layers["ground"], "csv")
        + tile_layer(5, "decor", layers["decor"], "csv")
        + door_layer
        + ' <objectgroup id="4" name="objects">\n' + "".join(spawn_goal)
        + " </objectgroup>\n"
        + tile_layer(7, "water", water, "csv", ' opacity="0.6"')
        + tile_layer(3, "front", layers["front"], "csv")
        + "</map>\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--force", action="store_true", help="overwrite an existing levels/" + NAME)
    args = ap.parse_args(argv)
    return resave(NAME, features_tmx(), args.force)


if __name__ == "__main__":
    sys.exit(main())
