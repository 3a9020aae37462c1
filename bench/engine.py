"""Random legal full hands per second through the engine's public API.

    python -m bench.engine [--seconds 3] [--seed 1]

Each hand is dealt with `random_deal`, every seat passes three random cards, and then every card
is chosen at random from `legal_actions` and applied with `apply` (so every action is validated).
The last line reads `engine: N hands/s standard-4, M hands/s cancellation-8`.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from app.engine import (
    GameState,
    Pass,
    Phase,
    RuleOptions,
    apply,
    legal_actions,
    new_game,
    random_deal,
    to_act,
)


def play_hand(state: GameState, rng: random.Random) -> GameState:
    """Deal and play one hand at random; return the state after it is scored."""
    if state.is_over:
        state = new_game(state.options)
    state = apply(state, random_deal(state.options, rng))
    while state.phase is Phase.PASS:
        for seat in to_act(state):
            assert state.hand is not None
            state = apply(state, Pass(seat, rng.sample(state.hand.hands[seat], 3)))
    while state.phase is Phase.PLAY or state.phase is Phase.MOON_CHOICE:
        state = apply(state, rng.choice(legal_actions(state)))
    return state


def hands_per_second(options: RuleOptions, seconds: float, seed: int) -> tuple[float, int]:
    """Play hands for about `seconds`; return (hands per second, hands played)."""
    rng = random.Random(seed)
    state = new_game(options)
    count = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = play_hand(state, rng)
        count += 1
        now = time.perf_counter()
        if now >= deadline:
            return count / (now - start), count


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per table")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, one process")
    tables = {
        "standard-4": RuleOptions.standard(4),
        "cancellation-8": RuleOptions.cancellation(8),
    }
    rates = {}
    for name, options in tables.items():
        rate, count = hands_per_second(options, args.seconds, args.seed)
        rates[name] = rate
        print(f"{name}: {count} hands in {count / rate:.2f} s = {rate:,.0f} hands/s")
    print(
        f"engine: {rates['standard-4']:.0f} hands/s standard-4, "
        f"{rates['cancellation-8']:.0f} hands/s cancellation-8"
    )


if __name__ == "__main__":
    main()
