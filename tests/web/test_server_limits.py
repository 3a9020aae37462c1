"""The limits at the socket: the production command (`scripts/serve`, uvicorn with its flags) on a
free port, spoken to over raw sockets as a slow, short, oversized or idle client would.

A body shorter than its `Content-Length`, or sent too slowly, gets 408 after the body timeout
(1 s here) and the connection closes; a chunked body gets 413 as soon as it passes the limit,
before it ends; a request head past h11's buffer gets uvicorn's 400; an idle keep-alive
connection is closed after `HEARTS_TIMEOUT_KEEP_ALIVE`.
"""

from __future__ import annotations

import os
import select
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.store.conftest import migrate

REPO = Path(__file__).resolve().parents[2]
BODY_TIMEOUT = 1.0
KEEP_ALIVE = 1


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """`scripts/serve` on a migrated SQLite file and a free port, with a 1 s body timeout and
    keep-alive; stopped by its process id."""
    url = f"sqlite:///{tmp_path_factory.mktemp('serve') / 'hearts.db'}"
    migrate(url)
    free = _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "HOST": "127.0.0.1",
        "PORT": str(free),
        "HEARTS_BODY_TIMEOUT": str(BODY_TIMEOUT),
        "HEARTS_TIMEOUT_KEEP_ALIVE": str(KEEP_ALIVE),
    }
    process = subprocess.Popen(
        ["sh", "scripts/serve"], cwd=REPO, env=env, stdout=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{free}/healthz", timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("scripts/serve did not start") from None
                time.sleep(0.1)
        yield free
    finally:
        process.terminate()
        process.wait(timeout=10)


def connect(port: int) -> socket.socket:
    connection = socket.create_connection(("127.0.0.1", port), timeout=10)
    return connection


def read_response(connection: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """The status, headers and body of one response (its body by `content-length`, else up to
    the end of the connection)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        assert chunk, f"closed before a response: {data!r}"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:])}
    if "content-length" not in headers:
        while chunk := connection.recv(65536):
            body += chunk
        return status, headers, body
    while len(body) < int(headers["content-length"]):
        chunk = connection.recv(65536)
        assert chunk, "closed in the middle of the body"
        body += chunk
    return status, headers, body


def is_closed(connection: socket.socket, within: float = 3.0) -> bool:
    """Whether the server closes the connection within `within` seconds."""
    connection.settimeout(within)
    try:
        return connection.recv(1) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def head(port: int, method: str, path: str, *headers: str) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", *headers, "", ""]
    return "\r\n".join(lines).encode()


def test_a_body_shorter_than_its_content_length_gets_408_and_the_connection_closes(
    port: int,
) -> None:
    with connect(port) as connection:
        started = time.monotonic()
        connection.sendall(head(port, "POST", "/games", "Content-Length: 100") + b"level=easy")
        status, headers, body = read_response(connection)
        waited = time.monotonic() - started
        assert status == 408
        assert BODY_TIMEOUT <= waited < BODY_TIMEOUT + 2
        assert headers["connection"] == "close"
        assert b"Request timed out" in body
        assert is_closed(connection)


def test_a_body_sent_too_slowly_gets_408(port: int) -> None:
    with connect(port) as connection:
        connection.sendall(head(port, "POST", "/games", "Content-Length: 40"))
        started = time.monotonic()
        sent = 0
        connection.settimeout(0.2)
        data = b""
        while not data and sent < 40:  # a byte every 0.2 s would take 8 s
            connection.sendall(b"x")
            sent += 1
            try:
                data = connection.recv(65536)
            except TimeoutError:
                continue
        assert data.startswith(b"HTTP/1.1 408 "), data[:40]
        assert time.monotonic() - started < BODY_TIMEOUT + 2
        assert sent < 40


def test_a_chunked_body_gets_413_as_soon_as_it_passes_the_limit(port: int) -> None:
    with connect(port) as connection:
        connection.sendall(head(port, "POST", "/games", "Transfer-Encoding: chunked"))
        chunk = b"2000\r\n" + b"x" * 0x2000 + b"\r\n"  # 8 KiB
        for _ in range(9):  # 72 KiB, past the 64 KiB limit; the body never ends
            connection.sendall(chunk)
        status, headers, body = read_response(connection)
        assert status == 413
        assert headers["connection"] == "close"
        assert b"Request too large" in body
        assert is_closed(connection)


def test_a_content_length_over_the_limit_gets_413_before_the_body(port: int) -> None:
    with connect(port) as connection:
        connection.sendall(head(port, "POST", "/games", "Content-Length: 2000000"))
        status, _, _ = read_response(connection)
        assert status == 413
        assert is_closed(connection)


def test_large_heads_get_the_app_s_431_then_uvicorn_s_400(port: int) -> None:
    with connect(port) as connection:
        connection.sendall(head(port, "GET", "/", "X-Padding: " + "a" * 20_000))
        status, _, body = read_response(connection)
        assert status == 431
        assert b"Request headers too large" in body
        assert is_closed(connection)
    # h11 stops buffering an incomplete head past twice the app's limit (32 KiB). The head goes
    # in pieces, as a slow client's would (one arriving whole in a single read, up to 256 KiB,
    # is parsed first and gets the app's 431), and stops once the server answers: data sent
    # after it closes would reset the connection and lose the answer.
    with connect(port) as connection:
        data = head(port, "GET", "/", "X-Padding: " + "a" * 60_000)
        sent = 0
        while sent < len(data) and not select.select([connection], [], [], 0.01)[0]:
            connection.sendall(data[sent : sent + 4096])
            sent += 4096
        status, _, body = read_response(connection)
        assert status == 400
        assert body == b"Invalid HTTP request received."
        assert 32 * 1024 < sent < len(data)


def test_an_idle_keep_alive_connection_is_closed_after_the_timeout(port: int) -> None:
    with connect(port) as connection:
        connection.sendall(head(port, "GET", "/healthz"))
        status, _, body = read_response(connection)
        assert (status, body) == (200, b"ok")
        connection.sendall(head(port, "GET", "/healthz"))  # still open: keep-alive
        assert read_response(connection)[0] == 200
        started = time.monotonic()
        assert is_closed(connection, within=KEEP_ALIVE + 3)
        assert time.monotonic() - started >= KEEP_ALIVE - 0.1
