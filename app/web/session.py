"""The anonymous session cookie that identifies a browser (no account, UI-16)."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

from sqlalchemy.orm import Session
from starlette.requests import Request
from starlette.responses import Response

from app.store import repository
from app.store.models import Player
from app.web import i18n

COOKIE = "hearts_session"
MAX_AGE = 400 * 24 * 3600
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{22,128}$")


def current_player(request: Request, session: Session) -> Player:
    """The player of this browser; an unknown or malformed cookie gets a fresh player."""
    token = request.cookies.get(COOKIE, "")
    player = repository.get_player(session, token) if _TOKEN.match(token) else None
    if player is None:
        player = repository.create_player(session)
        request.state.new_session = player.id
    return player


async def session_cookie_middleware(
    request: Request, call_next: Callable[[Request], Awaitable[Response]]
) -> Response:
    """Set the cookie when a request created a new player."""
    response = await call_next(request)
    token = getattr(request.state, "new_session", None)
    if token is not None:
        remember(request, response, COOKIE, token)
    return response


def remember(request: Request, response: Response, cookie: str, value: str) -> None:
    """Keep `value` in this browser for about a year (every cookie of the app: HTTP-only, lax,
    secure when the settings say so)."""
    response.set_cookie(
        cookie,
        value,
        max_age=MAX_AGE,
        httponly=True,
        samesite="lax",
        secure=request.app.state.settings.secure_cookies,
        path="/",
    )


async def language_middleware(
    request: Request, call_next: Callable[[Request], Awaitable[Response]]
) -> Response:
    """Speak the remembered language, else the browser's (Accept-Language), else English."""
    i18n.activate(
        i18n.choose(request.cookies.get(i18n.COOKIE), request.headers.get("accept-language"))
    )
    response = await call_next(request)
    response.headers["Content-Language"] = i18n.current()
    return response
