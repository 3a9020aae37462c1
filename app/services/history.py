"""Game history: the list of a player's games, one game's record, a read-only replay of any hand
and the download of a game as JSON (docs/game-json.md).

Everything is rebuilt from the stored action log (`repository.load_actions` + `replay`). A hand
that has been scored, and every hand of a finished or abandoned game, is shown whole: every
seat's dealt cards, passes and plays. The hand still being played in an active game is shown only
as the human seat saw it (its `PlayerView`), and the JSON of an active game stops at the end of
its last scored hand, so neither ever shows a card the player could not see at the table.
Another player's game is missing (`GameNotFoundError`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from app.engine import (
    Action,
    Card,
    Deal,
    GameHeader,
    GameState,
    HandResult,
    HandState,
    PassDirection,
    PlayerView,
    Trick,
    action_to_json,
    apply,
    new_game,
    pass_source,
    pass_target,
    points_of,
    trick_points,
    view_for,
)
from app.services.database import Database
from app.services.fairplay import Seal, deal_code, verified
from app.services.games import HUMAN_SEAT, GameNotFoundError
from app.services.players import Caller
from app.services.stats import Filters
from app.store import repository
from app.store import stats as store
from app.store.models import ACTIVE, HUMAN, Game

PAGE_SIZE = 25
"""Games per page of the history list."""
FORMAT = "hearts-game"
FORMAT_VERSION = 1


# --- the list of games ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One game as the history list and the game's page show it."""

    game_id: int
    started: datetime
    finished: datetime | None
    status: str
    variant: str
    num_players: int
    omnibus: bool
    target: int
    levels: tuple[str, ...]
    """The computer levels at the table."""
    hands: int
    """Hands dealt so far (the last one may be unfinished)."""
    score: int
    """The human's total over the scored hands."""
    place: int | None
    """The human's place in a finished game (1 = won)."""
    winners: tuple[int, ...]
    assisted: bool = False
    """Whether the player asked for a hint in the game."""
    replayed: bool = False
    """Whether the game was dealt from another game's secret (its deals were known)."""

    @property
    def won(self) -> bool:
        """Whether the human won (or shared the win)."""
        return self.place == 1


@dataclass(frozen=True, slots=True)
class HistoryPage:
    """One page of the player's games, newest first."""

    filters: Filters
    games: list[GameSummary]
    page: int
    pages: int
    total: int


def _summary(game: Game, score: int, place: int | None) -> GameSummary:
    header = game.game_header
    return GameSummary(
        game_id=game.id,
        started=game.created_at,
        finished=game.finished_at,
        status=game.status,
        variant=game.variant,
        num_players=game.num_players,
        omnibus=game.omnibus,
        target=header.options.target_score,
        levels=tuple(dict.fromkeys(k for k in game.seats if k != HUMAN)),
        hands=game.hand_number,
        score=score,
        place=place,
        winners=tuple(game.winners),
        assisted=game.assisted,
        replayed=game.replayed,
    )


def history(db: Database, caller: Caller, filters: Filters, page: int = 1) -> HistoryPage:
    """Page `page` (from 1) of the caller's games that pass `filters`, newest first."""
    f = filters.to_store()
    with db.read() as session:
        total = store.count_games(session, caller.player_id, f)
        pages = max(1, -(-total // PAGE_SIZE))
        page = min(max(1, page), pages)
        rows = store.game_list(session, caller.player_id, f, PAGE_SIZE, (page - 1) * PAGE_SIZE)
    return HistoryPage(
        filters=filters,
        games=[_summary(r.game, r.score, r.place) for r in rows],
        page=page,
        pages=pages,
        total=total,
    )


# --- one game ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandLine:
    """One hand of a game's score sheet."""

    number: int
    direction: str
    points: tuple[int, ...]
    totals: tuple[int, ...]
    shooters: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DealCheck:
    """One hand's seal on the game's page, and whether its revealed key gives its deal."""

    number: int
    key_commitment: str
    key: str | None
    verified: bool


@dataclass(frozen=True, slots=True)
class FairRecord:
    """A game's verifiable deals (docs/fair-play.md) as its page shows them."""

    commitment: str
    secret: str | None
    hands: tuple[DealCheck, ...]


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A game's page: its summary, seats, score sheet and the hands to replay."""

    summary: GameSummary
    kinds: tuple[str, ...]
    """"human" or the computer level of each seat."""
    lines: list[HandLine]
    in_progress: int | None
    """The number of the hand still being played, if any."""
    fair: FairRecord | None = None
    """The deals' seals and checks; None for a game dealt before verifiable deals."""
    deal_code: str | None = None
    """Once the game has ended, the code that lets another browser play its deals."""

    @property
    def totals(self) -> tuple[int, ...]:
        """The totals after the last scored hand."""
        return self.lines[-1].totals if self.lines else (0,) * len(self.kinds)


def _owned(session: Session, caller: Caller, game_id: int) -> Game:
    game = repository.get_game(session, game_id, caller.player_id)
    if game is None:
        raise GameNotFoundError(game_id)
    return game


def game_record(db: Database, caller: Caller, game_id: int) -> GameRecord:
    """One of the caller's games, from its stored hand results."""
    with db.read() as session:
        game = _owned(session, caller, game_id)
        rows = store.hand_rows(session, game)
        actions = repository.load_actions(session, game) if game.deal_secret else []
    kinds = tuple(game.seats)
    lines: list[HandLine] = []
    n = len(kinds)
    for start in range(0, len(rows), n):
        hand = rows[start : start + n]
        lines.append(
            HandLine(
                number=hand[0].hand_number,
                direction=hand[0].pass_direction,
                points=tuple(r.points for r in hand),
                totals=tuple(r.total_after for r in hand),
                shooters=tuple(r.seat for r in hand if r.shot_moon),
            )
        )
    unfinished = game.hand_number > len(lines)
    fair = _fair_record(game, actions, len(lines))
    return GameRecord(
        summary=_summary(game, *store.human_result(game)),
        kinds=kinds,
        lines=lines,
        in_progress=game.hand_number if unfinished and game.status == ACTIVE else None,
        fair=fair,
        deal_code=None
        if fair is None
        else deal_code(game.id, fair.commitment, fair.secret is not None),
    )


def _fair_record(game: Game, actions: Sequence[Action], scored: int) -> FairRecord | None:
    """What the game's page shows of its seals: each revealed key checked against the deal in
    the log."""
    deals = [a for a in actions if isinstance(a, Deal)]
    seal = Seal.of(game.deal_secret, len(deals), scored, game.status != ACTIVE)
    if seal is None:
        return None
    options = game.game_header.options
    checks = tuple(
        DealCheck(
            h.number,
            h.key_commitment,
            h.key,
            h.key is not None
            and h.number <= len(deals)
            and verified(options, h, deals[h.number - 1]),
        )
        for h in seal.hands
    )
    return FairRecord(seal.commitment, seal.secret, checks)


# --- replaying the log ------------------------------------------------------------------------


def _hands(
    header: GameHeader,
    actions: Iterable[Action],
    *,
    through_hand: int | None = None,
    scored_only: bool = False,
) -> tuple[GameState, list[HandState], int]:
    """One replay of the log: the state reached, the last state of each hand in order, and how
    many actions were applied.

    With `through_hand`, the replay stops before the deal of the hand after it (the hand and its
    result are then whole, later hands missing). With `scored_only`, everything is as at the end
    of the last scored hand (nothing at all before the first hand is scored).
    """
    state = new_game(header.options, header.first_dealer)
    done: list[HandState] = []
    applied = 0
    scored_end = (state, 0, 0)  # the state, hands done and actions applied then
    for i, action in enumerate(actions):
        if isinstance(action, Deal) and state.hand is not None:
            if through_hand is not None and state.hand_number >= through_hand:
                break
            done.append(state.hand)
        scored = len(state.results)
        state = apply(state, action)
        applied = i + 1
        if len(state.results) > scored:
            scored_end = (state, len(done), applied)
    if scored_only:
        state, count, applied = scored_end
        done = done[:count]
    hands = done if state.hand is None else [*done, state.hand]
    return state, hands, applied


@dataclass(frozen=True, slots=True)
class SeatHand:
    """One seat's cards in a replayed hand; None where the player may not see them."""

    seat: int
    kind: str
    dealt: tuple[Card, ...] | None
    passed: tuple[Card, ...] | None
    pass_to: int | None
    received: tuple[Card, ...] | None
    received_from: int | None
    held: tuple[Card, ...] | None
    """The cards held before the selected trick."""


@dataclass(frozen=True, slots=True)
class TrickLine:
    """One trick of a replayed hand, in play order."""

    number: int
    leader: int
    plays: tuple[tuple[int, Card], ...]
    winner: int | None
    collector: int | None
    points: int
    cancelled: frozenset[Card]
    """Cards played twice in this trick, which cancel (Cancellation Hearts, R36)."""
    pot_cards: int
    kitty: bool
    complete: bool


@dataclass(frozen=True, slots=True)
class HandReplay:
    """A read-only replay of one hand, at one trick."""

    game_id: int
    number: int
    hands_in_game: int
    num_players: int
    dealer: int
    direction: str
    whole: bool
    """True when every seat's cards are shown; False for the hand being played (own view)."""
    scored: bool
    seats: list[SeatHand]
    tricks: list[TrickLine]
    selected: int
    """The trick shown on the table (1-based); 0 when no card has been played yet."""
    result: HandResult | None
    kitty: tuple[Card, ...] | None

    @property
    def trick(self) -> TrickLine | None:
        """The selected trick."""
        return self.tricks[self.selected - 1] if self.selected else None


def hand_replay(
    db: Database, caller: Caller, game_id: int, number: int, trick: int | None = None
) -> HandReplay:
    """Hand `number` of one of the caller's games, at trick `trick` (default: the last one)."""
    with db.read() as session:
        game = _owned(session, caller, game_id)
        if not 1 <= number <= game.hand_number:
            raise GameNotFoundError(game_id)
        actions = repository.load_actions(session, game)
    header = game.game_header
    state, hands, _ = _hands(header, actions, through_hand=number)
    if len(hands) != number:
        raise GameNotFoundError(game_id)
    hand = hands[number - 1]
    result = next((r for r in state.results if r.number == number), None)
    kinds = tuple(game.seats)
    in_game = game.hand_number
    being_played = game.status == ACTIVE and result is None and number == in_game
    if being_played:
        return _replay_view(game.id, in_game, kinds, view_for(state, HUMAN_SEAT), trick)
    n = hand.num_players
    tricks = _tricks(header, hand.tricks, hand.current, hand.kitty)
    selected = _selected(trick, len(tricks))
    seats = [
        _seat_hand(
            seat,
            kinds[seat],
            hand.dealt[seat],
            hand.passed[seat],
            hand.received[seat] if hand.is_exchanged else None,
            hand.direction,
            n,
            tricks[: max(0, selected - 1)],
        )
        for seat in range(n)
    ]
    return HandReplay(
        game_id=game.id,
        number=number,
        hands_in_game=in_game,
        num_players=n,
        dealer=hand.dealer,
        direction=hand.direction.value,
        whole=True,
        scored=result is not None,
        seats=seats,
        tricks=tricks,
        selected=selected,
        result=result,
        kitty=hand.kitty or None,
    )


def _replay_view(
    game_id: int, hands: int, kinds: tuple[str, ...], view: PlayerView, trick: int | None
) -> HandReplay:
    """The hand being played, as the human seat sees it: own cards only."""
    n = view.num_players
    header = GameHeader(view.options)
    tricks = _tricks(header, view.tricks, view.current, view.kitty)
    selected = _selected(trick, len(tricks))
    seats = []
    for seat in range(n):
        if seat != view.seat:
            seats.append(SeatHand(seat, kinds[seat], None, None, None, None, None, None))
            continue
        seats.append(
            _seat_hand(
                seat,
                kinds[seat],
                view.dealt,
                view.passed,
                view.received,
                view.direction,
                n,
                tricks[: max(0, selected - 1)],
            )
        )
    return HandReplay(
        game_id=game_id,
        number=view.hand_number,
        hands_in_game=hands,
        num_players=n,
        dealer=view.dealer,
        direction=view.direction.value,
        whole=False,
        scored=False,
        seats=seats,
        tricks=tricks,
        selected=selected,
        result=None,
        kitty=view.kitty or None,
    )


def _selected(trick: int | None, count: int) -> int:
    if count == 0:
        return 0
    if trick is None:
        return count
    return min(max(1, trick), count)


def _seat_hand(
    seat: int,
    kind: str,
    dealt: tuple[Card, ...],
    passed: tuple[Card, ...] | None,
    received: tuple[Card, ...] | None,
    direction: PassDirection,
    n: int,
    before: Sequence[TrickLine],
) -> SeatHand:
    """A seat's cards, and what it held before the trick after `before`."""
    hold = direction is PassDirection.HOLD
    held = Counter(dealt)
    held.subtract(passed or ())
    held.update(received or ())
    held.subtract(c for t in before for s, c in t.plays if s == seat)
    return SeatHand(
        seat=seat,
        kind=kind,
        dealt=dealt,
        passed=passed if passed else None,
        pass_to=None if hold or not passed else pass_target(seat, direction, n),
        received=received if received else None,
        received_from=None if hold or not received else pass_source(seat, direction, n),
        held=tuple(sorted(held.elements())),
    )


def _tricks(
    header: GameHeader,
    tricks: Sequence[Trick],
    current: Sequence[tuple[int, Card]],
    kitty: Sequence[Card] | None,
) -> list[TrickLine]:
    """The lines of a hand's tricks. A trick's points are those its collector took with it: its
    cards, the pot and the kitty if they went with it; for a trick nobody took, its cards' points
    (which wait in the pot). `kitty` is None where the kitty's cards may not be shown (the hand
    being played, unless the human took it): its points are then left out too."""
    options = header.options
    lines = [
        TrickLine(
            number=t.number,
            leader=t.leader,
            plays=tuple(t.plays),
            winner=t.winner,
            collector=t.collector,
            points=trick_points(options, t, None if kitty is None else tuple(kitty)),
            cancelled=_cancelled(t.plays),
            pot_cards=len(t.pot_taken),
            kitty=t.kitty_taken,
            complete=True,
        )
        for t in tricks
    ]
    if current:
        lines.append(
            TrickLine(
                number=len(tricks) + 1,
                leader=current[0][0],
                plays=tuple(current),
                winner=None,
                collector=None,
                points=points_of(options, tuple(c for _, c in current)),
                cancelled=_cancelled(current),
                pot_cards=0,
                kitty=False,
                complete=False,
            )
        )
    return lines


def _cancelled(plays: Iterable[tuple[int, Card]]) -> frozenset[Card]:
    counts = Counter(c for _, c in plays)
    return frozenset(c for c, k in counts.items() if k > 1)


# --- the JSON download ------------------------------------------------------------------------


def export(db: Database, caller: Caller, game_id: int) -> dict[str, Any]:
    """One of the caller's games as a JSON document (docs/game-json.md): its header and action
    log, which `replay` turns back into the game, and a readable account of every hand. An
    active game stops at the end of its last scored hand."""
    with db.read() as session:
        game = _owned(session, caller, game_id)
        actions = repository.load_actions(session, game)
    header = game.game_header
    complete = game.status != ACTIVE
    state, hands, applied = _hands(header, actions, scored_only=not complete)
    actions = actions[:applied]
    results = {r.number: r for r in state.results}
    seal = Seal.of(game.deal_secret, len(hands), len(state.results), complete)
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game": {
            "id": game.id,
            "status": game.status,
            "started_at": game.created_at.isoformat(),
            "finished_at": game.finished_at.isoformat() if game.finished_at else None,
            "seats": list(game.seats),
            "complete": complete,
            "assisted": game.assisted,
            "replayed": game.replayed,
        },
        "header": header.to_json(),
        "actions": [action_to_json(a) for a in actions],
        "hands": [_hand_json(header, h, results.get(h.number)) for h in hands],
        "totals": list(state.totals),
        "winners": list(state.winners),
        "fair_play": seal.to_json() if seal is not None else None,
    }


def _codes(cards: Iterable[Card]) -> list[str]:
    return [c.code for c in cards]


def _hand_json(header: GameHeader, hand: HandState, result: HandResult | None) -> dict[str, Any]:
    n = hand.num_players
    hold = hand.direction is PassDirection.HOLD
    passes = [
        {
            "seat": seat,
            "to": pass_target(seat, hand.direction, n),
            "cards": _codes(cards),
        }
        for seat, cards in enumerate(hand.passed)
        if cards and not hold
    ]
    tricks = _tricks(header, hand.tricks, hand.current, hand.kitty)
    return {
        "number": hand.number,
        "dealer": hand.dealer,
        "pass_direction": hand.direction.value,
        "deal": {"hands": [_codes(h) for h in hand.dealt], "kitty": _codes(hand.kitty)},
        "passes": passes,
        "tricks": [
            {
                "number": t.number,
                "leader": t.leader,
                "plays": [{"seat": s, "card": c.code} for s, c in t.plays],
                "winner": t.winner,
                "collector": t.collector,
                "points": t.points,
                "complete": t.complete,
            }
            for t in tricks
        ],
        "result": None if result is None else _result_json(result),
    }


def _result_json(result: HandResult) -> dict[str, Any]:
    return {
        "points": list(result.points),
        "totals": list(result.totals),
        "moon": None
        if result.shooter is None
        else {
            "shooter": result.shooter,
            "scoring": result.moon_scoring.value if result.moon_scoring else None,
        },
        "hearts": list(result.hearts),
        "queens": list(result.queens),
        "bonus_cards": list(result.bonus_cards),
        "tricks_won": list(result.tricks_won),
        "uncollected_points": result.uncollected_points,
    }
