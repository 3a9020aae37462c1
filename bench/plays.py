"""How much a card chosen from a sample of imagined layouts gives away, by budget.

    python -m bench.plays [--positions 60] [--table standard-4] [--draws 3] [--reference 1024]
                          [--budgets hard,expert,expert-close,expert-256] [--seed 1]

A play is chosen by the mean result of each legal card over a sample of layouts
(`hard.appraise`), so the same position with other random numbers may get another card. Positions
are leads, follows and discards with a choice from games of Medium players (`bench.think`). In
each, seat to play chooses its card `--draws` times with each budget, each time with other random
numbers. Every legal card is then weighed once more in `--reference` layouts, the same for all
(Expert's way of drawing them, one look), and a choice's loss is how much less it is worth than
the best card chosen there by any draw of any budget (the reference's own best would flatter the
reference's noise). Budgets:

- `hard`: Hard's (64 layouts);
- `expert`: Expert's as it plays at this table (`expert.choose_play`: past `expert.MANY_SEATS`
  seats a second look half as wide, and exact play from two cards);
- `expert-close`: Expert's four-seat budget (a second look of 128 layouts) at any table;
- `expert-256`: Expert's with 256 layouts in one look.

The last line reads `plays: loss B1 X1, B2 X2 … points/decision; median ms B1 T1, …`.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import random
import statistics
import time
from collections.abc import Callable, Sequence

from app.bots import expert, hard
from app.engine import Card, PlayerView
from bench.think import positions

EXPERT_256 = dataclasses.replace(expert.BUDGET, worlds=256, round_size=64, close_worlds=0)

CHOOSERS: dict[str, Callable[[PlayerView, random.Random], Card]] = {
    "hard": hard.choose_play,
    "expert": expert.choose_play,
    "expert-close": functools.partial(hard.choose_play, budget=expert.BUDGET),
    "expert-256": functools.partial(hard.choose_play, budget=EXPERT_256),
}
"""How each budget chooses a card."""


def main(argv: Sequence[str] | None = None) -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--table", default="standard-4")
    parser.add_argument("--draws", type=int, default=3)
    parser.add_argument("--reference", type=int, default=1024)
    parser.add_argument("--budgets", default=",".join(CHOOSERS))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    names = args.budgets.split(",")
    unknown = [n for n in names if n not in CHOOSERS]
    if unknown:
        parser.error(f"unknown budgets {unknown}: choose among {', '.join(CHOOSERS)}")
    found = positions(args.table, args.positions * 4 // 3, args.seed)
    views = [v for kind in ("lead", "follow", "discard") for v in found[kind]]
    reference = dataclasses.replace(
        expert.BUDGET, worlds=args.reference, round_size=64, close_worlds=0
    )
    losses: dict[str, list[float]] = {n: [] for n in names}
    seconds: dict[str, list[float]] = {n: [] for n in names}
    for i, view in enumerate(views):
        chosen: dict[str, list[Card]] = {}
        for name in names:
            chosen[name] = []
            for draw in range(args.draws):
                rng = random.Random(args.seed * 1_000_003 + i * args.draws + draw)
                start = time.perf_counter()
                chosen[name].append(CHOOSERS[name](view, rng))
                seconds[name].append(time.perf_counter() - start)
        worth = hard.evaluate(view, random.Random(-1 - i), reference)
        best = max(worth[c] for picks in chosen.values() for c in picks)
        for name, picks in chosen.items():
            losses[name].extend(best - worth[c] for c in picks)
    for name in names:
        print(
            f"{name}: {len(views)} positions, a card takes "
            f"{statistics.median(seconds[name]) * 1000:.0f} ms (median), loses "
            f"{statistics.fmean(losses[name]):.3f} points/decision against the best chosen"
        )
    loss = ", ".join(f"{n} {statistics.fmean(losses[n]):.3f}" for n in names)
    ms = ", ".join(f"{n} {statistics.median(seconds[n]) * 1000:.0f}" for n in names)
    print(f"plays: loss {loss} points/decision; median ms {ms}")


if __name__ == "__main__":
    main()
