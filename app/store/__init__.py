"""Persistence: SQLAlchemy models, the database engine and the repository functions.

Typical use (the services layer owns the transaction)::

    from app.store import make_engine, make_sessionmaker, database_url, repository, writer

    Session = make_sessionmaker(writer(make_engine(database_url())))
    with Session.begin() as session:
        game = repository.lock_game(session, game_id, player.id)
        ...
        repository.append_actions(session, game, actions, new_state)

The schema is created by Alembic (`alembic upgrade head`), never by the app at start-up.
"""

from app.store import repository, stats
from app.store.db import database_url, make_engine, make_sessionmaker, reader, writer
from app.store.models import (
    ABANDONED,
    ACTIVE,
    BOT_LEVELS,
    FINISHED,
    HUMAN,
    SEAT_KINDS,
    STATUSES,
    Base,
    Game,
    GameAction,
    GameSeat,
    HandResultRow,
    Player,
)
from app.store.repository import (
    PAYLOAD_VERSION,
    StoredDataError,
    abandon_game,
    active_game_id,
    append_actions,
    create_game,
    create_player,
    decode_action,
    encode_action,
    get_game,
    get_player,
    load_actions,
    lock_game,
    mark_abandoned,
    mark_seen,
)

__all__ = [
    "ABANDONED",
    "ACTIVE",
    "BOT_LEVELS",
    "FINISHED",
    "HUMAN",
    "PAYLOAD_VERSION",
    "SEAT_KINDS",
    "STATUSES",
    "Base",
    "Game",
    "GameAction",
    "GameSeat",
    "HandResultRow",
    "Player",
    "StoredDataError",
    "abandon_game",
    "active_game_id",
    "append_actions",
    "create_game",
    "create_player",
    "database_url",
    "decode_action",
    "encode_action",
    "get_game",
    "get_player",
    "load_actions",
    "lock_game",
    "make_engine",
    "make_sessionmaker",
    "mark_abandoned",
    "mark_seen",
    "reader",
    "repository",
    "stats",
    "writer",
]
