"""Static files with versioned URLs, cached by browsers for a year.

`static_url("css/app.css")` is `/static/css/app.css?v=<hash>`, the hash of the file's content
taken once at start-up; templates link every static file through it. A request carrying the
current hash gets `Cache-Control: public, max-age=31536000, immutable`: the URL changes whenever
the file does, so a browser never asks again. Any other request (no `v`, or an old one) gets
`no-cache`, so it revalidates (ETag) and never keeps a stale copy.

Text files (CSS, JavaScript, SVG) are compressed once, at start-up, at gzip's best level: a
browser that accepts gzip gets those bytes from memory rather than a file compressed anew for
each first visit.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import os
from pathlib import Path

from starlette.datastructures import Headers, QueryParams
from starlette.responses import Response
from starlette.staticfiles import PathLike, StaticFiles
from starlette.types import Scope

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


class StaticAssets(StaticFiles):
    """`StaticFiles` for `directory`, with versioned URLs and caching by version."""

    def __init__(self, directory: Path) -> None:
        super().__init__(directory=str(directory))
        self.versions = content_versions(directory)
        self.compressed = {
            path.relative_to(directory).as_posix(): gzip.compress(path.read_bytes(), 9, mtime=0)
            for path in sorted(directory.rglob("*"))
            if path.is_file() and path.suffix in COMPRESSED_SUFFIXES
        }

    def url(self, path: str) -> str:
        """The versioned URL of the static file `path` (relative to the static directory)."""
        return f"/static/{path}?v={self.versions[path]}"

    def file_response(
        self,
        full_path: PathLike,
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        """The file, cached for a year when asked for by its current version (compressed ahead
        when the browser accepts gzip)."""
        path = Path(self.get_path(scope)).as_posix()
        version = QueryParams(scope["query_string"]).get("v")
        current = version is not None and version == self.versions.get(path)
        cache = IMMUTABLE if current else REVALIDATE
        packed = self.compressed.get(path)
        accepts = Headers(scope=scope).get("accept-encoding", "")
        if packed is not None and status_code == 200 and "gzip" in accepts:
            media_type = mimetypes.guess_type(path)[0] or "application/octet-stream"
            headers = {
                "Content-Encoding": "gzip",
                "Vary": "Accept-Encoding",
                "Cache-Control": cache,
                "ETag": f'"{self.versions.get(path, "")}-gz"',
            }
            return Response(packed, status_code, headers=headers, media_type=media_type)
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["Cache-Control"] = cache
        return response
