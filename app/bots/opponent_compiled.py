"""The learned opponent model's probability of one card, and a card drawn from it, compiled
(Numba), row by row.

Expert's inference replays the hand so far in every drawn layout and asks, at each play of
another seat, how likely the learned `opponent` model makes the card that seat played. With
NumPy (`opponent.log_probabilities`) that is some thirty array operations over every row and all
52 cards, for one number per row: a third of an Expert decision. This is the same model written
one row at a time, over the mover's legal cards only, and compiled to machine code;
`opponent.log_probability_of` runs it. The features are those of `opponent._columns`, one by
one in the same order, and the logits are summed in that order, so they are the same to the bit;
only the normalising sum may differ in its last bits (a test holds the two to 1e-12 at every
table). `drawn_cards` draws a card from the same logits in every row (`opponent.draw`: the play-outs
of a budget with `model_replies`).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from app.bots.simulator import HEARTS, QS, RANK, SPADES, SUIT

_RANK = RANK.copy()
_SUIT = SUIT.copy()
_HEARTS = HEARTS
_SPADES = SPADES
_QS = QS


Position = tuple[
    np.ndarray,
    np.ndarray,
    int,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    int,
    np.ndarray,
    int,
    np.ndarray,
]
"""What the model reads in every row (`opponent._position`): the card counts (rows, n, 52), the
seat to play, how many cards the trick holds and those cards (rows × n), the mover's legal
cards, the rank winning the trick (`simulator.winning_rank`), the queens played, the copies of
each card, the points of every card, the number of seats, and the model's weights, one per
feature of `opponent.FEATURES`."""


@njit(cache=True)
def played_log_probabilities(
    position: Position,
    card: int,
) -> np.ndarray:  # pragma: no cover - compiled
    """log P(`card`) under the model for the seat to play in every row of `position` (−inf
    where illegal)."""
    legal = position[4]
    rows = legal.shape[0]
    out = np.empty(rows)
    logits = np.empty(52)
    scratch = _scratch()
    for r in range(rows):
        if not legal[r, card]:
            out[r] = -np.inf
            continue
        top = _logits(position, r, logits, scratch)
        total = 0.0
        for c in range(52):
            if legal[r, c]:
                total += math.exp(logits[c] - top)
        out[r] = logits[card] - top - math.log(total)
    return out


@njit(cache=True)
def drawn_cards(
    position: Position,
    uniform: np.ndarray,
    kept: np.ndarray,
    keep: np.ndarray,
) -> np.ndarray:  # pragma: no cover - compiled
    """A card drawn from the model for the seat to play in every row where `keep` is false, each
    legal card as likely as the model makes it: the first legal card (in index order) at which
    the running sum of the probabilities passes the row's `uniform` number (in [0, 1)); `kept[r]`
    where `keep[r]`."""
    legal = position[4]
    rows = legal.shape[0]
    out = kept.copy()
    logits = np.empty(52)
    scratch = _scratch()
    for r in range(rows):
        if keep[r]:
            continue
        top = _logits(position, r, logits, scratch)
        total = 0.0
        for c in range(52):
            if legal[r, c]:
                logits[c] = math.exp(logits[c] - top)
                total += logits[c]
        mark = uniform[r] * total
        running = 0.0
        for c in range(52):
            if legal[r, c]:
                out[r] = c  # the last legal card if rounding leaves the sum short of the mark
                running += logits[c]
                if running > mark:
                    break
    return out


@njit(cache=True)
def _scratch() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:  # pragma: no cover
    """The per-row working arrays of `_logits`: suit lengths, lowest and highest ranks, and the
    held cards of its suit before each card."""
    return (
        np.zeros(4),
        np.zeros(4, dtype=np.int64),
        np.zeros(4, dtype=np.int64),
        np.zeros(52),
    )


@njit(cache=True)
def _logits(
    position: Position,
    r: int,
    logits: np.ndarray,
    scratch: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
) -> float:  # pragma: no cover - compiled
    """The model's logit of every card for the mover of row `r`, written to `logits` (−inf for
    illegal cards); returns the largest."""
    hands, seat, k, plays, legal, win, queens_played, copies, card_points, n, w = position
    length, lowest, highest, below = scratch
    last = k == n - 1
    s_to = seat[r]
    hand = hands[r, s_to]
    holds_queen = hand[_QS] > 0
    unseen_queen = (copies - queens_played[r] - hand[_QS]) > 0
    other_queen = (not holds_queen) and unseen_queen
    for s in range(4):
        length[s] = 0.0
        lowest[s] = 99
        highest[s] = 0
    for c in range(52):
        if hand[c] > 0:
            s = _SUIT[c]
            below[c] = length[s]  # the held cards of its suit before it (index order)
            length[s] += 1.0
            lowest[s] = min(lowest[s], _RANK[c])
            highest[s] = max(highest[s], _RANK[c])
    led = _SUIT[plays[r, 0]] if k > 0 else -1
    following = False
    points = 0
    highest_duck = 0
    if k > 0:
        for c in range(52):
            if hand[c] > 0 and _SUIT[c] == led:
                following = True
        for j in range(k):
            points += card_points[plays[r, j]]
        for c in range(52):
            if legal[r, c] and _SUIT[c] == led and _RANK[c] <= win[r]:  # a duck
                highest_duck = max(highest_duck, _RANK[c])
    discard = not following
    top = -np.inf
    for c in range(52):
        if not legal[r, c]:
            logits[c] = -np.inf
            continue
        s = _SUIT[c]
        rank = _RANK[c]
        rankf = rank / 14.0
        size = length[s]
        is_low = rank == lowest[s]
        is_high = rank == highest[s]
        only = size == 1.0
        rel = below[c] / max(size - 1.0, 1.0)
        is_queen = c == _QS
        low_spade = s == _SPADES and rank < 12
        top_spade = s == _SPADES and rank > 12
        x = 0.0
        if k == 0:
            x = _add(x, w[0], rankf)
            x = _add(x, w[1], 1.0 if s == _HEARTS else 0.0)
            x = _add(x, w[2], 1.0 if is_queen else 0.0)
            x = _add(x, w[3], 1.0 if low_spade and holds_queen else 0.0)
            x = _add(x, w[4], 1.0 if low_spade and other_queen else 0.0)
            x = _add(x, w[5], 1.0 if top_spade and other_queen else 0.0)
            x = _add(x, w[6], size / 13.0)
            x = _add(x, w[7], 1.0 if is_low else 0.0)
            x = _add(x, w[20], 1.0 if is_high else 0.0)
            x = _add(x, w[21], 1.0 if only else 0.0)
            x = _add(x, w[29], rel)
        else:
            same = s == led
            wins = same and rank > win[r]
            ducks = same and not wins  # legal already
            f = following
            x = _add(x, w[8], rankf if f else 0.0)
            x = _add(x, w[9], 1.0 if f and wins else 0.0)
            x = _add(x, w[10], 1.0 if f and wins and points > 0 else 0.0)
            x = _add(x, w[11], 1.0 if f and ducks and rank == highest_duck else 0.0)
            x = _add(x, w[12], 1.0 if f and wins and last else 0.0)
            x = _add(x, w[13], 1.0 if is_queen and f else 0.0)
            x = _add(x, w[14], 1.0 if is_queen and f and win[r] > 12 else 0.0)
            x = _add(x, w[15], 1.0 if is_queen and discard else 0.0)
            x = _add(x, w[16], rankf if discard and s == _HEARTS else 0.0)
            x = _add(x, w[17], rankf if discard else 0.0)
            x = _add(x, w[18], 1.0 if discard and top_spade and other_queen else 0.0)
            x = _add(x, w[19], 1.0 if discard and size <= 2.0 else 0.0)
            x = _add(x, w[22], 1.0 if f and is_low else 0.0)
            x = _add(x, w[23], 1.0 if f and is_high else 0.0)
            x = _add(x, w[24], 1.0 if f and is_high and wins and last else 0.0)
            x = _add(x, w[25], 1.0 if discard and is_high else 0.0)
            x = _add(x, w[26], 1.0 if discard and only else 0.0)
            x = _add(x, w[27], size / 13.0 if discard else 0.0)
            x = _add(x, w[28], rel if f else 0.0)
            x = _add(x, w[30], rel if discard else 0.0)
        logits[c] = x
        top = max(top, x)
    return top


@njit(cache=True)
def _add(x: float, weight: float, value: float) -> float:  # pragma: no cover - compiled
    """`x + weight · value`, skipping a zero weight as the NumPy sum does."""
    if weight != 0.0:
        return x + weight * value
    return x
