"""Hard: determinized Monte Carlo (seed 004: "imagines many ways the hidden cards could lie, plays
each of them out in its head and chooses the card that is best on average").

For a play: sample layouts of the hidden cards exactly consistent with the view (`sampler`), play
each legal card in each layout and finish the hand with a quick careful policy for every seat
(`simulator`), and pick the card with the best mean result for the game: the opponents' points
against its own, plus the race to the target when the hand can end the game. The budget is data:
a number of layouts, spent in rounds, and a deadline checked between rounds (so a decision is the
same for the same view and seed unless the deadline cuts it short). Passing and the moon choice
use the careful Medium player's judgement and the `auto` rule.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

import numpy as np

from app.bots import medium
from app.bots import simulator as sim
from app.bots.knowledge import Knowledge, know
from app.bots.moon import choose_moon
from app.bots.sampler import World, sample_world
from app.engine import Card, PlayerView, is_penalty_card, points_of

__all__ = ["DEFAULT_BUDGET", "Budget", "choose_moon", "choose_pass", "choose_play", "evaluate"]


@dataclass(frozen=True, slots=True)
class Budget:
    """How much thinking a decision may take."""

    worlds: int = 64
    """Layouts of the hidden cards to imagine (each played out once per legal card)."""
    round_size: int = 16
    """Layouts per round; the deadline is checked between rounds."""
    deadline_ms: float = 2000.0
    """Stop starting new rounds after this long (a safety net; normally the worlds run out)."""
    end_weight: float = 30.0
    """Points a win (or loss) of the game at the end of this hand is worth in the evaluation."""


DEFAULT_BUDGET = Budget()

choose_pass = medium.choose_pass  # noqa: RUF100


def choose_play(view: PlayerView, rng: random.Random, budget: Budget = DEFAULT_BUDGET) -> Card:
    """The legal card with the best mean result over imagined layouts."""
    if len(view.legal) == 1:
        return view.legal[0]
    scores = evaluate(view, rng, budget)
    best = max(scores.values())
    return next(c for c in view.legal if scores[c] == best)


def evaluate(
    view: PlayerView, rng: random.Random, budget: Budget = DEFAULT_BUDGET
) -> dict[Card, float]:
    """Mean result of each legal card (higher is better) over the imagined layouts."""
    knowledge = know(view)
    rules = sim.Rules.of(view.options)
    candidates = list(view.legal)
    np_rng = np.random.default_rng(rng.getrandbits(64))
    totals = np.zeros(len(candidates))
    count = 0
    start = time.perf_counter()
    while count < budget.worlds:
        size = min(budget.round_size, budget.worlds - count)
        worlds = [sample_world(knowledge, rng) for _ in range(size)]
        totals += _round(view, knowledge, rules, worlds, candidates, np_rng, budget).sum(axis=0)
        count += size
        if (time.perf_counter() - start) * 1000 >= budget.deadline_ms:
            break
    return {c: float(t / count) for c, t in zip(candidates, totals, strict=True)}


def _round(
    view: PlayerView,
    knowledge: Knowledge,
    rules: sim.Rules,
    worlds: list[World],
    candidates: list[Card],
    np_rng: np.random.Generator,
    budget: Budget,
) -> np.ndarray:
    """Utility of each candidate in each world, shape (worlds, candidates)."""
    c = len(candidates)
    batch = _batch(view, knowledge, rules, worlds).repeat(c)
    first = np.tile(np.array([card.index for card in candidates], dtype=np.int64), len(worlds))
    sim.play(batch, first)
    sim.play_out(batch, sim.heuristic_policy, np_rng)
    totals = np.asarray(view.totals, dtype=np.int64)[None, :]
    points = sim.hand_points(batch, totals)
    return _utility(view.seat, rules, points, totals, budget).reshape(len(worlds), c)


def _utility(
    me: int, rules: sim.Rules, points: sim.IntArray, totals: sim.IntArray, budget: Budget
) -> np.ndarray:
    """Opponents' mean points minus own points, plus the game's win or loss if it ends."""
    n = rules.n
    own = points[:, me].astype(np.float64)
    others = (points.sum(axis=1) - points[:, me]) / (n - 1)
    after = totals + points
    ends, winners = sim.game_end(rules, after)
    race = np.where(ends, np.where(winners[:, me], budget.end_weight, -budget.end_weight), 0.0)
    return np.asarray(others - own + race, dtype=np.float64)


def _batch(view: PlayerView, k: Knowledge, rules: sim.Rules, worlds: list[World]) -> sim.Batch:
    """The simulator batch of the current position, one row per imagined world."""
    n = view.num_players
    m = len(worlds)
    hands = np.zeros((m, n, 52), dtype=np.int8)
    for w, world in enumerate(worlds):
        hands[w] = sim.counts_of(view.options, [[c.index for c in h] for h in world.hands])
    points = np.tile(np.asarray(k.points_taken, dtype=np.int64), (m, 1))
    penalty = np.tile(np.asarray(k.penalty_taken, dtype=np.int64), (m, 1))
    kitty_points = np.array([points_of(view.options, w.kitty) for w in worlds], dtype=np.int64)
    kitty_penalty = np.array(
        [sum(1 for c in w.kitty if is_penalty_card(c)) for w in worlds], dtype=np.int64
    )
    collector = view.kitty_collector
    if collector is not None and collector != view.seat:
        points[:, collector] += kitty_points  # hidden, but taken: it counts for the moon too
        penalty[:, collector] += kitty_penalty
    pending = np.full(m, view.kitty_size > 0 and collector is None)
    tricks_won = np.zeros(n, dtype=np.int64)
    for t in view.tricks:
        if t.collector is not None:
            tricks_won[t.collector] += 1
    bonus = view.options.bonus_card
    bonus_taken = np.zeros((m, n), dtype=np.bool_)
    if bonus is not None:
        for seat, taken in enumerate(k.taken):
            bonus_taken[:, seat] = bonus in taken
    played = view.played_cards
    return sim.new_batch(
        rules,
        hands,
        leader=view.leader if view.leader is not None else 0,
        trick=view.trick_number,
        current=[(seat, c.index) for seat, c in view.current],
        broken=view.hearts_broken,
        points=points,
        penalty=penalty,
        tricks_won=np.tile(tricks_won, (m, 1)),
        bonus_taken=bonus_taken,
        pot=(points_of(view.options, view.pot), sum(1 for c in view.pot if is_penalty_card(c))),
        kitty=(pending, kitty_points, kitty_penalty),
        queens_played=sum(1 for c in played if c.index == sim.QS),
    )
