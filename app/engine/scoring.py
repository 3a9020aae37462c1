"""Scoring a hand, shooting the moon and the end of the game (R11–R13, R20, R21, R39–R41)."""

from __future__ import annotations

from dataclasses import dataclass

from app.engine.cards import QUEEN_OF_SPADES, Hand, Suit
from app.engine.options import MoonScoring, RuleOptions, TieRule
from app.engine.state import Trick
from app.engine.table import deck_for, penalty_total, points_of


@dataclass(frozen=True, slots=True)
class HandScore:
    """The points of one hand before they are added to the totals."""

    points: tuple[int, ...]
    shooter: int | None
    moon_scoring: MoonScoring | None


def trick_points(options: RuleOptions, trick: Trick, kitty: Hand | None = None) -> int:
    """The points a trick's collector took with it (R11.1): its cards, the pot it carried (R37.1)
    and, if the kitty went with it and its cards are known (`kitty`), the kitty's (R32.2). For a
    trick nobody took, its cards' points, which wait in the pot."""
    carried = kitty if trick.kitty_taken and kitty is not None else ()
    return points_of(options, (*trick.cards, *trick.pot_taken, *carried))


def raw_points(options: RuleOptions, taken: tuple[Hand, ...]) -> tuple[int, ...]:
    """Each seat's hand points from the cards it collected, before any moon (R11.1)."""
    return tuple(points_of(options, cards) for cards in taken)


def find_shooter(options: RuleOptions, taken: tuple[Hand, ...]) -> int | None:
    """The seat that collected every heart and `QS` of the pack (R12.1, R20.3, R40.1), if any."""
    deck = deck_for(options)
    needed = sum(1 for c in deck if c.suit is Suit.HEARTS or c is QUEEN_OF_SPADES)
    bonus = options.bonus_card
    for seat, cards in enumerate(taken):
        penalty = sum(1 for c in cards if c.suit is Suit.HEARTS or c is QUEEN_OF_SPADES)
        if penalty == needed:
            if bonus is not None and options.omnibus_moon_requires_bonus and bonus not in cards:
                return None
            return seat
    return None


def moon_points(
    options: RuleOptions, base: tuple[int, ...], shooter: int, scoring: MoonScoring
) -> tuple[int, ...]:
    """Hand points after a moon scored `add_to_others` or `subtract_from_self` (R12.2–R12.4)."""
    points = list(base)
    points[shooter] -= penalty_total(options)  # R12.2: the bonus card, if any, stays
    if scoring is MoonScoring.ADD_TO_OTHERS:
        for seat in range(len(points)):
            if seat != shooter:
                points[seat] += options.moon_value
    elif scoring is MoonScoring.SUBTRACT_FROM_SELF:
        points[shooter] -= options.moon_value
    else:
        raise ValueError(f"moon points need add_to_others or subtract_from_self, not {scoring}")
    return tuple(points)


def game_winners(options: RuleOptions, totals: tuple[int, ...]) -> tuple[int, ...]:
    """The winners if the game ends with these totals, else () (R13.2–R13.6)."""
    if max(totals) < options.target_score:
        return ()
    low = min(totals)
    winners = tuple(seat for seat, total in enumerate(totals) if total == low)
    if len(winners) > 1 and options.tie_rule is TieRule.PLAY_ON:
        return ()
    return winners


def auto_moon_scoring(
    options: RuleOptions, base: tuple[int, ...], shooter: int, totals: tuple[int, ...]
) -> MoonScoring:
    """R12.6: add to the others unless that would end the game with the shooter not a winner."""
    added = moon_points(options, base, shooter, MoonScoring.ADD_TO_OTHERS)
    after = tuple(t + p for t, p in zip(totals, added, strict=True))
    winners = game_winners(options, after)
    if winners and shooter not in winners:
        return MoonScoring.SUBTRACT_FROM_SELF
    return MoonScoring.ADD_TO_OTHERS


def score_hand(
    options: RuleOptions,
    taken: tuple[Hand, ...],
    tricks_won: tuple[int, ...],
    totals: tuple[int, ...],
    choice: MoonScoring | None = None,
) -> HandScore | None:
    """Score a finished hand; None when a moon awaits the shooter's choice (R12.5).

    `choice` is the shooter's answer under `moon_scoring = choice`.
    """
    base = raw_points(options, taken)
    shooter = find_shooter(options, taken)
    if shooter is None:
        bonus = options.no_tricks_bonus  # R21: only when nobody shot the moon
        points = tuple(
            p + (bonus if won == 0 else 0) for p, won in zip(base, tricks_won, strict=True)
        )
        return HandScore(points, None, None)
    scoring = options.moon_scoring
    if scoring is MoonScoring.CHOICE:
        if choice is None:
            return None
        scoring = choice
    elif scoring is MoonScoring.AUTO:
        scoring = auto_moon_scoring(options, base, shooter, totals)
    return HandScore(moon_points(options, base, shooter, scoring), shooter, scoring)
