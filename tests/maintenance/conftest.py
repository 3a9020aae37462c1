"""Fixtures for the maintenance tests: a freshly migrated database of each kind (SQLite and
PostgreSQL), as in the store tests."""

from __future__ import annotations

from tests.store.conftest import database_url, engine, sessions

__all__ = ["database_url", "engine", "sessions"]
