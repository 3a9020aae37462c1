"""Playing for the game, not the hand: what a hand's outcome is worth given the totals.

A game is won by the lowest total when someone reaches the target. Early on, every point this
seat takes and every point an opponent takes count the same (`hand_values`: the opponents' mean
points minus this seat's). Near the target what counts is the race:

- if the hand ends the game, the value is the place this seat finishes: first (a win) is worth
  `end_weight`, last costs `end_weight`, a place between costs half of it; the hand's points only
  break ties;
- if it does not, points given to the closest rival (the opponent with the lowest total) count
  more and points given to an opponent far behind count less: the value moves from the plain
  hand difference towards the change of this seat's margin over its closest rival as the
  highest total nears the target.

The moon choice of an Expert shooter (`moon_choice`) follows the same value.
"""

from __future__ import annotations

import numpy as np

from app.bots import simulator as sim


def hand_values(points: sim.IntArray) -> np.ndarray:
    """Every seat's plain hand result: the others' mean points minus its own, shape (rows, n)."""
    n = points.shape[1]
    own = points.astype(np.float64)
    return np.asarray((own.sum(axis=1, keepdims=True) - own) / (n - 1) - own, dtype=np.float64)


def closeness(rules: sim.Rules, totals: sim.IntArray) -> np.ndarray:
    """How near the game is to its end, per row, from 0 (the highest total is two moons' worth
    or more below the target) to 1 (it has reached the target)."""
    span = 2.0 * max(rules.penalty_points, 1)
    high = totals.max(axis=1).astype(np.float64)
    return np.asarray(np.clip(1.0 - (rules.target - high) / span, 0.0, 1.0), dtype=np.float64)


def game_values(
    me: int, rules: sim.Rules, points: sim.IntArray, totals: sim.IntArray, end_weight: float
) -> np.ndarray:
    """The value for seat `me` of every row's hand `points`, given the `totals` before the hand
    (shape (1, n) or (rows, n)), higher is better."""
    hand = hand_values(points)[:, me]
    before = np.broadcast_to(totals, points.shape)
    after = before + points
    rivals_after = np.delete(after, me, axis=1).min(axis=1)
    rivals_before = np.delete(before, me, axis=1).min(axis=1)
    margin = (rivals_after - after[:, me]) - (rivals_before - before[:, me])
    near = closeness(rules, before)
    running = (1.0 - near) * hand + near * margin
    ends, winners = sim.game_end(rules, after)
    first = winners[:, me]
    last = (after[:, me] == after.max(axis=1)) & ~first
    place = np.where(first, end_weight, np.where(last, -end_weight, -0.5 * end_weight))
    ended = place + 0.1 * hand
    return np.asarray(np.where(ends, ended, running), dtype=np.float64)


def moon_choice(
    me: int,
    rules: sim.Rules,
    added: sim.IntArray,
    subtracted: sim.IntArray,
    totals: sim.IntArray,
    end_weight: float,
) -> bool:
    """Whether the shooter `me` should add the moon to the others (True) rather than subtract it
    from its own total: the scoring with the better `game_values`. When both are worth the same
    (the game goes on either way), adding brings the end nearer, which suits the leader: add if
    this seat would then hold the lowest total alone, else subtract and leave time to catch up."""
    both = np.stack([np.asarray(added), np.asarray(subtracted)])
    before = np.asarray(totals)[None, :]
    value = game_values(me, rules, both, before, end_weight)
    if abs(value[0] - value[1]) > 1e-9:
        return bool(value[0] > value[1])
    after = before[0] + both[0]
    return bool(np.delete(after, me).min() > after[me])
