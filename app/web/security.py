"""Security headers, the cross-site request check (DESIGN.md, Requests) and the shape of a
state-changing request: a form, or nothing.

The refusals here answer requests no page of the app sends (a forged or scripted request), so
their plain-text bodies are not translated.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

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


async def security_middleware(
    request: Request, call_next: Callable[[Request], Awaitable[Response]]
) -> Response:
    """Refuse cross-site POSTs and POSTs of anything but a form; add security headers; keep game
    pages out of caches."""
    response: Response
    if request.method not in SAFE_METHODS and is_cross_site(request):
        response = PlainTextResponse("Cross-site request refused.", status_code=403)
    elif request.method not in SAFE_METHODS and not is_form(request):
        response = PlainTextResponse("Only form posts are accepted.", status_code=415)
    else:
        response = await call_next(request)
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "same-origin"
    response.headers["X-Frame-Options"] = "DENY"
    if not request.url.path.startswith("/static/"):
        response.headers["Cache-Control"] = "no-store"
        response.headers["Vary"] = "HX-Request, Cookie"
    return response
