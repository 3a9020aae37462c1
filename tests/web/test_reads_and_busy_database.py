"""Reads never write and never wait for the write lock; a locked or unreachable database answers
503 with `Retry-After` (never 500), and `/healthz` says so.

On SQLite the lock is held by another connection's `BEGIN IMMEDIATE` (with a write pending); on
PostgreSQL by `LOCK TABLE … IN EXCLUSIVE MODE` on every table, which lets readers through and
blocks every writer.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import create_engine, func, select
from starlette.testclient import TestClient

from app.settings import Settings
from app.store.models import Game, GameAction, Player
from app.web.main import create_app
from tests.web.conftest import BROWSER, start, version_of

TABLES = ("players", "games", "game_actions", "game_seats", "hand_results")
HX = {"HX-Request": "true"}


@contextmanager
def writer_holding_the_lock(database_url: str) -> Iterator[None]:
    """Another connection holds the database's write lock until the block ends."""
    if database_url.startswith("sqlite"):
        conn = sqlite3.connect(database_url.removeprefix("sqlite:///"), isolation_level=None)
        try:
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("UPDATE players SET last_seen_at = last_seen_at")
            yield
            conn.execute("ROLLBACK")
        finally:
            conn.close()
        return
    engine = create_engine(database_url)
    try:
        with engine.connect() as locking:
            for table in TABLES:
                locking.exec_driver_sql(f"LOCK TABLE {table} IN EXCLUSIVE MODE")
            yield
            locking.rollback()
    finally:
        engine.dispose()


def counts(client: TestClient) -> tuple[object, ...]:
    db = client.app.state.services.db  # type: ignore[attr-defined]
    with db.read() as session:
        players = session.scalars(select(Player.last_seen_at).order_by(Player.id)).all()
        games = session.scalars(select(Game.version).order_by(Game.id)).all()
        actions = session.scalar(select(func.count()).select_from(GameAction))
    return tuple(players), tuple(games), actions


@pytest.fixture
def impatient(database_url: str) -> Iterator[TestClient]:
    """A client of an app that waits at most 300 ms for the write lock."""
    settings = Settings(
        database_url=database_url, secure_cookies=False, busy_timeout_ms=300, thinker_processes=0
    )
    with TestClient(create_app(settings), headers=BROWSER) as client:
        yield client


def test_pages_are_read_while_a_writer_holds_the_lock(
    impatient: TestClient, database_url: str
) -> None:
    client = impatient
    game_id = start(client)
    paths = [
        "/",
        f"/games/{game_id}",
        "/stats",
        "/history",
        f"/history/{game_id}",
        f"/history/{game_id}/hands/1",
        f"/history/{game_id}/game.json",
        f"/rules?game={game_id}",
        "/healthz",
    ]
    before = counts(client)
    with writer_holding_the_lock(database_url):
        for path in paths:  # a read that waited for the lock would give up after 300 ms: 503
            assert client.get(path).status_code == 200, path
        fresh = TestClient(client.app, headers=BROWSER)  # a browser the database does not know
        for path in ("/", "/stats", "/history", "/rules"):
            assert fresh.get(path).status_code == 200, path
        assert fresh.get(f"/games/{game_id}").status_code == 404
    assert counts(client) == before


def test_a_locked_database_answers_503_at_once_and_changes_nothing(
    impatient: TestClient, database_url: str
) -> None:
    client = impatient
    game_id = start(client)
    page = client.get(f"/games/{game_id}").text
    cards = page.split('name="cards" value="')[1:4]
    data = {"version": str(version_of(page)), "cards": [c[:2] for c in cards]}
    before = counts(client)
    with writer_holding_the_lock(database_url):
        started = time.monotonic()
        moved = client.post(f"/games/{game_id}/pass", data=data, headers=HX)
        created = client.post("/games", data={"level": "easy"}, follow_redirects=False)
        assert time.monotonic() - started < 5  # the lock is waited on for 300 ms each
    for response in (moved, created):
        assert response.status_code == 503
        assert int(response.headers["retry-after"]) >= 1
    assert counts(client) == before
    after = client.post(f"/games/{game_id}/pass", data=data, headers=HX)
    assert after.status_code == 200  # free again: the same move goes through


def test_healthz_fails_when_the_database_is_unusable(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'missing-dir' / 'hearts.db'}"
    settings = Settings(database_url=url, secure_cookies=False, thinker_processes=0)
    with TestClient(create_app(settings), headers=BROWSER) as client:
        assert client.get("/healthz").status_code == 503
        # A first visit's home page asks the database nothing; starting a game does.
        assert client.get("/").status_code == 200
        page = client.post("/games", data={"level": "easy"})
        assert page.status_code == 503
        assert page.headers["retry-after"]
        assert client.get("/stats").status_code == 503
