"""How well the imagined layouts predict the hidden cards: uniform, Hard's and Expert's.

    python -m bench.inference [--positions 300] [--table standard-4] [--players hard]
                              [--draws 256] [--keep 64] [--seed 1]

Positions are recorded from self-play games (every seat played by `--players`): plays from the
second trick on, the seat to play's view and the true layout. At each position `--draws` layouts
consistent with the view are drawn (`sampler.sample_worlds`), and four ways weigh them:

- uniform: every layout drawn counts the same (every consistent layout equally likely);
- surprises: the `--keep` least surprising count, the same (Hard: the fewest plays a careful
  player would not have made);
- weighted: every layout counts in proportion to the likelihood of the other seats' plays under
  the kinds of player Expert imagines (`inference.log_likelihoods`), tempered as Expert tempers
  it (`inference.temper`, keeping an effective sample size of `expert.BUDGET.least_ess` of the
  draws); Expert draws `--keep` of them in these proportions;
- learned: the same with one kind of player only, the learned `opponent` model (no careful
  player, no player whose plays tell nothing): how much the mixture gives away to its other
  kinds when the players are the ones the model was fitted to.

For each way: the weight of the layouts that put the Q♠ with its true holder (over positions
where it is hidden), and the log-likelihood of the true layout per hidden card: the mean over
hidden cards of log p(card where it really is), p the weight of the layouts with the card there,
mixed with 5 % of an even spread over the seats it may be with (so no estimate is zero). Higher is
better for both.
The last line reads `inference: Q♠ with its holder uniform U, surprises S, weighted W, learned
L; log-likelihood per card uniform a, surprises b, weighted c, learned d`.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections.abc import Sequence

import numpy as np

from app.bots import Level, choose_action, decision_rng, expert, inference
from app.bots import simulator as sim
from app.bots.knowledge import know
from app.bots.sampler import World, sample_worlds
from app.engine import (
    QUEEN_OF_SPADES,
    GameState,
    Phase,
    apply,
    new_game,
    random_deal,
    to_act,
    view_for,
)
from bench.tables import parse_table

WAYS = ("uniform", "surprises", "weighted", "learned")


def record(table: str, players: str, wanted: int, seed: int) -> list[GameState]:
    """States of self-play games at plays from the second trick on (about one in three)."""
    options = parse_table(table)
    rng = random.Random(seed)
    found: list[GameState] = []
    game = 0
    state = new_game(options)
    number = 0
    while len(found) < wanted:
        if state.is_over:
            game += 1
            state = new_game(options)
            number = 0
        if state.phase is Phase.DEAL:
            state = apply(state, random_deal(options, rng))
            number += 1
            continue
        seat = to_act(state)[0]
        view = view_for(state, seat)
        if view.phase is Phase.PLAY and view.trick_number > 1 and rng.random() < 0.35:
            found.append(state)
        action = choose_action(view, players, decision_rng(seed + game, number, seat))
        state = apply(state, action)
        number += 1
    return found


Weighed = tuple[list[World], np.ndarray]
"""Layouts and their weights (summing to 1)."""


def weighed(state: GameState, draws: int, keep: int, rng: random.Random) -> dict[str, Weighed]:
    """The layouts each way weighs at the position of `state`'s seat to play."""
    seat = to_act(state)[0]
    view = view_for(state, seat)
    k = know(view)
    rules = sim.Rules.of(view.options)
    drawn = sample_worlds(k, rng, draws)
    order = np.argsort(inference.surprises(view, k, rules, drawn), kind="stable")[:keep]
    least = expert.BUDGET.least_ess * draws
    mixture = inference.temper(inference.log_likelihoods(view, k, rules, drawn), least)
    learned = inference.temper(
        inference.log_likelihoods(view, k, rules, drawn, noise=(), uniform=False), least
    )
    return {
        "uniform": (drawn, np.full(draws, 1 / draws)),
        "surprises": ([drawn[i] for i in order], np.full(len(order), 1 / len(order))),
        "weighted": (drawn, inference.normalised(mixture)),
        "learned": (drawn, inference.normalised(learned)),
    }


def queen_share(state: GameState, worlds: Weighed) -> float | None:
    """The weight of the layouts with the Q♠ in its true holder's hand; None if the seat to play
    holds it, it is played, or it lies in no hand."""
    assert state.hand is not None
    seat = to_act(state)[0]
    holders = [s for s, h in enumerate(state.hand.hands) if QUEEN_OF_SPADES in h]
    if len(holders) != 1 or holders[0] == seat:
        return None
    layouts, weights = worlds
    return float(
        sum(
            w
            for x, w in zip(layouts, weights, strict=True)
            if QUEEN_OF_SPADES in x.hands[holders[0]]
        )
    )


def true_log_likelihood(state: GameState, worlds: Weighed) -> float | None:
    """Mean over the hidden cards in other hands of log p(the card's true seat), p the weight of
    the layouts with it there, mixed with 5 % of an even spread over the other seats."""
    assert state.hand is not None
    seat = to_act(state)[0]
    others = [s for s in range(len(state.hand.hands)) if s != seat]
    layouts, weights = worlds
    scores = []
    for s in others:
        for c in set(state.hand.hands[s]):
            p = sum(w for x, w in zip(layouts, weights, strict=True) if c in x.hands[s])
            scores.append(math.log(0.95 * p + 0.05 / len(others)))
    return statistics.fmean(scores) if scores else None


def main(argv: Sequence[str] | None = None) -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--table", default="standard-4")
    parser.add_argument("--players", choices=[lv.value for lv in Level], default="hard")
    parser.add_argument("--draws", type=int, default=256)
    parser.add_argument("--keep", type=int, default=64)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    states = record(args.table, args.players, args.positions, args.seed)
    rng = random.Random(args.seed)
    queens: dict[str, list[float]] = {w: [] for w in WAYS}
    likelihoods: dict[str, list[float]] = {w: [] for w in WAYS}
    for state in states:
        for way, worlds in weighed(state, args.draws, args.keep, rng).items():
            share = queen_share(state, worlds)
            if share is not None:
                queens[way].append(share)
            fit = true_log_likelihood(state, worlds)
            if fit is not None:
                likelihoods[way].append(fit)
    print(
        f"{len(states)} positions of {args.players} self-play at {args.table}, "
        f"{args.draws} layouts drawn, {args.keep} kept by surprises; "
        f"Q♠ hidden in another hand at {len(queens['uniform'])}"
    )
    q = {w: statistics.fmean(v) if v else float("nan") for w, v in queens.items()}
    ll = {w: statistics.fmean(v) if v else float("nan") for w, v in likelihoods.items()}
    for way in WAYS:
        print(f"{way}: Q♠ with its holder {q[way]:.3f}, log-likelihood per card {ll[way]:.3f}")
    queen = ", ".join(f"{way} {q[way]:.3f}" for way in WAYS)
    per_card = ", ".join(f"{way} {ll[way]:.3f}" for way in WAYS)
    print(f"inference: Q♠ with its holder {queen}; log-likelihood per card {per_card}")


if __name__ == "__main__":
    main()
