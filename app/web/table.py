"""The table as the page shows it, built from the human seat's view only (never the full state).

Everything here is plain data for the templates: seats around the table, the hand sorted by
suit, the trick on the table, the trick history, the score sheet and what the player can do now.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.engine import (
    Card,
    HandResult,
    PassDirection,
    Phase,
    PlayerView,
    Suit,
    Trick,
    points_of,
)
from app.services.games import HUMAN, Table

SEAT_KEYS_4 = ("S", "W", "N", "E")
SEAT_NAMES_4 = ("You", "West", "North", "East")
SUIT_ORDER = (Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES, Suit.HEARTS)
"""The hand is sorted clubs, diamonds, spades, hearts: colours alternate."""
CARD_PAUSE_MS = 600
TRICK_PAUSE_MS = 1500
FAST_FACTOR = 3


@dataclass(frozen=True, slots=True)
class CardView:
    """One card as drawn on the page."""

    code: str
    rank: str
    suit: str
    symbol: str
    label: str
    red: bool
    legal: bool = False
    received: bool = False


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat around the table."""

    seat: int
    key: str
    name: str
    level: str
    hand_size: int
    points: int
    total: int
    to_act: bool
    is_human: bool


@dataclass(frozen=True, slots=True)
class PlayView:
    """A card on the table: who played it and whether it won the trick."""

    seat_key: str
    seat_name: str
    card: CardView
    winner: bool = False


@dataclass(frozen=True, slots=True)
class TrickRow:
    """One line of the trick history."""

    number: int
    leader: str
    plays: tuple[PlayView, ...]
    winner: str
    points: int


@dataclass(frozen=True, slots=True)
class ScoreRow:
    """One hand of the score sheet."""

    number: int
    direction: str
    points: tuple[int, ...]
    totals: tuple[int, ...]
    shooter: str | None


@dataclass(slots=True)
class TableView:
    """Everything the game page shows."""

    game_id: int
    version: int
    fast_play: bool
    level: str
    phase: str
    mode: str
    """pass, play, wait, hand_over or game_over."""
    seats: list[SeatView]
    hand: list[CardView]
    trick: list[PlayView]
    trick_finished: bool
    history: list[TrickRow]
    scores: list[ScoreRow]
    totals: tuple[int, ...]
    hand_number: int
    direction: str
    pass_target: str | None
    passed: list[CardView]
    advance: bool
    pause_ms: int
    status: str
    winners: list[str]
    tie_break: bool
    hearts_broken: bool
    last_hand: ScoreRow | None
    target: int
    messages: list[str] = field(default_factory=list)


def card_view(c: Card, *, legal: bool = False, received: bool = False) -> CardView:
    """A card for the templates."""
    rank = "10" if c.rank == 10 else c.code[0]
    return CardView(
        code=c.code,
        rank=rank,
        suit=c.suit.value,
        symbol=c.suit.symbol,
        label=c.label,
        red=c.suit in (Suit.HEARTS, Suit.DIAMONDS),
        legal=legal,
        received=received,
    )


def seat_key(seat: int, n: int) -> str:
    """The seat's short key (`S`, `W`, `N`, `E` at four seats)."""
    return SEAT_KEYS_4[seat] if n == 4 else chr(ord("A") + seat)


def seat_name(seat: int, n: int) -> str:
    """The seat's name for people."""
    return SEAT_NAMES_4[seat] if n == 4 else ("You" if seat == 0 else f"Player {seat + 1}")


def sort_hand(cards: tuple[Card, ...]) -> list[Card]:
    """Cards by suit (clubs, diamonds, spades, hearts), low to high within a suit."""
    return sorted(cards, key=lambda c: (SUIT_ORDER.index(c.suit), c.rank))


def hand_points_so_far(view: PlayerView) -> list[int]:
    """Points each seat has collected this hand, from the public tricks (and own kitty)."""
    n = view.num_players
    points = [0] * n
    for t in view.tricks:
        if t.collector is not None:
            points[t.collector] += points_of(view.options, (*t.cards, *t.pot_taken))
    if view.kitty is not None and view.kitty_collector is not None:
        points[view.kitty_collector] += points_of(view.options, view.kitty)
    return points


def build(table: Table, messages: list[str] | None = None) -> TableView:
    """The page's table for the human seat."""
    view = table.view
    n = view.num_players
    phase = view.phase
    mode = _mode(table)
    points = hand_points_so_far(view)
    seats = [
        SeatView(
            seat=s,
            key=seat_key(s, n),
            name=seat_name(s, n),
            level=table.seats[s],
            hand_size=view.hand_sizes[s] if view.hand_sizes else 0,
            points=points[s],
            total=view.totals[s],
            to_act=s in view.to_act,
            is_human=table.seats[s] == HUMAN,
        )
        for s in range(n)
    ]
    legal = set(view.legal) if mode == "play" else set()
    show_received = not view.tricks and view.received is not None
    received = list(view.received or ()) if show_received else []
    hand: list[CardView] = []
    for c in sort_hand(view.hand):
        is_received = c in received
        if is_received:
            received.remove(c)
        hand.append(card_view(c, legal=c in legal, received=is_received))
    trick, finished = _trick_on_table(view)
    history = [_trick_row(view, t) for t in view.tricks]
    scores = [_score_row(view, r) for r in view.results]
    hand_over = phase in (Phase.DEAL, Phase.GAME_OVER) and bool(view.results)
    pause = TRICK_PAUSE_MS if finished else CARD_PAUSE_MS
    if table.fast_play:
        pause //= FAST_FACTOR
    target = view.pass_target
    return TableView(
        game_id=table.game_id,
        version=table.version,
        fast_play=table.fast_play,
        level=table.level,
        phase=phase.value,
        mode=mode,
        seats=seats,
        hand=hand,
        trick=trick,
        trick_finished=finished,
        history=history,
        scores=scores,
        totals=view.totals,
        hand_number=view.hand_number,
        direction=view.direction.value,
        pass_target=seat_name(target, n) if target is not None else None,
        passed=[card_view(c) for c in view.passed or ()],
        advance=table.computer_to_act,
        pause_ms=pause,
        status=table.status,
        winners=[seat_name(s, n) for s in view.winners],
        tie_break=phase is Phase.DEAL and bool(view.results) and _tied_above_target(view),
        hearts_broken=view.hearts_broken,
        last_hand=scores[-1] if hand_over and scores else None,
        target=view.options.target_score,
        messages=list(messages or []),
    )


def _mode(table: Table) -> str:
    view = table.view
    if view.phase is Phase.GAME_OVER:
        return "game_over"
    if view.phase is Phase.DEAL:
        return "hand_over"
    if view.seat in view.to_act:
        return "pass" if view.phase is Phase.PASS else "play"
    return "wait"


def _trick_on_table(view: PlayerView) -> tuple[list[PlayView], bool]:
    """The trick in progress, or the trick just finished (shown a moment, winner marked)."""
    n = view.num_players
    if view.current:
        return [
            PlayView(seat_key(s, n), seat_name(s, n), card_view(c)) for s, c in view.current
        ], False
    if not view.tricks:
        return [], False
    last: Trick = view.tricks[-1]
    return [
        PlayView(seat_key(s, n), seat_name(s, n), card_view(c), winner=s == last.winner)
        for s, c in last.plays
    ], True


def _trick_row(view: PlayerView, t: Trick) -> TrickRow:
    n = view.num_players
    return TrickRow(
        number=t.number,
        leader=seat_name(t.leader, n),
        plays=tuple(
            PlayView(seat_key(s, n), seat_name(s, n), card_view(c), winner=s == t.winner)
            for s, c in t.plays
        ),
        winner=seat_name(t.collector, n) if t.collector is not None else "—",
        points=points_of(view.options, (*t.cards, *t.pot_taken)),
    )


def _score_row(view: PlayerView, r: HandResult) -> ScoreRow:
    n = view.num_players
    return ScoreRow(
        number=r.number,
        direction=r.direction.value if r.direction is not PassDirection.HOLD else "hold",
        points=r.points,
        totals=r.totals,
        shooter=seat_name(r.shooter, n) if r.shooter is not None else None,
    )


def _tied_above_target(view: PlayerView) -> bool:
    """Someone reached the target but the lowest total is shared: another hand (UI-20)."""
    totals = view.totals
    low = min(totals)
    reached = max(totals) >= view.options.target_score
    return reached and sum(1 for t in totals if t == low) > 1 and not view.winners
