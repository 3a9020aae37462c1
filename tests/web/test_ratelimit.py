"""Rate limits: per session and per address over HTTP through the ASGI app, the checks the routes
make before creating players and games, the settings, and the lazily expiring counters."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.testclient import TestClient

from app.settings import Limits, Settings
from app.web.main import create_app
from app.web.rate_storage import LazyMemoryStorage
from app.web.ratelimit import RateLimits, refuse_new_game, refuse_new_session
from tests.store.conftest import migrate
from tests.web.conftest import BROWSER

HX = {"HX-Request": "true"}


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> str:
    """One migrated SQLite file for the module."""
    url = f"sqlite:///{tmp_path_factory.mktemp('ratelimit') / 'hearts.db'}"
    migrate(url)
    return url


def make_app(database: str, **limits: Any) -> FastAPI:
    """The real app with these limits, and two routes that create things as routes will."""
    app = create_app(Settings(database, secure_cookies=False, limits=Limits(**limits)))

    def new_session(request: Request) -> Response:
        return refuse_new_session(request) or PlainTextResponse("created")

    def new_game(request: Request) -> Response:
        return refuse_new_game(request) or PlainTextResponse("started")

    app.add_api_route("/test/new-session", new_session)
    app.add_api_route("/test/new-game", new_game)
    return app


@pytest.fixture
def app(database: str, steady_clock: None) -> Iterator[FastAPI]:
    """An app with small rates, as if a minute held only a few requests."""
    application = make_app(
        database,
        rate_session="5/minute",
        rate_address="8/minute",
        rate_address_new_sessions="2/minute",
        rate_session_new_games="2/minute",
        rate_address_new_games="3/minute",
    )
    yield application
    application.state.services.db.dispose()


def browser(
    app: FastAPI, session: str | None, address: str = "203.0.113.7", cookie: str = "hearts_session"
) -> TestClient:
    """A client at `address` carrying the session cookie `session` (none when None). Make one
    per request: today's app answers an unknown session with a new cookie, which a client
    would keep."""
    client = TestClient(app, client=(address, 40000), headers=BROWSER)
    if session is not None:
        client.cookies.set(cookie, session)
    return client


def test_a_session_over_its_rate_gets_429_and_other_sessions_do_not(app: FastAPI) -> None:
    def fast() -> TestClient:
        return browser(app, "a" * 43)

    assert [fast().get("/rules").status_code for _ in range(5)] == [200] * 5
    refused = fast().get("/rules")
    assert refused.status_code == 429
    assert 1 <= int(refused.headers["retry-after"]) <= 60
    assert "<h1>Too many requests</h1>" in refused.text
    assert f'<meta http-equiv="refresh" content="{refused.headers["retry-after"]}">' in (
        refused.text
    )
    fragment = fast().post("/language", headers=HX)
    assert fragment.status_code == 429
    assert fragment.text.startswith('<p class="message" role="alert" data-status="429"')
    assert "refresh" not in fragment.text
    # Static files are not counted; another browser at the same address is not held back.
    assert fast().get("/static/css/app.css").status_code == 200
    assert browser(app, "b" * 43).get("/rules").status_code == 200


def test_the_prefixed_cookie_is_the_session_too(app: FastAPI) -> None:
    statuses = [
        browser(app, "c" * 43, "203.0.113.8", "__Host-hearts_session").get("/rules").status_code
        for _ in range(6)
    ]
    assert statuses == [200] * 5 + [429]


def test_an_address_over_its_rate_gets_429_and_other_addresses_do_not(app: FastAPI) -> None:
    # Eight cookieless requests (each its own would-be session) use up the address's rate.
    statuses = [browser(app, None).get("/rules").status_code for _ in range(9)]
    assert statuses == [200] * 8 + [429]
    assert browser(app, "d" * 43).get("/rules").status_code == 429
    assert browser(app, None, address="198.51.100.1").get("/rules").status_code == 200


def test_an_address_creating_sessions_too_fast_is_refused(app: FastAPI) -> None:
    limits: RateLimits = app.state.rate_limits
    assert [limits.allow_new_session("192.0.2.1") for _ in range(3)] == [True, True, False]
    assert 1 <= limits.new_session_wait("192.0.2.1") <= 60
    assert limits.new_session_wait("192.0.2.2") == 0
    assert limits.allow_new_session("192.0.2.2")


def test_a_route_answers_429_for_a_session_it_may_not_create(app: FastAPI) -> None:
    statuses = [
        browser(app, None, "192.0.2.3").get("/test/new-session").status_code for _ in range(3)
    ]
    assert statuses == [200, 200, 429]
    refused = browser(app, None, "192.0.2.3").get("/test/new-session", headers=HX)
    assert refused.status_code == 429
    assert int(refused.headers["retry-after"]) >= 1
    assert 'data-status="429"' in refused.text
    assert browser(app, None, "192.0.2.4").get("/test/new-session").status_code == 200


def test_a_session_starting_games_too_fast_is_refused(app: FastAPI) -> None:
    limits: RateLimits = app.state.rate_limits
    assert [limits.allow_new_game("s1", "192.0.2.5") for _ in range(3)] == [True, True, False]
    assert limits.new_game_wait("s1", "192.0.2.5") >= 1
    # Another session at the same address still may, until the address's rate (3) is used.
    assert limits.allow_new_game("s2", "192.0.2.5")
    assert not limits.allow_new_game("s3", "192.0.2.5")
    assert limits.new_game_wait("s3", "192.0.2.5") >= 1
    assert limits.allow_new_game("s3", "192.0.2.6")
    assert limits.new_game_wait("s4", "192.0.2.7") == 0


def test_a_route_answers_429_for_a_game_it_may_not_start(app: FastAPI) -> None:
    statuses = [
        browser(app, "e" * 43, "192.0.2.8").get("/test/new-game").status_code for _ in range(3)
    ]
    assert statuses == [200, 200, 429]
    assert browser(app, "f" * 43, "192.0.2.8").get("/test/new-game").status_code == 200


def test_rate_limits_can_be_turned_off(database: str) -> None:
    app = make_app(database, rate_limits=False, rate_session="1/minute", rate_address="1/minute")
    assert [browser(app, "g" * 43).get("/rules").status_code for _ in range(3)] == [200] * 3
    limits: RateLimits = app.state.rate_limits
    assert all(limits.allow_new_session("192.0.2.9") for _ in range(30))
    assert all(limits.allow_new_game("s", "192.0.2.9") for _ in range(30))


def test_the_production_rates_let_a_fast_player_through(steady_clock: None) -> None:
    limits = RateLimits(Limits())
    # A person makes one request per decision, a few a second at the most; a burst of 60 in a
    # second (and 900 in a minute) is still allowed, a script at 100 a second is not.
    assert all(limits.request_wait("h" * 43, "192.0.2.10") == 0 for _ in range(60))
    assert limits.request_wait("h" * 43, "192.0.2.10") >= 1
    assert all(limits.allow_new_session("192.0.2.11") for _ in range(20))
    assert not limits.allow_new_session("192.0.2.11")
    assert all(limits.allow_new_game("s", "192.0.2.12") for _ in range(10))
    assert not limits.allow_new_game("s", "192.0.2.12")


def test_limits_are_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HEARTS_RATE_ADDRESS", "1000/second")
    monkeypatch.setenv("HEARTS_RATE_LIMITS", "0")
    monkeypatch.setenv("HEARTS_MAX_BODY_BYTES", "1000")
    monkeypatch.setenv("HEARTS_BODY_TIMEOUT", "2.5")
    limits = Settings.from_env().limits
    assert limits.rate_address == "1000/second"
    assert limits.rate_limits is False
    assert limits.max_body_bytes == 1000
    assert limits.body_timeout == 2.5
    assert limits.rate_session == Limits().rate_session
    monkeypatch.setenv("HEARTS_MAX_BODY_BYTES", "lots")
    with pytest.raises(ValueError, match="HEARTS_MAX_BODY_BYTES"):
        Limits.from_env()


def test_bad_limits_fail_at_start_up() -> None:
    with pytest.raises(ValueError, match="max_active_requests"):
        Limits(max_active_requests=0)
    with pytest.raises(ValueError):
        RateLimits(Limits(rate_session="often"))


def test_counters_expire_without_a_sweeping_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1_000_000.0]
    monkeypatch.setattr(time, "time", lambda: now[0])
    storage = LazyMemoryStorage()
    for n in range(1000):
        storage.incr(f"session-{n}", expiry=60)
    assert len(storage) == 1000
    assert storage.get("session-1") == 1
    now[0] += 61
    assert storage.get("session-1") == 0  # expired, whether or not dropped yet
    storage.incr("another", expiry=60)  # any write drops what has expired
    assert len(storage) == 1
    assert storage.incr("session-1", expiry=60) == 1  # a fresh counter
