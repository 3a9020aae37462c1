"""`bench.passes` chooses passes with the budgets named, weighs them again by the judge named and
prints the loss (two hands: the figures themselves are measured by running the benchmark)."""

from __future__ import annotations

import re

import pytest

from bench import passes
from tests.bench.helpers import bench_lines


def test_passes_prints_each_budget_and_the_summary() -> None:
    lines = bench_lines(
        "passes",
        *("--hands", "2", "--draws", "2", "--reference", "40"),
        *("--budgets", "hard,expert-pool-8", "--judge", "expert"),
    )
    for budget in ("hard", "expert-pool-8"):
        assert any(
            re.fullmatch(
                rf"{budget}: a pass takes \d+ ms \(median\), loses \d+\.\d\d points/hand against "
                r"the best chosen, the same pass on every draw in \d+ % of hands",
                line,
            )
            for line in lines
        ), lines
    found = re.fullmatch(
        r"passes: loss hard (\d+\.\d\d), expert-pool-8 (\d+\.\d\d) points/hand; "
        r"same pass on every draw hard \d+ %, expert-pool-8 \d+ %",
        lines[-1],
    )
    assert found is not None, lines[-1]
    # A loss is measured against the best pass chosen by any draw: never negative.
    assert min(float(v) for v in found.groups()) >= 0


def test_the_variant_budgets_differ_from_experts_only_where_named() -> None:
    wide, pool = passes.BUDGETS["expert-wide"], passes.BUDGETS["expert-pool-8"]
    expert = passes.BUDGETS["expert"]
    assert (wide.pass_worlds, wide.pass_final_worlds, wide.pass_close_worlds) == (
        2 * expert.pass_worlds,
        2 * expert.pass_final_worlds,
        2 * expert.pass_close_worlds,
    )
    assert pool.pass_pool == 8 != expert.pass_pool
    assert passes.JUDGES["expert"].learned_pass and not passes.JUDGES["hard"].learned_pass


def test_an_unknown_budget_is_refused() -> None:
    with pytest.raises(SystemExit):
        passes.main(["--budgets", "expert,nobody"])
