"""Helpers of the hostile-input tests: an app served on its own database for a whole test
module, and every row of that database, to prove that a request changed nothing."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import select
from starlette.testclient import TestClient

from app.settings import Limits, Settings
from app.store.models import Base
from app.web.main import create_app
from tests.store.conftest import migrated_database
from tests.web.conftest import BROWSER

Rows = dict[str, list[tuple[object, ...]]]


@contextmanager
def served(kind: str, directory: Path) -> Iterator[TestClient]:
    """A browser-like client of the app on a new database of `kind` ("sqlite" or "postgres"),
    for tests that share one app (each of them proves it changed nothing)."""
    with migrated_database(kind, directory) as url:
        # No rate limits: these requests come much faster than any person's.
        settings = Settings(
            database_url=url,
            secure_cookies=False,
            thinker_processes=0,
            limits=Limits(rate_limits=False),
        )
        with TestClient(create_app(settings), headers=BROWSER) as client:
            yield client


def all_rows(client: TestClient) -> Rows:
    """Every row of every table of the app's database, in primary-key order."""
    db = client.app.state.services.db  # type: ignore[attr-defined]
    with db.read() as session:
        return {
            table.name: [
                tuple(row)
                for row in session.execute(select(table).order_by(*table.primary_key.columns))
            ]
            for table in Base.metadata.sorted_tables
        }
