"""Inference from the other seats' actions: which imagined layouts explain what they did.

Every layout drawn by the `sampler` fits the hard facts of a view (cards seen, voids shown). Some
fit the other seats' choices better than others: a seat that ducked the K♠ twice more likely holds
the Q♠. Both computer levels that imagine layouts replay the hand so far in each layout, asking at
every play of another seat what a careful player (`rollout.careful_policy`, the Medium player's
habits) holding that layout's cards would have played:

- Hard keeps the layouts with the fewest surprises (`surprises`: plays the careful player would
  not have made).
- Expert weighs every layout by the likelihood of all those plays (`log_likelihoods`) and draws
  the layouts it imagines in proportion (`resample`), which is policy-based inference (Rebstock,
  Solinas, Buro and Sturtevant, 2019). Each other seat is taken for one of a few kinds of player
  — careful with a little noise, a strong searching player as a model learned from Hard's games
  predicts it (`opponent`), or one whose plays tell nothing — each equally likely until its
  plays show which it more likely is.

Only public actions are replayed (BOT-01): the true layout of a table of careful players never
surprises.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

import numpy as np

from app.bots import medium, opponent
from app.bots import simulator as sim
from app.bots.knowledge import Knowledge
from app.bots.rollout import careful_policy
from app.bots.sampler import World
from app.engine import Phase, PlayerView, is_penalty_card, points_of

NOISE = (0.1, 0.3)
"""ε, how often a careful opponent plays other than the careful player would."""
PASS_NOISE = 0.1
"""How often the model passes other than the careful player would (after an across pass)."""
PASS_SURPRISE = 2
"""Surprises counted when the cards received are not the careful player's pass from that hand."""


def surprises(view: PlayerView, k: Knowledge, rules: sim.Rules, worlds: list[World]) -> np.ndarray:
    """For each layout, how many of the other seats' plays so far a careful player holding that
    layout's cards would not have made (replaying the hand from its first trick), plus
    `PASS_SURPRISE` for a pass it would not have made."""
    misses, *_ = _replay(view, k, rules, worlds)
    return np.asarray(misses.sum(axis=1) + pass_surprises(view, k, worlds), dtype=np.int64)


def log_likelihoods(
    view: PlayerView,
    k: Knowledge,
    rules: sim.Rules,
    worlds: list[World],
    noise: Sequence[float] = NOISE,
    uniform: bool = True,
) -> np.ndarray:
    """For each layout, the log-probability of the other seats' plays (and the pass received
    after an across pass), each seat being one of these kinds of player, equally likely a priori
    (for each seat apart, so the seat's plays so far decide which kind it most likely is):

    - a careful player who errs with probability ε, for each ε of `noise`: the careful card with
      probability 1 − ε, each other legal card with ε shared among them;
    - a strong searching player, as the learned `opponent` model predicts it;
    - unless not `uniform`, a player whose plays tell nothing: every legal card equally likely.

    A forced play has probability 1 under all of them."""
    misses, choices, seats, model = _replay(view, k, rules, worlds, with_model=True)
    others = np.log(np.maximum(choices - 1, 1))
    free = choices > 1
    total = np.zeros(len(worlds))
    for seat in set(seats.tolist()):
        column = seats == seat
        missed = (misses[:, column] & free[:, column]).astype(np.float64)
        kept = (~misses[:, column] & free[:, column]).sum(axis=1)
        spread = (missed * others[:, column]).sum(axis=1)
        careful = [missed.sum(axis=1) * math.log(e) - spread + kept * math.log1p(-e) for e in noise]
        learned = model[:, column].sum(axis=1)
        telling_nothing = -(np.log(choices[:, column]) * free[:, column]).sum(axis=1)
        each = np.stack([*careful, learned, *([telling_nothing] if uniform else [])])
        top = each.max(axis=0)
        total += top + np.log(np.exp(each - top).mean(axis=0))
    passes = pass_surprises(view, k, worlds) > 0
    if _judges_pass(view):
        total += np.where(passes, math.log(PASS_NOISE), math.log1p(-PASS_NOISE))
    return total


def normalised(weights_log: np.ndarray) -> np.ndarray:
    """The weights `exp(weights_log)` scaled to sum to 1 (computed from the largest down, so
    none overflows)."""
    w = np.exp(weights_log - weights_log.max())
    return np.asarray(w / w.sum(), dtype=np.float64)


def effective_size(weights_log: np.ndarray) -> float:
    """The effective sample size of weights `exp(weights_log)`: 1 / Σw² with the weights summing
    to 1 (the number of draws they are worth: all of them when equal, 1 when one takes all)."""
    return float(1.0 / (normalised(weights_log) ** 2).sum())


TEMPER_STEPS = 30
"""Bisection steps of `temper` (its exponent to within 2⁻³⁰)."""


def temper(weights_log: np.ndarray, least: float) -> np.ndarray:
    """`β · weights_log` for the largest β in [0, 1] whose weights keep an effective sample size
    of at least `least` (β = 1, the weights unchanged, when they already do; β = 0, equal
    weights, at worst).

    With many seats the likelihood of every play seen multiplies into weights so uneven that a
    handful of the draws takes nearly all of it: the layouts imagined are then a few, imagined
    over and over, and the other seats' cards are placed with far more confidence than the
    model of their play deserves (at Cancellation-8 the true layout scores worse under the
    untempered weights than under equal ones). Tempering, as particle filters do, keeps the
    direction of the evidence and bounds its strength."""
    if effective_size(weights_log) >= least:
        return weights_log
    low, high = 0.0, 1.0
    for _ in range(TEMPER_STEPS):
        middle = (low + high) / 2
        if effective_size(middle * weights_log) >= least:
            low = middle
        else:
            high = middle
    return np.asarray(low * weights_log, dtype=np.float64)


def resample(weights_log: np.ndarray, size: int, uniform: float) -> list[int]:
    """`size` indexes drawn in proportion to `exp(weights_log)` (systematic resampling: each
    index appears about `size × weight` times, in index order), the draw's one random number
    being `uniform` (in [0, 1))."""
    cumulative = np.cumsum(normalised(weights_log))
    start = uniform / size
    points = start + np.arange(size) / size
    picked = np.searchsorted(cumulative, points, side="right")
    return [int(i) for i in np.minimum(picked, len(weights_log) - 1)]


def _replay(
    view: PlayerView,
    k: Knowledge,
    rules: sim.Rules,
    worlds: list[World],
    with_model: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per layout and per play of another seat so far: whether the careful player would have
    played otherwise, and how many legal cards it had, shapes (layouts, plays); the seat of each
    play; and, if `with_model`, the log-probability of each play under the `opponent` model
    (zeros otherwise)."""
    me = view.seat
    tricks = [(t.leader, t.plays) for t in view.tricks]
    if view.current:
        assert view.leader is not None
        tricks.append((view.leader, view.current))
    seats = np.array([s for _, plays in tricks for s, _ in plays if s != me], dtype=np.int64)
    count = len(seats)
    misses = np.zeros((len(worlds), count), dtype=np.bool_)
    choices = np.ones((len(worlds), count), dtype=np.int64)
    model = np.zeros((len(worlds), count))
    if not count:
        return misses, choices, seats, model
    options = view.options
    n = view.num_players
    played = [[c.index for c in k.played_by[s]] for s in range(n)]
    hands = sim.counts_of_many(
        options,
        [[[c.index for c in world.hands[s]] + played[s] for s in range(n)] for world in worlds],
    )
    kitty = (
        np.full(len(worlds), view.kitty_size > 0),
        np.array([points_of(options, w.kitty) for w in worlds], dtype=np.int64),
        np.array([sum(1 for c in w.kitty if is_penalty_card(c)) for w in worlds], dtype=np.int64),
    )
    batch = sim.new_batch(
        rules,
        hands,
        leader=tricks[0][0],
        kitty=kitty,
        totals=np.asarray(view.totals, dtype=np.int64),
    )
    rng = np.random.default_rng(0)
    weights = opponent.weights()
    i = 0
    for _, plays in tricks:
        for seat, c in plays:
            if seat != me:
                legal = sim.legal_mask(batch)
                chosen = careful_policy(batch, legal, rng)
                misses[:, i] = chosen != c.index
                choices[:, i] = legal.sum(axis=1)
                if with_model:
                    model[:, i] = opponent.log_probability_of(batch, legal, weights, c.index)
                i += 1
            sim.play(batch, np.full(len(worlds), c.index, dtype=np.int64))
    return misses, choices, seats, model


def _judges_pass(view: PlayerView) -> bool:
    """Whether the pass this seat received can be judged: after an across pass, in play, the
    seat that passed to this one received this seat's cards, so its hand before the pass is
    known in each layout."""
    source = view.received_from
    return (
        view.received is not None
        and bool(view.passed)
        and source is not None
        and source == view.pass_target
        and view.phase is Phase.PLAY
    )


def pass_surprises(view: PlayerView, k: Knowledge, worlds: list[World]) -> np.ndarray:
    """`PASS_SURPRISE` for each layout in which the seat that passed to this one, having received
    this seat's cards (an across pass), would not have passed what it did as a careful player."""
    count = np.zeros(len(worlds), dtype=np.int64)
    if not _judges_pass(view):
        return count
    source = view.received_from
    assert source is not None and view.received is not None
    given = Counter(view.passed)
    got = sorted(view.received)
    for w, world in enumerate(worlds):
        held = Counter(world.hands[source]) + Counter(k.played_by[source])
        held.subtract(given)
        held.update(view.received)
        before = tuple(sorted(held.elements()))
        if sorted(medium.pass_cards(view.options, before, view.totals)) != got:
            count[w] += PASS_SURPRISE
    return count
