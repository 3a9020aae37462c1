"""The moon choice of a computer shooter: the `auto` rule (R12.5, R12.6, Q-07)."""

from __future__ import annotations

import random

from app.bots.knowledge import know
from app.engine import MoonScoring, PlayerView, auto_moon_scoring, raw_points


def choose_moon(view: PlayerView, rng: random.Random) -> MoonScoring:
    """Add 26 to the others unless that would end the game with this seat not winning (R12.6).

    The shooter holds every penalty card, so the public tricks (and its own kitty) give the
    hand's points exactly.
    """
    del rng  # the rule is deterministic
    base = raw_points(view.options, know(view).taken)
    return auto_moon_scoring(view.options, base, view.seat, view.totals)
