"""What a seat can infer from its view alone: unseen cards, shown voids, cards known to sit in a
hand, and the points taken so far (BOT-01, seed 004's "tracks every card and every void").

Everything here is a function of the `PlayerView`; nothing reads hidden cards.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from app.engine import (
    QUEEN_OF_SPADES,
    Card,
    FirstLead,
    Phase,
    PlayerView,
    Suit,
    breaks_hearts,
    deck_for,
    is_penalty_card,
    lowest_club,
    points_of,
)

NON_HEART_SUITS = (Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES)


@dataclass(frozen=True, slots=True)
class Knowledge:
    """Facts one seat can derive from its view."""

    view: PlayerView
    unseen: Counter[Card]
    """Cards this seat has not seen: in other hands, other seats' committed passes or the kitty."""
    voids: tuple[frozenset[Suit], ...]
    """Suits each seat has shown it no longer holds."""
    forbidden: tuple[frozenset[Card], ...]
    """Single cards a seat cannot hold although its suit is open (`QS` after R7/R8 inferences)."""
    known: tuple[Counter[Card], ...]
    """Cards known to be in each seat's hand (cards this seat passed there, the opening club)."""
    taken: tuple[tuple[Card, ...], ...]
    """Played cards each seat has collected this hand (the kitty only if this seat holds it)."""
    points_taken: tuple[int, ...]
    penalty_taken: tuple[int, ...]
    """Hearts and queens of spades each seat has collected (public part)."""
    played_by: tuple[tuple[Card, ...], ...]

    @property
    def seat(self) -> int:
        """The seat this knowledge belongs to."""
        return self.view.seat

    def is_void(self, seat: int, suit: Suit) -> bool:
        """Whether `seat` has shown it holds no `suit`."""
        return suit in self.voids[seat]

    def unseen_above(self, c: Card) -> int:
        """How many unseen cards of the same suit rank above `c`."""
        return sum(k for u, k in self.unseen.items() if u.suit is c.suit and u.rank > c.rank)

    def unseen_below(self, c: Card) -> int:
        """How many unseen cards of the same suit rank below `c`."""
        return sum(k for u, k in self.unseen.items() if u.suit is c.suit and u.rank < c.rank)

    @property
    def queens_out(self) -> int:
        """Queens of spades not yet played and not in this seat's hand."""
        return self.unseen[QUEEN_OF_SPADES]

    def moon_threat(self) -> int | None:
        """The seat that alone has taken every penalty card collected so far (3 or more)."""
        holders = [s for s, k in enumerate(self.penalty_taken) if k]
        if len(holders) == 1 and self.penalty_taken[holders[0]] >= 3:
            return holders[0]
        return None


def know(view: PlayerView) -> Knowledge:
    """Derive the seat's knowledge from its view."""
    n = view.num_players
    me = view.seat
    options = view.options
    played_by: list[list[Card]] = [[] for _ in range(n)]
    taken: list[list[Card]] = [[] for _ in range(n)]
    voids: list[set[Suit]] = [set() for _ in range(n)]
    forbidden: list[set[Card]] = [set() for _ in range(n)]
    broken = not options.must_break_hearts
    tricks = [(t.number, t.plays, t.collector, t.pot_taken) for t in view.tricks]
    if view.current:
        tricks.append((len(view.tricks) + 1, view.current, None, ()))
    for number, plays, collector, pot_taken in tricks:
        led = plays[0][1].suit
        for i, (seat, c) in enumerate(plays):
            played_by[seat].append(c)
            is_discard = i > 0 and c.suit is not led
            if is_discard:
                voids[seat].add(led)  # showed out
                if number == 1 and options.no_points_first_trick and is_penalty_card(c):
                    _only_penalty_cards(view, seat, voids, forbidden)  # R7.1, R7.2
            if i == 0:
                _lead_inference(view, number, seat, c, broken, voids, forbidden)
            if breaks_hearts(options, c, is_discard):
                broken = True
        if collector is not None:
            taken[collector].extend(c for _, c in plays)
            taken[collector].extend(pot_taken)
    if view.kitty is not None and view.kitty_collector is not None:
        taken[view.kitty_collector].extend(view.kitty)

    unseen = Counter(deck_for(options))
    unseen.subtract(view.hand)
    for cards in played_by:
        unseen.subtract(cards)
    if view.kitty is not None:
        unseen.subtract(view.kitty)
    if view.phase is Phase.PASS and view.passed:
        unseen.subtract(view.passed)  # committed, not yet received by the target
    unseen = +unseen

    known: list[Counter[Card]] = [Counter() for _ in range(n)]
    if view.passed and view.pass_target is not None and view.received is not None:
        still_there = Counter(view.passed)
        still_there.subtract(played_by[view.pass_target])
        known[view.pass_target] = +still_there
    if _opening_club_pending(view):
        leader = view.leader
        assert leader is not None
        low = lowest_club(options)
        known[leader][low] = max(known[leader][low], 1)  # already known if this seat passed it
    voids[me] = {s for s in Suit if not any(c.suit is s for c in view.hand)}

    penalty = tuple(sum(1 for c in t if is_penalty_card(c)) for t in taken)
    return Knowledge(
        view=view,
        unseen=unseen,
        voids=tuple(frozenset(v) for v in voids),
        forbidden=tuple(frozenset(f) for f in forbidden),
        known=tuple(known),
        taken=tuple(tuple(t) for t in taken),
        points_taken=tuple(points_of(options, t) for t in taken),
        penalty_taken=penalty,
        played_by=tuple(tuple(p) for p in played_by),
    )


def _opening_club_pending(view: PlayerView) -> bool:
    """Whether trick 1 is still to be led with the lowest club by a known seat (R5.1)."""
    return (
        view.phase is Phase.PLAY
        and not view.tricks
        and not view.current
        and view.leader is not None
        and view.leader != view.seat
        and view.options.first_lead is not FirstLead.LEFT_OF_DEALER
    )


def _only_penalty_cards(
    view: PlayerView, seat: int, voids: list[set[Suit]], forbidden: list[set[Card]]
) -> None:
    """Record that `seat` held nothing but hearts and `QS` at that moment."""
    voids[seat].update((Suit.CLUBS, Suit.DIAMONDS))
    forbidden[seat].update(
        x for x in deck_for(view.options) if x.suit is Suit.SPADES and x is not QUEEN_OF_SPADES
    )


def _lead_inference(
    view: PlayerView,
    number: int,
    seat: int,
    c: Card,
    broken: bool,
    voids: list[set[Suit]],
    forbidden: list[set[Card]],
) -> None:
    """What a lead proves about the leader's hand (R5.4, R34.2, R8.4–R8.6)."""
    o = view.options
    if number == 1:
        if o.first_lead is FirstLead.LEFT_OF_DEALER and is_penalty_card(c):
            _only_penalty_cards(view, seat, voids, forbidden)
        return
    if c.suit is not Suit.HEARTS or broken:
        return
    if o.lead_hearts_if_only_qs_and_hearts or o.qs_lead_requires_broken:
        _only_penalty_cards(view, seat, voids, forbidden)  # QS may still have been held
    else:
        voids[seat].update(NON_HEART_SUITS)
