"""Fit the opponent model Expert's inference uses (`app.bots.opponent`) to self-play games.

    python -m bench.learn_opponent [--hands 150] [--players hard] [--table standard-4] [--seed 7]
                                   [--jobs 1] [--write]

Plays `--hands` hands of self-play (every seat at `--players`, whole games from totals 0),
replays every play of them in the simulator with the true hands, and fits the model's weights by
maximum likelihood (Newton's method, a small L2 penalty) on four fifths of the hands. It prints
the mean log-probability of the card played, per play with a choice, on the other fifth: under
the model, under the weights shipped today, under every legal card equally likely, and under the
careful player with ε = 0.3 (the card Medium would play with probability 0.7). `--write`
stores the weights in `app/bots/opponent.json`, with how they were fitted.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
from collections.abc import Sequence
from datetime import UTC, datetime

import numpy as np

from app.bots import Level, choose_action, decision_rng, opponent
from app.bots import simulator as sim
from app.bots.rollout import careful_policy
from app.engine import Phase, Play, apply, new_game, random_deal, to_act, view_for
from bench.tables import parse_table

PENALTY = 1e-3
Record = tuple[tuple[tuple[int, ...], ...], int, list[int], tuple[int, ...]]
"""A hand: every seat's cards at the first lead, the leader, the cards played in order, and the
totals before it."""


def play_hands(task: tuple[str, str, int, int]) -> list[Record]:
    """`count` hands of self-play games seeded `seed`."""
    table, players, seed, count = task
    options = parse_table(table)
    deals = random.Random(seed)
    found: list[Record] = []
    state = new_game(options)
    number = 0
    game = 0
    start: tuple[tuple[tuple[int, ...], ...], int, tuple[int, ...]] | None = None
    plays: list[int] = []
    while len(found) < count:
        if state.is_over:
            game += 1
            state = new_game(options)
        if state.phase is Phase.DEAL:
            state = apply(state, random_deal(options, deals))
            number += 1
            continue
        seat = to_act(state)[0]
        view = view_for(state, seat)
        if view.phase is Phase.PLAY and start is None:
            assert state.hand is not None
            hands = tuple(tuple(c.index for c in h) for h in state.hand.hands)
            start = (hands, seat, tuple(state.totals))
            plays = []
        action = choose_action(view, players, decision_rng(seed * 1000 + game, number, seat))
        if isinstance(action, Play):
            plays.append(action.card.index)
        before = len(state.results)
        state = apply(state, action)
        number += 1
        if len(state.results) > before:
            assert start is not None
            found.append((start[0], start[1], plays, start[2]))
            start = None
    return found


def samples(table: str, hands: list[Record]) -> tuple[np.ndarray, ...]:
    """Features (N, 52, F), legal masks (N, 52), the card played (N), and whether the careful
    player would have played it (N), for every play with a choice."""
    options = parse_table(table)
    rules = sim.Rules.of(options)
    n = options.num_players
    counts = np.stack([sim.counts_of(options, [list(h) for h in hand]) for hand, *_ in hands])
    batch = sim.new_batch(
        rules,
        counts,
        leader=np.array([leader for _, leader, _, _ in hands], dtype=np.int64),
        totals=np.array([totals for *_, totals in hands], dtype=np.int64),
    )
    xs, legals, chosen, careful = [], [], [], []
    rng = np.random.default_rng(0)
    for step in range(rules.tricks * n):
        legal = sim.legal_mask(batch)
        cards = np.array([plays[step] for _, _, plays, _ in hands], dtype=np.int64)
        free = legal.sum(axis=1) > 1
        if free.any():
            xs.append(opponent.features(batch, legal)[free])
            legals.append(legal[free])
            chosen.append(cards[free])
            careful.append(careful_policy(batch, legal, rng)[free] == cards[free])
        sim.play(batch, cards)
    return (
        np.concatenate(xs),
        np.concatenate(legals),
        np.concatenate(chosen),
        np.concatenate(careful),
    )


def fit(x: np.ndarray, legal: np.ndarray, chosen: np.ndarray) -> np.ndarray:
    """Maximum-likelihood weights of the softmax model (Newton's method with an L2 penalty)."""
    w = np.zeros(x.shape[2])
    rows = np.arange(len(chosen))
    for _ in range(30):
        p = np.exp(log_probabilities(x, legal, w))
        mean = np.einsum("nc,ncf->nf", p, x)
        grad = (x[rows, chosen] - mean).sum(axis=0) - PENALTY * len(chosen) * w
        flat = x.reshape(-1, x.shape[2])
        second = (flat * p.reshape(-1, 1)).T @ flat - mean.T @ mean  # one matrix product
        hessian = second + PENALTY * len(chosen) * np.eye(len(w))
        step = np.linalg.solve(hessian, grad)
        w += step
        if np.abs(step).max() < 1e-6:
            break
    return w


def log_probabilities(x: np.ndarray, legal: np.ndarray, w: np.ndarray) -> np.ndarray:
    logits = np.where(legal, x @ w, -np.inf)
    top = logits.max(axis=1, keepdims=True)
    return np.asarray(logits - top - np.log(np.exp(logits - top).sum(axis=1, keepdims=True)))


def main(argv: Sequence[str] | None = None) -> None:
    """Play, fit, print the held-out figures and write the weights if asked."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=150)
    parser.add_argument("--players", choices=[lv.value for lv in Level], default="hard")
    parser.add_argument("--table", default="standard-4")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args(argv)
    jobs = max(1, args.jobs)
    share = [args.hands // jobs + (i < args.hands % jobs) for i in range(jobs)]
    tasks = [(args.table, args.players, args.seed + i, k) for i, k in enumerate(share) if k]
    with multiprocessing.Pool(jobs) as pool:
        hands = [h for part in pool.map(play_hands, tasks) for h in part]
    cut = max(1, len(hands) * 4 // 5)
    x, legal, chosen, _ = samples(args.table, hands[:cut])
    w = fit(x, legal, chosen)
    tx, tlegal, tchosen, tcareful = samples(args.table, hands[cut:] or hands[:1])
    rows = np.arange(len(tchosen))
    model = float(log_probabilities(tx, tlegal, w)[rows, tchosen].mean())
    shipped = float(log_probabilities(tx, tlegal, opponent.weights())[rows, tchosen].mean())
    choices = tlegal.sum(axis=1)
    uniform = float(-np.log(choices).mean())
    careful = float(
        np.where(tcareful, math.log(0.7), np.log(0.3 / np.maximum(choices - 1, 1))).mean()
    )
    print(
        f"{len(hands)} hands of {args.players} self-play at {args.table}: "
        f"{len(chosen)} plays fitted"
    )
    for name, value in zip(opponent.FEATURES, w, strict=True):
        print(f"  {value:+7.2f}  {name}")
    print(
        f"learn_opponent: held-out log-probability per play, model {model:.3f}, "
        f"shipped {shipped:.3f}, uniform {uniform:.3f}, careful {careful:.3f}"
    )
    if args.write:
        data = {
            "features": list(opponent.FEATURES),
            "weights": [round(float(v), 4) for v in w],
            "fitted": {
                "players": args.players,
                "table": args.table,
                "hands": len(hands),
                "seed": args.seed,
                "held_out_log_probability": {
                    "model": round(model, 4),
                    "uniform": round(uniform, 4),
                    "careful": round(careful, 4),
                },
                "date": datetime.now(UTC).date().isoformat(),
            },
        }
        opponent.WEIGHTS.write_text(json.dumps(data, indent=2) + "\n")


if __name__ == "__main__":
    main()
