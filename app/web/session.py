"""Cookies: the anonymous session cookie that identifies a browser (no account, UI-16), the
language and the display preferences.

The session cookie is sent only when a use case issued a token: the browser's first
state-changing request created its player, or an hourly refresh of its last visit. It lives as
long as the retention period (an idle browser's games are purged after that), so a refresh on
each visit keeps it alive exactly as long as its games.
"""

from __future__ import annotations

from starlette.datastructures import Headers, MutableHeaders
from starlette.requests import Request, cookie_parser
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.services.players import Caller
from app.settings import Settings
from app.web import i18n
from app.web.deps import cookie_name


class SessionMiddleware:
    """Per request: speak the remembered language (else the browser's `Accept-Language`, else
    English) and say so in `Content-Language`; send the session cookie when the request's use
    case issued a token. A plain ASGI middleware: it adds no task or stream per request."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        cookies = cookie_parser(headers.get("cookie", ""))
        language = i18n.choose(cookies.get(i18n.COOKIE), headers.get("accept-language"))
        i18n.activate(language)
        state = scope.setdefault("state", {})

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                out = MutableHeaders(scope=message)
                out["Content-Language"] = language
                caller: Caller | None = state.get("caller")
                if caller is not None and caller.issued is not None:
                    settings = scope["app"].state.settings
                    value = _cookie(settings, cookie_name(settings), caller.issued)
                    out.append("set-cookie", value)
            await send(message)

        await self.app(scope, receive, send_with_cookie)


def remember(request: Request, response: Response, cookie: str, value: str) -> None:
    """Keep `value` in this browser for the retention period (every cookie of the app:
    HTTP-only, lax, and secure when the settings say so)."""
    response.raw_headers.append(
        (b"set-cookie", _cookie(request.app.state.settings, cookie, value).encode("latin-1"))
    )


def _cookie(settings: Settings, cookie: str, value: str) -> str:
    """The `Set-Cookie` value of one of the app's cookies."""
    response = Response()
    response.set_cookie(
        cookie,
        value,
        max_age=settings.session_max_age,
        httponly=True,
        samesite="lax",
        secure=settings.secure_cookies,
        path="/",
    )
    return response.headers["set-cookie"]
