"""Fixtures for HTTP tests: the real app on a freshly migrated database (SQLite and PostgreSQL)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest
from sqlalchemy.orm import Session, sessionmaker
from starlette.testclient import TestClient

from app.engine import GameHeader, GameState, replay
from app.engine.fairdeal import hand_key
from app.settings import Limits, Settings
from app.store import make_sessionmaker, repository, writer
from app.store.models import Game
from app.web.main import create_app
from tests.store.conftest import database_url

__all__ = ["database_url"]


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    """A browser-like client of a new app on the test database (HTTP through the ASGI app)."""
    # No rate limits: these tests play faster than any person (tests/web/test_guard.py has them).
    limits = Limits(rate_limits=False)
    settings = Settings(
        database_url=database_url, secure_cookies=False, thinker_processes=0, limits=limits
    )
    app = create_app(settings)
    with TestClient(app, base_url="http://testserver", headers=BROWSER) as test_client:
        yield test_client


@pytest.fixture
def steady_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hold the wall clock in the middle of a minute. The rate limiter's windows start at
    whole minutes, and a hit in the next window weighs the previous one's hits at less than
    one, so a test counting hits against a per-minute rate must not cross a window's start."""
    now = time.time()
    middle = now - now % 60 + 30
    monkeypatch.setattr(time, "time", lambda: middle)


BROWSER = {"Origin": "http://testserver"}
"""What every browser sends with a form post (the cross-site check refuses a post without it)."""


def game_state(client: TestClient, game_id: int) -> GameState:
    """The full stored state of a game, read straight from the database (for assertions)."""
    db = client.app.state.services.db  # type: ignore[attr-defined]
    with db.read() as session:
        game = session.get(Game, game_id)
        assert game is not None
        return replay(GameHeader.from_json(game.header), repository.load_actions(session, game))


def deal_secret(client: TestClient, game_id: int) -> str | None:
    """A game's stored deal secret (hex), read straight from the database."""
    db = client.app.state.services.db  # type: ignore[attr-defined]
    with db.read() as session:
        game = session.get(Game, game_id)
        assert game is not None
        secret: str | None = game.deal_secret
        return secret


def assert_no_unrevealed_key(text: str, secret: str | None, state: GameState) -> None:
    """Neither the game's secret (before the game is over) nor the key of a hand not yet scored
    (nor of the next few) appears in `text`, in any case of hex."""
    if secret is None:
        return
    lowered = text.lower()
    if not state.is_over:
        assert secret not in lowered, "the game's secret leaked"
    scored = len(state.results)
    for number in range(scored + 1, scored + 4):
        key = hand_key(bytes.fromhex(secret), number).hex()
        assert key not in lowered, f"the key of hand {number} leaked"


def sessions_of(client: TestClient) -> sessionmaker[Session]:
    """Write sessions on the app's database (for tests that store games directly)."""
    db = client.app.state.services.db  # type: ignore[attr-defined]
    return make_sessionmaker(writer(db.engine))


def new_player(client: TestClient) -> str:
    """A player stored for the client's browser (its session cookie set), with no game yet."""
    with sessions_of(client).begin() as session:
        token = repository.create_player(session).id
    client.cookies.set("hearts_session", token)
    return token


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
