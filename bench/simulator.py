"""Random full hands per second of the bots' private simulator.

    python -m bench.simulator [--table standard-4] [--hands 20000] [--batch 2000]

Deals are made with the engine; every hand is then played to its end in the simulator, in
batches that play every row in lock-step, with uniformly random legal cards (and, for
comparison, with the Hard player's rollout policy, the careful player's habits vectorized, and
with the simpler heuristic policy). One process, one core.
The last line reads `simulator: N hands/s`.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

import numpy as np

from app.bots import simulator as sim
from app.bots.rollout import careful_policy
from app.engine import (
    Deal,
    FirstLead,
    RuleOptions,
    is_penalty_card,
    lowest_club,
    points_of,
    random_deal,
)
from bench.tables import parse_table


def deals_batch(options: RuleOptions, deals: list[Deal]) -> sim.Batch:
    """A simulator batch at the first lead of each deal (a hold hand, dealer seat 0)."""
    rules = sim.Rules.of(options)
    hands = np.stack(
        [sim.counts_of(options, [[c.index for c in h] for h in d.hands]) for d in deals]
    )
    if options.first_lead is FirstLead.LEFT_OF_DEALER:
        leaders = np.full(len(deals), 1 % options.num_players)
    else:
        low = lowest_club(options)
        leaders = np.array([next(s for s, h in enumerate(d.hands) if low in h) for d in deals])
    kitty = (
        np.array([bool(d.kitty) for d in deals]),
        np.array([points_of(options, d.kitty) for d in deals], dtype=np.int64),
        np.array([sum(map(is_penalty_card, d.kitty)) for d in deals], dtype=np.int64),
    )
    return sim.new_batch(rules, hands, leader=leaders, kitty=kitty)


def rate(options: RuleOptions, policy: sim.Policy, hands: int, batch: int, seed: int) -> float:
    """Hands per second of `policy`, timing the simulator only (deals are prepared first)."""
    rng = random.Random(seed)
    np_rng = np.random.default_rng(seed)
    batches = [
        deals_batch(options, [random_deal(options, rng) for _ in range(batch)])
        for _ in range(max(1, hands // batch))
    ]
    start = time.perf_counter()
    for b in batches:
        sim.play_out(b, policy, np_rng)
    elapsed = time.perf_counter() - start
    return len(batches) * batch / elapsed


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", default="standard-4")
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--batch", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    options = parse_table(args.table)
    print(f"python {platform.python_version()}, numpy {np.__version__}, one process, {args.table}")
    careful = rate(options, careful_policy, args.hands // 4, args.batch, args.seed)
    print(f"rollout policy (careful): {careful:,.0f} hands/s")
    heuristic = rate(options, sim.heuristic_policy, args.hands // 2, args.batch, args.seed)
    print(f"heuristic policy: {heuristic:,.0f} hands/s")
    random_rate = rate(options, sim.random_policy, args.hands, args.batch, args.seed)
    print(f"simulator: {random_rate:.0f} hands/s")


if __name__ == "__main__":
    main()
