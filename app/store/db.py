"""The database engine: `DATABASE_URL`, SQLite's pragmas, and read versus write transactions.

SQLite (the default, a file in the working directory) gets a connect hook that turns on foreign
keys, WAL and a busy timeout. A transaction opened on `writer(engine)` starts with
`BEGIN IMMEDIATE` (the pysqlite recipe in SQLAlchemy's documentation): its first statement
already holds the write lock, so a game's version check and its update can never interleave with
another request's. Every other transaction starts with a plain (deferred) `BEGIN`: in WAL mode a
reader sees a snapshot and never waits for, nor blocks, the writer. PostgreSQL
(`postgresql+psycopg://…`) needs nothing special for writes (the repository locks the game row
with `SELECT … FOR UPDATE`); its read transactions are marked read-only, so a page view that
tried to write would fail loudly instead of taking locks.

`synchronous=NORMAL` in WAL mode: a commit is durable once the process has written it (a crash
or `kill -9` of the server loses nothing), and only a power failure of the machine can lose the
last commits; it saves an fsync per move.
"""

from __future__ import annotations

import os
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session, sessionmaker

DEFAULT_DATABASE_URL = "sqlite:///hearts.db"
BUSY_TIMEOUT_MS = 5000
WRITE = "hearts_write"
"""The execution option that marks a writer's connections (`BEGIN IMMEDIATE` on SQLite)."""


def database_url() -> str:
    """The database to use: env `DATABASE_URL`, else `hearts.db` in the working directory."""
    return os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL


def make_engine(
    url: str, *, foreign_keys: bool = True, busy_timeout_ms: int = BUSY_TIMEOUT_MS, **kwargs: Any
) -> Engine:
    """An engine for `url`; SQLite connections get the pragmas.

    `foreign_keys=False` is for migrations only: SQLite's batch mode recreates tables, and
    dropping a parent table with foreign keys on would cascade into its children.
    `busy_timeout_ms` is how long a SQLite writer waits for the lock before giving up.
    Extra keyword arguments go to `create_engine`. Transactions on this engine are readers;
    `writer(engine)` gives the engine for writers.
    """
    engine = create_engine(url, **kwargs)
    if engine.dialect.name == "sqlite":
        _configure_sqlite(engine, foreign_keys=foreign_keys, busy_timeout_ms=busy_timeout_ms)
    return engine


def writer(engine: Engine) -> Engine:
    """The same engine (and pool) for transactions that write: `BEGIN IMMEDIATE` on SQLite."""
    return engine.execution_options(**{WRITE: True})


def reader(engine: Engine) -> Engine:
    """The same engine (and pool) for read-only transactions. On PostgreSQL they are marked
    read-only and see one snapshot (REPEATABLE READ), as SQLite's deferred transactions do, so a
    page of several queries never mixes data from before and after another request's commit."""
    if engine.dialect.name == "postgresql":
        return engine.execution_options(postgresql_readonly=True, isolation_level="REPEATABLE READ")
    return engine


def statement_reader(engine: Engine) -> Engine:
    """The same engine (and pool) for reads whose statements need no common snapshot (a move's
    read of a game row, then of the log below its version, which never changes once written).
    On PostgreSQL they run in autocommit, each statement on its own: no `BEGIN` and `ROLLBACK`
    round trips. On SQLite, `reader`'s deferred transactions cost nothing of the kind."""
    if engine.dialect.name == "postgresql":
        return engine.execution_options(isolation_level="AUTOCOMMIT")
    return reader(engine)


def statement_writer(engine: Engine) -> Engine:
    """The same engine (and pool) for writes that are each one atomic statement: on PostgreSQL
    in autocommit, on SQLite `writer`'s transactions."""
    if engine.dialect.name == "postgresql":
        return engine.execution_options(isolation_level="AUTOCOMMIT")
    return writer(engine)


def make_sessionmaker(engine: Engine) -> sessionmaker[Session]:
    """Sessions bound to `engine`; objects stay readable after a commit."""
    return sessionmaker(bind=engine, expire_on_commit=False)


def _configure_sqlite(engine: Engine, *, foreign_keys: bool, busy_timeout_ms: int) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy, not the pysqlite driver, decide when transactions begin.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(f"PRAGMA foreign_keys={'ON' if foreign_keys else 'OFF'}")
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        write = connection.get_execution_options().get(WRITE, False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")
