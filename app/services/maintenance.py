"""Maintenance use cases: purge the anonymous players idle longer than the retention period.

The purge runs on a database in use by a live server, so it never holds a transaction for long:
it walks the idle players in batches: one short transaction finds a batch, a few more delete
their games a few dozen at a time (a game's action log is hundreds of rows), and a last one
deletes the players (`app.store.retention`). A short pause after each batch of games lets the
requests waiting for SQLite's write lock get it before the purge takes it again. The clock is
injected (`now`), so tests can put players at any age.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from app.store import make_sessionmaker, retention, writer

DEFAULT_BATCH = 500
"""Players found, and deleted once their games are, per batch (one transaction each)."""
DEFAULT_GAME_BATCH = 10
"""Games deleted per transaction, with their action logs (`bench.purge`: about 1 ms per game of
four players on SQLite, so some 50 ms per transaction)."""
DEFAULT_PAUSE = 0.1
"""Seconds between batches: SQLite's busy handler sleeps up to 100 ms between attempts, so a
request waiting for the write lock wakes up within this pause and gets in before the next batch."""


@dataclass(frozen=True, slots=True)
class PurgeReport:
    """What a purge removed (or, in a dry run, would remove)."""

    cutoff: datetime
    """Players last seen before this time, with no game updated since, were idle."""
    dry_run: bool
    players: int = 0
    games: int = 0
    actions: int = 0
    seats: int = 0
    hand_results: int = 0
    batches: int = 0
    """Batches of idle players found (of up to `batch` players each)."""
    longest_transaction: float = 0.0
    """Seconds the longest of the purge's transactions lasted, from its start (once it had any
    lock it waited for) to its commit."""


def purge(
    database: Engine | sessionmaker[Session],
    *,
    now: datetime,
    idle_days: int,
    batch: int = DEFAULT_BATCH,
    dry_run: bool = False,
    game_batch: int = DEFAULT_GAME_BATCH,
    pause: float = DEFAULT_PAUSE,
) -> PurgeReport:
    """Delete every player idle for more than `idle_days` days at `now` (last seen before
    `now - idle_days`, and no game of theirs updated since), with all their games: `batch`
    players at a time, their games `game_batch` per transaction, then the players in one;
    `pause` seconds between transactions. `dry_run` only counts what would go.
    """
    if now.tzinfo is None:
        raise ValueError(f"naive datetime {now!r}: pass a timezone-aware time")
    if min(idle_days, batch, game_batch) < 1:
        raise ValueError("idle_days, batch and game_batch must be at least 1")
    sessions = make_sessionmaker(writer(database)) if isinstance(database, Engine) else database
    transactions = _Timed(sessions)
    cutoff = now - timedelta(days=idle_days)
    removed = retention.Removed()
    batches = 0
    after: str | None = None
    while True:
        with transactions.begin() as session:
            ids = retention.idle_players(session, cutoff, limit=batch, after=after)
        if not ids:
            break
        if dry_run:
            with transactions.begin() as session:
                removed += retention.count_rows(session, ids)
        else:
            removed += _delete_batch(transactions, ids, cutoff, game_batch, pause)
        batches += 1
        if len(ids) < batch:
            break
        after = ids[-1]
        time.sleep(pause)
    return PurgeReport(
        cutoff=cutoff,
        dry_run=dry_run,
        players=removed.players,
        games=removed.games,
        actions=removed.actions,
        seats=removed.seats,
        hand_results=removed.hand_results,
        batches=batches,
        longest_transaction=transactions.longest,
    )


def _delete_batch(
    transactions: _Timed, ids: list[str], cutoff: datetime, game_batch: int, pause: float
) -> retention.Removed:
    """Delete these players if still idle: their games a few at a time, then the players."""
    removed = retention.Removed()
    while True:
        with transactions.begin() as session:
            chunk = retention.delete_games(session, ids, cutoff, limit=game_batch)
        removed += chunk
        if chunk.games < game_batch:
            break
        time.sleep(pause)
    with transactions.begin() as session:
        removed += retention.delete_players(session, ids, cutoff)
    return removed


class _Timed:
    """Transactions of a session factory, each timed from its start to its commit."""

    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self.sessions = sessions
        self.longest = 0.0
        """Seconds the longest transaction so far lasted."""

    @contextmanager
    def begin(self) -> Iterator[Session]:
        """A new transaction, committed at the end of the block."""
        with self.sessions.begin() as session:
            # Begin now, so that the time spent waiting for SQLite's write lock
            # (`BEGIN IMMEDIATE`) is not counted as time spent holding it.
            session.connection()
            started = time.perf_counter()
            yield session
        self.longest = max(self.longest, time.perf_counter() - started)
