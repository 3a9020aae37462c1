"""`bench.plays` chooses cards with each budget, weighs every legal card again and prints the
loss (three positions: the figures themselves are measured by running the benchmark)."""

from __future__ import annotations

import re

from tests.bench.helpers import bench_lines


def test_plays_prints_each_budget_and_the_summary() -> None:
    lines = bench_lines(
        "plays", "--positions", "3", "--draws", "2", "--reference", "32", "--budgets", "hard,expert"
    )
    for name in ("hard", "expert"):
        assert any(
            re.fullmatch(
                rf"{name}: 3 positions, a card takes \d+ ms \(median\), loses \d+\.\d{{3}} "
                r"points/decision against the best chosen",
                line,
            )
            for line in lines
        ), lines
    found = re.fullmatch(
        r"plays: loss hard (\d+\.\d{3}), expert (\d+\.\d{3}) points/decision; "
        r"median ms hard \d+, expert \d+",
        lines[-1],
    )
    assert found is not None, lines[-1]
    # A loss is measured against the best card chosen by any draw: never negative.
    assert min(float(v) for v in found.groups()) >= 0
