"""Players and games for the retention tests, with their last visit and game updates set to
chosen times, and snapshots of every row by the player it belongs to."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, Engine, func, inspect, select, update
from sqlalchemy.orm import Session, sessionmaker

from app.engine import GameHeader, RuleOptions
from app.store import repository
from app.store.models import Base, Game, GameAction, GameSeat, HandResultRow, Player
from tests.stats.history import in_hand, play, store

Rows = dict[str, dict[str, list[tuple[Any, ...]]]]
"""Table name → owning player id → the rows (sorted tuples of every column)."""


def add_player(sessions: sessionmaker[Session], player_id: str, last_seen: datetime) -> None:
    """A player with this id, last seen at `last_seen`."""
    with sessions.begin() as session:
        session.add(
            Player(id=player_id, created_at=last_seen - timedelta(days=1), last_seen_at=last_seen)
        )


def add_small_game(
    sessions: sessionmaker[Session], player_id: str, updated: datetime, *, actions: int = 3
) -> int:
    """A cheap game of the player (seats, a few log rows and one hand's results, not a real
    game), last updated at `updated`; its id."""
    with sessions.begin() as session:
        player = session.get(Player, player_id)
        assert player is not None
        options = RuleOptions.standard()
        game = repository.create_game(
            session, player, GameHeader(options), ["human", "easy", "easy", "easy"], 1, True
        )
        game.created_at = game.updated_at = updated
        for seq in range(actions):
            payload = {"v": 1, "action": {"type": "play"}}
            session.add(GameAction(game_id=game.id, seq=seq, seat=0, kind="play", payload=payload))
        for seat in range(4):
            session.add(
                HandResultRow(
                    game_id=game.id,
                    hand_number=1,
                    seat=seat,
                    level=game.seats[seat],
                    points=0,
                    total_after=0,
                    pass_direction="left",
                    shot_moon=False,
                    moon_suffered=False,
                    queens=0,
                    hearts=0,
                    bonus_cards=0,
                    tricks_won=0,
                )
            )
        return game.id


def add_real_games(
    sessions: sessionmaker[Session], player_id: str, updated: datetime, seed: int
) -> list[int]:
    """Two games played through the engine and stored as the services store them, with their
    hand results: a finished one and one abandoned in its second hand; both last updated at
    `updated`. Their ids."""
    options = RuleOptions.standard(target_score=50)
    finished = play(options, seed)
    abandoned = play(RuleOptions.standard(omnibus=True), seed + 1, stop=in_hand(2, 4))
    ids = [
        store(sessions, player_id, options, "medium", finished, updated - timedelta(days=2)),
        store(
            sessions,
            player_id,
            RuleOptions.standard(omnibus=True),
            "hard",
            abandoned,
            updated - timedelta(days=1),
            abandon=True,
        ),
    ]
    with sessions.begin() as session:
        session.execute(update(Game).where(Game.id.in_(ids)).values(updated_at=updated))
    return ids


def set_last_seen(sessions: sessionmaker[Session], player_id: str, last_seen: datetime) -> None:
    """Put the player's last visit at `last_seen` (storing games through the repository marks
    the player seen now)."""
    with sessions.begin() as session:
        session.execute(update(Player).where(Player.id == player_id).values(last_seen_at=last_seen))


def rows_by_player(sessions: sessionmaker[Session]) -> Rows:
    """Every row of the player-owned tables, by the player it belongs to."""
    owned: Rows = {}
    with sessions() as session:
        owned["players"] = _group(session.execute(select(Player.id, Player)))
        owned["games"] = _group(session.execute(select(Game.player_id, Game)))
        for model in (GameAction, GameSeat, HandResultRow):
            stmt = select(Game.player_id, model).join(Game, Game.id == model.game_id)
            owned[model.__tablename__] = _group(session.execute(stmt))
    return owned


def _group(result: Any) -> dict[str, list[tuple[Any, ...]]]:
    grouped: dict[str, list[tuple[Any, ...]]] = defaultdict(list)
    for owner, row in result:
        columns = row.__table__.columns.keys()
        grouped[owner].append(tuple(repr(getattr(row, name)) for name in columns))
    return {owner: sorted(rows) for owner, rows in grouped.items()}


def table_counts(engine: Engine) -> dict[str, int]:
    """The number of rows in every table of the schema."""
    with engine.connect() as conn:
        return {
            table.name: conn.scalar(select(func.count()).select_from(table)) or 0
            for table in Base.metadata.sorted_tables
        }


def orphans(engine: Engine) -> dict[str, int]:
    """For every foreign key of the live database, the rows whose parent row is missing (only
    the keys with any)."""
    found: dict[str, int] = {}
    with engine.connect() as conn:
        for table in Base.metadata.sorted_tables:
            for fk in inspect(conn).get_foreign_keys(table.name):
                missing = _count_orphans(conn, table.name, fk)
                if missing:
                    found[f"{table.name}.{fk['constrained_columns']}"] = missing
    return found


def _count_orphans(conn: Connection, table: str, fk: Any) -> int:
    child = Base.metadata.tables[table]
    parent = Base.metadata.tables[fk["referred_table"]]
    pairs = zip(fk["constrained_columns"], fk["referred_columns"], strict=True)
    link = [parent.c[p] == child.c[c] for c, p in pairs]
    has_parent = select(parent).where(*link).exists()
    return conn.scalar(select(func.count()).select_from(child).where(~has_parent)) or 0
