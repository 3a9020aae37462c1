"""The purge of idle players (`app.services.maintenance.purge`), with an injected clock, on SQLite
and PostgreSQL: who goes, that every row of theirs goes and nothing else does, that everyone
else's statistics and history are unchanged, batches, dry runs and a purge beside live writes."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import Engine, func, inspect, select, update
from sqlalchemy.orm import Session, sessionmaker

from app.services.database import Database
from app.services.history import history
from app.services.maintenance import purge
from app.services.players import Caller
from app.services.stats import Filters, statistics
from app.store import make_engine, make_sessionmaker, retention
from app.store.models import Game, GameAction, Player
from tests.maintenance.players import (
    Rows,
    add_player,
    add_real_games,
    add_small_game,
    orphans,
    rows_by_player,
    set_last_seen,
    table_counts,
)

NOW = datetime(2027, 3, 1, 12, 0, tzinfo=UTC)
"""The injected clock."""
IDLE_DAYS = 180
CUTOFF = NOW - timedelta(days=IDLE_DAYS)
TICK = timedelta(microseconds=1)


def populate(sessions: sessionmaker[Session]) -> tuple[list[str], list[str]]:
    """Players around the cutoff, with real and small games; (the ids to keep, to purge)."""
    # Kept: seen at or after the cutoff, or with a game updated at or after it.
    add_player(sessions, "active", NOW - timedelta(days=1))
    add_real_games(sessions, "active", NOW - timedelta(days=1), seed=1)
    set_last_seen(sessions, "active", NOW - timedelta(days=1))
    add_player(sessions, "seen-at-cutoff", CUTOFF)
    add_real_games(sessions, "seen-at-cutoff", CUTOFF - timedelta(days=30), seed=3)
    set_last_seen(sessions, "seen-at-cutoff", CUTOFF)
    add_player(sessions, "game-at-cutoff", NOW - timedelta(days=300))
    add_small_game(sessions, "game-at-cutoff", NOW - timedelta(days=300))
    add_small_game(sessions, "game-at-cutoff", CUTOFF)
    add_player(sessions, "game-recent", NOW - timedelta(days=200))
    add_small_game(sessions, "game-recent", NOW - timedelta(days=2))
    add_player(sessions, "clock-ahead", NOW + timedelta(hours=1))
    # Purged: seen before the cutoff, every game updated before it.
    add_player(sessions, "idle", CUTOFF - TICK)
    add_real_games(sessions, "idle", CUTOFF - TICK, seed=5)
    set_last_seen(sessions, "idle", CUTOFF - TICK)
    add_player(sessions, "long-idle", NOW - timedelta(days=400))
    add_real_games(sessions, "long-idle", NOW - timedelta(days=401), seed=7)
    set_last_seen(sessions, "long-idle", NOW - timedelta(days=400))
    add_player(sessions, "idle-no-games", CUTOFF - timedelta(days=1))
    keep = ["active", "seen-at-cutoff", "game-at-cutoff", "game-recent", "clock-ahead"]
    return keep, ["idle", "long-idle", "idle-no-games"]


def pages(sessions: sessionmaker[Session], player_ids: list[str]) -> dict[str, Any]:
    """Each player's statistics page and history page (unfiltered), as the site shows them."""
    shown: dict[str, Any] = {}
    db = Database(sessions.kw["bind"])
    for player_id in player_ids:
        with sessions() as session:
            assert session.get(Player, player_id) is not None
        caller = Caller(player_id)
        shown[player_id] = (
            statistics(db, caller, Filters()),
            statistics(db, caller, Filters(level="hard")),
            history(db, caller, Filters()),
        )
    return shown


def only(rows: Rows, players: list[str]) -> Rows:
    """The rows of these players."""
    return {
        table: {owner: r for owner, r in owned.items() if owner in players}
        for table, owned in rows.items()
    }


def total(rows: Rows, table: str) -> int:
    return sum(len(r) for r in rows[table].values())


def test_purge_removes_idle_players_with_every_row_and_keeps_everyone_else_unchanged(
    engine: Engine, sessions: sessionmaker[Session]
) -> None:
    keep, gone = populate(sessions)
    before = rows_by_player(sessions)
    shown = pages(sessions, keep)
    active_page = shown["active"][0]
    assert active_page.human.counts.played == 2 and active_page.human.hands.hands > 0

    report = purge(engine, now=NOW, idle_days=IDLE_DAYS, pause=0)

    removed = only(before, gone)
    assert (report.players, report.games) == (3, 4)
    assert report.cutoff == CUTOFF and not report.dry_run
    assert report.actions == total(removed, "game_actions") > 0
    assert report.seats == total(removed, "game_seats") == 16
    assert report.hand_results == total(removed, "hand_results") > 0
    after = rows_by_player(sessions)
    assert after == only(before, keep)
    assert table_counts(engine) == {table: total(after, table) for table in after}
    assert orphans(engine) == {}
    assert pages(sessions, keep) == shown


def test_purge_again_finds_nothing(engine: Engine, sessions: sessionmaker[Session]) -> None:
    add_player(sessions, "idle", CUTOFF - TICK)
    add_small_game(sessions, "idle", CUTOFF - TICK)
    first = purge(sessions, now=NOW, idle_days=IDLE_DAYS, pause=0)
    again = purge(sessions, now=NOW, idle_days=IDLE_DAYS, pause=0)
    assert (first.players, first.games, first.actions, first.hand_results) == (1, 1, 3, 4)
    assert (again.players, again.games, again.actions, again.batches) == (0, 0, 0, 0)
    # A day later, the player seen exactly at the cutoff goes too.
    add_player(sessions, "seen-at-cutoff", CUTOFF)
    later = purge(sessions, now=NOW + timedelta(days=1), idle_days=IDLE_DAYS, pause=0)
    assert later.players == 1
    assert table_counts(engine)["players"] == 0


def interleaved(sessions: sessionmaker[Session]) -> tuple[list[str], list[str]]:
    """14 players in id order, every third one active, with 1 to 4 small games each; (active
    ids, idle ids)."""
    active: list[str] = []
    idle: list[str] = []
    for i in range(14):
        player_id = f"player-{i:02d}"
        seen = NOW - timedelta(days=1) if i % 3 == 0 else CUTOFF - timedelta(days=i)
        add_player(sessions, player_id, seen)
        for game in range(i % 4 + 1):
            add_small_game(sessions, player_id, seen, actions=i + game)
        (active if i % 3 == 0 else idle).append(player_id)
    return active, idle


@pytest.mark.parametrize(("batch", "game_batch", "batches"), [(1, 1, 9), (4, 2, 3), (9, 50, 1)])
def test_purge_in_batches_removes_every_idle_player_past_the_batch_boundaries(
    engine: Engine, sessions: sessionmaker[Session], batch: int, game_batch: int, batches: int
) -> None:
    active, idle = interleaved(sessions)
    before = rows_by_player(sessions)

    report = purge(
        engine, now=NOW, idle_days=IDLE_DAYS, batch=batch, game_batch=game_batch, pause=0
    )

    gone = only(before, idle)
    assert (report.players, report.batches) == (len(idle), batches)
    assert report.games == total(gone, "games") == 22
    assert report.actions == total(gone, "game_actions")
    assert report.hand_results == total(gone, "hand_results")
    assert rows_by_player(sessions) == only(before, active)
    assert orphans(engine) == {}


def test_dry_run_counts_what_the_purge_removes_and_deletes_nothing(
    engine: Engine, sessions: sessionmaker[Session]
) -> None:
    interleaved(sessions)
    before = rows_by_player(sessions)

    dry = purge(engine, now=NOW, idle_days=IDLE_DAYS, batch=4, dry_run=True, pause=0)

    assert rows_by_player(sessions) == before
    real = purge(engine, now=NOW, idle_days=IDLE_DAYS, batch=4, game_batch=2, pause=0)
    assert dry.dry_run and not real.dry_run
    counts = ("players", "games", "actions", "seats", "hand_results", "batches", "cutoff")
    assert [getattr(dry, name) for name in counts] == [getattr(real, name) for name in counts]
    assert dry.players == 9


def test_deleting_checks_again_that_each_player_is_still_idle(
    sessions: sessionmaker[Session],
) -> None:
    for player_id in ("came-back", "played-again", "still-idle"):
        add_player(sessions, player_id, CUTOFF - timedelta(days=1))
        add_small_game(sessions, player_id, CUTOFF - timedelta(days=1))
        add_small_game(sessions, player_id, CUTOFF - timedelta(days=2))
    with sessions.begin() as session:
        found = retention.idle_players(session, CUTOFF, limit=10)
    assert found == ["came-back", "played-again", "still-idle"]
    # Between finding them and deleting them, two come back.
    set_last_seen(sessions, "came-back", NOW)
    with sessions.begin() as session:
        session.execute(update(Game).where(Game.player_id == "played-again").values(updated_at=NOW))

    with sessions.begin() as session:
        first = retention.delete_games(session, found, CUTOFF, limit=1)
    with sessions.begin() as session:
        players = retention.delete_players(session, found, CUTOFF)

    # The first game of a player still idle goes, not one of the players that came back.
    assert first == retention.Removed(games=1, actions=3, seats=4, hand_results=4)
    assert players == retention.Removed(players=1, games=1, actions=3, seats=4, hand_results=4)
    with sessions() as session:
        assert list(session.scalars(select(Player.id).order_by(Player.id))) == [
            "came-back",
            "played-again",
        ]
        assert session.scalar(select(func.count()).select_from(Game)) == 4


def test_every_table_that_points_at_a_player_or_a_game_is_purged(engine: Engine) -> None:
    """The live schema's foreign keys name exactly the tables the purge deletes from, so a new
    table that belongs to a game or a player cannot be forgotten (and left as orphans)."""
    referring: dict[str, set[str]] = {"players": set(), "games": set()}
    inspector = inspect(engine)
    for table in inspector.get_table_names():
        for fk in inspector.get_foreign_keys(table):
            referring.setdefault(fk["referred_table"], set()).add(table)
    assert referring["players"] == {m.__tablename__ for m in retention.PLAYER_CHILDREN}
    assert referring["games"] == {m.__tablename__ for m in retention.GAME_CHILDREN}
    assert set(referring) == {"players", "games"}


def test_purge_runs_beside_a_server_writing_to_the_database(
    database_url: str, engine: Engine, sessions: sessionmaker[Session]
) -> None:
    """Short transactions: a purge of one player per transaction and another connection's
    stream of game updates (a busy player's moves) both complete, each without an error."""
    for i in range(12):
        add_player(sessions, f"idle-{i:02d}", CUTOFF - timedelta(days=1))
        add_small_game(sessions, f"idle-{i:02d}", CUTOFF - timedelta(days=1))
    add_player(sessions, "busy", NOW)
    busy_game = add_small_game(sessions, "busy", NOW, actions=0)
    server = make_engine(database_url)
    server_sessions = make_sessionmaker(server)
    done = threading.Event()
    moves: list[int] = []
    errors: list[BaseException] = []

    def play_moves() -> None:
        try:
            while not done.is_set() or len(moves) < 3:
                with server_sessions.begin() as session:
                    seq = len(moves)
                    session.add(
                        GameAction(game_id=busy_game, seq=seq, seat=0, kind="play", payload={})
                    )
                    game = session.get(Game, busy_game)
                    assert game is not None
                    game.version = seq + 1
                moves.append(seq)
        except BaseException as err:
            errors.append(err)

    writer = threading.Thread(target=play_moves)
    writer.start()
    try:
        report = purge(engine, now=NOW, idle_days=IDLE_DAYS, batch=1, pause=0.001)
    finally:
        done.set()
        writer.join(timeout=30)
        server.dispose()

    assert errors == []
    assert (report.players, report.batches) == (12, 12)
    with sessions() as session:
        stored = session.scalar(select(func.count()).where(GameAction.game_id == busy_game))
        assert stored == len(moves) >= 3
        assert list(session.scalars(select(Player.id))) == ["busy"]


def test_purge_refuses_a_naive_clock_and_empty_periods(sessions: sessionmaker[Session]) -> None:
    with pytest.raises(ValueError, match="naive"):
        purge(sessions, now=datetime(2027, 3, 1), idle_days=IDLE_DAYS)
    with pytest.raises(ValueError, match="at least 1"):
        purge(sessions, now=NOW, idle_days=0)
    with pytest.raises(ValueError, match="at least 1"):
        purge(sessions, now=NOW, idle_days=IDLE_DAYS, batch=0)
    with pytest.raises(ValueError, match="at least 1"):
        purge(sessions, now=NOW, idle_days=IDLE_DAYS, game_batch=0)
