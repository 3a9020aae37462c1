"""Simulated players for the load benchmark: each one a browser tab playing real games.

A player opens `/` (and the static files it links, once, as a browser cache would), starts a
game with the new-game form, plays it to the end at human pace and starts another, until it is
cancelled. It sends what the page sends: `HX-Request: true` on the table's posts, `Origin` and
`Sec-Fetch-Site: same-origin` on every POST, `Accept-Encoding: gzip`; it has its own cookie jar
(which sends the session cookie to 127.0.0.1 over plain HTTP even when the server marks it
`Secure`, as browsers do for localhost).

Before each decision it first waits out the page's own pauses (the frames of the response, or
the advance form's delay) and then thinks a random time. A card's wait is the time of the
card's own response plus, with the advance protocol, that of every advance request up to the
table that lets the player act again; the pauses in between are the page's, not the server's.
A failed move is posted again after the page's backoff (or the server's `Retry-After`), as the
page does; after a failure of anything else it backs off and reloads the game page.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass

import aiohttp

from bench.metrics import Recorder, RequestSample, WaitSample
from bench.screen import Screen, read_screen, static_links

REQUEST_TIMEOUT_S = 30.0
"""A request that takes longer counts as a timeout."""
CLIENT_KEEPALIVE_S = 4.0
"""Idle connections are closed by the client before uvicorn's 5 s keep-alive closes them, so a
POST never goes out on a connection the server is closing (a browser retries those; aiohttp
retries only idempotent requests)."""
BACKOFF_S = (1.0, 2.0, 4.0, 8.0)
"""Waits before reloading after a failure, one after another (the page's retry backoff)."""


@dataclass(frozen=True)
class Pace:
    """How fast players act."""

    think: tuple[float, float] = (1.5, 3.5)
    """Seconds of thought before each decision, uniformly drawn."""
    pauses: bool = True
    """Wait out the page's pauses (frames, the advance delay)."""

    @classmethod
    def ceiling(cls) -> Pace:
        """No thinking, no pauses: as fast as the server answers."""
        return cls((0.0, 0.0), False)


@dataclass
class Reply:
    """A response as the player saw it."""

    status: int
    body: str
    location: str | None
    seconds: float
    retry_after: float = 0.0
    """The server's `Retry-After`, in seconds (0 when it sent none)."""


class Browser:
    """One player's tab: an HTTP session with its own cookies, recording every request."""

    def __init__(
        self,
        base_url: str,
        recorder: Recorder,
        group: str,
        timeout: float = REQUEST_TIMEOUT_S,
    ) -> None:
        self.base_url = base_url
        self.recorder = recorder
        self.group = group
        jar = aiohttp.CookieJar(unsafe=True, treat_as_secure_origin=base_url)
        self.http = aiohttp.ClientSession(
            base_url,
            cookie_jar=jar,
            connector=aiohttp.TCPConnector(limit=6, keepalive_timeout=CLIENT_KEEPALIVE_S),
            timeout=aiohttp.ClientTimeout(total=timeout),
            headers={"Accept-Encoding": "gzip", "Accept-Language": "en"},
            auto_decompress=True,
        )
        self.cached: set[str] = set()

    async def close(self) -> None:
        """Close the session and its connections."""
        await self.http.close()

    async def request(
        self,
        method: str,
        path: str,
        kind: str,
        form: list[tuple[str, str]] | None = None,
        htmx: bool = False,
    ) -> Reply | None:
        """One request, recorded; None when it failed to get a response (network error or
        timeout). Redirects are not followed."""
        headers: dict[str, str] = {}
        if method == "POST":
            headers["Origin"] = self.base_url
            headers["Sec-Fetch-Site"] = "same-origin"
        if htmx:
            headers["HX-Request"] = "true"
        start = time.monotonic()
        status: int | None = None
        error: str | None = None
        body = b""
        wire: int | None = None
        location: str | None = None
        retry_after = 0.0
        try:
            async with self.http.request(
                method, path, data=form, headers=headers, allow_redirects=False
            ) as response:
                body = await response.read()
                status = response.status
                location = response.headers.get("Location")
                after = response.headers.get("Retry-After", "")
                retry_after = float(after) if after.isdigit() else 0.0
                length = response.headers.get("Content-Length")
                wire = int(length) if length and length.isdigit() else None
        except TimeoutError:
            error = "timeout"
        except aiohttp.ClientError:
            error = "network"
        end = time.monotonic()
        self.recorder.request(
            RequestSample(kind, self.group, end, end - start, status, error, len(body), wire)
        )
        if status is None:
            return None
        return Reply(status, body.decode("utf-8", "replace"), location, end - start, retry_after)

    async def open_home(self) -> bool:
        """GET `/` and, the first time, the static files it links."""
        reply = await self.request("GET", "/", "page")
        if reply is None or reply.status != 200:
            return False
        self.recorder.wait(WaitSample("page", self.group, time.monotonic(), reply.seconds))
        links = [link for link in static_links(reply.body) if link not in self.cached]
        self.cached.update(links)
        await asyncio.gather(*(self.request("GET", link, "static") for link in links))
        return True


class Player:
    """A simulated person at one browser tab, playing games of one level."""

    def __init__(
        self,
        browser: Browser,
        level: str,
        fast_play: bool,
        pace: Pace,
        rng: random.Random,
    ) -> None:
        self.browser = browser
        self.level = level
        self.fast_play = fast_play
        self.pace = pace
        self.rng = rng
        self.game_id: int | None = None
        self.in_game = False
        """Whether the player's first game has started (its table was served)."""

    async def run(self) -> None:
        """Play game after game until cancelled."""
        try:
            failed = 0
            while not await self.browser.open_home():
                failed += 1
                await self._back_off(failed)
            screen: Screen | None = None
            failed = 0
            while True:
                if failed:
                    await self._back_off(failed)
                    if self.game_id is not None:
                        screen = await self.reload()
                        if screen is None:
                            failed += 1
                            continue
                await self.think()
                screen = await self.decide(screen)
                failed = 0 if screen is not None else failed + 1
        finally:
            await self.browser.close()

    async def _back_off(self, failed: int) -> None:
        await asyncio.sleep(BACKOFF_S[min(failed, len(BACKOFF_S)) - 1])

    async def think(self) -> None:
        """A human's thought before a decision."""
        low, high = self.pace.think
        if high > 0:
            await asyncio.sleep(self.rng.uniform(low, high))

    async def pause(self, seconds: float) -> None:
        """The page's own pause (skipped at the ceiling)."""
        if self.pace.pauses and seconds > 0:
            await asyncio.sleep(seconds)

    async def decide(self, screen: Screen | None) -> Screen | None:
        """Take the decision the screen asks for; the next screen (None after a failure)."""
        if screen is None or screen.kind == "over":
            return await self.new_game()
        path = f"/games/{screen.game_id}"
        version = [("version", screen.version or "")]
        if screen.kind == "pass" and len(screen.cards) >= 3:
            cards = self.rng.sample(screen.cards, 3)
            return await self.act(f"{path}/pass", version + [("cards", c) for c in cards], "card")
        if screen.kind == "play":
            card = self.rng.choice(screen.cards)
            return await self.act(f"{path}/play", [*version, ("card", card)], "card")
        if screen.kind == "moon":
            scoring = self.rng.choice(screen.scorings)
            return await self.act(f"{path}/moon", [*version, ("scoring", scoring)], "hand")
        if screen.kind == "next":
            return await self.act(f"{path}/next", version, "hand")
        # Nothing to do on this table (unexpected): look again after a moment.
        await asyncio.sleep(1.0)
        return await self.reload()

    async def new_game(self) -> Screen | None:
        """Post the new-game form and open the table it leads to."""
        form = [("level", self.level)]
        if self.fast_play:
            form.append(("fast_play", "on"))
        reply = await self.browser.request("POST", "/games", "new game", form)
        if reply is None or reply.status != 303 or not reply.location:
            return None
        number = reply.location.rstrip("/").rsplit("/", 1)[-1]
        self.game_id = int(number) if number.isdigit() else None
        page = await self.browser.request("GET", reply.location, "page")
        if page is None or page.status != 200:
            return None
        screen = read_screen(page.body)
        self.in_game = True
        return await self.follow(screen, "new game", reply.seconds + page.seconds)

    async def act(self, path: str, form: list[tuple[str, str]], kind: str) -> Screen | None:
        """Post one of the table's forms (as htmx does) and follow the computer players up to
        the player's next decision. Like the page, a post that fails (the network, a 5xx, 429)
        is sent again after the backoff or the server's `Retry-After`, whichever is longer; the
        decision's wait runs from the first post to the answer that lets the player go on."""
        started = time.monotonic()
        for attempt in range(len(BACKOFF_S) + 1):
            reply = await self.browser.request("POST", path, kind, form, htmx=True)
            if reply is not None and reply.status == 200:
                seconds = time.monotonic() - started
                return await self.follow(read_screen(reply.body), kind, seconds)
            if reply is not None and reply.status != 429 and reply.status < 500:
                return None
            if attempt == len(BACKOFF_S):
                break
            after = reply.retry_after if reply is not None else 0.0
            await asyncio.sleep(max(BACKOFF_S[attempt], after))
        return None

    async def follow(self, screen: Screen, kind: str, seconds: float) -> Screen | None:
        """Play out the computer players' cards (frames, or advance posts) and record the
        wait; the screen the player acts on next."""
        while True:
            await self.pause(screen.pause)
            if screen.kind != "advance":
                break
            await self.pause(max(0.0, screen.advance_delay - screen.pause))  # from the answer
            reply = await self.browser.request(
                "POST",
                f"/games/{screen.game_id}/advance",
                "advance",
                [("version", screen.version or "")],
                htmx=True,
            )
            if reply is None or reply.status != 200:
                return None
            seconds += reply.seconds
            screen = read_screen(reply.body)
        self.browser.recorder.wait(WaitSample(kind, self.browser.group, time.monotonic(), seconds))
        return screen

    async def reload(self) -> Screen | None:
        """Open the game page again (after a failure), or start a new game if there is none."""
        if self.game_id is None:
            return None
        page = await self.browser.request("GET", f"/games/{self.game_id}", "page")
        if page is None or page.status != 200:
            return None
        return await self.follow(read_screen(page.body), "page", page.seconds)


class Prober:
    """Checks that the server serves again after the load: `/healthz` and one real move of a
    game of its own, with short timeouts; its requests are not counted with the players'."""

    def __init__(self, base_url: str, timeout: float = 5.0) -> None:
        browser = Browser(base_url, Recorder(), "probe", timeout=timeout)
        self.player = Player(browser, "easy", True, Pace.ceiling(), random.Random(0))

    async def prepare(self) -> bool:
        """Open the site and start the probe's game (before the load)."""
        return await self.player.browser.open_home() and await self.player.new_game() is not None

    async def attempt(self) -> bool:
        """Whether `/healthz` answers 200 and the game takes one move right now."""
        browser = self.player.browser
        health = await browser.request("GET", "/healthz", "probe")
        screen = await self.player.reload()
        moved = (
            screen is not None
            and screen.kind != "none"
            and await self.player.decide(screen) is not None
        )
        return health is not None and health.status == 200 and moved

    async def close(self) -> None:
        """Close the probe's connections."""
        await self.player.browser.close()
