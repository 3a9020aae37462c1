"""The lock file that server processes on one SQLite file take turns on (`FileWriteLock`)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from app.services.database import FileWriteLock

HOLDER = """
import sys, time
from app.services.database import FileWriteLock
lock = FileWriteLock(sys.argv[1])
assert lock.acquire(timeout=5)
print("held", flush=True)
time.sleep(60)
"""


def test_one_holder_at_a_time_and_a_timeout_that_gives_up(tmp_path: Path) -> None:
    path = str(tmp_path / "hearts.db.lock")
    first, second = FileWriteLock(path), FileWriteLock(path)
    assert first.acquire(timeout=0)
    started = time.monotonic()
    assert not second.acquire(timeout=0.05)
    assert time.monotonic() - started >= 0.05
    first.release()
    assert second.acquire(timeout=0)
    assert not first.acquire(timeout=0)
    second.release()


def test_a_process_that_dies_holding_the_lock_lets_the_others_in(tmp_path: Path) -> None:
    path = str(tmp_path / "hearts.db.lock")
    root = Path(__file__).resolve().parents[2]
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, path], cwd=root, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        lock = FileWriteLock(path)
        assert not lock.acquire(timeout=0.02)
        holder.kill()  # as `kill -9`: no chance to release
        holder.wait()
        assert lock.acquire(timeout=1)
        lock.release()
    finally:
        holder.kill()
        holder.wait()


def test_a_forked_process_opens_its_own_file(tmp_path: Path) -> None:
    """A child sharing its parent's open file would take the lock the parent holds."""
    lock = FileWriteLock(str(tmp_path / "hearts.db.lock"))
    assert lock.acquire(timeout=0)
    pid = os.fork()
    if pid == 0:  # the child: refused while the parent holds it
        os._exit(0 if not lock.acquire(timeout=0.02) else 1)
    _, status = os.waitpid(pid, 0)
    lock.release()
    assert os.waitstatus_to_exitcode(status) == 0
