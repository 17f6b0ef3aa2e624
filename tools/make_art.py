"""Draw the game's pixel art procedurally and save it as PNGs in assets/.

Run with `uv run python tools/make_art.py`. Everything is computed from
integer hashes and simple shapes, so every run produces identical files.

Outputs:
  assets/terrain.png  16x16 tileset, 8 columns (ids documented in TILES)
  assets/player.png   16x16 frames; rows: idle(4), run(6), jump(2)
  assets/walker.png   16x16 frames: a walk cycle (4), facing right
  assets/sky.png      480x270 sky gradient with clouds
  assets/hills.png    480x270 distant hills and trees, transparent on top
"""
import math
import os
import sys

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ASSETS = os.path.join(ROOT, "assets")
T = 16          # tile size
COLS = 8        # tileset columns


def rgb(h):
    h = h.lstrip("#")
    return tuple(int(h[i:i + 2], 16) for i in (0, 2, 4)) + (255,)


def mix(a, b, t):
    return tuple(round(a[i] + (b[i] - a[i]) * t) for i in range(3)) + (255,)


def shade(c, f):
    """Multiply a colour's brightness (f < 1 darker, f > 1 lighter)."""
    return tuple(max(0, min(255, round(v * f))) for v in c[:3]) + (255,)


def hash01(x, y, seed=0):
    """Deterministic pseudo-random number in [0, 1) for integer inputs."""
    n = (x * 374761393 + y * 668265263 + seed * 2246822519) & 0xFFFFFFFF
    n = ((n ^ (n >> 13)) * 1274126177) & 0xFFFFFFFF
    return ((n ^ (n >> 16)) & 0xFFFF) / 65536.0


# ---------------------------------------------------------------- palette
OUTLINE = rgb("2b1a22")
GRASS = [rgb("c4f07a"), rgb("7dd35a"), rgb("4fae45"), rgb("2f7f3d")]
DIRT = {"hi": rgb("b8804d"), "mid": rgb("94613a"), "mid_dk": rgb("875734"), "dk": rgb("744a2c"),
        "deep": rgb("55341f"), "stone": rgb("c9a27a")}
STONE = {"hi": rgb("adb6c6"), "mid": rgb("8c96aa"), "dk": rgb("6d768c"),
         "mortar": rgb("454b60")}
WOOD = {"hi": rgb("f0b866"), "mid": rgb("c98a45"), "dk": rgb("8e5a2a"),
        "line": rgb("4e2f17")}
BACK = {"hi": rgb("6d6a8a"), "mid": rgb("57557a"), "dk": rgb("454262"),
        "mortar": rgb("34314d")}
BACK_DIRT = {"hi": rgb("6e5a5e"), "mid": rgb("574650"), "dk": rgb("463843")}
MOSS = rgb("5d9a4a")


def px(s, x, y, c):
    if 0 <= x < s.get_width() and 0 <= y < s.get_height():
        s.set_at((x, y), c)


def new_tile():
    return pygame.Surface((T, T), pygame.SRCALPHA)


# ---------------------------------------------------------------- ground
def dirt_at(x, y, seed):
    """Dirt texture: soft darker patches plus sparse specks. The patches come
    from a 4x4 lattice that wraps every 16 px, so tiles join seamlessly."""
    def lattice(i, j):
        return hash01(i % 4, j % 4, seed + 101)
    fx, fy = x / 4, y / 4
    i, j = int(fx), int(fy)
    tx, ty = fx - i, fy - j
    tx, ty = tx * tx * (3 - 2 * tx), ty * ty * (3 - 2 * ty)
    top = lattice(i, j) + (lattice(i + 1, j) - lattice(i, j)) * tx
    bot = lattice(i, j + 1) + (lattice(i + 1, j + 1) - lattice(i, j + 1)) * tx
    patch = top + (bot - top) * ty
    r = hash01(x, y, seed)
    if r < 0.04 or (r < 0.16 and patch < 0.35):
        return DIRT["dk"]
    if r < 0.16 or patch < 0.3:
        return DIRT["mid_dk"]
    if r > 0.975:
        return DIRT["hi"]
    return DIRT["mid"]


def add_pebbles(s, seed, inside):
    """Scatter two tiny pebbles where inside(x, y) says there is plain dirt."""
    for i in range(2):
        x = 2 + int(hash01(i, 1, seed) * 11)
        y = 2 + int(hash01(i, 2, seed) * 11)
        if all(inside(x + dx, y + dy) for dx in (0, 1) for dy in (0, 1)):
            px(s, x, y, DIRT["stone"])
            px(s, x + 1, y, DIRT["hi"])
            px(s, x, y + 1, DIRT["hi"])
            px(s, x + 1, y + 1, DIRT["deep"])


def grass_depth(x):
    """Thickness in px of the grass band at column x (same for all tiles)."""
    return (4, 5, 4, 3, 4, 5, 5, 4, 3, 4, 4, 5, 4, 3, 4, 5)[x]


def earth(tops, left=False, right=False, bottom=False, seed=1):
    """A dirt tile whose surface starts at tops[x] in column x.

    tops[x] may be negative (the grass band of a surface in the tile above
    reaches into this tile) or None for pure dirt. Edges get a dark rim.
    """
    s = new_tile()
    for x in range(T):
        top = tops[x]
        for y in range(T):
            if top is not None and y < top:
                continue
            d = 99 if top is None else y - top
            g = grass_depth(x)
            if d == 0:
                c = GRASS[0]
            elif d < g - 1:
                c = GRASS[1] if hash01(x, y, seed + 7) > 0.15 else GRASS[0]
            elif d == g - 1:
                c = GRASS[2]
            elif d == g:
                c = GRASS[3]
            else:
                c = dirt_at(x, y, seed)
            px(s, x, y, c)

    def inside(x, y):
        top = tops[x] if 0 <= x < T else None
        t = -99 if top is None else top + grass_depth(x) + 1
        return 0 <= x < T and t <= y < T and (not left or x > 2) \
            and (not right or x < 13) and (not bottom or y < 13)
    add_pebbles(s, seed, inside)
    # dark rims on the open sides, one px outline plus one px shadow
    for i in range(T):
        if left and s.get_at((0, i)).a:
            dirt_row = tops[0] is None or i > (tops[0] or 0) + grass_depth(0)
            px(s, 0, i, OUTLINE)
            px(s, 1, i, DIRT["deep"] if dirt_row else GRASS[3])
        if right and s.get_at((15, i)).a:
            dirt_row = tops[15] is None or i > (tops[15] or 0) + grass_depth(15)
            px(s, 15, i, OUTLINE)
            px(s, 14, i, DIRT["deep"] if dirt_row else GRASS[3])
        if bottom and s.get_at((i, 15)).a:
            px(s, i, 15, OUTLINE)
            if s.get_at((i, 14)) != OUTLINE:
                px(s, i, 14, DIRT["deep"])
    return s


FLAT = [0] * T
NONE = [None] * T
HALF = [T // 2] * T  # a half tile: the ground's top half way down
# rounded grass corners for the top-left / top-right pieces
TOP_L = [2, 1] + [0] * 14
TOP_R = [0] * 14 + [1, 2]
TOP_LR = [2, 1] + [0] * 12 + [1, 2]


def slope_tops(hl, hr):
    """Top pixel row per column for a floor rising from hl to hr (px)."""
    tops = []
    for x in range(T):
        h = max(hl + (hr - hl) * x / T, hl + (hr - hl) * (x + 1) / T)
        tops.append(T - math.ceil(h))
    return tops


def below(tops):
    """The part of a slope's grass band that spills into the tile below."""
    return [t - T for t in tops]


# ---------------------------------------------------------------- blocks
def bricks(pal, seed, moss=False):
    """Stone bricks, 8x4 px, every other course offset by 4 px."""
    s = new_tile()
    for y in range(T):
        course, yy = divmod(y, 4)
        for x in range(T):
            xx = (x + (4 if course % 2 else 0)) % 8
            if yy == 3 or xx == 7:
                c = pal["mortar"]
            elif yy == 0 or xx == 0:
                c = pal["hi"]
            elif yy == 2 or xx == 6:
                c = pal["dk"]
            else:
                c = pal["mid"]
                if hash01(x, y, seed) < 0.08:
                    c = pal["dk"]
            px(s, x, y, c)
    if moss:
        for x in range(T):
            n = int(hash01(x, 0, seed + 3) * 3) + (1 if 4 < x < 11 else 0)
            for y in range(n):
                px(s, x, y, MOSS if y < n - 1 else shade(MOSS, 0.7))
        for x, y in ((3, 9), (11, 6), (12, 13)):
            px(s, x, y, pal["mortar"])
            px(s, x + 1, y + 1, pal["mortar"])
    return s


def back_dirt():
    """Cave wall behind the level: the dirt texture in dusky, muted colours."""
    s = new_tile()
    tone = {DIRT["mid"]: "mid", DIRT["mid_dk"]: "mid", DIRT["dk"]: "dk", DIRT["hi"]: "hi"}
    for y in range(T):
        for x in range(T):
            px(s, x, y, BACK_DIRT[tone[dirt_at(x, y, 77)]])
    for x, y in ((4, 5), (11, 11)):
        for dx, dy in ((0, 0), (1, 0), (0, 1), (1, 1)):
            px(s, x + dx, y + dy, BACK_DIRT["hi"] if dx + dy < 2 else BACK_DIRT["dk"])
    return s


def plank(kind):
    """One-way platform: a 5 px plank on top, transparent underneath."""
    s = new_tile()
    x0 = 1 if kind in ("left", "single") else 0
    x1 = 14 if kind in ("right", "single") else 15
    for x in range(x0, x1 + 1):
        px(s, x, 0, WOOD["line"])
        px(s, x, 1, WOOD["hi"])
        px(s, x, 2, WOOD["mid"] if hash01(x, 2, 5) > 0.2 else WOOD["dk"])
        px(s, x, 3, WOOD["mid"] if hash01(x, 3, 5) > 0.2 else WOOD["dk"])
        px(s, x, 4, WOOD["dk"])
        px(s, x, 5, WOOD["line"])
    for x in (x0, x1):
        if x in (1, 14):
            for y in range(6):
                px(s, x, y, WOOD["line"])
    # nails where planks butt together, plank seam on the right edge
    for x in (3, 12):
        px(s, x, 2, WOOD["line"])
    if kind in ("left", "middle"):
        for y in range(1, 5):
            px(s, 15, y, WOOD["dk"])
    # little brackets under the ends
    if kind in ("left", "single"):
        bracket(s, 3)
    if kind in ("right", "single"):
        bracket(s, 12, mirror=True)
    return s


def ladder():
    """A wooden ladder: two rails and two rungs a tile, so ladder cells stacked make one ladder
    (its top cell is a floor from above: game.maps.grid)."""
    s = new_tile()
    for y in range(16):
        for x, shade_ in ((2, "line"), (3, "hi"), (4, "dk"), (11, "line"), (12, "hi"), (13, "dk")):
            px(s, x, y, WOOD[shade_] if hash01(x, y, 71) > 0.12 or shade_ == "line" else WOOD["mid"])
    for top in (3, 11):
        for x in range(5, 11):
            px(s, x, top, WOOD["hi"])
            px(s, x, top + 1, WOOD["mid"] if hash01(x, top, 72) > 0.25 else WOOD["dk"])
            px(s, x, top + 2, WOOD["line"])
        for x in (4, 11):  # the rung's pegs through the rails
            px(s, x, top + 1, WOOD["line"])
    return s


def bracket(s, x, mirror=False):
    """A small triangular brace under a plank end."""
    d = -1 if mirror else 1
    for i in range(4):
        for j in range(4 - i):
            edge = j == 3 - i or i == 3
            px(s, x + d * j, 6 + i, WOOD["line"] if edge or j == 0 else WOOD["dk"])


# ---------------------------------------------------------------- decoration
def tufts(tall=False):
    s = new_tile()
    blades = [(2, 3, 0), (3, 5, 1), (4, 3, 1), (7, 4, 0), (8, 6, 1), (9, 4, 1),
              (12, 3, 0), (13, 5, 0)]
    if tall:
        blades = [(1, 6, 0), (2, 9, 1), (3, 7, 1), (5, 11, 0), (6, 8, 1),
                  (8, 12, 1), (9, 9, 0), (11, 10, 1), (12, 7, 0), (13, 9, 1),
                  (14, 5, 0)]
    for x, h, lean in blades:
        for i in range(h):
            y = 15 - i
            xx = x + (1 if lean and i > h * 0.6 else 0)
            c = GRASS[3] if i < 2 else GRASS[2] if i < h - 2 else GRASS[1]
            if i == h - 1:
                c = GRASS[0]
            px(s, xx, y, c)
    return s


def flower(s, x, stem, petal, centre):
    for i in range(stem):
        px(s, x, 15 - i, GRASS[3] if i < 2 else GRASS[2])
    px(s, x + 1, 13, GRASS[1])
    top = 15 - stem
    for dx, dy in ((0, -1), (-1, 0), (1, 0), (0, 1)):
        px(s, x + dx, top + dy, petal)
    px(s, x, top, centre)


def flowers():
    s = new_tile()
    flower(s, 3, 6, rgb("ff6b81"), rgb("ffe066"))
    flower(s, 8, 8, rgb("ffffff"), rgb("ffb020"))
    flower(s, 12, 5, rgb("8fb4ff"), rgb("fff4b0"))
    for x in (1, 6, 10, 14):
        px(s, x, 15, GRASS[2])
        px(s, x, 14, GRASS[1])
    return s


def blob(s, cx, cy, rx, ry, fill, edge, light=None, clip_bottom=15):
    """A filled ellipse with a 1 px outline and an optional highlight."""
    pts = set()
    for y in range(T):
        for x in range(T):
            if ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1 and y <= clip_bottom:
                pts.add((x, y))
    for x, y in pts:
        border = any((x + dx, y + dy) not in pts for dx, dy in
                     ((1, 0), (-1, 0), (0, 1), (0, -1)))
        c = edge if border and y < clip_bottom else fill
        if light and not border and (x - cx) + (y - cy) < -rx * 0.6:
            c = light
        px(s, x, y, c)
    return pts


def bush():
    s = new_tile()
    dark, mid, hi = rgb("2e6b3a"), rgb("45944a"), rgb("7cc862")
    puffs = ((4.5, 11, 4.5, 4.6), (11, 11, 4.6, 4.6), (8, 8, 5.2, 5.3))
    for cx, cy, rx, ry in puffs:
        blob(s, cx, cy, rx, ry, mid, OUTLINE, hi)
    # outlines that ended up inside another puff are filled back in
    for y in range(T):
        for x in range(T):
            deep = any(((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 < 0.72
                       for cx, cy, rx, ry in puffs)
            if deep and s.get_at((x, y)) == OUTLINE:
                px(s, x, y, mid)
    for x, y in ((6, 6), (9, 5), (4, 10), (11, 9), (8, 12), (12, 12), (3, 13)):
        px(s, x, y, dark)
    for x, y in ((6, 5), (5, 8), (10, 8), (7, 9)):
        px(s, x, y, hi)
    return s


def rock():
    s = new_tile()
    blob(s, 8, 13, 5.4, 3.8, rgb("8e8d9a"), OUTLINE, rgb("c3c4cc"))
    blob(s, 12.5, 14, 2.4, 2.2, rgb("7a7986"), OUTLINE, rgb("a9aab4"))
    for x, y in ((7, 14), (9, 13), (5, 14)):
        px(s, x, y, rgb("6a6976"))
    return s


def mushroom():
    s = new_tile()
    for y in range(11, 16):
        for x in range(6, 10):
            px(s, x, y, OUTLINE if x in (6, 9) else rgb("f3e6cf"))
    blob(s, 7.5, 10, 6, 4.2, rgb("e84a4a"), OUTLINE, rgb("ff8d7a"), clip_bottom=11)
    for x in range(3, 13):
        px(s, x, 11, OUTLINE)
    for x, y in ((5, 8), (9, 7), (11, 9)):
        px(s, x, y, rgb("fff6e8"))
    return s


def sign():
    s = new_tile()
    for y in range(8, 16):
        px(s, 7, y, WOOD["line"])
        px(s, 8, y, WOOD["dk"])
        px(s, 9, y, WOOD["line"])
    # board with an arrow shape pointing right
    for y in range(2, 10):
        for x in range(1, 15):
            tip = abs(y - 5.5) > 14.5 - x  # bevelled right end
            if tip:
                continue
            edge = y in (2, 9) or x == 1 or abs(y - 5.5) > 13.5 - x
            c = WOOD["line"] if edge else WOOD["hi"] if y == 3 else WOOD["mid"]
            px(s, x, y, c)
    for x in range(4, 11):          # painted arrow
        px(s, x, 6, rgb("fff1d6"))
    for i in range(3):
        px(s, 10 - i, 5 - i, rgb("fff1d6"))
        px(s, 10 - i, 6 + i, rgb("fff1d6"))
    return s


def fence():
    s = new_tile()
    for x0 in (2, 10):
        for y in range(3, 16):
            for x in range(x0, x0 + 4):
                edge = x in (x0, x0 + 3) or y == 3
                c = WOOD["line"] if edge else WOOD["hi"] if x == x0 + 1 else WOOD["mid"]
                px(s, x, y, c)
        px(s, x0 + 1, 2, WOOD["line"])
        px(s, x0 + 2, 2, WOOD["line"])
    posts = {x for x0 in (2, 10) for x in (x0 + 1, x0 + 2)}   # post middles stay in front
    for ry in (6, 11):
        for x in range(T):
            if x in posts:
                continue
            px(s, x, ry - 1, WOOD["line"])
            px(s, x, ry, WOOD["hi"])
            px(s, x, ry + 1, WOOD["dk"])
            px(s, x, ry + 2, WOOD["line"])
    return s


def flag_top():
    s = new_tile()
    for y in range(3, 16):
        px(s, 2, y, OUTLINE)
        px(s, 3, y, rgb("e6e6ee"))
        px(s, 4, y, OUTLINE)
    blob(s, 3, 2, 2.2, 2.2, rgb("ffd23f"), OUTLINE, rgb("fff3a0"))
    # a waving chequered banner
    for x in range(5, 16):
        wave = round(math.sin((x - 5) / 10 * math.pi * 1.6) * 1.2)
        y0, y1 = 4 + wave, 11 + wave - (x - 5) // 5
        for y in range(y0, y1 + 1):
            if y in (y0, y1) or x == 15:
                c = OUTLINE
            else:
                c = rgb("ffffff") if ((x - 5) // 2 + (y - y0) // 2) % 2 else rgb("3a3a4a")
            px(s, x, y, c)
    return s


def flag_base():
    s = new_tile()
    for y in range(0, 12):
        px(s, 2, y, OUTLINE)
        px(s, 3, y, rgb("e6e6ee"))
        px(s, 4, y, OUTLINE)
    for y in range(11, 16):
        for x in range(0, 8):
            edge = y == 11 or x in (0, 7) or y == 15
            c = OUTLINE if edge else STONE["hi"] if y == 12 else STONE["mid"]
            px(s, x, y, c)
    return s


# ---------------------------------------------------------------- living tiles and items
ICE = {"hi": rgb("f4fbff"), "mid": rgb("bfe6f7"), "dk": rgb("86c5e6"), "line": rgb("3d6f96")}
WATER = {"top": rgb("d8f4ff"), "hi": rgb("5cc3f0"), "mid": rgb("2e8fd6")}
LAVA = {"hi": rgb("ffe066"), "mid": rgb("ff8a2a"), "dk": rgb("d9412b"), "crust": rgb("7a2a22")}
STEEL = {"hi": rgb("e6e9f2"), "mid": rgb("a9b0c2"), "dk": rgb("6b7389")}
GOLD = {"hi": rgb("fff3a0"), "mid": rgb("ffd23f"), "dk": rgb("e09a1a")}


def spikes():
    """Three steel spikes on a base; their harmful box is the lower half (terrain.tsx)."""
    s = new_tile()
    for i in range(3):
        cx = 2 + i * 5 + (1 if i else 0)
        for y in range(7, 14):
            half = (y - 7) // 2 + 1
            for x in range(cx - half + 1, cx + half + 1):
                edge = x in (cx - half + 1, cx + half)
                px(s, x, y, OUTLINE if edge else (STEEL["hi"] if x <= cx else STEEL["mid"]))
        px(s, cx, 6, OUTLINE)
    for x in range(16):
        px(s, x, 14, STEEL["dk"])
        px(s, x, 15, OUTLINE)
    return s


def lava(top):
    s = new_tile()
    for y in range(16):
        for x in range(16):
            if top and y < 3 + round(math.sin(x / 16 * math.pi * 2) * 1.2):
                continue
            n = hash01(x, y, 41)
            c = LAVA["hi"] if n > 0.9 else LAVA["mid"] if n > 0.35 else LAVA["dk"]
            px(s, x, y, c)
    if top:
        for x in range(16):
            y = 3 + round(math.sin(x / 16 * math.pi * 2) * 1.2)
            px(s, x, y, LAVA["hi"])
    return s


def ice(top):
    s = new_tile()
    for y in range(16):
        for x in range(16):
            c = ICE["mid"] if (x + y) % 7 else ICE["hi"]
            if y > 11 and hash01(x, y, 43) > 0.5:
                c = ICE["dk"]
            px(s, x, y, c)
    if top:
        for x in range(16):
            px(s, x, 0, ICE["line"])
            px(s, x, 1, ICE["hi"])
    return s


def water(top):
    """Drawn opaque here; the view draws water layers translucent (layer opacity in Tiled)."""
    s = new_tile()
    for y in range(16):
        for x in range(16):
            c = WATER["mid"] if hash01(x, y, 47) > 0.15 else WATER["hi"]
            px(s, x, y, c)
    if top:
        for x in range(16):
            y = 1 + (1 if (x // 4) % 2 else 0)
            px(s, x, y, WATER["top"])
            px(s, x, y + 1, WATER["hi"])
            px(s, x, 0, (0, 0, 0, 0))
    return s


def door():
    """A barred gate: solid while closed (the view fades it while open)."""
    s = new_tile()
    for y in range(16):
        px(s, 0, y, OUTLINE)
        px(s, 15, y, OUTLINE)
        for x in range(1, 15):
            px(s, x, y, STEEL["dk"] if x % 4 == 0 else rgb("4a3a5a"))
    for x in range(16):
        for y in (3, 12):
            px(s, x, y, STEEL["mid"])
            px(s, x, y + 1, OUTLINE)
    for x in (4, 8, 12):
        px(s, x, 7, GOLD["mid"])
    return s


def coin(frame):
    s = new_tile()
    rx = (5.0, 3.6, 1.4, 3.6)[frame]
    blob(s, 8, 8, rx, 5.2, GOLD["mid"], OUTLINE, GOLD["hi"], clip_bottom=15)
    if frame != 2:
        for y in range(6, 11):
            px(s, 8, y, GOLD["dk"])
    return s


def checkpoint_flag(up):
    s = new_tile()
    for y in range(2, 16):
        px(s, 3, y, OUTLINE)
        px(s, 4, y, rgb("e6e6ee"))
    cloth = rgb("5ad67a") if up else rgb("8a8a9a")
    y0 = 2 if up else 9
    for x in range(5, 13):
        for y in range(y0, y0 + 5 - (x - 5) // 3):
            px(s, x, y, cloth if y not in (y0,) else OUTLINE)
    for x in range(1, 8):
        px(s, x, 15, OUTLINE)
    return s


def lever(on):
    s = new_tile()
    for x in range(3, 13):
        for y in range(12, 16):
            px(s, x, y, OUTLINE if y in (12, 15) or x in (3, 12) else STEEL["mid"])
    for i in range(7):
        x = 8 + (i // 2 if on else -i // 2)
        px(s, x, 11 - i, rgb("8e5a2a"))
    tip = (11, 4) if on else (5, 4)
    blob(s, tip[0], tip[1], 1.8, 1.8, rgb("ee5a5a") if on else rgb("8a8a9a"), OUTLINE)
    return s


def plate(down):
    s = new_tile()
    top = 14 if down else 12
    for x in range(1, 15):
        for y in range(top, 16):
            px(s, x, y, OUTLINE if y == top or x in (1, 14) else GOLD["dk"] if down
               else STEEL["mid"])
    return s


# items.png: 16x16 frames in one row, drawn by the view over the objects of those classes
ITEMS = [("coin0", lambda: coin(0)), ("coin1", lambda: coin(1)), ("coin2", lambda: coin(2)),
         ("coin3", lambda: coin(3)), ("checkpoint_off", lambda: checkpoint_flag(False)),
         ("checkpoint_on", lambda: checkpoint_flag(True)), ("lever_off", lambda: lever(False)),
         ("lever_on", lambda: lever(True)), ("plate_up", lambda: plate(False)),
         ("plate_down", lambda: plate(True))]


def make_items():
    sheet = pygame.Surface((len(ITEMS) * T, T), pygame.SRCALPHA)
    for i, (_key, paint) in enumerate(ITEMS):
        sheet.blit(paint(), (i * T, 0))
    return sheet

# ---------------------------------------------------------------- tileset
S45R, S45L = slope_tops(0, 16), slope_tops(16, 0)
SRLO, SRHI = slope_tops(0, 8), slope_tops(8, 16)
SLHI, SLLO = slope_tops(16, 8), slope_tops(8, 0)

# One entry per tile id, in tileset order (8 per row):
# (key, description, painter). What each tile is to the game (collision, slopes, hazards) is
# said in levels/terrain.tsx, edited in Tiled.
TILES = [
    ("top_left", "grass ground, top-left corner", lambda: earth(TOP_L, left=True, seed=1)),
    ("top", "grass ground, top", lambda: earth(FLAT, seed=2)),
    ("top_right", "grass ground, top-right corner", lambda: earth(TOP_R, right=True, seed=3)),
    ("lone", "grass ground, lone block",
     lambda: earth(TOP_LR, left=True, right=True, bottom=True, seed=4)),
    ("slope_r45", "45-degree slope rising right", lambda: earth(S45R, seed=5)),
    ("slope_l45", "45-degree slope rising left", lambda: earth(S45L, seed=6)),
    ("under_r45", "dirt under a 45-degree slope rising right", lambda: earth(below(S45R), seed=7)),
    ("under_l45", "dirt under a 45-degree slope rising left", lambda: earth(below(S45L), seed=8)),
    # row 1
    ("left", "grass ground, left edge", lambda: earth(NONE, left=True, seed=9)),
    ("fill", "grass ground, dirt fill", lambda: earth(NONE, seed=10)),
    ("right", "grass ground, right edge", lambda: earth(NONE, right=True, seed=11)),
    ("fill_alt", "dirt fill, variant", lambda: earth(NONE, seed=12)),
    ("slope_r_low", "shallow slope rising right, low half (0-8)", lambda: earth(SRLO, seed=13)),
    ("slope_r_high", "shallow slope rising right, high half (8-16)", lambda: earth(SRHI, seed=14)),
    ("slope_l_high", "shallow slope rising left, high half (16-8)", lambda: earth(SLHI, seed=15)),
    ("slope_l_low", "shallow slope rising left, low half (8-0)", lambda: earth(SLLO, seed=16)),
    # row 2
    ("bottom_left", "grass ground, bottom-left corner",
     lambda: earth(NONE, left=True, bottom=True, seed=17)),
    ("bottom", "grass ground, bottom edge", lambda: earth(NONE, bottom=True, seed=18)),
    ("bottom_right", "grass ground, bottom-right corner",
     lambda: earth(NONE, right=True, bottom=True, seed=19)),
    ("top_alt", "grass ground, top, variant with tiny flowers", lambda: earth(FLAT, seed=20)),
    ("under_r_low", "dirt under a shallow slope rising right (low half)",
     lambda: earth(below(SRLO), seed=21)),
    ("under_l_low", "dirt under a shallow slope rising left (low half)",
     lambda: earth(below(SLLO), seed=22)),
    ("brick", "stone brick", lambda: bricks(STONE, 23)),
    ("brick_moss", "stone brick, mossy top", lambda: bricks(STONE, 24, moss=True)),
    # row 3
    ("plank_left", "one-way wooden platform, left end", lambda: plank("left")),
    ("plank_mid", "one-way wooden platform, middle", lambda: plank("middle")),
    ("plank_right", "one-way wooden platform, right end", lambda: plank("right")),
    ("plank_single", "one-way wooden platform, single", lambda: plank("single")),
    ("tufts", "grass tufts", tufts),
    ("flowers", "flowers", flowers),
    ("bush", "bush", bush),
    ("rock", "small rock", rock),
    # row 4
    ("sign", "wooden sign, arrow pointing right", sign),
    ("fence", "wooden fence", fence),
    ("back_brick", "background bricks", lambda: bricks(BACK, 35)),
    ("back_dirt", "background dirt", back_dirt),
    ("flag_top", "exit flag, top", flag_top),
    ("flag_base", "exit flag, pole base", flag_base),
    ("tall_grass", "tall grass", lambda: tufts(tall=True)),
    ("mushroom", "mushroom", mushroom),
    # row 5: the living level's tiles (game/maps/tiles.py)
    ("spikes", "spikes (hazard: lower half)", spikes),
    ("lava_top", "lava, surface (hazard: below the surface)", lambda: lava(True)),
    ("lava", "lava (hazard)", lambda: lava(False)),
    ("ice_top", "ice, top (solid, friction 0.15)", lambda: ice(True)),
    ("ice", "ice (solid, friction 0.15)", lambda: ice(False)),
    ("water_top", "water, surface", lambda: water(True)),
    ("water", "water", lambda: water(False)),
    ("door", "door (in a door layer: solid while closed)", door),
    # row 6: the half tile (the lab's half-tile steps), the ladder
    ("half", "half tile: grass ground 8 px high (slope 8-8)",
     lambda: earth(HALF, left=True, right=True, seed=49)),
    ("ladder", "wooden ladder", ladder),
]
TILE_ID = {key: i for i, (key, *_rest) in enumerate(TILES)}


def make_terrain():
    rows = math.ceil(len(TILES) / COLS)
    sheet = pygame.Surface((COLS * T, rows * T), pygame.SRCALPHA)
    for i, (*_info, paint) in enumerate(TILES):
        sheet.blit(paint(), ((i % COLS) * T, (i // COLS) * T))
    return sheet


def grass_top_variant_extra(sheet):
    """Sprinkle a few tiny flowers into the grass of the 'top variant' tile."""
    i = TILE_ID["top_alt"]
    ox, oy = (i % COLS) * T, (i // COLS) * T
    for x, c in ((3, rgb("ffe066")), (10, rgb("ffffff")), (13, rgb("ff8fa3"))):
        sheet.set_at((ox + x, oy + 1), c)


# ---------------------------------------------------------------- player
BODY = rgb("ee5a5a")
BODY_HI = rgb("ff8f7e")
BODY_DK = rgb("b8384a")
BAND = rgb("ffd23f")
BAND_DK = rgb("e09a1a")
EYE = rgb("1c1224")
CHEEK = rgb("ff9aa8")
SHOE = rgb("3b2a44")
P_OUT = rgb("2a1628")


def draw_player(dy=0, squash=0, blink=False, feet=((4, 0), (9, 0)), tail=0,
                look=0):
    """One 16x16 frame facing right. The body spans x 2..13 (12 px); the
    shoes' soles sit on row 15 unless lifted. dy lowers the whole body,
    squash lowers only its top (breathing), tail bends the headband tail,
    look moves the eyes up (-1) or down (+1)."""
    s = pygame.Surface((T, T), pygame.SRCALPHA)
    top, bottom = 2 + dy + squash, 13 + dy
    inset = {top: 3, top + 1: 1, bottom: 2}
    mask = {(x, y) for y in range(top, bottom + 1)
            for x in range(2 + inset.get(y, 0), 14 - inset.get(y, 0))}
    for fx, lift in feet:                       # shoes, behind the body
        for x in range(fx, fx + 4):
            px(s, x, 15 - lift, P_OUT if x == fx + 3 else SHOE)
        for x in range(fx, fx + 3):
            px(s, x, 14 - lift, P_OUT if x == fx else SHOE)
    for x, y in mask:
        edge = any((x + a, y + b) not in mask for a, b in ((1, 0), (-1, 0), (0, 1), (0, -1)))
        if edge:
            c = P_OUT
        elif y >= bottom - 2 or x >= 12:
            c = BODY_DK
        elif (x <= 4 and y <= top + 4) or (y == top + 1 and x < 8):
            c = BODY_HI
        else:
            c = BODY
        s.set_at((x, y), c)
    # headband across the forehead, knot and tail behind (left)
    by = top + 3
    for x in range(3, 13):
        if s.get_at((x, by)) != P_OUT:
            s.set_at((x, by), BAND)
    for x, y in ((2, by), (1, by), (0, by + tail)):
        px(s, x, y, BAND)
    for x, y in ((2, by + 1), (1, by + 1), (0, by + 1 + tail)):
        px(s, x, y, BAND_DK)
    # face, looking right
    ey = top + 5 + look
    for ex in (8, 11):
        if blink:
            px(s, ex - 1, ey + 1, EYE)
            px(s, ex, ey + 1, EYE)
        else:
            px(s, ex, ey, EYE)
            px(s, ex, ey + 1, EYE)
    px(s, 7, ey + 2, CHEEK)
    px(s, 12, ey + 2, CHEEK)
    if not blink:
        px(s, 10, ey + 2, EYE)
    return s


# foot A over one run cycle: (x, lift); foot B is half a cycle behind
RUN_FOOT = [(10, 0), (8, 0), (4, 0), (2, 1), (4, 2), (8, 1)]


def make_player():
    sheet = pygame.Surface((6 * T, 3 * T), pygame.SRCALPHA)
    idle = [draw_player(), draw_player(squash=1), draw_player(squash=1),
            draw_player(blink=True)]
    run = [draw_player(dy=int(RUN_FOOT[i][1] == 0 and RUN_FOOT[(i + 3) % 6][1] == 0),
                       feet=(RUN_FOOT[(i + 3) % 6], RUN_FOOT[i]), tail=(i % 2) - 1)
           for i in range(6)]
    jump = [draw_player(feet=((3, 1), (8, 0)), tail=1, look=-1),
            draw_player(feet=((2, 0), (10, 0)), tail=-2, look=1)]
    for row, frames in enumerate((idle, run, jump)):
        for col, f in enumerate(frames):
            sheet.blit(f, (col * T, row * T))
    return sheet


# ---------------------------------------------------------------- walker
SHELL = rgb("8a5ad6")
SHELL_HI = rgb("b892f0")
SHELL_DK = rgb("5e3a9e")
BELLY = rgb("f2d7a0")
W_OUT = rgb("24163a")
LEG = rgb("3b2a44")
# the legs over a walk cycle: (x of each of three legs, lifted?) per frame
WALK_LEGS = [((3, 7, 11), (0, 1, 0)), ((4, 8, 12), (1, 0, 1)), ((3, 7, 11), (0, 1, 0)),
             ((2, 6, 10), (1, 0, 1))]


def draw_walker(frame):
    """One 16x16 frame of the walker (a round shelled beetle) facing right. Its 12x12 hitbox is
    the frame's x 2..13, y 4..15: the shell spans it and the feet stand on row 15."""
    s = pygame.Surface((T, T), pygame.SRCALPHA)
    legs, lifts = WALK_LEGS[frame]
    bob = 1 if frame % 2 else 0
    for x, lift in zip(legs, lifts):                 # legs, behind the shell
        for y in range(13 - bob, 16 - lift):
            px(s, x, y, LEG)
        px(s, x + 1, 15 - lift, LEG)
    cx, cy, rx, ry = 7.5, 9.5 - bob, 6.0, 5.0
    mask = {(x, y) for y in range(4, 15) for x in range(2, 14)
            if ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1.0}
    for x, y in mask:
        edge = any((x + a, y + b) not in mask for a, b in ((1, 0), (-1, 0), (0, 1), (0, -1)))
        if edge:
            c = W_OUT
        elif y >= cy + 3:
            c = BELLY
        elif (x - 5) ** 2 + (y - (cy - 3)) ** 2 <= 3:
            c = SHELL_HI
        elif x <= 4 or y >= cy + 2:
            c = SHELL_DK
        else:
            c = SHELL
        s.set_at((x, y), c)
    for y in range(int(cy) - 3, int(cy) + 3):        # the seam of the shell
        if (7, y) in mask and s.get_at((7, y)) != W_OUT:
            px(s, 7, y, SHELL_DK)
    ey = int(cy) - 1                                  # the eye, at the front (right)
    px(s, 11, ey, rgb("ffffff"))
    px(s, 12, ey, EYE)
    px(s, 12, ey + 1, EYE)
    px(s, 11, ey + 1, rgb("ffffff"))
    return s


def make_walker():
    sheet = pygame.Surface((len(WALK_LEGS) * T, T), pygame.SRCALPHA)
    for i in range(len(WALK_LEGS)):
        sheet.blit(draw_walker(i), (i * T, 0))
    return sheet


# ---------------------------------------------------------------- backgrounds
W, H = 480, 270
BAYER = [[0, 8, 2, 10], [12, 4, 14, 6], [3, 11, 1, 9], [15, 7, 13, 5]]


def make_sky():
    top, mid, low = rgb("4d9be6"), rgb("8fd0f5"), rgb("e0f6ff")
    s = pygame.Surface((W, H))
    bands = 12
    for y in range(H):
        t = y / (H - 1)
        for x in range(W):
            # quantise the gradient into bands, dithered at the band edges
            q = t * bands + (BAYER[y % 4][x % 4] / 16 - 0.5)
            k = min(bands, max(0, round(q))) / bands
            c = mix(top, mid, k / 0.6) if k < 0.6 else mix(mid, low, (k - 0.6) / 0.4)
            s.set_at((x, y), c)
    for cx, cy, size in ((60, 50, 1.0), (215, 28, 0.7), (330, 70, 1.2), (440, 40, 0.8),
                         (150, 110, 0.6), (400, 125, 0.5)):
        for dx in (-W, 0, W):
            cloud(s, cx + dx, cy, size)
    return s


def cloud(s, cx, cy, size):
    white, shadow, deep = rgb("ffffff"), rgb("dcebf7"), rgb("b9d3ea")
    puffs = [(-22, 4, 10), (-10, -4, 13), (6, -8, 15), (20, -1, 12), (32, 5, 9)]
    puffs = [(cx + a * size, cy + b * size, r * size) for a, b, r in puffs]
    base = cy + 10 * size
    y0 = int(min(p[1] - p[2] for p in puffs)) - 1
    x0 = int(min(p[0] - p[2] for p in puffs)) - 1
    x1 = int(max(p[0] + p[2] for p in puffs)) + 1
    for y in range(y0, int(base) + 1):
        for x in range(x0, x1 + 1):
            if not (0 <= x < W and 0 <= y < H):
                continue
            d = min(math.hypot(x - a, y - b) - r for a, b, r in puffs)
            if d > 0:
                continue
            low = (y - (base - 6 * size)) / (6 * size)
            c = white if low < 0 else shadow if low < 0.65 else deep
            if d > -1.5 and y < base - 3 * size:
                c = white
            s.set_at((x, y), c)


def ridge(x, terms, base):
    """A horizon height at column x; periodic in W so it tiles seamlessly."""
    return base + sum(a * math.sin(2 * math.pi * (k * x / W) + p) for k, a, p in terms)


def make_hills():
    """Far ridge, rolling mid hills and a band of round treetops in front.
    Every shape is periodic in W, so the layer tiles horizontally."""
    s = pygame.Surface((W, H), pygame.SRCALPHA)
    far, far_hi = rgb("9fcfcf"), rgb("b9e0da")
    mid, mid_hi, mid_dk = rgb("6fb293"), rgb("8cc9a3"), rgb("5e9f86")
    wood, wood_hi, wood_dk = rgb("3f8a6c"), rgb("5aa67c"), rgb("33745e")
    far_terms = [(2, 22, 0.3), (5, 9, 1.9), (11, 4, 0.7)]
    mid_terms = [(3, 12, 2.2), (7, 5, 0.4), (13, 2, 1.1)]
    for x in range(W):
        hf = round(ridge(x, far_terms, 140))
        hm = round(ridge(x, mid_terms, 190))
        for y in range(hf, H):
            c = far_hi if y - hf < 2 else far
            if y >= hm:
                c = mid_hi if y - hm < 2 else mid
                if y - hm > 12 and BAYER[y % 4][x % 4] < (y - hm - 12) / 2:
                    c = mid_dk
            s.set_at((x, y), c)
    # treetops: overlapping discs, the forest body filled in below them
    n = 34
    trees = []
    for i in range(n):
        tx = (i + 0.5) * W / n + 4 * math.sin(i * 2.3)
        r = 8 + 5 * hash01(i, 0, 9)
        ty = 236 - 10 * hash01(i, 1, 9) - 6 * math.sin(2 * math.pi * 2 * tx / W)
        trees.append((tx, ty, r))
    for x in range(W):
        for y in range(180, H):
            hit = None
            for tx, ty, r in trees:
                for dx in (-W, 0, W):
                    ox, oy = x - tx - dx, y - ty
                    if math.hypot(ox, oy) <= r or (oy > 0 and abs(ox) <= r):
                        if hit is None or ty < hit[1]:
                            hit = (math.hypot(ox, oy), ty, r, ox, oy)
            if hit is None:
                if y > 228:
                    s.set_at((x, y), wood_dk)
                continue
            d, ty, r, ox, oy = hit
            c = wood
            if oy < -1 and d > r - 2 and ox < r * 0.5:
                c = wood_hi            # sunlit rim of the crown
            elif oy > 0 and abs(ox) > r - 2:
                c = wood_dk            # shade where crowns overlap
            if y > 244 and BAYER[y % 4][x % 4] < (y - 244) / 1.5:
                c = wood_dk
            s.set_at((x, y), c)
    return s


# ---------------------------------------------------------------- output
LICENSE = """# Asset licence

The images in this folder (`terrain.png`, `player.png`, `walker.png`,
`sky.png`, `hills.png`, `items.png`) are generated by `tools/make_art.py` of this project. Run
`uv run python tools/make_art.py` to redraw them. The other backdrops (`dawn_*.png`,
`dusk_*.png`, `night_*.png`, `moon_*.png`) are drawn by `tools/make_backdrops.py`.

The pixel font the game writes with (5x7 letters with descenders, proportional) is the
project's own too: its glyphs are drawn as text in `game/view/pixelfont.py`
(`GLYPH_TABLE`, one line a character), which turns them into pictures when the game starts.

The sound effects in `sounds/` are synthesised by `tools/make_sounds.py` of this project:
`jump.wav`, `land.wav`, `respawn.wav`, `coin.wav`, `checkpoint.wav`, `stomp.wav`, `goal.wav`,
`level_start.wav`, `hurt.wav`, `switch.wav`, `door.wav`, `throw.wav` and `stick.wav`. Run
`uv run python tools/make_sounds.py` to make them again.

They are all released under **CC0 1.0 Universal** (public domain
dedication): to the extent possible under law, the authors have waived all
copyright and related or neighbouring rights to these images, sounds and font glyphs.
You may copy, modify and use them for any purpose without asking permission
or giving credit.
See https://creativecommons.org/publicdomain/zero/1.0/
"""


def main():
    os.makedirs(ASSETS, exist_ok=True)
    terrain = make_terrain()
    grass_top_variant_extra(terrain)
    out = {"terrain.png": terrain, "player.png": make_player(), "walker.png": make_walker(),
           "sky.png": make_sky(), "hills.png": make_hills(), "items.png": make_items()}
    for name, surf in out.items():
        pygame.image.save(surf, os.path.join(ASSETS, name))
        print("wrote", os.path.join("assets", name), surf.get_size())
    with open(os.path.join(ASSETS, "LICENSE.md"), "w") as f:
        f.write(LICENSE)
    if "--preview" in sys.argv:
        preview(out)


def preview(out, path="/tmp/preview.png", scale=4):
    """Backdrop, tileset and player sheet side by side on the sky, scaled up."""
    sky, hills, terrain, player = (out[k] for k in ("sky.png", "hills.png", "terrain.png",
                                                     "player.png"))
    w = terrain.get_width() + player.get_width() + 24
    h = terrain.get_height() + 16
    full = pygame.Surface((w, h + 120))
    full.blit(pygame.transform.scale(sky, (w, h)), (0, 0))
    full.blit(terrain, (8, 8))
    full.blit(player, (terrain.get_width() + 16, 8))
    full.blit(sky, (0, h), (0, 150, w, 120))
    full.blit(hills, (0, h), (0, 150, w, 120))
    pygame.image.save(pygame.transform.scale_by(full, scale), path)
    print("wrote", path)


if __name__ == "__main__":
    main()
