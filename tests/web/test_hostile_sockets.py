"""Hostile bytes on a real socket: the live server (uvicorn, as deployed) answers every one with
a 4xx or a harmless page, never a 5xx, logs no traceback, and keeps serving.

These are what a test client cannot send: NUL and raw non-ASCII bytes in the request line,
invalid UTF-8 in the path, query, cookies and headers, invalid percent-escapes, an absolute URI,
`OPTIONS *`, a long request line. Where the app answers (not the HTTP parser), the connection
stays open for the next request, as a browser's keep-alive connection would.
"""

from __future__ import annotations

import re
import socket
from collections.abc import Iterator

import pytest

from bench.serverproc import ServerProcess, temporary_database


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    directory = tmp_path_factory.mktemp("sockets")
    with temporary_database(directory) as url:
        # The production command, without rate limits: every case comes from 127.0.0.1 at once.
        env = {"HEARTS_THINKER_PROCESSES": "0", "HEARTS_RATE_LIMITS": "0"}
        live = ServerProcess(url, directory / "server.log", env=env)
        live.start()
        try:
            yield live
        finally:
            live.stop()


def exchange(server: ServerProcess, *requests: bytes) -> list[int]:
    """Send the requests one after another on one connection; the status of each answer (a
    closed connection ends the list)."""
    statuses = []
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
        reader = conn.makefile("rb")
        for request in requests:
            conn.sendall(request)
            line = reader.readline()
            if not line:
                break
            status = int(line.split()[1])
            statuses.append(status)
            length = 0
            while (header := reader.readline()) not in (b"\r\n", b""):
                name, _, value = header.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            reader.read(length)
    return statuses


def get(target: bytes, *headers: bytes) -> bytes:
    lines = [b"GET " + target + b" HTTP/1.1", b"Host: 127.0.0.1", *headers]
    return b"\r\n".join(lines) + b"\r\n\r\n"


def post(
    target: bytes,
    body: bytes,
    origin: bytes = b"http://127.0.0.1",
    content_type: bytes = b"application/x-www-form-urlencoded",
) -> bytes:
    lines = [
        b"POST " + target + b" HTTP/1.1",
        b"Host: 127.0.0.1",
        b"Origin: " + origin,
        b"Content-Type: " + content_type,
        b"Content-Length: " + str(len(body)).encode(),
    ]
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


HEALTH = get(b"/healthz")

REQUEST_LINES = [
    pytest.param(get(b"/games/1\x00"), id="nul-in-path"),
    pytest.param(get(b"/games/\xc2\xb2"), id="raw-unicode-digit-in-path"),
    pytest.param(get(b"/games/\xff\xfe"), id="raw-invalid-utf8-in-path"),
    pytest.param(get(b"/stats?since=\xff\xfe&until=\x00"), id="raw-bytes-in-query"),
    pytest.param(get(b"/rules?game=\xc2\xb2&players=\xff"), id="raw-bytes-in-rules-query"),
    pytest.param(get(b"/games/" + b"9" * 60_000), id="60k-path"),
    pytest.param(b"OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", id="options-asterisk"),
    pytest.param(b"GET /games/1 HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n", id="http-9.9"),
    pytest.param(b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 40, id="tls-hello"),
]


@pytest.mark.parametrize("request_bytes", REQUEST_LINES)
def test_a_malformed_request_line_is_refused_and_the_server_keeps_serving(
    server: ServerProcess, request_bytes: bytes
) -> None:
    statuses = exchange(server, request_bytes)
    assert len(statuses) == 1 and 400 <= statuses[0] < 500, statuses
    assert exchange(server, HEALTH) == [200]
    assert not server.log_errors()


APP_ANSWERED = [
    pytest.param(get(b"/games/%C2%B2"), 404, id="unicode-digit-game"),
    pytest.param(get(b"/games/%FF%FE"), 404, id="invalid-utf8-escape-game"),
    pytest.param(get(b"/games/%ZZ"), 404, id="invalid-escape-game"),
    pytest.param(get(b"/games/%00"), 404, id="nul-escape-game"),
    pytest.param(get(b"/history/1/hands/%C2%B2?trick=%C2%B2"), 404, id="unicode-digit-hand"),
    pytest.param(get(b"/history?page=%C2%B2&page=%FF&since=9999-12-31"), 200, id="history"),
    pytest.param(get(b"/stats?until=9999-12-31&until=%00&table=%FF"), 200, id="stats"),
    pytest.param(get(b"/rules?game=99999999999999999999"), 200, id="rules-past-int64"),
    pytest.param(get(b"/rules?x=" + b"a" * 6000), 200, id="6k-query"),
    # h11 (the production parser) leaves an absolute-form target as it is: no route matches.
    pytest.param(get(b"http://evil.example/stats"), 404, id="absolute-uri"),
    pytest.param(get(b"/static/..%2f..%2fpyproject.toml"), 404, id="static-traversal"),
    pytest.param(get(b"/static/%2e%2e/%2e%2e/etc/passwd"), 404, id="static-dot-escapes"),
    pytest.param(
        get(
            b"/",
            b"Cookie: hearts_session=\xc3\xbc\xff; hearts_lang=\xff\xfe; hearts_four_colours=\x80",
        ),
        200,
        id="raw-bytes-in-cookies",
    ),
    pytest.param(get(b"/", b"Cookie: hearts_session=" + b"x" * 4000), 200, id="4000-char-cookie"),
    pytest.param(get(b"/", b"Accept-Language: \xff\xfe;q=abc, *;q=9e999"), 200, id="accept-lang"),
    pytest.param(get(b"/", b"HX-Request: \xff"), 200, id="raw-byte-hx-request"),
    pytest.param(post(b"/games", b"level=%C2%B2&players_standard=\xc2\xb2"), 400, id="new-game"),
    pytest.param(post(b"/games", b"level=easy&players_standard=" + b"9" * 5000), 400, id="5000"),
    pytest.param(post(b"/games/1/play", b"version=\xff&card=\x00"), 404, id="no-such-game"),
    pytest.param(post(b"/games", b"level=easy", origin=b"http://["), 403, id="bad-origin"),
    pytest.param(post(b"/games", b"{}", content_type=b"application/json"), 415, id="json-body"),
]


@pytest.mark.parametrize(("request_bytes", "status"), APP_ANSWERED)
def test_hostile_input_the_app_reads_is_a_4xx_or_a_page_on_a_kept_connection(
    server: ServerProcess, request_bytes: bytes, status: int
) -> None:
    assert exchange(server, request_bytes, HEALTH) == [status, 200]
    assert not server.log_errors()


def test_the_log_has_no_traceback_after_all_of_it(server: ServerProcess) -> None:
    log = server.log_path.read_text(errors="replace")
    assert "Traceback" not in log
    assert not re.search(r"Exception in ASGI application", log)
