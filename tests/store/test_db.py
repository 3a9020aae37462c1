"""The database engine: `DATABASE_URL`, SQLite's pragmas, and write transactions that take the
lock at once while read transactions never wait for it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import OperationalError

from app.store import database_url, make_engine, writer
from tests.store.conftest import migrate


@pytest.fixture
def sqlite_engine(tmp_path: Path) -> Iterator[Engine]:
    url = f"sqlite:///{tmp_path / 'hearts.db'}"
    migrate(url)
    engine = make_engine(url)
    yield engine
    engine.dispose()


def test_database_url_default_and_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert database_url() == "sqlite:///hearts.db"
    monkeypatch.setenv("DATABASE_URL", "postgresql+psycopg://u@db/hearts")
    assert database_url() == "postgresql+psycopg://u@db/hearts"


def test_sqlite_pragmas(sqlite_engine: Engine) -> None:
    with sqlite_engine.connect() as conn:
        assert conn.scalar(text("PRAGMA foreign_keys")) == 1
        assert conn.scalar(text("PRAGMA journal_mode")) == "wal"
        assert conn.scalar(text("PRAGMA busy_timeout")) == 5000


def test_sqlite_write_transactions_take_the_write_lock_at_once(sqlite_engine: Engine) -> None:
    writes = writer(sqlite_engine)
    with writes.connect() as first, writes.connect() as second:
        first.execute(text("SELECT 1"))  # BEGIN IMMEDIATE: a read already holds the write lock
        raw = second.connection.dbapi_connection
        assert raw is not None
        raw.execute("PRAGMA busy_timeout=50")  # outside any transaction (autocommit driver)
        with pytest.raises(OperationalError, match="locked"):
            second.execute(text("SELECT 1"))
        second.rollback()
        first.rollback()
        second.execute(text("SELECT 1"))  # free again once the first transaction ends


def test_sqlite_readers_never_wait_for_the_writer(sqlite_engine: Engine) -> None:
    """While a writer holds the lock (and has written), a read transaction sees the last
    committed data at once."""
    with writer(sqlite_engine).connect() as writing, sqlite_engine.connect() as reading:
        writing.execute(
            text(
                "INSERT INTO players (id, created_at, last_seen_at) VALUES "
                "('p' || hex(randomblob(16)), '2026-01-01', '2026-01-01')"
            )
        )
        raw = reading.connection.dbapi_connection
        assert raw is not None
        raw.execute("PRAGMA busy_timeout=0")  # a reader that had to wait would fail at once
        assert reading.scalar(text("SELECT count(*) FROM players")) == 0
        writing.commit()
        reading.rollback()
        assert reading.scalar(text("SELECT count(*) FROM players")) == 1
