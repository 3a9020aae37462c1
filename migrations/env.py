"""Alembic environment: migrates the database of `app.store.db.database_url()`.

The URL comes, in order of preference, from a connection passed in programmatically
(`config.attributes["connection"]`), from `sqlalchemy.url` set on the Config by a caller, or from
`DATABASE_URL` via `database_url()`. SQLite runs in batch mode (table copies for ALTERs); on a
connection env.py opens itself, foreign keys are off during the migration (a table copy would
otherwise cascade deletes into child tables) and `PRAGMA foreign_key_check` runs after it.
"""

from __future__ import annotations

from logging.config import fileConfig
from typing import Any

from alembic import context
from sqlalchemy import Connection, TypeDecorator, text

from app.store.db import database_url, make_engine
from app.store.models import Base, UTCDateTime

config = context.config

if config.config_file_name is not None and config.attributes.get("configure_logger", True):
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = Base.metadata


def _render_item(kind: str, obj: Any, autogen_context: Any) -> str | bool:
    """Render the app's UTC timestamp type as the plain type it stores."""
    if kind == "type" and isinstance(obj, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    if kind == "type" and isinstance(obj, TypeDecorator):
        raise NotImplementedError(f"teach migrations/env.py to render {type(obj).__name__}")
    return False


def _configure(**kwargs: Any) -> None:
    context.configure(
        target_metadata=target_metadata,
        render_as_batch=True,
        compare_type=True,
        render_item=_render_item,
        **kwargs,
    )


def _url() -> str:
    return config.get_main_option("sqlalchemy.url") or database_url()


def run_migrations_offline() -> None:
    """Emit the SQL to stdout instead of running it (`alembic upgrade head --sql`)."""
    _configure(url=_url(), literal_binds=True, dialect_opts={"paramstyle": "named"})
    with context.begin_transaction():
        context.run_migrations()


def _run(connection: Connection) -> None:
    # Every database here has transactional DDL (SQLite too, with the driver's own transaction
    # handling off), so a migration that fails halfway leaves nothing behind.
    _configure(connection=connection, transactional_ddl=True)
    with context.begin_transaction():
        context.run_migrations()
        if connection.dialect.name == "sqlite":
            broken = connection.execute(text("PRAGMA foreign_key_check")).all()
            if broken:
                raise RuntimeError(f"the migration broke foreign keys: {broken[:5]}")


def run_migrations_online() -> None:
    """Run the migrations on a passed-in connection or on a new engine for the URL."""
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = make_engine(_url(), foreign_keys=False)
    try:
        with engine.connect() as conn:
            _run(conn)
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
