"""Careful players' positions, and learned values walked by hand, for the bots' tests."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from app.bots import Level, choose_action
from app.bots.sampler import World
from app.engine import (
    GameState,
    Phase,
    PlayerView,
    RuleOptions,
    apply,
    new_game,
    random_deal,
    to_act,
    view_for,
)


def positions(
    options: RuleOptions, seed: int, wanted: Callable[[PlayerView], bool], count: int
) -> list[tuple[GameState, PlayerView]]:
    """`count` positions of games of careful players where `wanted(view)` holds for the seat to
    play, with the full state."""
    rng = random.Random(seed)
    state = new_game(options)
    found: list[tuple[GameState, PlayerView]] = []
    while len(found) < count:
        if state.is_over:
            state = new_game(options)
        if state.phase is Phase.DEAL:
            state = apply(state, random_deal(options, rng))
            continue
        seat = to_act(state)[0]
        view = view_for(state, seat)
        if view.phase is Phase.PLAY and wanted(view):
            found.append((state, view))
        state = apply(state, choose_action(view, Level.MEDIUM, rng))
    return found


def true_world(state: GameState) -> World:
    assert state.hand is not None
    return World(state.hand.hands, state.hand.kitty, (None,) * len(state.hand.hands))


def pass_view(options: RuleOptions, seed: int) -> PlayerView:
    """A seat's view at the pass of a random deal."""
    state = apply(new_game(options), random_deal(options, random.Random(seed)))
    assert state.phase is Phase.PASS
    return view_for(state, to_act(state)[0])


def tree_sum(model: dict[str, Any], x: Sequence[float]) -> float:
    """A learned value's trees (`pass_value`'s format) summed for one row of features, by the
    format's own words: one tree at a time, a row going left when its feature is at most the
    threshold."""
    value = float(model["baseline"])
    for tree in model["trees"]:
        node = 0
        while not tree["leaf"][node]:
            go_left = x[tree["feature"][node]] <= tree["threshold"][node]
            node = tree["left"][node] if go_left else tree["right"][node]
        value += tree["value"][node]
    return value


def stump(feature: int, threshold: float, high: float) -> dict[str, list[float]]:
    """A tree of one split: 0 if the feature is at most the threshold, else `high`."""
    return {
        "feature": [feature, 0, 0],
        "threshold": [threshold, 0.0, 0.0],
        "left": [1, 0, 0],
        "right": [2, 0, 0],
        "leaf": [0, 1, 1],
        "value": [0.0, 0.0, high],
    }
