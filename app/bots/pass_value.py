"""A value learned from Hard's games, for the pass: each seat's points predicted from a play-out.

The careful player's play-outs that weigh Expert's candidate passes are a rough guess of how the
hand will go: they explain about 9 % of the spread of a seat's real points in Hard's games at the
standard four-seat table. Gradient-boosted regression trees fitted to Hard's self-play predict
a seat's real points from its play-out points, the other seats' play-out points, whether it
leads the first trick, whether the play-out ended in a moon and the four hands as dealt after
the pass (its own first, then the seats to its left in turn); they explain about 15 %.
`predict` replaces every seat's play-out points by that prediction.

The trees are data (`pass_value.json` beside this module, fitted by `python -m
bench.learn_pass_value`): each a table of nodes (the feature tested, the threshold, the children,
whether it is a leaf, the leaf's value). A row goes left when its feature is at most the
threshold; the prediction is the baseline plus the leaves reached. The walk is compiled (Numba)
and reads the features straight from the hands, so no feature table is built.

The model knows only the table it was fitted at: `fits` says whether a table's rules decide a
hand's play and points as that table's do.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
from numba import njit

from app.engine import RuleOptions, TieRule

MODEL = Path(__file__).with_name("pass_value.json")
SEATS = 4
HEAD = ("points", "others' points", "leads", "moon")
"""The features before the hands' 4 × 52 card indicators (see the module's docstring)."""
FEATURES = len(HEAD) + SEATS * 52
FITTED = "standard-4"
"""The table the trees were fitted at (`bench.learn_pass_value` plays its hands)."""


Arrays = tuple[
    float, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray
]
"""A model as the compiled walk takes it: `Trees.arrays`."""


@dataclass(frozen=True, slots=True)
class Trees:
    """The fitted model: every tree's nodes, concatenated (`start[t]` is tree t's root)."""

    baseline: float
    start: np.ndarray
    feature: np.ndarray
    threshold: np.ndarray
    left: np.ndarray
    right: np.ndarray
    leaf: np.ndarray
    value: np.ndarray

    @property
    def arrays(self) -> Arrays:
        """The fields in order, as the compiled walk takes them."""
        return (
            self.baseline,
            self.start,
            self.feature,
            self.threshold,
            self.left,
            self.right,
            self.leaf,
            self.value,
        )


@cache
def trees(path: Path = MODEL) -> Trees:
    """The model in `path`, its nodes' indices made global to the concatenated arrays."""
    return load(path, FEATURES)


def load(path: Path, features: int) -> Trees:
    """A model of `features` features fitted at `FITTED` (refused otherwise), its trees'
    nodes concatenated and their indices made global."""
    data = json.loads(path.read_text())
    if data["features"] != features:
        raise ValueError(f"{path.name}: {data['features']} features, expected {features}")
    if data["fitted"]["table"] != FITTED:
        raise ValueError(f"{path.name}: fitted at {data['fitted']['table']}, expected {FITTED}")
    starts, offset = [], 0
    for tree in data["trees"]:
        starts.append(offset)
        offset += len(tree["value"])

    def joined(key: str, dtype: type, shift: bool = False) -> np.ndarray:
        parts: list[np.ndarray] = [
            np.asarray(tree[key], dtype=dtype) + (start if shift else 0)
            for tree, start in zip(data["trees"], starts, strict=True)
        ]
        return np.ascontiguousarray(np.concatenate(parts))

    return Trees(
        baseline=float(data["baseline"]),
        start=np.asarray(starts, dtype=np.int64),
        feature=joined("feature", np.int64),
        threshold=joined("threshold", np.float64),
        left=joined("left", np.int64, shift=True),
        right=joined("right", np.int64, shift=True),
        leaf=joined("leaf", np.bool_),
        value=joined("value", np.float64),
    )


def _play(options: RuleOptions) -> RuleOptions:
    """The rules that decide a hand's play and points: all but the game's end."""
    return dataclasses.replace(options, target_score=100, tie_rule=TieRule.PLAY_ON)


_FITTED_PLAY = _play(RuleOptions.standard(SEATS))


def fits(options: RuleOptions) -> bool:
    """Whether the model was fitted at a table whose hands are played and scored as these."""
    return _play(options) == _FITTED_PLAY


def predict(
    hands: np.ndarray, points: np.ndarray, leader: np.ndarray | int, moon: np.ndarray
) -> np.ndarray:
    """Every seat's predicted points (rows, 4) from the hands as the play-outs started
    (rows, 4, 52 card counts), their points (rows, 4), the first trick's leader (per row or one
    for all) and whether the play-out ended in a moon (rows)."""
    rows = points.shape[0]
    model = trees()
    return np.asarray(
        _predict(
            np.ascontiguousarray(hands, dtype=np.int8),
            np.ascontiguousarray(points, dtype=np.float64),
            np.ascontiguousarray(np.broadcast_to(np.asarray(leader), (rows,)), dtype=np.int64),
            np.ascontiguousarray(moon, dtype=np.bool_),
            model.arrays,
        ),
        dtype=np.float64,
    )


def warm_up() -> None:
    """Compile `predict` now (or read it from Numba's cache)."""
    hands = np.zeros((1, SEATS, 52), dtype=np.int8)
    for card in range(52):
        hands[0, card % SEATS, card] = 1
    predict(hands, np.zeros((1, SEATS)), 0, np.zeros(1, dtype=np.bool_))


@njit(cache=True)
def _predict(
    hands: np.ndarray,
    points: np.ndarray,
    leader: np.ndarray,
    moon: np.ndarray,
    model: Arrays,
) -> np.ndarray:  # pragma: no cover - compiled
    """The trees' sum for every row and seat, the trees added in order."""
    rows = points.shape[0]
    out = np.empty((rows, 4))
    x = np.empty(4 + 4 * 52)
    for r in range(rows):
        total = points[r, 0] + points[r, 1] + points[r, 2] + points[r, 3]
        for s in range(4):
            x[0] = points[r, s]
            x[1] = total - points[r, s]
            x[2] = 1.0 if leader[r] == s else 0.0
            x[3] = 1.0 if moon[r] else 0.0
            for k in range(4):
                for card in range(52):
                    x[4 + 52 * k + card] = hands[r, (s + k) % 4, card]
            out[r, s] = walk(x, model)
    return out


@njit(cache=True)
def walk(x: np.ndarray, model: Arrays) -> float:  # pragma: no cover - compiled
    """One row's prediction: the baseline plus the leaf it reaches in every tree, in order."""
    baseline, start, feature, threshold, left, right, leaf, value = model
    acc = baseline
    for t in range(start.shape[0]):
        node = start[t]
        while not leaf[node]:
            node = left[node] if x[feature[node]] <= threshold[node] else right[node]
        acc += value[node]
    return acc
