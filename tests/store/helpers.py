"""Random legal games for the store tests, played through the engine's public API."""

from __future__ import annotations

import random

from app.engine import (
    Action,
    Deal,
    GameState,
    Phase,
    RuleOptions,
    apply,
    legal_actions,
    new_game,
    random_deal,
)

Step = tuple[Action, GameState]
"""An action and the state it led to."""


def random_game(options: RuleOptions, seed: int, first_deal: Deal | None = None) -> list[Step]:
    """Every action of a whole random legal game, each with the state after it."""
    rng = random.Random(seed)
    state = new_game(options)
    steps: list[Step] = []
    while not state.is_over:
        action: Action
        if state.phase is Phase.DEAL:
            deal = first_deal if first_deal is not None and state.hand is None else None
            action = deal or random_deal(options, rng)
        else:
            action = rng.choice(legal_actions(state))
        state = apply(state, action)
        steps.append((action, state))
    return steps


def moon_deal() -> Deal:
    """A four-seat deal where seat 0 holds only the top cards of every suit, so it takes every
    trick of the hand whatever anyone plays (with no passing): a guaranteed moon."""
    top = ["AC", "KC", "QC", "JC", "AD", "KD", "QD", "JD", "AS", "KS", "QS", "AH", "KH"]
    rest = [rank + suit for suit in "CDSH" for rank in "23456789TJQKA" if rank + suit not in top]
    random.Random(1).shuffle(rest)
    return Deal([top, rest[0:13], rest[13:26], rest[26:39]])


def chunks(steps: list[Step], seed: int) -> list[list[Step]]:
    """`steps` cut into pieces of random sizes (1 to 40), as the services would store them."""
    rng = random.Random(seed)
    pieces: list[list[Step]] = []
    i = 0
    while i < len(steps):
        size = rng.randint(1, 40)
        pieces.append(steps[i : i + size])
        i += size
    return pieces
