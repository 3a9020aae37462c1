"""`nothing_left_to_score`: when a seat's view says the rest of the hand scores nothing, every way
of playing it out gives the same hand result (R1.4, R11, R12, R20, R21, R32.2, R37); it says so
as soon as every scoring card has been taken and the seat can know it."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from app.engine import (
    GameState,
    Phase,
    RuleOptions,
    apply,
    legal_actions,
    new_game,
    points_of,
    view_for,
)
from app.engine.endgame import nothing_left_to_score
from tests.engine.helpers import random_step

TABLES = {
    "standard-4": RuleOptions.standard(4),
    "standard-3": RuleOptions.standard(3),
    "omnibus-4": RuleOptions.standard(4, omnibus=True),
    "no-tricks-bonus-4": replace(RuleOptions.standard(4), no_tricks_bonus=-5),
    "cancellation-6": RuleOptions.cancellation(6),
    "cancellation-8": RuleOptions.cancellation(8),
}


def finish(state: GameState, rng: random.Random) -> tuple[int, ...]:
    """Play the hand out at random; its scored points (before any moon choice)."""
    number = len(state.results)
    while len(state.results) == number and state.phase is Phase.PLAY:
        state = apply(state, rng.choice(legal_actions(state)))
    if state.phase is Phase.MOON_CHOICE:
        return (-1,)  # a moon needs every point: never after they are all taken apart
    return state.results[-1].points


def play_states(options: RuleOptions, seed: int) -> list[GameState]:
    """Every play-phase state of the first hand of a random game."""
    rng = random.Random(seed)
    state = new_game(options)
    states = []
    while not state.results:
        state = random_step(state, rng)
        if state.phase is Phase.PLAY:
            states.append(state)
    return states


def all_taken(state: GameState) -> bool:
    """The ground truth: every scoring card sits in some seat's collected cards."""
    hand = state.hand
    assert hand is not None
    left = [c for h in hand.hands for c in h] + [c for _, c in hand.current] + list(hand.pot)
    if hand.kitty_collector is None:
        left += list(hand.kitty)
    return not any(points_of(state.options, [c]) for c in left)


@pytest.mark.parametrize("table", sorted(TABLES))
@pytest.mark.parametrize("seed", range(12))
def test_a_hand_with_nothing_left_to_score_ends_the_same_however_it_is_played(
    table: str, seed: int
) -> None:
    options = TABLES[table]
    states = play_states(options, seed)
    for state in states:
        for seat in range(options.num_players):
            view = view_for(state, seat)
            if not nothing_left_to_score(view):
                continue
            assert all_taken(state), (table, seed, seat)
            outcomes = {finish(state, random.Random(k)) for k in range(4)}
            assert len(outcomes) == 1, (table, seed, seat, outcomes)


def kitty_scores(state: GameState) -> bool:
    assert state.hand is not None
    return bool(points_of(state.options, list(state.hand.kitty)))


def test_it_is_said_before_the_hand_ends() -> None:
    """Not vacuous: at the standard table, some random hands take their last scoring card
    before the last trick, and then every seat can tell."""
    said = sum(
        nothing_left_to_score(view_for(state, seat))
        for seed in range(20)
        for state in play_states(RuleOptions.standard(4), seed)
        for seat in range(4)
    )
    assert said >= 10


def test_a_card_on_the_table_or_in_the_pot_still_scores() -> None:
    """Not before the last scoring card is taken with its trick."""
    for seed in range(30):
        for state in play_states(RuleOptions.standard(4), seed):
            hand = state.hand
            assert hand is not None
            on_table = [c for _, c in hand.current] + list(hand.pot)
            if points_of(state.options, on_table):
                assert not any(nothing_left_to_score(view_for(state, s)) for s in range(4))


def test_another_seats_kitty_keeps_the_hand_going() -> None:
    """R32.2: a kitty collected by another seat may hold points nobody else can see."""
    seen_hidden = False
    for seed in range(40):
        for state in play_states(RuleOptions.cancellation(6), seed):
            hand = state.hand
            assert hand is not None
            if hand.kitty_collector is None or not kitty_scores(state):
                continue
            for seat in range(6):
                if seat != hand.kitty_collector:
                    seen_hidden = True
                    assert not nothing_left_to_score(view_for(state, seat))
    assert seen_hidden
