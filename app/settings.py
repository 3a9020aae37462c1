"""Settings read from the environment, in one place."""

from __future__ import annotations

import os
from dataclasses import dataclass

from app.store.db import database_url


@dataclass(frozen=True, slots=True)
class Settings:
    """The app's settings."""

    database_url: str
    secure_cookies: bool
    """Send the session cookie with `Secure` (set when served over HTTPS)."""
    pause_scale: float = 1.0
    """Multiplies the pauses between computer cards (tests shorten them)."""

    @classmethod
    def from_env(cls) -> Settings:
        """Settings from `DATABASE_URL` and `HEARTS_SECURE_COOKIES`."""
        return cls(
            database_url=database_url(),
            secure_cookies=os.environ.get("HEARTS_SECURE_COOKIES", "") == "1",
            pause_scale=float(os.environ.get("HEARTS_PAUSE_SCALE", "1") or 1),
        )
