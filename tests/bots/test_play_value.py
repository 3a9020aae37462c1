"""The learned value of the cards (`play_value`): the compiled walk of the trees, the features it
reads, and Expert's cards weighed by it where it fits when its budget asks (none does), only before
the exact endgame."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from app.bots import expert, hard, play_value
from app.engine import RuleOptions
from tests.bots.helpers import positions, stump, tree_sum

QS = 36
"""The queen of spades' card index (suits C, D, S, H, ranks 2 to A within each)."""


def features(
    hands: np.ndarray, points: np.ndarray, taken: np.ndarray, leader: int, moon: bool, trick: int
) -> list[list[float]]:
    """Every seat's features by the module's own words (`play_value.HEAD`, then the hands)."""
    out = []
    for s in range(4):
        x = [points[s], points.sum() - points[s], taken[s], taken.sum() - taken[s]]
        x += [leader == s, moon, trick]
        x += [hands[(s + k) % 4, card] for k in range(4) for card in range(52)]
        out.append(x)
    return out


def test_the_compiled_walk_of_the_shipped_trees_is_the_documented_one() -> None:
    model = json.loads(play_value.MODEL.read_text())
    assert model["features"] == play_value.FEATURES == 215 and len(model["trees"]) > 10
    assert model["fitted"]["tricks"] == [play_value.FIRST, play_value.LAST]
    rng = np.random.default_rng(5)
    rows = 40
    hands = np.zeros((rows, 4, 52), dtype=np.int8)
    taken = np.zeros((rows, 4), dtype=np.int64)
    tricks = rng.integers(play_value.FIRST, play_value.LAST + 1, size=rows)
    for r in range(rows):
        order = rng.permutation(52)
        left = 14 - int(tricks[r])  # cards each seat still holds
        for s in range(4):
            hands[r, s, order[left * s : left * (s + 1)]] = 1
        taken[r] = rng.multinomial(int(rng.integers(0, 14)), [0.25] * 4)
    points = taken + rng.multinomial(10, [0.25] * 4, size=rows)
    leaders = rng.integers(0, 4, size=rows)
    moons = rng.random(rows) < 0.1
    for r in range(rows):
        one = slice(r, r + 1)
        got = play_value.predict(
            hands[one], points[one], taken[one], leaders[one], moons[one], int(tricks[r])
        )
        x = features(hands[r], points[r], taken[r], int(leaders[r]), bool(moons[r]), tricks[r])
        assert np.allclose(got[0], [tree_sum(model, row) for row in x], rtol=0, atol=1e-9)
    every = play_value.predict(hands, points, taken, leaders, moons, 5)
    assert every.shape == (rows, 4) and every.std() > 0.5  # the trees tell layouts apart


def test_each_feature_is_read_from_its_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The seat's play-out points, the others', its points taken, the others', leading, the
    moon, the trick's number, then the hands from the seat's own round the table to its left:
    one stump on each, worth a different power of two."""
    left_holds_queen = len(play_value.HEAD) + 52 * 1 + QS
    splits = [(0, 5.5), (1, 20.5), (2, 2.5), (3, 6.5), (4, 0.5), (5, 0.5), (6, 6.5)]
    splits.append((left_holds_queen, 0.5))
    model = {
        "features": play_value.FEATURES,
        "fitted": {"table": "standard-4"},
        "baseline": 0.5,
        "trees": [stump(f, t, 2.0**i) for i, (f, t) in enumerate(splits)],
    }
    path = tmp_path / "model.json"
    path.write_text(json.dumps(model))
    loaded = play_value.trees(path)
    monkeypatch.setattr(play_value, "trees", lambda: loaded)
    hands = np.zeros((1, 4, 52), dtype=np.int8)
    for card in range(0, 52, 2):  # half the deck left: QS (36) is seat 2's, on seat 1's left
        hands[0, (card // 2) % 4, card] = 1
    points = np.array([[0, 6, 20, 0]])
    taken = np.array([[0, 3, 4, 0]])
    for leader, moon, trick in ((1, False, 8), (2, True, 3)):
        got = play_value.predict(hands, points, taken, np.array([leader]), np.array([moon]), trick)
        x = features(hands[0], points[0], taken[0], leader, moon, trick)
        assert got.tolist() == [[tree_sum(model, row) for row in x]]
    calm = play_value.predict(hands, points, taken, np.array([1]), np.array([False]), 8)
    # seat 0: others' points 26 (2), others taken 7 (8), trick 8 (64)
    assert calm[0, 0] == 0.5 + 2 + 8 + 64
    # seat 1: own points 6 (1), others 20 (0: not above 20.5), own taken 3 (4), leads (16),
    # the queen on its left (128)
    assert calm[0, 1] == 0.5 + 1 + 4 + 16 + 64 + 128


def test_a_model_of_the_pass_is_refused() -> None:
    with pytest.raises(ValueError, match="212 features, expected 215"):
        play_value.trees(play_value.MODEL.with_name("pass_value.json"))


def mid_hand(options: RuleOptions, count: int, seed: int = 3) -> list[Any]:
    """Views of seats with a choice of cards and between 4 and 11 cards in hand."""
    found = positions(options, seed, lambda v: len(v.legal) > 1 and 4 <= len(v.hand) <= 11, count)
    return [view for _, view in found]


def test_a_budget_with_the_learned_value_weighs_the_cards_by_it_where_it_fits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With `learned_play`, at standard-4 every play-out of Expert's cards is valued by the
    predicted points, from the hands as the next trick starts (the cards still out, the same
    count in every seat) and the play-out's points; the ranking changes with it. Without it (no
    level's budget has it: it measured no gain), in an exact endgame and at a table the value
    does not fit, the cards never are."""
    calls: list[tuple[int, int]] = []
    predict = play_value.predict

    def counted(*args: Any) -> np.ndarray:
        hands, points, taken, _, moon, trick = args
        held = hands.sum(axis=2)
        assert (held == 14 - trick).all()  # the next trick, about to start
        assert set(points.sum(axis=1).tolist()) <= {26, 78}
        assert ((taken <= points) | moon[:, None]).all()  # the shooter's points fall to 0
        calls.append((len(points), trick))
        return predict(*args)

    monkeypatch.setattr(play_value, "predict", counted)
    plain = dataclasses.replace(expert.BUDGET, worlds=16, round_size=16, close_worlds=0)
    small = dataclasses.replace(plain, learned_play=True)
    changed = 0
    views = mid_hand(RuleOptions.standard(), 12)
    for i, view in enumerate(views):
        learned = hard.evaluate(view, random.Random(i), small)
        (rows, trick), *_ = calls
        layouts, rest = divmod(rows, len(view.legal))  # every card in every layout imagined
        assert rest == 0 and 4 <= layouts <= 16  # (a layout drawn twice is imagined once)
        assert trick == view.trick_number + 1
        calls.clear()
        before = hard.evaluate(view, random.Random(i), plain)
        hard.evaluate(view, random.Random(i))  # Hard's
        assert not calls
        changed += learned != before
    assert changed >= 10
    endgame = positions(
        RuleOptions.standard(), 4, lambda v: 1 < len(v.legal) <= len(v.hand) <= 3, 2
    )
    five = mid_hand(RuleOptions.standard(5), 2)
    for view in [v for _, v in endgame] + five:
        hard.evaluate(view, random.Random(1), small)
    assert not calls
    assert not expert.BUDGET.learned_play and not hard.DEFAULT_BUDGET.learned_play  # measured
