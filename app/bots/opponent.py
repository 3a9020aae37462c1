"""A learned model of how a strong opponent chooses its card, for Expert's inference.

The careful player's habits predict a careful opponent exactly, but a searching player such as
Hard plays otherwise more than half the time, so its plays say little under that model. This model
gives every legal card a probability: a softmax over a few features of the card in the position
(leading, following or discarding; its rank, whether it wins the trick, whether it is the
highest card that ducks, the queen of spades and the cards that guard it, the length of its suit
in the hand, and its place within that suit: the lowest, the highest, the only one, the share of
the suit's other cards held that are lower). The features see the mover's own hand, so the
probability of the card actually played differs between imagined layouts: that is what the
inference weighs. A budget with `model_replies` also lets the other seats of its play-outs play
the cards it draws from the model (`draw`).

The weights are data (`opponent.json` beside this module), fitted by maximum likelihood to the
plays of Hard self-play games (`python -m bench.learn_opponent`, which writes the file).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np

from app.bots import simulator as sim
from app.bots.opponent_compiled import Position, drawn_cards, played_log_probabilities
from app.bots.simulator import IS_HEART, QS, RANK, SPADES, SUIT, SUIT_MASKS
from app.engine import RuleOptions

WEIGHTS = Path(__file__).with_name("opponent.json")
FEATURES = (
    "lead: rank",
    "lead: a heart",
    "lead: the queen of spades",
    "lead: a low spade, holding the queen",
    "lead: a low spade, the queen unseen",
    "lead: the ace or king of spades, the queen unseen",
    "lead: length of its suit",
    "lead: the lowest of its suit",
    "follow: rank",
    "follow: takes the trick",
    "follow: takes a trick with points",
    "follow: the highest card that ducks",
    "follow: takes the trick as the last to play",
    "follow: the queen of spades",
    "follow: the queen under a higher spade",
    "discard: the queen of spades",
    "discard: a heart, by rank",
    "discard: rank",
    "discard: the ace or king of spades, the queen unseen",
    "discard: from a suit of one or two cards",
    "lead: the highest of its suit",
    "lead: the only card of its suit",
    "follow: the lowest of its suit",
    "follow: the highest of its suit",
    "follow: the highest of its suit, taking the trick as the last to play",
    "discard: the highest of its suit",
    "discard: the only card of its suit",
    "discard: length of its suit",
    "follow: rank among its suit",
    "lead: rank among its suit",
    "discard: rank among its suit",
)
RANKF = (RANK / 14.0).astype(np.float64)
LOW_SPADE = (SUIT == SPADES) & (RANK < 12)
TOP_SPADE = (SUIT == SPADES) & (RANK > 12)
SUIT_ONE_HOT = np.stack([s == SUIT for s in range(4)], axis=1).astype(np.float64)  # (52, 4)


QS_ONLY = (np.arange(52) == QS)[None, :]
"""A (1, 52) mask of the queen of spades: a feature of that card alone."""


def features(b: sim.Batch, legal: sim.BoolArray) -> np.ndarray:
    """The features of every card for the seat to play in every row, shape (rows, 52, F); only
    legal cards matter."""
    f = np.zeros((b.size, 52, len(FEATURES)))
    for i, column in _columns(b, legal):
        f[:, :, i] = column
    return f


def log_probabilities(b: sim.Batch, legal: sim.BoolArray, weights: np.ndarray) -> np.ndarray:
    """log P(card) for the seat to play in every row (−inf for illegal cards), shape (rows, 52).

    The logits are summed feature by feature (`features(b, legal) @ weights` without building
    the (rows, 52, F) array)."""
    logits = np.zeros((b.size, 52))
    for i, column in _columns(b, legal):
        if weights[i]:
            logits += weights[i] * column
    logits = np.where(legal, logits, -np.inf)
    top = logits.max(axis=1, keepdims=True)
    return np.asarray(
        logits - top - np.log(np.exp(logits - top).sum(axis=1, keepdims=True)), dtype=np.float64
    )


def log_probability_of(
    b: sim.Batch, legal: sim.BoolArray, weights: np.ndarray, card: int
) -> np.ndarray:
    """log P(`card`) for the seat to play in every row (−inf where it is illegal), shape (rows,):
    `log_probabilities(b, legal, weights)[:, card]`, compiled (`opponent_compiled`), over the
    legal cards only."""
    return np.asarray(
        played_log_probabilities(_position(b, legal, weights), card), dtype=np.float64
    )


def draw(
    b: sim.Batch,
    legal: sim.BoolArray,
    weights: np.ndarray,
    rng: np.random.Generator,
    kept: sim.IntArray,
    keep: sim.BoolArray,
) -> sim.IntArray:
    """A card drawn from the model for the seat to play in every row where `keep` is false (each
    legal card as likely as `log_probabilities` makes it), `kept` where it is true; compiled
    (`opponent_compiled.drawn_cards`). `rng` gives one number a row, drawn only if some row
    draws."""
    if keep.all():
        return kept
    uniform = rng.random(b.size)
    c = np.ascontiguousarray
    position = _position(b, legal, weights)
    return np.asarray(
        drawn_cards(position, uniform, c(kept, dtype=np.int64), c(keep)), dtype=np.int64
    )


def _position(b: sim.Batch, legal: sim.BoolArray, weights: np.ndarray) -> Position:
    """What the compiled model reads (`opponent_compiled.Position`)."""
    c = np.ascontiguousarray  # one compiled version: every array laid out the same way
    return (
        c(b.hands),
        c(b.to_play()),
        b.k,
        c(b.plays),
        c(legal),
        c(sim.winning_rank(b)),
        c(b.queens_played),
        b.rules.copies,
        b.rules.points,
        b.rules.n,
        c(weights, dtype=np.float64),
    )


def warm_up() -> None:
    """Compile `log_probability_of` and `draw` now (or read them from Numba's cache)."""
    rules = sim.Rules.of(RuleOptions.standard())
    hands = np.zeros((1, 4, 52), dtype=np.int8)
    for card in range(52):
        hands[0, card % 4, card] = 1
    batch = sim.new_batch(rules, hands, leader=0)
    legal = sim.legal_mask(batch)
    log_probability_of(batch, legal, weights(), int(legal[0].argmax()))
    keep = np.zeros(1, dtype=np.bool_)
    draw(batch, legal, weights(), np.random.default_rng(0), legal.argmax(axis=1), keep)


def _columns(b: sim.Batch, legal: sim.BoolArray) -> list[tuple[int, np.ndarray]]:
    """The features that can be non-zero in this position, as (index in `FEATURES`, values
    broadcastable to (rows, 52))."""
    m = b.size
    rows = np.arange(m)
    seat = b.to_play()
    own = b.hands[rows, seat] > 0
    holds_queen = own[:, QS]
    unseen_queen = (b.rules.copies - b.queens_played - b.hands[rows, seat, QS]) > 0
    length = (own.astype(np.float64) @ SUIT_ONE_HOT)[:, SUIT]  # (m, 52)
    ranked = np.where(own, RANK[None, :], 99)
    lowest = np.stack([ranked[:, SUIT_MASKS[s]].min(axis=1) for s in range(4)], axis=1)
    highest = np.stack(
        [np.where(own, RANK[None, :], 0)[:, SUIT_MASKS[s]].max(axis=1) for s in range(4)], axis=1
    )
    is_low = RANK[None, :] == lowest[:, SUIT]
    is_high = RANK[None, :] == highest[:, SUIT]
    only = length == 1
    # the share of its suit's other cards in the hand that are lower (0 lowest, 1 highest)
    below = np.zeros((m, 52))
    for s in range(4):
        mask = SUIT_MASKS[s]
        held = own[:, mask].astype(np.float64)
        below[:, mask] = np.cumsum(held, axis=1) - held
    rel = below / np.maximum(length - 1, 1)
    if b.k == 0:
        return [
            (0, RANKF[None, :]),
            (1, IS_HEART[None, :]),
            (2, QS_ONLY),
            (3, LOW_SPADE[None, :] & holds_queen[:, None]),
            (4, LOW_SPADE[None, :] & (~holds_queen & unseen_queen)[:, None]),
            (5, TOP_SPADE[None, :] & (~holds_queen & unseen_queen)[:, None]),
            (6, length / 13.0),
            (7, is_low),
            (20, is_high),
            (21, only),
            (29, rel),
        ]
    led = SUIT[b.plays[:, 0]]
    following = (own & SUIT_MASKS[led]).any(axis=1)
    win = sim.winning_rank(b)
    points = b.rules.points[b.plays[:, : b.k]].sum(axis=1)
    last = b.k == b.rules.n - 1
    same = SUIT_MASKS[led]  # (m, 52)
    wins = same & (RANK[None, :] > win[:, None])
    ducks = legal & same & ~wins
    highest_duck = np.where(ducks, RANK[None, :], 0).max(axis=1)
    follow = np.asarray(following)[:, None]
    discard = ~follow
    return [
        (8, np.where(follow, RANKF[None, :], 0.0)),
        (9, follow & wins),
        (10, follow & wins & (points > 0)[:, None]),
        (11, follow & ducks & (RANK[None, :] == highest_duck[:, None])),
        (12, follow & wins & last),
        (13, QS_ONLY & follow),
        (14, QS_ONLY & (following & (win > 12))[:, None]),
        (15, QS_ONLY & discard),
        (16, np.where(discard & IS_HEART[None, :], RANKF[None, :], 0.0)),
        (17, np.where(discard, RANKF[None, :], 0.0)),
        (18, discard & TOP_SPADE[None, :] & (~holds_queen & unseen_queen)[:, None]),
        (19, discard & (length <= 2)),
        (22, follow & is_low),
        (23, follow & is_high),
        (24, follow & is_high & wins & last),
        (25, discard & is_high),
        (26, discard & only),
        (27, np.where(discard, length / 13.0, 0.0)),
        (28, np.where(follow, rel, 0.0)),
        (30, np.where(discard, rel, 0.0)),
    ]


@cache
def weights(path: Path = WEIGHTS) -> np.ndarray:
    """The fitted weights, one per feature (zeros, every legal card equally likely, if the file
    is missing)."""
    if not path.exists():
        return np.zeros(len(FEATURES))
    data = json.loads(path.read_text())
    fitted = dict(zip(data["features"], data["weights"], strict=True))
    return np.array([float(fitted.get(name, 0.0)) for name in FEATURES])
