"""Fixtures for the store tests: a freshly migrated database per test, SQLite and PostgreSQL.

`database_url` is parametrized: "sqlite" is a new temporary SQLite file; "postgres" is a new
database on the server of env `HEARTS_TEST_POSTGRES_URL` (`scripts/test` starts a private one),
dropped after the test. Without that variable the PostgreSQL cases skip, unless
`HEARTS_REQUIRE_POSTGRES=1`, when they fail.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, NullPool, create_engine, make_url
from sqlalchemy.orm import Session, sessionmaker

from app.store import make_engine, make_sessionmaker, writer

REPO = Path(__file__).resolve().parents[2]
ALEMBIC_INI = REPO / "alembic.ini"
POSTGRES_URL_ENV = "HEARTS_TEST_POSTGRES_URL"
REQUIRE_POSTGRES_ENV = "HEARTS_REQUIRE_POSTGRES"


def alembic_config(url: str | None = None, connection: Connection | None = None) -> Config:
    """A Config for the repository's alembic.ini aimed at `url` or at an open `connection`."""
    config = Config(str(ALEMBIC_INI))
    config.attributes["configure_logger"] = False
    if url is not None:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def migrate(url: str) -> None:
    """`alembic upgrade head` on `url`."""
    command.upgrade(alembic_config(url), "head")


def _postgres_admin_url() -> str:
    url = os.environ.get(POSTGRES_URL_ENV, "")
    if not url:
        message = f"{POSTGRES_URL_ENV} is not set (scripts/test sets it when PostgreSQL exists)"
        if os.environ.get(REQUIRE_POSTGRES_ENV) == "1":
            pytest.fail(f"{message}, and {REQUIRE_POSTGRES_ENV}=1")
        pytest.skip(message)
    return url


@contextmanager
def migrated_database(kind: str, directory: Path) -> Iterator[str]:
    """The URL of a freshly migrated, empty database of `kind` ("sqlite": a file in
    `directory`; "postgres": a new database, dropped when the block ends)."""
    if kind == "sqlite":
        url = f"sqlite:///{directory / 'hearts.db'}"
        migrate(url)
        yield url
        return
    admin_url = _postgres_admin_url()
    name = f"hearts_test_{uuid.uuid4().hex[:16]}"
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT", poolclass=NullPool)
    try:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
        try:
            url = make_url(admin_url).set(database=name).render_as_string(hide_password=False)
            migrate(url)
            yield url
        finally:
            with admin.connect() as conn:
                conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        admin.dispose()


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of a freshly migrated, empty database of each kind."""
    with migrated_database(request.param, tmp_path) as url:
        yield url


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    """The app's engine on the test database."""
    engine = make_engine(database_url)
    yield engine
    engine.dispose()


@pytest.fixture
def sessions(engine: Engine) -> sessionmaker[Session]:
    """Sessions on the test database whose transactions write (`BEGIN IMMEDIATE` on SQLite, as
    the app's write transactions)."""
    return make_sessionmaker(writer(engine))
