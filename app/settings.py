"""Settings read from the environment, in one place."""

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


@dataclass(frozen=True, slots=True)
class Settings:
    """The app's settings."""

    database_url: str
    secure_cookies: bool
    """Send the session cookie with `Secure` (set when served over HTTPS)."""
    pause_scale: float = 1.0
    """Multiplies the pauses between computer cards (tests shorten them)."""
    retention_days: int = DEFAULT_RETENTION_DAYS
    """Players idle longer are purged (`python -m app.maintenance purge`); the cookie's lifetime."""

    @classmethod
    def from_env(cls) -> Settings:
        """Settings from `DATABASE_URL` and `HEARTS_SECURE_COOKIES`."""
        return cls(
            database_url=database_url(),
            secure_cookies=os.environ.get("HEARTS_SECURE_COOKIES", "") == "1",
            pause_scale=float(os.environ.get("HEARTS_PAUSE_SCALE", "1") or 1),
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
