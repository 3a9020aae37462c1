"""Fixtures for the statistics tests: a fresh database of each kind (SQLite and PostgreSQL), the
app on it, and the prepared history of `tests/stats/history.py` for one player."""

from __future__ import annotations

import pytest
from sqlalchemy.orm import Session, sessionmaker
from starlette.testclient import TestClient

from app.store import repository
from tests.stats.history import History, prepare
from tests.store.conftest import database_url, engine, sessions
from tests.web.conftest import client, new_player, sessions_of

__all__ = ["client", "database_url", "engine", "sessions"]


@pytest.fixture
def player_id(sessions: sessionmaker[Session]) -> str:
    """A new player's id."""
    with sessions.begin() as session:
        return repository.create_player(session).id


@pytest.fixture
def history(sessions: sessionmaker[Session], player_id: str) -> History:
    """The prepared history, stored for `player_id`."""
    return prepare(sessions, player_id)


@pytest.fixture
def browser_history(client: TestClient) -> History:
    """The prepared history, stored for the test client's browser session."""
    return prepare(sessions_of(client), new_player(client))
