"""The server CPU that the request guard, rate limits, admission and gzip add per request.

    python -m bench.guard [--requests 2000] [--http httptools h11]

For each HTTP implementation it starts two uvicorn processes on a temporary SQLite file, one with
the whole middleware stack and one without the four protective middlewares (`bare_app`), opens a
game on each, then sends `--requests` GETs of `/healthz` and of the game's page over one
keep-alive connection (as a browser: `Accept-Encoding: gzip`, the session cookie) and reads each
server's CPU time from /proc (Linux): the median of 20 rounds in which the servers take turns,
so a change in the machine's load weighs on both alike. The rate limits stay on, raised so that
the benchmark never reaches them. It also compares the two parsers. The last lines read
`guard: +X ms per /healthz, +Y ms per game page (h11)`.
"""

from __future__ import annotations

import argparse
import http.client
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

from fastapi import FastAPI

from app.web.main import create_app
from bench.serverproc import REPO, free_port, migrate

PROTECTIONS = ("RequestGuard", "RateLimitMiddleware", "Admission", "GZipMiddleware")
HIGH = "1000000/second"
PARSERS = ("httptools", "h11")


def bare_app() -> FastAPI:
    """The app without the guard, the rate limits, admission and gzip (a uvicorn factory)."""
    app = create_app()
    app.user_middleware = [
        m for m in app.user_middleware if getattr(m.cls, "__name__", "") not in PROTECTIONS
    ]
    return app


def _cpu_seconds(pid: int) -> float:
    """CPU time of a process's live threads so far, to the nanosecond (Linux schedstat)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (FileNotFoundError, ProcessLookupError):  # a thread that just ended
            continue
    return total / 1e9


def _serve(factory: str, http_impl: str, database_url: str) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "HEARTS_RATE_SESSION": HIGH,
        "HEARTS_RATE_ADDRESS": HIGH,
    }
    command = [sys.executable, "-m", "uvicorn", "--factory", factory, "--port", str(port)]
    command += ["--http", http_impl, "--timeout-keep-alive", "600"]
    command += ["--log-level", "warning", "--no-access-log"]
    process = subprocess.Popen(command, cwd=REPO, env=env)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return process, port
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("the server did not start")


def _game(port: int) -> tuple[str, str]:
    """Start a game; its page's path and the session cookie."""
    connection = http.client.HTTPConnection("127.0.0.1", port)
    body = urllib.parse.urlencode({"level": "easy"})
    headers = {
        "Content-Type": "application/x-www-form-urlencoded",
        "Origin": f"http://127.0.0.1:{port}",
    }
    connection.request("POST", "/games", body, headers)
    response = connection.getresponse()
    response.read()
    cookie = response.getheader("set-cookie", "").split(";")[0]
    location = response.getheader("location", "")
    if response.status != 303 or not location.startswith("/games/"):
        raise RuntimeError(f"no game: {response.status}")
    return location, cookie


class Client:
    """One keep-alive connection to a server process, as a browser with a game."""

    def __init__(self, process: subprocess.Popen[bytes], port: int) -> None:
        self.process = process
        self.connection = http.client.HTTPConnection("127.0.0.1", port)
        self.page, cookie = _game(port)
        self.headers = {"Accept-Encoding": "gzip", "Cookie": cookie, "Accept-Language": "en"}

    def cpu_per_request(self, path: str, count: int) -> float:
        """Seconds of server CPU per GET of `path`, over `count` GETs."""
        before = _cpu_seconds(self.process.pid)
        for _ in range(count):
            self.connection.request("GET", path, headers=self.headers)
            response = self.connection.getresponse()
            response.read()
            if response.status != 200:
                raise RuntimeError(f"{path}: {response.status}")
        return (_cpu_seconds(self.process.pid) - before) / count


def measure(http_impl: str, requests: int, database_url: str) -> dict[str, dict[str, float]]:
    """Server CPU ms per request of each path, with the whole stack ("full") and without
    ("bare"). Both servers run at once and take turns in rounds, so a change in the machine's
    load weighs on both alike."""
    factories = {"full": "app.web.main:create_app", "bare": "bench.guard:bare_app"}
    servers = {
        name: _serve(factory, http_impl, database_url) for name, factory in factories.items()
    }
    try:
        clients = {name: Client(*server) for name, server in servers.items()}
        samples: dict[str, dict[str, list[float]]] = {
            name: {"healthz": [], "page": []} for name in clients
        }
        rounds = 20
        for client in clients.values():  # warm up
            client.cpu_per_request("/healthz", 50)
            client.cpu_per_request(client.page, 50)
        for _ in range(rounds):
            for name, client in clients.items():
                for kind, path in (("healthz", "/healthz"), ("page", client.page)):
                    cpu = client.cpu_per_request(path, requests // rounds)
                    samples[name][kind].append(cpu * 1000)
    finally:
        for process, _ in servers.values():
            process.terminate()
            process.wait(timeout=10)
    figures = {
        name: {kind: statistics.median(values) for kind, values in kinds.items()}
        for name, kinds in samples.items()
    }
    for name, figure in figures.items():
        print(
            f"{http_impl:9} {name}: /healthz {figure['healthz']:.3f} ms, "
            f"game page {figure['page']:.3f} ms of server CPU per request",
            flush=True,
        )
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument(
        "--http", nargs="+", default=["httptools", "h11"], choices=["httptools", "h11"]
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/hearts.db"
        migrate(url)
        results = {impl: measure(impl, args.requests, url) for impl in args.http}
    if {"httptools", "h11"} <= results.keys():
        h11, tools = results["h11"]["full"], results["httptools"]["full"]
        print(
            f"h11 over httptools: {h11['healthz'] - tools['healthz']:+.3f} ms per /healthz, "
            f"{h11['page'] - tools['page']:+.3f} ms per game page"
        )
    for impl, figures in results.items():
        extra_health = figures["full"]["healthz"] - figures["bare"]["healthz"]
        extra_page = figures["full"]["page"] - figures["bare"]["page"]
        per = f"{extra_health:+.3f} ms per /healthz, {extra_page:+.3f} ms per game page"
        print(f"guard: {per} ({impl})")


if __name__ == "__main__":
    main()
