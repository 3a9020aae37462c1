"""Settings read from the environment, in one place (the README lists every variable)."""

from __future__ import annotations

import os
from dataclasses import dataclass

from app.store.db import database_url

DEFAULT_RETENTION_DAYS = 180
"""Days an idle anonymous browser and its games are kept (README, "Retention"); the session
cookie lives as long, so a purged player's cookie has already expired."""
MAX_RETENTION_DAYS = 400
"""Browsers cap a cookie's lifetime at 400 days (RFC 6265bis), so a longer retention period
could not match the cookie's."""


def _int(name: str, default: int) -> int:
    text = os.environ.get(name, "")
    return int(text) if text.strip() else default


def _float(name: str, default: float) -> float:
    text = os.environ.get(name, "")
    return float(text) if text.strip() else default


@dataclass(frozen=True, slots=True)
class Settings:
    """The app's settings; the defaults are the production ones."""

    database_url: str
    secure_cookies: bool
    """Served over HTTPS: the session cookie is `__Host-` prefixed and `Secure`, HSTS is sent."""
    pause_scale: float = 1.0
    """Multiplies the pauses between computer cards (tests shorten them)."""
    threads: int = 16
    """Request threads of a process; the database pool has as many connections, so a request
    never waits for a connection while it holds a thread."""
    pool_timeout_s: float = 2.0
    """The longest a request waits for a database connection before answering 503."""
    busy_timeout_ms: int = 2000
    """The longest a SQLite writer waits for the write lock before answering 503."""
    thinker_processes: int = 1
    """Worker processes per server process for Hard's thinking (0: think on the request
    thread)."""
    thinker_queue: int = 8
    """Hard decisions waiting or running at once per server process; past it, 503 at once."""
    retention_days: int = DEFAULT_RETENTION_DAYS
    """An anonymous browser idle this long is purged with its games (`python -m
    app.maintenance purge`); the session cookie lives this long after the last visit."""

    @classmethod
    def from_env(cls) -> Settings:
        """Settings from the environment (`DATABASE_URL`, `HEARTS_*`)."""
        return cls(
            database_url=database_url(),
            secure_cookies=os.environ.get("HEARTS_SECURE_COOKIES", "") == "1",
            pause_scale=_float("HEARTS_PAUSE_SCALE", 1.0),
            threads=_int("HEARTS_THREADS", 16),
            pool_timeout_s=_float("HEARTS_POOL_TIMEOUT_S", 2.0),
            busy_timeout_ms=_int("HEARTS_BUSY_TIMEOUT_MS", 2000),
            thinker_processes=_int("HEARTS_THINKER_PROCESSES", 1),
            thinker_queue=_int("HEARTS_THINKER_QUEUE", 8),
            retention_days=_days("HEARTS_RETENTION_DAYS", DEFAULT_RETENTION_DAYS),
        )

    @property
    def session_max_age(self) -> int:
        """The session cookie's max-age in seconds: the retention period."""
        return self.retention_days * 24 * 3600


def _days(name: str, default: int) -> int:
    """Env `name` as a number of days from 1 to `MAX_RETENTION_DAYS`; `default` when unset."""
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    days = int(text) if text.isascii() and text.isdigit() and len(text) <= 6 else 0
    if not 1 <= days <= MAX_RETENTION_DAYS:
        raise ValueError(f"{name}={text!r}: expected a number of days from 1 to 400")
    return days
