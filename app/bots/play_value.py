"""A value learned from Hard's games, for the cards: each seat's points predicted from a play-out
that starts at a trick.

Hard and Expert value a card by playing the hand out in imagined layouts with the careful player's
habits. Those play-outs are a rough guess of how Hard players would really go on: from the start
of the fifth trick of Hard's games at the standard four-seat table they explain about 14 % of the
spread of a seat's real points. Gradient-boosted regression trees fitted to the same games (`python
-m bench.learn_play_value`) predict a seat's real points at the end of the hand from the state
at the start of a trick (the second to the eleventh) and the play-out from there: the seat's
play-out points and the others', its points taken so far and the others', whether it leads the
trick, whether the play-out ended in a moon, the trick's number, and the four hands as they stand
(its own first, then the seats to its left in turn). `predict` replaces every seat's play-out
points by that prediction, in the play-outs of a budget with `learned_play` (no level's: Expert
with it measured no gain over Expert without, bench/results/README.md).

The trees are data (`play_value.json` beside this module), in `pass_value`'s format and walked
by its compiled walk; they apply where `pass_value.fits` says the table is the one they were
fitted at.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
from numba import njit

from app.bots import pass_value
from app.bots.pass_value import SEATS, Arrays, Trees, fits, walk

__all__ = ["FEATURES", "FIRST", "HEAD", "LAST", "MODEL", "fits", "predict", "trees"]

MODEL = Path(__file__).with_name("play_value.json")
HEAD = ("points", "others' points", "taken", "others' taken", "leads", "moon", "trick")
"""The features before the hands' 4 × 52 card indicators (see the module's docstring)."""
FEATURES = len(HEAD) + SEATS * 52
FIRST, LAST = 2, 11
"""The tricks at whose start the trees were fitted (the first trick is the pass's model's)."""


@cache
def trees(path: Path = MODEL) -> Trees:
    """The model in `path` (`pass_value.load`)."""
    return pass_value.load(path, FEATURES)


def predict(
    hands: np.ndarray,
    points: np.ndarray,
    taken: np.ndarray,
    leader: np.ndarray,
    moon: np.ndarray,
    trick: int,
) -> np.ndarray:
    """Every seat's predicted points (rows, 4) from the hands as the trick `trick` starts (rows,
    4, 52 card counts), the play-out's points at the end of the hand (rows, 4), the points taken
    before the trick (rows, 4), the trick's leader (rows) and whether the play-out ended in a
    moon (rows)."""
    model = trees()
    return np.asarray(
        _predict(
            np.ascontiguousarray(hands, dtype=np.int8),
            np.ascontiguousarray(points, dtype=np.float64),
            np.ascontiguousarray(taken, dtype=np.float64),
            np.ascontiguousarray(leader, dtype=np.int64),
            np.ascontiguousarray(moon, dtype=np.bool_),
            float(trick),
            model.arrays,
        ),
        dtype=np.float64,
    )


@njit(cache=True)
def _predict(
    hands: np.ndarray,
    points: np.ndarray,
    taken: np.ndarray,
    leader: np.ndarray,
    moon: np.ndarray,
    trick: float,
    model: Arrays,
) -> np.ndarray:  # pragma: no cover - compiled
    """The trees' sum for every row and seat."""
    rows = points.shape[0]
    out = np.empty((rows, 4))
    x = np.empty(7 + 4 * 52)
    for r in range(rows):
        total = points[r, 0] + points[r, 1] + points[r, 2] + points[r, 3]
        total_taken = taken[r, 0] + taken[r, 1] + taken[r, 2] + taken[r, 3]
        for s in range(4):
            x[0] = points[r, s]
            x[1] = total - points[r, s]
            x[2] = taken[r, s]
            x[3] = total_taken - taken[r, s]
            x[4] = 1.0 if leader[r] == s else 0.0
            x[5] = 1.0 if moon[r] else 0.0
            x[6] = trick
            for k in range(4):
                for card in range(52):
                    x[7 + 52 * k + card] = hands[r, (s + k) % 4, card]
            out[r, s] = walk(x, model)
    return out
