"""A prepared history of games for the statistics tests, stored as the services store games.

Each game is played through the engine's public API with seeded random legal actions and, where
a test needs one, scripted deals; its actions go to the database in several transactions through
`repository.append_actions` (which writes the hand results in the transaction that ends a hand),
exactly as the services would. The history holds:

- a standard game with a moon: hand 4 (no passing) deals South every top card (Hard opponents);
- an Omnibus game (Medium opponents);
- a Cancellation Hearts game at eight seats (Easy opponents);
- a game ending in a shared win (tie_rule shared, two moons; Hard opponents);
- an abandoned game, given up in its third hand (Hard opponents);
- an active game in its second hand (Hard opponents).

Start dates are set one month apart in that order (January … June 2026), so date filters and
streak order are known.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy.orm import Session, sessionmaker

from app.engine import (
    Action,
    Deal,
    GameHeader,
    GameState,
    Phase,
    RuleOptions,
    apply,
    legal_actions,
    new_game,
    random_deal,
)
from app.store import repository
from app.store.models import Game
from tests.store.helpers import moon_deal

Stop = Callable[[GameState], bool]


def rotated_moon_deal(shooter: int) -> Deal:
    """`moon_deal` with the top cards at seat `shooter`: that seat takes every trick of a hand
    without passing, whatever anyone plays."""
    hands = list(moon_deal().hands)
    top = hands.pop(0)
    hands.insert(shooter, top)
    return Deal(hands)


def play(
    options: RuleOptions,
    seed: int,
    deals: dict[int, Deal] | None = None,
    stop: Stop | None = None,
) -> list[tuple[Action, GameState]]:
    """A seeded random legal game (scripted deals by hand number), up to its end or `stop`."""
    rng = random.Random(seed)
    state = new_game(options)
    steps: list[tuple[Action, GameState]] = []
    while not state.is_over and not (stop and stop(state)):
        action: Action
        if state.phase is Phase.DEAL:
            action = (deals or {}).get(state.hand_number + 1) or random_deal(options, rng)
        else:
            action = rng.choice(legal_actions(state))
        state = apply(state, action)
        steps.append((action, state))
    return steps


def store(
    sessions: sessionmaker[Session],
    player_id: str,
    options: RuleOptions,
    level: str,
    steps: list[tuple[Action, GameState]],
    started: datetime,
    *,
    abandon: bool = False,
) -> int:
    """Store a played game for the player in chunks of up to 37 actions; return its id."""
    with sessions.begin() as session:
        player = repository.get_player(session, player_id)
        assert player is not None
        seats = ["human"] + [level] * (options.num_players - 1)
        game = repository.create_game(
            session, player, GameHeader(options), seats, seed=len(steps), fast_play=True
        )
        game.created_at = started
        game_id = game.id
    for i in range(0, len(steps), 37):
        piece = steps[i : i + 37]
        with sessions.begin() as session:
            locked = repository.lock_game(session, game_id, player_id)
            assert locked is not None
            repository.append_actions(session, locked, [a for a, _ in piece], piece[-1][1])
    if abandon:
        with sessions.begin() as session:
            stored = session.get(Game, game_id)
            assert stored is not None
            repository.mark_abandoned(session, stored)
    return game_id


@dataclass(frozen=True)
class History:
    """The ids of the prepared games."""

    moon: int
    omnibus: int
    cancellation: int
    shared: int
    abandoned: int
    active: int

    @property
    def all(self) -> list[int]:
        """Every game id, oldest first."""
        return [
            self.moon,
            self.omnibus,
            self.cancellation,
            self.shared,
            self.abandoned,
            self.active,
        ]


def month(m: int) -> datetime:
    """Noon UTC on the 10th of month `m` of 2026."""
    return datetime(2026, m, 10, 12, 0, tzinfo=UTC)


def in_hand(number: int, tricks: int) -> Stop:
    """Stop once hand `number` has `tricks` tricks played."""

    def stop(state: GameState) -> bool:
        hand = state.hand
        return hand is not None and hand.number == number and len(hand.tricks) >= tricks

    return stop


def prepare(sessions: sessionmaker[Session], player_id: str, seed: int = 6) -> History:
    """Store the prepared history for the player."""
    standard = RuleOptions.standard()
    moon = play(standard, seed, deals={4: moon_deal()})
    omnibus_options = RuleOptions.standard(omnibus=True)
    omnibus = play(omnibus_options, seed + 1)
    cancellation_options = RuleOptions.cancellation(8)
    cancellation = play(cancellation_options, seed + 2)
    shared_options = RuleOptions.standard(pass_cycle="none", target_score=50, tie_rule="shared")
    shared = play(
        shared_options, seed + 3, deals={1: rotated_moon_deal(0), 2: rotated_moon_deal(1)}
    )
    abandoned = play(standard, seed + 4, stop=in_hand(3, 5))
    active = play(standard, seed + 5, stop=in_hand(2, 6))
    return History(
        moon=store(sessions, player_id, standard, "hard", moon, month(1)),
        omnibus=store(sessions, player_id, omnibus_options, "medium", omnibus, month(2)),
        cancellation=store(
            sessions, player_id, cancellation_options, "easy", cancellation, month(3)
        ),
        shared=store(sessions, player_id, shared_options, "hard", shared, month(4)),
        abandoned=store(sessions, player_id, standard, "hard", abandoned, month(5), abandon=True),
        active=store(sessions, player_id, standard, "hard", active, month(6)),
    )
