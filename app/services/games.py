"""Use cases of a game: start it, take the player's action, let the computer players act, resume.

A game is its stored action log; the state is rebuilt by replay (cached per process by game,
version and the time of the game's last write, so a cached state is only ever found again for
the very write that stored it). Every change runs in one transaction that locks the game row and
checks that the game is still active and at the version the player's page was rendered at, so a
double click, a replayed request or a second tab can never apply an action twice, nor an action
to a game that was given up for a newer one. The web layer receives only the human seat's
`PlayerView` (never the full state), so no page can show a hidden card.
"""

from __future__ import annotations

import hashlib
import secrets
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from threading import Lock

from sqlalchemy.orm import Session

from app.bots import Level, choose_action, decision_rng
from app.engine import (
    Action,
    ActionError,
    Deal,
    GameHeader,
    GameState,
    IllegalActionError,
    Phase,
    PlayerView,
    RuleOptions,
    apply,
    new_game,
    replay,
    seeded_deal,
    to_act,
    view_for,
)
from app.store import repository
from app.store.models import ACTIVE, Game, Player
from app.store.models import HUMAN as HUMAN  # noqa: PLC0414 (re-exported for the web layer)

HUMAN_SEAT = 0


class GameNotFoundError(LookupError):
    """No such game for this player (another player's game counts as missing)."""


@dataclass(frozen=True, slots=True)
class Table:
    """What a page may show of a game: the human seat's view and the game's settings."""

    game_id: int
    version: int
    seats: tuple[str, ...]
    """"human" or the level of each seat's computer player."""
    fast_play: bool
    status: str
    view: PlayerView

    @property
    def computer_to_act(self) -> bool:
        """Whether a computer player acts next (the page then asks the server to advance); never
        in a game that is over or abandoned."""
        return self.status == ACTIVE and any(self.seats[s] != HUMAN for s in self.view.to_act)

    @property
    def level(self) -> str:
        """The level of the computer players (they all share one)."""
        return next((s for s in self.seats if s != HUMAN), Level.MEDIUM.value)


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why an action was not applied, for the page: a message and the rule, if any."""

    message: str
    rule: str | None = None
    stale: bool = False


class ActionRefusedError(Exception):
    """The action was not applied; the table is unchanged."""

    def __init__(self, refusal: Refusal, table: Table) -> None:
        super().__init__(refusal.message)
        self.refusal = refusal
        self.table = table


# --- state cache ------------------------------------------------------------------------------

_CACHE_SIZE = 256
_CacheKey = tuple[int, int, datetime]
_cache: OrderedDict[_CacheKey, GameState] = OrderedDict()
_cache_lock = Lock()


def _key(game: Game) -> _CacheKey:
    """The cache key of a game's state: its id, version and last write time.

    `updated_at` is written in the same transaction as the actions, so a state remembered in a
    transaction that then fails to commit, or for a version another process reached with other
    actions, or for a game of the same id in another database, is never found again.
    """
    return (game.id, game.version, game.updated_at)


def _cached(game: Game) -> GameState | None:
    key = _key(game)
    with _cache_lock:
        state = _cache.get(key)
        if state is not None:
            _cache.move_to_end(key)
        return state


def _remember(game: Game, state: GameState) -> None:
    with _cache_lock:
        _cache[_key(game)] = state
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)


def _state(session: Session, game: Game) -> GameState:
    state = _cached(game)
    if state is None:
        state = replay(GameHeader.from_json(game.header), repository.load_actions(session, game))
        _remember(game, state)
    return state


def _table(game: Game, state: GameState) -> Table:
    return Table(
        game_id=game.id,
        version=game.version,
        seats=tuple(game.seats),
        fast_play=game.fast_play,
        status=game.status,
        view=view_for(state, HUMAN_SEAT),
    )


# --- use cases --------------------------------------------------------------------------------

Step = Callable[[Game, GameState], tuple[list[Action], GameState]]
"""A change to a locked game: the actions to append and the state they lead to."""


def start_game(
    session: Session,
    player: Player,
    level: Level | str,
    fast_play: bool,
    options: RuleOptions | None = None,
) -> int:
    """Start a new game against computer players of `level`; the previous active game, if any,
    is marked abandoned. The first hand is dealt and the computer players pass at once."""
    level = Level(level)
    options = options or RuleOptions.standard()
    previous = repository.active_game(session, player)
    if previous is not None:
        repository.mark_abandoned(session, previous)
    header = GameHeader(options, first_dealer=0)
    seats = [HUMAN] + [level.value] * (options.num_players - 1)
    game = repository.create_game(session, player, header, seats, secrets.randbits(62), fast_play)
    state = new_game(options, header.first_dealer)
    actions, state = _plan(game, state, [_deal(game, state)])
    repository.append_actions(session, game, actions, state, results_before=0)
    _remember(game, state)
    return game.id


def start_again(session: Session, player: Player, game_id: int) -> int:
    """A new game with the same options, computer level and pace as one of the player's games."""
    game = repository.get_game(session, game_id, player.id)
    if game is None:
        raise GameNotFoundError(game_id)
    level = next(s for s in game.seats if s != HUMAN)
    options = GameHeader.from_json(game.header).options
    return start_game(session, player, level, game.fast_play, options)


def table(session: Session, player: Player, game_id: int) -> Table:
    """The table of one of the player's games."""
    game = repository.get_game(session, game_id, player.id)
    if game is None:
        raise GameNotFoundError(game_id)
    return _table(game, _state(session, game))


def act(session: Session, player: Player, game_id: int, version: int, action: Action) -> Table:
    """Apply the human's action if the page was current; then the computers' passes."""

    def step(game: Game, state: GameState) -> tuple[list[Action], GameState]:
        if HUMAN_SEAT not in to_act(state):
            raise _Refused(Refusal("It is not your turn.", "R14.2"))
        return _plan(game, state, [action])

    return _change(session, player, game_id, version, step)


def advance(session: Session, player: Player, game_id: int, version: int) -> Table:
    """Let the computer player whose turn it is take one action (a no-op otherwise).

    The computer thinks outside any transaction (a Hard decision can take a few hundred
    milliseconds and SQLite's write lock must not wait for it): the position is read and the
    transaction ended, the action chosen, then applied in a new transaction only if the game is
    still at the same version. A decision depends only on stored data, so a concurrent request
    that got there first has applied the very same action.
    """
    game = repository.get_game(session, game_id, player.id)
    if game is None:
        raise GameNotFoundError(game_id)
    state = _state(session, game)
    seed, seats, at, active = game.seed, list(game.seats), game.version, game.status == ACTIVE
    session.commit()
    chosen: Action | None = None
    bots = [s for s in to_act(state) if seats[s] != HUMAN]
    if version == at and active and bots:
        seat = bots[0]
        rng = decision_rng(seed, at, seat)
        chosen = choose_action(view_for(state, seat), seats[seat], rng)

    def step(game: Game, state: GameState) -> tuple[list[Action], GameState]:
        if chosen is None:
            return [], state
        return _plan(game, state, [chosen])

    return _change(session, player, game_id, version, step)


def next_hand(session: Session, player: Player, game_id: int, version: int) -> Table:
    """Deal the next hand once the last one is scored (UI-11)."""

    def step(game: Game, state: GameState) -> tuple[list[Action], GameState]:
        if state.phase is not Phase.DEAL:
            raise _Refused(Refusal("The hand is not over yet.", "R13.2"))
        return _plan(game, state, [_deal(game, state)])

    return _change(session, player, game_id, version, step)


def active_game_id(session: Session, player: Player) -> int | None:
    """The player's game in progress, if any (for "Continue")."""
    game = repository.active_game(session, player)
    return None if game is None else game.id


# --- internals --------------------------------------------------------------------------------


class _Refused(Exception):
    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.message)
        self.refusal = refusal


def _change(session: Session, player: Player, game_id: int, version: int, step: Step) -> Table:
    """Run `step` on the locked game if `version` is the one the page was rendered at."""
    game = repository.lock_game(session, game_id, player.id)
    if game is None:
        raise GameNotFoundError(game_id)
    state = _state(session, game)
    if game.status != ACTIVE:
        # A finished game, or one abandoned for a newer game (say, from another tab).
        refusal = Refusal(f"This game is {game.status}; it takes no more actions.", stale=True)
        raise ActionRefusedError(refusal, _table(game, state))
    if version != game.version:
        refusal = Refusal("The table had moved on; here it is as it is now.", stale=True)
        raise ActionRefusedError(refusal, _table(game, state))
    try:
        actions, new_state = step(game, state)
    except _Refused as refused:
        raise ActionRefusedError(refused.refusal, _table(game, state)) from None
    except IllegalActionError as err:
        raise ActionRefusedError(Refusal(err.message, err.rule), _table(game, state)) from None
    except ActionError as err:
        raise ActionRefusedError(Refusal(str(err)), _table(game, state)) from None
    if actions:
        results_before = len(state.results)
        repository.append_actions(session, game, actions, new_state, results_before=results_before)
        _remember(game, new_state)
    return _table(game, new_state)


def _plan(game: Game, state: GameState, first: list[Action]) -> tuple[list[Action], GameState]:
    """Apply `first` (validating it), then the computer players' passes, which need no pause
    because every seat commits its pass at once (R4.3)."""
    actions = list(first)
    for action in first:
        state = apply(state, action)
    while state.phase is Phase.PASS:
        bots = [s for s in to_act(state) if game.seats[s] != HUMAN]
        if not bots:
            break
        seat = bots[0]
        rng = decision_rng(game.seed, game.version + len(actions), seat)
        action = choose_action(view_for(state, seat), game.seats[seat], rng)
        actions.append(action)
        state = apply(state, action)
    return actions, state


def _deal(game: Game, state: GameState) -> Deal:
    """The next hand's deal, derived from the game's seed and the hand number."""
    number = state.hand_number + 1
    digest = hashlib.sha256(f"hearts-deal:{game.seed}:{number}".encode()).digest()
    return seeded_deal(state.options, int.from_bytes(digest[:8], "big"))
