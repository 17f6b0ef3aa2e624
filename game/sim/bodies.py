"""Body-to-body contacts: the player against the walkers, through a broad phase.

A :class:`WalkerHash` files each walker under the cell of its top-left corner, in a grid of
square cells (32 px or more) at least as large as the largest walker, so a walker touching a box has its corner
in the box's cells or in the row and column of cells before them. Walkers move a little each
tick and rarely change cell: :meth:`WalkerHash.update` refiles only those that did, so a tick
allocates nothing once every cell in use has its list.

The rule (:func:`player_meets_walkers`), taken after the walkers have moved, in walker object id
order:

* **stomp**: the player comes down onto a walker from above (their bottom was at or above the
  walker's top, with ``STOMP_SLACK`` px of slack, before the tick, and they are moving down): the
  walker is defeated (out of play until the level restarts) and the player bounces up at
  ``[physics] stomp_speed``. Several walkers stomped on one tick are each defeated;
* **hurt**: any other touch sends the player back (the world's ``send_back``).
"""

from __future__ import annotations

from collections.abc import Sequence

from game.sim.walkers import Walker

STOMP_SLACK = 2.0  # px: how far below a walker's top the player's bottom may be and still stomp
EPS = 1e-6  # px: touching is not overlapping
STOMP = 1
HURT = 2


ROW = 1048576.0  # key = row * ROW + column: columns stay far below it (maps are <= 1e6 px wide)
GONE = -ROW * ROW  # the key of a walker out of play: no cell has it


class WalkerHash:
    """Walkers filed by the cell of their top-left corner (square cells of ``size`` px).

    A cell's key is ``row * ROW + column`` computed in floats (``//`` on floats is several times
    cheaper than ``int()``, and this runs for every walker every tick); a float key finds the
    same dict entry as the equal int.
    """

    def __init__(self, walkers: Sequence[Walker]) -> None:
        largest = max((max(k.w, k.h) for k in walkers), default=1.0)
        self.size = float(max(32, 1 << int(largest - 1).bit_length()))  # >= the largest walker
        self.cells: dict[float, list[Walker]] = {}
        self.found: list[Walker] = []  # reused answer of :meth:`touching`
        self.keys: list[float] = []  # per walker (same order), the key of its cell, or GONE
        self.walkers = walkers
        for k in walkers:
            key = GONE if k.fallen else self.key(k.x, k.y)
            self.keys.append(key)
            if key != GONE:
                self.cells.setdefault(key, []).append(k)

    def key(self, x: float, y: float) -> float:
        size = self.size
        return (y // size) * ROW + x // size

    def update(self) -> None:
        """Refile the walkers that changed cell or left play since the last call."""
        keys, cells, size = self.keys, self.cells, self.size
        i = -1
        for k in self.walkers:
            i += 1
            # the key of :meth:`key`, inlined: this runs for every walker every tick
            new = GONE if k.fallen else (k.y // size) * ROW + k.x // size
            old = keys[i]
            if new != old:
                if old != GONE:
                    cells[old].remove(k)
                if new != GONE:
                    bucket = cells.get(new)
                    if bucket is None:
                        cells[new] = bucket = []
                    bucket.append(k)
                keys[i] = new

    def touching(self, x: float, y: float, w: float, h: float) -> list[Walker]:
        """The walkers overlapping the box (x, y, w, h), in object id order (a reused list).
        A walker's corner lies in the box's cells or one cell up or left of them."""
        found = self.found
        found.clear()
        size, cells = self.size, self.cells
        c0, c1 = int(x // size) - 1, int((x + w) // size)
        r0, r1 = int(y // size) - 1, int((y + h) // size)
        right, bottom = x + w - EPS, y + h - EPS
        for r in range(r0, r1 + 1):
            for c in range(c0, c1 + 1):
                bucket = cells.get(r * ROW + c)
                if bucket:
                    for k in bucket:
                        if (k.x < right and k.x + k.w > x + EPS and k.y < bottom
                                and k.y + k.h > y + EPS):
                            found.append(k)
        if len(found) > 1:
            found.sort(key=walker_id)
        return found


def walker_id(k: Walker) -> int:
    return k.spawn.id


def player_meets_walkers(hash_: WalkerHash, p, prev_bottom: float) -> int:
    """Stomp or be hurt by the walkers the player touches now. ``prev_bottom`` is the player's
    bottom before the tick. Returns STOMP (some walker stomped: it is defeated and the player
    bounced, the caller adds the speed), HURT (the caller sends the player back), or 0.
    Stomps come first: landing on two walkers at once, one of them from the side, is a stomp."""
    touched = hash_.touching(p.x, p.y, p.w, p.h)
    if not touched:
        return 0
    stomped = False
    falling = p.vy > 0 or p.y + p.h > prev_bottom
    for k in touched:
        if falling and prev_bottom <= k.prev_y + STOMP_SLACK:
            k.fallen = True  # defeated: out of play until the level restarts
            stomped = True
    if stomped:
        hash_.update()
        return STOMP
    return HURT
