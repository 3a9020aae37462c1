"""Trick arithmetic shared by the rule-based players (Easy and Medium).

Everything here reads only the `PlayerView` (and the `Knowledge` derived from it): who is still to
play in the current trick, who would be winning it if a card were added, what the trick is worth,
and small card facts (`is_dangerous_spade`, the Omnibus bonus card). Cancellation Hearts is
handled through the engine's own `trick_winner` (R36), so a card that duplicates the winning card
is correctly seen as not winning.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from app.bots.knowledge import Knowledge
from app.engine import (
    QUEEN_OF_SPADES,
    Card,
    Hand,
    PlayerView,
    Suit,
    points_of,
    remove_cards,
    trick_winner,
)

ACE_OF_SPADES = Card(14, Suit.SPADES)
KING_OF_SPADES = Card(13, Suit.SPADES)


def led_suit(view: PlayerView) -> Suit | None:
    """The suit led to the current trick, or None when this seat leads."""
    return view.current[0][1].suit if view.current else None


def seats_after(view: PlayerView) -> tuple[int, ...]:
    """The seats that will play to the current trick after this one, in play order."""
    n = view.num_players
    left = n - len(view.current) - 1
    return tuple((view.seat + k) % n for k in range(1, left + 1))


def is_last(view: PlayerView) -> bool:
    """Whether this seat plays the last card of the current trick."""
    return len(view.current) == view.num_players - 1


def trick_value(view: PlayerView) -> int:
    """Points the winner of the current trick collects so far: its cards plus the waiting pot."""
    return points_of(view.options, [c for _, c in view.current]) + points_of(view.options, view.pot)


def winner_with(view: PlayerView, c: Card) -> int | None:
    """The seat that would be winning the current trick once this seat adds `c` (R10, R36)."""
    return trick_winner((*view.current, (view.seat, c)))


def wins_now(view: PlayerView, c: Card) -> bool:
    """Whether `c` would be winning the current trick at the moment it is played."""
    return winner_with(view, c) == view.seat


def can_be_beaten(k: Knowledge, view: PlayerView, c: Card) -> bool:
    """Whether a later player may still beat `c` in the led suit: an unseen higher card exists
    and some later seat has not shown out of the suit (or may cancel `c` with its twin)."""
    if not any(not k.is_void(s, c.suit) for s in seats_after(view)):
        return False
    return k.unseen_above(c) > 0 or k.unseen[c] > 0


def is_sure_winner(k: Knowledge, c: Card) -> bool:
    """Whether no unseen card can beat `c` in its suit: no higher card and no twin to cancel it
    (R36) is still out."""
    return k.unseen_above(c) == 0 and k.unseen[c] == 0


def void_seat_after(k: Knowledge, view: PlayerView, suit: Suit) -> bool:
    """Whether a later seat has shown out of `suit` and can discard onto this trick."""
    return any(k.is_void(s, suit) for s in seats_after(view))


def queen_out(k: Knowledge) -> bool:
    """Whether a queen of spades may still be in an opponent's hand (or the kitty)."""
    return k.queens_out > 0


def is_dangerous_spade(c: Card) -> bool:
    """`AS` or `KS`: the spades that catch a discarded queen."""
    return c is ACE_OF_SPADES or c is KING_OF_SPADES


def is_bonus(view: PlayerView, c: Card) -> bool:
    """Whether `c` is the Omnibus bonus card (R20)."""
    return view.options.omnibus and c is view.options.bonus_card


def suit_cards(hand: Sequence[Card], suit: Suit) -> list[Card]:
    """The cards of `suit` in a hand, low to high."""
    return sorted((c for c in hand if c.suit is suit), key=lambda c: c.rank)


def without(hand: Iterable[Card], removed: Iterable[Card]) -> list[Card]:
    """`hand` less one copy of each removed card; ValueError if one is not (or no longer) in it."""
    rest = remove_cards(tuple(hand), removed)
    if rest is None:
        raise ValueError("a removed card is not in the hand")
    return list(rest)


def pick_cards(hand: Hand, chosen: Iterable[Card]) -> tuple[Card, ...]:
    """The chosen cards as a pass, checking they exist in `hand` with their multiplicity."""
    out = tuple(chosen)
    without(hand, out)  # raises if a card is not (or no longer) in the hand
    return out


def non_penalty(items: Iterable[Card]) -> list[Card]:
    """The cards that are neither a heart nor the queen of spades."""
    return [c for c in items if c.suit is not Suit.HEARTS and c is not QUEEN_OF_SPADES]
