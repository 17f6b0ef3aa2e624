"""The debug view (F3): what the resolver saw and did, drawn over the scene, in numbers, and a
key to its colours.

- :func:`draw_marks` marks the scene (view px): solid, one-way and slope tiles in view, the
  cells the player's last move probed (and each ghost's, outlined in its colour), each push-out
  (the box the move tried to reach and a line to where it was put), the player's hitbox (green
  standing, white in the air) and the edges in contact.
- :func:`debug_rows` is the text: position, speed, contacts, cells probed (by the resolver's
  lesson), tick, push-out, which class moved the player (the lesson or its fast twin), a line
  per ghost that has parted from the player, and one naming those still with them.
- :func:`draw_legend` is the key: each mark drawn as the scene draws it, and its name.

Everything takes what it draws from its arguments; the play scene says when.
"""

from __future__ import annotations

import pygame

from game import resolvers
from game.maps.conventions import SOURCE_NAMES
from game.maps.grid import ONE_WAY, SLOPE, SOLID
from game.resolvers.base import Contacts
from game.sim.camera import px
from game.sim.ghosts import Comparison, push_out
from game.sim.world import World
from game.view.surfaces import Recent

# The debug view's colours, shared by the scene and its legend.
DEBUG_TILES = {SOLID: (255, 80, 80, 110), ONE_WAY: (80, 200, 255, 200), SLOPE: (255, 170, 60, 220)}
PROBED = (255, 255, 0, 70)
HITBOX_STANDING, HITBOX_AIR = (60, 255, 90), (255, 255, 255)
CONTACT_EDGE = (255, 40, 200)
PUSH_OUT = (255, 255, 255)  # the player's push-out; a ghost's is in its colour
NUMBERS = (170, 255, 190)  # the debug numbers' colour
WITH_PLAYER = "with the player: "  # the row naming the ghosts that have not parted from them
LEGEND = ("solid tile", "one-way tile", "slope tile", "probed cell",
          "hitbox (white: in the air)", "contact edge", "a ghost's probed cell",
          "push-out: tried -> resolved")
LEGEND_TEXT = (220, 220, 235)
# On a map made for another engine: a corner mark on each collision cell, coloured by the
# convention that made it collide (game.maps.conventions.SOURCE_NAMES, by index).
SOURCE_COLOURS = {2: (90, 230, 255), 3: (255, 150, 40), 4: (200, 120, 255), 5: (120, 255, 120),
                  6: (255, 240, 80)}


# --- the numbers ----------------------------------------------------------------------------
def push_text(world: World) -> str:
    """The last move's push-out (resolved minus attempted), for the debug view's text."""
    push = push_out(world)
    return "-" if push is None else f"{push[2] - push[0]:+.2f}, {push[3] - push[1]:+.2f}"


def debug_lines(world: World, c: Contacts | None = None) -> list[str]:
    """The player's position, speed and ``c`` (default: the contacts of the player's last
    move), and the tick."""
    p = world.player
    c = p.contacts if c is None else c
    flags = " ".join(n for n, v in (("ground", c.on_ground), ("ceiling", c.hit_ceiling),
                                    ("left", c.hit_left), ("right", c.hit_right),
                                    ("one-way", c.on_one_way)) if v)
    probed = len(set(c.probed))
    return [f"x {p.x:8.2f}  y {p.y:8.2f}", f"vx {p.vx:7.1f}  vy {p.vy:7.1f} px/s",
            f"contacts: {flags or '-'}" + ("  climbing" if p.climbing else ""),
            f"probed: {probed} cell{'' if probed == 1 else 's'}", f"tick {world.tick}"]


def debug_rows(world: World, ghosts: list[World],
               comparison: Comparison | None) -> list[tuple[str, tuple[int, int, int]]]:
    """The debug view's text, each line with its colour: the player's, then each ghost's
    position and push-out, and where it parted from the player."""
    rows = [(line, NUMBERS) for line in debug_lines(world)]
    rows.append((f"push-out: {push_text(world)}", NUMBERS))
    rows.append((resolvers.moved_by(world.resolver), NUMBERS))  # the cells probed: the lesson's
    sources = world.level.view.sources
    if sources:  # a map made elsewhere: which conventions made its cells collide
        for i in sorted(set(sources) - {0, 1}):  # 1: the game's own property, no guess
            rows.append((f"collision from {SOURCE_NAMES[i]}",
                         SOURCE_COLOURS.get(i, NUMBERS)))
    together = []  # the ghosts still where the player is: one short row says which
    for ghost in ghosts:
        name, gp = ghost.resolver.name, ghost.player
        parted = comparison.parted.get(name) if comparison is not None else None
        if parted is None:
            together.append(name)
            continue
        rows.append((f"{name}: x {gp.x:.2f} y {gp.y:.2f}  push-out {push_text(ghost)}  "
                     f"parted at tick {parted.tick}", resolvers.colour(name)))
    if together:
        rows.append((f"{WITH_PLAYER}{' '.join(together)}", NUMBERS))
    return rows


# --- the marks on the scene -----------------------------------------------------------------
def draw_marks(scene: pygame.Surface, made: Recent, world: World, ghosts: list[World],
               origin: tuple[int, int], drawn_at: tuple[float, float], line: int = 1) -> None:
    """The debug marks over ``scene`` (whose top-left is map px ``origin``); ``drawn_at``: where
    the player's hitbox is drawn this frame (interpolated), map px. ``line``: how many map px
    wide lines are (more than 1 where the view is drawn smaller than the map: big tiles)."""
    g = world.level.grid
    tw, th = g.tile_w, g.tile_h
    ox, oy = origin
    scene.blit(_tile_marks(scene.get_size(), made, g, origin, line), (0, 0))
    if world.level.view.sources:
        _source_marks(scene, world.level, origin)
    for col, row in set(world.player.contacts.probed):
        r = pygame.Rect(col * tw - ox, row * th - oy, tw, th)
        scene.blit(made.get(("probed", r.size), lambda: overlay(r.size, PROBED)), r)
    for ghost in ghosts:
        colour = resolvers.colour(ghost.resolver.name)
        for col, row in set(ghost.player.contacts.probed):
            pygame.draw.rect(scene, colour, (col * tw - ox + line, row * th - oy + line,
                                             tw - 2 * line, th - 2 * line), line)
    for w in [world] + ghosts:
        push = push_out(w)
        if push is not None:
            colour = resolvers.colour(w.resolver.name) if w is not world else PUSH_OUT
            draw_push(scene, origin, w.player, push, colour, line)
    p = world.player
    c = p.contacts
    bx, by = drawn_at
    box = pygame.Rect(px(bx) - ox, px(by) - oy, px(p.w), px(p.h))
    pygame.draw.rect(scene, HITBOX_STANDING if p.on_ground else HITBOX_AIR, box, line)
    if c.on_ground:
        pygame.draw.line(scene, CONTACT_EDGE, box.bottomleft, box.bottomright, line)
    if c.hit_ceiling:
        pygame.draw.line(scene, CONTACT_EDGE, box.topleft, box.topright, line)
    if c.hit_left:
        pygame.draw.line(scene, CONTACT_EDGE, box.topleft, box.bottomleft, line)
    if c.hit_right:
        pygame.draw.line(scene, CONTACT_EDGE, box.topright, box.bottomright, line)


def _source_marks(scene: pygame.Surface, level, origin: tuple[int, int]) -> None:
    """A corner mark on each collision cell in view, in the colour of the convention that made
    it collide (a map made for another engine: ``Level.sources``)."""
    g, sources = level.grid, level.view.sources
    tw, th = g.tile_w, g.tile_h
    ox, oy = origin
    vw, vh = scene.get_size()
    mark = max(2, min(tw, th) // 5)
    for row in range(max(0, oy // th), min(g.rows, (oy + vh) // th + 1)):
        base = row * g.cols
        for col in range(max(0, ox // tw), min(g.cols, (ox + vw) // tw + 1)):
            colour = SOURCE_COLOURS.get(sources[base + col])
            if colour is not None:
                scene.fill(colour, (col * tw - ox + 1, row * th - oy + 1, mark, mark))


def _tile_marks(size: tuple[int, int], made: Recent, g, origin: tuple[int, int],
                line: int = 1) -> pygame.Surface:
    """The outlines of the solid, one-way and slope tiles in view, ``line`` px wide, on a clear
    layer."""
    tw, th = g.tile_w, g.tile_h
    ox, oy = origin
    vw, vh = size
    layer = made.get(("debug grid", size), lambda: pygame.Surface(size, pygame.SRCALPHA))
    layer.fill((0, 0, 0, 0))
    for row in range(max(0, oy // th), min(g.rows, (oy + vh) // th + 1)):
        for col in range(max(0, ox // tw), min(g.cols, (ox + vw) // tw + 1)):
            kind = g.kind(col, row)
            if kind in DEBUG_TILES:
                r = pygame.Rect(col * tw - ox, row * th - oy, tw, th)
                if kind == SLOPE:
                    left, right = g.slope_heights(col, row)
                    pts = [(r.left, r.bottom - left), (r.right, r.bottom - right),
                           (r.right, r.bottom), (r.left, r.bottom)]
                    pygame.draw.lines(layer, DEBUG_TILES[kind], True, pts, line)
                else:
                    pygame.draw.rect(layer, DEBUG_TILES[kind], r, line)
    return layer


def draw_push(scene: pygame.Surface, origin: tuple[int, int], body, push, colour,
              line: int = 1) -> None:
    """A push-out: the box the move tried to reach (dotted corners) and a line from its centre
    to the resolved box's centre, ending in a dot; ``line`` map px wide."""
    ax, ay, rx, ry = push
    ox, oy = origin
    a = (px(ax + body.w / 2) - ox, px(ay + body.h / 2) - oy)
    r = (px(rx + body.w / 2) - ox, px(ry + body.h / 2) - oy)
    tried = pygame.Rect(px(ax) - ox, px(ay) - oy, px(body.w), px(body.h))
    for x, y in (tried.topleft, tried.topright, tried.bottomleft, tried.bottomright):
        scene.fill(colour, (x, y, line, line))
    pygame.draw.line(scene, colour, a, r, line)
    pygame.draw.circle(scene, colour, r, line)


def overlay(size: tuple[int, int], colour: tuple[int, int, int, int]) -> pygame.Surface:
    out = pygame.Surface(size, pygame.SRCALPHA)
    out.fill(colour)
    return out


# --- the key to the colours -----------------------------------------------------------------
def legend_height(line_h: int, inner: int) -> int:
    """The legend's panel height for lines ``line_h`` px apart."""
    return len(LEGEND) * line_h + 2 * inner


def legend_width(painter) -> int:
    """The width of the legend's lines (its panel is ``inner`` wider on each side)."""
    size = max(6, painter.small.get_linesize() - 4)
    return size + 8 + max(painter.width(painter.small, name) for name in LEGEND) + 2


def draw_legend(painter, left: int, top: int, inner: int, scale: int) -> pygame.Rect:
    """The key, in ``painter``'s small font, its first line's top-left at (left, top), marks as
    thick as the scene's lines at ``scale``; returns its panel."""
    font = painter.small
    line_h = font.get_linesize()
    size = max(6, line_h - 4)
    panel = pygame.Rect(left - inner, top - inner, legend_width(painter) + 2 * inner,
                        legend_height(line_h, inner))
    painter.panel(panel)
    for i, name in enumerate(LEGEND):
        painter.surface.blit(painter.made.get(("swatch", i, size, scale),
                                              lambda: swatch(i, size, scale)),
                             (left, top + i * line_h + (line_h - size) // 2))
        painter.text(font, name, (left + size + 8, top + i * line_h), LEGEND_TEXT)
    return panel


def swatch(item: int, size: int, scale: int) -> pygame.Surface:
    """The mark for LEGEND[item], ``size`` px square."""
    sw = pygame.Surface((size, size), pygame.SRCALPHA)
    r = sw.get_rect()
    t = max(1, min(scale, size // 4))  # as thick as the scaled scene's 1 px lines
    if item == 0:  # more opaque than in the scene: on the dark panel it would hardly show
        pygame.draw.rect(sw, DEBUG_TILES[SOLID][:3] + (220,), r, t)
    elif item == 1:
        pygame.draw.rect(sw, DEBUG_TILES[ONE_WAY], r, t)
    elif item == 2:
        pygame.draw.polygon(sw, DEBUG_TILES[SLOPE], [r.bottomleft, (r.right - 1, r.top),
                                                      (r.right - 1, r.bottom - 1)], t)
    elif item == 3:
        sw.fill(PROBED[:3] + (120,))
        pygame.draw.rect(sw, PROBED[:3] + (200,), r, 1)
    elif item == 6:
        pygame.draw.rect(sw, resolvers.colour("sweep"), r.inflate(-2, -2), 1)
    elif item == 7:
        pygame.draw.line(sw, PUSH_OUT, (1, 1), (r.right - 2, r.bottom - 2), max(1, t // 2))
        pygame.draw.circle(sw, PUSH_OUT, (r.right - 2, r.bottom - 2), max(1, t))
    else:  # the hitbox, and for a contact its touching edge
        pygame.draw.rect(sw, HITBOX_STANDING, r, t)
        if item == 5:
            y = r.bottom - 1 - t // 2
            pygame.draw.line(sw, CONTACT_EDGE, (0, y), (r.right, y), max(2, t))
    return sw
