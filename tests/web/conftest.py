"""Fixtures for HTTP tests: the real app on a freshly migrated database (SQLite and PostgreSQL)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from app.engine import GameHeader, GameState, replay
from app.settings import Limits, Settings
from app.store import repository
from app.store.models import Game
from app.web.main import create_app
from tests.store.conftest import database_url

__all__ = ["database_url"]


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    """A browser-like client of a new app on the test database (HTTP through the ASGI app)."""
    # No rate limits: these tests play faster than any person (tests/web/test_guard.py has them).
    limits = Limits(rate_limits=False)
    app = create_app(Settings(database_url=database_url, secure_cookies=False, limits=limits))
    with TestClient(app, base_url="http://testserver") as test_client:
        yield test_client
    app.state.engine.dispose()


def game_state(client: TestClient, game_id: int) -> GameState:
    """The full stored state of a game, read straight from the database (for assertions)."""
    sessions = client.app.state.sessionmaker  # type: ignore[attr-defined]
    with sessions() as session:
        game = session.get(Game, game_id)
        assert game is not None
        return replay(GameHeader.from_json(game.header), repository.load_actions(session, game))


def version_of(html: str) -> int:
    """The version the page's forms carry."""
    found = re.search(r'name="version" value="(\d+)"', html)
    assert found is not None, "no versioned form on the page"
    return int(found.group(1))


def start(client: TestClient, level: str = "easy", fast: bool = True) -> int:
    """Start a game through the new-game form; return its id."""
    data = {"level": level}
    if fast:
        data["fast_play"] = "on"
    response = client.post("/games", data=data, follow_redirects=False)
    assert response.status_code == 303
    location = response.headers["location"]
    assert location.startswith("/games/")
    return int(location.rsplit("/", 1)[1])
