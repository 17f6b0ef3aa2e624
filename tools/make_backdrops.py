"""Draw the levels' other backdrops (a sky and a row of far hills each) and save them in assets/.

Run with `uv run python tools/make_backdrops.py`. Like tools/make_art.py (whose day sky and
hills are the default backdrop, and whose helpers this uses), every run gives the same files.

A map picks its backdrop with the map property ``backdrop`` (docs/levels.md):
  day    assets/sky.png, assets/hills.png (tools/make_art.py)
  dawn   assets/dawn_sky.png, assets/dawn_hills.png: a pink morning, the sun behind lilac hills
  dusk   assets/dusk_sky.png, assets/dusk_hills.png: an orange-to-violet evening, dark ridges
  night  assets/night_sky.png, assets/night_hills.png: deep blue, stars, a crescent, black woods
  moon   assets/moon_sky.png, assets/moon_hills.png: black space, stars, the Earth rising,
         grey cratered ridges
"""

import math
import os
import sys

import pygame

from tools.make_art import ASSETS, BAYER, H, W, hash01, mix, rgb, ridge


def gradient(stops, bands=14):
    """A vertical gradient through ``stops`` ((t, colour), t from 0 at the top to 1), quantised
    into bands and dithered at their edges like the day sky."""
    s = pygame.Surface((W, H))
    for y in range(H):
        t = y / (H - 1)
        for x in range(W):
            q = min(1.0, max(0.0, round(t * bands + (BAYER[y % 4][x % 4] / 16 - 0.5)) / bands))
            for (t0, c0), (t1, c1) in zip(stops, stops[1:]):
                if q <= t1:
                    s.set_at((x, y), mix(c0, c1, (q - t0) / (t1 - t0) if t1 > t0 else 0))
                    break
    return s


def stars(s, count, top, bottom, seed):
    for i in range(count):
        x = int(hash01(i, 1, seed) * W)
        y = int(top + hash01(i, 2, seed) * (bottom - top))
        bright = hash01(i, 3, seed)
        c = rgb("ffffff") if bright > 0.8 else rgb("c8d4ff") if bright > 0.4 else rgb("8890c0")
        s.set_at((x, y), c)
        if bright > 0.93:  # a few with a small cross
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                s.set_at(((x + dx) % W, min(H - 1, max(0, y + dy))), rgb("8890c0"))


def disc(s, cx, cy, r, colour_at):
    for y in range(int(cy - r) - 1, int(cy + r) + 2):
        for x in range(int(cx - r) - 1, int(cx + r) + 2):
            if 0 <= x < W and 0 <= y < H and math.hypot(x - cx, y - cy) <= r:
                c = colour_at(x - cx, y - cy)
                if c is not None:
                    s.set_at((x, y), c)


def hills(layers, trees=None):
    """Far ridges (each (terms, base, colour, highlight)), periodic in W, on a clear picture."""
    s = pygame.Surface((W, H), pygame.SRCALPHA)
    for terms, base, colour, high in layers:
        for x in range(W):
            top = round(ridge(x, terms, base))
            for y in range(max(0, top), H):
                s.set_at((x, y), high if y - top < 2 else colour)
    if trees:
        colour, base = trees
        n = 40
        for i in range(n):
            tx = (i + 0.5) * W / n + 3 * math.sin(i * 1.7)
            h = 18 + 14 * hash01(i, 4, 5)
            for y in range(int(base - h), H):
                half = max(0.0, (y - (base - h)) / h) * 6 + 1
                for x in range(int(tx - half), int(tx + half) + 1):
                    s.set_at((x % W, y), colour)
    return s


def make_dusk():
    sky = gradient([(0.0, rgb("2e2456")), (0.45, rgb("8a4a7e")), (0.75, rgb("e8855a")),
                    (1.0, rgb("ffd27a"))])
    disc(sky, 330, 205, 26, lambda dx, dy: rgb("ffe9a8") if dy < 12 else None)  # the sun
    stars(sky, 40, 0, 70, 11)
    far = [(2, 18, 0.8), (6, 7, 2.1), (13, 3, 0.2)]
    mid = [(3, 10, 1.3), (8, 4, 0.5)]
    back = hills([(far, 170, rgb("6a3f6e"), rgb("7f4f7c")), (mid, 205, rgb("432a52"),
                                                             rgb("55355f"))],
                 trees=(rgb("241a33"), 262))
    return sky, back


def make_dawn():
    sky = gradient([(0.0, rgb("6a8fd0")), (0.5, rgb("f0b7c4")), (0.8, rgb("ffd9a0")),
                    (1.0, rgb("fff1c8"))])
    disc(sky, 120, 228, 30, lambda dx, dy: rgb("fff6d8"))  # the sun, rising behind the hills
    far = [(2, 20, 1.4), (5, 8, 0.2), (10, 4, 2.4)]
    mid = [(3, 11, 0.9), (7, 5, 2.6)]
    back = hills([(far, 168, rgb("c7a6c6"), rgb("d8bcd4")), (mid, 202, rgb("8e8fb8"),
                                                             rgb("a3a5c9"))],
                 trees=(rgb("5d6690"), 260))
    return sky, back


def make_night():
    sky = gradient([(0.0, rgb("070b24")), (0.6, rgb("17235a")), (1.0, rgb("2f4a86"))])
    stars(sky, 220, 0, 200, 21)
    disc(sky, 390, 60, 16, lambda dx, dy: rgb("f3f0d2")
         if math.hypot(dx - 7, dy - 4) > 14 else None)  # a crescent
    far = [(2, 16, 2.6), (5, 8, 0.9), (12, 3, 1.7)]
    mid = [(4, 9, 0.3), (9, 4, 2.0)]
    back = hills([(far, 175, rgb("1d2b55"), rgb("2a3a6a")), (mid, 210, rgb("121c3c"),
                                                             rgb("1a2850"))],
                 trees=(rgb("0a1128"), 258))
    return sky, back


def make_moon():
    sky = gradient([(0.0, rgb("02030a")), (0.7, rgb("0b0e22")), (1.0, rgb("1a1d36"))])
    stars(sky, 260, 0, 230, 31)

    def earth(dx, dy):
        lit = dx * 0.6 - dy * 0.8 > -6  # lit from the upper right
        land = hash01(int(dx // 4), int(dy // 4), 7) > 0.6
        if not lit:
            return rgb("0c1a3a")
        return rgb("5fae6a") if land else rgb("3d7fd6")
    disc(sky, 110, 70, 22, earth)
    far = [(2, 14, 1.1), (5, 6, 2.8), (11, 3, 0.4)]
    mid = [(3, 8, 0.6), (7, 4, 1.9)]
    back = hills([(far, 185, rgb("5d6072"), rgb("7b7e92")), (mid, 215, rgb("44465a"),
                                                             rgb("5a5d74"))])
    for i in range(22):  # craters on the near ridge
        cx, cy = hash01(i, 8, 41) * W, 222 + hash01(i, 9, 41) * 40
        r = 3 + 6 * hash01(i, 10, 41)
        for y in range(int(cy - r), int(cy + r) + 1):
            for x in range(int(cx - r * 1.6), int(cx + r * 1.6) + 1):
                if 0 <= y < H and ((x - cx) / 1.6) ** 2 + (y - cy) ** 2 <= r * r:
                    c = back.get_at((x % W, y))
                    if c.a:
                        edge = ((x - cx) / 1.6) ** 2 + (y - cy) ** 2 > (r - 1.2) ** 2
                        back.set_at((x % W, y), rgb("7b7e92") if edge and y < cy
                                    else rgb("33354a"))
    return sky, back


BACKDROPS = {"dawn": make_dawn, "dusk": make_dusk, "night": make_night, "moon": make_moon}


def main():
    for name, make in BACKDROPS.items():
        sky, back = make()
        for part, surf in (("sky", sky), ("hills", back)):
            path = os.path.join(ASSETS, f"{name}_{part}.png")
            pygame.image.save(surf, path)
            print("wrote", os.path.relpath(path, os.path.dirname(ASSETS)), surf.get_size())
    return 0


if __name__ == "__main__":
    sys.exit(main())
