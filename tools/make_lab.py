r"""Write the collision lab's scenario maps, levels/lab/*.tmx, from readable ASCII layouts.

Run with `uv run python tools/make_lab.py [--force] [--only NAME]`. Each scenario is a small Tiled
map of class `lab_scenario` (declared in levels/tilecollide.tiled-project) whose properties hold
its input script, tick count, expected outcome and the figure it measures (docs/levels.md,
"Writing a lab scenario"). Layout characters are tools/make_levels.py's, plus:
  P  the body's start: its feet on the bottom of this cell, centred (or `spawn` gives a box)
  G  a goal cell (the goal object covers every G, as one rectangle)

The maps are written as drafts and re-saved by Tiled (`tiled --export-map`), so the shipped files
are in Tiled's own format; without Tiled on the PATH the draft is kept, and the tool says so.
An existing map is never overwritten without --force (maps are edited in Tiled).
"""
import argparse
import os
import shutil
import subprocess
import sys
from xml.sax.saxutils import escape, quoteattr

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_levels import LEVELS_DIR, Grid, T, build_layers, tile_layer  # noqa: E402

LAB_DIR = os.path.join(LEVELS_DIR, "lab")

# name: layout, script, ticks, expect_goal, measure, about; optional spawn (x, y, w, h) in px
# and physics overrides.
SCENARIOS = {
    "01_floor_seams": dict(
        about="Run right along a floor of 18 tiles of three kinds (dirt, brick, mossy brick): "
              "every tile edge is a seam a resolver may snag on.",
        layout="""
....................
....................
.P...............G..
#####BBBBMMMM####BB#
""", script="0 right", ticks=150, expect_goal=True, measure="stuck_ticks"),
    "02_wall_seams": dict(
        about="Walk off a ledge and hold right against a wall of brick tiles while falling: a "
              "seam between wall tiles may catch the body on the way down.",
        layout="""
..........
.........B
.P.......B
###......B
.........B
.........B
.........B
.........B
........GB
##########
""", script="0 right", ticks=150, expect_goal=True, measure="landing_tick"),
    "03_thin_floor_fast": dict(
        about="Fall at 50 px a tick (gravity 20000, max_fall_speed 3000) onto a floor one tile "
              "thick: a resolver that only looks where the body ends up could pass through it.",
        layout="""
..........
....P.....
..........
..........
..........
..........
..........
..........
..........
..........
..........
..........
..........
...####...
..........
....G.....
##########
""", script="0 -", ticks=60, expect_goal=False, measure="landing_tick",
        physics=dict(gravity=20000.0, max_fall_speed=3000.0)),
    "04_one_tile_gap": dict(
        about="A body exactly one tile wide (16 x 14) walks onto a gap one tile wide from "
              "straight above and must drop into it.",
        layout="""
.........
.........
#####.###
#####.###
#####G###
#########
""", spawn=(80, 4, 16, 14), script="0 -", ticks=60, expect_goal=True,
        measure="goal_tick"),
    "05_one_tile_tunnel": dict(
        about="A body exactly one tile high (12 x 16) runs through a tunnel one tile high.",
        layout="""
##############
......########
............G.
##############
""", spawn=(18, 32, 12, 16), script="0 right", ticks=150, expect_goal=True, measure="stuck_ticks"),
    "06_ledge_bump": dict(
        about="A running jump that peaks just below a ledge's top (jump_speed 390): a "
              "strict box falls back; a resolver with an 'almost made it' bump lifts it on.",
        layout="""
..........
..........
.......GG.
......####
......####
.P....####
##########
""", script="0 right\n12 right+jump", ticks=90, expect_goal=False, measure="bump_px",
        physics=dict(jump_speed=390.0)),
    "07_ceiling_corner": dict(
        about="Jump straight up under the corner of a ceiling that covers 1 px of the body's "
              "width: a strict box bumps its head; a forgiving resolver slides it past "
              "and its top reaches the goal beside the ceiling.",
        layout="""
..........
..........
..........
......G###
..........
..........
..........
..........
##########
""", spawn=(101, 114, 12, 14), script="0 jump\n40 -", ticks=70, expect_goal=False,
        measure="drift_px"),
    "08_wall_corner_jump": dict(
        about="A running jump up and right into the lower left corner of a block. Swept "
              "continuously, the body meets the block's side first (its top has already passed "
              "the underside) and slides up the wall beside it; a resolver that moves one axis "
              "at a time can meet the underside instead and stop.",
        layout="""
..........
..........
..........
.....G####
.....G####
..........
..........
.P........
##########
""", script="0 right\n26 right+jump", ticks=80, expect_goal=True, measure="rise_px"),
    "09_one_way_up": dict(
        about="Jump up through a one-way platform and land on top of it.",
        layout="""
..........
..........
..G.......
..====....
..........
..........
..P.......
##########
""", script="0 jump\n30 -", ticks=90, expect_goal=True, measure="landing_tick"),
    "10_drop_through": dict(
        about="Stand on a one-way platform, press down + jump, and drop to the floor below.",
        layout="""
..........
..P.......
..====....
..........
..........
..G.......
##########
""", script="20 down+jump\n26 -", ticks=90, expect_goal=True, measure="goal_tick"),
    "11_slope_up": dict(
        about="Walk up a 45-degree slope two tiles high to the flat top.",
        layout="""
..........
.......G..
....../###
.P.../####
##########
""", script="0 right", ticks=120, expect_goal=True, measure="stuck_ticks"),
    "12_slope_down_to_flat": dict(
        about="Walk down a 45-degree slope three tiles high onto flat ground, counting the ticks "
              "spent in the air on the way.",
        layout="""
...........
.P.........
####\\......
#####\\.....
######\\..G.
###########
""", script="0 right", ticks=120, expect_goal=True, measure="air_ticks"),
    "13_shallow_slope_up": dict(
        about="Walk up a shallow slope (8 px over a tile) onto a flat top.",
        layout="""
...........
.......G...
.P...rR####
###########
""", script="0 right", ticks=120, expect_goal=True, measure="stuck_ticks"),
    "14_big_body_on_post": dict(
        about="A body 40 x 24, wider than two tiles, falls onto a single-tile post under the "
              "middle of its bottom edge: probing only its corners misses the post.",
        layout="""
..........
..........
..........
..........
..........
....#.....
..GG#.....
##########
""", spawn=(52, 16, 40, 24), script="0 -", ticks=60, expect_goal=False, measure="landing_tick"),
    "15_big_body_ceiling": dict(
        about="A body 40 x 30 jumps into a single tile over the middle of its top edge.",
        layout="""
...GGGG...
..........
..........
....#.....
..........
..........
..........
..........
##########
""", spawn=(52, 98, 40, 30), script="0 jump\n40 -", ticks=60, expect_goal=False,
        measure="rise_px"),
    "16_over_the_top": dict(
        about="Jump from a ledge over a wall that reaches the map's top row: the space above a "
              "map is open, so the body passes over it.",
        layout="""
...#.....
...#.....
...#.....
#..#.....
#..#.....
#..#.....
#..#...G.
#########
""", spawn=(2, 34, 12, 14), script="0 right+jump", ticks=120,
        expect_goal=True, measure="goal_tick", physics=dict(jump_speed=500.0)),
    "17_map_edge": dict(
        about="Run left into the map's left edge, where the floor runs on: the edge is a wall, "
              "and the body stays in the map.",
        layout="""
.........
G.....P..
#########
""", script="0 left", ticks=90, expect_goal=True, measure="stuck_ticks"),
    # --- slopes and half tiles (issue 20) ---
    "18_half_tile_steps_down": dict(
        about="Walk right off a ledge onto half tiles (8 px lower), then off them onto the floor "
              "(8 px lower again), counting the ticks spent in the air on the two steps.",
        layout="""
............
............
.P..........
####hh....G.
############
""", script="0 right", ticks=120, expect_goal=True, measure="air_ticks"),
    "19_half_tile_hop": dict(
        about="A hop of 13 px (jump_speed 200) from beside a half tile onto its top: a half "
              "tile is a step half a tile high; taken for a full box, it is too high.",
        layout="""
..........
..........
......G...
..P.hhhh..
##########
""", script="0 right+jump\n6 right", ticks=60, expect_goal=True, measure="goal_tick",
        physics=dict(jump_speed=200.0)),
    "20_slope_into_wall": dict(
        about="Walk up a 45-degree slope two tiles high that ends at a wall: the body climbs to "
              "the wall and stops there, standing on the slope.",
        layout="""
......B....
......B....
......B..G.
...../B....
.P../#B....
###########
""", script="0 right", ticks=90, expect_goal=False, measure="drift_px"),
    "21_slope_under_low_ceiling": dict(
        about="Walk up a 45-degree slope under a ceiling too low for the body at the top: it "
              "climbs until its head meets the ceiling and stops there, standing on the slope.",
        layout="""
..........
..........
..........
...BBBBBB.
...../###G
.P../####.
##########
""", script="0 right", ticks=90, expect_goal=False, measure="drift_px"),
}


def goal_object(main, oid):
    cells = main.find("G")
    if not cells:
        raise ValueError("no G cell")
    xs, ys = [x for x, _ in cells], [y for _, y in cells]
    x0, y0, x1, y1 = min(xs), min(ys), max(xs) + 1, max(ys) + 1
    if len(cells) != (x1 - x0) * (y1 - y0):
        raise ValueError("G cells do not make one rectangle")
    return ('  <object id="%d" name="goal" type="goal" x="%d" y="%d" width="%d" height="%d"/>\n'
            % (oid, x0 * T, y0 * T, (x1 - x0) * T, (y1 - y0) * T))


def spawn_object(main, spec, oid):
    if "spawn" in spec:
        x, y, w, h = spec["spawn"]
        return ('  <object id="%d" name="spawn" type="player" x="%g" y="%g" width="%g" '
                'height="%g"/>\n' % (oid, x, y, w, h))
    (sx, sy), = main.find("P")
    return ('  <object id="%d" name="spawn" type="player" x="%d" y="%d">\n   <point/>\n'
            '  </object>\n' % (oid, sx * T + T // 2, (sy + 1) * T))


def prop(name, value, kind=None, propertytype=None):
    t = ' type="%s"' % kind if kind else ""
    pt = ' propertytype="%s"' % propertytype if propertytype else ""
    if "\n" in str(value):  # Tiled writes a multi-line string as the element's text
        return '  <property name="%s"%s>%s</property>\n' % (name, t, escape(str(value)))
    return '  <property name="%s"%s%s value=%s/>\n' % (name, t, pt, quoteattr(str(value)))


def scenario_tmx(name, spec):
    main = Grid(spec["layout"])
    air = Grid(spec["layout"].replace("P", ".").replace("G", "."))
    back = Grid("\n".join("." * main.w for _ in range(main.h)))
    layers = build_layers(air, back)
    props = (prop("about", spec["about"]) + prop("expect_goal", str(spec["expect_goal"]).lower(),
                                                 "bool")
             + prop("measure", spec["measure"], None, "lab_measure")
             + prop("script", spec["script"] + "\n") + prop("ticks", spec["ticks"], "int")
             + prop("title", name.split("_", 1)[1].replace("_", " ").capitalize()))
    for key, value in sorted(spec.get("physics", {}).items()):
        props += prop(key, value, "float")
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<map version="1.10" tiledversion="1.10.2" class="lab_scenario" orientation="orthogonal" '
        'renderorder="right-down" width="%d" height="%d" tilewidth="%d" tileheight="%d" '
        'infinite="0" nextlayerid="4" nextobjectid="3">\n' % (main.w, main.h, T, T)
        + " <properties>\n" + props + " </properties>\n"
        + ' <tileset firstgid="1" source="../terrain.tsx"/>\n'
        + tile_layer(1, "ground", layers["ground"], "csv")
        + ' <objectgroup id="2" name="objects">\n' + spawn_object(main, spec, 1)
        + goal_object(main, 2) + " </objectgroup>\n"
        + "</map>\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--force", action="store_true", help="overwrite existing maps")
    ap.add_argument("--only", metavar="NAME", help="write only this scenario")
    args = ap.parse_args(argv)
    os.makedirs(LAB_DIR, exist_ok=True)
    tiled = shutil.which("tiled")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    refused = 0
    for name, spec in SCENARIOS.items():
        if args.only and args.only != name:
            continue
        out = os.path.join(LAB_DIR, name + ".tmx")
        if os.path.exists(out) and not args.force:
            print("refusing to overwrite levels/lab/%s.tmx (edited in Tiled?); use --force" % name)
            refused += 1
            continue
        draft = os.path.join(LAB_DIR, ".draft_" + name + ".tmx")
        with open(draft, "w", encoding="utf-8", newline="\n") as f:
            f.write(scenario_tmx(name, spec))
        try:
            if tiled is None:
                os.replace(draft, out)
                print("wrote levels/lab/%s.tmx (Tiled not found: not re-saved by Tiled)" % name)
                continue
            subprocess.run([tiled, "--export-map", "tmx", draft, out], env=env, check=True,
                           timeout=120, stderr=subprocess.DEVNULL)
            print("wrote levels/lab/%s.tmx (re-saved by Tiled)" % name)
        finally:
            if os.path.exists(draft):
                os.remove(draft)
    return 1 if refused else 0


if __name__ == "__main__":
    sys.exit(main())
