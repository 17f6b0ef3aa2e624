"""Surfaces kept between frames and scaled to the window: shared by every part that draws."""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable

import pygame


class Recent:
    """Things made for the last two frames, by key (text images, panels, overlays): what a frame
    asks for again is reused; what neither this frame nor the one before asked for is let go.
    So what is kept follows what is on screen, however long the game runs.
    Call :meth:`next_frame` once a frame."""

    def __init__(self) -> None:
        self._now: dict = {}
        self._before: dict = {}

    def get(self, key, make):
        """The thing kept for ``key``, made by ``make()`` if neither frame has it."""
        got = self._now.get(key)
        if got is None:
            got = self._before.get(key)
            if got is None:
                got = make()
            self._now[key] = got
        return got

    def next_frame(self) -> None:
        self._before, self._now = self._now, {}

    def __len__(self) -> int:
        return len(self._now.keys() | self._before.keys())


def nbytes(surface: pygame.Surface) -> int:
    """Bytes of a surface's pixels."""
    return surface.get_pitch() * surface.get_height()


class Kept:
    """Pictures made from others (tinted, stretched, faded...), kept by key up to ``budget``
    bytes of pixels: past it, those made longest ago are let go, and made again if they are
    asked for again. So what is kept has a bound however many different pictures a map asks
    for; a picture bigger than the whole budget is handed out and not kept.
    ``weigh(value)`` is a value's bytes (by default the value is a surface)."""

    def __init__(self, budget: int,
                 weigh: Callable[[object], int] = nbytes) -> None:  # type: ignore[assignment]
        self.budget = budget
        self.nbytes = 0
        self._weigh = weigh
        # key -> (value, bytes), oldest first (an OrderedDict lets its oldest go at once; a
        # dict would look past every key let go before it)
        self._items: OrderedDict = OrderedDict()
        self._found: dict = {}  # key -> value, the same keys
        self.find = self._found.get  # the value kept for a key, or None: the quick look

    def get(self, key, make: Callable[[], object]):
        """The value kept for ``key``, made by ``make()`` if it is not kept."""
        got = self._found.get(key)
        return got if got is not None else self.keep(key, make())

    def keep(self, key, value):
        """Keep ``value`` for ``key`` if it fits the budget (letting the oldest go); return it."""
        size = self._weigh(value)
        if size <= self.budget and key not in self._items:
            self._items[key] = (value, size)
            self._found[key] = value
            self.nbytes += size
            while self.nbytes > self.budget:
                old, (_, size) = self._items.popitem(last=False)
                self.nbytes -= size
                del self._found[old]
        return value

    def room(self) -> int:
        """Bytes the budget has left."""
        return self.budget - self.nbytes

    def __contains__(self, key) -> bool:
        return key in self._items

    def __len__(self) -> int:
        return len(self._items)


def same_format(a: pygame.Surface, b: pygame.Surface) -> bool:
    return a.get_bitsize() == b.get_bitsize() and a.get_masks() == b.get_masks()


def blit_scaled(src: pygame.Surface, factor: float, dest: pygame.Surface,
                made: Recent | None = None) -> None:
    """``src`` scaled up ``factor`` times onto ``dest`` at (0, 0), cut at ``dest``'s edges.

    A whole ``factor``: nearest neighbour, the same pixels as ``dest.blit(pygame.transform.scale(
    src, (w * factor, h * factor)), (0, 0))``, without making and filling a window-sized
    surface each frame. A fractional one: :func:`blit_sharp` (``made`` keeps its surfaces
    between frames); below 1, :func:`blit_reduced`."""
    if factor < 1:
        blit_reduced(src, factor, dest, made if made is not None else Recent())
        return
    if factor != int(factor):
        blit_sharp(src, factor, dest, made if made is not None else Recent())
        return
    _blit_whole(src, int(factor), dest)


def blit_sharp(src: pygame.Surface, factor: float, dest: pygame.Surface, made: Recent) -> None:
    """``src`` scaled by a fractional ``factor`` and kept crisp ("sharp bilinear"): first up by
    the next whole number with nearest neighbour, so every source pixel is a block of equal
    squares, then smoothly down to the size: only the one window pixel along each block's edge
    is a blend of two colours, where plain nearest neighbour would make some pixels a column
    wider than others and plain smoothing would blur them all."""
    w, h = src.get_size()
    k = math.ceil(factor)
    size = (round(w * factor), round(h * factor))
    big = made.get(("sharp up", src.get_size(), k),
                   lambda: pygame.Surface((w * k, h * k), 0, 32))
    pygame.transform.scale(src.convert(big) if not same_format(src, big) else src,
                           (w * k, h * k), big)
    out = made.get(("sharp out", size), lambda: pygame.Surface(size, 0, 32))
    pygame.transform.smoothscale(big, size, out)
    dest.blit(out, (0, 0))


def blit_reduced(src: pygame.Surface, factor: float, dest: pygame.Surface, made: Recent) -> None:
    """``src`` made ``factor`` (below 1) times its size onto ``dest`` at (0, 0): each window
    pixel the average of the source pixels it covers (``smoothscale``), so nothing flickers as
    the view moves, as dropping pixels would. Straight into ``dest`` when the sizes and formats
    allow it (the usual case), else through a surface kept in ``made``."""
    w, h = src.get_size()
    size = (max(1, round(w * factor)), max(1, round(h * factor)))
    if size == dest.get_size() and dest.get_bitsize() == 32 and same_format(src, dest):
        pygame.transform.smoothscale(src, size, dest)
        return
    out = made.get(("reduced", size), lambda: pygame.Surface(size, 0, 32))
    pygame.transform.smoothscale(src if src.get_bitsize() in (24, 32) else src.convert(out),
                                 size, out)
    dest.blit(out, (0, 0))


def _blit_whole(src: pygame.Surface, factor: int, dest: pygame.Surface) -> None:
    """:func:`blit_scaled` for a whole ``factor``.

    The source pixels shown whole are scaled straight into ``dest`` (most of their rows by
    :func:`_stretch_rows`, a third of the work); the last column and row, which ``dest``'s edge
    cuts, are scaled apart (small surfaces) and blitted."""
    w, h = src.get_size()
    dw, dh = dest.get_size()
    if not same_format(src, dest):  # scale() writes only into its own format
        dest.blit(pygame.transform.scale(src, (w * factor, h * factor)), (0, 0))
        return
    fw, fh = min(w, dw // factor), min(h, dh // factor)  # source px shown whole
    done = _stretch_rows(src, factor, dest, fw, fh) if fw and fh else 0
    if fw and done < fh:
        pygame.transform.scale(
            src.subsurface(0, done, fw, fh - done), (fw * factor, (fh - done) * factor),
            dest.subsurface(0, done * factor, fw * factor, (fh - done) * factor))
    if fw < w and fh:
        part = src.subsurface(fw, 0, w - fw, fh)
        dest.blit(pygame.transform.scale(part, ((w - fw) * factor, fh * factor)),
                  (fw * factor, 0))
    if fh < h:
        part = src.subsurface(0, fh, w, h - fh)
        dest.blit(pygame.transform.scale(part, (w * factor, (h - fh) * factor)),
                  (0, fh * factor))


def _stretch_rows(src: pygame.Surface, factor: int, dest: pygame.Surface, fw: int,
                  fh: int) -> int:
    """Scale the top-left ``fw`` x ``fh`` source px into ``dest`` for as many source rows as
    it can; returns how many (0: none, the caller scales them all).

    Nearest-neighbour scaling costs about the same for every pixel it writes; copying a row is
    far cheaper. So each source row is stretched across once, into window row ``factor * i``,
    and that row is then copied into the ``factor - 1`` rows under it. Both are done by whole
    surfaces, not a Python loop over rows: ``dest``'s pixels are seen as ``factor`` surfaces,
    the k-th made of rows ``k, k + factor, k + 2 * factor, ...`` (a pitch ``factor`` times
    ``dest``'s), so one ``transform.scale`` fills the first and one plain blit copies it into
    each of the others. Pixels are only copied, never converted: the labels of the borrowed
    surfaces' format do not matter, only that a pixel is 4 bytes (32-bit windows, nearly all).
    ``dest`` is locked only while this runs."""
    if factor == 1 or dest.get_bytesize() != 4 or dest.get_parent() is not None:
        return 0
    pitch = dest.get_pitch()
    # Each borrowed surface must end inside dest's pixels: the last rows are left to the caller.
    rows = min(fh, (dest.get_height() - factor + 1) // factor)
    if rows <= 0:
        return 0
    pixels = memoryview(dest.get_buffer())
    _stretch_into(pixels, src.subsurface(0, 0, fw, rows), factor, dest.get_width(), pitch)
    pixels.release()  # dest is unlocked again
    return rows


def _stretch_into(pixels: memoryview, src: pygame.Surface, factor: int, width: int,
                  pitch: int) -> None:
    """:func:`_stretch_rows`' work on ``pixels`` (a window's, rows ``pitch`` bytes apart), the
    surfaces that borrow them let go on return."""
    rows = src.get_height()
    length = factor * pitch * rows
    views = [pygame.image.frombuffer(pixels[k * pitch:k * pitch + length], (width, rows),
                                     "BGRA", factor * pitch) for k in range(factor)]
    for view in views:
        view.set_alpha(None)  # copied as they are, never blended
    pygame.transform.scale(src, (src.get_width() * factor, rows),
                           views[0].subsurface(0, 0, src.get_width() * factor, rows))
    for view in views[1:]:
        view.blit(views[0], (0, 0))
