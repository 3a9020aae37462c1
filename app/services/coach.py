"""Hints: the Hard player's advice at the human's turn, from the human seat's view only.

A hint is asked at one version of the table (the page's), like a move. It is thought where Hard
thinks (`Thinkers`, worker processes), from the human seat's `PlayerView` and a generator seeded
from stored data (the game's seed, the log's length and the seat), so asking again gives the same
advice and nothing hidden can reach it. The first hint of a game marks the game assisted, for
the statistics; that changes neither the version nor the table.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.bots import coach, decision_rng
from app.bots.coach import Advice
from app.engine import Phase, PlayerView, view_for
from app.services import games
from app.services.computers import Thinkers
from app.services.database import Database
from app.services.players import Caller
from app.store.models import ACTIVE

HINT_PHASES = (Phase.PASS, Phase.PLAY)


@dataclass(frozen=True, slots=True)
class Hint:
    """The advice, and the view it was given from (the page names seats and cards with it)."""

    advice: Advice
    view: PlayerView


class NoHintError(Exception):
    """No hint at this table now: the page was not current, or it is not the player's turn to
    pass or play. The message is a message id for the page."""

    def __init__(self, message: str, stale: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.stale = stale


def hint(db: Database, thinkers: Thinkers, caller: Caller, game_id: int, version: int) -> Hint:
    """The advice for the human's pass or card at `version` of one of the caller's games, and
    the game marked assisted (`GameNotFoundError`, `NoHintError`)."""
    game, state = games.read_game(db, caller, game_id)
    if game.status != ACTIVE or game.version != version:
        raise NoHintError("The table had moved on; here it is as it is now.", stale=True)
    view = view_for(state, games.HUMAN_SEAT)
    if view.phase not in HINT_PHASES or games.HUMAN_SEAT not in view.to_act:
        raise NoHintError("It is not your turn.")
    rng = decision_rng(game.seed, game.version, games.HUMAN_SEAT)
    advice = thinkers.think(coach.advise, view, rng)
    games.mark_assisted(db, caller, game)
    return Hint(advice, view)
