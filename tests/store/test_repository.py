"""The repository on both databases: the action log round trip, hand results, constraints,
ownership, locking and the active game."""

from __future__ import annotations

import random
import threading
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import Engine, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from app.engine import (
    Action,
    Deal,
    GameHeader,
    GameState,
    PassCycle,
    RuleOptions,
    apply,
    legal_actions,
    random_deal,
    replay,
)
from app.services.database import Database
from app.store import (
    ABANDONED,
    ACTIVE,
    FINISHED,
    Game,
    GameAction,
    HandResultRow,
    Player,
    StoredDataError,
    abandon_game,
    active_game_id,
    append_actions,
    create_game,
    create_player,
    encode_action,
    get_game,
    get_player,
    load_actions,
    lock_game,
    make_sessionmaker,
    mark_abandoned,
    mark_seen,
    reader,
)
from app.store.models import utcnow
from app.store.repository import advance_game, row_of
from tests.store.helpers import chunks, moon_deal, random_game

OPTIONS = {
    "standard-4": RuleOptions.standard(),
    "standard-3": RuleOptions.standard(3, target_score=50),
    "cancellation-8": RuleOptions.cancellation(8, target_score=50),
}


def _new_game(
    session: Session, options: RuleOptions, player: Player | None = None, level: str = "medium"
) -> Game:
    player = player or create_player(session)
    seats = ["human"] + [level] * (options.num_players - 1)
    return create_game(session, player, GameHeader(options), seats, seed=2**62 + 5, fast_play=True)


def _store_whole_game(
    sessions: sessionmaker[Session],
    options: RuleOptions,
    seed: int,
    first: Deal | None = None,
    *,
    tell_results: bool = False,
) -> tuple[int, str, GameState]:
    """Play a random game and store it in several transactions, as the services would (telling
    `append_actions` how many results were stored before, if `tell_results`); after each one,
    the stored log replays to the live state and the finished hands are stored."""
    steps = random_game(options, seed, first)
    with sessions.begin() as session:
        created = _new_game(session, options)
        game_id, player_id = created.id, created.player_id
    header = GameHeader(options)
    results_before = 0
    for piece in chunks(steps, seed):
        state = piece[-1][1]
        with sessions.begin() as session:
            game = lock_game(session, game_id, player_id)
            assert game is not None
            actions = [action for action, _ in piece]
            if tell_results:
                append_actions(session, game, actions, state, results_before=results_before)
            else:
                append_actions(session, game, actions, state)
        results_before = len(state.results)
        with sessions() as session:
            game = get_game(session, game_id, player_id)
            assert game is not None
            assert replay(header, load_actions(session, game)) == state
            rows = session.scalar(select(func.count()).where(HandResultRow.game_id == game_id))
            assert rows == len(state.results) * options.num_players
    return game_id, player_id, steps[-1][1]


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_whole_game_round_trip(sessions: sessionmaker[Session], name: str) -> None:
    options = OPTIONS[name]
    game_id, player_id, final = _store_whole_game(sessions, options, seed=len(name))
    with sessions() as session:
        game = get_game(session, game_id, player_id)
        assert game is not None
        actions = load_actions(session, game)
        assert game.version == len(actions)
        assert replay(game.game_header, actions) == final
        assert final.is_over
        assert game.status == FINISHED
        assert game.finished_at is not None
        assert game.hand_number == final.hand_number == len(final.results)
        assert game.totals == list(final.totals)
        assert game.winners == list(final.winners)
        kinds = session.scalars(
            select(GameAction.kind).where(GameAction.game_id == game_id).order_by(GameAction.seq)
        ).all()
        assert kinds.count("deal") == len(final.results)
        seats = session.scalars(
            select(GameAction.seat).where(GameAction.game_id == game_id).order_by(GameAction.seq)
        ).all()
        assert seats == [None if isinstance(a, Deal) else a.seat for a in actions]


WAYS = ("writing", "writing_statements")
"""A move's write: in a write transaction, or as one statement (autocommit on PostgreSQL)."""


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_advance_game_stores_whole_games_as_a_moves_write_does(
    engine: Engine, sessions: sessionmaker[Session], name: str, way: str
) -> None:
    """`advance_game` as a move writes: the log, the summary and every hand's results as
    `append_actions` stores them, and a row that has moved on writes nothing."""
    options = OPTIONS[name]
    steps = random_game(options, 7)
    with sessions.begin() as session:
        created = _new_game(session, options)
        game_id, player_id = created.id, created.player_id
        row = row_of(created)
    db = Database(engine)
    writing = getattr(db, way)
    before: GameState = replay(GameHeader(options), [])
    for piece in chunks(steps, 7):
        state = piece[-1][1]
        with writing() as connection:
            after = advance_game(
                connection,
                row,
                [action for action, _ in piece],
                state,
                results_before=len(before.results),
            )
        assert after is not None and after.version == row.version + len(piece)
        with writing() as connection:  # the same write again, from the old row
            again = [action for action, _ in piece]
            assert advance_game(connection, row, again, state, results_before=0) is None
        row, before = after, state
    final = steps[-1][1]
    with sessions() as session:
        game = get_game(session, game_id, player_id)
        assert game is not None
        assert replay(game.game_header, load_actions(session, game)) == final
        assert (game.version, game.status) == (row.version, FINISHED)
        assert game.totals == list(final.totals)
        assert game.updated_at == row.updated_at
        _check_hand_results(session, game_id, final)


@pytest.mark.parametrize("way", WAYS)
def test_a_move_that_fails_half_way_writes_nothing(
    engine: Engine, sessions: sessionmaker[Session], way: str
) -> None:
    """A move whose log insert fails (here a stray row already holds its first `seq`) leaves
    the game's row as it was, even when the move is one statement outside a transaction."""
    options = OPTIONS["standard-4"]
    (deal, state), *_ = random_game(options, 3)
    with sessions.begin() as session:
        created = _new_game(session, options)
        row = row_of(created)
        session.add(GameAction(game_id=row.id, seq=0, seat=None, kind="deal", payload={}))
    with pytest.raises(IntegrityError), getattr(Database(engine), way)() as connection:
        advance_game(connection, row, [deal], state, results_before=0)
    with sessions() as session:
        game = get_game(session, row.id, row.player_id)
        assert game is not None
        assert (game.version, game.updated_at, game.hand_number) == (0, row.updated_at, 0)


def _check_hand_results(session: Session, game_id: int, final: GameState) -> None:
    rows = session.scalars(
        select(HandResultRow)
        .where(HandResultRow.game_id == game_id)
        .order_by(HandResultRow.hand_number, HandResultRow.seat)
    ).all()
    n = final.num_players
    assert len(rows) == len(final.results) * n
    for result in final.results:
        for seat in range(n):
            row = rows[(result.number - 1) * n + seat]
            assert (row.hand_number, row.seat) == (result.number, seat)
            assert row.level == ("human" if seat == 0 else "medium")
            assert row.points == result.points[seat]
            assert row.total_after == result.totals[seat]
            assert row.pass_direction == result.direction.value
            assert row.shot_moon == (result.shooter == seat)
            assert row.moon_suffered == (result.shooter not in (None, seat))
            assert row.queens == result.queens[seat]
            assert row.hearts == result.hearts[seat]
            assert row.bonus_cards == result.bonus_cards[seat]
            assert row.tricks_won == result.tricks_won[seat]
    sums = session.execute(
        select(HandResultRow.seat, func.sum(HandResultRow.points))
        .where(HandResultRow.game_id == game_id)
        .group_by(HandResultRow.seat)
        .order_by(HandResultRow.seat)
    ).all()
    assert [total for _, total in sums] == list(final.totals)


@pytest.mark.parametrize("tell_results", [False, True])
@pytest.mark.parametrize("name", ["standard-4", "cancellation-8"])
def test_hand_results_match_the_engine(
    sessions: sessionmaker[Session], name: str, tell_results: bool
) -> None:
    game_id, _, final = _store_whole_game(
        sessions, OPTIONS[name], seed=99, tell_results=tell_results
    )
    with sessions() as session:
        _check_hand_results(session, game_id, final)


def test_hand_results_record_a_moon(sessions: sessionmaker[Session]) -> None:
    options = RuleOptions.standard(pass_cycle=PassCycle.NONE, target_score=50)
    game_id, _, final = _store_whole_game(sessions, options, seed=3, first=moon_deal())
    assert final.results[0].shooter == 0
    with sessions() as session:
        _check_hand_results(session, game_id, final)
        first = session.scalars(
            select(HandResultRow)
            .where(HandResultRow.game_id == game_id, HandResultRow.hand_number == 1)
            .order_by(HandResultRow.seat)
        ).all()
        assert [r.shot_moon for r in first] == [True, False, False, False]
        assert [r.moon_suffered for r in first] == [False, True, True, True]
        assert [r.points for r in first] == [0, 26, 26, 26]
        assert first[0].queens == 1 and first[0].hearts == 13 and first[0].tricks_won == 13


def _dealt_game(session: Session, player: Player | None = None) -> tuple[Game, GameState]:
    """A new standard game with its first deal stored (version 1)."""
    options = RuleOptions.standard()
    game = _new_game(session, options, player)
    deal = random_deal(options, random.Random(game.id))
    state = replay(GameHeader(options), [deal])
    append_actions(session, game, [deal], state)
    return game, state


def test_foreign_keys_are_enforced(sessions: sessionmaker[Session]) -> None:
    with sessions() as session, pytest.raises(IntegrityError):
        session.add(
            GameAction(game_id=424242, seq=0, seat=0, kind="play", payload={"v": 1, "action": {}})
        )
        session.flush()
    with sessions() as session, pytest.raises(IntegrityError):
        session.add(
            Game(
                player_id="nobody",
                header={},
                seats=[],
                seed=1,
                fast_play=False,
                totals=[],
                winners=[],
            )
        )
        session.flush()


def test_deleting_a_player_deletes_its_games(sessions: sessionmaker[Session]) -> None:
    with sessions.begin() as session:
        game, _ = _dealt_game(session)
        player_id = game.player_id
    with sessions.begin() as session:
        session.delete(session.get_one(Player, player_id))
    with sessions() as session:
        assert session.scalar(select(func.count()).select_from(Game)) == 0
        assert session.scalar(select(func.count()).select_from(GameAction)) == 0


def test_another_players_game_is_not_found(sessions: sessionmaker[Session]) -> None:
    with sessions.begin() as session:
        game, _ = _dealt_game(session)
        other = create_player(session)
        game_id, owner = game.id, game.player_id
    with sessions.begin() as session:
        assert get_game(session, game_id, other.id) is None
        assert lock_game(session, game_id, other.id) is None
        assert get_game(session, game_id + 1, owner) is None
        found = get_game(session, game_id, owner)
        assert found is not None and found.id == game_id
        locked = lock_game(session, game_id, owner)
        assert locked is not None and locked.version == 1


def test_a_duplicate_seq_is_refused(sessions: sessionmaker[Session]) -> None:
    with sessions.begin() as session:
        dealt, state = _dealt_game(session)
        game_id, player_id = dealt.id, dealt.player_id
    with sessions() as session:
        game = lock_game(session, game_id, player_id)
        assert game is not None
        game.version = 0  # a writer that read the game before the deal was stored
        with pytest.raises(IntegrityError):
            append_actions(session, game, [legal_actions(state)[0]], state)
        session.rollback()
    with sessions() as session:
        game = get_game(session, game_id, player_id)
        assert game is not None and game.version == 1
        assert len(load_actions(session, game)) == 1


def test_version_check_and_update_are_serialised(sessions: sessionmaker[Session]) -> None:
    """Several requests posting the same version at once: exactly one action is applied."""
    with sessions.begin() as session:
        dealt, state = _dealt_game(session)
        game_id, player_id = dealt.id, dealt.player_id
    action = legal_actions(state)[0]
    with sessions() as session:
        after = replay(GameHeader(state.options), [*_log(session, game_id, player_id), action])
    barrier = threading.Barrier(4)
    outcomes: list[str] = []

    def request() -> None:
        barrier.wait()
        try:
            with sessions.begin() as session:
                game = lock_game(session, game_id, player_id)
                assert game is not None
                if game.version != 1:
                    outcomes.append("stale")
                    return
                threading.Event().wait(0.05)  # widen the window between check and write
                append_actions(session, game, [action], after)
            outcomes.append("applied")
        except Exception as err:
            outcomes.append(f"error: {err!r}")

    threads = [threading.Thread(target=request) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["applied", "stale", "stale", "stale"]
    with sessions() as session:
        game = get_game(session, game_id, player_id)
        assert game is not None and game.version == 2


def _log(session: Session, game_id: int, player_id: str) -> list[Action]:
    game = get_game(session, game_id, player_id)
    assert game is not None
    return load_actions(session, game)


def test_active_game_is_the_latest_active_one(sessions: sessionmaker[Session]) -> None:
    with sessions.begin() as session:
        player = create_player(session)
        stranger = create_player(session)
        first, state = _dealt_game(session, player)
        second, _ = _dealt_game(session, player)
        theirs, _ = _dealt_game(session, stranger)
        first.updated_at = second.updated_at - timedelta(minutes=5)
    with sessions.begin() as session:
        assert active_game_id(session, player.id) == second.id
        # Playing on in the first game makes it the latest.
        game = lock_game(session, first.id, player.id)
        assert game is not None
        after = replay(GameHeader(state.options), _log(session, first.id, player.id))
        append_actions(session, game, [legal_actions(after)[0]], after)
    with sessions.begin() as session:
        assert active_game_id(session, player.id) == first.id
        abandon_game(session, first.id, utcnow())
        found = get_game(session, first.id, player.id)
        assert found is not None and found.status == ABANDONED
    with sessions.begin() as session:
        assert active_game_id(session, player.id) == second.id
        found = get_game(session, second.id, player.id)
        assert found is not None
        found.status = FINISHED
    with sessions.begin() as session:
        assert active_game_id(session, player.id) is None
        assert active_game_id(session, stranger.id) == theirs.id
        abandon_game(session, second.id, utcnow())  # a finished game stays finished
        found = get_game(session, second.id, player.id)
        assert found is not None and found.status == FINISHED


def test_only_an_active_game_takes_actions(sessions: sessionmaker[Session]) -> None:
    with sessions.begin() as session:
        game, state = _dealt_game(session)
        mark_abandoned(session, game)
        with pytest.raises(ValueError, match="abandoned"):
            append_actions(session, game, [legal_actions(state)[0]], state)
        game.status = FINISHED
        mark_abandoned(session, game)
        assert game.status == FINISHED


def test_unknown_payload_versions_are_refused(sessions: sessionmaker[Session]) -> None:
    with sessions.begin() as session:
        game, state = _dealt_game(session)
        payload = encode_action(legal_actions(state)[0])
        session.add(
            GameAction(game_id=game.id, seq=1, seat=0, kind="pass", payload={**payload, "v": 2})
        )
        game.version = 2
    with sessions() as session:
        with pytest.raises(StoredDataError, match="unknown action payload version 2"):
            load_actions(session, game)
        assert encode_action(legal_actions(state)[0])["v"] == 1


def test_a_gap_in_the_log_is_refused(sessions: sessionmaker[Session]) -> None:
    with sessions.begin() as session:
        game, state = _dealt_game(session)
        payload = encode_action(legal_actions(state)[0])
        session.add(GameAction(game_id=game.id, seq=2, seat=0, kind="pass", payload=payload))
        game.version = 2
    with sessions() as session, pytest.raises(StoredDataError, match="missing"):
        load_actions(session, game)


def test_the_log_is_loaded_as_it_was_when_the_game_was_read(
    engine: Engine, sessions: sessionmaker[Session]
) -> None:
    """Actions another writer commits after the game row was read are not part of that game:
    neither later in the same read transaction (PostgreSQL reads at READ COMMITTED) nor in a
    later one (a retried decision reads the game, then its log)."""
    with sessions.begin() as session:
        game, state = _dealt_game(session)
        game_id, player_id = game.id, game.player_id
    readers = make_sessionmaker(reader(engine))
    with readers() as view:
        seen = get_game(view, game_id, player_id)
        assert seen is not None and seen.version == 1
        with sessions.begin() as session:
            locked = lock_game(session, game_id, player_id)
            assert locked is not None
            action = legal_actions(state)[0]
            append_actions(session, locked, [action], apply(state, action))
        assert len(load_actions(view, seen)) == 1
    with readers() as view:
        assert len(load_actions(view, seen)) == 1
        fresh = get_game(view, game_id, player_id)
        assert fresh is not None and fresh.version == 2
        assert load_actions(view, fresh)[1] == action


def test_players(sessions: sessionmaker[Session]) -> None:
    """A player is found by its token; finding it writes nothing; `mark_seen` records a visit."""
    long_ago = datetime(2020, 1, 1, tzinfo=UTC)
    with sessions.begin() as session:
        player = create_player(session, long_ago)
        token = player.id
        assert len(token) >= 22  # at least 128 bits of URL-safe base64
    with sessions.begin() as session:
        assert get_player(session, "not-a-token") is None
        assert get_player(session, "") is None
        assert get_player(session, token + "x" * 100) is None
        found = get_player(session, token)
        assert found is not None and found.id == token
    with sessions() as session:
        found = session.get_one(Player, token)
        assert found.last_seen_at == long_ago  # reading did not touch it
        assert found.last_seen_at.tzinfo is not None
        assert found.last_seen_at.utcoffset() == timedelta(0)
    with sessions.begin() as session:
        mark_seen(session, session.get_one(Player, token))
    with sessions() as session:
        found = session.get_one(Player, token)
        assert found.last_seen_at > datetime.now(UTC) - timedelta(minutes=1)
        assert found.created_at == long_ago
    with sessions.begin() as session:
        assert create_player(session).id != token


def test_create_game_validates_and_starts_empty(sessions: sessionmaker[Session]) -> None:
    with sessions.begin() as session:
        player = create_player(session)
        header = GameHeader(RuleOptions.standard(), first_dealer=2)
        with pytest.raises(ValueError, match="4 seats"):
            create_game(session, player, header, ["human", "easy"], 1, False)
        with pytest.raises(ValueError, match="seat kinds"):
            create_game(session, player, header, ["human", "easy", "godlike", "hard"], 1, False)
        game = create_game(session, player, header, ["human", "easy", "medium", "hard"], -7, True)
        game_id = game.id
    with sessions() as session:
        game = session.get_one(Game, game_id)
        assert game.game_header == header
        assert (game.status, game.version, game.hand_number) == (ACTIVE, 0, 0)
        assert (game.totals, game.winners, game.seed, game.fast_play) == ([0] * 4, [], -7, True)
        assert game.seats == ["human", "easy", "medium", "hard"]
        assert game.created_at.tzinfo is not None and game.finished_at is None
        assert load_actions(session, game) == []
