"""Security headers, the cross-site request check (DESIGN.md, Requests) and the shape of a
state-changing request: a form, or nothing.

The refusals here answer requests no page of the app sends (a forged or scripted request), so
their plain-text bodies are not translated.
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlsplit

from starlette.datastructures import MutableHeaders
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "base-uri 'self'",
        "object-src 'none'",
    ]
)
SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
FORM_TYPES = {"application/x-www-form-urlencoded", "multipart/form-data"}
"""The bodies a state-changing request may carry: what a browser's form and htmx send."""
HSTS = "max-age=63072000; includeSubDomains"
"""Two years of HTTPS only, subdomains included (sent only when served over HTTPS)."""
_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
}
_HEADERS_HTTPS = {**_HEADERS, "Strict-Transport-Security": HSTS}


def security_headers(https: bool) -> Mapping[str, str]:
    """The headers every response carries; with `https` (the production configuration,
    `secure_cookies`) HSTS too."""
    return _HEADERS_HTTPS if https else _HEADERS


def is_cross_site(request: Request) -> bool:
    """Whether a state-changing request may come from another site (and is refused).

    Fetch metadata is trusted when the browser sends it ("same-origin" and "none", a typed URL
    or bookmark, are allowed): a proxy that rewrites Host must not refuse every form. Without
    it, Origin must name this host. A request with neither is refused: every browser sends one
    of the two on a POST, so only scripts and forged requests lack both."""
    site = request.headers.get("sec-fetch-site")
    if site is not None:
        return site not in ("same-origin", "none")
    origin = request.headers.get("origin")
    if origin is None:
        return True
    host = request.headers.get("host", "")
    try:
        netloc = urlsplit(origin).netloc
    except ValueError:  # e.g. "http://[": not a URL, so not this site
        return True
    return origin == "null" or netloc != host


def is_form(request: Request) -> bool:
    """Whether a state-changing request carries a form or no body at all.

    Every field is read from a form; a JSON or text body would read as an empty form, which some
    forms take as an answer (the settings form: both options off), so it would change state
    without having asked for anything. It is refused instead."""
    content_type = request.headers.get("content-type")
    if content_type is None:
        return True
    return content_type.split(";", 1)[0].strip().lower() in FORM_TYPES


class SecurityMiddleware:
    """Refuse cross-site POSTs and POSTs of anything but a form; add the security headers; keep
    pages (not static files) out of caches. Pure ASGI: `BaseHTTPMiddleware` costs about 0.2 ms
    of CPU per request."""

    def __init__(self, app: ASGIApp, https: bool) -> None:
        self.app = app
        self.headers = list(security_headers(https).items())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        page = not scope["path"].startswith("/static/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in self.headers:
                    headers[name] = value
                if page:
                    headers["Cache-Control"] = "no-store"
                    headers.add_vary_header("HX-Request, Cookie")
            await send(message)

        refused: Response | None = None
        if scope["method"] not in SAFE_METHODS:
            request = Request(scope)
            if is_cross_site(request):
                refused = PlainTextResponse("Cross-site request refused.", status_code=403)
            elif not is_form(request):
                refused = PlainTextResponse("Only form posts are accepted.", status_code=415)
        if refused is not None:
            await refused(scope, receive, send_with_headers)
        else:
            await self.app(scope, receive, send_with_headers)
