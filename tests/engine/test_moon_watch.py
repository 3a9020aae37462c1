"""Moon watch (R12.1): the seat that, on the public record, could still take every heart and
the queen of spades of the hand. Every seat's view gives the same answer, the one the full
state gives, and it names a seat only while it holds every penalty point taken so far, at
least eight of them, and not yet all."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from app.engine import QUEEN_OF_SPADES, GameState, Phase, RuleOptions, Suit, new_game, view_for
from app.engine.endgame import MOON_WATCH_POINTS, moon_watch
from app.engine.table import deck_for
from tests.engine.helpers import random_step

TABLES = {
    "standard-4": RuleOptions.standard(4),
    "standard-3": RuleOptions.standard(3),
    "omnibus-5": RuleOptions.standard(5, omnibus=True),
    "cancellation-6": RuleOptions.cancellation(6),
    "cancellation-9": RuleOptions.cancellation(9),
}


def _penalty(card: object) -> int:
    return 1 if getattr(card, "suit", None) is Suit.HEARTS else 13 if card == QUEEN_OF_SPADES else 0


def expected(state: GameState) -> int | None:
    """The definition, from the full state."""
    if state.phase is not Phase.PLAY or state.hand is None:
        return None
    held: Counter[int] = Counter()
    for trick in state.hand.tricks:
        if trick.collector is not None:
            held[trick.collector] += sum(_penalty(c) for c in (*trick.cards, *trick.pot_taken))
    total = sum(_penalty(c) for c in deck_for(state.options))
    holders = [s for s, n in held.items() if n]
    if len(holders) == 1 and MOON_WATCH_POINTS <= held[holders[0]] < total:
        return holders[0]
    return None


@pytest.mark.parametrize("table", list(TABLES))
def test_every_seat_sees_the_watch_the_full_state_gives(table: str) -> None:
    options = TABLES[table]
    named = 0
    cleared = 0
    for seed in range(6):
        rng = random.Random(f"{table}-{seed}")
        state = new_game(options)
        before = None
        while not state.is_over:
            watch = expected(state)
            for seat in range(options.num_players):
                assert moon_watch(view_for(state, seat)) == watch
            named += watch is not None
            cleared += before is not None and watch is None
            before = watch
            state = random_step(state, rng)
    assert named >= 20, "random play gave too few positions to watch"
    assert cleared >= 3, "no watch was ever lifted (by another seat's points or the hand's end)"


def test_no_watch_outside_play() -> None:
    state = new_game(RuleOptions.standard())
    assert moon_watch(view_for(state, 0)) is None
