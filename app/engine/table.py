"""The table a set of options describes: deck, hand size, kitty, seats and passing (R2–R5, R15–R17,
R30–R33).

Seats are numbered 0 … n−1 in clockwise (play) order; `left` is the next seat to play. At four
seats 0, 1, 2, 3 are South, West, North, East (R2.1).
"""

from __future__ import annotations

from enum import StrEnum
from functools import cache
from typing import Final

from app.engine.cards import FULL_DECK, QUEEN_OF_SPADES, Card, Suit, cards
from app.engine.options import PassCycle, RuleOptions

REMOVED_CARDS: Final = {
    3: cards("2D"),
    4: (),
    5: cards("2D 2C"),
    6: cards("2D 3D 3C 4C"),
    7: cards("2D 3D 3C"),
}
"""Cards taken out of the single deck for each number of players (R15, S002)."""

SEAT_NAMES_4: Final = ("S", "W", "N", "E")


class PassDirection(StrEnum):
    """Where this hand's passed cards go (R4.2); `HOLD` means no passing."""

    LEFT = "left"
    RIGHT = "right"
    ACROSS = "across"
    HOLD = "hold"


PASS_CYCLES: Final = {
    PassCycle.LRAH: (
        PassDirection.LEFT,
        PassDirection.RIGHT,
        PassDirection.ACROSS,
        PassDirection.HOLD,
    ),
    PassCycle.LR: (PassDirection.LEFT, PassDirection.RIGHT),
    PassCycle.LRH: (PassDirection.LEFT, PassDirection.RIGHT, PassDirection.HOLD),
    PassCycle.NONE: (PassDirection.HOLD,),
}
"""The pass directions of each pass cycle, hand 1 first; the cycle then repeats (R4.2, R17)."""
_OFFSETS: Final = {
    PassDirection.LEFT: 1,
    PassDirection.RIGHT: -1,
    PassDirection.ACROSS: 2,
    PassDirection.HOLD: 0,
}


def left(seat: int, n: int) -> int:
    """The seat to the left: the next one to play (R2.3)."""
    return (seat + 1) % n


def right(seat: int, n: int) -> int:
    """The seat to the right: the previous one in play order (R2.3)."""
    return (seat - 1) % n


def across(seat: int, n: int = 4) -> int:
    """The seat opposite; defined for four seats only (R2.3)."""
    if n != 4:
        raise ValueError("across is defined for 4 players only")
    return (seat + 2) % 4


def pass_direction(options: RuleOptions, hand_number: int) -> PassDirection:
    """The passing direction of hand `hand_number` (1-based) under the pass cycle (R4.2, R17)."""
    cycle = PASS_CYCLES[options.pass_cycle]
    return cycle[(hand_number - 1) % len(cycle)]


def pass_target(seat: int, direction: PassDirection, n: int) -> int:
    """The seat that receives `seat`'s passed cards."""
    return (seat + _OFFSETS[direction]) % n


def pass_source(seat: int, direction: PassDirection, n: int) -> int:
    """The seat whose passed cards `seat` receives."""
    return (seat - _OFFSETS[direction]) % n


def dealer_of_hand(first_dealer: int, hand_number: int, n: int) -> int:
    """The dealer of hand `hand_number`: the deal passes one seat to the left each hand (R31)."""
    return (first_dealer + hand_number - 1) % n


@cache
def deck_for(options: RuleOptions) -> tuple[Card, ...]:
    """The sorted pack in play: reduced single deck (R15) or two full decks (R30.2)."""
    if options.is_cancellation:
        return tuple(sorted(FULL_DECK + FULL_DECK))
    removed = set(REMOVED_CARDS[options.num_players])
    return tuple(c for c in FULL_DECK if c not in removed)


def hand_size(options: RuleOptions) -> int:
    """Cards dealt to each seat (R15, R32.1)."""
    return len(deck_for(options)) // options.num_players


def kitty_size(options: RuleOptions) -> int:
    """Cards left over face down after the deal (R32.1); 0 in standard Hearts."""
    return len(deck_for(options)) % options.num_players


def lowest_club(options: RuleOptions) -> Card:
    """The lowest club in the pack, which opens the standard game (R5.1, R5.3, R16)."""
    return min(c for c in deck_for(options) if c.suit is Suit.CLUBS)


@cache
def card_points(options: RuleOptions) -> tuple[int, ...]:
    """Points of each card by index: heart 1, `QS` 13, Omnibus bonus card its bonus (R1.4, R20)."""
    points = [0] * 52
    for c in FULL_DECK:
        if c.suit is Suit.HEARTS:
            points[c.index] = 1
    points[QUEEN_OF_SPADES.index] = 13
    bonus = options.bonus_card
    if bonus is not None:
        points[bonus.index] = options.omnibus_bonus_value
    return tuple(points)


def points_of(options: RuleOptions, items: tuple[Card, ...] | list[Card]) -> int:
    """Total points of some cards under these options."""
    table = card_points(options)
    return sum(table[c.index] for c in items)


@cache
def penalty_total(options: RuleOptions) -> int:
    """`P`: the penalty points of the pack in play, 26 or 52 (R12, R30.3)."""
    return sum(
        13 if c is QUEEN_OF_SPADES else 1
        for c in deck_for(options)
        if c.suit is Suit.HEARTS or c is QUEEN_OF_SPADES
    )


def seat_names(n: int) -> tuple[str, ...]:
    """Short seat names: S W N E at four seats, S W E at three, letters A, B, … otherwise."""
    if n == 4:
        return SEAT_NAMES_4
    if n == 3:
        return ("S", "W", "E")
    return tuple(chr(ord("A") + i) for i in range(n))
