"""The real server for the load benchmark: a temporary migrated database and uvicorn.

`temporary_database` gives a migrated SQLite file in a directory, or a fresh database on a
PostgreSQL server (created, migrated, and dropped at the end). `ServerProcess` runs
`uvicorn --factory app.web.main:create_app` on 127.0.0.1 and a free port, with `--workers N` for
several processes on the one port, waits for `/healthz`, reads the CPU time of its processes,
and stops them by their ids. The server's own log goes to a file.
"""

from __future__ import annotations

import os
import re
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

import psutil
from sqlalchemy import create_engine, make_url, text

REPO = Path(__file__).resolve().parents[1]

_EXCEPTION = re.compile(r"^[A-Za-z_][\w.]*(?:Error|Exception|Exit|Timeout)\b")
"""The last line of a logged traceback: `module.SomeError: message`."""

SERVE = REPO / "scripts" / "serve"
"""The production command: migrations, then uvicorn with the server's limits."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def migrate(url: str) -> None:
    """`alembic upgrade head` on `url`, as the deployment does before starting the server."""
    done = subprocess.run(
        [sys.executable, "-m", "alembic", "upgrade", "head"],
        cwd=REPO,
        env={**os.environ, "DATABASE_URL": url},
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"alembic upgrade head failed:\n{done.stderr}")


@contextmanager
def temporary_database(directory: Path, server_url: str | None = None) -> Iterator[str]:
    """The URL of a migrated, empty database for one run.

    Without `server_url`: a SQLite file in `directory`. With a `postgresql+psycopg://…` URL: a
    new database with a random name on that server (the URL's own database is only used to
    create and drop it), dropped when the run ends."""
    if server_url is None:
        url = f"sqlite:///{directory / 'hearts.db'}"
        migrate(url)
        yield url
        return
    admin_url = make_url(server_url)
    if not admin_url.drivername.startswith("postgresql"):
        raise ValueError("--database-url takes a PostgreSQL URL (postgresql+psycopg://…)")
    name = f"hearts_bench_{secrets.token_hex(4)}"
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
        url = admin_url.set(database=name).render_as_string(hide_password=False)
        try:
            migrate(url)
            yield url
        finally:
            with admin.connect() as connection:
                connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        admin.dispose()


@dataclass
class ServerProcess:
    """uvicorn serving the app on `database_url` with `processes` worker processes."""

    database_url: str
    log_path: Path
    processes: int = 1
    env: dict[str, str] = field(default_factory=dict)
    """Extra environment of the server (settings)."""
    uvicorn_args: list[str] = field(default_factory=list)
    """Extra uvicorn options."""
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The base URL, http://127.0.0.1:PORT."""
        return f"http://127.0.0.1:{self.port}"

    def command(self) -> list[str]:
        """The production command line (`scripts/serve`), quieter, with any extra options."""
        return [str(SERVE), "--log-level", "warning", *self.uvicorn_args]

    def start(self, timeout: float = 60.0) -> None:
        """Start the server and wait until `/healthz` answers 200 (RuntimeError, with the log's
        tail, if it does not)."""
        env = {
            **os.environ,
            **self.env,
            "DATABASE_URL": self.database_url,
            "HOST": "127.0.0.1",
            "PORT": str(self.port),
            "HEARTS_WORKERS": str(self.processes),
        }
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                self.command(), cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.alive():
                break
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=2) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the server did not start; its log ends with:\n{self.log_tail()}")

    def alive(self) -> bool:
        """Whether the server's main process is still running."""
        return self.process is not None and self.process.poll() is None

    def _tree(self) -> list[psutil.Process]:
        if self.process is None:
            return []
        try:
            main = psutil.Process(self.process.pid)
            return [main, *main.children(recursive=True)]
        except psutil.NoSuchProcess:
            return []

    def cpu_seconds(self) -> float:
        """CPU time (user and system) used so far by the server's processes, including the
        children they have already reaped (worker or pool processes that ended)."""
        total = 0.0
        for process in self._tree():
            try:
                t = process.cpu_times()
            except psutil.NoSuchProcess:
                continue
            total += t.user + t.system + t.children_user + t.children_system
        return total

    def stop(self) -> None:
        """Stop the server by its process id (SIGTERM, then SIGKILL for whatever remains of
        its processes after 15 s)."""
        if self.process is None:
            return
        tree = self._tree()
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for process in tree[1:]:
            with suppress(psutil.NoSuchProcess):
                process.kill()
        self.process = None

    def log_errors(self) -> Counter[str]:
        """The exceptions the server logged (each traceback's last line), with their counts."""
        try:
            text_lines = self.log_path.read_text(errors="replace").splitlines()
        except OSError:
            return Counter()
        return Counter(line.strip()[:200] for line in text_lines if _EXCEPTION.match(line))

    def log_tail(self, lines: int = 40) -> str:
        """The last lines of the server's log."""
        try:
            text_lines = self.log_path.read_text(errors="replace").splitlines()
        except OSError:
            return "(no log)"
        return "\n".join(text_lines[-lines:]) or "(the log is empty)"
