"""The coach on the page: the hint box (the sentence of its reason as a message id with the names
it needs, the advised cards, and the best choices with their expected points) and the review of
a hand (each decision, what it cost, and why the best choice is best where it cost much)."""

from __future__ import annotations

from dataclasses import dataclass

from babel.numbers import format_decimal

from app.bots.coach import Advice, Reason
from app.engine import Card, Phase, PlayerView
from app.services.review import HandReview
from app.web import i18n
from app.web.i18n import N_
from app.web.table import seat_name

REASONS = {
    "only": N_("It is your only legal card."),
    "stop_moon": N_("Stop the moon: %(seat)s has all %(points)s points so far."),
    "shoot_moon": N_("Go for the moon: you have all %(points)s points so far."),
    "dump": N_("Void in %(suit)s: dump the %(card)s now."),
    "discard": N_("Void in %(suit)s: throw away the %(card)s."),
    "duck_queen": N_("Duck under the %(other)s: the Q♠ is still out."),
    "duck": N_("Duck under the %(other)s: let it take the trick."),
    "take_safe": N_("You play last and the trick has no points: take it with the %(card)s."),
    "take_forced": N_("You cannot duck under the %(other)s: play the %(card)s."),
    "smoke_queen": N_("Lead low spades to smoke out the queen."),
    "lead_short": N_("Lead the %(card)s to empty your %(suit)s."),
    "lead_low": N_("Lead the %(card)s: a low card that should not win the trick."),
    "best": N_("The %(card)s loses the fewest points in the deals Hard imagines."),
    "pass_queen": N_("Pass the Q♠: with few spades to guard it, it would catch you."),
    "pass_queen_guarded": N_(
        "Pass the Q♠: 13 points you no longer have to keep from winning a trick."
    ),
    "pass_high_spades": N_("Pass %(cards)s: high spades catch the Q♠."),
    "pass_void": N_("Pass all your %(suit)s: a void lets you throw away points."),
    "pass_hearts": N_("Pass %(cards)s: high hearts win tricks full of points."),
    "pass_high": N_("Pass %(cards)s: the cards most likely to win tricks with points."),
    "pass_best": N_("Pass %(cards)s: of the passes Hard tried, it leaves you the fewest points."),
}
"""The sentence of each reason (`app.bots.coach`), with the names it may use."""


@dataclass(frozen=True, slots=True)
class ReasonView:
    """A reason's sentence: its message id and the names it may use."""

    message: str
    card: str
    other: str
    cards: str
    suit: str
    seat: str | None
    """The seat's name as a message id (translated where shown)."""
    points: int


def reason_view(reason: Reason, num_players: int) -> ReasonView:
    """The sentence of `reason` at a table of `num_players`."""
    labels = [c.label for c in reason.cards]
    return ReasonView(
        message=REASONS[reason.key],
        card=labels[0] if labels else "",
        other=labels[1] if len(labels) > 1 else "",
        cards=" ".join(labels),
        suit=reason.suit.symbol if reason.suit is not None else "",
        seat=None if reason.seat is None else seat_name(reason.seat, num_players),
        points=reason.points,
    )


@dataclass(frozen=True, slots=True)
class ChoiceView:
    """One of the best choices: its cards as text and its expected points ("" if not known)."""

    label: str
    points: str


@dataclass(frozen=True, slots=True)
class HintView:
    """The hint box's content."""

    passing: bool
    """Advice for a pass (else for a card)."""
    reason: ReasonView
    codes: tuple[str, ...]
    """The advised card (or the three of the pass), as card codes: the page raises them."""
    choices: tuple[ChoiceView, ...]

    @property
    def label(self) -> str:
        """The advised cards as text."""
        return self.choices[0].label


def hint_view(advice: Advice, view: PlayerView) -> HintView:
    """The hint box of `advice`, given from `view`."""
    return HintView(
        passing=view.phase is Phase.PASS,
        reason=reason_view(advice.reason, view.num_players),
        codes=tuple(c.code for c in advice.cards),
        choices=tuple(
            ChoiceView(labels(choice.cards), points(choice.points)) for choice in advice.choices
        ),
    )


@dataclass(frozen=True, slots=True)
class DecisionView:
    """One row of a hand's review."""

    trick: int | None
    """The trick of a card (None: the pass)."""
    chosen: str
    best: str
    cost: str
    """Hard's estimate of what the choice cost, "" where it does not weigh it."""
    costly: bool
    reason: ReasonView | None
    """Why the best choice is best (for a costly decision only)."""


@dataclass(frozen=True, slots=True)
class ReviewView:
    """A hand's review as its page shows it."""

    game_id: int
    number: int
    decisions: tuple[DecisionView, ...]
    given_away: str
    costly: int


def review_view(review: HandReview) -> ReviewView:
    """The page of a hand's review."""
    n = review.num_players
    rows = []
    for d in review.decisions:
        a = d.assessment
        rows.append(
            DecisionView(
                trick=d.trick,
                chosen=labels(a.chosen),
                best=labels(a.best),
                cost=points(a.cost),
                costly=a.costly,
                reason=reason_view(a.reason, n) if a.costly else None,
            )
        )
    return ReviewView(
        review.game_id, review.number, tuple(rows), points(review.given_away), review.costly
    )


def labels(cards: tuple[Card, ...]) -> str:
    """Cards as people read them ("Q♠ 10♥")."""
    return " ".join(c.label for c in cards)


def points(value: float | None) -> str:
    """Points with one decimal in the reader's language ("" for none)."""
    if value is None:
        return ""
    return format_decimal(round(value, 1), format="0.0", locale=i18n.current())
