"""`bench.think` runs and prints its figures, for Hard's and Expert's decisions, hints and
reviews (a few positions: the figures themselves are measured by running the benchmark, not in
the tests)."""

from __future__ import annotations

import re

import pytest

from tests.bench.helpers import bench_lines


@pytest.mark.parametrize(
    ("flags", "label"),
    [
        ([], "think"),
        (["--level", "expert"], "think"),
        (["--hint"], "hint"),
        (["--review"], "review"),
    ],
)
def test_think_prints_median_and_p95(flags: list[str], label: str) -> None:
    lines = bench_lines("think", "--positions", "8", *flags)
    assert re.fullmatch(rf"{label}: median \d+ ms, p95 \d+ ms", lines[-1]), lines[-1]
    for kind in ("pass", "lead", "follow", "discard"):
        assert any(line.startswith(f"{kind}: 2 positions") for line in lines), kind
