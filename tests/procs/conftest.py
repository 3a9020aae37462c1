"""Process-level tests: real uvicorn servers (`bench.serverproc`) on a migrated database of each
kind, browser-like HTTP clients, and checks of what the database holds afterwards.

- `database_url` (from the store tests): a fresh migrated SQLite file, or a fresh PostgreSQL
  database (skipped without one unless `HEARTS_REQUIRE_POSTGRES=1`).
- `launch`: starts a server process on that database (production settings) and stops it at the
  end of the test; `kill` ends one abruptly (SIGKILL to every process of it, as a crash would).
- `Tab`: one browser's tab over aiohttp (its session cookie sent to any of the servers, the
  headers a page sends), `Decision`: a move read from a table, and `Store`: the stored logs.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import aiohttp
import psutil
import pytest
from sqlalchemy import NullPool, select

from app.engine import Action, Deal, GameHeader, MoonChoice, Play, replay
from app.store import make_engine, make_sessionmaker, repository
from app.store.models import Game
from app.web.deps import COOKIE
from bench.screen import Screen, read_screen
from bench.serverproc import ServerProcess
from tests.store.conftest import database_url

__all__ = ["database_url"]

REQUEST_TIMEOUT_S = 15.0
"""Longer than any request may take (the server answers 503 within seconds when busy)."""


# --- servers ----------------------------------------------------------------------------------

Launch = Callable[..., ServerProcess]


T = TypeVar("T")
NO_RATE_LIMITS = {"HEARTS_RATE_LIMITS": "0"}


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to its end in a thread of its own: the test's thread may already run an
    event loop (Playwright's, when a browser test ran before in the same worker)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


@pytest.fixture
def launch(tmp_path: Path) -> Iterator[Launch]:
    """`launch(url, name="a", **env)`: a running server on `url` (its log in the test's
    directory); every server launched is stopped when the test ends."""
    started: list[ServerProcess] = []

    def start(url: str, name: str = "server", **env: str) -> ServerProcess:
        # Production settings but no rate limits: these tests post the same decision several
        # times at once, far faster than a person (tests/web/test_ratelimit.py has the rates).
        server = ServerProcess(url, tmp_path / f"{name}.log", env={**NO_RATE_LIMITS, **env})
        started.append(server)
        server.start()
        return server

    yield start
    for server in started:
        server.stop()


def kill(server: ServerProcess) -> None:
    """SIGKILL the server's processes at once (the main one and its workers), as a crash or an
    out-of-memory kill would: no shutdown, no response finished, no transaction committed."""
    if server.process is None:
        return
    try:
        main = psutil.Process(server.process.pid)
        tree = [main, *main.children(recursive=True)]
    except psutil.NoSuchProcess:
        tree = []
    for process in tree:
        with suppress(psutil.NoSuchProcess):
            process.kill()
    # The main process held the listening socket and the database connections; its orphaned
    # workers are reaped by whoever adopts them.
    server.process.wait(timeout=10)
    server.process = None


# --- a browser's tab --------------------------------------------------------------------------


@dataclass
class Reply:
    """A response as the tab received it (whole)."""

    status: int
    body: str
    location: str | None


class Tab:
    """One browser's tab: its session cookie, sent to whichever server it asks (the servers share
    the database, so the cookie is good on each), and the headers a page's requests carry.
    Every status it received is kept in `statuses`."""

    def __init__(self, keepalive: bool = True) -> None:
        self.token: str | None = None
        self.statuses: list[int] = []
        self.http = aiohttp.ClientSession(
            cookie_jar=aiohttp.DummyCookieJar(),
            connector=aiohttp.TCPConnector(force_close=not keepalive),
            timeout=aiohttp.ClientTimeout(total=REQUEST_TIMEOUT_S),
        )

    async def close(self) -> None:
        """Close its connections."""
        await self.http.close()

    async def request(
        self, method: str, base: str, path: str, form: list[tuple[str, str]] | None = None
    ) -> Reply | None:
        """One request (a POST as htmx sends it); None when no whole response arrived."""
        headers = {"Accept-Language": "en", "HX-Request": "true"}
        if method == "POST":
            headers |= {"Origin": base, "Sec-Fetch-Site": "same-origin"}
        if path == "/games":
            del headers["HX-Request"]  # the new-game form is a plain form post
        if self.token is not None:
            headers["Cookie"] = f"{COOKIE}={self.token}"
        try:
            async with self.http.request(
                method, base + path, data=form, headers=headers, allow_redirects=False
            ) as response:
                body = await response.text()
                issued = response.cookies.get(COOKIE)
                status, location = response.status, response.headers.get("Location")
        except (aiohttp.ClientError, TimeoutError):
            return None
        self.statuses.append(status)
        if issued is not None and issued.value:
            self.token = issued.value
        return Reply(status, body, location)

    async def new_game(self, base: str) -> int | None:
        """Start an Easy game with fast play; its number (None if no answer came)."""
        reply = await self.request("POST", base, "/games", [("level", "easy"), ("fast_play", "on")])
        if reply is None:
            return None
        assert reply.status == 303, reply.body[:500]
        assert reply.location is not None
        return int(reply.location.rsplit("/", 1)[1])

    async def screen(self, base: str, game_id: int) -> Screen | None:
        """The game's table as the page shows it (None if no answer came)."""
        reply = await self.request("GET", base, f"/games/{game_id}")
        if reply is None:
            return None
        assert reply.status == 200, reply.body[:500]
        return read_screen(reply.body)


@dataclass(frozen=True)
class Decision:
    """A human decision read from a table: the form to post, and the version it was made at."""

    game_id: int
    version: int
    kind: str
    """pass, play, moon or next (the deal of the next hand)."""
    form: list[tuple[str, str]] = field(hash=False)

    @property
    def path(self) -> str:
        """Where the page posts it."""
        return f"/games/{self.game_id}/{self.kind}"

    def matches(self, action: Action) -> bool:
        """Whether `action` (from the log) is this decision."""
        fields = dict(self.form)
        if isinstance(action, Deal):
            return self.kind == "next"
        if action.seat != 0:
            return False
        if isinstance(action, Play):
            return self.kind == "play" and action.card.code == fields["card"]
        if isinstance(action, MoonChoice):
            return self.kind == "moon" and action.scoring.value == fields["scoring"]
        chosen = {value for name, value in self.form if name == "cards"}
        return self.kind == "pass" and {c.code for c in action.cards} == chosen


def decide(screen: Screen, rng: random.Random) -> Decision | None:
    """A random legal decision on the table, or None when there is none (the game is over)."""
    if screen.kind not in ("pass", "play", "moon", "next"):
        return None
    assert screen.game_id is not None and screen.version is not None, screen
    version = [("version", screen.version)]
    form: list[tuple[str, str]]
    if screen.kind == "pass":
        form = version + [("cards", card) for card in rng.sample(screen.cards, 3)]
    elif screen.kind == "play":
        form = [*version, ("card", rng.choice(screen.cards))]
    elif screen.kind == "moon":
        form = [*version, ("scoring", rng.choice(screen.scorings))]
    else:
        form = version
    return Decision(screen.game_id, int(screen.version), screen.kind, form)


def is_human_decision(action: Action) -> bool:
    """An action only the human's request appends: the human seat's own, or a deal."""
    return isinstance(action, Deal) or action.seat == 0


# --- what the database holds ------------------------------------------------------------------


class Store:
    """Reads of the test database: games and their logs (each read in its own transaction)."""

    def __init__(self, url: str) -> None:
        self.engine = make_engine(url, poolclass=NullPool)
        self.sessions = make_sessionmaker(self.engine)

    def close(self) -> None:
        """Release the engine."""
        self.engine.dispose()

    def log(self, game_id: int) -> list[Action]:
        """A game's stored actions (`load_actions` raises on a gap or a version mismatch)."""
        with self.sessions() as session:
            game = session.get(Game, game_id)
            assert game is not None, f"game {game_id} is not stored"
            return repository.load_actions(session, game)

    def header(self, game_id: int) -> GameHeader:
        """A game's header (its rules)."""
        with self.sessions() as session:
            game = session.get(Game, game_id)
            assert game is not None, f"game {game_id} is not stored"
            return GameHeader.from_json(game.header)

    def replay_all(self) -> int:
        """Replay every stored game from its log (raises if one is broken); how many there are."""
        with self.sessions() as session:
            games = session.scalars(select(Game)).all()
            for game in games:
                actions = repository.load_actions(session, game)
                state = replay(GameHeader.from_json(game.header), actions)
                assert list(state.totals) == list(game.totals), f"game {game.id}: totals differ"
            return len(games)


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    """Reads of the test database."""
    found = Store(database_url)
    yield found
    found.close()
