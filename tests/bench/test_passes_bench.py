"""`bench.passes` chooses passes with both budgets, weighs them again and prints the loss (two
hands: the figures themselves are measured by running the benchmark)."""

from __future__ import annotations

import re

from tests.bench.helpers import bench_lines


def test_passes_prints_each_level_and_the_summary() -> None:
    lines = bench_lines("passes", "--hands", "2", "--draws", "2", "--reference", "40")
    for level in ("hard", "expert"):
        assert any(
            re.fullmatch(
                rf"{level}: a pass takes \d+ ms \(median\), loses \d+\.\d\d points/hand against "
                r"the best chosen, the same pass on every draw in \d+ % of hands",
                line,
            )
            for line in lines
        ), lines
    found = re.fullmatch(
        r"passes: loss hard (\d+\.\d\d), expert (\d+\.\d\d) points/hand; "
        r"same pass on every draw hard \d+ %, expert \d+ %",
        lines[-1],
    )
    assert found is not None, lines[-1]
    # A loss is measured against the best pass chosen by any draw: never negative.
    assert min(float(v) for v in found.groups()) >= 0
