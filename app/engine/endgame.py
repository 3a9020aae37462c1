"""When the rest of a hand can no longer change the score, as one seat can tell from its view.

The table offers to finish such a hand at once. Only what the seat is entitled to know is used
(BOT-01): a face-down kitty that another seat collected may hold points this seat cannot see, so
it keeps the hand going; the seat's own kitty is known to it.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

from app.engine.cards import QUEEN_OF_SPADES, Card, Suit
from app.engine.options import RuleOptions
from app.engine.state import Phase
from app.engine.table import card_points, deck_for
from app.engine.view import PlayerView


def nothing_left_to_score(view: PlayerView) -> bool:
    """True while the hand is played and every card that scores (the hearts, `QS`, and the
    Omnibus bonus card, R1.4, R20) has been taken with a trick (or is in this seat's own kitty),
    so the remaining tricks score nothing; with the no-tricks bonus on (R21) every seat must also
    have taken a trick already. A scoring card on the table or waiting in the pot is still left."""
    points = card_points(view.options)
    if view.phase is not Phase.PLAY or any(points[c.index] for c in view.hand):
        return False  # (the usual answer, and a cheap one: the table asks at every decision)
    taken: Counter[Card] = Counter()
    for trick in view.tricks:
        if trick.collector is not None:
            taken.update(c for c in (*trick.cards, *trick.pot_taken) if points[c.index])
    if view.kitty is not None:
        taken.update(c for c in view.kitty if points[c.index])
    if taken != _scoring(view.options):
        return False
    if view.options.no_tricks_bonus:
        collectors = {t.collector for t in view.tricks if t.collector is not None}
        return len(collectors) == view.num_players
    return True


@cache
def _scoring(options: RuleOptions) -> Counter[Card]:
    """The pack's scoring cards, with their counts (two of each at Cancellation). Not to be
    changed: it is shared."""
    points = card_points(options)
    return Counter(c for c in deck_for(options) if points[c.index])


MOON_WATCH_POINTS = 8
"""Penalty points one seat must hold, with nobody else holding any, before the table says it
could still shoot the moon: the queen of spades alone, or eight hearts."""


def moon_watch(view: PlayerView) -> int | None:
    """The seat that, on the public record, could still take every penalty card of the hand
    (R12.1): while the hand is played, it has collected every heart and queen of spades taken so
    far, at least `MOON_WATCH_POINTS` of them, and at least one is still out. None otherwise.

    Only public tricks count (a kitty another seat holds is face down to everyone else), so the
    answer is the same for every seat's view of the same table."""
    if view.phase is not Phase.PLAY:
        return None
    held = penalty_taken(view)
    holders = [seat for seat, n in held.items() if n > 0]
    if len(holders) != 1:
        return None
    seat = holders[0]
    return seat if MOON_WATCH_POINTS <= held[seat] < _moon_cards(view.options)[1] else None


def penalty_taken(view: PlayerView) -> Counter[int]:
    """The moon's points (every heart 1, `QS` 13) each seat has taken in this hand's public
    tricks and the pots they carried."""
    points = _moon_cards(view.options)[0]
    held: Counter[int] = Counter()
    for trick in view.tricks:
        if trick.collector is not None:
            taken = (*trick.cards, *trick.pot_taken)
            held[trick.collector] += sum(points.get(c, 0) for c in taken)
    return held


@cache
def _moon_cards(options: RuleOptions) -> tuple[dict[Card, int], int]:
    """The points of each card of the moon (every heart 1, `QS` 13; R12.1) and the total the
    pack in play holds of them (26, or 52 with two decks)."""
    deck = deck_for(options)
    points = {
        c: 1 if c.suit is Suit.HEARTS else 13
        for c in deck
        if c.suit is Suit.HEARTS or c == QUEEN_OF_SPADES
    }
    return points, sum(points[c] for c in deck if c in points)
