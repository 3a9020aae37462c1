""" "New game" on a finished game's panel starts one game, however often it is posted: a double
click, a retry or a second tab is sent to the game it started, and no game is abandoned by it."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

from sqlalchemy import select
from starlette.testclient import TestClient

from app.engine import RuleOptions
from app.store.models import Game
from tests.stats.history import play, store
from tests.web.conftest import BROWSER, new_player, sessions_of, start


def finished_game(client: TestClient) -> int:
    """A finished game stored for the client's browser (a new player)."""
    token = new_player(client)
    options = RuleOptions.standard()
    started = datetime(2026, 1, 10, tzinfo=UTC)
    return store(sessions_of(client), token, options, "easy", play(options, seed=3), started)


def games_by_status(client: TestClient) -> dict[int, str]:
    db = client.app.state.services.db  # type: ignore[attr-defined]
    with db.read() as session:
        rows = session.execute(select(Game.id, Game.status).order_by(Game.id)).all()
        return {row.id: row.status for row in rows}


def test_new_game_posted_twice_starts_one_game(client: TestClient) -> None:
    finished = finished_game(client)
    assert games_by_status(client) == {finished: "finished"}
    first = client.post(f"/games/{finished}/again", follow_redirects=False)
    second = client.post(f"/games/{finished}/again", follow_redirects=False)
    assert first.status_code == second.status_code == 303
    assert first.headers["location"] == second.headers["location"]
    new = int(first.headers["location"].rsplit("/", 1)[1])
    assert games_by_status(client) == {finished: "finished", new: "active"}


def test_new_game_posted_at_once_from_several_tabs_starts_one_game(client: TestClient) -> None:
    finished = finished_game(client)
    tabs = [TestClient(client.app, headers=BROWSER, cookies=client.cookies) for _ in range(4)]

    def post(tab: TestClient) -> str:
        response = tab.post(f"/games/{finished}/again", follow_redirects=False)
        assert response.status_code == 303
        return response.headers["location"]

    with ThreadPoolExecutor(len(tabs)) as pool:
        locations = set(pool.map(post, tabs))
    assert len(locations) == 1
    new = int(locations.pop().rsplit("/", 1)[1])
    assert games_by_status(client) == {finished: "finished", new: "active"}


def test_new_game_of_a_game_in_progress_shows_it_and_abandons_nothing(
    client: TestClient,
) -> None:
    game_id = start(client)
    response = client.post(f"/games/{game_id}/again", follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"] == f"/games/{game_id}"
    assert games_by_status(client) == {game_id: "active"}


def test_new_game_of_another_browsers_game_is_not_found(client: TestClient) -> None:
    finished = finished_game(client)
    other = TestClient(client.app, headers=BROWSER)
    start(other)
    before = games_by_status(client)
    assert other.post(f"/games/{finished}/again").status_code == 404
    assert games_by_status(client) == before


def test_new_games_started_at_once_leave_one_game_in_progress(client: TestClient) -> None:
    """Each start abandons the game in progress, even when several tabs start games at once."""
    start(client)
    tabs = [TestClient(client.app, headers=BROWSER, cookies=client.cookies) for _ in range(4)]

    def post(tab: TestClient) -> None:
        response = tab.post("/games", data={"level": "easy"}, follow_redirects=False)
        assert response.status_code == 303

    with ThreadPoolExecutor(len(tabs)) as pool:
        list(pool.map(post, tabs))
    statuses = list(games_by_status(client).values())
    assert len(statuses) == 5
    assert statuses.count("active") == 1
