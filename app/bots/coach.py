"""The coach: the Hard player's choice from the human seat's own view, with a one-line reason and
what the best choices are expected to cost (issue: hint with a reason).

`advise(view, rng)` asks Hard exactly what it would do in that seat (`hard.appraise` for a card,
`hard.rank_passes` for a pass: the same search with the same seeded generator, so the advice is
the card Hard would play) and explains it with the first reason of a short list that fits the
table: a moon to stop or to go for, the queen to dump or to duck under, a lead that smokes the
queen out, a suit to empty. Like every computer player it sees one `PlayerView` and nothing
else (BOT-01), so a hint cannot leak a hidden card.

`assess(view, chosen, rng)` weighs a decision already made, for the review of a hand: the
difference between the mean results of Hard's best choice and of the one made, over the same
imagined layouts (for a pass, over the same imagined deals, the pass made among the candidates).

A reason is data (a key and the cards, seat, suit and points it names); the web layer words it
in the player's language.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from app.bots import hard
from app.bots.knowledge import know
from app.bots.tactics import (
    is_dangerous_spade,
    is_last,
    led_suit,
    suit_cards,
    trick_value,
    wins_now,
)
from app.engine import (
    QUEEN_OF_SPADES,
    Card,
    Phase,
    PlayerView,
    Suit,
    is_penalty_card,
    trick_winner,
)
from app.engine.endgame import moon_watch, penalty_taken

TOP_CHOICES = 3
"""Choices shown with their expected points (the advice first)."""
LOW_RANK = 7
"""A lead of this rank or lower is a low card, unlikely to win the trick."""
HIGH_LEAD = 11
"""A card of this rank or higher (a jack) is a high card: led, it aims to win the trick."""
FEW_GUARDS = 3
"""Spades beside the queen that no longer guard it well (fewer than this many more)."""


REASON_KEYS = frozenset(
    {
        "only", "stop_moon", "shoot_moon", "dump", "discard", "duck_queen", "duck", "take_safe",
        "take_forced", "smoke_queen", "lead_short", "lead_low", "best", "pass_queen",
        "pass_queen_guarded", "pass_high_spades", "pass_void", "pass_hearts", "pass_high",
        "pass_best",
    }
)  # fmt: skip
"""Every reason the coach gives (the web layer words each one)."""


@dataclass(frozen=True, slots=True)
class Reason:
    """Why: a key the web layer words, and what the sentence names."""

    key: str
    cards: tuple[Card, ...] = ()
    seat: int | None = None
    suit: Suit | None = None
    points: int = 0


@dataclass(frozen=True, slots=True)
class Choice:
    """A card (or the cards of a pass) and its expected points at the end of the hand (None
    where Hard chooses without imagining the play)."""

    cards: tuple[Card, ...]
    points: float | None


@dataclass(frozen=True, slots=True)
class Advice:
    """The advice (the first choice), the best choices with their expected points, and why."""

    choices: tuple[Choice, ...]
    reason: Reason

    @property
    def cards(self) -> tuple[Card, ...]:
        """The advised card, or the advised pass."""
        return self.choices[0].cards


def advise(
    view: PlayerView, rng: random.Random, budget: hard.Budget = hard.DEFAULT_BUDGET
) -> Advice:
    """What Hard would pass or play from `view`, and why (`ValueError` when the view's seat has
    neither to do)."""
    if view.seat not in view.to_act:
        raise ValueError("the seat has nothing to decide")
    if view.phase is Phase.PASS:
        ranked = hard.rank_passes(view, rng, budget)
        choices = tuple(
            Choice(tuple(sorted(cards)), None if e is None else e.points)
            for cards, e in ranked[:TOP_CHOICES]
        )
        return Advice(choices, pass_reason(view, choices[0].cards))
    if view.phase is not Phase.PLAY:
        raise ValueError(f"nothing to advise in phase {view.phase}")
    if len(view.legal) == 1:
        return Advice((Choice(view.legal, None),), Reason("only", view.legal))
    estimates = hard.appraise(view, rng, budget)
    best = max(estimates.values(), key=lambda e: e.value).value
    first = next(c for c in view.legal if estimates[c].value == best)  # as `hard.choose_play`
    others = sorted(
        (c for c in view.legal if c != first), key=lambda c: (-estimates[c].value, c.index)
    )
    choices = tuple(Choice((c,), estimates[c].points) for c in [first, *others][:TOP_CHOICES])
    return Advice(choices, play_reason(view, first))


def play_reason(view: PlayerView, c: Card) -> Reason:
    """Why `c` is a good card to play from `view`: the first reason that fits."""
    led = led_suit(view)
    watched = moon_watch(view)
    if watched is not None and (led is None or wins_now(view, c)):
        # Winning a trick (or the lead) is what stops a moon, or what shoots it.
        points = penalty_taken(view)[watched]
        if watched != view.seat:
            return Reason("stop_moon", (c,), seat=watched, points=points)
        if led is not None or c.rank >= HIGH_LEAD:
            return Reason("shoot_moon", (c,), points=points)
    if led is None:
        return _lead_reason(view, c)
    if c.suit is not led:
        key = "dump" if is_penalty_card(c) or is_dangerous_spade(c) else "discard"
        return Reason(key, (c,), suit=led)
    winner = trick_winner((*view.current, (view.seat, c)))
    top = _winning_card(view)
    if top is None:  # every card so far cancelled (R36.4)
        return Reason("best", (c,))
    if winner != view.seat:
        if led is Suit.SPADES and _queen_out(view) and top.rank > QUEEN_OF_SPADES.rank:
            return Reason("duck_queen", (c, top))
        return Reason("duck", (c, top))
    if is_last(view) and trick_value(view) == 0:
        return Reason("take_safe", (c,))
    if all(x.rank > top.rank for x in view.legal):
        return Reason("take_forced", (c, top))
    return Reason("best", (c,))


def _lead_reason(view: PlayerView, c: Card) -> Reason:
    if c.suit is Suit.SPADES and c.rank < QUEEN_OF_SPADES.rank and _queen_out(view):
        return Reason("smoke_queen", (c,))
    held = suit_cards(view.hand, c.suit)
    if len(held) <= 2 and c.suit is not Suit.HEARTS:
        return Reason("lead_short", (c,), suit=c.suit)
    if c.rank <= LOW_RANK:
        return Reason("lead_low", (c,))
    return Reason("best", (c,))


def pass_reason(view: PlayerView, cards: tuple[Card, ...]) -> Reason:
    """Why passing `cards` from `view`'s hand is good: the first reason that fits."""
    hand = view.hand
    spades = [x for x in hand if x.suit is Suit.SPADES]
    passed = Counter(cards)
    if QUEEN_OF_SPADES in passed:
        guards = len([x for x in spades if x not in passed and x != QUEEN_OF_SPADES])
        key = "pass_queen" if guards < FEW_GUARDS else "pass_queen_guarded"
        return Reason(key, (QUEEN_OF_SPADES,))
    high_spades = tuple(x for x in cards if is_dangerous_spade(x))
    if high_spades and QUEEN_OF_SPADES not in hand:
        return Reason("pass_high_spades", high_spades)
    for suit in (Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES):
        held = Counter(x for x in hand if x.suit is suit)
        if held and all(passed[x] >= n for x, n in held.items()):
            return Reason("pass_void", tuple(held.elements()), suit=suit)
    hearts = tuple(x for x in cards if x.suit is Suit.HEARTS and x.rank >= 10)
    if hearts:
        return Reason("pass_hearts", hearts)
    if all(x.rank >= HIGH_LEAD for x in cards):
        return Reason("pass_high", cards)
    return Reason("pass_best", cards)


def _winning_card(view: PlayerView) -> Card | None:
    """The card winning the current trick so far (None when every card so far is cancelled)."""
    seat = trick_winner(view.current)
    return next((c for s, c in view.current if s == seat), None)


def _queen_out(view: PlayerView) -> bool:
    """Whether a queen of spades may still be in another seat's hand."""
    return know(view).queens_out > 0 and QUEEN_OF_SPADES not in view.hand


# --- the review of a hand ---------------------------------------------------------------------

COSTLY = 0.5
"""A decision that costs at least this many points (Hard's estimate) is marked in a review."""


@dataclass(frozen=True, slots=True)
class Assessment:
    """One decision of a finished hand as Hard sees it from the same view: the choice made, the
    best one, what the choice cost against it (None where Hard does not weigh passes: the pass
    of a table where it passes as the careful player does), and why the best one is best."""

    chosen: tuple[Card, ...]
    best: tuple[Card, ...]
    cost: float | None
    reason: Reason

    @property
    def costly(self) -> bool:
        """Whether the choice cost at least `COSTLY` points (to the tenth of a point shown)."""
        return self.cost is not None and round(self.cost, 1) >= COSTLY


def assess(
    view: PlayerView,
    chosen: tuple[Card, ...],
    rng: random.Random,
    budget: hard.Budget = hard.DEFAULT_BUDGET,
) -> Assessment:
    """What `chosen` (the seat's pass, or its card) cost against Hard's best choice from `view`:
    the difference of their mean results over the same imagined layouts (never below 0)."""
    if view.phase is Phase.PASS:
        return _assess_pass(view, tuple(sorted(chosen)), rng, budget)
    card = chosen[0]
    if len(view.legal) == 1:
        return Assessment(chosen, chosen, 0.0, Reason("only", chosen))
    estimates = hard.appraise(view, rng, budget)
    top = max(e.value for e in estimates.values())
    best = next(c for c in view.legal if estimates[c].value == top)
    cost = max(0.0, top - estimates[card].value)
    return Assessment(chosen, (best,), cost, play_reason(view, best))


def _assess_pass(
    view: PlayerView, chosen: tuple[Card, ...], rng: random.Random, budget: hard.Budget
) -> Assessment:
    candidates = [tuple(sorted(c)) for c in hard.pass_candidates(view, rng, budget.pass_pool)]
    if not hard.searches_pass(view, budget):
        best = candidates[0]
        return Assessment(chosen, best, None, pass_reason(view, best))
    if chosen not in candidates:
        candidates.append(chosen)
    worlds = budget.pass_worlds + budget.pass_final_worlds
    values = hard.evaluate_passes(view, candidates, rng, worlds, budget)[0].tolist()
    top = max(values)
    best = candidates[values.index(top)]
    cost = max(0.0, top - values[candidates.index(chosen)])
    return Assessment(chosen, best, cost, pass_reason(view, best))


def assess_all(
    decisions: list[tuple[PlayerView, tuple[Card, ...], random.Random]],
) -> list[Assessment]:
    """`assess` for each decision of a hand, in order (one task for a worker process)."""
    return [assess(view, chosen, rng) for view, chosen, rng in decisions]
