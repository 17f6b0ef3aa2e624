"""Hot reload: notice that a level's files changed on disk (saved from Tiled), so the play scene
loads the level again with the player kept in place.

:func:`stamp` reads the files' modification times; a :class:`Watcher` remembers the last stamp
seen and looks again at most every ``period`` seconds. The play scene decides what a change
means (game.view.play: reload, keep the last good level when the new one fails).
"""

from __future__ import annotations

from game.maps.level import Level

HOT_RELOAD_PERIOD = 0.5  # s between checks of the level files' modification times


def stamp(level: Level) -> tuple:
    """Modification times of the level's files (the .tmx, its tilesets, their images); None for
    a file that cannot be read (being saved, or gone)."""
    files = level.files
    if not files:  # a Level made without its file list: the map and the tilesets beside it
        files = [level.path] + sorted(level.path.parent.glob("*.tsx"))
    out = []
    for f in files:
        try:
            out.append(f.stat().st_mtime_ns)
        except OSError:
            out.append(None)
    return tuple(out)


class Watcher:
    """The stamp of the level last seen, and when to look again."""

    def __init__(self, period: float = HOT_RELOAD_PERIOD) -> None:
        self.period = period
        self.seen: tuple | None = None
        self.next_check = 0.0  # time.monotonic() of the next look

    def watch(self, level: Level) -> None:
        """Take ``level``'s files as they are now as seen: only a change after this counts."""
        self.seen = stamp(level)

    def due(self, now: float) -> bool:
        """Whether it is time to look (and if so, the next look is a period away)."""
        if now < self.next_check:
            return False
        self.next_check = now + self.period
        return True

    def changed(self, level: Level) -> bool:
        """Whether ``level``'s files changed since last seen; the change counts once."""
        now = stamp(level)
        if now == self.seen:
            return False
        self.seen = now
        return True
