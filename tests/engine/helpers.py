"""Helpers for engine tests: seat names, hand-built positions and random play-outs."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from app.engine import (
    Card,
    GameState,
    HandState,
    Pass,
    PassDirection,
    Phase,
    RuleOptions,
    Trick,
    apply,
    cards,
    legal_actions,
    new_game,
    random_deal,
    to_act,
)

S, W, N, E = 0, 1, 2, 3
A, B, C, D, E_, F = 0, 1, 2, 3, 4, 5  # Cancellation seats A … F (E_ avoids East's name)


def hand(codes: str) -> tuple[Card, ...]:
    """A sorted hand from space-separated codes."""
    return cards(codes)


def position(
    options: RuleOptions,
    hands: Sequence[str | Iterable[Card]],
    *,
    leader: int,
    trick_number: int = 1,
    current: Sequence[tuple[int, str]] = (),
    hearts_broken: bool = False,
    dealer: int = 0,
    hand_number: int = 1,
    totals: Sequence[int] | None = None,
    kitty: str = "",
) -> GameState:
    """A play-phase state built directly (RULES.md §10: 'the test may construct a reduced state').

    Earlier tricks are represented by empty placeholders; only the listed facts matter.
    """
    n = options.num_players
    held = tuple(cards(h) if isinstance(h, str) else tuple(sorted(h)) for h in hands)
    assert len(held) == n
    played = tuple((seat, Card.from_str(code)) for seat, code in current)
    placeholder = tuple(
        Trick(k + 1, leader, (), leader, leader, (), False) for k in range(trick_number - 1)
    )
    state_hand = HandState(
        number=hand_number,
        dealer=dealer,
        direction=PassDirection.HOLD,
        dealt=held,
        kitty=cards(kitty),
        hands=held,
        passed=((),) * n,
        received=((),) * n,
        tricks=placeholder,
        current=played,
        leader=leader,
        hearts_broken=hearts_broken,
        pot=(),
        taken=((),) * n,
        tricks_won=(0,) * n,
        uncollected=(),
        kitty_collector=None,
        kitty_settled=not kitty,
    )
    base = new_game(options, dealer)
    return GameState(
        options=options,
        first_dealer=base.first_dealer,
        phase=Phase.PLAY,
        hand=state_hand,
        results=(),
        totals=tuple(totals) if totals is not None else base.totals,
        winners=(),
        moon_shooter=None,
    )


def random_step(state: GameState, rng: random.Random) -> GameState:
    """Apply one random legal step: a deal, every pending pass, or one legal action."""
    if state.phase is Phase.DEAL:
        return apply(state, random_deal(state.options, rng))
    if state.phase is Phase.PASS:
        for seat in to_act(state):
            assert state.hand is not None
            state = apply(state, Pass(seat, rng.sample(state.hand.hands[seat], 3)))
        return state
    return apply(state, rng.choice(legal_actions(state)))


def play_random_game(options: RuleOptions, seed: int) -> GameState:
    """A whole random legal game from a seed."""
    rng = random.Random(seed)
    state = new_game(options)
    while not state.is_over:
        state = random_step(state, rng)
    return state
