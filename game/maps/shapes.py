"""Collision shapes in map pixels, and what they make of the grid's cells.

The resolvers know four kinds of cell (``game.maps.grid``): empty, solid, one-way, and a slope
(solid under a straight floor line from one side of the cell to the other). A shape drawn in
Tiled (a rectangle, ellipse, polygon or polyline, in a tile's collision editor or on an object
layer) is turned into those cell by cell:

* a cell the shape fills is **solid**, exactly;
* a cell the shape fills below a straight top edge that runs from the cell's left side to its
  right side (and down to its bottom) is a **slope** with those heights, exactly (a half tile is a
  slope with equal heights);
* any other cell the shape overlaps is **solid**, rounded out to the whole cell: the player
  never overlaps the shape, but may stop short of it. Such cells are *approximated*.

A polyline is a floor line: a cell it crosses straight from side to side becomes a slope under
it; any other cell it passes through is solid (approximated). An ellipse is the polygon of
:data:`ELLIPSE_SIDES` sides around it (so it is covered whole).
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from game.maps.grid import EMPTY, SLOPE, SOLID

ELLIPSE_SIDES = 16
# A shape's point this close to a grid line (px) is taken to be on it: Tiled's collision editor
# and hand-edited maps leave sub-pixel slop (a point half a pixel above its tile would otherwise
# make the whole cell above it solid ground).
SNAP_PX = 1.0
Point = tuple[float, float]


@dataclass(frozen=True)
class Shape:
    """An area (``closed``: rectangle, ellipse, polygon) or a floor line (a polyline)."""

    points: tuple[Point, ...]
    closed: bool = True

    def moved(self, dx: float, dy: float) -> Shape:
        return Shape(tuple((x + dx, y + dy) for x, y in self.points), self.closed)

    def bounds(self) -> tuple[float, float, float, float]:
        xs, ys = [p[0] for p in self.points], [p[1] for p in self.points]
        return min(xs), min(ys), max(xs), max(ys)


def rect_shape(x: float, y: float, w: float, h: float) -> Shape:
    return Shape(((x, y), (x + w, y), (x + w, y + h), (x, y + h)))


def fit_into(size: tuple[float, float], box: tuple[float, float],
             fit: bool) -> tuple[float, float, float, float]:
    """(sx, sy, dx, dy): a point (x, y) of a picture of ``size`` drawn into a box of ``box``
    lands at (dx + x * sx, dy + y * sy) of the box, as Tiled draws a tile at another size:
    stretched to it, or (``fit``, Tiled 1.9's preserve-aspect-fit) scaled alike both ways as
    far as the box allows and centred in it."""
    (w, h), (bw, bh) = size, box
    sx, sy = bw / max(1, w), bh / max(1, h)
    if not fit:
        return sx, sy, 0.0, 0.0
    k = min(sx, sy)
    return k, k, (bw - w * k) / 2, (bh - h * k) / 2


def shape_of(el: ET.Element) -> Shape | None:
    """The shape of a Tiled ``<object>`` in the coordinates its x and y are in (rotation
    applied about its x, y as Tiled does); None for a point, a text or a shape of no area."""
    try:
        x, y = float(el.get("x", 0)), float(el.get("y", 0))
        w, h = float(el.get("width", 0)), float(el.get("height", 0))
        turn = math.radians(float(el.get("rotation", 0)))
    except ValueError:
        return None
    if el.find("point") is not None or el.find("text") is not None:
        return None
    closed = True
    if el.find("polygon") is not None or el.find("polyline") is not None:
        node = el.find("polygon")
        if node is None:
            node, closed = el.find("polyline"), False
        local = []
        for pair in (node.get("points") or "").split():
            try:
                px, py = (float(v) for v in pair.split(","))
            except ValueError:
                return None
            local.append((px, py))
        if len(local) < 2 or (closed and len(local) < 3):
            return None
    elif w <= 0 or h <= 0:
        return None
    elif el.find("ellipse") is not None:
        r = 1 / math.cos(math.pi / ELLIPSE_SIDES)  # the polygon's sides touch the ellipse
        local = [(w / 2 + w / 2 * r * math.cos(a), h / 2 + h / 2 * r * math.sin(a))
                 for a in (2 * math.pi * (i + 0.5) / ELLIPSE_SIDES for i in range(ELLIPSE_SIDES))]
    else:
        local = [(0, 0), (w, 0), (w, h), (0, h)]
    if el.get("gid"):  # a tile object: its box hangs from its bottom-left corner
        local = [(px, py - h) for px, py in local]
    c, s = math.cos(turn), math.sin(turn)
    points = tuple((x + px * c - py * s, y + px * s + py * c) for px, py in local)
    if not all(math.isfinite(v) for p in points for v in p):
        return None
    return Shape(points, closed)


def outline(o) -> Shape | None:
    """The shape of an object of the map's model (``game.maps.model.MapObject``) in map px,
    turned about its position as Tiled turns it; None for a point, a text, or a shape of no
    area."""
    if o.shape in ("point", "text"):
        return None
    closed = o.shape != "polyline"
    if o.shape in ("polygon", "polyline"):
        local = [(px - o.x, py - o.y) for px, py in o.points]
        if len(local) < 2 or (closed and len(local) < 3):
            return None
    elif o.w <= 0 or o.h <= 0:
        return None
    elif o.shape == "ellipse":
        r = 1 / math.cos(math.pi / ELLIPSE_SIDES)  # the polygon's sides touch the ellipse
        w, h = o.w, o.h
        local = [(w / 2 + w / 2 * r * math.cos(a), h / 2 + h / 2 * r * math.sin(a))
                 for a in (2 * math.pi * (i + 0.5) / ELLIPSE_SIDES for i in range(ELLIPSE_SIDES))]
    else:
        local = [(0, 0), (o.w, 0), (o.w, o.h), (0, o.h)]
    if o.gid:  # a tile object: its box hangs from its bottom-left corner
        local = [(px, py - o.h) for px, py in local]
    turn = math.radians(o.rotation)
    c, s = math.cos(turn), math.sin(turn)
    return Shape(tuple((o.x + px * c - py * s, o.y + px * s + py * c) for px, py in local),
                 closed)


def snapped(shape: Shape, tw: float, th: float, dx: float = 0.0, dy: float = 0.0) -> Shape:
    """``shape`` with every coordinate within :data:`SNAP_PX` of a grid line (the grid of
    ``tw`` x ``th`` cells, its lines at ``dx + k * tw`` and ``dy + k * th``) moved onto it."""
    def snap(v: float, step: float, base: float) -> float:
        line = base + round((v - base) / step) * step
        return line if abs(v - line) <= SNAP_PX else v
    return Shape(tuple((snap(x, tw, dx), snap(y, th, dy)) for x, y in shape.points),
                 shape.closed)


MAX_UNTANGLED = 256  # points of a polygon checked for crossing itself (each pair of sides)


def untangled(shape: Shape) -> tuple[Shape, bool]:
    """A polygon that crosses itself (a bow tie) has no inside a cell can be cut from (its
    parts' areas cancel): it is taken as its convex hull, which covers all of it, and the
    caller says so (True). Any other shape is returned as it is (False)."""
    points = shape.points
    if not shape.closed or not 4 <= len(points) <= MAX_UNTANGLED:
        return shape, False
    sides = list(zip(points, points[1:] + points[:1]))
    n = len(sides)
    for i in range(n):
        for j in range(i + 2, n - (i == 0)):
            if _cross_properly(*sides[i], *sides[j]):
                return Shape(_hull(points)), True
    return shape, False


def _cross_properly(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Do segments a-b and c-d cross at a point inside both?"""
    def side(p: Point, q: Point, r: Point) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    d1, d2, d3, d4 = side(c, d, a), side(c, d, b), side(a, b, c), side(a, b, d)
    return d1 * d2 < 0 and d3 * d4 < 0


def _hull(points: tuple[Point, ...]) -> tuple[Point, ...]:
    """The convex hull of the points, counter-clockwise (Andrew's monotone chain)."""
    pts = sorted(set(points))

    def half(seq):
        out: list[Point] = []
        for p in seq:
            while len(out) >= 2 and ((out[-1][0] - out[-2][0]) * (p[1] - out[-2][1])
                                     - (out[-1][1] - out[-2][1]) * (p[0] - out[-2][0])) <= 0:
                out.pop()
            out.append(p)
        return out
    lower, upper = half(pts), half(reversed(pts))
    return tuple(lower[:-1] + upper[:-1])


def flipped(shape: Shape, size: tuple[float, float], h: bool, v: bool, d: bool) -> Shape:
    """A tile's shape as the tile is placed: Tiled swaps x and y first (``d``), then mirrors
    left-right (``h``) and top-bottom (``v``) within the tile as it then stands."""
    w, ht = size
    points = shape.points
    if d:
        points = tuple((py, px) for px, py in points)
        w, ht = ht, w
    if h:
        points = tuple((w - px, py) for px, py in points)
    if v:
        points = tuple((px, ht - py) for px, py in points)
    return Shape(points, shape.closed)


# --- what a shape makes of one cell -------------------------------------------------------------

def cell_kind(shapes: list[Shape], x0: float, y0: float, w: float,
              h: float) -> tuple[int, tuple[float, float] | None, bool]:
    """(kind, slope heights, exact) of the cell (x0, y0, w, h) under ``shapes`` together."""
    kind, heights, exact = EMPTY, None, True
    for shape in shapes:
        k, hs, ex = (_area_kind if shape.closed else _line_kind)(shape, x0, y0, w, h)
        if k == EMPTY:
            continue
        if kind == EMPTY:
            kind, heights, exact = k, hs, ex
        elif k == SOLID or kind == SOLID or hs != heights:
            # two slopes that differ are covered whole: rounded out unless one is already solid
            exact = (exact if kind == SOLID else ex if k == SOLID else False)
            kind, heights = SOLID, None
    return kind, heights, exact


def _area_kind(shape: Shape, x0: float, y0: float, w: float, h: float):
    x1, y1 = x0 + w, y0 + h
    bx0, by0, bx1, by1 = shape.bounds()
    if bx1 <= x0 or bx0 >= x1 or by1 <= y0 or by0 >= y1:
        return EMPTY, None, True
    piece = _clip(list(shape.points), x0, y0, x1, y1)
    area = _area(piece)
    tiny = 1e-4 * w * h
    if area <= tiny:
        return EMPTY, None, True
    if area >= w * h - tiny:
        return SOLID, None, True
    eps = w * 1e-3
    left, right = _span_at(piece, x0 + eps), _span_at(piece, x1 - eps)
    if left is None or right is None:
        return SOLID, None, False
    (top_l, bottom_l), (top_r, bottom_r) = left, right
    if abs(bottom_l - y1) > h * 1e-3 or abs(bottom_r - y1) > h * 1e-3:
        return SOLID, None, False
    rise = (top_r - top_l) / (w - 2 * eps)
    hl = min(max(y1 - (top_l - rise * eps), 0.0), float(h))
    hr = min(max(y1 - (top_r + rise * eps), 0.0), float(h))
    if abs(area - (hl + hr) / 2 * w) > 1e-2 * w * h:
        return SOLID, None, False
    return SLOPE, (_tidy(hl), _tidy(hr)), True


def _line_kind(shape: Shape, x0: float, y0: float, w: float, h: float):
    x1, y1 = x0 + w, y0 + h
    touched = False
    for (ax, ay), (bx, by) in zip(shape.points, shape.points[1:]):
        if _segment_meets(ax, ay, bx, by, x0, y0, x1, y1):
            touched = True
            lo, hi = min(ax, bx), max(ax, bx)
            if lo <= x0 and hi >= x1 and ax != bx:
                yl = ay + (by - ay) * (x0 - ax) / (bx - ax)
                yr = ay + (by - ay) * (x1 - ax) / (bx - ax)
                if y0 <= yl <= y1 and y0 <= yr <= y1:
                    return SLOPE, (_tidy(y1 - yl), _tidy(y1 - yr)), True
    return (SOLID, None, False) if touched else (EMPTY, None, True)


def _tidy(v: float) -> float:
    r = round(v)
    return float(r) if abs(v - r) < 1e-6 else v


def _segment_meets(ax, ay, bx, by, x0, y0, x1, y1) -> bool:
    """Does the segment pass through the open cell (x0, y0)-(x1, y1)? (Liang-Barsky.)"""
    t0, t1 = 0.0, 1.0
    dx, dy = bx - ax, by - ay
    for p, q in ((-dx, ax - x0), (dx, x1 - ax), (-dy, ay - y0), (dy, y1 - ay)):
        if p == 0:
            if q <= 0:
                return False
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 >= t1:
            return False
    return True


def _clip(points: list[Point], x0: float, y0: float, x1: float, y1: float) -> list[Point]:
    """The polygon cut to the rectangle (Sutherland-Hodgman: exact in area for any polygon)."""
    for axis, edge, above in ((0, x0, True), (0, x1, False), (1, y0, True), (1, y1, False)):
        out: list[Point] = []
        for i, b in enumerate(points):
            a = points[i - 1]
            a_in, b_in = _inside(a, axis, edge, above), _inside(b, axis, edge, above)
            if b_in:
                if not a_in:
                    out.append(_cross(a, b, axis, edge))
                out.append(b)
            elif a_in:
                out.append(_cross(a, b, axis, edge))
        points = out
        if not points:
            break
    return points


def _inside(p: Point, axis: int, edge: float, above: bool) -> bool:
    return p[axis] >= edge if above else p[axis] <= edge


def _cross(a: Point, b: Point, axis: int, edge: float) -> Point:
    """Where the segment a-b meets the line ``axis`` = ``edge``."""
    other = a[1 - axis] + (b[1 - axis] - a[1 - axis]) * (edge - a[axis]) / (b[axis] - a[axis])
    return (edge, other) if axis == 0 else (other, edge)


def _area(points: list[Point]) -> float:
    return abs(sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(points, points[1:] + points[:1]))) / 2


def _span_at(points: list[Point], x: float) -> tuple[float, float] | None:
    """The topmost and lowest y where the vertical line at x meets the polygon's edges."""
    ys = [a[1] + (b[1] - a[1]) * (x - a[0]) / (b[0] - a[0])
          for a, b in zip(points, points[1:] + points[:1])
          if min(a[0], b[0]) <= x <= max(a[0], b[0]) and a[0] != b[0]]
    return (min(ys), max(ys)) if ys else None
