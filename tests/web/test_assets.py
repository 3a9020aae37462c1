"""Static files and compression over HTTP through the ASGI app: content-versioned URLs cached for
a year, gzip for pages, CSS and JS."""

from __future__ import annotations

import gzip
import hashlib
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from app.settings import Limits, Settings
from app.web.main import create_app
from tests.store.conftest import migrate
from tests.web.conftest import BROWSER

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> str:
    """One migrated SQLite file for the module."""
    url = f"sqlite:///{tmp_path_factory.mktemp('assets') / 'hearts.db'}"
    migrate(url)
    return url


@pytest.fixture
def client(database: str) -> Iterator[TestClient]:
    """A client of the app (rate limits off)."""
    app = create_app(
        Settings(database, False, thinker_processes=0, limits=Limits(rate_limits=False))
    )
    with TestClient(app, headers=BROWSER) as test_client:
        yield test_client
    app.state.services.db.dispose()


def static_links(html: str) -> list[str]:
    return re.findall(r'(?:href|src)="(/static/[^"]+)"', html)


def test_pages_link_static_files_by_content_version(client: TestClient) -> None:
    links = static_links(client.get("/").text)
    assert {link.split("?")[0] for link in links} >= {
        "/static/css/app.css",
        "/static/css/seats.css",
        "/static/js/app.js",
        "/static/vendor/htmx/htmx.min.js",
        "/static/favicon.svg",
    }
    for link in links:
        path, version = re.fullmatch(r"/static/(.+)\?v=([0-9a-f]{10})", link).groups()  # type: ignore[union-attr]
        content = (REPO / "static" / path).read_bytes()
        assert hashlib.sha256(content).hexdigest().startswith(version), link


def test_versioned_static_files_are_cached_for_a_year(client: TestClient) -> None:
    link = next(link for link in static_links(client.get("/").text) if "app.css" in link)
    current = client.get(link)
    assert current.status_code == 200
    assert current.headers["cache-control"] == "public, max-age=31536000, immutable"
    for other in ("/static/css/app.css", "/static/css/app.css?v=0123456789"):
        response = client.get(other)
        assert response.status_code == 200
        assert response.headers["cache-control"] == "no-cache", other
    assert "no-store" not in current.headers["cache-control"]


def test_html_css_and_js_are_gzipped(client: TestClient) -> None:
    page = client.get("/")
    links = static_links(page.text)
    assets = [link for link in links if link.split("?")[0].endswith((".css", ".js"))]
    responses = [page] + [client.get(link) for link in assets]
    assert len(responses) == 5
    for response in responses:
        assert response.headers["content-encoding"] == "gzip", response.url
        assert "Accept-Encoding" in response.headers["vary"]
        assert int(response.headers["content-length"]) < len(response.content) / 2


def test_small_responses_and_clients_without_gzip_get_plain_bodies(client: TestClient) -> None:
    assert "content-encoding" not in client.get("/healthz").headers
    plain = client.get("/", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers
    assert "<!doctype html>" in plain.text


def test_static_text_files_are_compressed_once_at_start_up(client: TestClient) -> None:
    """The compressed bytes come from memory (the same bytes every time, gzip's best level) and
    decompress to the file; a browser without gzip gets the file itself."""
    static = REPO / "static"
    for name in ("css/app.css", "js/app.js", "vendor/htmx/htmx.min.js"):
        url = client.app.state.templates.env.globals["static_url"](name)  # type: ignore[attr-defined]
        raw = [client.get(url, headers={"Accept-Encoding": "gzip"}) for _ in range(2)]
        assert raw[0].headers["content-encoding"] == "gzip"
        assert raw[0].content == (static / name).read_bytes()  # httpx decompresses
        assert raw[0].headers["etag"] == raw[1].headers["etag"]
        assert raw[0].num_bytes_downloaded == raw[1].num_bytes_downloaded
        assert (
            raw[0].num_bytes_downloaded <= len(gzip.compress((static / name).read_bytes(), 9)) + 64
        )
        plain = client.get(url, headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in plain.headers
        assert plain.content == (static / name).read_bytes()


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_the_game_can_be_added_to_a_home_screen(client: TestClient) -> None:
    """Every page links a web app manifest (full screen, theme colour, icons of the sizes it
    names), an icon for iOS, and a viewport that keeps clear of notches."""
    page = client.get("/").text
    assert (
        'name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover"' in page
    )
    assert '<meta name="theme-color" content="#0f5a3a">' in page
    link = re.search(r'<link rel="manifest" href="([^"]+)">', page)
    assert link is not None
    response = client.get(link.group(1))
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/manifest+json")
    manifest = response.json()
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    assert manifest["theme_color"] == "#0f5a3a"
    purposes = set()
    for icon in manifest["icons"]:
        image = client.get(icon["src"])
        assert image.status_code == 200, icon["src"]
        purposes.add(icon["purpose"])
        if icon["type"] == "image/png":
            width, height = (int(v) for v in icon["sizes"].split("x"))
            assert _png_size(image.content) == (width, height)
    assert {"any", "maskable"} <= purposes
    assert {i["sizes"] for i in manifest["icons"]} >= {"192x192", "512x512"}
    apple = re.search(r'<link rel="apple-touch-icon" href="([^"]+)">', page)
    assert apple is not None
    assert _png_size(client.get(apple.group(1)).content) == (180, 180)


def test_a_cached_copy_is_revalidated_with_a_304(client: TestClient) -> None:
    """A browser that asks again with the ETag it holds gets 304 and no body, for the
    compressed and the plain bytes alike (each has its own ETag), weak or strong; another ETag
    gets the file."""
    url = client.app.state.templates.env.globals["static_url"]("css/app.css")  # type: ignore[attr-defined]
    for encoding in ("gzip", "identity"):
        first = client.get(url, headers={"Accept-Encoding": encoding})
        etag = first.headers["etag"]
        for sent in (etag, f"W/{etag}", f'"other", {etag}', "*"):
            again = client.get(url, headers={"Accept-Encoding": encoding, "If-None-Match": sent})
            assert again.status_code == 304, (encoding, sent)
            assert again.content == b""
            assert again.headers["etag"] == etag
            assert again.headers["cache-control"] == first.headers["cache-control"]
        other = client.get(url, headers={"Accept-Encoding": encoding, "If-None-Match": '"x"'})
        assert other.status_code == 200 and other.content == first.content
    gzip_etag = client.get(url, headers={"Accept-Encoding": "gzip"}).headers["etag"]
    plain = client.get(url, headers={"Accept-Encoding": "identity", "If-None-Match": gzip_etag})
    assert plain.status_code == 200, "the compressed bytes' ETag does not stand for the plain"


def test_static_answers_are_lean_and_carry_the_security_headers(client: TestClient) -> None:
    """A static file is answered from memory before the session and the language: no cookie,
    no Content-Language, the security headers, the length of what is sent; HEAD sends the
    headers alone."""
    url = client.app.state.templates.env.globals["static_url"]("js/app.js")  # type: ignore[attr-defined]
    fresh = TestClient(client.app, headers=BROWSER)
    response = fresh.get(url)
    assert response.status_code == 200
    assert "set-cookie" not in response.headers
    assert "content-language" not in response.headers
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["content-type"] == "text/javascript; charset=utf-8"
    assert int(response.headers["content-length"]) == response.num_bytes_downloaded
    head = fresh.head(url)
    assert head.status_code == 200 and head.content == b""
    assert head.headers["content-length"] == response.headers["content-length"]


def test_ranges_and_unknown_files_go_to_the_static_files_app(client: TestClient) -> None:
    static = REPO / "static"
    ranged = {"Range": "bytes=0-9", "Accept-Encoding": "identity"}
    part = client.get("/static/css/app.css", headers=ranged)
    assert part.status_code == 206
    assert part.content == (static / "css" / "app.css").read_bytes()[:10]
    assert client.get("/static/css/none.css").status_code == 404
    assert client.post("/static/css/app.css").status_code in (403, 405)
