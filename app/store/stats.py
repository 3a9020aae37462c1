"""Statistics queries: SQL aggregates over the stored per-hand results and seats.

Every figure of the statistics page is computed here by the database from `hand_results` (one
row per finished hand and seat, written in the transaction that ends the hand), `game_seats`
(who sat where) and `games` (status, table, start time). Figures are grouped by seat key
`(kind, seat)`: kind is "human" or a computer level, so callers can show the human, each level
(all Hard seats together) or each computer seat. The queries return sums and counts, never
averages, so the caller's averages are exact fractions on every database.

Definitions (tested against sums over replayed games in `tests/stats/test_store_stats.py`):
- A seat's final score is the sum of its hand points in a finished game (equal to the game's
  final total). Places rank the final scores from low to high within a game; equal scores share
  the better place (SQL `RANK()`). Place 1 is a win, shared wins included (R13.4).
- Per-hand figures cover every finished hand, abandoned games' finished hands included.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import ColumnElement, Subquery, and_, case, exists, func, select
from sqlalchemy.orm import Session, aliased

from app.store.models import (
    ABANDONED,
    ACTIVE,
    FINISHED,
    HUMAN,
    Game,
    GameSeat,
    HandResultRow,
)

SeatKey = tuple[str, int]
"""A seat of a game as the statistics group it: (kind, seat number)."""


@dataclass(frozen=True, slots=True)
class StatsFilter:
    """Which games count: a computer level present at the table, a table (variant and number of
    players) and a range of start times, `since` inclusive and `until` exclusive (UTC)."""

    level: str | None = None
    variant: str | None = None
    num_players: int | None = None
    since: datetime | None = None
    until: datetime | None = None
    assisted: bool | None = None
    """Only games with hints (True) or only games without (False); None for both."""
    replayed: bool | None = None
    """Only games of deals played again (True) or only new deals (False); None for both."""


@dataclass(frozen=True, slots=True)
class GameCounts:
    """Games (seat-games for a computer seat) by status."""

    finished: int = 0
    abandoned: int = 0
    active: int = 0

    @property
    def played(self) -> int:
        """Every game started: finished, abandoned or still in progress."""
        return self.finished + self.abandoned + self.active


@dataclass(frozen=True, slots=True)
class FinalScores:
    """Final scores of finished games: their count, sum, lowest and highest, wins and places."""

    games: int = 0
    total: int = 0
    best: int | None = None
    """The lowest final score (lower is better in Hearts)."""
    worst: int | None = None
    wins: int = 0
    places: dict[int, int] = field(default_factory=dict)
    """How many times each place (1 = first) was taken."""


@dataclass(frozen=True, slots=True)
class HandTotals:
    """Sums over finished hands."""

    hands: int = 0
    points: int = 0
    zero_hands: int = 0
    """Hands that ended with exactly 0 points."""
    queens: int = 0
    hearts: int = 0
    bonus_cards: int = 0
    omnibus_hands: int = 0
    """Hands played with the Omnibus bonus card in play."""
    moons_shot: int = 0
    moons_suffered: int = 0
    tricks_won: int = 0


@dataclass(frozen=True, slots=True)
class DirectionTotals:
    """Hands and points under one pass direction."""

    hands: int = 0
    points: int = 0


@dataclass(frozen=True, slots=True)
class Outcome:
    """One finished or abandoned game, in start order, with the kinds of seat that won it."""

    game_id: int
    started: datetime
    status: str
    kinds: frozenset[str]
    """The kinds of seat at the table."""
    winners: frozenset[str]
    """The kinds of the seats that won (empty for an abandoned game)."""


@dataclass(frozen=True, slots=True)
class FinalOfGame:
    """One finished game's final score and place for one kind of seat (the human's, say)."""

    game_id: int
    started: datetime
    score: int
    place: int
    num_players: int


@dataclass(frozen=True, slots=True)
class GameRow:
    """One game of the history list, with the human's score so far and final place."""

    game: Game
    score: int
    """The human's total over the finished hands (the final total of a finished game)."""
    place: int | None
    """The human's place in a finished game; None otherwise."""


@dataclass(frozen=True, slots=True)
class HandRow:
    """One seat's result of one hand of a game (for the running-totals chart)."""

    hand_number: int
    seat: int
    points: int
    total_after: int
    pass_direction: str
    shot_moon: bool


# --- filters and the ranking of final scores --------------------------------------------------


def place_of(totals: Sequence[int], seat: int) -> int:
    """A seat's place by total, low to high, as `ranked_finals` ranks final scores: equal totals
    share the better place (`1 +` the number of lower totals, like SQL `RANK()`)."""
    return 1 + sum(1 for t in totals if t < totals[seat])


def human_result(game: Game) -> tuple[int, int | None]:
    """The human's total after the game's last scored hand (`games.totals`, kept with the hand
    results) and, for a finished game, the human's place."""
    totals = [int(t) for t in game.totals]
    seat = game.seats.index(HUMAN)
    return totals[seat], place_of(totals, seat) if game.status == FINISHED else None


def game_conditions(player_id: str, f: StatsFilter) -> list[ColumnElement[bool]]:
    """SQL conditions on `games` selecting the player's games that pass the filter."""
    conditions: list[ColumnElement[bool]] = [Game.player_id == player_id]
    if f.level is not None:
        # A correlated EXISTS on an alias: one primary-key probe per game, and queries over
        # `game_seats` itself stay unambiguous.
        seat = aliased(GameSeat)
        with_level = exists().where(seat.game_id == Game.id, seat.kind == f.level)
        conditions.append(with_level.correlate(Game))
    if f.variant is not None:
        conditions.append(Game.variant == f.variant)
    if f.num_players is not None:
        conditions.append(Game.num_players == f.num_players)
    if f.since is not None:
        conditions.append(Game.created_at >= f.since)
    if f.until is not None:
        conditions.append(Game.created_at < f.until)
    if f.assisted is not None:
        conditions.append(Game.assisted.is_(f.assisted))
    if f.replayed is not None:
        conditions.append(Game.replayed.is_(f.replayed))
    return conditions


def ranked_finals(player_id: str, f: StatsFilter) -> Subquery:
    """Each seat of each finished game: its kind, final score (the sum of its hand points) and
    place (`RANK()` over the game's final scores, low to high: ties share the better place)."""
    finals = (
        select(
            HandResultRow.game_id,
            HandResultRow.seat,
            HandResultRow.level.label("kind"),
            func.sum(HandResultRow.points).label("score"),
        )
        .join(Game, Game.id == HandResultRow.game_id)
        .where(*game_conditions(player_id, f), Game.status == FINISHED)
        .group_by(HandResultRow.game_id, HandResultRow.seat, HandResultRow.level)
        .subquery("finals")
    )
    place = func.rank().over(partition_by=finals.c.game_id, order_by=finals.c.score)
    return select(
        finals.c.game_id,
        finals.c.seat,
        finals.c.kind,
        finals.c.score,
        place.label("place"),
    ).subquery("ranked")


def _count_if(condition: ColumnElement[bool]) -> ColumnElement[int]:
    """SUM(CASE WHEN condition THEN 1 ELSE 0 END): a count of rows meeting `condition`."""
    return func.coalesce(func.sum(case((condition, 1), else_=0)), 0)


# --- the figures ------------------------------------------------------------------------------


def game_counts(session: Session, player_id: str, f: StatsFilter) -> dict[SeatKey, GameCounts]:
    """Games by status for every seat key (from `game_seats`, so games abandoned before their
    first hand ended count too)."""
    stmt = (
        select(GameSeat.kind, GameSeat.seat, Game.status, func.count())
        .join(Game, Game.id == GameSeat.game_id)
        .where(*game_conditions(player_id, f))
        .group_by(GameSeat.kind, GameSeat.seat, Game.status)
    )
    by_key: dict[SeatKey, dict[str, int]] = {}
    for kind, seat, status, count in session.execute(stmt):
        by_key.setdefault((kind, seat), {})[status] = count
    return {
        key: GameCounts(
            finished=counts.get(FINISHED, 0),
            abandoned=counts.get(ABANDONED, 0),
            active=counts.get(ACTIVE, 0),
        )
        for key, counts in by_key.items()
    }


def final_scores(session: Session, player_id: str, f: StatsFilter) -> dict[SeatKey, FinalScores]:
    """Final scores, wins and places of finished games for every seat key."""
    ranked = ranked_finals(player_id, f)
    totals = select(
        ranked.c.kind,
        ranked.c.seat,
        func.count(),
        func.sum(ranked.c.score),
        func.min(ranked.c.score),
        func.max(ranked.c.score),
        _count_if(ranked.c.place == 1),
    ).group_by(ranked.c.kind, ranked.c.seat)
    places = select(ranked.c.kind, ranked.c.seat, ranked.c.place, func.count()).group_by(
        ranked.c.kind, ranked.c.seat, ranked.c.place
    )
    by_place: dict[SeatKey, dict[int, int]] = {}
    for kind, seat, place, count in session.execute(places):
        by_place.setdefault((kind, seat), {})[int(place)] = int(count)
    return {
        (kind, seat): FinalScores(
            games=int(games),
            total=int(total),
            best=int(best),
            worst=int(worst),
            wins=int(wins),
            places=by_place.get((kind, seat), {}),
        )
        for kind, seat, games, total, best, worst, wins in session.execute(totals)
    }


def hand_totals(session: Session, player_id: str, f: StatsFilter) -> dict[SeatKey, HandTotals]:
    """Sums over every finished hand (abandoned games' included) for every seat key."""
    h = HandResultRow
    stmt = (
        select(
            h.level,
            h.seat,
            func.count(),
            func.sum(h.points),
            _count_if(h.points == 0),
            func.sum(h.queens),
            func.sum(h.hearts),
            func.sum(h.bonus_cards),
            _count_if(Game.omnibus.is_(True)),
            _count_if(h.shot_moon.is_(True)),
            _count_if(h.moon_suffered.is_(True)),
            func.sum(h.tricks_won),
        )
        .join(Game, Game.id == h.game_id)
        .where(*game_conditions(player_id, f))
        .group_by(h.level, h.seat)
    )
    result: dict[SeatKey, HandTotals] = {}
    for kind, seat, *sums in session.execute(stmt):
        values = [int(v) for v in sums]
        result[(kind, seat)] = HandTotals(*values)
    return result


def direction_totals(
    session: Session, player_id: str, f: StatsFilter
) -> dict[SeatKey, dict[str, DirectionTotals]]:
    """Hands and points by pass direction for every seat key."""
    h = HandResultRow
    stmt = (
        select(h.level, h.seat, h.pass_direction, func.count(), func.sum(h.points))
        .join(Game, Game.id == h.game_id)
        .where(*game_conditions(player_id, f))
        .group_by(h.level, h.seat, h.pass_direction)
    )
    result: dict[SeatKey, dict[str, DirectionTotals]] = {}
    for kind, seat, direction, hands, points in session.execute(stmt):
        result.setdefault((kind, seat), {})[direction] = DirectionTotals(int(hands), int(points))
    return result


def points_histogram(
    session: Session, player_id: str, f: StatsFilter, kind: str = HUMAN
) -> dict[int, int]:
    """How many hands ended with each number of points, for the seats of `kind`."""
    h = HandResultRow
    stmt = (
        select(h.points, func.count())
        .join(Game, Game.id == h.game_id)
        .where(*game_conditions(player_id, f), h.level == kind)
        .group_by(h.points)
    )
    return {int(points): int(count) for points, count in session.execute(stmt)}


def outcomes(session: Session, player_id: str, f: StatsFilter) -> list[Outcome]:
    """Finished and abandoned games in start order, each with the kinds that sat and won."""
    ranked = ranked_finals(player_id, f)
    won = func.max(case((ranked.c.place == 1, 1), else_=0))
    stmt = (
        select(Game.id, Game.created_at, Game.status, GameSeat.kind, won)
        .join(GameSeat, GameSeat.game_id == Game.id)
        .outerjoin(
            ranked, and_(ranked.c.game_id == GameSeat.game_id, ranked.c.seat == GameSeat.seat)
        )
        .where(*game_conditions(player_id, f), Game.status.in_((FINISHED, ABANDONED)))
        .group_by(Game.id, Game.created_at, Game.status, GameSeat.kind)
        .order_by(Game.created_at, Game.id)
    )
    games: dict[int, tuple[datetime, str, set[str], set[str]]] = {}
    for game_id, started, status, kind, is_winner in session.execute(stmt):
        _, _, kinds, winners = games.setdefault(game_id, (started, status, set(), set()))
        kinds.add(kind)
        if is_winner:
            winners.add(kind)
    return [
        Outcome(game_id, started, status, frozenset(kinds), frozenset(winners))
        for game_id, (started, status, kinds, winners) in games.items()
    ]


def recent_finals(
    session: Session, player_id: str, f: StatsFilter, limit: int, kind: str = HUMAN
) -> list[FinalOfGame]:
    """The final score and place of `kind`'s seat in the last `limit` finished games, oldest
    first (one row per seat when several seats share the kind)."""
    ranked = ranked_finals(player_id, f)
    stmt = (
        select(ranked.c.game_id, Game.created_at, ranked.c.score, ranked.c.place, Game.num_players)
        .join(Game, Game.id == ranked.c.game_id)
        .where(ranked.c.kind == kind)
        .order_by(Game.created_at.desc(), Game.id.desc(), ranked.c.seat)
        .limit(limit)
    )
    rows = [
        FinalOfGame(game_id, started, int(score), int(place), num_players)
        for game_id, started, score, place, num_players in session.execute(stmt)
    ]
    return rows[::-1]


def largest_finished_table(session: Session, player_id: str, f: StatsFilter) -> int:
    """The largest number of players among the finished games (0 without any)."""
    stmt = select(func.max(Game.num_players)).where(
        *game_conditions(player_id, f), Game.status == FINISHED
    )
    return int(session.scalar(stmt) or 0)


def table_choices(session: Session, player_id: str) -> list[tuple[str, int]]:
    """The tables (variant, number of players) the player has played, for the filter."""
    stmt = (
        select(Game.variant, Game.num_players)
        .where(Game.player_id == player_id)
        .distinct()
        .order_by(Game.variant.desc(), Game.num_players)
    )
    return [(variant, n) for variant, n in session.execute(stmt)]


def level_choices(session: Session, player_id: str) -> list[str]:
    """The computer levels the player has played against."""
    stmt = (
        select(GameSeat.kind)
        .join(Game, Game.id == GameSeat.game_id)
        .where(Game.player_id == player_id, GameSeat.kind != HUMAN)
        .distinct()
    )
    return list(session.scalars(stmt))


# --- history ----------------------------------------------------------------------------------


def count_games(session: Session, player_id: str, f: StatsFilter) -> int:
    """How many of the player's games pass the filter."""
    stmt = select(func.count()).select_from(Game).where(*game_conditions(player_id, f))
    return int(session.scalar(stmt) or 0)


def game_list(
    session: Session, player_id: str, f: StatsFilter, limit: int, offset: int = 0
) -> list[GameRow]:
    """The player's games that pass the filter, newest first, with the human's score and
    place (from each game's stored running totals: no aggregate over other games)."""
    stmt = (
        select(Game)
        .where(*game_conditions(player_id, f))
        .order_by(Game.created_at.desc(), Game.id.desc())
        .limit(limit)
        .offset(offset)
    )
    return [GameRow(game, *human_result(game)) for game in session.scalars(stmt)]


def hand_rows(session: Session, game: Game) -> list[HandRow]:
    """Every stored hand result of one game, by hand and seat."""
    h = HandResultRow
    stmt = (
        select(h.hand_number, h.seat, h.points, h.total_after, h.pass_direction, h.shot_moon)
        .where(h.game_id == game.id)
        .order_by(h.hand_number, h.seat)
    )
    return [
        HandRow(int(number), int(seat), int(points), int(total), direction, bool(moon))
        for number, seat, points, total, direction, moon in session.execute(stmt)
    ]


def seat_kinds(session: Session, game: Game) -> list[str]:
    """The kind of each seat of one game, in seat order, from `game_seats` (the same as
    `game.seats`, which the pages read)."""
    stmt = select(GameSeat.kind).where(GameSeat.game_id == game.id).order_by(GameSeat.seat)
    return list(session.scalars(stmt))


__all__ = [
    "DirectionTotals",
    "FinalOfGame",
    "FinalScores",
    "GameCounts",
    "GameRow",
    "HandRow",
    "HandTotals",
    "Outcome",
    "SeatKey",
    "StatsFilter",
    "count_games",
    "direction_totals",
    "final_scores",
    "game_conditions",
    "game_counts",
    "game_list",
    "hand_rows",
    "hand_totals",
    "human_result",
    "largest_finished_table",
    "level_choices",
    "outcomes",
    "place_of",
    "points_histogram",
    "ranked_finals",
    "recent_finals",
    "seat_kinds",
    "table_choices",
]
