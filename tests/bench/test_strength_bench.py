"""`bench.strength` prints its figures for duplicate deals and for whole games, any pair of
levels (a few deals and games: the figures themselves come from running the benchmark)."""

from __future__ import annotations

import re

from tests.bench.helpers import bench_lines


def run(*flags: str) -> list[str]:
    return bench_lines("strength", *flags)


def test_deals_of_the_expert_pair() -> None:
    lines = run("--pairs", "expert-vs-hard", "--deals", "1", "--table", "standard-3")
    assert re.fullmatch(
        r"expert-vs-hard standard-3: 1 deals, tested -?\d+\.\d\d points/hand, "
        r"opponents -?\d+\.\d\d, D -?\d+\.\d\d ± 0\.00",
        lines[0],
    ), lines[0]
    assert re.fullmatch(
        r"strength: medium-vs-easy n/a, hard-vs-medium n/a, expert-vs-hard -?\d+\.\d\d ± 0\.00 "
        r"points/hand",
        lines[-1],
    ), lines[-1]


def test_whole_games() -> None:
    lines = run("--pairs", "medium-vs-easy", "--games", "3", "--table", "standard-3", "--jobs", "1")
    found = re.fullmatch(
        r"medium-vs-easy standard-3: 3 games, won ([\d.]+) \(([\d.]+) % ± [\d.]+\), "
        r"parity 33\.3 %",
        lines[-1],
    )
    assert found is not None, lines[-1]
    assert 0 <= float(found.group(1)) <= 3
    assert abs(float(found.group(2)) - 100 * float(found.group(1)) / 3) < 0.06
