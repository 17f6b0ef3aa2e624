"""Surfaces kept between frames and scaled to the window: shared by every part that draws."""

from __future__ import annotations

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


def same_format(a: pygame.Surface, b: pygame.Surface) -> bool:
    return a.get_bitsize() == b.get_bitsize() and a.get_masks() == b.get_masks()


def blit_scaled(src: pygame.Surface, factor: int, dest: pygame.Surface) -> None:
    """``src`` scaled up ``factor`` times (nearest neighbour) onto ``dest`` at (0, 0), cut at
    ``dest``'s edges: the same pixels as ``dest.blit(pygame.transform.scale(src, (w * factor,
    h * factor)), (0, 0))``, without making and filling a window-sized surface each frame.

    The source pixels shown whole are scaled straight into ``dest``; the last column and row,
    which ``dest``'s edge cuts, are scaled apart (small surfaces) and blitted."""
    w, h = src.get_size()
    dw, dh = dest.get_size()
    if not same_format(src, dest):  # scale() writes only into its own format
        dest.blit(pygame.transform.scale(src, (w * factor, h * factor)), (0, 0))
        return
    fw, fh = min(w, dw // factor), min(h, dh // factor)  # source px shown whole
    if fw and fh:
        pygame.transform.scale(src.subsurface(0, 0, fw, fh), (fw * factor, fh * factor),
                               dest.subsurface(0, 0, fw * factor, fh * factor))
    if fw < w and fh:
        part = src.subsurface(fw, 0, w - fw, fh)
        dest.blit(pygame.transform.scale(part, ((w - fw) * factor, fh * factor)),
                  (fw * factor, 0))
    if fh < h:
        part = src.subsurface(0, fh, w, h - fh)
        dest.blit(pygame.transform.scale(part, (w * factor, (h - fh) * factor)),
                  (0, fh * factor))
