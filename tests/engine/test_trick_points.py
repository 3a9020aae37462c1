"""`trick_points`: the points each trick's collector took with it add up to the points each seat
collected in the hand (R11.1), pot (R37.1) and kitty (R32.2) included; without the kitty's
cards, the kitty's points are left out."""

from __future__ import annotations

import random

import pytest

from app.engine import Phase, RuleOptions, new_game, points_of, trick_points
from tests.engine.helpers import random_step

TABLES = {
    "standard-4": RuleOptions.standard(4),
    "omnibus-5": RuleOptions.standard(5, omnibus=True),
    "cancellation-6": RuleOptions.cancellation(6),
    "cancellation-11": RuleOptions.cancellation(11),
}


@pytest.mark.parametrize("table", sorted(TABLES))
@pytest.mark.parametrize("seed", range(6))
def test_trick_points_add_up_to_the_points_collected(table: str, seed: int) -> None:
    options = TABLES[table]
    rng = random.Random(seed)
    state = random_step(new_game(options), rng)
    while state.phase is not Phase.PLAY:  # the deal and the passes
        state = random_step(state, rng)
    while state.phase is Phase.PLAY:
        state = random_step(state, rng)
    done = state.hand  # the finished hand stays on the table until the next deal
    assert done is not None and not any(done.hands)  # every card played
    collected = [0] * options.num_players
    hidden = [0] * options.num_players
    for trick in done.tricks:
        if trick.collector is not None:
            collected[trick.collector] += trick_points(options, trick, done.kitty)
            hidden[trick.collector] += trick_points(options, trick)
    assert collected == [points_of(options, taken) for taken in done.taken]
    kitty = points_of(options, done.kitty)
    assert sum(collected) - sum(hidden) == (kitty if done.kitty_collector is not None else 0)
