"""Static files with versioned URLs, cached by browsers for a year.

`static_url("css/app.css")` is `/static/css/app.css?v=<hash>`, the hash of the file's content
taken once at start-up; templates link every static file through it. A request carrying the
current hash gets `Cache-Control: public, max-age=31536000, immutable`: the URL changes whenever
the file does, so a browser never asks again. Any other request (no `v`, or an old one) gets
`no-cache`, so it revalidates (ETag) and never keeps a stale copy.

Text files (CSS, JavaScript, SVG) are compressed once, at start-up, at gzip's best level: a
browser that accepts gzip gets those bytes from memory rather than a file compressed anew for
each first visit.

Every file is read into memory at start-up (the directory holds about 150 KB), and
`StaticShortcut`, just inside the request guard, answers a GET or HEAD of any of them (200, or
304 to a matching `If-None-Match`) with headers made ahead, without the rate limits, the
session, the compression or the file system: a newcomer's page fetches seven files, which cost
more CPU than the page itself when each went through the whole stack (9 ms against 2). What it
does not know (another path, a range, another method) goes on to `StaticFiles`.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from starlette.datastructures import Headers, QueryParams
from starlette.responses import Response
from starlette.staticfiles import PathLike, StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
COMPRESSED_SUFFIXES = {".css", ".js", ".svg"}


def content_versions(directory: Path) -> dict[str, str]:
    """Each file under `directory` (a POSIX relative path) with a short hash of its content."""
    return {
        path.relative_to(directory).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()[:10]
        for path in sorted(directory.rglob("*"))
        if path.is_file()
    }


def _media_type(path: str) -> str:
    """The Content-Type `StaticFiles` sends for `path` (text in UTF-8)."""
    media_type = mimetypes.guess_type(path)[0] or "application/octet-stream"
    return f"{media_type}; charset=utf-8" if media_type.startswith("text/") else media_type


@dataclass(frozen=True, slots=True)
class Asset:
    """One static file as held in memory."""

    version: str
    """The short hash of its content: its URL's `v` and its ETag."""
    media_type: str
    plain: bytes
    packed: bytes | None
    """Its gzip bytes (text files only)."""

    def matches(self, if_none_match: str, packed: bool) -> bool:
        """Whether an `If-None-Match` value names this file's ETag (weak or strong) or `*`."""
        etag = f'"{self.version}-gz"' if packed else f'"{self.version}"'
        tags = {tag.strip().removeprefix("W/") for tag in if_none_match.split(",")}
        return etag in tags or "*" in tags


def read_assets(directory: Path) -> dict[str, Asset]:
    """Every file under `directory` by its POSIX relative path, text files compressed."""
    assets = {}
    versions = content_versions(directory)
    for path in sorted(directory.rglob("*")):
        if not path.is_file():
            continue
        name = path.relative_to(directory).as_posix()
        content = path.read_bytes()
        packed = gzip.compress(content, 9, mtime=0) if path.suffix in COMPRESSED_SUFFIXES else None
        assets[name] = Asset(versions[name], _media_type(name), content, packed)
    return assets


class StaticAssets(StaticFiles):
    """`StaticFiles` for `directory`, with versioned URLs and caching by version."""

    def __init__(self, directory: Path) -> None:
        super().__init__(directory=str(directory))
        self.assets = read_assets(directory)

    def url(self, path: str) -> str:
        """The versioned URL of the static file `path` (relative to the static directory)."""
        return f"/static/{path}?v={self.assets[path].version}"

    def file_response(
        self,
        full_path: PathLike,
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        """The file from disk, cached for a year when asked for by its current version: what
        `StaticShortcut` passes on (a range, or a file added since start-up)."""
        asset = self.assets.get(Path(self.get_path(scope)).as_posix())
        version = QueryParams(scope["query_string"]).get("v")
        current = asset is not None and version == asset.version
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["Cache-Control"] = IMMUTABLE if current else REVALIDATE
        return response


class StaticShortcut:
    """Answer a GET or HEAD of a static file known at start-up from memory, with the security
    headers; pass anything else on to `app`.

    `mount` is the static files' URL prefix ("/static/"). The path must name a file exactly
    (the decoded path is looked up as it is, so `..`, doubled slashes or a NUL never match); a
    request with a `Range` header goes on to `StaticFiles`, which answers ranges."""

    def __init__(
        self, app: ASGIApp, assets: StaticAssets, headers: Mapping[str, str], mount: str
    ) -> None:
        self.app = app
        self.assets = assets.assets
        self.mount = mount
        self.headers = [(k.lower().encode(), v.encode()) for k, v in headers.items()]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path: str = scope.get("path", "")
        if (
            scope["type"] != "http"
            or scope["method"] not in ("GET", "HEAD")
            or not path.startswith(self.mount)
        ):
            await self.app(scope, receive, send)
            return
        name = path[len(self.mount) :]
        asset = self.assets.get(name)
        request = Headers(scope=scope)
        if asset is None or "range" in request:
            await self.app(scope, receive, send)
            return
        version = QueryParams(scope["query_string"]).get("v")
        packed = asset.packed is not None and "gzip" in request.get("accept-encoding", "")
        headers = [
            *self.headers,
            (b"cache-control", (IMMUTABLE if version == asset.version else REVALIDATE).encode()),
            (
                b"etag",
                f'"{asset.version}-gz"'.encode() if packed else f'"{asset.version}"'.encode(),
            ),
        ]
        if asset.packed is not None:
            headers.append((b"vary", b"Accept-Encoding"))
        if asset.matches(request.get("if-none-match", ""), packed):
            await send({"type": "http.response.start", "status": 304, "headers": headers})
            await send({"type": "http.response.body", "body": b""})
            return
        body = asset.packed if packed and asset.packed is not None else asset.plain
        headers.append((b"content-type", asset.media_type.encode()))
        headers.append((b"content-length", str(len(body)).encode()))
        if packed:
            headers.append((b"content-encoding", b"gzip"))
        else:
            headers.append((b"accept-ranges", b"bytes"))
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send(
            {"type": "http.response.body", "body": body if scope["method"] == "GET" else b""}
        )
