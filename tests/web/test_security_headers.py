"""Security headers as the pure ASGI middleware sends them: HSTS only in the secure (HTTPS)
configuration, on pages and static files alike."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from app.settings import Limits, Settings
from app.web.main import create_app
from tests.store.conftest import migrate


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> str:
    """One migrated SQLite file for the module."""
    url = f"sqlite:///{tmp_path_factory.mktemp('security') / 'hearts.db'}"
    migrate(url)
    return url


def client(database: str, secure_cookies: bool) -> TestClient:
    limits = Limits(rate_limits=False)
    return TestClient(create_app(Settings(database, secure_cookies, limits=limits)))


def test_hsts_only_in_the_secure_configuration(database: str) -> None:
    with client(database, secure_cookies=True) as secure:
        for response in (secure.get("/"), secure.get("/static/css/app.css")):
            assert response.headers["strict-transport-security"] == (
                "max-age=63072000; includeSubDomains"
            )
            assert response.headers["x-content-type-options"] == "nosniff"
    with client(database, secure_cookies=False) as plain:
        for response in (plain.get("/"), plain.get("/static/css/app.css")):
            assert "strict-transport-security" not in response.headers
            assert "default-src 'self'" in response.headers["content-security-policy"]


def test_a_refused_cross_site_post_carries_the_headers(database: str) -> None:
    with client(database, secure_cookies=True) as secure:
        refused = secure.post("/language", headers={"Sec-Fetch-Site": "cross-site"})
    assert refused.status_code == 403
    assert refused.headers["strict-transport-security"] == "max-age=63072000; includeSubDomains"
    assert refused.headers["cache-control"] == "no-store"
    assert "HX-Request" in refused.headers["vary"]
