"""The database as the use cases see it: short read and write transactions, and a busy database
turned into one clear error.

Reads (pages, statistics, history) run in read transactions: deferred on SQLite, so in WAL mode
they neither wait for nor block the writer, and read-only on PostgreSQL. Writes run in short
transactions that take SQLite's write lock at once (`BEGIN IMMEDIATE`) and commit at the end;
the use cases do their thinking (replays, the computer players) before they open one, so the
lock is held for the append only.

The connection pool is sized with the request threads (`pool_size` = the threads that can use a
connection at once, no overflow) and waits at most `pool_timeout` seconds; a locked SQLite file
is waited on for `busy_timeout_ms`. Past either, or when the server cannot be reached, the use
case raises `ServiceUnavailableError` and the page answers 503 with `Retry-After` instead of a
traceback.
"""

from __future__ import annotations

import fcntl
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, Engine, text
from sqlalchemy import exc as sa_exc
from sqlalchemy.orm import Session

from app.store.db import make_engine, reader, statement_reader, statement_writer, writer

RETRY_AFTER_S = 1
"""What a busy answer tells the browser to wait before it retries (seconds)."""


class ServiceUnavailableError(Exception):
    """The database (or the computer players' thinking) is busy or unreachable: try again."""

    def __init__(self, reason: str, retry_after: int = RETRY_AFTER_S) -> None:
        super().__init__(reason)
        self.retry_after = retry_after


_UNAVAILABLE = (sa_exc.OperationalError, sa_exc.InterfaceError, sa_exc.TimeoutError)
"""Errors of a database that is locked, busy, gone or out of connections (not of our SQL)."""


@contextmanager
def _translated() -> Iterator[None]:
    """Turn a locked, busy or unreachable database into `ServiceUnavailableError`."""
    try:
        yield
    except _UNAVAILABLE as err:
        raise ServiceUnavailableError(f"database unavailable: {type(err).__name__}") from err


class FileWriteLock:
    """An exclusive lock on a file that the server processes take turns on (`flock`).

    The file is opened once per process and kept open, so a turn costs two system calls (about
    2 µs; opening the file for each turn, as general-purpose lock libraries do, cost 0.26 ms of
    CPU per write). A lock held by another process is polled every millisecond until the
    timeout. Not for threads of one process: they queue on a thread lock first (`Database`).
    """

    POLL_S = 0.001

    def __init__(self, path: str) -> None:
        self.path = path
        self._fd: int | None = None
        self._pid = 0

    def _descriptor(self) -> int:
        if self._fd is None or self._pid != os.getpid():  # a forked child opens its own
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            self._pid = os.getpid()
        return self._fd

    def acquire(self, timeout: float) -> bool:
        """Take the lock within `timeout` seconds; whether it was taken. `OSError` if the file
        cannot be opened."""
        fd = self._descriptor()
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return True
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    return False
                time.sleep(self.POLL_S)

    def release(self) -> None:
        """Let the next process in."""
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)


class Database:
    """One database: its engine, and read and write transactions on it.

    On SQLite, writers queue on locks of their own before they ask for the file's: SQLite's busy
    handler retries by sleeping (10, 25, then 100 ms a time), so writers that met at the file
    would each wait far longer than the millisecond or two a write takes. The writers of one
    process queue on a thread lock, which hands over at once; the server processes on one file
    then take turns on a lock file beside it (`hearts.db.lock`), polled every millisecond.
    """

    def __init__(self, engine: Engine, *, lock_timeout_s: float = 2.0) -> None:
        self.engine = engine
        self._reader = reader(engine)
        self._statement_reader = statement_reader(engine)
        self._writer = writer(engine)
        self._statement_writer = statement_writer(engine)
        sqlite = engine.dialect.name == "sqlite"
        self._write_lock = threading.Lock() if sqlite else None
        path = engine.url.database if sqlite else None
        self._file_lock = FileWriteLock(f"{path}.lock") if path and path != ":memory:" else None
        self._lock_timeout_s = lock_timeout_s

    @classmethod
    def connect(
        cls,
        url: str,
        *,
        pool_size: int = 5,
        pool_timeout: float = 2.0,
        busy_timeout_ms: int = 2000,
        statement_timeout_ms: int = 5000,
    ) -> Database:
        """A database for `url` with a pool of `pool_size` connections and no overflow."""
        kwargs: dict[str, Any] = {
            "pool_size": pool_size,
            "max_overflow": 0,
            "pool_timeout": pool_timeout,
            "pool_pre_ping": False,
        }
        if url.startswith("postgresql"):
            # A statement (or a row lock) never waits longer than a request may take.
            kwargs["connect_args"] = {
                "options": f"-c statement_timeout={statement_timeout_ms}"
                f" -c lock_timeout={min(statement_timeout_ms, busy_timeout_ms)}",
                "connect_timeout": max(1, round(pool_timeout)),
            }
        engine = make_engine(url, busy_timeout_ms=busy_timeout_ms, **kwargs)
        return cls(engine, lock_timeout_s=busy_timeout_ms / 1000)

    @contextmanager
    def read(self) -> Iterator[Session]:
        """A read transaction (never takes the write lock); nothing it does is committed: the
        connection's transaction is rolled back as it returns to the pool, and the objects read
        stay readable (closing a session detaches them without expiring them)."""
        with _translated(), Session(bind=self._reader, expire_on_commit=False) as session:
            yield session

    @contextmanager
    def write(self) -> Iterator[Session]:
        """A write transaction, committed when the block ends without an error."""
        session = Session(bind=self._writer, expire_on_commit=False)
        with self._writing(), session, session.begin():
            yield session

    @contextmanager
    def reading(self) -> Iterator[Connection]:
        """Reads on a Core connection, for a move's path (no ORM session to set up), whose
        statements need not share a snapshot: on PostgreSQL each runs on its own (autocommit,
        no `BEGIN` and `ROLLBACK` round trips); on SQLite in a deferred transaction."""
        with _translated(), self._statement_reader.connect() as connection:
            yield connection

    @contextmanager
    def writing(self) -> Iterator[Connection]:
        """`write` on a Core connection, for a move's path."""
        with self._writing(), self._writer.begin() as connection:
            yield connection

    @contextmanager
    def writing_statements(self) -> Iterator[Connection]:
        """Writes each of which is one statement, atomic on its own (a move's path): on
        PostgreSQL each is its own transaction (autocommit, no `BEGIN` and `COMMIT` round
        trips); on SQLite they run in one write transaction, as in `writing`."""
        with self._writing(), self._statement_writer.begin() as connection:
            yield connection

    @contextmanager
    def _writing(self) -> Iterator[None]:
        lock = self._write_lock
        if lock is None:
            with _translated():
                yield
            return
        started = time.monotonic()
        if not lock.acquire(timeout=self._lock_timeout_s):
            raise ServiceUnavailableError("database busy: too many writers waiting")
        try:
            if self._file_lock is not None:
                left = max(0.0, self._lock_timeout_s - (time.monotonic() - started))
                try:
                    taken = self._file_lock.acquire(timeout=left)
                except OSError as err:
                    raise ServiceUnavailableError(f"database unavailable: {err}") from err
                if not taken:
                    raise ServiceUnavailableError("database busy: another process writes")
            try:
                with _translated():
                    yield
            finally:
                if self._file_lock is not None:
                    self._file_lock.release()
        finally:
            lock.release()

    def ping(self) -> None:
        """Raise `ServiceUnavailableError` unless the database answers a query now."""
        with self.read() as session:
            session.execute(text("SELECT 1 FROM games WHERE 1 = 0")).all()

    def dispose(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()
