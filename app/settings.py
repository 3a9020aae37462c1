"""Settings read from the environment, in one place (the README lists every variable)."""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field

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
class Limits:
    """What one client may ask of one server process (README, "Production settings").

    Each field is read from `HEARTS_<FIELD>` (e.g. `HEARTS_MAX_BODY_BYTES`); the defaults are
    the production values. A rate is a `limits` string such as "20/second;300/minute" (every
    part applies); an empty rate is no limit."""

    max_header_bytes: int = 16 * 1024
    """Request headers larger than this (names and values) get 431."""
    max_body_bytes: int = 64 * 1024
    """Request bodies larger than this get 413 (our forms are under 4 KB)."""
    body_timeout: float = 10.0
    """Seconds a client has to send its whole body; then 408 and the connection is closed."""
    max_active_requests: int = 4
    """Requests in progress at once in this process (static files and /healthz not counted).
    Python runs one thread at a time, so more only share the CPU more thinly, and a request
    holding SQLite's write lock waits longer for the interpreter (500 players on two processes:
    card p95 149 ms at 10, 61 ms at 4, 54 ms at 2); keep it within the database connection
    pool."""
    queue_timeout: float = 0.8
    """Seconds a request may wait for a free place before it gets 503."""
    max_queued_requests: int = 64
    """Requests that may wait for a place at once; more get 503 at once."""
    busy_retry_after: int = 2
    """The `Retry-After` seconds of a 503."""
    rate_limits: bool = True
    """Apply the rates below (0 turns them all off)."""
    rate_session: str = "60/second;900/minute"
    """Requests per session cookie (static files not counted)."""
    rate_address: str = "100/second;3000/minute"
    """Requests per client address (static files not counted)."""
    rate_address_new_sessions: str = "20/minute;300/hour"
    """New anonymous players per client address."""
    rate_session_new_games: str = "10/minute;60/hour"
    """New games per session."""
    rate_address_new_games: str = "30/minute;300/hour"
    """New games per client address."""

    def __post_init__(self) -> None:
        for spec in dataclasses.fields(self):
            value = getattr(self, spec.name)
            if isinstance(value, int | float) and not isinstance(value, bool) and value <= 0:
                raise ValueError(f"{spec.name} must be positive, not {value}")

    @classmethod
    def from_env(cls) -> Limits:
        """The limits, each from `HEARTS_<FIELD>` when set."""
        values: dict[str, object] = {}
        for spec in dataclasses.fields(cls):
            raw = os.environ.get(f"HEARTS_{spec.name.upper()}")
            if raw is None:
                continue
            default = spec.default
            try:
                if isinstance(default, bool):
                    values[spec.name] = raw.strip().lower() not in ("0", "false", "no", "off")
                elif isinstance(default, int | float):
                    values[spec.name] = type(default)(raw.strip())
                else:
                    values[spec.name] = raw.strip()
            except ValueError as error:
                raise ValueError(f"HEARTS_{spec.name.upper()}={raw!r}: {error}") from None
        return cls(**values)  # type: ignore[arg-type]


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
    """Worker processes per server process for Hard's and Expert's thinking (0: think on the
    request thread)."""
    thinker_queue: int = 8
    """Hard and Expert decisions waiting or running at once per server process; past it, 503 at
    once."""
    thinker_chunk_s: float = 2.0
    """The most seconds Hard and Expert think for one response: past it, the response carries the
    actions decided so far and the page asks for the rest (the twenty Expert cards that may come
    between two of the player's at Cancellation-11 would otherwise pass the worker's time
    limit)."""
    retention_days: int = DEFAULT_RETENTION_DAYS
    """An anonymous browser idle this long is purged with its games (`python -m
    app.maintenance purge`); the session cookie lives this long after the last visit."""
    limits: Limits = field(default_factory=Limits)
    """Request size, time and rate limits."""

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
            thinker_chunk_s=_float("HEARTS_THINKER_CHUNK_S", 2.0),
            retention_days=_days("HEARTS_RETENTION_DAYS", DEFAULT_RETENTION_DAYS),
            limits=Limits.from_env(),
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
