"""Running a benchmark as its user does: `python -m bench.<name>` in the repository."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def bench_lines(name: str, *flags: str) -> list[str]:
    """The lines `python -m bench.<name> <flags>` prints (it must exit 0 within 5 minutes), run
    on one thread of OpenMP (as `conftest.one_thread` keeps this process's fits)."""
    done = subprocess.run(
        [sys.executable, "-m", f"bench.{name}", *flags],
        cwd=REPO,
        env={**os.environ, "OMP_NUM_THREADS": "1"},
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return done.stdout.strip().splitlines()
