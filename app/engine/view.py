"""What one seat may know (BOT-01): `view_for(state, seat) -> PlayerView`.

A view holds the seat's own dealt and current hand, the cards it passed (and to whom) and, after
the exchange, the cards it received (and from whom); every trick played so far with who played
each card, who led and who collected it; the pot of winnerless tricks (its cards were played in
the open); the kitty's size, and its cards only for the seat that collected it; the running
totals, finished hands' results, options, hand number, dealer, pass direction, hearts broken, and
whose turn it is with the legal cards. It never holds another seat's cards, the cards passed
between other seats, or a reference to the full state; two states that differ only in cards this
seat cannot see give equal views.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from app.engine.cards import Card, Hand
from app.engine.game import to_act
from app.engine.options import RuleOptions
from app.engine.rules import legal_cards
from app.engine.state import GameState, HandResult, Phase, Plays, Trick
from app.engine.table import PassDirection, pass_source, pass_target


@dataclass(frozen=True, slots=True)
class PlayerView:
    """Everything `seat` is entitled to know, and nothing else."""

    options: RuleOptions
    seat: int
    phase: Phase
    to_act: tuple[int, ...]
    totals: tuple[int, ...]
    results: tuple[HandResult, ...]
    winners: tuple[int, ...]
    hand_number: int = 0
    dealer: int = 0
    direction: PassDirection = PassDirection.HOLD
    dealt: Hand = ()
    hand: Hand = ()
    passed: Hand | None = None
    """The cards this seat passed, once committed (empty in a hold hand)."""
    pass_target: int | None = None
    received: Hand | None = None
    """The cards this seat received, once every seat has passed."""
    received_from: int | None = None
    passes_committed: tuple[bool, ...] = ()
    hand_sizes: tuple[int, ...] = ()
    tricks: tuple[Trick, ...] = ()
    current: Plays = ()
    leader: int | None = None
    """The seat leading the current trick; None until the exchange is over."""
    hearts_broken: bool = False
    pot: Hand = ()
    kitty_size: int = 0
    kitty_collector: int | None = None
    kitty: Hand | None = None
    """The kitty's cards, only for the seat that collected them."""
    legal: Hand = ()
    """The cards this seat may play now (empty unless it is its turn to play)."""
    moon_shooter: int | None = None

    @property
    def num_players(self) -> int:
        """The number of seats."""
        return self.options.num_players

    @property
    def trick_number(self) -> int:
        """The number of the trick in progress (1-based)."""
        return len(self.tricks) + 1

    @property
    def played_cards(self) -> tuple[Card, ...]:
        """Every card played this hand so far, in order."""
        return tuple(c for t in self.tricks for _, c in t.plays) + tuple(c for _, c in self.current)


def view_for(state: GameState, seat: int) -> PlayerView:
    """The view of `seat`: own cards and public facts only (BOT-01)."""
    if not 0 <= seat < state.num_players:
        raise ValueError(f"there is no seat {seat} at a {state.num_players}-player table")
    base = PlayerView(
        options=state.options,
        seat=seat,
        phase=state.phase,
        to_act=to_act(state),
        totals=state.totals,
        results=state.results,
        winners=state.winners,
        moon_shooter=state.moon_shooter,
    )
    hand = state.hand
    if hand is None:
        return base
    n = state.num_players
    exchanged = hand.is_exchanged
    hold = hand.direction is PassDirection.HOLD
    own_pass = hand.passed[seat]
    playing = state.phase is Phase.PLAY and hand.to_play == seat
    legal = (
        legal_cards(
            state.options, hand.hands[seat], hand.current, hand.trick_number, hand.hearts_broken
        )
        if playing
        else ()
    )
    return replace(
        base,
        hand_number=hand.number,
        dealer=hand.dealer,
        direction=hand.direction,
        dealt=hand.dealt[seat],
        hand=hand.hands[seat],
        passed=own_pass,
        pass_target=None if hold or own_pass is None else pass_target(seat, hand.direction, n),
        received=hand.received[seat] if exchanged and not hold else None,
        received_from=pass_source(seat, hand.direction, n) if exchanged and not hold else None,
        passes_committed=tuple(p is not None for p in hand.passed),
        hand_sizes=tuple(len(h) for h in hand.hands),
        tricks=hand.tricks,
        current=hand.current,
        leader=hand.leader if exchanged else None,
        hearts_broken=hand.hearts_broken,
        pot=hand.pot,
        kitty_size=len(hand.kitty),
        kitty_collector=hand.kitty_collector,
        kitty=hand.kitty if hand.kitty_collector == seat else None,
        legal=legal,
    )
