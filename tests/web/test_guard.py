"""The request guard over HTTP through the ASGI app: 413, 431, admission control (503), and the
refusal pages and fragments.

The socket-level cases (slow and short bodies, a chunked body cut off by 413, uvicorn's own
limits) are in `test_server_limits.py`; the rate limits in `test_ratelimit.py`.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import httpx2
import pytest
from anyio.from_thread import start_blocking_portal
from fastapi import FastAPI
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.testclient import TestClient

from app.settings import Limits, Settings
from app.web.guard import BODY, AdmissionGate, busy_response, refusal, stepping_aside
from app.web.main import create_app
from tests.store.conftest import migrate
from tests.web.conftest import BROWSER

HX = {"HX-Request": "true"}
SAME_ORIGIN = {"Sec-Fetch-Site": "same-origin"}
FORM = {"Content-Type": "application/x-www-form-urlencoded", **SAME_ORIGIN}


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> str:
    """One migrated SQLite file for the module (the guard never reaches the database)."""
    url = f"sqlite:///{tmp_path_factory.mktemp('guard') / 'hearts.db'}"
    migrate(url)
    return url


def make_app(database: str, secure_cookies: bool = False, **limits: Any) -> FastAPI:
    """The real app with these limits (rate limits off unless asked for)."""
    limits.setdefault("rate_limits", False)
    settings = Settings(database, secure_cookies, thinker_processes=0, limits=Limits(**limits))
    return create_app(settings)


@pytest.fixture
def client(database: str) -> Iterator[TestClient]:
    """A client of the app with the production size limits."""
    app = make_app(database)
    with TestClient(app, headers=BROWSER) as test_client:
        yield test_client
    app.state.services.db.dispose()


def test_a_body_over_the_limit_by_content_length_gets_413_and_a_page(client: TestClient) -> None:
    response = client.post("/games", content=b"level=easy&" + b"x" * 70_000, headers=FORM)
    assert response.status_code == 413
    assert response.headers["connection"] == "close"
    assert "<h1>Request too large</h1>" in response.text
    assert 'data-status="413"' in response.text
    assert "Content-Security-Policy" in response.headers
    assert "hearts_session" not in response.headers.get("set-cookie", "")  # no player made


def test_a_chunked_body_over_the_limit_gets_413(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b"level=easy&"
        for _ in range(10):
            yield b"x" * 8_000

    response = client.post("/games", content=chunks(), headers=FORM)
    assert response.request.headers["transfer-encoding"] == "chunked"
    assert response.status_code == 413


def test_a_chunked_body_within_the_limit_reaches_the_route(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b"lang=uk&"
        yield b"next=/rules"

    response = client.post("/language", content=chunks(), headers=FORM, follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"] == "/rules"
    assert "hearts_lang=uk" in response.headers["set-cookie"]


def test_a_body_exactly_at_the_limit_is_read(database: str) -> None:
    app = make_app(database, max_body_bytes=100)
    body = b"lang=ru&next=/&pad=" + b"x" * 81
    assert len(body) == 100
    with TestClient(app, headers=BROWSER) as client:
        ok = client.post("/language", content=body, headers=FORM, follow_redirects=False)
        over = client.post("/language", content=body + b"x", headers=FORM)
    assert ok.status_code == 303
    assert over.status_code == 413


def test_headers_over_the_limit_get_431(client: TestClient) -> None:
    assert client.get("/rules", headers={"X-Padding": "a" * 15_000}).status_code == 200
    response = client.get("/rules", headers={"X-Padding": "a" * 17_000})
    assert response.status_code == 431
    assert response.headers["connection"] == "close"
    assert "<h1>Request headers too large</h1>" in response.text
    cookies = client.get(
        "/rules", headers={"Cookie": "; ".join(f"c{i}={'v' * 500}" for i in range(40))}
    )
    assert cookies.status_code == 431


def test_an_htmx_request_gets_a_fragment_not_a_page(client: TestClient) -> None:
    response = client.post(
        "/games", content=b"x" * 70_000, headers={**FORM, **HX, "Accept-Language": "sr"}
    )
    assert response.status_code == 413
    assert response.text.startswith('<p class="message" role="alert" data-status="413">')
    assert "<html" not in response.text and "<h1>" not in response.text
    assert "Образац који сте послали" in response.text  # Serbian
    assert response.headers["content-language"] == "sr"


@pytest.mark.parametrize(
    ("language", "title"),
    [
        ("uk", "Завеликий запит"),
        ("ru", "Слишком большой запрос"),
        ("sr", "Захтев је превелик"),
        ("en", "Request too large"),
    ],
)
def test_refusal_pages_speak_the_visitors_language(
    client: TestClient, language: str, title: str
) -> None:
    response = client.post(
        "/games", content=b"x" * 70_000, headers={**FORM, "Accept-Language": language}
    )
    assert f"<h1>{title}</h1>" in response.text
    assert f'<html lang="{language}">' in response.text


def busy_app(database: str) -> FastAPI:
    """The app with two routes that answer busy, as a route does for a locked database."""
    app = make_app(database)

    def busy_page(request: Request) -> Response:
        return busy_response(request, 503, 7)

    def too_many(request: Request) -> Response:
        return busy_response(request, 429, 3)

    app.add_api_route("/test/busy", busy_page, methods=["GET", "POST"])
    app.add_api_route("/test/too-many", too_many, methods=["GET"])
    return app


def test_busy_response_get_page_refreshes_itself_after_retry_after(database: str) -> None:
    with TestClient(busy_app(database), headers=BROWSER) as client:
        response = client.get("/test/busy?x=1")
        too_many = client.get("/test/too-many")
    assert response.status_code == 503
    assert response.headers["retry-after"] == "7"
    assert response.headers["cache-control"] == "no-store"
    assert '<meta http-equiv="refresh" content="7">' in response.text
    assert "This page will try again in 7 seconds." in response.text
    assert '<a class="button" href="">Try again</a>' in response.text  # this very page
    assert too_many.status_code == 429
    assert too_many.headers["retry-after"] == "3"
    assert '<meta http-equiv="refresh" content="3">' in too_many.text
    assert "<h1>Too many requests</h1>" in too_many.text


def test_a_refused_form_post_comes_back_as_the_same_form_posted_again_after_retry_after(
    database: str,
) -> None:
    body = "level=hard&name=%3Cb%3E%22x%22&name=&fast_play=on"
    with TestClient(busy_app(database), headers=BROWSER) as client:
        page = client.post("/test/busy?from=home", content=body, headers=FORM)
        fragment = client.post("/test/busy", content=body, headers={**FORM, **HX})
    assert page.status_code == 503
    assert page.headers["retry-after"] == "7"
    assert "<h1>The server is busy</h1>" in page.text
    assert "refresh" not in page.text  # a reload would ask to post the form again
    assert (
        '<form class="resubmit" method="post" action="/test/busy?from=home" '
        'data-resubmit-after="7">'
    ) in page.text
    hidden = [
        '<input type="hidden" name="level" value="hard">',
        '<input type="hidden" name="name" value="&lt;b&gt;&#34;x&#34;">',
        '<input type="hidden" name="name" value="">',
        '<input type="hidden" name="fast_play" value="on">',
    ]
    assert "".join(hidden) in page.text  # every field, in order, escaped
    assert "This page will try again in 7 seconds." in page.text
    assert '<button class="button" type="submit">Try again</button>' in page.text
    # htmx retries its own requests (app.js): its fragment is the one line.
    assert fragment.status_code == 503
    assert fragment.text == (
        '<p class="message" role="alert" data-status="503" data-retry-after="7">'
        "Too many people are playing right now. Please try again in a moment.</p>"
    )


URLENCODED = (b"content-type", b"application/x-www-form-urlencoded")


@pytest.mark.parametrize(
    ("content", "headers"),
    [
        (b'{"level": "hard"}', [(b"content-type", b"application/json")]),
        (b"level=%ff&x=\xff", [URLENCODED]),  # not UTF-8
        (b"&".join(b"f%d=1" % i for i in range(65)), [URLENCODED]),  # more than any form has
        (b"level=hard", [URLENCODED, (b"sec-fetch-site", b"cross-site")]),
        (b"level=hard", [URLENCODED, (b"origin", b"https://evil.example"), (b"host", b"x")]),
    ],
    ids=["json", "not-utf-8", "too-many-fields", "cross-site", "other-origin"],
)
def test_a_refused_post_that_is_not_a_form_of_ours_is_not_offered_again(
    database: str, content: bytes, headers: list[tuple[bytes, bytes]]
) -> None:
    # Refused before the route's checks (415, 403), as the rate limits and admission do.
    scope = {
        "type": "http",
        "method": "POST",
        "path": "/games",
        "query_string": b"",
        "headers": headers,
        "app": make_app(database),
        BODY: content,
    }
    page = refusal(Request(scope), 503, 2)
    text = bytes(page.body).decode()
    assert page.status_code == 503
    assert "<h1>The server is busy</h1>" in text
    assert "resubmit" not in text and "Try again" not in text
    ours = [URLENCODED, (b"sec-fetch-site", b"same-origin")]
    same_site = refusal(Request({**scope, "headers": ours, BODY: b"level=hard"}), 503, 2)
    assert "resubmit" in bytes(same_site.body).decode()  # the same form from this site is


def test_a_new_game_over_the_rate_gets_429_and_its_form_to_post_again(
    database: str, steady_clock: None
) -> None:
    app = make_app(database, rate_limits=True, rate_address_new_games="1/minute")
    with TestClient(app, headers=BROWSER) as client:
        form = {"level": "medium", "fast_play": "on"}
        first = client.post("/games", data=form, headers=SAME_ORIGIN, follow_redirects=False)
        second = client.post("/games", data=form, headers=SAME_ORIGIN, follow_redirects=False)
    app.state.services.db.dispose()
    assert first.status_code == 303
    assert second.status_code == 429
    wait = int(second.headers["retry-after"])
    assert 1 <= wait <= 60
    assert (
        f'<form class="resubmit" method="post" action="/games" data-resubmit-after="{wait}">'
        '<input type="hidden" name="level" value="medium">'
        '<input type="hidden" name="fast_play" value="on">'
    ) in second.text.replace("\n", "").replace("    ", "")


def test_busy_response_answers_only_503_or_429(database: str) -> None:
    app = make_app(database)
    request = Request({"type": "http", "method": "GET", "headers": [], "app": app})
    with pytest.raises(ValueError, match="503 or 429"):
        busy_response(request, 500, 1)


def held_app(database: str, **limits: Any) -> tuple[FastAPI, asyncio.Event]:
    """The app with a route that holds its place until the event is set."""
    app = make_app(database, **limits)
    release = asyncio.Event()

    async def hold() -> PlainTextResponse:
        await release.wait()
        return PlainTextResponse("done")

    app.add_api_route("/test/hold", hold)
    return app, release


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    """Run `scenario` on an event loop of its own thread (this one may have one running: the
    browser tests' Playwright, in the same worker)."""
    with start_blocking_portal(backend="asyncio") as portal:
        portal.call(scenario)


async def _wait_for(predicate: Any) -> None:
    for _ in range(200):
        if predicate():
            return
        await asyncio.sleep(0.005)
    raise AssertionError("condition never met")


def test_a_full_server_answers_503_with_retry_after_at_once_and_recovers(database: str) -> None:
    async def scenario() -> None:
        app, release = held_app(database, max_active_requests=2, queue_timeout=0.2)
        gate: AdmissionGate = app.state.admission
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(transport=transport, base_url="http://test") as http:
            held = [asyncio.create_task(http.get("/test/hold")) for _ in range(2)]
            await _wait_for(lambda: gate.active == 2)
            started = asyncio.get_running_loop().time()
            refused = await http.get("/rules")
            waited = asyncio.get_running_loop().time() - started
            assert refused.status_code == 503
            assert refused.headers["retry-after"] == "2"
            assert "<h1>The server is busy</h1>" in refused.text
            assert 0.15 < waited < 1.0
            # Health checks and static files do not queue behind the game.
            assert (await http.get("/healthz")).status_code == 200
            assert (await http.get("/static/css/app.css")).status_code == 200
            assert (gate.active, gate.queued, gate.refused) == (2, 0, 1)
            release.set()
            assert [(await task).status_code for task in held] == [200, 200]
            assert gate.active == 0
            assert (await http.get("/rules")).status_code == 200

    run(scenario)


def test_a_queued_request_starts_as_soon_as_a_place_frees(database: str) -> None:
    async def scenario() -> None:
        app, release = held_app(database, max_active_requests=1, queue_timeout=5)
        gate: AdmissionGate = app.state.admission
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(transport=transport, base_url="http://test") as http:
            held = asyncio.create_task(http.get("/test/hold"))
            await _wait_for(lambda: gate.active == 1)
            waiting = asyncio.create_task(http.get("/rules"))
            await _wait_for(lambda: gate.queued == 1)
            release.set()
            assert (await held).status_code == 200
            assert (await waiting).status_code == 200
            assert (gate.active, gate.queued, gate.refused, gate.admitted) == (0, 0, 0, 2)

    run(scenario)


def test_a_full_line_refuses_at_once(database: str) -> None:
    async def scenario() -> None:
        app, release = held_app(
            database, max_active_requests=1, queue_timeout=5, max_queued_requests=1
        )
        gate: AdmissionGate = app.state.admission
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(transport=transport, base_url="http://test") as http:
            held = asyncio.create_task(http.get("/test/hold"))
            await _wait_for(lambda: gate.active == 1)
            queued = asyncio.create_task(http.get("/rules"))
            await _wait_for(lambda: gate.queued == 1)
            started = asyncio.get_running_loop().time()
            refused = await http.get("/rules", headers=HX)
            assert asyncio.get_running_loop().time() - started < 0.5
            assert refused.status_code == 503
            assert 'data-retry-after="2"' in refused.text
            release.set()
            assert (await held).status_code == 200
            assert (await queued).status_code == 200

    run(scenario)


def test_the_gate_gives_up_a_waiting_place_when_its_request_is_cancelled() -> None:
    async def scenario() -> None:
        gate = AdmissionGate(limit=1, timeout=5, max_queued=4)
        assert await gate.enter()
        waiter = asyncio.create_task(gate.enter())
        await _wait_for(lambda: gate.queued == 1)
        waiter.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiter
        assert gate.queued == 0
        gate.leave()
        assert (gate.active, gate.queued) == (0, 0)
        assert await gate.enter()  # the place is free again, without waiting

    run(scenario)


def test_a_request_waiting_on_work_elsewhere_gives_its_place_and_takes_it_back_first(
    database: str,
) -> None:
    """A request waiting for the Hard player's thinking (a worker process) steps aside: others
    are served meanwhile; when the thinking is done it takes the next free place, ahead of the
    requests already in line."""
    thought = threading.Event()
    finished: list[str] = []

    def think() -> PlainTextResponse:  # a sync route: it runs on a worker thread
        with stepping_aside():
            assert thought.wait(timeout=10)
        finished.append("thinker")
        return PlainTextResponse("thought")

    async def newcomer() -> PlainTextResponse:
        finished.append("newcomer")
        return PlainTextResponse("new")

    async def scenario() -> None:
        app, release = held_app(database, max_active_requests=1, queue_timeout=5)
        app.add_api_route("/test/think", think)
        app.add_api_route("/test/new", newcomer)
        gate: AdmissionGate = app.state.admission
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(transport=transport, base_url="http://test") as http:
            thinking = asyncio.create_task(http.get("/test/think"))
            await _wait_for(lambda: gate.admitted == 1 and gate.active == 0)
            # Its one place is free while it waits: another request is served at once.
            assert (await http.get("/rules")).status_code == 200
            held = asyncio.create_task(http.get("/test/hold"))
            await _wait_for(lambda: gate.active == 1)
            thought.set()  # done thinking: it waits for a place, no longer for the worker
            await _wait_for(lambda: gate.queued == 1)
            later = asyncio.create_task(http.get("/test/new"))
            await _wait_for(lambda: gate.queued == 2)
            release.set()
            responses = [await task for task in (held, thinking, later)]
            assert [r.status_code for r in responses] == [200, 200, 200]
            assert finished == ["thinker", "newcomer"]
            assert (gate.active, gate.queued, gate.refused) == (0, 0, 0)

    run(scenario)
    with stepping_aside():  # outside a request (tools, tests of the services): nothing happens
        finished.append("outside")
    assert finished[-1] == "outside"


def test_refusals_carry_hsts_in_the_secure_configuration(database: str) -> None:
    with TestClient(make_app(database, secure_cookies=True), headers=BROWSER) as secure:
        refused = secure.get("/", headers={"X-Padding": "a" * 20_000})
    assert refused.status_code == 431
    assert refused.headers["strict-transport-security"] == "max-age=63072000; includeSubDomains"
    with TestClient(make_app(database, secure_cookies=False), headers=BROWSER) as plain:
        refused = plain.get("/", headers={"X-Padding": "a" * 20_000})
    assert "strict-transport-security" not in refused.headers
