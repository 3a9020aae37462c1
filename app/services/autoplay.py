"""The human's cards the table plays for the player, as the player's settings ask: the only card
they may play, and the rest of a hand in which nothing is left to score."""

from __future__ import annotations

import math
from dataclasses import dataclass

from app.engine import Action, GameState, Phase, Play, PlayerView, apply, legal_cards, to_act


@dataclass(frozen=True, slots=True)
class AutoPlay:
    """What the table may play for the human."""

    only_card: bool = False
    """The human's only legal card, at once."""
    finish_hand: bool = False
    """The rest of a hand in which nothing is left to score (`nothing_left_to_score` from the
    human's own view), every seat's cards at once."""

    @property
    def active(self) -> bool:
        """Whether anything is played for the human."""
        return self.only_card or self.finish_hand


def only_card(view: PlayerView) -> Play | None:
    """The seat's play when exactly one card is legal (a forced play), else None."""
    if view.phase is Phase.PLAY and view.seat in view.to_act and len(view.legal) == 1:
        return Play(view.seat, view.legal[0])
    return None


def finish(state: GameState) -> list[Action]:
    """The rest of the hand, each seat playing its lowest legal card: it changes nothing of the
    score when nothing is left to score."""
    actions: list[Action] = []
    while state.phase is Phase.PLAY:
        seat = to_act(state)[0]
        action = Play(seat, min(legal_cards(state, seat)))
        actions.append(action)
        state = apply(state, action)
    return actions


def tricks_in(plays: int, num_players: int) -> int:
    """The tricks that `plays` cards finished (the first may have been begun already)."""
    return math.ceil(plays / num_players)
