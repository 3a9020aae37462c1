"""Legality and trick resolution, following RULES.md R9 (legal moves) and R36.7 (trick winner)
literally. These functions see only a seat's own hand and public facts, so views and the full
state share them.
"""

from __future__ import annotations

from collections import Counter

from app.engine.cards import QUEEN_OF_SPADES, Card, Hand, Suit, is_penalty_card
from app.engine.options import FirstLead, HeartsBrokenBy, RuleOptions
from app.engine.state import Plays
from app.engine.table import lowest_club


def _distinct(items: list[Card] | Hand) -> Hand:
    """The cards in order with repeats (a Cancellation pair in one hand) removed."""
    return tuple(dict.fromkeys(items))


def legal_cards(
    options: RuleOptions,
    hand: Hand,
    current: Plays,
    trick_number: int,
    hearts_broken: bool,
) -> Hand:
    """The distinct cards `hand` may play now (R9); never empty for a non-empty hand."""
    if current:  # following
        led = current[0][1].suit
        same = [c for c in hand if c.suit is led]
        if same:
            return _distinct(same)  # R6.1, R6.3
        if trick_number == 1 and options.no_points_first_trick:
            safe = [c for c in hand if not is_penalty_card(c)]
            if safe:
                return _distinct(safe)  # R7.1
        return _distinct(hand)  # R6.2, R7.2, R7.3
    if trick_number == 1:
        return _first_lead_cards(options, hand)  # R5 / R34
    if hearts_broken:
        return _distinct(hand)  # R8.7
    cand = [c for c in hand if c.suit is not Suit.HEARTS]  # R8.4
    if options.qs_lead_requires_broken:
        cand = [c for c in cand if c is not QUEEN_OF_SPADES]  # R8.5
    if options.lead_hearts_if_only_qs_and_hearts and set(cand) == {QUEEN_OF_SPADES}:
        cand = []  # R8.6 option
    return _distinct(cand if cand else hand)


def _first_lead_cards(options: RuleOptions, hand: Hand) -> Hand:
    if options.first_lead is FirstLead.LEFT_OF_DEALER:  # R34.3, R5.4
        cand = [c for c in hand if not is_penalty_card(c)]
        return _distinct(cand if cand else hand)
    low = lowest_club(options)
    if options.first_lead is FirstLead.ANY_CLUB:  # R5.2
        return _distinct([c for c in hand if c.suit is Suit.CLUBS])
    return (low,) if low in hand else ()  # R5.1, R5.3


def illegal_play_rule(
    options: RuleOptions,
    hand: Hand,
    current: Plays,
    trick_number: int,
    hearts_broken: bool,
    card: Card,
) -> tuple[str, str] | None:
    """Why `card` may not be played now, as (rule id, reason); None when it is legal."""
    if card not in hand:
        return "R14.2", f"{card} is not in the hand"
    if card in legal_cards(options, hand, current, trick_number, hearts_broken):
        return None
    if current:
        led = current[0][1].suit
        if card.suit is not led and any(c.suit is led for c in hand):
            return "R6.1", f"must follow suit: {led.symbol} was led"
        return "R7.1", "no heart or queen of spades on the first trick while holding another card"
    if trick_number == 1:
        if options.first_lead is FirstLead.LEFT_OF_DEALER:
            rule = "R34.2" if options.is_cancellation else "R5.4"
            return rule, "the first lead may not be a heart or the queen of spades"
        if options.first_lead is FirstLead.ANY_CLUB:
            return "R5.2", "the first trick is led with a club"
        low = lowest_club(options)
        return ("R5.1" if low.rank == 2 else "R5.3"), f"the first trick is led with {low}"
    if card is QUEEN_OF_SPADES:
        return "R8.5", "the queen of spades may not be led before hearts are broken"
    non_hearts = {c for c in hand if c.suit is not Suit.HEARTS}
    if non_hearts == {QUEEN_OF_SPADES}:
        return "R8.6", "with only hearts and the queen of spades, the queen must be led"
    return "R8.4", "hearts may not be led before they are broken"


def breaks_hearts(options: RuleOptions, card: Card, is_discard: bool) -> bool:
    """Whether playing `card` breaks hearts (R8.2, R8.3, `after_card_played` of R9)."""
    counts = options.hearts_broken_by is HeartsBrokenBy.ANY_PLAY or is_discard
    if not counts:
        return False
    return card.suit is Suit.HEARTS or (card is QUEEN_OF_SPADES and options.qs_breaks_hearts)


def trick_winner(plays: Plays) -> int | None:
    """The seat of the highest uncancelled card of the led suit, or None (R10.1, R36.4, R36.5).

    Two identical cards cancel (R36.1); a single deck has none, so this is plain R10.1 there.
    """
    led = plays[0][1].suit
    counts = Counter(c for _, c in plays)
    best_seat: int | None = None
    best_rank = 0
    for seat, c in plays:
        if c.suit is led and counts[c] == 1 and c.rank > best_rank:
            best_seat, best_rank = seat, c.rank
    return best_seat
