"""Perft-style golden counts: the number of legal actions along fixed seeded play-outs.

For each table and seed, one whole hand is played from a new game through the public API:
`random_deal(options, rng)` deals; in the pass phase each decision counts
`len(legal_actions(state))` (every 3-card pass of every seat still to pass) and then the lowest
seat still to pass passes `rng.sample(hand, 3)`; in the play phase (and at a moon choice) each
decision counts `len(legal_actions(state))` and plays `rng.choice(legal_actions(state))`. The
number of decisions, the sum of the counts over the pass decisions and the sum over the play
decisions must equal the golden numbers below: any change to legality (R4–R9, R15, R32–R35), to
trick resolution (R10, R36, R37) or to the order of legal actions changes them. (The pass sums
depend only on hand sizes and, in Cancellation, on pairs in a hand; the play sums carry the
legality of play.)

The golden numbers were computed once with the engine of commit b7385e3. To regenerate them after
an intended rule change (and only then — review why each number moved), run

    .venv/bin/python -m tests.engine.test_perft

and paste the printed dictionary over `GOLDEN`.
"""

from __future__ import annotations

import random

import pytest

from app.engine import (
    Pass,
    Phase,
    RuleOptions,
    apply,
    legal_actions,
    new_game,
    random_deal,
    to_act,
)

TABLES: dict[str, RuleOptions] = {
    "standard-4": RuleOptions.standard(4),
    "standard-3": RuleOptions.standard(3),
    "standard-5": RuleOptions.standard(5),
    "omnibus-4": RuleOptions.standard(4, omnibus=True),
    "cancellation-6": RuleOptions.cancellation(6),
    "cancellation-8": RuleOptions.cancellation(8),
    "cancellation-11": RuleOptions.cancellation(11),
}
SEEDS = (0, 1, 42)

GOLDEN: dict[tuple[str, int], tuple[int, int, int]] = {
    ("standard-4", 0): (56, 2860, 191),
    ("standard-4", 1): (56, 2860, 178),
    ("standard-4", 42): (56, 2860, 159),
    ("standard-3", 0): (54, 4080, 228),
    ("standard-3", 1): (54, 4080, 240),
    ("standard-3", 42): (54, 4080, 228),
    ("standard-5", 0): (55, 1800, 122),
    ("standard-5", 1): (55, 1800, 121),
    ("standard-5", 42): (55, 1800, 168),
    ("omnibus-4", 0): (56, 2860, 191),
    ("omnibus-4", 1): (56, 2860, 178),
    ("omnibus-4", 42): (56, 2860, 159),
    ("cancellation-6", 0): (108, 12324, 353),
    ("cancellation-6", 1): (108, 12166, 352),
    ("cancellation-6", 42): (108, 12363, 441),
    ("cancellation-8", 0): (112, 9617, 368),
    ("cancellation-8", 1): (112, 10030, 310),
    ("cancellation-8", 42): (112, 9769, 333),
    ("cancellation-11", 0): (110, 5187, 248),
    ("cancellation-11", 1): (110, 5187, 259),
    ("cancellation-11", 42): (110, 5354, 226),
}
"""(table, seed) → (decisions, sum of `len(legal_actions)` at pass decisions, the same at play
decisions)."""


def perft_hand(options: RuleOptions, seed: int) -> tuple[int, int, int]:
    """Play one seeded hand; return (decisions, pass-phase count sum, play-phase count sum)."""
    rng = random.Random(seed)
    state = apply(new_game(options), random_deal(options, rng))
    decisions = 0
    sums = {Phase.PASS: 0, Phase.PLAY: 0}
    while state.phase in (Phase.PASS, Phase.PLAY, Phase.MOON_CHOICE):
        actions = legal_actions(state)
        decisions += 1
        sums[Phase.PASS if state.phase is Phase.PASS else Phase.PLAY] += len(actions)
        if state.phase is Phase.PASS:
            hand = state.hand
            assert hand is not None
            seat = to_act(state)[0]
            state = apply(state, Pass(seat, rng.sample(hand.hands[seat], 3)))
        else:
            state = apply(state, rng.choice(actions))
    assert state.phase in (Phase.DEAL, Phase.GAME_OVER)
    assert len(state.results) == 1
    return decisions, sums[Phase.PASS], sums[Phase.PLAY]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("table", list(TABLES))
def test_perft_golden_counts(table: str, seed: int) -> None:
    assert perft_hand(TABLES[table], seed) == GOLDEN[(table, seed)]


def test_perft_golden_table_is_complete() -> None:
    assert set(GOLDEN) == {(table, seed) for table in TABLES for seed in SEEDS}


if __name__ == "__main__":  # regenerate GOLDEN (see the module docstring)
    print("GOLDEN: dict[tuple[str, int], tuple[int, int, int]] = {")
    for name, options in TABLES.items():
        for seed in SEEDS:
            print(f"    ({name!r}, {seed}): {perft_hand(options, seed)!r},")
    print("}")
