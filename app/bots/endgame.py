"""Exact play of the last tricks: every layout solved as a game of open cards.

Once few cards are left, the Expert player stops rolling the hand out with the careful player's
habits and solves each imagined layout exactly: the whole tree of legal plays to the end of the
hand, every seat choosing, at its turn, the card that is best for its own result (the max^n rule
of multi-player game search; with every seat looking at the same open cards, a seat's best card
is the one that leads to its best outcome). The values are exactly those a depth-first search
with alpha-beta cuts and a transposition table would find, and the tree of the last three tricks
is small enough to be expanded whole: it is built breadth-first in the `simulator`, one row per
position, so every rule of every table (Cancellation's equal cards, the kitty, the Omnibus card,
the moon) is the simulator's own, and the leaves are scored by the caller's value of a finished
hand.

`solve` returns None when the tree would exceed its row budget; the caller then rolls out.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from app.bots import simulator as sim

TIE = 1e-6
"""How much a seat's indifference between cards leans against the seat solving (values are
points, so this never outweighs a real difference)."""
Values = Callable[[sim.Batch], np.ndarray]
"""The value of every finished row for every seat, shape (rows, n): each seat's own result."""


def solve(
    batch: sim.Batch, values: Values, max_rows: int, me: int | None = None
) -> tuple[sim.Batch, np.ndarray] | None:
    """The finished hands every row of `batch` leads to under exact play, and the index, for every
    row of `batch`, of the leaf reached (every seat playing its best card for `values`). A seat
    with several best cards plays the one worst for seat `me`, if given (the cautious
    assumption), else the lowest-indexed.

    None (nothing computed further) if a level of the tree would hold more than `max_rows` rows.
    """
    levels: list[tuple[np.ndarray, np.ndarray]] = []
    b = batch
    while not b.is_over:
        legal = sim.legal_mask(b)
        counts = legal.sum(axis=1)
        if int(counts.sum()) > max_rows:
            return None
        movers = b.to_play()
        rows, cards = np.nonzero(legal)
        child = b.take(rows)
        sim.play(child, cards.astype(np.int64))
        levels.append((counts, movers))
        b = child
    leaves = b
    scores = values(leaves)
    chosen = np.arange(leaves.size)
    for counts, movers in reversed(levels):
        parent = np.repeat(np.arange(len(counts)), counts)
        mover = movers[parent]
        key = scores[np.arange(len(scores)), mover]
        if me is not None:
            key = key - np.where(mover == me, 0.0, TIE * scores[:, me])
        starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
        best = np.maximum.reduceat(key, starts)
        candidates = np.flatnonzero(key >= best[parent] - 1e-9)
        _, first = np.unique(parent[candidates], return_index=True)
        pick = candidates[first]
        scores = scores[pick]
        chosen = chosen[pick]
    return leaves, chosen
