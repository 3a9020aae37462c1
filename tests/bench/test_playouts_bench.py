"""`bench.playouts` sets the careful play-outs from the true layout against the real hands (a few
hands: the figures themselves are measured by running the benchmark)."""

from __future__ import annotations

import re

from bench import playouts
from tests.bench.helpers import bench_lines

FIGURES = (
    r"(\d+) positions, correlation (-?\d\.\d{3}), real minus play-out [+-]\d+\.\d\d points, "
    r"moons real (\d+\.\d) %, play-outs (\d+\.\d) %, false (\d+\.\d) %, missed (\d+\.\d) %"
)


def figures(lines: list[str], level: str) -> tuple[float, ...]:
    """The numbers of the last line, after checking every line's form."""
    for line in lines[:-1]:
        assert re.fullmatch(r"tricks \d+-\d+: " + FIGURES, line), line
    found = re.fullmatch(rf"playouts: level {level}, " + FIGURES, lines[-1])
    assert found is not None, lines[-1]
    return tuple(float(v) for v in found.groups())


def test_against_medium_the_playouts_are_the_real_play() -> None:
    """Medium plays the careful habits: from the true layout the play-outs end as the real
    hands did (but for Medium's few inferences from leads), and never in a moon they did not."""
    lines = bench_lines("playouts", "--hands", "6", "--level", "medium", "--seed", "3")
    assert len(lines) == 4
    count, correlation, *_, false, missed = figures(lines, "medium")
    assert count == 6 * 13
    assert correlation > 0.99
    assert false == missed == 0


def test_against_hard_the_playouts_part_from_the_real_play() -> None:
    """Hard does not play the careful habits: the play-outs of its hands end otherwise."""
    lines = bench_lines("playouts", "--hands", "6", "--level", "hard", "--seed", "3")
    count, correlation, *_ = figures(lines, "hard")
    assert count == 6 * 13
    assert correlation < 0.99


def test_the_thirds_of_a_hand_cover_every_trick_once() -> None:
    assert playouts.stages(13) == [(1, 4), (5, 8), (9, 13)]
    for tricks in (13, 17, 10, 4):
        covered = [t for low, high in playouts.stages(tricks) for t in range(low, high + 1)]
        assert covered == list(range(1, tricks + 1))
