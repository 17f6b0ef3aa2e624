"""The benchmark's scenario: one generated level, its movers' rules, its camera path, its TMX.

Every engine the benchmark times (this project's resolvers, Python Arcade's platformer physics,
this project's map renderer, pyscroll) runs exactly what this module describes, so their figures
compare as ratios. It imports no engine (pygame only to paint the tileset image, lazily).

Units are pixels and fixed steps; one step is 1/60 s of game time, so speeds are px per step.

The level (:func:`generate_level`) is a W x H grid of solid (1) and empty (0) tiles, row 0 at the
top: a solid ceiling row, FLOOR_ROWS solid rows at the bottom, solid side columns, one floating
platform per PLATFORM_EVERY tiles of area and one pillar on the floor per PILLAR_EVERY columns,
all placed by ``random.Random(seed)``: the same seed gives the same level on every machine.

The movers (:func:`spawn_points`) start at the centres of free 2x2-tile pockets, each heading left
or right. Every step, for every mover ``i`` in order:

1. it wants to jump if it was blocked last step or ``(step + i) % JUMP_PERIOD == 0``; it jumps
   (vertical speed JUMP_SPEED upward) only if it stands on the ground;
2. gravity adds GRAVITY to its downward speed, which is capped at MAX_FALL;
3. it moves by (RUN_SPEED * direction, vertical speed) against the solid tiles; a landing or a
   ceiling sets its vertical speed to 0;
4. if it moved less than RUN_SPEED / 2 sideways it is blocked: after REVERSE_AFTER blocked steps
   in a row it turns round. Any step that gets it going again resets the count.

Movers never collide with each other. The render benchmark's camera (:func:`camera_path`) starts
at the top-left-most centre a view can have and moves a fixed step per frame, bouncing off the
map's edges; :func:`write_tmx` writes the level as a Tiled map for the renderers.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import NamedTuple

TILE = 32  # px: tile edge
SEED = 1234  # level and spawn seed
FLOOR_ROWS = 2  # solid rows at the bottom
PLATFORM_EVERY = 60  # one floating platform per this many tiles of map area
PLATFORM_LEN = (3, 10)  # tiles: a platform's length, both ends included
PILLAR_EVERY = 12  # one pillar per this many columns
PILLAR_H = (1, 3)  # tiles: a pillar's height, both ends included
PLAYER_W, PLAYER_H = 24, 30  # px: a mover's box
GRAVITY = 1.0  # px/step^2 (Arcade's platformer tutorial's value)
RUN_SPEED = 5.0  # px/step sideways
JUMP_SPEED = 20.0  # px/step upward at take-off
MAX_FALL = 15.0  # px/step: the cap on falling speed (under half a tile: nothing tunnels)
JUMP_PERIOD = 90  # steps: a grounded mover also jumps this often (staggered by its index)
REVERSE_AFTER = 20  # blocked steps in a row before a mover turns round
STEP_S = 1 / 60  # s of game time per step

MIN_W, MIN_H = 8, 10  # tiles: the smallest level the generator can place things in


class Spawn(NamedTuple):
    """Where a mover starts: the *centre* of its box (px, y down) and its heading (-1 or +1)."""

    cx: float
    cy: float
    direction: int


def generate_level(w: int, h: int, seed: int = SEED) -> list[list[int]]:
    """The level as ``grid[row][col]``, 1 = solid, row 0 at the top (see the module docstring)."""
    if w < MIN_W or h < MIN_H:
        raise ValueError(f"a level needs at least {MIN_W}x{MIN_H} tiles, not {w}x{h}")
    rng = random.Random(seed)
    grid = [[0] * w for _ in range(h)]
    grid[0] = [1] * w
    for row in range(h - FLOOR_ROWS, h):
        grid[row] = [1] * w
    for row in grid:
        row[0] = row[-1] = 1
    for _ in range(w * h // PLATFORM_EVERY):
        length = rng.randint(*PLATFORM_LEN)
        start = rng.randint(1, max(1, w - 1 - length))
        row = rng.randint(3, h - FLOOR_ROWS - 4)
        for col in range(start, min(w - 1, start + length)):
            grid[row][col] = 1
    floor_top = h - FLOOR_ROWS
    for _ in range(w // PILLAR_EVERY):
        col = rng.randint(2, w - 3)
        for row in range(floor_top - rng.randint(*PILLAR_H), floor_top):
            grid[row][col] = 1
    return grid


def spawn_points(grid: list[list[int]], n: int, seed: int = SEED) -> list[Spawn]:
    """``n`` spawns at the centres of free 2x2-tile pockets, drawn with ``Random(seed + 1)``."""
    rng = random.Random(seed + 1)
    h, w = len(grid), len(grid[0])
    out: list[Spawn] = []
    tries = 0
    while len(out) < n:
        tries += 1
        if tries > 1000 * (n + 10):
            raise ValueError(f"found only {len(out)} free pockets for {n} movers")
        col, row = rng.randint(1, w - 3), rng.randint(1, h - FLOOR_ROWS - 2)
        if not (grid[row][col] or grid[row][col + 1] or grid[row + 1][col]
                or grid[row + 1][col + 1]):
            out.append(Spawn((col + 1) * TILE, (row + 1) * TILE, rng.choice((-1, 1))))
    return out


def parse_size(text: str) -> tuple[int, int]:
    """``"200x50"`` -> (200, 50); ValueError if it is not WxH in whole tiles."""
    w, sep, h = text.lower().partition("x")
    if not sep or not w.isdigit() or not h.isdigit():
        raise ValueError(f"{text!r} is not WxH (e.g. 200x50)")
    return int(w), int(h)


def best_run(runs: list[dict], mover_steps: int, setup_s: float) -> dict:
    """The physics figures of the fastest of ``runs`` (each {run_s, cpu_s, jumps, reversals}),
    by CPU time, with every run's CPU seconds; the runs must have done the same thing."""
    if len({(r["jumps"], r["reversals"]) for r in runs}) != 1:
        raise RuntimeError(f"the runs did different things: {runs}")
    best = min(runs, key=lambda r: r["cpu_s"])
    run_s, cpu_s = min(r["run_s"] for r in runs), best["cpu_s"]
    return {"value": mover_steps / run_s, "unit": "entity-steps/s", "run_s": run_s,
            "us_per_mover_step": run_s / mover_steps * 1e6, "jumps": best["jumps"],
            "reversals": best["reversals"], "setup_s": setup_s, "cpu_s": cpu_s,
            "cpu_steps_per_s": mover_steps / cpu_s, "best_of": len(runs),
            "cpu_s_runs": [r["cpu_s"] for r in runs]}



# ----------------------------------------------------------------------------------------------
# The render benchmark: camera path and map file
# ----------------------------------------------------------------------------------------------

VIEW = (1280, 720)  # px: the view both renderers draw
CAMERA_STEP = (4, 2)  # px per frame the view's centre moves
LAYERS = 2  # tile layers: an opaque background under the solid "ground" layer


def camera_path(frames: int, view: tuple[int, int], map_px: tuple[int, int],
                step: tuple[int, int] = CAMERA_STEP) -> list[tuple[int, int]]:
    """The view's centre for each frame: from the top-left-most centre a view inside the map can
    have, ``step`` px per frame, turning round on an axis when it would leave the map."""
    lo = [view[0] // 2, view[1] // 2]
    hi = [max(lo[k], map_px[k] - view[k] + view[k] // 2) for k in (0, 1)]
    pos, vel = lo[:], list(step)
    out = []
    for _ in range(frames):
        out.append((pos[0], pos[1]))
        for k in (0, 1):
            pos[k] += vel[k]
            if not lo[k] <= pos[k] <= hi[k]:
                vel[k] = -vel[k]
                pos[k] = min(max(pos[k], lo[k]), hi[k])
    return out


SHEET_COLS, SHEET_ROWS = 8, 4  # the tileset: 16 background tiles, then 16 ground tiles
BACK_TILES = 16


def write_tileset_png(path: Path, tile: int = TILE) -> tuple[int, int]:
    """Paint the tileset: opaque background tiles (a colour ramp with a few light specks), then
    ground tiles with rounded corners and a translucent rim (per-pixel alpha). Returns its size."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    sheet = pygame.Surface((SHEET_COLS * tile, SHEET_ROWS * tile), pygame.SRCALPHA)
    rng = random.Random(SEED)
    radius = tile // 4
    for i in range(SHEET_COLS * SHEET_ROWS):
        cell = pygame.Rect(i % SHEET_COLS * tile, i // SHEET_COLS * tile, tile, tile)
        if i < BACK_TILES:
            sheet.fill((30 + 5 * i, 50 + 4 * i, 110 + 6 * i, 255), cell)
            for _ in range(5):
                speck = (cell.x + rng.randrange(tile - 1), cell.y + rng.randrange(tile - 1), 2, 2)
                sheet.fill((210, 210, 235, 255), speck)
        else:
            k = i - BACK_TILES
            pygame.draw.rect(sheet, (100 + 7 * k, 75 + 4 * k, 45, 255), cell,
                             border_radius=radius)
            pygame.draw.rect(sheet, (35, 25, 15, 150), cell, width=2, border_radius=radius)
    pygame.image.save(sheet, str(path))
    return sheet.get_size()


def write_tmx(path: Path, w: int, h: int, layers: int = LAYERS, tile: int = TILE,
              seed: int = SEED) -> Path:
    """Write the level as an orthogonal Tiled map (CSV layers) beside its tileset image.

    Layers, bottom to top: ``background`` (every cell an opaque tile; only when ``layers`` is 2)
    and ``ground`` (the level's solid cells, tiles with ``collision=solid``), then an object layer
    with the ``spawn`` rectangle (class ``player``, a mover's size, centred on the first spawn).
    """
    if layers not in (1, 2):
        raise ValueError("layers must be 1 or 2")
    path = Path(path)
    png = path.with_name(path.stem + "_tiles.png")
    sheet_w, sheet_h = write_tileset_png(png, tile)
    grid = generate_level(w, h, seed)
    tile_layers = []
    if layers == 2:
        tile_layers.append(("background", lambda c, r: 1 + (c // 3 * 7 + r // 3 * 3 + c * r % 5)
                            % BACK_TILES))
    tile_layers.append(("ground", lambda c, r: BACK_TILES + 1 + (c + 2 * r) % 16
                        if grid[r][c] else 0))
    spawn = spawn_points(grid, 1, seed)[0]
    with open(path, "w", encoding="utf-8") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n'
                f'<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" '
                f'renderorder="right-down" width="{w}" height="{h}" tilewidth="{tile}" '
                f'tileheight="{tile}" infinite="0" nextlayerid="{len(tile_layers) + 2}" '
                'nextobjectid="2">\n'
                f' <tileset firstgid="1" name="bench" tilewidth="{tile}" tileheight="{tile}" '
                f'tilecount="{SHEET_COLS * SHEET_ROWS}" columns="{SHEET_COLS}">\n'
                f'  <image source="{png.name}" width="{sheet_w}" height="{sheet_h}"/>\n')
        for tid in range(BACK_TILES, SHEET_COLS * SHEET_ROWS):
            f.write(f'  <tile id="{tid}"><properties><property name="collision" '
                    'value="solid"/></properties></tile>\n')
        f.write(' </tileset>\n')
        for lid, (name, gid_at) in enumerate(tile_layers, 1):
            f.write(f' <layer id="{lid}" name="{name}" width="{w}" height="{h}">\n'
                    '  <data encoding="csv">\n')
            f.write(",\n".join(",".join(str(gid_at(c, r)) for c in range(w)) for r in range(h)))
            f.write('\n  </data>\n </layer>\n')
        f.write(f' <objectgroup id="{len(tile_layers) + 1}" name="objects">\n'
                f'  <object id="1" name="spawn" type="player" x="{spawn.cx - PLAYER_W / 2:g}" '
                f'y="{spawn.cy - PLAYER_H / 2:g}" width="{PLAYER_W}" height="{PLAYER_H}"/>\n'
                ' </objectgroup>\n</map>\n')
    return path


# The lively map: what a real level adds to the tiles, for the drawing benchmark.
SKY_PARALLAX = 0.3  # the far layer (every cell a background tile) moves at 0.3 of the camera
HILLS_PARALLAX = 0.6  # the near layer (a ridge of translucent-rimmed tiles) at 0.6
ANIMATED_EVERY = 7  # one ground tile in this many is animated
ANIMATION = (150, 150, 150, 150)  # ms: its four frames
TREE_EVERY = 5  # columns: a tile object (a "tree", 2x2 tiles stretched) on the floor every 5


def write_lively_tmx(path: Path, w: int, h: int, tile: int = TILE, seed: int = SEED) -> Path:
    """Write the level with what a real platformer's map draws beyond its tiles: two parallax
    layers (a full sky at SKY_PARALLAX, a ridge of hills at HILLS_PARALLAX), animated ground
    tiles (one in ANIMATED_EVERY, four frames), and tile objects (a tree every TREE_EVERY
    columns, standing on the floor). Same tileset image, level and spawn as :func:`write_tmx`."""
    path = Path(path)
    png = path.with_name(path.stem + "_tiles.png")
    sheet_w, sheet_h = write_tileset_png(png, tile)
    grid = generate_level(w, h, seed)
    rng = random.Random(seed)
    ridge = [h // 2 + int(h / 6 * (1 + ((c * 7) % 11) / 11)) for c in range(w)]
    animated = BACK_TILES + 15  # the ground tile that cycles through frames
    scenery = SHEET_COLS * SHEET_ROWS + 1  # a second tileset on the same image: no collision
    frames = "".join(f'<frame tileid="{BACK_TILES + 8 + k}" duration="{ms}"/>'
                     for k, ms in enumerate(ANIMATION))
    layers = [
        ("sky", SKY_PARALLAX, lambda c, r: 1 + (c * 5 + r * 3) % BACK_TILES),
        ("hills", HILLS_PARALLAX, lambda c, r: scenery + BACK_TILES + (c + r) % 8
         if r >= ridge[c] else 0),
        ("ground", 1.0, lambda c, r: (animated + 1 if (c * 3 + r) % ANIMATED_EVERY == 0
                                      else BACK_TILES + 1 + (c + 2 * r) % 15) if grid[r][c]
         else 0),
    ]
    floor_top = h - FLOOR_ROWS
    trees = [c for c in range(2, w - 3, TREE_EVERY)
             if not any(grid[r][c] or grid[r][c + 1] for r in range(floor_top - 2, floor_top))]
    spawn = spawn_points(grid, 1, seed)[0]
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n'
           f'<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" '
           f'renderorder="right-down" width="{w}" height="{h}" tilewidth="{tile}" '
           f'tileheight="{tile}" infinite="0" parallaxoriginx="0" parallaxoriginy="0">\n'
           f' <tileset firstgid="1" name="bench" tilewidth="{tile}" tileheight="{tile}" '
           f'tilecount="{SHEET_COLS * SHEET_ROWS}" columns="{SHEET_COLS}">\n'
           f'  <image source="{png.name}" width="{sheet_w}" height="{sheet_h}"/>\n']
    for tid in range(BACK_TILES, SHEET_COLS * SHEET_ROWS):
        anim = f"<animation>{frames}</animation>" if tid == animated else ""
        out.append(f'  <tile id="{tid}"><properties><property name="collision" '
                   f'value="solid"/></properties>{anim}</tile>\n')
    out.append(' </tileset>\n'
               f' <tileset firstgid="{scenery}" name="scenery" tilewidth="{tile}" '
               f'tileheight="{tile}" tilecount="{SHEET_COLS * SHEET_ROWS}" '
               f'columns="{SHEET_COLS}">\n'
               f'  <image source="{png.name}" width="{sheet_w}" height="{sheet_h}"/>\n'
               ' </tileset>\n')
    for lid, (name, factor, gid_at) in enumerate(layers, 1):
        par = f' parallaxx="{factor}" parallaxy="{factor}"' if factor != 1.0 else ""
        out.append(f' <layer id="{lid}" name="{name}" width="{w}" height="{h}"{par}>\n'
                   '  <data encoding="csv">\n')
        out.append(",\n".join(",".join(str(gid_at(c, r)) for c in range(w)) for r in range(h)))
        out.append('\n  </data>\n </layer>\n')
    out.append(' <objectgroup id="4" name="things">\n')
    for i, c in enumerate(trees, 10):
        out.append(f'  <object id="{i}" gid="{scenery + BACK_TILES + 1 + rng.randrange(6)}" '
                   f'x="{c * tile}" y="{floor_top * tile}" width="{2 * tile}" '
                   f'height="{2 * tile}"/>\n')
    out.append(' </objectgroup>\n <objectgroup id="5" name="objects">\n'
               f'  <object id="1" name="spawn" type="player" x="{spawn.cx - PLAYER_W / 2:g}" '
               f'y="{spawn.cy - PLAYER_H / 2:g}" width="{PLAYER_W}" height="{PLAYER_H}"/>\n'
               ' </objectgroup>\n</map>\n')
    path.write_text("".join(out), encoding="utf-8")
    return path
