"""How much a pass chosen from a few imagined deals gives away, by budget.

    python -m bench.passes [--hands 40] [--table standard-4] [--draws 3] [--reference 1500]
                           [--budgets hard,expert] [--judge hard] [--seed 0]

A pass is chosen by playing out each candidate in a few imagined deals of the other hands
(`hard.choose_pass`), so the same hand with other random numbers may pass other cards. For each
of `--hands` deals (hand numbers 1, 2, 3 in turn: every direction that passes, at four seats),
seat 0 chooses its pass `--draws` times with each budget, each time with other random numbers.
Every pass chosen is then weighed once more in `--reference` imagined deals, the same deals for
all of them, and a choice's loss is how much less it is worth than the best pass chosen for that
hand by any draw of any budget. `--judge` names whose evaluation weighs them: `hard` (the
play-outs' points as they are) or `expert` (Expert's, with the learned value of the pass where
it applies). Budgets:

- `hard`: Hard's;
- `expert`: Expert's;
- `expert-wide`: Expert's with twice the deals at every step of the pass;
- `expert-pool-8`: Expert's with the eight most passable cards as the pool (56 passes, not 35).

The last line reads `passes: loss B1 X1, B2 X2 … points/hand; same pass on every draw B1 A1 %,
…`.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import time
from collections.abc import Sequence

from app.bots import expert, hard
from app.bots.knowledge import know
from app.engine import Card, Phase, random_deal, view_for
from bench.strength import game_at_hand
from bench.tables import parse_table

BUDGETS = {
    "hard": hard.DEFAULT_BUDGET,
    "expert": expert.BUDGET,
    "expert-wide": dataclasses.replace(
        expert.BUDGET,
        pass_worlds=2 * expert.BUDGET.pass_worlds,
        pass_final_worlds=2 * expert.BUDGET.pass_final_worlds,
        pass_close_worlds=2 * expert.BUDGET.pass_close_worlds,
    ),
    "expert-pool-8": dataclasses.replace(expert.BUDGET, pass_pool=8),
}
"""What each budget passes with."""

JUDGES = {"hard": hard.DEFAULT_BUDGET, "expert": expert.BUDGET}
"""Whose evaluation weighs the passes chosen again."""


def main(argv: Sequence[str] | None = None) -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--table", default="standard-4")
    parser.add_argument("--draws", type=int, default=3)
    parser.add_argument("--reference", type=int, default=1500)
    parser.add_argument("--budgets", default="hard,expert")
    parser.add_argument("--judge", choices=sorted(JUDGES), default="hard")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    names = args.budgets.split(",")
    unknown = [n for n in names if n not in BUDGETS]
    if unknown:
        parser.error(f"unknown budgets {unknown}: choose among {', '.join(BUDGETS)}")
    options = parse_table(args.table)
    losses: dict[str, list[float]] = {name: [] for name in names}
    steady: dict[str, list[bool]] = {name: [] for name in names}
    seconds: dict[str, list[float]] = {name: [] for name in names}
    for i in range(args.hands):
        deal = random_deal(options, random.Random(args.seed + i))
        view = view_for(game_at_hand(options, deal, i % 3 + 1), 0)
        assert view.phase is Phase.PASS
        chosen: dict[str, list[tuple[Card, ...]]] = {}
        for name in names:
            budget = BUDGETS[name]
            chosen[name] = []
            for draw in range(args.draws):
                start = time.perf_counter()
                rng = random.Random(args.seed * 1000 + i * args.draws + draw)
                chosen[name].append(tuple(sorted(hard.choose_pass(view, rng, budget))))
                seconds[name].append(time.perf_counter() - start)
            steady[name].append(len(set(chosen[name])) == 1)
        passes = sorted({p for picks in chosen.values() for p in picks})
        values, _ = hard.evaluate_passes(
            view, passes, random.Random(-1 - i), args.reference, JUDGES[args.judge], know(view)
        )
        worth = dict(zip(passes, values.tolist(), strict=True))
        best = max(worth.values())
        for name, picks in chosen.items():
            losses[name].extend(best - worth[p] for p in picks)
    for name in names:
        print(
            f"{name}: a pass takes {statistics.median(seconds[name]) * 1000:.0f} ms (median), "
            f"loses {statistics.fmean(losses[name]):.2f} points/hand against the best chosen, "
            f"the same pass on every draw in {100 * statistics.fmean(steady[name]):.0f} % of hands"
        )
    loss = ", ".join(f"{name} {statistics.fmean(v):.2f}" for name, v in losses.items())
    same = ", ".join(f"{name} {100 * statistics.fmean(v):.0f} %" for name, v in steady.items())
    print(f"passes: loss {loss} points/hand; same pass on every draw {same}")


if __name__ == "__main__":
    main()
