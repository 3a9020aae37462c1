"""The database engine: `DATABASE_URL`, SQLite's pragmas and serialised transactions.

SQLite (the default, a file in the working directory) gets a connect hook that turns on foreign
keys, WAL and a busy timeout, and every transaction starts with `BEGIN IMMEDIATE` (the pysqlite
recipe in SQLAlchemy's documentation): the first statement of a transaction already holds the
write lock, so a game's version check and its update can never interleave with another
request's. PostgreSQL (`postgresql+psycopg://…`) needs nothing special; the repository locks the
game row with `SELECT … FOR UPDATE` instead.
"""

from __future__ import annotations

import os
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session, sessionmaker

DEFAULT_DATABASE_URL = "sqlite:///hearts.db"
BUSY_TIMEOUT_MS = 5000


def database_url() -> str:
    """The database to use: env `DATABASE_URL`, else `hearts.db` in the working directory."""
    return os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL


def make_engine(url: str, *, foreign_keys: bool = True, **kwargs: Any) -> Engine:
    """An engine for `url`; SQLite connections get the pragmas and `BEGIN IMMEDIATE`.

    `foreign_keys=False` is for migrations only: SQLite's batch mode recreates tables, and
    dropping a parent table with foreign keys on would cascade into its children.
    Extra keyword arguments go to `create_engine`.
    """
    engine = create_engine(url, **kwargs)
    if engine.dialect.name == "sqlite":
        _configure_sqlite(engine, foreign_keys=foreign_keys)
    return engine


def make_sessionmaker(engine: Engine) -> sessionmaker[Session]:
    """Sessions bound to `engine`; objects stay readable after a commit."""
    return sessionmaker(bind=engine, expire_on_commit=False)


def _configure_sqlite(engine: Engine, *, foreign_keys: bool) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy, not the pysqlite driver, decide when transactions begin.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(f"PRAGMA foreign_keys={'ON' if foreign_keys else 'OFF'}")
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")
