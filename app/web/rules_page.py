"""The rules of a chosen table, sentence by sentence, as message ids with their values.

The template translates each sentence; the sentences follow the options of RULES.md §2, so a
player reads exactly the rules of the table they play (issue: rules page in every language).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.engine import (
    FirstLead,
    HeartsBrokenBy,
    LastTrickNoWinner,
    LeftoverTo,
    MoonScoring,
    PassCycle,
    RuleOptions,
    TieRule,
    hand_size,
    kitty_size,
    lowest_club,
    penalty_total,
)
from app.engine.table import REMOVED_CARDS
from app.web.i18n import N_, gettext

NESTED = ("cycle", "what")
"""Values that are message ids themselves."""


@dataclass(frozen=True, slots=True)
class Sentence:
    """One rule sentence: a message id and the values it names."""

    text: str
    values: dict[str, object] = field(default_factory=dict)

    def render(self) -> str:
        """The sentence in the current language."""
        values = {k: gettext(str(v)) if k in NESTED else v for k, v in self.values.items()}
        return gettext(self.text) % values if values else gettext(self.text)


CYCLES = {
    PassCycle.LRAH: N_("left, right, across, then a hand without passing"),
    PassCycle.LR: N_("left, then right"),
    PassCycle.LRH: N_("left, right, then a hand without passing"),
}
MOON = {
    MoonScoring.ADD_TO_OTHERS: N_(
        "Shooting the moon: whoever takes every heart and the queen of spades scores nothing "
        "for the hand and everyone else gets %(value)s points."
    ),
    MoonScoring.SUBTRACT_FROM_SELF: N_(
        "Shooting the moon: whoever takes every heart and the queen of spades takes %(value)s "
        "points off their own score instead."
    ),
    MoonScoring.CHOICE: N_(
        "Shooting the moon: whoever takes every heart and the queen of spades chooses: "
        "%(value)s points to everyone else, or %(value)s off their own score. A computer "
        "player adds to the others unless that would end the game with it not winning."
    ),
    MoonScoring.AUTO: N_(
        "Shooting the moon: whoever takes every heart and the queen of spades scores nothing "
        "and everyone else gets %(value)s points, unless that would end the game with the "
        "shooter not winning; then the shooter takes %(value)s off instead."
    ),
}


def sentences(o: RuleOptions) -> list[Sentence]:
    """The rules of the table `o`, in the order a player needs them."""
    out = [_deal(o), _passing(o), _first_lead(o)]
    out.append(Sentence(N_("Everyone must follow the suit led if they can; otherwise any card.")))
    out.append(
        Sentence(N_("The highest card of the suit led takes the trick: there are no trumps."))
    )
    if o.is_cancellation:
        out += _cancellation(o)
    if o.no_points_first_trick:
        out.append(
            Sentence(
                N_(
                    "On the first trick nobody may play a heart or the queen of spades "
                    "while holding "
                    "anything else."
                )
            )
        )
    else:
        out.append(Sentence(N_("Hearts and the queen of spades may be played on the first trick.")))
    out += _hearts(o)
    points = penalty_total(o)
    out.append(
        Sentence(
            N_(
                "Each heart taken costs 1 point and each queen of spades 13: "
                "%(total)s points a hand."
            ),
            {"total": points},
        )
    )
    bonus = o.bonus_card
    if bonus is not None:
        out.append(
            Sentence(
                N_("Omnibus: whoever takes the %(card)s scores %(value)s points."),
                {"card": bonus.label, "value": o.omnibus_bonus_value},
            )
        )
        if o.omnibus_moon_requires_bonus:
            out.append(Sentence(N_("To shoot the moon you must take the bonus card too.")))
    out.append(Sentence(MOON[o.moon_scoring], {"value": o.moon_value}))
    if o.no_tricks_bonus:
        out.append(
            Sentence(
                N_(
                    "A player who wins no trick in a hand scores %(value)s points, unless someone "
                    "shot the moon."
                ),
                {"value": o.no_tricks_bonus},
            )
        )
    out.append(
        Sentence(
            N_(
                "The game ends after the hand in which someone reaches %(target)s points; "
                "the lowest "
                "total wins."
            ),
            {"target": o.target_score},
        )
    )
    if o.tie_rule is TieRule.PLAY_ON:
        out.append(Sentence(N_("If the lowest total is shared, another hand is played.")))
    else:
        out.append(Sentence(N_("If the lowest total is shared, those players share the win.")))
    return out


def _deal(o: RuleOptions) -> Sentence:
    each = hand_size(o)
    if o.is_cancellation:
        left = kitty_size(o)
        if not left:
            return Sentence(
                N_("%(n)s players share two 52-card decks shuffled together, %(each)s cards each."),
                {"n": o.num_players, "each": each},
            )
        to_first = o.cancel_leftover_to is LeftoverTo.FIRST_TRICK_WINNER
        return Sentence(
            N_(
                "%(n)s players share two 52-card decks shuffled together, %(each)s cards each; "
                "the %(left)s cards left over lie face down and go with the first trick's cards."
            )
            if to_first
            else N_(
                "%(n)s players share two 52-card decks shuffled together, %(each)s cards "
                "each; the %(left)s cards left over lie face down and go with the last "
                "trick's cards."
            ),
            {"n": o.num_players, "each": each, "left": left},
        )
    removed = REMOVED_CARDS[o.num_players]
    if not removed:
        return Sentence(
            N_("%(n)s players get %(each)s cards each from a standard 52-card deck."),
            {"n": o.num_players, "each": each},
        )
    return Sentence(
        N_("%(n)s players get %(each)s cards each from a 52-card deck without %(removed)s."),
        {"n": o.num_players, "each": each, "removed": ", ".join(c.label for c in removed)},
    )


def _passing(o: RuleOptions) -> Sentence:
    if o.pass_cycle is PassCycle.NONE:
        return Sentence(N_("There is no passing."))
    return Sentence(
        N_(
            "Before each hand everyone passes three cards: %(cycle)s; then again from the start. "
            "Everyone chooses before seeing the cards they receive."
        ),
        {"cycle": CYCLES[o.pass_cycle]},
    )


def _first_lead(o: RuleOptions) -> Sentence:
    if o.first_lead is FirstLead.LEFT_OF_DEALER:
        return Sentence(
            N_(
                "The player to the dealer's left leads the first trick with any card but a "
                "heart or the queen of spades (unless that is all they hold); the deal moves "
                "one seat to the "
                "left each hand."
            )
        )
    low = lowest_club(o).label
    if o.first_lead is FirstLead.ANY_CLUB:
        return Sentence(
            N_("Whoever holds the %(card)s leads the first trick, with any club."), {"card": low}
        )
    return Sentence(N_("Whoever holds the %(card)s leads it to the first trick."), {"card": low})


def _cancellation(o: RuleOptions) -> list[Sentence]:
    out = [
        Sentence(
            N_(
                "Two identical cards played to the same trick cancel each other: neither can win "
                "it, but both keep their points."
            )
        ),
        Sentence(
            N_(
                "If no uncancelled card of the suit led is left, nobody wins the trick: its cards "
                "wait on the table for the next player who wins a trick, and the same player leads "
                "again."
            )
        ),
    ]
    out.append(Sentence(N_("Shooting the moon needs all 26 hearts and both queens of spades.")))
    if o.cancel_last_trick_no_winner is LastTrickNoWinner.NOBODY:
        out.append(Sentence(N_("If the last trick has no winner, nobody takes those cards.")))
    else:
        out.append(Sentence(N_("If the last trick has no winner, its leader takes those cards.")))
    return out


def _hearts(o: RuleOptions) -> list[Sentence]:
    out = []
    if o.must_break_hearts:
        if o.hearts_broken_by is HeartsBrokenBy.DISCARD_ONLY:
            what = (
                N_("a heart or the queen of spades has been discarded on another suit")
                if o.qs_breaks_hearts
                else N_("a heart has been discarded on another suit")
            )
        else:
            what = (
                N_("a heart or the queen of spades has been played")
                if o.qs_breaks_hearts
                else N_("a heart has been played")
            )
        out.append(
            Sentence(
                N_(
                    "Hearts may not be led until %(what)s, unless the leader holds nothing but "
                    "hearts."
                ),
                {"what": what},
            )
        )
    else:
        out.append(Sentence(N_("Hearts may be led at any time after the first trick.")))
    if o.qs_lead_requires_broken:
        out.append(Sentence(N_("The queen of spades may not be led before hearts are broken.")))
    else:
        out.append(Sentence(N_("The queen of spades may be led at any time.")))
    if o.must_break_hearts:
        if o.lead_hearts_if_only_qs_and_hearts:
            out.append(
                Sentence(
                    N_("A leader holding only hearts and the queen of spades may lead any of them.")
                )
            )
        else:
            out.append(
                Sentence(
                    N_("A leader holding only hearts and the queen of spades must lead the queen.")
                )
            )
    return out
