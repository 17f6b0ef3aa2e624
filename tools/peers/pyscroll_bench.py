"""pyscroll's renderer and pytmx's loader on the benchmark's maps: one measurement, one JSON line.

tools/bench.py's worker for the pyscroll side (it starts one fresh process per round).
``render`` and ``render-whole`` need the ``peers`` dependency group (``uv run --group peers
...``); ``load`` needs only pytmx; ``compare`` draws one frame with both renderers.

    python tools/peers/pyscroll_bench.py render --tmx MAP.tmx --frames 600 --warmup 10
    python tools/peers/pyscroll_bench.py render-whole --tmx MAP.tmx --frames 600 --warmup 10
    python tools/peers/pyscroll_bench.py load --tmx MAP.tmx
    python tools/peers/pyscroll_bench.py compare --tmx MAP.tmx --frame 300 --out DIR

``render`` (the rows ``render/pyscroll/...``): pyscroll's own picture. The map is loaded with
``pytmx.load_pygame`` and one renderer built as pyscroll's documentation shows, with every
option stated (the defaults of pyscroll 2.31)::

    pyscroll.BufferedRenderer(pyscroll.TiledMapData(tmx), (1280, 720), clamp_camera=True,
                              colorkey=None, alpha=False, zoom=1.0)

It draws every visible tile layer merged into its one buffer, with no parallax (pyscroll has
none) and no tile objects (it draws tile layers only). On the plain maps that is the whole map;
on the lively map it is a smaller picture than ours (one view-sized blit a frame, where the
scene moving apart needs one per layer).

``render-whole`` (the rows ``render/pyscroll-whole/...``): the whole scene our renderer draws,
as pyscroll's users draw parallax, pyscroll having none of its own (pyscroll issue #44,
https://github.com/bitcraft/pyscroll/issues/44, "Tiled now supports parallax scrolling
layers", 2021: a user asks whether to "continue with the ``alpha=True`` flags"; the
maintainer on that flag in https://github.com/joereynolds/Mr-Figs/issues/46, 2020: "only
needed for parallax scrolling and other effects"). See :class:`WholeScene`: one renderer per
parallax factor, each centred where Tiled's parallax puts its layers, the upper ones with
``alpha=True``, and the tile objects as sprites in a ``pyscroll.PyscrollGroup``.

Both: the renderers are built, centred on the camera path's first point and drawn once (they
fill their buffers) outside the timer, as our renderer's set-up is. Each frame centres them on
the camera path's point (a view centre inside the map) and draws onto the 1280x720 screen, then
flips, as our side does. Animated tiles run on game time, 1/60 s a frame, on both sides
(pyscroll reads ``time.time()`` for them: its module's ``time`` is given the game clock).

``load``: seconds for ``pytmx.load_pygame`` (the map and its tile images, converted to the
display's format), the loader a pyscroll user calls.

``compare``: the camera path's frame ``--frame`` of the map drawn by this project's
``MapRenderer`` and by :class:`WholeScene` (every frame before it drawn too, so that animations
and buffers are where the benchmark has them), each onto a black 1280x720 screen; saves both
PNGs and a third marking the pixels that differ, and prints how many differ and where. On the
lively map the pictures are the same but for three things, none changing what a frame costs
(``tests/test_tools.py`` checks the rest is equal): translucent pixels (the tiles' rims) are 1
off in a channel here and there (two blitters, rounding their blending differently); in cells
holding an animated tile pyscroll may show another frame (it counts a frame's time from the
draw that showed it, so its frames last a whole number of draws, 9 or 10 at 60 a second for
150 ms, and it drifts behind) and draws each new frame over the old one in its alpha buffer, so
their translucent rims darken; and when the camera crosses a tile on both axes in one frame,
pyscroll draws the new corner cell twice into its alpha buffer (with the new column and with
the new row), so that cell's translucent pixels darken too.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
import time
from importlib.metadata import version
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402
import pytmx  # noqa: E402

from tools import bench_scenario as S  # noqa: E402

OPTIONS = {"clamp_camera": True, "colorkey": None, "alpha": False, "zoom": 1.0}
WHOLE_OPTIONS = {"clamp_camera": "True at parallax factor 1, else False", "colorkey": None,
                 "alpha": "False for the bottom renderer, True for those above", "zoom": 1.0}


class GameClock:
    """Game time, 1/60 s a frame, for pyscroll's tile animations (which read ``time.time()``):
    the same clock our side's animations run on."""

    def __init__(self) -> None:
        self.seconds = 0.0

    def time(self) -> float:
        return self.seconds


def game_clock() -> GameClock:
    """A game clock, made pyscroll's animation clock (``time.time()`` in pyscroll 2.31)."""
    import pyscroll.data

    clock = GameClock()
    pyscroll.data.time = clock
    return clock


class MergedLayers:
    """pyscroll by itself: one renderer drawing every visible tile layer into one buffer."""

    def __init__(self, tmx_path: Path, clock: GameClock) -> None:
        import pyscroll

        t0 = time.perf_counter()
        self.tmx = pytmx.load_pygame(str(tmx_path))
        self.load_s = time.perf_counter() - t0
        self.renderers = 1
        self.renderer = pyscroll.BufferedRenderer(pyscroll.TiledMapData(self.tmx), S.VIEW,
                                                  time_source=clock.time, **OPTIONS)

    def draw(self, screen: pygame.Surface, centre: tuple[int, int]) -> None:
        self.renderer.center(centre)
        self.renderer.draw(screen, screen.get_rect())


def parallax(layer) -> tuple[float, float]:
    """A pytmx layer's parallax factor (pytmx keeps Tiled's attributes as they are written)."""
    return float(getattr(layer, "parallaxx", 1.0)), float(getattr(layer, "parallaxy", 1.0))


def runs_of(tmx) -> list[tuple[tuple[float, float], list[int]]]:
    """The visible tile layers (pytmx indices) in runs sharing a parallax factor, bottom first."""
    runs: list[tuple[tuple[float, float], list[int]]] = []
    for i in tmx.visible_tile_layers:
        factor = parallax(tmx.layers[i])
        if runs and runs[-1][0] == factor:
            runs[-1][1].append(i)
        else:
            runs.append((factor, [i]))
    return runs


@functools.cache
def layer_renderer() -> type:
    """pyscroll's ``BufferedRenderer``, but one that never fills the surface it draws onto
    (it still clears its own buffer), so that it can draw over the layers under it."""
    import pyscroll

    class LayerRenderer(pyscroll.BufferedRenderer):
        def _clear_surface(self, surface, area=None):
            if surface is self._buffer:
                super()._clear_surface(surface, area)

    return LayerRenderer


class WholeScene:
    """The whole scene, as pyscroll's users draw parallax: what our renderer draws.

    * One ``BufferedRenderer`` per parallax factor (a run of tile layers in file order sharing
      one), each with its own ``pytmx.load_pygame`` map whose other tile layers are hidden
      (pyscroll draws ``tmx.visible_tile_layers``; a renderer with ``alpha=True`` converts its
      map's images in place, so maps are not shared). The bottom one is opaque; the ones above
      have ``alpha=True`` (a buffer with an alpha channel, blitted over what is below).
      ``clamp_camera=False`` for a parallax layer: Tiled draws it wherever the camera puts
      it, past the map's edge too, and pyscroll's clamp would move it back (``True`` for the
      layers at factor 1, which the camera path keeps inside the map).
    * Each frame, the renderer of factor f is centred on ``centre - shift`` with
      ``shift = round((centre - parallax origin) * (1 - f))`` per axis: exactly where
      ``game.view.mapart.parallax_shift`` puts our side's layer (Tiled's rule: a layer moves by
      ``(view centre - origin) * (1 - factor)``).
    * The tile objects are sprites of a ``pyscroll.PyscrollGroup`` on the renderer of their
      layer's factor, one sprite layer above its tile layers: the image pytmx gives for the
      object's gid, scaled once at load to the object's width and height
      (``pygame.transform.scale``, as our side), at the object's place (pytmx moves a tile
      object's y from Tiled's bottom-left anchor to the top-left corner). The group draws its
      map and, at the renderer's ``get_center_offset()``, the sprites the view sees.
    * pyscroll's renderer, when its view reaches past its map (or its map is narrower than
      its buffer), first fills the area it drew last frame with its clear colour, on the
      surface it draws onto (``_render_map`` in pyscroll's orthographic.py): on the screen that
      would wipe the layers drawn under it. The renderers here are :func:`layer_renderer`'s,
      which leave the screen alone (they still clear their own buffers), so each draws straight
      onto it. The other way, with the public API only (each such renderer drawing onto a
      transparent view-sized surface of its own, blitted onto the screen), costs one more
      view-sized blit and fill on those frames. Our side does not clear the screen either.
    """

    def __init__(self, tmx_path: Path, clock: GameClock) -> None:
        import pyscroll

        t0 = time.perf_counter()
        probe = pytmx.TiledMap(str(tmx_path))  # the layers, without images
        runs = runs_of(probe)
        maps = [pytmx.load_pygame(str(tmx_path)) for _ in runs]
        self.load_s = time.perf_counter() - t0
        self.origin = (float(getattr(probe, "parallaxoriginx", 0) or 0),
                       float(getattr(probe, "parallaxoriginy", 0) or 0))
        objects = [(i, layer) for i, layer in enumerate(probe.layers)
                   if isinstance(layer, pytmx.TiledObjectGroup) and layer.visible
                   and any(obj.gid for obj in layer)]
        if objects and any(parallax(layer) != runs[-1][0] for _, layer in objects):
            raise ValueError("WholeScene draws tile objects with the top renderer only: "
                             "their layers must share its parallax factor")
        self.layers: list = []  # (renderer, how it draws onto a surface, parallax factor)
        for n, ((factor, indices), tmx) in enumerate(zip(runs, maps)):
            for i in probe.visible_tile_layers:
                tmx.layers[i].visible = i in indices
            renderer = layer_renderer()(
                pyscroll.TiledMapData(tmx), S.VIEW, clamp_camera=factor == (1.0, 1.0),
                colorkey=None, alpha=n > 0, time_source=clock.time, zoom=1.0)
            draw = self._map_drawer(renderer)
            if n == len(runs) - 1 and objects:
                group = pyscroll.PyscrollGroup(map_layer=renderer)
                for i, _ in objects:
                    for obj in tmx.layers[i]:
                        if obj.image is not None:
                            group.add(self._sprite(obj), layer=i)
                draw = group.draw
            self.layers.append((renderer, draw, factor))
        self.renderers = len(self.layers)

    @staticmethod
    def _map_drawer(renderer):
        return lambda surface: renderer.draw(surface, surface.get_rect())

    @staticmethod
    def _sprite(obj) -> pygame.sprite.Sprite:
        size = (max(1, round(obj.width)), max(1, round(obj.height)))
        sprite = pygame.sprite.Sprite()
        sprite.image = obj.image
        if obj.image.get_size() != size:
            sprite.image = pygame.transform.scale(obj.image, size)
        sprite.rect = pygame.Rect((round(obj.x), round(obj.y)), size)
        return sprite

    def layer_centre(self, centre: tuple[int, int], factor: tuple[float, float]
                     ) -> tuple[int, int]:
        """Where a renderer of this parallax factor is centred for a camera at ``centre``."""
        return (centre[0] - round((centre[0] - self.origin[0]) * (1.0 - factor[0])),
                centre[1] - round((centre[1] - self.origin[1]) * (1.0 - factor[1])))

    def view_origin(self, centre: tuple[int, int], factor: tuple[float, float]
                    ) -> tuple[int, int]:
        """The map px at the view's top-left for a layer of this factor."""
        x, y = self.layer_centre(centre, factor)
        return x - S.VIEW[0] // 2, y - S.VIEW[1] // 2

    def draw(self, screen: pygame.Surface, centre: tuple[int, int]) -> None:
        for renderer, draw, factor in self.layers:
            renderer.center(self.layer_centre(centre, factor))
            draw(screen)


SCENES = ("render", "render-whole")


def render(tmx_path: Path, frames: int, warmup: int, whole: bool = False) -> dict:
    """Frames per second of pyscroll drawing the map along the camera path: its tile layers
    merged (:class:`MergedLayers`) or, ``whole``, the whole scene (:class:`WholeScene`)."""
    clock = game_clock()
    pygame.display.init()
    screen = pygame.display.set_mode(S.VIEW)
    t0 = time.perf_counter()
    scene = WholeScene(tmx_path, clock) if whole else MergedLayers(tmx_path, clock)
    path = camera_path(tmx_path, warmup + frames)
    scene.draw(screen, path[0])  # the first, full buffer render
    setup_s = time.perf_counter() - t0 - scene.load_s
    for i, centre in enumerate(path[:warmup]):
        clock.seconds = i * S.STEP_S
        scene.draw(screen, centre)
    t0, c0 = time.perf_counter(), time.process_time()
    for i, centre in enumerate(path[warmup:], warmup):
        clock.seconds = i * S.STEP_S
        scene.draw(screen, centre)
        pygame.display.flip()
    run_s, cpu_s = time.perf_counter() - t0, time.process_time() - c0
    pygame.display.quit()
    return {"value": frames / run_s, "unit": "fps", "run_s": run_s, "setup_s": setup_s,
            "cpu_fps": frames / cpu_s, "pyscroll": version("pyscroll"),
            "renderers": scene.renderers,
            "options": WHOLE_OPTIONS if whole else OPTIONS}


def camera_path(tmx_path: Path, frames: int) -> list[tuple[int, int]]:
    """The benchmark's camera path over this map (tools/bench_scenario.py)."""
    tmx = pytmx.TiledMap(str(tmx_path))  # no images: only the map's size
    return S.camera_path(frames, S.VIEW, (tmx.width * tmx.tilewidth,
                                         tmx.height * tmx.tileheight))


def load(tmx_path: Path) -> dict:
    pygame.display.init()
    pygame.display.set_mode(S.VIEW)  # load_pygame converts images to the display's format
    t0 = time.perf_counter()
    pytmx.load_pygame(str(tmx_path))
    load_s = time.perf_counter() - t0
    pygame.display.quit()
    return {"value": load_s, "unit": "s", "pytmx": version("pytmx")}


# ----------------------------------------------------------------------------------------------
# The same picture? One frame drawn by both sides
# ----------------------------------------------------------------------------------------------

def compare(tmx_path: Path, frame: int, out: Path | None) -> dict:
    """Frame ``frame`` of the camera path drawn by our ``MapRenderer`` and by
    :class:`WholeScene`, each after drawing the frames before it (the compared frame onto a
    screen filled black first): how many pixels differ, by how much, and where."""
    from game.maps.level import load_level
    from game.view.render import MapRenderer, TileImages

    clock = game_clock()
    pygame.display.init()
    screen = pygame.display.set_mode(S.VIEW)
    path = camera_path(tmx_path, frame + 1)
    level = load_level(tmx_path, (S.PLAYER_W, S.PLAYER_H))
    ours = MapRenderer(level, TileImages(level))
    scene = WholeScene(tmx_path, clock)
    half_w, half_h = S.VIEW[0] // 2, S.VIEW[1] // 2

    def draw_ours(i: int, centre: tuple[int, int]) -> None:
        ours.update(i * S.STEP_S)
        origin = (centre[0] - half_w, centre[1] - half_h)
        ours.draw(screen, origin)
        ours.draw_front(screen, origin)

    def draw_theirs(i: int, centre: tuple[int, int]) -> None:
        clock.seconds = i * S.STEP_S
        scene.draw(screen, centre)

    shots = {}
    for name, draw in (("ours", draw_ours), ("pyscroll-whole", draw_theirs)):
        for i, centre in enumerate(path):
            if i in (0, frame):
                screen.fill((0, 0, 0))
            draw(i, centre)
        shots[name] = screen.copy()
    animated = animated_cells(scene, path[frame])
    diff = difference(shots["ours"], shots["pyscroll-whole"], animated)
    result = {"frame": frame, "centre": list(path[frame]), "ms": int(frame * S.STEP_S * 1000),
              "pixels": S.VIEW[0] * S.VIEW[1], "differ": diff["differ"],
              "differ_in_animated_cells": diff["in_animated"],
              "differ_by_more_than_2_elsewhere": diff["elsewhere_by_more_than_2"],
              "max_channel_difference_elsewhere": diff["max_elsewhere"],
              "where": diff["where"]}
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        for name, shot in shots.items():
            pygame.image.save(shot, str(out / f"frame{frame}_{name}.png"))
        pygame.image.save(diff["picture"], str(out / f"frame{frame}_differences.png"))
        result["saved"] = str(out)
    pygame.display.quit()
    return result


def animated_cells(scene: WholeScene, centre: tuple[int, int]) -> pygame.mask.Mask:
    """The view's pixels covered by a cell holding an animated tile (in any tile layer, where
    its parallax puts it): there the two sides may show different frames, as pyscroll times
    animations its own way (each frame lasts a whole number of its draws, counted from the
    draw that showed it, not from when it was due)."""
    out = pygame.mask.Mask(S.VIEW)
    for renderer, _, factor in scene.layers:
        tmx = renderer.data.tmx
        tw, th = tmx.tilewidth, tmx.tileheight
        animated = {gid for gid, props in tmx.tile_properties.items() if props.get("frames")}
        left, top = scene.view_origin(centre, factor)
        cell = pygame.mask.Mask((tw, th), fill=True)
        for i in tmx.visible_tile_layers:
            for y, row in enumerate(tmx.layers[i].data):
                for x, gid in enumerate(row):
                    if gid in animated:
                        out.draw(cell, (x * tw - left, y * th - top))
    return out


def difference(a: pygame.Surface, b: pygame.Surface, animated: pygame.mask.Mask) -> dict:
    """Pixels of ``a`` and ``b`` (same size) that differ: how many, how many of them in
    ``animated``, how many elsewhere by more than 2 in some channel and the largest difference
    in a channel elsewhere, the bounding boxes of the differing areas (at most 20, largest
    first), and a picture: ``a`` dimmed, differing pixels red (orange in animated cells)."""
    gap = a.copy()
    gap.blit(b, (0, 0), special_flags=pygame.BLEND_RGB_SUB)  # max(a - b, 0) per channel
    other = b.copy()
    other.blit(a, (0, 0), special_flags=pygame.BLEND_RGB_SUB)
    gap.blit(other, (0, 0), special_flags=pygame.BLEND_RGB_ADD)  # |a - b| per channel
    differ = pygame.mask.from_threshold(gap, (0, 0, 0), (1, 1, 1, 255))
    differ.invert()
    far = pygame.mask.from_threshold(gap, (0, 0, 0), (3, 3, 3, 255))
    far.invert()
    in_animated = differ.overlap_mask(animated, (0, 0))
    far.erase(animated, (0, 0))
    elsewhere = gap.copy()
    elsewhere.blit(animated.to_surface(setcolor=(0, 0, 0), unsetcolor=None), (0, 0))
    boxes = sorted(differ.get_bounding_rects(), key=lambda r: -r.w * r.h)[:20]
    picture = a.copy()
    picture.fill((90, 90, 90), special_flags=pygame.BLEND_RGB_MULT)
    picture.blit(differ.to_surface(setcolor=(255, 0, 0), unsetcolor=None), (0, 0))
    picture.blit(in_animated.to_surface(setcolor=(255, 160, 0), unsetcolor=None), (0, 0))
    return {"differ": differ.count(), "in_animated": in_animated.count(),
            "elsewhere_by_more_than_2": far.count(),
            "max_elsewhere": max(pygame.image.tobytes(elsewhere, "RGB")), "picture": picture,
            "where": [list(r) for r in boxes]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    for name in SCENES:
        p = sub.add_parser(name)
        p.add_argument("--tmx", required=True, type=Path)
        p.add_argument("--frames", required=True, type=int)
        p.add_argument("--warmup", required=True, type=int)
    p = sub.add_parser("load")
    p.add_argument("--tmx", required=True, type=Path)
    p = sub.add_parser("compare")
    p.add_argument("--tmx", required=True, type=Path)
    p.add_argument("--frame", required=True, type=int, help="which frame of the camera path")
    p.add_argument("--out", type=Path, help="folder to save the three PNGs in")
    a = ap.parse_args(argv)
    if a.what == "load":
        res = load(a.tmx)
    elif a.what == "compare":
        res = compare(a.tmx, a.frame, a.out)
    else:
        res = render(a.tmx, a.frames, a.warmup, whole=a.what == "render-whole")
    print(json.dumps(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
