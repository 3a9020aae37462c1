"""Builds the FastAPI app: settings, services, templates, middleware, error pages and routes.

Run with `uvicorn --factory app.web.main:create_app` after `alembic upgrade head` (README).
"""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import cache
from pathlib import Path

import anyio.to_thread
import jinja2
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import PlainTextResponse, Response
from fastapi.templating import Jinja2Templates
from starlette.middleware.gzip import GZipMiddleware

from app.services.database import ServiceUnavailableError
from app.services.games import GameNotFoundError
from app.services.players import RateLimitedError
from app.settings import Settings
from app.web import (
    card_html,
    fragments,
    i18n,
    preferences,
    routes,
    routes_coach,
    routes_deals,
    routes_fair,
    routes_stats,
    stats_view,
)
from app.web.assets import StaticAssets, StaticShortcut
from app.web.deps import Services
from app.web.guard import Admission, AdmissionGate, RequestGuard, busy_response
from app.web.ratelimit import RateLimitMiddleware, RateLimits
from app.web.security import SecurityMiddleware, security_headers
from app.web.session import SessionMiddleware

ROOT = Path(__file__).resolve().parents[2]
GZIP_LEVEL = 5
"""Cheap on CPU: level 9 takes twice the time to save about 2 % more on our pages."""
GZIP_MINIMUM_SIZE = 1024
"""Smaller responses (redirects, refusals) go as they are: gzip would save a few bytes."""
GC_YOUNG_THRESHOLD = 10_000
"""Net allocations between two collections of young objects (CPython's default: 700)."""


@cache
def tune_gc() -> None:
    """Once per process, when the server has started: the objects of start-up (modules, routes,
    templates, catalogues) go to the collector's permanent generation, so no full collection
    scans them again, and young objects are collected less often. Measured over whole games in
    one process: full collections went from about 100 ms each to under 10 ms, and the
    collector's time from 0.8 to 0.05 ms per request; each full collection stopped every request
    of the process."""
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_THRESHOLD, older, oldest)


def make_templates() -> Jinja2Templates:
    """The Jinja2 environment, with gettext calls ready for translations."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(ROOT / "templates"),
        autoescape=jinja2.select_autoescape(),
        extensions=["jinja2.ext.i18n"],
        undefined=jinja2.StrictUndefined,
        auto_reload=False,  # templates are read once at start-up, not stat()ed per include
    )
    env.install_gettext_callables(  # type: ignore[attr-defined]
        i18n.gettext, i18n.ngettext, newstyle=True
    )
    # The same new-style calls, without Jinja's context-passing wrappers around them.
    env.globals.update(
        _=i18n.template_gettext, gettext=i18n.template_gettext, ngettext=i18n.template_ngettext
    )
    env.globals["languages"] = i18n.LANGUAGES
    env.globals["language"] = i18n.current
    env.globals["name"] = i18n.name
    env.globals.update(  # formatting helpers of the statistics, history and replay pages
        number=stats_view.number,
        percent=stats_view.percent,
        when=stats_view.when,
        day=stats_view.day,
        full_day=stats_view.full_day,
        names=stats_view.names,
        faces=stats_view.faces,
    )
    env.globals.update(  # cards, drawn once each (app/web/card_html.py)
        card_face=card_html.face,
        card_inline=card_html.inline,
        card_back=card_html.BACK,
    )
    env.globals["trick_row"] = fragments.CachedMacro(env, "partials/trick_row.html", "trick_row")
    return Jinja2Templates(env=env, context_processors=[preferences.body_classes])


def create_app(settings: Settings | None = None) -> FastAPI:
    """A new app bound to `settings` (read from the environment by default)."""
    settings = settings or Settings.from_env()
    services = Services.from_settings(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # As many request threads as database connections: no thread waits for a connection.
        anyio.to_thread.current_default_thread_limiter().total_tokens = settings.threads
        await anyio.to_thread.run_sync(services.thinkers.start)
        tune_gc()
        try:
            yield
        finally:
            services.thinkers.close()
            services.db.dispose()

    app = FastAPI(
        title="Hearts", docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan
    )
    app.state.settings = settings
    app.state.services = services
    app.state.templates = make_templates()
    for language in i18n.LANGUAGES:  # compile the catalogues now, not on a first request
        i18n.translations(language)
    app.add_exception_handler(GameNotFoundError, _not_found)
    app.add_exception_handler(RequestValidationError, _unreadable)
    app.add_exception_handler(ServiceUnavailableError, _unavailable)
    app.add_exception_handler(RateLimitedError, _rate_limited)
    # Each middleware added wraps the ones before it. Compression is innermost, so it sees the
    # routes' own responses with their length.
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_MINIMUM_SIZE, compresslevel=GZIP_LEVEL)
    app.add_middleware(SessionMiddleware)
    app.add_middleware(SecurityMiddleware, https=settings.secure_cookies)
    # Outermost: the guard, then the rate limits, then admission.
    limits = settings.limits
    app.state.rate_limits = RateLimits(limits)
    app.state.admission = AdmissionGate(
        limits.max_active_requests, limits.queue_timeout, limits.max_queued_requests
    )
    app.add_middleware(Admission, gate=app.state.admission, retry_after=limits.busy_retry_after)
    app.add_middleware(RateLimitMiddleware, limits=app.state.rate_limits)
    static = StaticAssets(ROOT / "static")
    app.state.templates.env.globals["static_url"] = static.url
    app.mount("/static", static, name="static")
    # Static files known at start-up are answered from memory right inside the guard.
    headers = security_headers(settings.secure_cookies)
    app.add_middleware(StaticShortcut, assets=static, headers=headers, mount="/static/")
    app.add_middleware(RequestGuard, limits=limits)
    app.include_router(routes.router)
    app.include_router(routes_stats.router)
    app.include_router(routes_fair.router)
    app.include_router(routes_coach.router)
    app.include_router(routes_deals.router)
    return app


def _not_found(request: Request, exc: Exception) -> Response:
    return routes.not_found(request)


def _unreadable(request: Request, exc: Exception) -> Response:
    # A form field FastAPI could not read as text (a file posted where a field belongs): no
    # page sends one, and the default answer would echo the upload's internals as JSON.
    return PlainTextResponse("The form could not be read.", status_code=400)


def _unavailable(request: Request, exc: Exception) -> Response:
    retry = exc.retry_after if isinstance(exc, ServiceUnavailableError) else 1
    return busy_response(request, 503, retry)


def _rate_limited(request: Request, exc: Exception) -> Response:
    retry = exc.retry_after if isinstance(exc, RateLimitedError) else 1
    return busy_response(request, 429, retry)
