"""The table as the page shows it, built from the human seat's view only (never the full state).

Everything here is plain data for the templates: seats around the table, the hand sorted by
suit, the trick on the table (with Cancellation's cancelled pairs, pot and kitty), the trick
history, the score sheet, the table's rules and what the player can do now. Names and messages
are message ids: the templates translate them.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from app.engine import (
    QUEEN_OF_SPADES,
    Card,
    HandResult,
    MoonScoring,
    PassDirection,
    Phase,
    PlayerView,
    Suit,
    Trick,
    illegal_play_rule,
    moon_points,
    pass_target,
    points_of,
    seat_names,
    trick_points,
)
from app.engine.endgame import moon_watch
from app.services.fairplay import TableSeal
from app.services.games import HUMAN, Table
from app.services.history import TrickLine
from app.web import messages
from app.web.i18n import N_
from app.web.options_form import FIELDS

COMPASS = {
    3: (N_("You"), N_("West"), N_("East")),
    4: (N_("You"), N_("West"), N_("North"), N_("East")),
}
NAMES = (
    N_("Ada"), N_("Boris"), N_("Clara"), N_("Dmitri"), N_("Elena"),
    N_("Filip"), N_("Greta"), N_("Hugo"), N_("Ivana"), N_("Jonas"),
)  # fmt: skip
"""Names of the computer players at tables of five or more (Q-02)."""
CARD_PAUSE_MS = 600
TRICK_PAUSE_MS = 1500
FAST_FACTOR = 3


@dataclass(frozen=True, slots=True)
class CardView:
    """One card as drawn on the page (`partials/cards.html`), on the table or a record."""

    code: str
    rank: str
    suit: str
    symbol: str
    label: str
    red: bool
    legal: bool = False
    received: bool = False
    why: str | None = None
    """Why the card may not be played now (a message id, with its rule in `rule`)."""
    rule: str | None = None


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
    dealer: bool
    queens: int = 0
    """Queens of spades this seat has taken this hand (public: they came with its tricks)."""
    receives: bool = False
    """This seat receives the human's pass (shown while the human chooses the cards)."""
    moon: bool = False
    """On the public record this seat could still take every point of the hand (moon watch)."""


@dataclass(frozen=True, slots=True)
class PlayView:
    """A card on the table: who played it, whether it won, whether its twin cancelled it."""

    seat: int
    seat_key: str
    seat_name: str
    card: CardView
    winner: bool = False
    cancelled: bool = False


@dataclass(frozen=True, slots=True)
class TrickRow:
    """One line of the trick history."""

    number: int
    leader: str
    plays: tuple[PlayView, ...]
    winner: str | None
    points: int
    pot_cards: int
    kitty: bool


@dataclass(frozen=True, slots=True)
class ScoreRow:
    """One hand of the score sheet."""

    number: int
    direction: str
    points: tuple[int, ...]
    totals: tuple[int, ...]
    shooter: str | None


@dataclass(frozen=True, slots=True)
class MoonOption:
    """One of the shooter's two choices and the totals it leads to (Q-07)."""

    scoring: str
    label: str
    value: int
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RuleLine:
    """One rule option of the table, for the rules panel."""

    label: str
    value: str


@dataclass(frozen=True, slots=True)
class FrameView:
    """What a step of the play shows: the seats' counts, points and turn, the trick and the
    notes on the table, and the prompt; a move's answer plays such steps one after another,
    each for `pause_ms` (the final table is one too)."""

    mode: str
    """pass, play, wait, passed (the others are still passing), moon, hand_over or game_over."""
    seats: list[SeatView]
    trick: list[PlayView]
    trick_finished: bool
    trick_no_winner: bool
    last_trick: TrickRow | None
    """The last trick played this hand, if any."""
    direction: str
    pass_target: str | None
    hearts_broken: bool
    pause_ms: int
    pot_cards: int
    pot_points: int
    kitty_size: int
    kitty_holder: str | None
    trick_state: str
    """The trick on the table as JSON for the page, which moves the cards from one state to the
    next: `[hand, trick, clears, [[seat, card, flags], …]]` (flags: 1 the winner, 2 cancelled;
    `clears`: the trick is done and goes to its winner after the pause)."""

    @property
    def seat_states(self) -> str:
        """Each seat's key, cards in hand, points this hand, turn, queens of spades taken and
        moon watch, as JSON for the page."""
        states = [
            [s.key, s.hand_size, s.points, int(s.to_act), s.queens, int(s.moon)] for s in self.seats
        ]
        return json.dumps(states, separators=(",", ":"))


@dataclass(frozen=True, slots=True)
class TableView(FrameView):
    """Everything the game page shows."""

    game_id: int
    version: int
    fast_play: bool
    level: str
    preset: str
    num_players: int
    phase: str
    hand: list[CardView]
    history: list[TrickRow]
    scores: list[ScoreRow]
    totals: tuple[int, ...]
    hand_number: int
    advance: bool
    status: str
    winners: list[str]
    place: int | None
    """The human's place once the game is over (1 for the lowest total; ties share a place)."""
    tie_break: bool
    last_hand: ScoreRow | None
    target: int
    kitty_cards: list[CardView]
    received_from: str | None
    """Who passed the received cards (shown until the first trick is done), if any."""
    received_cards: list[CardView]
    moon_options: list[MoonOption]
    rules: list[RuleLine]
    messages: list[str] = field(default_factory=list)
    finished_tricks: int = 0
    """Tricks just played out at once because nothing was left to score (said once)."""
    seal: TableSeal | None = None
    """The deals' commitments (docs/fair-play.md); None for a game dealt before them."""
    assisted: bool = False
    """Whether the player asked for a hint in this game."""
    replayed: bool = False
    """Whether the game was dealt from another game's secret (its deals were known)."""
    deal_code: str | None = None
    """Once the game has ended, the code that lets another browser play its deals."""


def card_view(c: Card, *, legal: bool = False, received: bool = False) -> CardView:
    """A card for the templates (one value per card and flags, made once: a table shows dozens)."""
    return _card_view(c, legal, received)


@cache
def _card_view(c: Card, legal: bool, received: bool) -> CardView:
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
    """The seat's short key, as in `data-seat`: S W N E at four seats, S W E at three, else
    letters A, B, … (the engine's seat names)."""
    return seat_names(n)[seat]


def seat_name(seat: int, n: int) -> str:
    """The seat's name for people (a message id)."""
    if n in COMPASS:
        return COMPASS[n][seat]
    return "You" if seat == 0 else NAMES[seat - 1]


def hand_points_so_far(view: PlayerView) -> list[int]:
    """Points each seat has this hand: once the hand is over, the engine's scored points (the
    leftover cards, a moon and any bonus included, as the hand result shows them); while it is
    played, those of the public tricks (and of the leftover cards, for the seat that took them:
    nobody else sees them, R32.2)."""
    if view.results and view.phase in (Phase.DEAL, Phase.GAME_OVER):
        return list(view.results[-1].points)
    points = [0] * view.num_players
    for t in view.tricks:
        if t.collector is not None:
            points[t.collector] += trick_points(view.options, t, view.kitty)
    return points


def queens_taken(view: PlayerView) -> list[int]:
    """How many queens of spades each seat has taken this hand, from the public tricks (and
    the pots they carried)."""
    taken = [0] * view.num_players
    for t in view.tricks:
        if t.collector is not None:
            taken[t.collector] += sum(1 for c in (*t.cards, *t.pot_taken) if c == QUEEN_OF_SPADES)
    return taken


def frame(table: Table, pause_scale: float = 1.0) -> FrameView:
    """One step of the play as the page shows it."""
    return FrameView(**_frame_fields(table, pause_scale))


def _frame_fields(table: Table, pause_scale: float) -> dict[str, Any]:
    view = table.view
    n = view.num_players
    points = hand_points_so_far(view)
    queens = queens_taken(view)
    watched = moon_watch(view)
    mode = _mode(table)
    target = None
    if view.direction is not PassDirection.HOLD and view.hand_number:
        target = pass_target(view.seat, view.direction, n)
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
            dealer=s == view.dealer and view.hand_number > 0,
            queens=queens[s],
            receives=mode == "pass" and s == target,
            moon=s == watched,
        )
        for s in range(n)
    ]
    trick, finished = _trick_on_table(view)
    number = view.tricks[-1].number if finished else len(view.tricks) + 1
    clears = finished and mode in ("play", "wait")
    plays = [[p.seat, p.card.code, int(p.winner) | 2 * int(p.cancelled)] for p in trick]
    pause = TRICK_PAUSE_MS if finished else CARD_PAUSE_MS
    if table.fast_play:
        pause //= FAST_FACTOR
    holder = view.kitty_collector
    return {
        "mode": mode,
        "seats": seats,
        "trick": trick,
        "trick_finished": finished,
        "trick_no_winner": finished and view.tricks[-1].winner is None,
        "last_trick": _trick_row(view, view.tricks[-1]) if view.tricks else None,
        "direction": view.direction.value,
        "pass_target": seat_name(target, n) if target is not None else None,
        "hearts_broken": view.hearts_broken,
        "pause_ms": round(pause * pause_scale),
        "pot_cards": len(view.pot),
        "pot_points": points_of(view.options, view.pot),
        "kitty_size": view.kitty_size,
        "kitty_holder": seat_name(holder, n) if holder is not None else None,
        "trick_state": json.dumps(
            [view.hand_number, number, int(clears), plays], separators=(",", ":")
        ),
    }


def build(
    table: Table,
    messages: list[str] | None = None,
    pause_scale: float = 1.0,
    finished_tricks: int = 0,
) -> TableView:
    """The page's table for the human seat (`finished_tricks`: the answer played out the rest
    of the hand at once)."""
    view = table.view
    step = _frame_fields(table, pause_scale)
    mode = step["mode"]
    legal = set(view.legal) if mode == "play" else set()
    received = Counter(view.received or ()) if not view.tricks else Counter()
    hand: list[CardView] = []
    for c in sorted(view.hand):  # clubs, diamonds, spades, hearts: colours alternate
        is_received = received[c] > 0
        received[c] -= 1
        shown = card_view(c, legal=c in legal, received=is_received)
        if mode == "play" and c not in legal:
            shown = _shaded(view, shown, c)
        hand.append(shown)
    scores = [_score_row(view, r) for r in view.results]
    hand_over = view.phase in (Phase.DEAL, Phase.GAME_OVER) and bool(view.results)
    n = view.num_players
    base = [s.points for s in step["seats"]]
    return TableView(
        **step,
        game_id=table.game_id,
        version=table.version,
        fast_play=table.fast_play,
        level=table.level,
        preset=view.options.variant.value,
        num_players=n,
        phase=view.phase.value,
        hand=hand,
        history=[_trick_row(view, t) for t in view.tricks],
        scores=scores,
        totals=view.totals,
        hand_number=view.hand_number,
        advance=table.computer_to_act,
        status=table.status,
        winners=[seat_name(s, n) for s in view.winners],
        place=_place(view) if view.phase is Phase.GAME_OVER else None,
        tie_break=view.phase is Phase.DEAL and bool(view.results) and _tied_above_target(view),
        last_hand=scores[-1] if hand_over and scores else None,
        target=view.options.target_score,
        kitty_cards=[card_view(c) for c in sorted(view.kitty or ())],
        received_from=(
            seat_name(view.received_from, n)
            if view.received and view.received_from is not None and not view.tricks
            else None
        ),
        received_cards=[card_view(c) for c in sorted(view.received or ())]
        if not view.tricks
        else [],
        moon_options=_moon_options(view, base) if mode == "moon" else [],
        rules=rule_lines(view),
        messages=list(messages or []),
        finished_tricks=finished_tricks,
        seal=table.seal,
        assisted=table.assisted,
        replayed=table.replayed,
        deal_code=table.deal_code,
    )


def frames(steps: Sequence[Table], pause_scale: float = 1.0) -> list[FrameView]:
    """The steps of a move's answer as the page plays them, each shown for its `pause_ms`."""
    return [frame(step, pause_scale) for step in steps]


def step_cards(steps: Sequence[FrameView]) -> list[str]:
    """The cards the steps put on the table, each once (the page draws them from these)."""
    return list(dict.fromkeys(p.card.code for step in steps for p in step.trick))


def rule_lines(view: PlayerView) -> list[RuleLine]:
    """Every rule option of the table that its preset offers, with its value's label."""
    options = view.options
    lines = []
    for f in FIELDS:
        if options.variant.value not in f.presets:
            continue
        lines.append(RuleLine(f.label, f.label_for(getattr(options, f.name))))
    return lines


def _shaded(view: PlayerView, shown: CardView, c: Card) -> CardView:
    """The card with the engine's reason it may not be played now (the page shows it on a tap)."""
    found = illegal_play_rule(
        view.options, view.hand, view.current, view.trick_number, view.hearts_broken, c
    )
    if found is None:
        return shown
    rule = found[0]
    return replace(shown, why=messages.for_rule(rule), rule=rule)


def _place(view: PlayerView) -> int:
    mine = view.totals[view.seat]
    return 1 + sum(1 for total in view.totals if total < mine)


def _mode(table: Table) -> str:
    view = table.view
    if view.phase is Phase.GAME_OVER:
        return "game_over"
    if view.phase is Phase.DEAL:
        return "hand_over"
    if view.phase is Phase.MOON_CHOICE:
        return "moon" if view.moon_shooter == view.seat else "wait"
    if view.seat in view.to_act:
        return "pass" if view.phase is Phase.PASS else "play"
    return "passed" if view.phase is Phase.PASS else "wait"


def _plays(n: int, plays: tuple[tuple[int, Card], ...], winner: int | None) -> list[PlayView]:
    twins = Counter(c for _, c in plays)
    return [
        PlayView(
            seat=s,
            seat_key=seat_key(s, n),
            seat_name=seat_name(s, n),
            card=card_view(c),
            winner=s == winner,
            cancelled=twins[c] > 1,
        )
        for s, c in plays
    ]


def _trick_on_table(view: PlayerView) -> tuple[list[PlayView], bool]:
    """The trick in progress, or the trick just finished (shown a moment, winner marked)."""
    if view.current:
        return _plays(view.num_players, view.current, None), False
    if not view.tricks:
        return [], False
    last: Trick = view.tricks[-1]
    return _plays(view.num_players, last.plays, last.winner), True


def _trick_row(view: PlayerView, t: Trick) -> TrickRow:
    n = view.num_players
    return TrickRow(
        number=t.number,
        leader=seat_name(t.leader, n),
        plays=tuple(_plays(n, t.plays, t.winner)),
        winner=seat_name(t.collector, n) if t.collector is not None else None,
        points=trick_points(view.options, t, view.kitty),
        pot_cards=len(t.pot_taken),
        kitty=t.kitty_taken,
    )


def replay_rows(lines: Sequence[TrickLine], n: int) -> list[TrickRow]:
    """A replayed hand's finished tricks as the table's history shows them (the same lines)."""
    return [
        TrickRow(
            number=line.number,
            leader=seat_name(line.leader, n),
            plays=tuple(_plays(n, line.plays, line.winner)),
            winner=seat_name(line.collector, n) if line.collector is not None else None,
            points=line.points,
            pot_cards=line.pot_cards,
            kitty=line.kitty,
        )
        for line in lines
        if line.complete
    ]


def _score_row(view: PlayerView, r: HandResult) -> ScoreRow:
    n = view.num_players
    return ScoreRow(
        number=r.number,
        direction=r.direction.value if r.direction is not PassDirection.HOLD else "hold",
        points=r.points,
        totals=r.totals,
        shooter=seat_name(r.shooter, n) if r.shooter is not None else None,
    )


def _moon_options(view: PlayerView, base: list[int]) -> list[MoonOption]:
    """The shooter's two choices with the totals each gives (R12.5, Q-07)."""
    labels = {
        MoonScoring.ADD_TO_OTHERS: N_("Add %(value)s to everyone else"),
        MoonScoring.SUBTRACT_FROM_SELF: N_("Take %(value)s off my score"),
    }
    out = []
    for scoring, label in labels.items():
        points = moon_points(view.options, tuple(base), view.seat, scoring)
        totals = tuple(t + p for t, p in zip(view.totals, points, strict=True))
        out.append(MoonOption(scoring.value, label, view.options.moon_value, totals))
    return out


def _tied_above_target(view: PlayerView) -> bool:
    """Someone reached the target but the lowest total is shared: another hand (UI-20)."""
    totals = view.totals
    low = min(totals)
    reached = max(totals) >= view.options.target_score
    return reached and sum(1 for t in totals if t == low) > 1 and not view.winners
