"""Browser tests: the real app served by uvicorn, driven by Playwright in Debian's Chromium.

The server runs as its own process on 127.0.0.1 and a free port with a temporary SQLite file
(migrated with Alembic first) and is stopped by its process id. Chromium must be installed at
`/usr/bin/chromium` (`.ci/run` installs it); without it the tests skip, unless
`HEARTS_REQUIRE_BROWSER=1`, when they fail. Screenshots go to `screenshots/` (git-ignored).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, sync_playwright

from app.store import make_engine, make_sessionmaker, repository, writer

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = REPO / "screenshots"
SETTLED = "document.querySelector('#table template.frame') === null"
"""A JavaScript condition: the page has played out the last answer's steps (the table is final:
the steps' templates go when they are done)."""
PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Server:
    """A uvicorn process serving the app on a database file; it can be restarted."""

    database_url: str
    port: int
    env: dict[str, str] = field(default_factory=dict)
    """Settings of this server beyond the tests' own (`HEARTS_…` variables)."""
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The base URL."""
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        """Start uvicorn and wait until /healthz answers."""
        env = {
            **os.environ,
            "DATABASE_URL": self.database_url,
            "HEARTS_PAUSE_SCALE": "0.3",
            **self.env,
        }
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "--factory",
                "app.web.main:create_app",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--log-level",
                "warning",
            ],
            cwd=REPO,
            env=env,
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=1) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def stop(self) -> None:
        """Stop the process by its id."""
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None


@pytest.fixture
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    """A migrated SQLite file and a running server; an indirect parameter gives it more
    settings (a dict of environment variables)."""
    url = f"sqlite:///{tmp_path / 'hearts.db'}"
    subprocess.run(
        [sys.executable, "-m", "alembic", "upgrade", "head"],
        cwd=REPO,
        env={**os.environ, "DATABASE_URL": url},
        check=True,
        capture_output=True,
    )
    srv = Server(url, _free_port(), env=getattr(request, "param", {}))
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless."""
    if not Path(CHROMIUM).exists():
        message = f"{CHROMIUM} is not installed (.ci/run installs Debian's chromium)"
        if os.environ.get("HEARTS_REQUIRE_BROWSER") == "1":
            pytest.fail(message)
        pytest.skip(message)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(params=["desktop", "phone"])
def page(request: pytest.FixtureRequest, browser: Browser, server: Server) -> Iterator[Page]:
    """A fresh browser context (its own cookie jar) at desktop or phone size; it closes before
    the server stops, so no request of the page's is cut off."""
    del server
    size = DESKTOP if request.param == "desktop" else PHONE
    context = browser.new_context(viewport=size, has_touch=request.param == "phone")
    context.set_default_timeout(15_000)
    new_page = context.new_page()
    errors: list[str] = []
    new_page.on("pageerror", lambda error: errors.append(str(error)))
    new_page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    yield new_page
    context.close()
    assert not errors, f"browser errors: {errors}"


def new_player(context: BrowserContext, server: Server) -> str:
    """A player stored for the browser context (its session cookie set), with no game yet: a
    browser gets one with its first game, and these tests store games for it directly."""
    engine = make_engine(server.database_url)
    try:
        with make_sessionmaker(writer(engine)).begin() as session:
            token = repository.create_player(session).id
    finally:
        engine.dispose()
    context.add_cookies([{"name": "hearts_session", "value": token, "url": server.url}])
    return token


def shot(page: Page, name: str) -> Path:
    """Save a full-page screenshot named after the viewport size."""
    SCREENSHOTS.mkdir(exist_ok=True)
    size = page.viewport_size or DESKTOP
    path = SCREENSHOTS / f"{name}-{size['width']}x{size['height']}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
