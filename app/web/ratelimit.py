"""Rate limits per session and per client address (the `limits` library, counted per process).

A session is the raw value of the session cookie (no database access: an invented value is just
another session, and the per-address limits still hold). An address is `scope["client"]`, which
uvicorn's `--proxy-headers` sets from `X-Forwarded-For` behind a trusted proxy. The middleware
limits every dynamic request (not `/static/`); the routes ask `allow_new_session` and
`allow_new_game` before creating things. Over a limit the answer is 429 with `Retry-After` (the
friendly page or htmx fragment of `guard.refusal`). The rates are settings (`app.settings.Limits`)
and the counters live in this process's memory: with several processes each counts its own share.
"""

from __future__ import annotations

import time
from math import ceil

from limits import RateLimitItem, parse_many
from limits.strategies import SlidingWindowCounterRateLimiter
from starlette.requests import Request, cookie_parser
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from app.settings import Limits
from app.web.guard import refusal
from app.web.rate_storage import LazyMemoryStorage

SESSION_COOKIES = ("__Host-hearts_session", "hearts_session")
"""The session cookie's names: with the `__Host-` prefix (HTTPS) and without."""


def _rates(text: str) -> list[RateLimitItem]:
    """The rate limits of a setting ("20/second;300/minute"); none for an empty one."""
    return parse_many(text) if text.strip() else []


class RateLimits:
    """The rate limits of one app: each check counts one request or one creation."""

    def __init__(self, limits: Limits) -> None:
        self.enabled = limits.rate_limits
        self._limiter = SlidingWindowCounterRateLimiter(LazyMemoryStorage())
        self._session = _rates(limits.rate_session)
        self._address = _rates(limits.rate_address)
        self._address_new_sessions = _rates(limits.rate_address_new_sessions)
        self._session_new_games = _rates(limits.rate_session_new_games)
        self._address_new_games = _rates(limits.rate_address_new_games)
        self.refused = 0
        """How many requests and creations were refused (for tests and benchmarks)."""

    def _hit(self, rates: list[RateLimitItem], *key: str) -> int:
        """Count one hit against every rate of `rates`; 0 when allowed, else the seconds to
        wait (the hits counted before the refusing rate stay counted)."""
        for rate in rates:
            if not self._limiter.hit(rate, *key):
                self.refused += 1
                return self._wait(rate, *key)
        return 0

    def _wait(self, rate: RateLimitItem, *key: str) -> int:
        """Whole seconds until `rate` allows another hit for `key` (at least 1)."""
        reset_at = self._limiter.get_window_stats(rate, *key).reset_time
        return max(1, ceil(reset_at - time.time()))

    def _waiting(self, rates: list[RateLimitItem], *key: str) -> int:
        """The seconds to wait for the rates of `rates` that are used up (0 when none is)."""
        waits = [
            self._wait(rate, *key)
            for rate in rates
            if self._limiter.get_window_stats(rate, *key).remaining == 0
        ]
        return max(waits, default=0)

    def request_wait(self, session: str | None, address: str) -> int:
        """Count a request; 0 when allowed, else the seconds to wait before the next."""
        if not self.enabled:
            return 0
        # The session first: a request it refuses costs its address nothing, so one script
        # behind a shared address (an office, a school) does not use up everyone's rate.
        if session and (wait := self._hit(self._session, "session", session)):
            return wait
        return self._hit(self._address, "address", address)

    def allow_new_session(self, address: str) -> bool:
        """Count a new anonymous player from `address`; False when over the limit."""
        return not self.enabled or not self._hit(self._address_new_sessions, "new-session", address)

    def new_session_wait(self, address: str) -> int:
        """Seconds until `address` may create a player again (0: now); counts nothing."""
        if not self.enabled:
            return 0
        return self._waiting(self._address_new_sessions, "new-session", address)

    def allow_new_game(self, session: str | None, address: str) -> bool:
        """Count a new game of `session` from `address`; False when over either limit."""
        if not self.enabled:
            return True
        if session and self._hit(self._session_new_games, "new-game", session):
            return False
        return not self._hit(self._address_new_games, "new-game-address", address)

    def new_game_wait(self, session: str | None, address: str) -> int:
        """Seconds until `session` at `address` may start a game again (0: now); counts
        nothing."""
        if not self.enabled:
            return 0
        wait = self._waiting(self._address_new_games, "new-game-address", address)
        if session:
            wait = max(wait, self._waiting(self._session_new_games, "new-game", session))
        return wait


def client_address(scope: Scope) -> str:
    """The client's address ("" when unknown, e.g. a Unix socket)."""
    client = scope.get("client")
    return client[0] if client else ""


def session_of(scope: Scope) -> str | None:
    """The raw session cookie of a request, if it has one."""
    for name, value in scope["headers"]:
        if name == b"cookie":
            cookies = cookie_parser(value.decode("latin-1"))
            for cookie in SESSION_COOKIES:
                if cookies.get(cookie):
                    return cookies[cookie]
    return None


def rate_limits(request: Request) -> RateLimits:
    """The app's rate limits."""
    limits: RateLimits = request.app.state.rate_limits
    return limits


def refuse_new_session(request: Request) -> Response | None:
    """For a route about to create an anonymous player: None when allowed (one counted),
    else the 429 answer to send instead."""
    limits = rate_limits(request)
    address = client_address(request.scope)
    if limits.allow_new_session(address):
        return None
    return refusal(request, 429, limits.new_session_wait(address))


def refuse_new_game(request: Request) -> Response | None:
    """For a route about to start a game: None when allowed (one counted), else the 429
    answer to send instead."""
    limits = rate_limits(request)
    session, address = session_of(request.scope), client_address(request.scope)
    if limits.allow_new_game(session, address):
        return None
    return refusal(request, 429, limits.new_game_wait(session, address))


class RateLimitMiddleware:
    """Answer 429 with `Retry-After` to a session or an address over its request rate."""

    def __init__(self, app: ASGIApp, limits: RateLimits) -> None:
        self.app = app
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and self.limits.enabled
            and not scope["path"].startswith("/static/")
        ):
            wait = self.limits.request_wait(session_of(scope), client_address(scope))
            if wait:
                await refusal(Request(scope), 429, wait)(scope, receive, send)
                return
        await self.app(scope, receive, send)
