"""Cookies: the anonymous session cookie that identifies a browser (no account, UI-16), the
language and the display preferences.

The session cookie is sent only when a use case issued a token: the browser's first
state-changing request created its player, or an hourly refresh of its last visit. It lives as
long as the retention period (an idle browser's games are purged after that), so a refresh on
each visit keeps it alive exactly as long as its games.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import Response

from app.services.players import Caller
from app.web import i18n
from app.web.deps import cookie_name


async def session_cookie_middleware(
    request: Request, call_next: Callable[[Request], Awaitable[Response]]
) -> Response:
    """Send the session cookie when the request's use case issued a token."""
    response = await call_next(request)
    caller: Caller | None = getattr(request.state, "caller", None)
    if caller is not None and caller.issued is not None:
        remember(request, response, cookie_name(request.app.state.settings), caller.issued)
    return response


def remember(request: Request, response: Response, cookie: str, value: str) -> None:
    """Keep `value` in this browser for the retention period (every cookie of the app:
    HTTP-only, lax, and secure when the settings say so)."""
    settings = request.app.state.settings
    response.set_cookie(
        cookie,
        value,
        max_age=settings.session_max_age,
        httponly=True,
        samesite="lax",
        secure=settings.secure_cookies,
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
