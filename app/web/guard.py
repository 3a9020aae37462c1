"""The request guard: size and time limits, admission control, and the pages that refuse.

Pure ASGI middlewares (no `BaseHTTPMiddleware`, which costs a task and a stream per request):

- `RequestGuard`, outermost: request headers over the limit get 431; a body over the limit gets
  413 at once when `Content-Length` says so, else as soon as the bytes received pass it; a body
  not complete within the body timeout (sent too slowly, or shorter than its `Content-Length`)
  gets 408. It reads the whole body (a few KB for our forms) before anything else runs and hands
  it on, so a slow client never holds a place of `Admission`. These answers close the connection.
- `Admission`: at most N requests in progress in this process; a request that finds no place
  waits in line at most a short time, then gets 503 with `Retry-After`, so nobody waits long to
  start and the server never queues more than it can clear. Static files and `/healthz` skip it.
  A request that waits on work done elsewhere (the Hard player thinking in its own process)
  steps aside meanwhile (`stepping_aside`): its place goes to the next in line, and it takes
  the first free place back, ahead of the line.

`refusal` renders every such answer without the database (it may be what is down): a small page
in the site's style, or for an htmx request a one-line fragment. A GET page refused with 503 or
429 reloads itself after `Retry-After` seconds. A form posted without htmx (a new game, the
language, the settings) gets a page holding the same form, which the page posts again after
`Retry-After` seconds (a button does it at once): a refused post changed nothing, so posting it
again is safe. Routes answer a busy database the same way with `busy_response`.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from typing import Any
from urllib.parse import parse_qsl

import jinja2
from anyio import from_thread
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.settings import Limits
from app.web import i18n, preferences
from app.web.i18n import N_
from app.web.security import is_cross_site, security_headers

TEXTS: dict[int, tuple[str, str]] = {
    408: (
        N_("Request timed out"),
        N_("Your browser took too long to send the form. Please try again."),
    ),
    413: (
        N_("Request too large"),
        N_("The form you sent is larger than this site accepts."),
    ),
    429: (
        N_("Too many requests"),
        N_("You are going faster than the server allows. Please wait a moment."),
    ),
    431: (
        N_("Request headers too large"),
        N_(
            "Your browser sent more data in its headers than this site accepts; deleting this "
            "site's cookies will help."
        ),
    ),
    503: (
        N_("The server is busy"),
        N_("Too many people are playing right now. Please try again in a moment."),
    ),
}
"""Each refusal's title and explanation."""
RETRYABLE = (429, 503)
CLOSES = (408, 413, 431)
"""Refusals sent before the body was read (or while it is still coming): the connection closes."""
EXEMPT = ("/static/", "/healthz")
"""Paths `Admission` lets through: cheap, and the health check must answer under load."""
BODY = "hearts.body"
"""The scope key under which `RequestGuard` leaves the body it read (for `refusal`)."""
MAX_RESUBMITTED_FIELDS = 64
"""A refused form with more fields than this (no page sends one) is not offered again."""


def _is_htmx(request: Request) -> bool:
    """A partial update: an htmx request that is not a history restore."""
    return (
        request.headers.get("hx-request") == "true"
        and request.headers.get("hx-history-restore-request") != "true"
    )


def refusal(request: Request, status: int, retry_after: int | None = None) -> Response:
    """The answer `status` (408, 413, 429, 431 or 503) to `request`, in the visitor's language:
    an htmx fragment or a page; `Retry-After` when given. Reads no database."""
    i18n.activate(
        i18n.choose(request.cookies.get(i18n.COOKIE), request.headers.get("accept-language"))
    )
    htmx, is_get = _is_htmx(request), request.method in ("GET", "HEAD")
    env = request.app.state.templates.env
    body_classes = preferences.body_classes(request)["body_classes"]
    fields = None
    if status in RETRYABLE and not htmx and not is_get:
        fields = _posted_fields(request)
    if fields is None:
        html = _render(env, status, retry_after, i18n.current(), htmx, is_get, body_classes)
    else:
        action = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        html = _page(env, status, retry_after, htmx, is_get, body_classes, (action, fields))
    response = HTMLResponse(html, status_code=status)
    headers = response.headers
    headers.update(security_headers(request.app.state.settings.secure_cookies))
    headers["Cache-Control"] = "no-store"
    headers["Vary"] = "HX-Request, Cookie"
    headers["Content-Language"] = i18n.current()
    if retry_after is not None:
        headers["Retry-After"] = str(retry_after)
    if status in CLOSES:
        headers["Connection"] = "close"
    return response


def _posted_fields(request: Request) -> list[tuple[str, str]] | None:
    """The fields of the URL-encoded form `request` posted (as `RequestGuard` read it), to
    post again; None for any other body, and for a post from another site (refused here before
    the origin check: offered again, it would come from this site)."""
    if is_cross_site(request):
        return None
    body: bytes = request.scope.get(BODY, b"")
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if body and kind != "application/x-www-form-urlencoded":
        return None
    try:
        return parse_qsl(
            body.decode("utf-8"),
            keep_blank_values=True,
            strict_parsing=bool(body),
            max_num_fields=MAX_RESUBMITTED_FIELDS,
        )
    except ValueError:  # not UTF-8 (UnicodeDecodeError), malformed, or too many fields
        return None


@lru_cache(maxsize=256)
def _render(
    env: jinja2.Environment,
    status: int,
    retry_after: int | None,
    language: str,
    htmx: bool,
    is_get: bool,
    body_classes: str,
) -> str:
    """A refusal's HTML with no form to post again. It depends on nothing else (not even the
    URL: "Try again" is the empty link, this very page; the language switch returns to the
    start page), so each is rendered once: refusing a flood must be cheap (a page takes
    0.15 ms to render, a cached one 0.02 ms)."""
    del language  # the key of the cache: `_page` renders in the active language
    return _page(env, status, retry_after, htmx, is_get, body_classes, None)


def _page(
    env: jinja2.Environment,
    status: int,
    retry_after: int | None,
    htmx: bool,
    is_get: bool,
    body_classes: str,
    resubmit: tuple[str, list[tuple[str, str]]] | None,
) -> str:
    """A refusal's HTML; `resubmit` is the action and the fields of a form to post again."""
    title, text = TEXTS[status]
    context: dict[str, Any] = {
        "status": status,
        "title": title,
        "text": text,
        "retry_after": retry_after,
        "refresh": retry_after if is_get and status in RETRYABLE else None,
        "again": is_get and status not in CLOSES,
        "return_to": "/",
        "body_classes": body_classes,
        "resubmit": resubmit,
    }
    template = env.get_template("refused.html")
    if htmx:
        return "".join(template.blocks["notice"](template.new_context(context)))
    return template.render(context)


def busy_response(request: Request, status: int, retry_after: int) -> Response:
    """The answer to a request that cannot be served now: 503 (the server or its database is
    busy) or 429 (this client is over its limit), with `Retry-After: retry_after`."""
    if status not in RETRYABLE:
        raise ValueError(f"busy_response answers 503 or 429, not {status}")
    return refusal(request, status, retry_after)


async def _refuse(scope: Scope, receive: Receive, send: Send, status: int) -> None:
    await refusal(Request(scope), status)(scope, receive, send)


class RequestGuard:
    """431 for large headers, 413 for large bodies, 408 for slow ones; bodies read up front."""

    def __init__(self, app: ASGIApp, limits: Limits) -> None:
        self.app = app
        self.max_header_bytes = limits.max_header_bytes
        self.max_body_bytes = limits.max_body_bytes
        self.body_timeout = limits.body_timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        size = 0
        length: bytes | None = None
        chunked = False
        for name, value in scope["headers"]:
            size += len(name) + len(value)
            if name == b"content-length":
                length = value
            elif name == b"transfer-encoding":
                chunked = True
        if size > self.max_header_bytes:
            await _refuse(scope, receive, send, 431)
            return
        if length is not None and not chunked:
            if not length.isdigit():  # the HTTP parser refuses these first; never trust it
                await PlainTextResponse("Bad Content-Length.", 400)(scope, receive, send)
                return
            if int(length) > self.max_body_bytes:
                await _refuse(scope, receive, send, 413)
                return
            if int(length) == 0:
                length = None
        if length is None and not chunked:  # no body: nothing to read or to wait for
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        received = 0
        try:
            async with asyncio.timeout(self.body_timeout):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return  # the client left; nobody to answer
                    chunk: bytes = message.get("body", b"")
                    received += len(chunk)
                    if received > self.max_body_bytes:
                        break
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            await _refuse(scope, receive, send, 408)
            return
        if received > self.max_body_bytes:
            await _refuse(scope, receive, send, 413)
            return
        body = b"".join(chunks)
        scope[BODY] = body
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()  # after the body: the disconnect, when it comes
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


class AdmissionGate:
    """At most `limit` requests in progress; others wait in line (first come, first served)
    for at most `timeout` seconds, and at most `max_queued` of them at once."""

    def __init__(self, limit: int, timeout: float, max_queued: int) -> None:
        self.limit = limit
        self.timeout = timeout
        self.max_queued = max_queued
        self.active = 0
        """Requests in progress."""
        self.admitted = 0
        """Requests let in so far."""
        self.refused = 0
        """Requests refused so far (no place within the timeout, or the line full)."""
        self._line: deque[asyncio.Future[bool]] = deque()

    @property
    def queued(self) -> int:
        """Requests waiting for a place."""
        return len(self._line)

    async def enter(self) -> bool:
        """Take a place, waiting in line if need be; False when none came in time."""
        if self.active < self.limit and not self._line:
            self.active += 1
            self.admitted += 1
            return True
        if len(self._line) >= self.max_queued:
            self.refused += 1
            return False
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[bool] = loop.create_future()
        self._line.append(waiter)
        timer = loop.call_later(self.timeout, self._give_up, waiter)
        try:
            admitted = await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled() and waiter.result():
                self.leave()  # a place was handed over just as this request was cancelled
            elif waiter in self._line:
                self._line.remove(waiter)
            raise
        finally:
            timer.cancel()
        if admitted:
            self.admitted += 1
        else:
            self.refused += 1
        return admitted

    async def rejoin(self) -> None:
        """Take a place back after stepping aside: ahead of the line, with no time limit (the
        request has done part of its work already)."""
        if self.active < self.limit and not self._line:
            self.active += 1
            return
        waiter: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._line.appendleft(waiter)
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self.leave()
            elif waiter in self._line:
                self._line.remove(waiter)
            raise

    def _give_up(self, waiter: asyncio.Future[bool]) -> None:
        if not waiter.done():
            self._line.remove(waiter)
            waiter.set_result(False)

    def leave(self) -> None:
        """Give the place back: to the first in line, else free it."""
        while self._line:
            waiter = self._line.popleft()
            if not waiter.done():
                waiter.set_result(True)  # the place passes on; `active` stays
                return
        self.active -= 1


class _Place:
    """A request's place at the gate, which it may give up for a while and take back."""

    def __init__(self, gate: AdmissionGate) -> None:
        self.gate = gate
        self.held = True

    def release(self) -> None:
        if self.held:
            self.held = False
            self.gate.leave()

    async def retake(self) -> None:
        if not self.held:
            await self.gate.rejoin()
            self.held = True


_place: ContextVar[_Place | None] = ContextVar("admission_place", default=None)


@contextmanager
def stepping_aside() -> Iterator[None]:
    """In a request's worker thread, around a wait for work done elsewhere: the request's place
    goes to the next in line meanwhile, and is taken back (ahead of the line) after. Nothing
    happens outside an admitted request."""
    place = _place.get()
    if place is None or not place.held:
        yield
        return
    from_thread.run_sync(place.release)
    try:
        yield
    finally:
        from_thread.run(place.retake)


class Admission:
    """Let a request in through `gate`, else answer 503 with `Retry-After`."""

    def __init__(self, app: ASGIApp, gate: AdmissionGate, retry_after: int) -> None:
        self.app = app
        self.gate = gate
        self.retry_after = retry_after

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].startswith(EXEMPT):
            await self.app(scope, receive, send)
            return
        if not await self.gate.enter():
            await refusal(Request(scope), 503, self.retry_after)(scope, receive, send)
            return
        place = _Place(self.gate)
        token = _place.set(place)
        try:
            await self.app(scope, receive, send)
        finally:
            _place.reset(token)
            place.release()
