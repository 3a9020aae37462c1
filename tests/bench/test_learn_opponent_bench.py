"""`bench.learn_opponent` plays, fits and prints its held-out figures (a few Medium hands, without
`--write`: the shipped weights come from running it on Hard's games)."""

from __future__ import annotations

import re

from app.bots import opponent
from tests.bench.helpers import bench_lines


def test_learn_opponent_prints_the_fit() -> None:
    before = opponent.WEIGHTS.read_text()
    lines = bench_lines("learn_opponent", "--hands", "6", "--players", "medium")
    assert re.fullmatch(r"6 hands of medium self-play at standard-4: \d+ plays fitted", lines[0])
    assert len(lines) == len(opponent.FEATURES) + 2
    found = re.fullmatch(
        r"learn_opponent: held-out log-probability per play, model (-\d+\.\d{3}), "
        r"uniform (-\d+\.\d{3}), careful (-\d+\.\d{3})",
        lines[-1],
    )
    assert found is not None, lines[-1]
    model, uniform, _ = (float(v) for v in found.groups())
    assert model > uniform  # Medium's plays are far from random
    assert opponent.WEIGHTS.read_text() == before
