"""Honest figures: every statistic, computed by SQL aggregates over the stored hand results, equals
the sum over the replayed stored games, on SQLite and on PostgreSQL, with and without filters."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from app.engine import Phase, RuleOptions, replay
from app.services import history as history_service
from app.services import stats as service
from app.services.database import Database
from app.services.players import Caller
from app.store import repository
from app.store import stats as store
from app.store.models import Game, GameSeat, HandResultRow
from tests.stats.expected import Expected, expected_figures, stored_games
from tests.stats.history import History, month, play, prepare
from tests.stats.history import store as store_game


def figures(sessions: sessionmaker[Session], player_id: str, **query: str) -> service.StatsPage:
    db = Database(sessions.kw["bind"])
    return service.statistics(db, Caller(player_id), service.parse_filters(query))


def assert_matches(sub: service.SubjectStats, e: Expected) -> None:
    """Every figure of a subject equals the replayed sum."""
    assert sub.counts.played == e.played
    assert (sub.counts.finished, sub.counts.abandoned, sub.counts.active) == (
        e.finished,
        e.abandoned,
        e.active,
    )
    assert sub.wins == e.wins
    assert sub.win_rate == e.win_rate
    assert sub.finals.games == len(e.finals)
    assert sub.average_final == e.average_final
    assert sub.finals.best == (min(e.finals) if e.finals else None)
    assert sub.finals.worst == (max(e.finals) if e.finals else None)
    assert sub.finals.places == dict(e.places)
    assert sub.hands.hands == e.hands
    assert sub.hands.points == e.points
    assert sub.points_per_hand == e.points_per_hand
    assert sub.hands.zero_hands == e.zero_hands
    assert sub.hands.queens == e.queens
    assert sub.hands.hearts == e.hearts
    assert sub.hands.bonus_cards == e.bonus_cards
    assert sub.hands.omnibus_hands == e.omnibus_hands
    assert sub.hands.moons_shot == e.moons_shot
    assert sub.hands.moons_suffered == e.moons_suffered
    assert {d: (t.hands, t.points) for d, t in sub.directions.items()} == {
        d: tuple(v) for d, v in e.by_direction.items()
    }
    assert (sub.current_streak, sub.longest_streak) == e.streaks


def assert_page_matches(page: service.StatsPage, expected: dict[str, Expected]) -> None:
    assert [s.kind for s in page.subjects] == [
        k for k in ("human", "easy", "medium", "hard") if k in expected or k == "human"
    ]
    for sub in page.subjects:
        assert_matches(sub, expected.get(sub.kind, Expected()))
    human = expected.get("human", Expected())
    assert sum(b.hands for b in page.histogram) == human.hands
    assert page.histogram == service.histogram(human.histogram)


def test_the_prepared_history_has_what_the_tests_need(
    sessions: sessionmaker[Session], player_id: str, history: History
) -> None:
    with sessions() as session:
        games = {g.id: (g, s) for g, s in stored_games(session, player_id)}
    moon_game, moon_state = games[history.moon]
    assert moon_game.status == "finished"
    assert moon_state.results[3].shooter == 0  # South shot the moon in hand 4
    omnibus_game, omnibus_state = games[history.omnibus]
    assert omnibus_game.omnibus and sum(sum(r.bonus_cards) for r in omnibus_state.results) > 0
    cancellation_game, _ = games[history.cancellation]
    assert (cancellation_game.variant, cancellation_game.num_players) == ("cancellation", 8)
    assert cancellation_game.status == "finished"
    _, shared_state = games[history.shared]
    assert shared_state.winners == (0, 1)  # a shared win: South and West
    assert games[history.abandoned][0].status == "abandoned"
    assert games[history.abandoned][1].hand_number == 3
    assert games[history.active][0].status == "active"


def test_figures_equal_the_sums_over_the_stored_games(
    sessions: sessionmaker[Session], player_id: str, history: History
) -> None:
    with sessions() as session:
        games = stored_games(session, player_id)
    expected = expected_figures(games)
    page = figures(sessions, player_id)
    assert_page_matches(page, expected)
    # The prepared history really exercises the figures.
    human = page.human
    assert human.counts.played == 6 and human.counts.abandoned == 1 and human.counts.active == 1
    assert human.hands.moons_shot >= 2  # the scripted moons (hand 4 of the first game, and one)
    assert human.wins >= 1  # the shared win
    assert sum(s.hands.moons_suffered for s in page.subjects) >= 6
    assert any(s.hands.bonus_cards for s in page.subjects)
    assert page.places == 8  # the Cancellation game has eight places


@pytest.mark.parametrize(
    ("query", "include"),
    [
        ({"level": "hard"}, {"moon", "shared", "abandoned", "active"}),
        ({"level": "easy"}, {"cancellation"}),
        ({"table": "standard-4"}, {"moon", "omnibus", "shared", "abandoned", "active"}),
        ({"table": "cancellation-8"}, {"cancellation"}),
        ({"since": "2026-02-01", "until": "2026-04-10"}, {"omnibus", "cancellation", "shared"}),
        ({"level": "hard", "until": "2026-04-09"}, {"moon"}),
        ({"table": "standard-5"}, set()),
    ],
)
def test_filtered_figures_equal_the_sums_over_the_filtered_games(
    sessions: sessionmaker[Session],
    player_id: str,
    history: History,
    query: dict[str, str],
    include: set[str],
) -> None:
    with sessions() as session:
        games = stored_games(session, player_id)
    ids = {getattr(history, name) for name in include}
    page = figures(sessions, player_id, **query)
    assert not page.filters.errors
    assert_page_matches(page, expected_figures(games, ids))
    assert page.human.counts.played == len(ids)


def test_each_computer_seat_on_its_own(
    sessions: sessionmaker[Session], player_id: str, history: History
) -> None:
    """Per seat (level and seat number) figures, and the level figures are their sums."""
    del history
    with sessions() as session:
        games = stored_games(session, player_id)
    page = figures(sessions, player_id)
    assert {(s.kind, s.seat) for s in page.seats} == {
        *(("hard", seat) for seat in (1, 2, 3)),
        *(("medium", seat) for seat in (1, 2, 3)),
        *(("easy", seat) for seat in range(1, 8)),
    }
    for seat in page.seats:
        n = seat.seat
        assert n is not None
        seated = [(g, st) for g, st in games if g.seats[n : n + 1] == [seat.kind]]
        wins = sum(1 for g, st in seated if g.status == "finished" and n in st.winners)
        points = sum(r.points[n] for _, st in seated for r in st.results)
        assert (seat.wins, seat.hands.points) == (wins, points)
    for sub in page.subjects[1:]:
        mine = [s for s in page.seats if s.kind == sub.kind]
        assert sub.counts.played == sum(s.counts.played for s in mine)
        assert sub.hands.points == sum(s.hands.points for s in mine)


def test_hand_results_match_the_replayed_hands_row_by_row(
    sessions: sessionmaker[Session], player_id: str, history: History
) -> None:
    """The rows the figures are summed from: one per finished hand and seat, nothing more."""
    del history
    with sessions() as session:
        for game, state in stored_games(session, player_id):
            rows = store.hand_rows(session, game)
            assert len(rows) == len(state.results) * state.num_players
            for row in rows:
                result = state.results[row.hand_number - 1]
                assert row.points == result.points[row.seat]
                assert row.total_after == result.totals[row.seat]
                assert row.shot_moon == (result.shooter == row.seat)
            assert store.seat_kinds(session, game) == game.seats


def test_another_players_games_never_count(
    sessions: sessionmaker[Session], player_id: str, history: History
) -> None:
    del history
    before = figures(sessions, player_id)
    with sessions.begin() as session:
        other = repository.create_player(session).id
    options = RuleOptions.standard()
    store_game(sessions, other, options, "hard", play(options, 99), month(3))
    assert figures(sessions, player_id) == before
    theirs = figures(sessions, other)
    assert theirs.human.counts.played == 1 and theirs.human.counts.finished == 1


def test_an_empty_history(sessions: sessionmaker[Session], player_id: str) -> None:
    page = figures(sessions, player_id)
    assert [s.kind for s in page.subjects] == ["human"]
    human = page.human
    assert human.counts.played == 0
    assert human.win_rate is None and human.average_final is None
    assert human.points_per_hand is None and (human.current_streak, human.longest_streak) == (0, 0)
    assert page.recent == [] and page.places == 0
    assert all(b.hands == 0 for b in page.histogram)


def test_recent_final_scores_in_start_order(
    sessions: sessionmaker[Session], player_id: str, history: History
) -> None:
    with sessions() as session:
        games = {g.id: (g, s) for g, s in stored_games(session, player_id)}
    page = figures(sessions, player_id)
    finished = [history.moon, history.omnibus, history.cancellation, history.shared]
    assert [g.game_id for g in page.recent] == finished
    for row in page.recent:
        game, state = games[row.game_id]
        assert row.score == state.totals[0]
        assert row.place == 1 + sum(1 for t in state.totals if t < state.totals[0])
        assert row.num_players == game.num_players


def test_the_history_list_agrees_with_the_ranked_final_scores(
    sessions: sessionmaker[Session], player_id: str, history: History
) -> None:
    """The list reads each game's stored totals; its scores and places are the hand results'
    sums and the SQL `RANK()` of the statistics (the shared win included)."""
    with sessions() as session:
        games = {g.id: (g, s) for g, s in stored_games(session, player_id)}
        rows = store.game_list(session, player_id, store.StatsFilter(), limit=25)
        ranked = store.ranked_finals(player_id, store.StatsFilter())
        places = {
            game_id: int(place)
            for game_id, place in session.execute(
                select(ranked.c.game_id, ranked.c.place).where(ranked.c.kind == "human")
            )
        }
        later = store.game_list(session, player_id, store.StatsFilter(), limit=2, offset=2)
    assert [r.game.id for r in rows] == history.all[::-1]
    assert [r.game.id for r in later] == history.all[::-1][2:4]
    for row in rows:
        _, state = games[row.game.id]
        assert row.score == sum(r.points[0] for r in state.results)
        assert row.place == places.get(row.game.id)
    assert rows[history.all[::-1].index(history.shared)].place == 1
    assert store.place_of((10, 5, 10, 20), 0) == 2  # a tie shares the better place
    assert store.place_of((10, 5, 10, 20), 2) == 2
    assert store.place_of((7, 7, 7), 1) == 1


def test_one_replay_stops_at_the_hand_asked_for_or_the_last_scored_hand(
    sessions: sessionmaker[Session], player_id: str, history: History
) -> None:
    """The history's single-pass replay: through hand k, it has hands 1…k as the whole replay
    has them; for an active game's download, it ends where the last scored hand ended."""
    del history
    with sessions() as session:
        for game, state in stored_games(session, player_id):
            header = game.game_header
            actions = repository.load_actions(session, game)
            whole, hands, applied = history_service._hands(header, actions)
            assert (whole, applied) == (state, len(actions)) and len(hands) == game.hand_number
            for k in range(1, len(hands) + 1):
                at, upto, _ = history_service._hands(header, actions, through_hand=k)
                assert upto == hands[:k]
                assert at.results == tuple(r for r in state.results if r.number <= k)
            at, upto, applied = history_service._hands(header, actions, scored_only=True)
            assert at == replay(header, actions[:applied])
            assert at.phase in (Phase.DEAL, Phase.GAME_OVER)
            assert at.results == state.results and len(upto) == len(state.results)
            assert upto == hands[: len(upto)]


def _outcome(status: str, won: bool, kinds: tuple[str, ...] = ("human", "hard")) -> store.Outcome:
    return store.Outcome(
        1,
        datetime(2026, 1, 1, tzinfo=UTC),
        status,
        frozenset(kinds),
        frozenset({"human"} if won else {"hard"} if status == "finished" else set()),
    )


def test_streaks_abandoned_games_end_them() -> None:
    """A streak counts finished games won in a row; an abandoned game ends it (page help)."""
    won, lost = _outcome("finished", True), _outcome("finished", False)
    abandoned = _outcome("abandoned", False)
    assert service.streaks([won, won, abandoned, won], "human") == (1, 2)
    assert service.streaks([won, won, won], "human") == (3, 3)
    assert service.streaks([won, lost], "human") == (0, 1)
    assert service.streaks([won, won, abandoned], "human") == (0, 2)
    assert service.streaks([], "human") == (0, 0)
    # The computer level's streak only counts games with a seat of that level.
    easy_game = _outcome("finished", True, ("human", "easy"))
    assert service.streaks([lost, easy_game, lost], "hard") == (2, 2)
    assert service.streaks([lost, easy_game, lost], "easy") == (0, 0)


def test_filters_are_read_from_the_query() -> None:
    f = service.parse_filters(
        {"level": "hard", "table": "cancellation-8", "since": "2026-03-01", "until": "2026-03-31"}
    )
    assert not f.errors
    s = f.to_store()
    assert (s.level, s.variant, s.num_players) == ("hard", "cancellation", 8)
    assert s.since == datetime(2026, 3, 1, tzinfo=UTC)
    assert s.until == datetime(2026, 4, 1, tzinfo=UTC)  # the end day is included
    swapped = service.parse_filters({"since": "2026-05-01", "until": "2026-01-01"})
    assert (swapped.since, swapped.until) == (date(2026, 1, 1), date(2026, 5, 1))
    assert len(swapped.errors) == 1
    bad = service.parse_filters(
        {"level": "godlike", "table": "standard-99", "since": "yesterday", "until": ""}
    )
    assert (bad.level, bad.table, bad.since, bad.until) == (None, None, None, None)
    assert len(bad.errors) == 3
    assert service.parse_filters({}).to_store() == store.StatsFilter()


def test_seats_and_tables_are_stored_with_the_game(
    sessions: sessionmaker[Session], player_id: str
) -> None:
    options = RuleOptions.cancellation(7, target_score=50)
    game_id = store_game(sessions, player_id, options, "medium", [], month(1))
    with sessions() as session:
        game = session.get(Game, game_id)
        assert game is not None
        assert (game.variant, game.num_players, game.omnibus) == ("cancellation", 7, False)
        kinds = session.scalars(
            select(GameSeat.kind).where(GameSeat.game_id == game_id).order_by(GameSeat.seat)
        ).all()
        assert kinds == ["human"] + ["medium"] * 6
        assert session.scalar(select(func.count()).select_from(HandResultRow)) == 0
    # A game abandoned before its first hand ended still counts as played, for every seat.
    page = figures(sessions, player_id)
    assert page.human.counts.active == 1
    assert page.subjects[1].kind == "medium" and page.subjects[1].counts.played == 6


def test_prepare_is_deterministic(sessions: sessionmaker[Session], player_id: str) -> None:
    """The same seed gives the same history (so failures reproduce)."""
    first = prepare(sessions, player_id, seed=11)
    with sessions.begin() as session:
        other = repository.create_player(session).id
    second = prepare(sessions, other, seed=11)
    a, b = figures(sessions, player_id), figures(sessions, other)
    assert first != second
    assert [s.hands for s in a.subjects] == [s.hands for s in b.subjects]
