"""Fits in the benchmarks' tests run on one thread: their data are small, and scikit-learn's
OpenMP threads, spinning beside the other test workers, would take many times longer."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from threadpoolctl import threadpool_limits


@pytest.fixture(autouse=True)
def one_thread() -> Iterator[None]:
    with threadpool_limits(limits=1):
        yield
