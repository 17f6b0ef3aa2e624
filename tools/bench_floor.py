"""The floors: what the benchmark's work costs when written as plainly as Python allows, so that
every other figure can be read as "how many times the floor". One measurement, one JSON line:
tools/bench.py's worker for these two reference figures (one fresh process per round).

    python tools/bench_floor.py physics --map 200x50 --movers 100 --steps 600
    python tools/bench_floor.py blit --frames 600 --warmup 10

``physics``: the scenario's movers (tools/bench_scenario.py: the same level, spawns and rules as
the resolvers and Arcade run) stepped by one hand-written loop over the level as a list of lists:
move along x, stop at the first solid cell the leading edge enters, then the same along y. No
slopes, no one-way tiles, no map edges (the scenario's level is walled in), no contacts record, no
function call per mover. Nothing a real resolver does could cost less in Python, so a resolver's
time per mover-step over this one says how much its technique and its generality cost.

``blit``: the least a drawn frame can cost on this machine: one opaque 1280x720 surface blitted
to the screen, then a flip. A map renderer draws at least that much per frame. Each drawing
floor is timed with its pictures' rows 16-byte aligned and one px wider, and the faster counts
(see PITCHES); the bare blit also at several places in memory (see PLACES).

``cut``: the least a frame costs when the view is cut from a bigger picture, as any scrolling
renderer that keeps the map drawn does: one opaque surface of the map's size (up to 1920x1088
px) blitted by the sub-rectangle the camera path sees, then a flip. It costs more than the bare
blit: the rows of the view are not next to each other in the bigger surface.

``scroll``: the most any renderer can reach whose view moves both ways over a map bigger than
it, however it keeps the map: the view cut from a picture ``room`` px bigger than the view
each way (filled once, never drawn into), which is scrolled in place when the view would leave
it, all its room then ahead of the view's motion; no tile is ever drawn. A wide picture costs
more per cut (its rows are far apart: see ``cut``), a narrow one more scrolls; each room of
ROOMS is timed and the fastest counts. On a map the view moves across, a renderer cannot beat
it: it must bring the view's pixels from somewhere every frame, and keeping them anywhere but
in rows next to each other, or keeping them in rows that must be moved as the view moves,
costs at least this.

``layers``: the least a frame of a map with several layers moving apart (parallax) can cost:
each layer of the map (a tile layer, or its tile objects) drawn once, whole, onto a surface of
its own before timing (by pytmx's images, not this project's renderer), then blitted each frame
at its parallax place along the camera path (the opaque first one copied, the others run-length
encoded), then a flip. No animation, no tile or object drawn during the frame: nothing a
renderer of the same layers could skip. The lively map's three layers and its tile objects cost
this floor several bare blits a frame.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from tools import bench_scenario as S  # noqa: E402

_EDGE = 1e-6  # px: an edge exactly on a tile border does not reach into the next tile


def physics(size: tuple[int, int], movers: int, steps: int, best_of: int = 1) -> dict:
    """Entity-steps per second of the scenario's movers with the floor's own collision: the
    fastest of ``best_of`` runs from the scenario's start in this process, as for a resolver."""
    level = S.generate_level(*size)
    spawns = S.spawn_points(level, movers)
    runs = [physics_run(level, spawns, steps) for _ in range(best_of)]
    return S.best_run(runs, movers * steps, 0.0)


def physics_run(level: list[list[int]], spawns: list, steps: int) -> dict:
    """One run of the scenario from its start: {run_s, cpu_s, jumps, reversals}."""
    movers = len(spawns)
    tile, w, h = S.TILE, float(S.PLAYER_W), float(S.PLAYER_H)
    xs = [s.cx - w / 2 for s in spawns]
    ys = [s.cy - h / 2 for s in spawns]
    vxs = [s.direction * S.RUN_SPEED for s in spawns]
    vys = [0.0] * movers
    grounded = [False] * movers
    blocked = [0] * movers
    jumps = reversals = 0
    gravity, max_fall, jump_speed = S.GRAVITY, S.MAX_FALL, S.JUMP_SPEED
    period, reverse_after, half_speed = S.JUMP_PERIOD, S.REVERSE_AFTER, S.RUN_SPEED / 2

    t0, c0 = time.perf_counter(), time.process_time()
    for step in range(steps):
        for i in range(movers):
            vy = vys[i]
            if grounded[i] and (blocked[i] or (step + i) % period == 0):
                vy = -jump_speed
                jumps += 1
            vy += gravity
            if vy > max_fall:
                vy = max_fall
            x0 = xs[i]
            y = ys[i]
            dx = vxs[i]
            # x: the column the leading edge enters, every row the box spans
            x = x0 + dx
            top, bottom = int(y // tile), int((y + h - _EDGE) // tile)
            if dx > 0:
                col = int((x + w - _EDGE) // tile)
                for row in range(top, bottom + 1):
                    if level[row][col]:
                        x = col * tile - w
                        break
            else:
                col = int(x // tile)
                for row in range(top, bottom + 1):
                    if level[row][col]:
                        x = (col + 1) * tile
                        break
            # y: the row the leading edge enters, every column the box spans
            y += vy
            ground = False
            left, right = int(x // tile), int((x + w - _EDGE) // tile)
            if vy > 0:
                row = int((y + h - _EDGE) // tile)
                cells = level[row]
                for col in range(left, right + 1):
                    if cells[col]:
                        y, vy, ground = row * tile - h, 0.0, True
                        break
            else:
                row = int(y // tile)
                cells = level[row]
                for col in range(left, right + 1):
                    if cells[col]:
                        y, vy = (row + 1) * tile, 0.0
                        break
            xs[i], ys[i], vys[i], grounded[i] = x, y, vy, ground
            if abs(x - x0) < half_speed:
                blocked[i] += 1
                if blocked[i] >= reverse_after:
                    vxs[i], blocked[i] = -dx, 0
                    reversals += 1
            else:
                blocked[i] = 0
    run_s = time.perf_counter() - t0
    cpu_s = time.process_time() - c0  # this process only: less hurt by a busy machine
    return {"run_s": run_s, "cpu_s": cpu_s, "jumps": jumps, "reversals": reversals}


# Where SDL copies a surface's rows with SSE streaming stores (the source's and target's rows
# start on 16-byte boundaries, as a 1280 px row of 4-byte pixels does) and where with the C
# library's memcpy (a row pitch that is not a multiple of 16 bytes: a picture one px wider),
# the same copy can take very different times (here ~195 against ~140 us a 1280x720 frame). A
# floor must be the least a frame can cost, so each floor below is timed both ways, in turns,
# and the faster counts (the view buffers of game.view.viewbuffer are one px wider for this).
PITCHES = {"aligned": 0, "one px wider": 1}


def _fastest(frame_fns: dict, frames: int, warmup: int, rounds: int = 4,
             among: str = "") -> dict:
    """Time each of ``frame_fns`` (name -> a function drawing frame i and flipping) over
    ``frames`` frames in ``rounds`` turns each, interleaved; the fastest name starting with
    ``among`` counts: {value, unit, run_s, cpu_fps, way (its name), per_way_cpu_fps}."""
    import pygame

    per = {name: [0.0, 0.0] for name in frame_fns}  # wall s, cpu s
    for name, fn in frame_fns.items():
        for i in range(warmup):
            fn(i)
    chunk = max(1, frames // rounds)
    for r in range(rounds):
        for name, fn in frame_fns.items():
            t0, c0 = time.perf_counter(), time.process_time()
            for i in range(warmup + r * chunk, warmup + (r + 1) * chunk):
                fn(i)
            per[name][0] += time.perf_counter() - t0
            per[name][1] += time.process_time() - c0
    pygame.display.quit()
    n = chunk * rounds
    best = min((k for k in per if k.startswith(among)), key=lambda k: per[k][1])
    run_s, cpu_s = per[best]
    return {"value": n / run_s, "unit": "fps", "run_s": run_s, "ms_per_frame": run_s / n * 1000,
            "cpu_fps": n / cpu_s, "way": best,
            "per_way_cpu_fps": {k: n / v[1] for k, v in per.items()}}


# Where a picture's rows sit in memory relative to the screen's changes what copying it costs:
# here the same 1280x720 blit took from 135 to 180 us by the distance between the two, modulo
# 4 KB alone (SDL copies row by row; the processor's loads and stores to addresses 4 KB apart
# get in each other's way). Where it lands is the memory allocator's choice, so a floor
# timed at one place can be a quarter slower than the same work elsewhere. The bare blit is
# timed with its picture at PLACES distances spread over those 4 KB and the fastest counts.
# (A renderer's view moves through its buffer frame by frame, so its copies meet every
# distance in turn, as the cut and scroll floors' do.)
PLACES = 8


def blit(frames: int, warmup: int) -> dict:
    """Frames per second of one full-view blit and a flip: the floor of any drawn frame."""
    import pygame

    pygame.display.init()
    return _fastest(_bare_blits(pygame.display.set_mode(S.VIEW)), frames, warmup)


def _bare_blits(screen, pitches=PITCHES) -> dict:
    """name -> a frame of the bare blit, for each pitch and place of its picture."""
    import pygame

    fns = {}
    for name, extra in pitches.items():
        # one tall picture; the view's rows start ``y`` rows down it, each start a different
        # distance from the screen's rows modulo 4 KB
        pitch = (S.VIEW[0] + extra) * 4
        starts: dict[int, int] = {}
        for y in range(4096):
            starts.setdefault(y * pitch % 4096 * PLACES // 4096, y)
            if len(starts) == PLACES:
                break
        tall = pygame.Surface((S.VIEW[0] + extra, S.VIEW[1] + max(starts.values()))).convert()
        tall.fill((40, 60, 120))
        for place, y in sorted(starts.items()):
            view = pygame.Rect((0, y), S.VIEW)

            def fn(i: int, picture=tall, view=view) -> None:
                screen.blit(picture, (0, 0), view)
                pygame.display.flip()
            fns[f"{name}, place {place}"] = fn
    return fns


def cut(size: tuple[int, int], frames: int, warmup: int) -> dict:
    """Frames per second of the view cut from a map-sized opaque picture along the camera path."""
    import pygame

    pygame.display.init()
    screen = pygame.display.set_mode(S.VIEW)
    w, h = min(size[0] * S.TILE, 1920), min(size[1] * S.TILE, 1088)
    path = S.camera_path(warmup + frames, S.VIEW, (w, h))
    half_w, half_h = S.VIEW[0] // 2, S.VIEW[1] // 2
    fns = {}
    for name, extra in PITCHES.items():
        picture = pygame.Surface((w + extra, h)).convert()
        picture.fill((40, 60, 120))

        def fn(i: int, picture=picture) -> None:
            cx, cy = path[i]
            screen.blit(picture, (0, 0), (cx - half_w, cy - half_h, *S.VIEW))
            pygame.display.flip()
        fns[name] = fn
    return {**_fastest(fns, frames, warmup), "picture": [w, h]}


ROOMS = (32, 64, 128, 256, 640)  # px of picture beyond the view each way (``scroll``)
SCROLL_MAP = (32000, 32000)  # px: the 1000x1000 map's, so the camera path seldom turns round


def scroll(frames: int, warmup: int) -> dict:
    """Frames per second of the view cut from a picture a little bigger than it, scrolled in
    place when the view would leave it, along the camera path over a big map: the fastest
    ``room`` of ROOMS counts."""
    import pygame

    pygame.display.init()
    screen = pygame.display.set_mode(S.VIEW)
    vw, vh = S.VIEW
    path = S.camera_path(warmup + frames, S.VIEW, SCROLL_MAP)
    fns, scrolls = {}, {}
    for room in ROOMS:
        picture = pygame.Surface((vw + room + 1, vh + room)).convert()  # (see PITCHES)
        picture.fill((40, 60, 120))
        state = {"at": None, "last": None}  # the picture's top-left, the view's last frame
        scrolls[room] = 0

        def fn(i: int, picture=picture, state=state, room=room) -> None:
            cx, cy = path[i]
            x, y = cx - vw // 2, cy - vh // 2
            at, last = state["at"], state["last"] or (x, y)
            if at is None or not (at[0] <= x <= at[0] + room and at[1] <= y <= at[1] + room):
                new = (x - room if x < last[0] else x, y - room if y < last[1] else y)
                if at is not None:
                    picture.scroll(at[0] - new[0], at[1] - new[1])
                    scrolls[room] += 1
                state["at"] = at = new
            state["last"] = (x, y)
            screen.blit(picture, (0, 0), (x - at[0], y - at[1], vw, vh))
            pygame.display.flip()
        fns[f"room {room}"] = fn
    # the bare blit in the same process, interleaved: the share of it the best room reaches is
    # then not blurred by what the machine did between two processes
    bare = _bare_blits(screen, {"one px wider": PITCHES["one px wider"]})
    res = _fastest({**fns, **{f"bare blit, {k}": f for k, f in bare.items()}}, frames, warmup,
                   among="room")
    bare_fps = max(v for k, v in res["per_way_cpu_fps"].items() if k.startswith("bare"))
    return {**res, "room": int(res["way"].split()[1]), "bare_cpu_fps": bare_fps,
            "share_of_bare": res["cpu_fps"] / bare_fps,
            "scrolls": {f"room {k}": v for k, v in scrolls.items()}}


def layers(tmx_path: Path, frames: int, warmup: int) -> dict:
    """Frames per second of the pre-drawn layers of ``tmx_path`` blitted along the camera path."""
    import pygame
    import pytmx

    pygame.display.init()
    screen = pygame.display.set_mode(S.VIEW)
    tmx = pytmx.load_pygame(str(tmx_path))
    w, h, tw, th = tmx.width * tmx.tilewidth, tmx.height * tmx.tileheight, tmx.tilewidth, \
        tmx.tileheight
    origin = (float(tmx.properties.get("parallaxoriginx", 0) or 0),
              float(tmx.properties.get("parallaxoriginy", 0) or 0))
    drawn = []  # (surface, parallax factor)
    for n, layer in enumerate(tmx.visible_layers):
        part = pygame.Surface((w, h), pygame.SRCALPHA)
        if isinstance(layer, pytmx.TiledTileLayer):
            for x, y, img in layer.tiles():
                part.blit(img, (x * tw, (y + 1) * th - img.get_height()))
        elif isinstance(layer, pytmx.TiledObjectGroup):
            if not any(obj.image is not None for obj in layer):
                continue
            for obj in layer:
                if obj.image is not None:
                    img = pygame.transform.scale(obj.image, (int(obj.width), int(obj.height)))
                    part.blit(img, (obj.x, obj.y))  # pytmx gives a tile object's top-left
        else:
            continue
        factor = (float(getattr(layer, "parallaxx", 1) or 1),
                  float(getattr(layer, "parallaxy", 1) or 1))
        if not drawn:
            part = part.convert()  # the first layer covers the view: a plain copy
            wider = pygame.Surface((w + 1, h)).convert()  # (see PITCHES)
            wider.blit(part, (0, 0))
            first = {"aligned": part, "one px wider": wider}
        else:
            part = part.convert_alpha()
            part.set_alpha(255, pygame.RLEACCEL)
        drawn.append((part, factor))
    path = S.camera_path(warmup + frames, S.VIEW, (w, h))
    half_w, half_h = S.VIEW[0] // 2, S.VIEW[1] // 2
    fns = {}
    for name in PITCHES:
        parts = [(first[name], drawn[0][1])] + drawn[1:]

        def fn(i: int, parts=parts) -> None:
            cx, cy = path[i]
            for part, (fx, fy) in parts:
                x = cx - half_w - round((cx - origin[0]) * (1 - fx))
                y = cy - half_h - round((cy - origin[1]) * (1 - fy))
                screen.blit(part, (-x, -y))
            pygame.display.flip()
        fns[name] = fn
    return {**_fastest(fns, frames, warmup), "layers": len(drawn)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    parts = {"physics": [("--map", S.parse_size), ("--movers", int), ("--steps", int)],
             "blit": [("--frames", int), ("--warmup", int)],
             "cut": [("--map", S.parse_size), ("--frames", int), ("--warmup", int)],
             "scroll": [("--frames", int), ("--warmup", int)],
             "layers": [("--tmx", Path), ("--frames", int), ("--warmup", int)]}
    for name, options in parts.items():
        p = sub.add_parser(name)
        for option, kind in options:
            p.add_argument(option, required=True, type=kind)
    sub.choices["physics"].add_argument("--best-of", type=int, default=1)
    a = ap.parse_args(argv)
    if a.what == "physics":
        res = physics(a.map, a.movers, a.steps, a.best_of)
    elif a.what == "blit":
        res = blit(a.frames, a.warmup)
    elif a.what == "cut":
        res = cut(a.map, a.frames, a.warmup)
    elif a.what == "scroll":
        res = scroll(a.frames, a.warmup)
    else:
        res = layers(a.tmx, a.frames, a.warmup)
    print(json.dumps(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
