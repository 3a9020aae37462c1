"""Why an action was refused, in words a player understands (message ids, by rule)."""

from __future__ import annotations

from app.services.games import Refusal
from app.web.i18n import N_

BY_RULE = {
    "R4.3": N_("Cards are played once everyone has passed."),
    "R4.5": N_("There is no passing in this hand."),
    "R4.7": N_("Pass exactly three cards from your hand."),
    "R5.1": N_("The first trick is led with the lowest club."),
    "R5.3": N_("The first trick is led with the lowest club."),
    "R5.2": N_("The first trick is led with a club."),
    "R5.4": N_("The first lead may not be a heart or the queen of spades."),
    "R34.2": N_("The first lead may not be a heart or the queen of spades."),
    "R6.1": N_("You must follow the suit led."),
    "R7.1": N_("No heart or queen of spades on the first trick while you hold another card."),
    "R8.4": N_("Hearts may not be led before they are broken."),
    "R8.5": N_("The queen of spades may not be led before hearts are broken."),
    "R8.6": N_("With only hearts and the queen of spades, lead the queen."),
    "R12.5": N_("Only the shooter chooses how the moon scores."),
    "R13.2": N_("The hand is not over yet."),
    "R14.2": N_("It is not your turn."),
}
STALE = N_("The table had moved on; here it is as it is now.")


def explain(refusal: Refusal) -> str:
    """The message id to show for a refused action."""
    return STALE if refusal.stale else for_rule(refusal.rule)


def for_rule(rule: str | None) -> str:
    """The message id that explains what `rule` forbids (a general one for other rules)."""
    return BY_RULE.get(rule or "", N_("That move is not allowed here."))
