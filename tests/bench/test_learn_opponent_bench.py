"""`bench.learn_opponent` plays, fits and prints its held-out figures (a few Medium hands, without
`--write`: the shipped weights come from running it on Hard's games)."""

from __future__ import annotations

import re

import numpy as np

from app.bots import opponent
from bench import learn_opponent
from tests.bench.helpers import bench_lines


def test_learn_opponent_prints_the_fit() -> None:
    before = opponent.WEIGHTS.read_text()
    lines = bench_lines("learn_opponent", "--hands", "6", "--players", "medium")
    assert re.fullmatch(r"6 hands of medium self-play at standard-4: \d+ plays fitted", lines[0])
    assert len(lines) == len(opponent.FEATURES) + 2
    found = re.fullmatch(
        r"learn_opponent: held-out log-probability per play, model (-\d+\.\d{3}), "
        r"shipped (-\d+\.\d{3}), uniform (-\d+\.\d{3}), careful (-\d+\.\d{3})",
        lines[-1],
    )
    assert found is not None, lines[-1]
    model, shipped, uniform, _ = (float(v) for v in found.groups())
    assert model > uniform  # Medium's plays are far from random
    assert shipped > uniform  # and the weights fitted to Hard's plays know some of them
    assert opponent.WEIGHTS.read_text() == before


def test_the_fit_maximises_the_penalised_likelihood() -> None:
    """The fitted weights maximise the penalised log-likelihood: a small step along any weight
    scores lower (random data, a softmax over random legal cards)."""
    rng = np.random.default_rng(3)
    x = rng.normal(size=(300, 52, 6))
    legal = rng.random((300, 52)) < 0.3
    legal[:, 0] = True
    chosen = np.array([rng.choice(np.flatnonzero(row)) for row in legal])
    rows = np.arange(len(chosen))

    def score(w: np.ndarray) -> float:
        penalty = learn_opponent.PENALTY * len(chosen) * (w @ w) / 2
        return float(learn_opponent.log_probabilities(x, legal, w)[rows, chosen].sum() - penalty)

    w = learn_opponent.fit(x, legal, chosen)
    for i in range(len(w)):
        for step in (-1e-3, 1e-3):
            moved = w.copy()
            moved[i] += step
            assert score(moved) < score(w)
