"""The learned value of Expert's pass (`pass_value`): the compiled walk of the trees, the features
it reads, the tables it fits, and Expert's pass weighed by it where it fits (and only Expert's)."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from app.bots import expert, hard, pass_value
from app.engine import MoonScoring, RuleOptions, TieRule
from tests.bots.helpers import pass_view, stump, tree_sum

QS = 36
"""The queen of spades' card index (suits C, D, S, H, ranks 2 to A within each)."""


def layouts(count: int, seed: int) -> tuple[np.ndarray, ...]:
    """Random deals (rows, 4, 52), points (rows, 4), leaders and moons."""
    rng = np.random.default_rng(seed)
    hands = np.zeros((count, 4, 52), dtype=np.int8)
    for r in range(count):
        order = rng.permutation(52)
        for s in range(4):
            hands[r, s, order[13 * s : 13 * (s + 1)]] = 1
    points = rng.integers(0, 27, size=(count, 4))
    return hands, points, rng.integers(0, 4, size=count), rng.random(count) < 0.1


def walk(
    model: dict[str, Any], hands: np.ndarray, points: np.ndarray, leader: int, moon: bool
) -> list[float]:
    """Every seat's value by the format's own words, feature by feature, one tree at a time."""
    out = []
    for s in range(4):
        x = [points[s], points.sum() - points[s], leader == s, moon]
        x += [hands[(s + k) % 4, card] for k in range(4) for card in range(52)]
        out.append(tree_sum(model, x))
    return out


def test_the_compiled_walk_of_the_shipped_trees_is_the_documented_one() -> None:
    model = json.loads(pass_value.MODEL.read_text())
    assert model["features"] == pass_value.FEATURES == 212 and len(model["trees"]) > 10
    hands, points, leaders, moons = layouts(60, 5)
    got = pass_value.predict(hands, points, leaders, moons)
    expected = [
        walk(model, hands[r], points[r], int(leaders[r]), bool(moons[r])) for r in range(60)
    ]
    assert got.shape == (60, 4)
    assert np.allclose(got, expected, rtol=0, atol=1e-9)
    assert got.std() > 0.5  # the trees tell layouts apart


def test_each_feature_is_read_from_its_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Own play-out points, the others', leading, the moon, then the hands from the seat's own
    round the table to its left: one stump on each, worth a different power of ten."""
    left_holds_queen = len(pass_value.HEAD) + 52 * 1 + QS
    model = {
        "features": pass_value.FEATURES,
        "fitted": {"table": "standard-4"},
        "baseline": 0.5,
        "trees": [
            stump(0, 5.5, 1),
            stump(1, 20.5, 10),
            stump(2, 0.5, 100),
            stump(3, 0.5, 1000),
            stump(left_holds_queen, 0.5, 10000),
        ],
    }
    path = tmp_path / "model.json"
    path.write_text(json.dumps(model))
    loaded = pass_value.trees(path)
    assert list(loaded.start) == [0, 3, 6, 9, 12] and loaded.left[3] == 4
    monkeypatch.setattr(pass_value, "trees", lambda: loaded)
    hands = np.zeros((1, 4, 52), dtype=np.int8)
    for card in range(52):
        hands[0, card % 4, card] = 1  # QS (36) is seat 0's: seat 3 has it on its left
    points = np.array([[0, 6, 20, 0]])
    calm = pass_value.predict(hands, points, np.array([1]), np.array([False]))
    assert calm.tolist() == [[10.5, 101.5, 1.5, 10010.5]]
    moon = pass_value.predict(hands, points, 2, np.array([True]))
    assert moon.tolist() == [[1010.5, 1001.5, 1101.5, 11010.5]]
    assert moon.tolist() == [walk(model, hands[0], points[0], 2, True)]


def test_a_model_of_another_shape_or_table_is_refused(tmp_path: Path) -> None:
    shipped = json.loads(pass_value.MODEL.read_text())
    path = tmp_path / "model.json"
    path.write_text(json.dumps({**shipped, "features": 211}))
    with pytest.raises(ValueError, match="211 features"):
        pass_value.trees(path)
    path = tmp_path / "other.json"
    path.write_text(json.dumps({**shipped, "fitted": {"table": "standard-5"}}))
    with pytest.raises(ValueError, match="fitted at standard-5"):
        pass_value.trees(path)


@pytest.mark.parametrize(
    ("options", "fits"),
    [
        (RuleOptions.standard(), True),
        (RuleOptions.standard(target_score=50, tie_rule=TieRule.SHARED), True),
        (RuleOptions.standard(5), False),
        (RuleOptions.standard(3), False),
        (RuleOptions.standard(omnibus=True), False),
        (RuleOptions.cancellation(6), False),
        (RuleOptions.standard(no_points_first_trick=False), False),
        (RuleOptions.standard(moon_scoring=MoonScoring.SUBTRACT_FROM_SELF), False),
        (RuleOptions.standard(qs_breaks_hearts=True), False),
    ],
)
def test_the_value_fits_only_hands_played_and_scored_as_where_it_was_fitted(
    options: RuleOptions, fits: bool
) -> None:
    """The trees learned the standard four-seat hand (R-default options): the game's end may
    differ (the target, the tie rule), nothing that changes a hand's play or points."""
    assert pass_value.fits(options) is fits


def test_expert_weighs_its_pass_by_the_learned_value_where_it_fits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At standard-4 every play-out of Expert's candidate passes is valued by the predicted
    points (the hands it is given hold the whole deck as dealt after the pass, and the ranking
    changes with it); Hard's pass, and Expert's at tables the value does not fit, never are."""
    calls: list[int] = []
    predict = pass_value.predict

    def counted(hands: np.ndarray, points: np.ndarray, *rest: Any) -> np.ndarray:
        assert (hands.sum(axis=2) == 13).all() and (hands.sum(axis=1) == 1).all()
        assert set(points.sum(axis=1).tolist()) <= {26, 78}
        calls.append(len(points))
        return predict(hands, points, *rest)

    monkeypatch.setattr(pass_value, "predict", counted)
    small = dataclasses.replace(
        expert.BUDGET, pass_pool=5, pass_worlds=4, pass_final_worlds=4, pass_close_looks=0
    )
    plain = dataclasses.replace(small, learned_pass=False)
    changed = 0
    for seed in range(3):
        view = pass_view(RuleOptions.standard(), seed)
        learned = hard.rank_passes(view, random.Random(seed), small)
        assert calls and sum(calls) >= 4 * 10  # every candidate in every deal
        calls.clear()
        before = hard.rank_passes(view, random.Random(seed), plain)
        hard.rank_passes(view, random.Random(seed))
        assert not calls
        changed += learned != before
    assert changed == 3
    for options in (RuleOptions.standard(5), RuleOptions.standard(omnibus=True)):
        hard.rank_passes(pass_view(options, 1), random.Random(1), small)
    assert not calls
    assert expert.BUDGET.learned_pass and not hard.DEFAULT_BUDGET.learned_pass
