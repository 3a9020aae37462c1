"""`bench.inference` runs and prints its figures for the four ways of choosing layouts (a few
positions: the figures themselves are measured by running the benchmark)."""

from __future__ import annotations

import re

from tests.bench.helpers import bench_lines

NUMBER = r"-?\d+\.\d{3}"


def test_inference_prints_the_four_ways() -> None:
    flags = ("--positions", "12", "--players", "medium", "--draws", "32", "--keep", "8")
    lines = bench_lines("inference", *flags)
    assert lines[0].startswith("12 positions of medium self-play at standard-4")
    for way in ("uniform", "surprises", "weighted", "learned"):
        assert any(line.startswith(f"{way}: Q♠ with its holder ") for line in lines), way
    assert re.fullmatch(
        rf"inference: Q♠ with its holder uniform {NUMBER}, surprises {NUMBER}, weighted "
        rf"{NUMBER}, learned {NUMBER}; log-likelihood per card uniform {NUMBER}, surprises "
        rf"{NUMBER}, weighted {NUMBER}, learned {NUMBER}",
        lines[-1],
    ), lines[-1]
