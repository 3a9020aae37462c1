"""Builds the FastAPI app: settings, database, templates, middleware and routes.

Run with `uvicorn --factory app.web.main:create_app` after `alembic upgrade head` (README).
"""

from __future__ import annotations

from pathlib import Path

import jinja2
from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from app.settings import Settings
from app.store.db import make_engine, make_sessionmaker
from app.web import i18n, preferences, routes, routes_stats, stats_view
from app.web.security import SecurityMiddleware
from app.web.session import language_middleware, session_cookie_middleware
from app.web.table import card_view

ROOT = Path(__file__).resolve().parents[2]


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
    app.middleware("http")(language_middleware)
    app.middleware("http")(session_cookie_middleware)
    app.add_middleware(SecurityMiddleware, https=settings.secure_cookies)
    app.mount("/static", StaticFiles(directory=str(ROOT / "static")), name="static")
    app.include_router(routes.router)
    app.include_router(routes_stats.router)
    return app
