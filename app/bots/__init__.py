"""Computer players: Easy, Medium, Hard and Expert. Each sees only a `PlayerView` (BOT-01, BOT-02).

Every level is a module with three pure functions of a view and a seeded `random.Random`:
`choose_pass(view, rng) -> three cards`, `choose_play(view, rng) -> card` and
`choose_moon(view, rng) -> MoonScoring` (asked only when `moon_scoring = choice` and this seat
shot the moon). `choose_action` wraps them into an engine action for whatever the view waits for.
Bots import nothing of the project but `app.engine` (the Hard player's simulator uses NumPy).
"""

from __future__ import annotations

import importlib
import random
from enum import StrEnum
from types import ModuleType

from app.bots.seeding import decision_rng
from app.engine import Action, MoonChoice, Pass, Phase, Play, PlayerView


class Level(StrEnum):
    """The difficulty of a computer player (UI-13)."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"
    EXPERT = "expert"


def bot(level: Level | str) -> ModuleType:
    """The module that plays `level`."""
    return importlib.import_module(f"app.bots.{Level(level).value}")


def choose_action(view: PlayerView, level: Level | str, rng: random.Random) -> Action:
    """The action `level` takes in `view`'s seat: a pass, a card or a moon choice."""
    player = bot(level)
    if view.phase is Phase.PASS:
        return Pass(view.seat, player.choose_pass(view, rng))
    if view.phase is Phase.PLAY:
        return Play(view.seat, player.choose_play(view, rng))
    if view.phase is Phase.MOON_CHOICE:
        return MoonChoice(view.seat, player.choose_moon(view, rng))
    raise ValueError(f"a computer player has nothing to decide in phase {view.phase}")


__all__ = ["Level", "bot", "choose_action", "decision_rng"]
