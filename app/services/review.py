"""The review of a finished hand: each of the player's decisions (the pass and every card) with
what the Hard player estimates it cost against its best choice from the same view.

A review runs on demand, never on the play path: the hand's log is replayed to each of the
player's decisions, and every decision is weighed from the player's `PlayerView` only, with a
generator seeded from stored data (the game's seed and the decision's place in the log, as a hint
there would have been), where Hard thinks (`Thinkers`). A scored hand never changes, so its
review is kept per process (by game, seed and hand) and asking again costs nothing.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from threading import Lock

from app.bots import coach, decision_rng
from app.bots.coach import Assessment
from app.engine import (
    Action,
    Card,
    Deal,
    GameHeader,
    Pass,
    Play,
    PlayerView,
    apply,
    replay,
    view_for,
)
from app.services.computers import Thinkers
from app.services.database import Database
from app.services.games import HUMAN_SEAT, GameNotFoundError
from app.services.players import Caller
from app.store import repository

CACHE_SIZE = 256
"""Reviews kept per process (most recently asked first)."""


@dataclass(frozen=True, slots=True)
class ReviewedDecision:
    """One decision of the hand: the pass (trick None) or the card of a trick, and its weighing."""

    trick: int | None
    view: PlayerView
    """The player's view when deciding (the page names cards and seats with it)."""
    assessment: Assessment


@dataclass(frozen=True, slots=True)
class HandReview:
    """The review of one scored hand of a game."""

    game_id: int
    number: int
    num_players: int
    decisions: tuple[ReviewedDecision, ...]

    @property
    def given_away(self) -> float:
        """The points all the decisions cost, by Hard's estimate."""
        return sum(d.assessment.cost or 0.0 for d in self.decisions)

    @property
    def costly(self) -> int:
        """How many decisions cost at least `coach.COSTLY` points."""
        return sum(1 for d in self.decisions if d.assessment.costly)


_cache: OrderedDict[tuple[int, int, int], HandReview] = OrderedDict()
_lock = Lock()


def review(
    db: Database, thinkers: Thinkers, caller: Caller, game_id: int, number: int
) -> HandReview:
    """The review of hand `number` of one of the caller's games (`GameNotFoundError` unless the
    game is theirs and the hand is scored)."""
    with db.read() as session:
        game = repository.get_game(session, game_id, caller.player_id)
        if game is None or not 1 <= number <= game.hand_number:
            raise GameNotFoundError(game_id)
        key = (game.id, game.seed, number)
        with _lock:
            known = _cache.get(key)
        if known is not None:
            return known
        actions = repository.load_actions(session, game)
    header = GameHeader.from_json(game.header)
    found = _decisions(header, actions, number, game.seed)
    if found is None:
        raise GameNotFoundError(game_id)
    work = [(view, chosen, rng) for view, chosen, rng, _ in found]
    assessed = thinkers.think(coach.assess_all, work)
    result = HandReview(
        game_id=game.id,
        number=number,
        num_players=header.options.num_players,
        decisions=tuple(
            ReviewedDecision(trick, view, a)
            for (view, _, _, trick), a in zip(found, assessed, strict=True)
        ),
    )
    with _lock:
        _cache[key] = result
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return result


Found = tuple[PlayerView, tuple[Card, ...], random.Random, int | None]
"""A decision to weigh: the view, the choice, the seeded generator, the trick (None: the pass)."""


def _decisions(
    header: GameHeader, actions: Sequence[Action], number: int, seed: int
) -> list[Found] | None:
    """The player's decisions of hand `number`: the view, the choice, the seeded generator and
    the trick (None for the pass); None if the hand is not scored."""
    state = replay(header, [])
    found: list[Found] = []
    for index, action in enumerate(actions):
        if isinstance(action, Deal) and state.hand_number >= number:
            break
        if state.hand_number == number and getattr(action, "seat", None) == HUMAN_SEAT:
            view = view_for(state, HUMAN_SEAT)
            rng = decision_rng(seed, index, HUMAN_SEAT)
            if isinstance(action, Pass):
                found.append((view, tuple(action.cards), rng, None))
            elif isinstance(action, Play):
                found.append((view, (action.card,), rng, view.trick_number))
        state = apply(state, action)
    if not any(r.number == number for r in state.results):
        return None
    return found
