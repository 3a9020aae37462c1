"""Builds the FastAPI app: settings, database, templates, middleware and routes.

Run with `uvicorn --factory app.web.main:create_app` after `alembic upgrade head` (README).
"""

from __future__ import annotations

from pathlib import Path

import jinja2
from fastapi import FastAPI
from fastapi.templating import Jinja2Templates
from starlette.middleware.gzip import GZipMiddleware

from app.settings import Settings
from app.store.db import make_engine, make_sessionmaker
from app.web import i18n, preferences, routes, routes_stats, stats_view
from app.web.assets import StaticAssets
from app.web.guard import Admission, AdmissionGate, RequestGuard
from app.web.ratelimit import RateLimitMiddleware, RateLimits
from app.web.security import SecurityMiddleware
from app.web.session import language_middleware, session_cookie_middleware
from app.web.table import card_view

ROOT = Path(__file__).resolve().parents[2]
GZIP_LEVEL = 5
"""Cheap on CPU: level 9 takes twice the time to save about 2 % more on our pages."""
GZIP_MINIMUM_SIZE = 1024
"""Smaller responses (redirects, refusals) go as they are: gzip would save a few bytes."""


def make_templates() -> Jinja2Templates:
    """The Jinja2 environment, with gettext calls ready for translations."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(ROOT / "templates"),
        autoescape=jinja2.select_autoescape(),
        extensions=["jinja2.ext.i18n"],
        undefined=jinja2.StrictUndefined,
    )
    env.install_gettext_callables(  # type: ignore[attr-defined]
        i18n.gettext, i18n.ngettext, newstyle=True
    )
    env.globals["languages"] = i18n.LANGUAGES
    env.globals["language"] = i18n.current
    env.globals.update(  # formatting helpers of the statistics, history and replay pages
        number=stats_view.number,
        percent=stats_view.percent,
        when=stats_view.when,
        day=stats_view.day,
        names=stats_view.names,
        faces=stats_view.faces,
        face_of=card_view,
    )
    return Jinja2Templates(env=env, context_processors=[preferences.body_classes])


def create_app(settings: Settings | None = None) -> FastAPI:
    """A new app bound to `settings` (read from the environment by default)."""
    settings = settings or Settings.from_env()
    app = FastAPI(title="Hearts", docs_url=None, redoc_url=None, openapi_url=None)
    engine = make_engine(settings.database_url)
    app.state.settings = settings
    app.state.engine = engine
    app.state.sessionmaker = make_sessionmaker(engine)
    app.state.templates = make_templates()
    for language in i18n.LANGUAGES:  # compile the catalogues now, not on a first request
        i18n.translations(language)
    # Each middleware added wraps the ones before it. Compression is innermost, so it sees the
    # routes' own responses with their length (an `http` middleware re-streams them).
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_MINIMUM_SIZE, compresslevel=GZIP_LEVEL)
    app.middleware("http")(language_middleware)
    app.middleware("http")(session_cookie_middleware)
    app.add_middleware(SecurityMiddleware, https=settings.secure_cookies)
    # Outermost: the guard, then the rate limits, then admission.
    limits = settings.limits
    app.state.rate_limits = RateLimits(limits)
    app.state.admission = AdmissionGate(
        limits.max_active_requests, limits.queue_timeout, limits.max_queued_requests
    )
    app.add_middleware(Admission, gate=app.state.admission, retry_after=limits.busy_retry_after)
    app.add_middleware(RateLimitMiddleware, limits=app.state.rate_limits)
    app.add_middleware(RequestGuard, limits=limits)
    static = StaticAssets(ROOT / "static")
    app.state.templates.env.globals["static_url"] = static.url
    app.mount("/static", static, name="static")
    app.include_router(routes.router)
    app.include_router(routes_stats.router)
    return app
