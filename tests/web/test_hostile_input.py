"""Every bad input is a 4xx or a harmless page, never a 5xx, and changes no row.

The numbers a request carries (in paths, forms and query strings) are read as ASCII digits
within bounds, and dates within 2000–2100: a Unicode digit ("²" passes `str.isdigit()`), a
5,000-digit number, a number past the database's integers or a date past the calendar's end
each get a clear 4xx, or a page that ignores the value (with a message where there is a
filter). So do other methods, odd bodies, junk cookies and headers, and tricks on `/static/`.
Each case runs on SQLite and PostgreSQL against one app with a game in progress, and the
database's rows are compared before and after.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from fastapi.routing import iter_route_contexts
from starlette.testclient import TestClient

from tests.web.conftest import start, version_of
from tests.web.hostile import all_rows, served

HX = {"HX-Request": "true"}
DIGIT = "²"
"""A Unicode digit: `"²".isdigit()` is true, and `int("²")` fails."""
PCT_DIGIT = "%C2%B2"
HUGE = "9" * 5000
PAST_INT64 = "99999999999999999999"
VERSIONED = ("pass", "play", "advance", "moon", "next")
"""The game's state-changing posts that carry the version their page was rendered at."""


@dataclass(frozen=True)
class Table:
    """A browser with a game in progress, on an app of its own."""

    client: TestClient
    game_id: int

    @property
    def version(self) -> int:
        return version_of(self.client.get(f"/games/{self.game_id}").text)


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def table(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Table]:
    with served(request.param, tmp_path_factory.mktemp("hostile")) as client:
        yield Table(client, start(client))


# --- the numbers and dates of the issue, and their siblings ------------------------------------

BAD_VERSIONS = [
    pytest.param(action, value, id=f"{action}-version-{name}")
    for action in VERSIONED
    for name, value in (("unicode-digit", DIGIT), ("5000-digits", HUGE), ("past-int64", PAST_INT64))
]


@pytest.mark.parametrize(("action", "version"), BAD_VERSIONS)
def test_a_versioned_post_with_an_unreadable_version_is_400_and_changes_nothing(
    table: Table, action: str, version: str
) -> None:
    before = all_rows(table.client)
    form = {"version": version, "card": "2C", "cards": ["2C", "3C", "4C"], "scoring": "x"}
    response = table.client.post(f"/games/{table.game_id}/{action}", data=form, headers=HX)
    assert response.status_code == 400
    assert "out of date or incomplete" in response.text
    assert all_rows(table.client) == before


PAGES = [
    # (path, status, text the page must show); {game} is the browser's game.
    (f"/games/{PCT_DIGIT}", 404, "Game not found"),
    (f"/games/{HUGE}", 404, "Game not found"),
    (f"/games/{PAST_INT64}", 404, "Game not found"),
    (f"/history/{PCT_DIGIT}", 404, "Game not found"),
    (f"/history/{HUGE}", 404, "Game not found"),
    (f"/history/{PCT_DIGIT}/game.json", 404, "Game not found"),
    (f"/history/{HUGE}/game.json", 404, "Game not found"),
    (f"/history/{{game}}/hands/{PCT_DIGIT}", 404, "Game not found"),
    (f"/history/{{game}}/hands/{HUGE}", 404, "Game not found"),
    (f"/history/{{game}}/hands/{PAST_INT64}", 404, "Game not found"),
    (f"/history/{PCT_DIGIT}/hands/1", 404, "Game not found"),
    (f"/history?page={PCT_DIGIT}", 200, "History"),
    (f"/history?page={HUGE}", 200, "History"),
    (f"/history/{{game}}/hands/1?trick={PCT_DIGIT}", 200, "Hand 1"),
    (f"/history/{{game}}/hands/1?trick={HUGE}", 200, "Hand 1"),
    (f"/rules?game={PCT_DIGIT}", 200, "Rules"),
    (f"/rules?game={HUGE}", 200, "Rules"),
    (f"/rules?game={PAST_INT64}", 200, "Rules"),
    (f"/rules?preset=standard&players={PCT_DIGIT}", 200, "Rules"),
    (f"/rules?preset=cancellation&players={HUGE}", 200, "Rules"),
    ("/stats?until=9999-12-31", 200, "A date was not understood"),
    ("/stats?since=9999-12-31", 200, "A date was not understood"),
    ("/stats?since=0001-01-01&until=2026-02-30", 200, "A date was not understood"),
    (f"/stats?since=2026-01-0{PCT_DIGIT}", 200, "A date was not understood"),
    ("/history?until=9999-12-31", 200, "A date was not understood"),
    ("/history?since=9999-12-31", 200, "A date was not understood"),
    (f"/stats?table=standard-{PCT_DIGIT}", 200, "Unknown table"),
    (f"/stats?table=standard-{PAST_INT64}", 200, "Unknown table"),
    (f"/history?table=cancellation-{HUGE}", 200, "Unknown table"),
]


def _short(text: str) -> str:
    """A test id: the huge numbers named, not spelled out."""
    return text.replace(HUGE, "<5000 digits>").replace(PAST_INT64, "<2^66>")


@pytest.mark.parametrize(("path", "status", "text"), PAGES, ids=[_short(p[0]) for p in PAGES])
def test_a_page_with_an_unreadable_number_or_date_is_404_or_ignores_it(
    table: Table, path: str, status: int, text: str
) -> None:
    before = all_rows(table.client)
    response = table.client.get(path.replace("{game}", str(table.game_id)))
    assert response.status_code == status
    assert text in response.text
    assert all_rows(table.client) == before


NEW_GAME_FORMS = [
    {"level": "easy", "players_standard": DIGIT},
    {"level": "easy", "preset": "cancellation", "players_cancellation": DIGIT},
    {"level": "easy", "players_standard": HUGE},
    {"level": "easy", "players_standard": PAST_INT64},
    {"level": DIGIT},
    {"level": "easy", "target_score": DIGIT},
    {"level": "easy", "moon_value": HUGE},
    {"level": "easy", "no_tricks_bonus": "-" + DIGIT},
]


@pytest.mark.parametrize("form", NEW_GAME_FORMS, ids=[_short(str(f)) for f in NEW_GAME_FORMS])
def test_a_new_game_form_with_an_unreadable_number_is_400_and_starts_nothing(
    table: Table, form: dict[str, str]
) -> None:
    before = all_rows(table.client)
    response = table.client.post("/games", data=form, follow_redirects=False)
    assert response.status_code == 400
    assert 'role="alert"' in response.text
    assert all_rows(table.client) == before


# --- methods, repeated and long query strings, odd bodies ---------------------------------------

OTHER_METHODS = ("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "TRACE")


def test_every_route_answers_another_method_with_405(table: Table) -> None:
    """Every route of the app (found by walking its routes, so a new one is covered), asked with
    a method it does not serve: 405 with the methods it does serve, and nothing changes."""
    client = table.client
    before = all_rows(client)
    served: dict[str, set[str]] = {}  # path -> the methods its routes serve
    for route in iter_route_contexts(client.app.routes):  # type: ignore[attr-defined]
        path = (route.path or "").replace("{game_id}", str(table.game_id))
        path = path.replace("{number}", "1")
        if path == "/static":  # the static files' mount
            served["/static/css/app.css"] = {"GET", "HEAD"}
        else:
            served.setdefault(path, set()).update(route.methods or ())
    checked = 0
    for path, methods in served.items():
        for method in OTHER_METHODS:
            if method in methods:
                continue
            response = client.request(method, path)
            assert response.status_code == 405, (method, path)
            # Allow names the methods of the first route on the path (Starlette's router).
            allowed = set(response.headers["allow"].replace(" ", "").split(","))
            assert allowed and allowed <= methods
            checked += 1
    assert checked > 100
    assert all_rows(client) == before


REPEATED_QUERIES = [
    f"/history?page=1&page={PCT_DIGIT}&page=2",
    f"/history?page={PCT_DIGIT}&page=1",
    "/stats?since=2026-01-01&since=9999-12-31&until=2026-12-31&until=",
    f"/stats?level=easy&level={PCT_DIGIT}&table=standard-4&table=standard-{HUGE}",
    f"/rules?game={{game}}&game={PCT_DIGIT}&preset=standard&preset=x&players=4&players=99",
    f"/history/{{game}}/hands/1?trick=1&trick={PCT_DIGIT}&trick=2",
    f"/games/{{game}}?version={PCT_DIGIT}&version=1",
    "/settings?saved=1&saved=0&saved=%00",
]


@pytest.mark.parametrize("path", REPEATED_QUERIES, ids=[_short(q) for q in REPEATED_QUERIES])
def test_repeated_query_keys_are_read_harmlessly(table: Table, path: str) -> None:
    before = all_rows(table.client)
    response = table.client.get(path.replace("{game}", str(table.game_id)))
    assert response.status_code == 200
    assert all_rows(table.client) == before


def test_a_very_long_query_string_is_ignored(table: Table) -> None:
    before = all_rows(table.client)
    many_keys = "&".join(f"k{i}={DIGIT}" for i in range(3000))
    for query in ("x=" + "a" * 50_000, many_keys, f"page={HUGE}&" + many_keys):
        for path in ("/", "/stats", "/history", "/rules", f"/games/{table.game_id}"):
            assert table.client.get(f"{path}?{query}").status_code == 200, path
    assert all_rows(table.client) == before


def test_a_body_that_is_not_a_form_is_refused_with_415(table: Table) -> None:
    """JSON or text would read as an empty form, which the settings form takes as an answer."""
    client = table.client
    before = all_rows(client)
    version = table.version
    bodies = [
        {"json": {"level": "easy", "version": version, "card": "2C"}},
        {"content": b"level=easy", "headers": {"Content-Type": "text/plain"}},
        {"content": b"<level>easy</level>", "headers": {"Content-Type": "application/xml"}},
        {"content": b"level=easy", "headers": {"Content-Type": "\x01junk;;=="}},
    ]
    paths = ["/games", "/settings", "/language", f"/games/{table.game_id}/again"]
    paths += [f"/games/{table.game_id}/{action}" for action in VERSIONED]
    for path in paths:
        for body in bodies:
            response = client.post(path, follow_redirects=False, **body)  # type: ignore[arg-type]
            assert response.status_code == 415, (path, body)
            assert "set-cookie" not in response.headers
    assert all_rows(client) == before
    # A form's content type with parameters is still a form.
    response = client.post(
        f"/games/{table.game_id}/advance",
        content=f"version={version}".encode(),
        headers={"Content-Type": "Application/X-WWW-Form-URLEncoded; charset=UTF-8", **HX},
    )
    assert response.status_code == 200
    assert all_rows(client) == before  # advancing a game that waits for the human: a no-op


def test_a_file_where_a_field_belongs_is_400_and_echoes_nothing(table: Table) -> None:
    client = table.client
    before = all_rows(client)
    version = str(table.version)
    upload = ("<script>alert(1)</script>.txt", b"<script>alert(1)</script>", "text/html")
    posts = [
        (f"/games/{table.game_id}/play", "card"),
        (f"/games/{table.game_id}/pass", "cards"),
        (f"/games/{table.game_id}/moon", "scoring"),
        ("/language", "lang"),
        ("/settings", "four_colours"),
    ]
    for path, field in posts:
        response = client.post(
            path, data={"version": version}, files={field: upload}, follow_redirects=False
        )
        assert response.status_code == 400, path
        assert "<script>" not in response.text
        assert "set-cookie" not in response.headers
    for action in VERSIONED:  # a file as the version: no version at all
        response = client.post(
            f"/games/{table.game_id}/{action}", files={"version": ("v", version.encode())}
        )
        assert response.status_code == 400
    assert all_rows(client) == before


MALFORMED_BODIES = [
    pytest.param(b"--b\r\nrubbish", "multipart/form-data; boundary=b", id="multipart-no-end"),
    pytest.param(b"rubbish", "multipart/form-data", id="multipart-no-boundary"),
    pytest.param(b"", "multipart/form-data; boundary=b", id="multipart-empty"),
    pytest.param(b"version=%FF%FE&card=%C0%AF&cards=%ED%A0%80", None, id="invalid-utf8-escapes"),
    pytest.param(b"version=\xff\xfe&card=\xc0\xaf", None, id="raw-invalid-utf8"),
    pytest.param(b"version=4%00&card=2C%00&scoring=%00", None, id="nul-bytes"),
    pytest.param(b"version=%&card=%G0&%=%%", None, id="bad-percent-escapes"),
    pytest.param(b"&&&==&version&card", None, id="no-values"),
    pytest.param(b"", None, id="empty-form"),
]


@pytest.mark.parametrize(("body", "content_type"), MALFORMED_BODIES)
def test_a_malformed_body_on_a_game_post_is_400_and_changes_nothing(
    table: Table, body: bytes, content_type: str | None
) -> None:
    client = table.client
    before = all_rows(client)
    headers = {"Content-Type": content_type or "application/x-www-form-urlencoded", **HX}
    for action in VERSIONED:
        response = client.post(f"/games/{table.game_id}/{action}", content=body, headers=headers)
        assert response.status_code == 400, action
    # The new-game form always names the difficulty: a body without one starts nothing.
    response = client.post("/games", content=body, headers=headers, follow_redirects=False)
    assert response.status_code == 400
    assert all_rows(client) == before


def test_a_bare_post_with_no_body_is_400_and_changes_nothing(table: Table) -> None:
    before = all_rows(table.client)
    for action in VERSIONED:
        assert table.client.post(f"/games/{table.game_id}/{action}").status_code == 400
    assert table.client.post("/games").status_code == 400
    assert all_rows(table.client) == before


# --- paths, cookies and headers -----------------------------------------------------------------

ODD_PATHS = [
    "/games/1%00",
    "/games/%00",
    "/games/%FF%FE",
    "/games/%ZZ",
    "/games/%",
    "/games/１",  # a fullwidth digit
    "/games/٣",  # an Arabic-Indic digit
    "/games/-1",
    "/games/0",
    "/games/+1",
    "/games/1.0",
    "/games/0x1",
    "/games/1e3",
    "/games/ 1",
    "/history/%00/hands/1",
    "/history/{game}/hands/%FF",
    "/history/{game}/hands/0",
    "/history/{game}/hands/-1",
    "/history/{game}/hands/999",
    "/history/{game}%00/game.json",
]


@pytest.mark.parametrize("path", ODD_PATHS)
def test_an_odd_number_in_a_path_is_404(table: Table, path: str) -> None:
    before = all_rows(table.client)
    response = table.client.get(path.replace("{game}", str(table.game_id)))
    assert response.status_code == 404
    for action in VERSIONED:
        target = path.replace("{game}", str(table.game_id)) + f"/{action}"
        assert table.client.post(target, data={"version": "1"}).status_code == 404
    assert all_rows(table.client) == before


TRAVERSALS = [
    "/static/../app/settings.py",
    "/static/%2e%2e/app/settings.py",
    "/static/%2e%2e/%2e%2e/pyproject.toml",
    "/static/..%2f..%2fpyproject.toml",
    "/static/..%5c..%5cpyproject.toml",
    "/static/%c0%ae%c0%ae/pyproject.toml",
    "/static//etc/passwd",
    "/static/%2Fetc%2Fpasswd",
    "/static/css/app.css%00.txt",
    "/static/css/%00",
    "/static/" + "a" * 5000,
    "/static/css/../../pyproject.toml",
]


@pytest.mark.parametrize("path", TRAVERSALS, ids=[p[:50] for p in TRAVERSALS])
def test_static_files_never_leave_their_directory(table: Table, path: str) -> None:
    response = table.client.get(path)
    assert response.status_code == 404
    for secret in ("DATABASE_URL", "[project]", "root:"):
        assert secret not in response.text
    assert table.client.get("/static/css/app.css").status_code == 200


JUNK_COOKIES = [
    pytest.param(b"x" * 4000, id="4000-chars"),
    pytest.param("ünïcødé".encode(), id="utf8"),
    pytest.param(b"\xff\xfe\x80", id="invalid-utf8"),
    pytest.param(b'"quoted\\"value"', id="quoted"),
    pytest.param(b"a=b=c", id="equals"),
    pytest.param(b"%00%FF", id="escapes"),
]
COOKIES = (b"hearts_session", b"hearts_lang", b"hearts_four_colours", b"hearts_large_cards")


@pytest.mark.parametrize("value", JUNK_COOKIES)
def test_a_junk_cookie_reads_as_a_new_browser_and_changes_nothing(
    table: Table, value: bytes
) -> None:
    """A junk session cookie is a browser the database does not know (it owns nothing); junk
    in the language and display cookies is ignored."""
    before = all_rows(table.client)
    stranger = TestClient(table.client.app, headers=dict(table.client.headers))
    cookie = {b"cookie": b"; ".join(name + b"=" + value for name in COOKIES)}
    for path in ("/", "/stats", "/history", "/settings", "/rules", f"/rules?game={table.game_id}"):
        response = stranger.get(path, headers=cookie)
        assert response.status_code == 200, path
        assert "set-cookie" not in response.headers
    for path in (f"/games/{table.game_id}", f"/history/{table.game_id}"):
        assert stranger.get(path, headers=cookie).status_code == 404
    version = str(table.version)
    response = stranger.post(
        f"/games/{table.game_id}/advance", data={"version": version}, headers=cookie
    )
    assert response.status_code == 404
    assert all_rows(table.client) == before


JUNK_HEADERS: list[dict[bytes, bytes]] = [
    {b"accept-language": b"\x00"},
    {b"accept-language": b"*;q=xx, uk;q=-1, ;;;, -, _, sr-Cyrl-RS-x-y-z"},
    {b"accept-language": b"a-" * 3000},
    {b"accept-language": "ünï".encode()},
    {b"accept-language": b"\xff\xfe"},
    {b"hx-request": b"\xff"},
    {b"hx-request": b"true", b"hx-history-restore-request": b"maybe"},
    {b"host": b"["},
    {b"host": b""},
]


@pytest.mark.parametrize("headers", JUNK_HEADERS, ids=[str(h)[:40] for h in JUNK_HEADERS])
def test_junk_headers_on_a_page_are_harmless(table: Table, headers: dict[bytes, bytes]) -> None:
    before = all_rows(table.client)
    for path in ("/", "/stats", f"/games/{table.game_id}"):
        assert table.client.get(path, headers=headers).status_code == 200, path
    assert all_rows(table.client) == before


@pytest.mark.parametrize(
    "origin", ["http://[", "http://[::1", "http://testserver:99999999", "\x00", "http://"]
)
def test_an_origin_that_is_not_a_url_is_refused_with_403(table: Table, origin: str) -> None:
    before = all_rows(table.client)
    for path in ("/games", f"/games/{table.game_id}/advance", "/language"):
        response = table.client.post(
            path, data={"level": "easy", "version": "1"}, headers={"Origin": origin}
        )
        assert response.status_code == 403, path
    assert all_rows(table.client) == before
