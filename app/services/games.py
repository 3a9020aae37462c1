"""Use cases of a game: start it, take the human's decision (and the computers' turns up to the
human's next one), deal the next hand, show the table.

A game is its stored action log; the state is rebuilt by replay (cached per process by game,
version and the time of the game's last write, so a cached state is only ever found again for
the very write that stored it). A game another process has moved on is brought up to date from
the newest committed state this process knows of it, with only the actions after it read and
applied: the log only grows.

One request per human decision. Every change runs in three steps:
1. read (no lock; on PostgreSQL not even a transaction): the game, its state, the version
   check, the rules check;
2. think (no transaction): the computer players act until the human's next decision
   (`computers`, Hard in worker processes), with the human's cards the player's settings let
   the table play (`autoplay`), and the states in between are computed;
3. write (on SQLite a short write transaction, on PostgreSQL one statement): the game row is
   locked, the version checked again and the actions appended, so the write lock is held for
   the append only.
A double click, a replayed request or a second tab can never apply an action twice: the second
writer finds the version moved and changes nothing. A retry of the very decision that was
applied (a lost response) is answered as if it had just been applied. The web layer receives
only the human seat's `PlayerView`s (never the full state), so no page can show a hidden card.
"""

from __future__ import annotations

import hashlib
import secrets
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from threading import Lock

from app.bots import Level
from app.engine import (
    Action,
    ActionError,
    Deal,
    GameHeader,
    GameState,
    IllegalActionError,
    Phase,
    Play,
    PlayerView,
    RuleOptions,
    apply,
    fairdeal,
    new_game,
    replay,
    seeded_deal,
    to_act,
    view_for,
)
from app.engine.endgame import nothing_left_to_score
from app.services import autoplay, players
from app.services.autoplay import AutoPlay
from app.services.computers import Thinkers
from app.services.database import Database
from app.services.fairplay import TableSeal, deal_code, table_seal
from app.services.players import Caller
from app.store import repository
from app.store.models import ACTIVE, Game, utcnow
from app.store.models import HUMAN as HUMAN  # noqa: PLC0414 (re-exported for the web layer)
from app.store.repository import Executor, GameRow

HUMAN_SEAT = 0
NO_AUTOPLAY = AutoPlay()


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
    seal: TableSeal | None = None
    """The commitments the table shows (docs/fair-play.md); None for a game dealt before
    verifiable deals."""
    assisted: bool = False
    """Whether the player asked for a hint in this game."""
    replayed: bool = False
    """Whether the game was dealt from another game's secret (its deals were known)."""
    deal_code: str | None = None
    """Once the game has ended, the code that lets another browser play its deals."""

    @property
    def computer_to_act(self) -> bool:
        """Whether a computer player acts next and the human need not act first (a game stored
        before the computers played up to the human's turn, or whose computers had more to think
        than one response holds); the page then asks the server to advance. While the human is
        still to pass, the computers still to pass are planned with the human's pass."""
        to_act = self.view.to_act
        return (
            self.status == ACTIVE
            and HUMAN_SEAT not in to_act
            and any(self.seats[s] != HUMAN for s in to_act)
        )

    @property
    def level(self) -> str:
        """The level of the computer players (they all share one)."""
        return next((s for s in self.seats if s != HUMAN), Level.MEDIUM.value)


@dataclass(frozen=True, slots=True)
class KnownDeals:
    """Another game's deals, to play again: its seed (its computer players answer the same
    decisions the same way) and its secret (hex)."""

    seed: int
    secret: str


@dataclass(frozen=True, slots=True)
class Outcome:
    """The answer to a decision: the table as it is now, and the tables the page shows one after
    another before it (after the human's action and after each computer card but the last)."""

    table: Table
    steps: tuple[Table, ...] = ()
    finished_tricks: int = 0
    """Tricks played out at once because nothing was left to score (no steps show them)."""


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

_CACHE_SIZE = 512
_CacheKey = tuple[int, int, datetime]
GameLike = Game | GameRow
"""A game as read: an ORM object (start, history) or a plain row (a move's path)."""
_cache: OrderedDict[_CacheKey, GameState] = OrderedDict()
_cache_lock = Lock()


def _key(game: GameLike) -> _CacheKey:
    """The cache key of a game's state: its id, version and last write time.

    `updated_at` is written in the same transaction as the actions, so a state remembered for a
    transaction that then fails to commit, or for a version another process reached with other
    actions, or for a game of the same id in another database, is never found again.
    """
    return (game.id, game.version, game.updated_at)


def _cached(game: GameLike) -> GameState | None:
    key = _key(game)
    with _cache_lock:
        state = _cache.get(key)
        if state is not None:
            _cache.move_to_end(key)
        return state


def _remember(game: GameLike, state: GameState) -> None:
    """Remember the state of a game as committed (never a state of a write still open)."""
    with _cache_lock:
        _cache[_key(game)] = state
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
        known = _latest.get((game.id, game.seed))
        if known is None or known[0] <= game.version:
            _latest[(game.id, game.seed)] = (game.version, state)
            _latest.move_to_end((game.id, game.seed))
            while len(_latest) > _CACHE_SIZE:
                _latest.popitem(last=False)


_latest: OrderedDict[tuple[int, int], tuple[int, GameState]] = OrderedDict()
"""The newest committed state this process knows of each game, with its version, by the game's
id and seed (62 random bits, so a game of the same id in another database, or after a purge, is
never taken for it)."""


def _caught_up(executor: Executor, game: GameLike) -> GameState | None:
    """The game's state from the newest one this process knows at an earlier version and the
    actions stored after it, or None when this process knows none."""
    with _cache_lock:
        known = _latest.get((game.id, game.seed))
    if known is None or known[0] > game.version:
        return None
    version, state = known
    if version == game.version:
        return state
    for action in repository.load_actions(executor, game, since=version):
        state = apply(state, action)
    return state


_rows: OrderedDict[tuple[int, str], GameRow] = OrderedDict()
"""The last row this process read or wrote of each game (by game and player): a move posted at
that row's version skips the read transaction. The write transaction checks the locked row's
version and last write time against it, so a row another process has moved past is never
written over: the move then takes the slow path (read, then refuse or answer the retry)."""


def _row(game_id: int, player_id: str, version: int) -> tuple[GameRow, GameState] | None:
    with _cache_lock:
        row = _rows.get((game_id, player_id))
    if row is None or row.version != version:
        return None
    state = _cached(row)
    return None if state is None else (row, state)


def _keep_row(row: GameRow) -> None:
    with _cache_lock:
        _rows[(row.id, row.player_id)] = row
        _rows.move_to_end((row.id, row.player_id))
        while len(_rows) > _CACHE_SIZE:
            _rows.popitem(last=False)


def _state(executor: Executor, game: GameLike) -> GameState:
    state = _cached(game)
    if state is None:
        state = _caught_up(executor, game)
    if state is None:
        state = replay(GameHeader.from_json(game.header), repository.load_actions(executor, game))
    _remember(game, state)
    return state


def _table(game: GameLike, state: GameState, version: int | None = None) -> Table:
    ended = state.is_over or game.status != ACTIVE
    seal = table_seal(game.deal_secret, state.hand_number, len(state.results), ended)
    return Table(
        game_id=game.id,
        version=game.version if version is None else version,
        seats=tuple(game.seats),
        fast_play=game.fast_play,
        status=game.status,
        view=view_for(state, HUMAN_SEAT),
        seal=seal,
        assisted=game.assisted,
        replayed=game.replayed,
        deal_code=None if seal is None else deal_code(game.id, seal.commitment, ended),
    )


# --- reads ------------------------------------------------------------------------------------


def _read(db: Database, caller: Caller, game_id: int) -> tuple[GameRow, GameState]:
    with db.reading() as connection:
        game = repository.game_row(connection, game_id, caller.player_id)
        if game is None:
            raise GameNotFoundError(game_id)
        state = _state(connection, game)
    _keep_row(game)
    return game, state


def read_game(db: Database, caller: Caller, game_id: int) -> tuple[GameRow, GameState]:
    """One of the caller's games as stored, and its state (`GameNotFoundError` if not theirs)."""
    return _read(db, caller, game_id)


def mark_assisted(db: Database, caller: Caller, game: GameRow) -> None:
    """Record that the player asked for a hint in `game` (once; the version stays)."""
    if game.assisted:
        return
    with db.writing_statements() as connection:
        repository.mark_assisted(connection, game.id, caller.player_id)
    with _cache_lock:
        row = _rows.get((game.id, caller.player_id))
        if row is not None:
            _rows[(game.id, caller.player_id)] = row._replace(assisted=True)


def table(db: Database, caller: Caller, game_id: int) -> Table:
    """The table of one of the caller's games."""
    return _table(*_read(db, caller, game_id))


def active_game_id(db: Database, caller: Caller) -> int | None:
    """The caller's game in progress, if any (for "Continue"); none for an unknown browser,
    without asking the database."""
    if caller.token is None:
        return None
    with db.reading() as connection:
        return repository.active_game_id(connection, caller.token)


def options_of(db: Database, caller: Caller, game_id: int) -> RuleOptions:
    """The rule options of one of the caller's games."""
    with db.reading() as connection:
        game = repository.game_row(connection, game_id, caller.player_id)
        if game is None:
            raise GameNotFoundError(game_id)
        return GameHeader.from_json(game.header).options


# --- changes ----------------------------------------------------------------------------------


def start_game(
    db: Database,
    thinkers: Thinkers,
    caller: Caller,
    level: Level | str,
    fast_play: bool,
    options: RuleOptions | None = None,
    *,
    keep_active: bool = False,
    auto: AutoPlay = NO_AUTOPLAY,
    deals: KnownDeals | None = None,
) -> int:
    """Start a new game against computer players of `level` (the caller's player is created if
    it is new); the previous active game, if any, is marked abandoned, or with `keep_active`
    kept, and its id returned instead of a new game's. The first hand is dealt and the computer
    players pass at once. With `deals`, the game is dealt as another one was (and marked so)."""
    level = Level(level)
    options = options or RuleOptions.standard()
    header = GameHeader(options, first_dealer=0)
    seats = (HUMAN,) + (level.value,) * (options.num_players - 1)
    if deals is None:
        seed = secrets.randbits(62)
        secret: str | None = secrets.token_hex(fairdeal.SECRET_BYTES)
    else:
        seed, secret = deals.seed, deals.secret
    state = new_game(options, header.first_dealer)
    deal = _deal(seed, secret, state)
    actions, states, _ = _play_out(state, [deal], seats, seed, 0, thinkers, auto)
    with db.writing() as connection:
        # A known player's row is locked: on PostgreSQL two tabs' starts would otherwise both
        # find no game in progress (SQLite's write lock already orders them).
        player_id, created = players.claim(connection, caller)
        previous = None if created else repository.active_game_id(connection, player_id)
        if previous is not None:
            if keep_active:
                return previous
            repository.abandon_game(connection, previous, utcnow())
        game = repository.start_game(
            connection,
            player_id,
            header,
            seats,
            seed,
            fast_play,
            actions,
            states[-1],
            secret,
            replayed=deals is not None,
        )
    _remember(game, states[-1])
    _keep_row(game)
    return game.id


def start_again(
    db: Database, thinkers: Thinkers, caller: Caller, game_id: int, auto: AutoPlay = NO_AUTOPLAY
) -> int:
    """A new game with the same options, computer level and pace as one of the caller's games;
    the game in progress instead if there is one, so "New game" posted twice (a double click, a
    retry, a second tab) starts one game and abandons none."""
    with db.read() as session:
        game = repository.get_game(session, game_id, caller.player_id)
        if game is None:
            raise GameNotFoundError(game_id)
        level = next(s for s in game.seats if s != HUMAN)
        options = GameHeader.from_json(game.header).options
        fast_play = game.fast_play
    return start_game(db, thinkers, caller, level, fast_play, options, keep_active=True, auto=auto)


def act(
    db: Database,
    thinkers: Thinkers,
    caller: Caller,
    game_id: int,
    version: int,
    action: Action,
    auto: AutoPlay = NO_AUTOPLAY,
) -> Outcome:
    """Apply the human's action if the page was current, then the computers' turns up to the
    human's next decision (and the cards `auto` plays for the human)."""

    def first(game: GameRow, state: GameState) -> list[Action]:
        if HUMAN_SEAT not in to_act(state):
            raise _Refused(Refusal("It is not your turn.", "R14.2"))
        return [action]

    return _change(db, thinkers, caller, game_id, version, first, auto, retry_of=action)


def advance(
    db: Database,
    thinkers: Thinkers,
    caller: Caller,
    game_id: int,
    version: int,
    auto: AutoPlay = NO_AUTOPLAY,
) -> Outcome:
    """Let the computer players act up to the human's next decision (a no-op when it is the
    human's turn already). Only a game stored at a computer's turn needs it."""
    return _change(db, thinkers, caller, game_id, version, lambda game, state: [], auto)


def next_hand(
    db: Database,
    thinkers: Thinkers,
    caller: Caller,
    game_id: int,
    version: int,
    auto: AutoPlay = NO_AUTOPLAY,
) -> Outcome:
    """Deal the next hand once the last one is scored (UI-11), and let the computers pass (and,
    in a hand without passing, play up to the human's first card)."""

    def first(game: GameRow, state: GameState) -> list[Action]:
        if state.phase is not Phase.DEAL:
            raise _Refused(Refusal("The hand is not over yet.", "R13.2"))
        return [_deal(game.seed, game.deal_secret, state)]

    return _change(db, thinkers, caller, game_id, version, first, auto)


# --- internals --------------------------------------------------------------------------------


class _Refused(Exception):
    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.message)
        self.refusal = refusal


class _Moved(Exception):
    """The game changed between the read and the write."""


First = Callable[[GameRow, GameState], list[Action]]
"""The actions a change starts with (the human's, or a deal), given the game and its state."""


def _change(
    db: Database,
    thinkers: Thinkers,
    caller: Caller,
    game_id: int,
    version: int,
    first: First,
    auto: AutoPlay,
    retry_of: Action | None = None,
) -> Outcome:
    """Read (or take this process's last row of the game), check, think, then append with the
    version check (see the module's notes)."""
    known = _row(game_id, caller.player_id, version)
    game, state = known if known is not None else _read(db, caller, game_id)
    if game.status != ACTIVE or version != game.version:
        return _moved_on(db, caller, game, state, version, retry_of)
    try:
        start = first(game, state)
        actions, states, at_once = _play_out(
            state, start, tuple(game.seats), game.seed, game.version, thinkers, auto
        )
    except _Refused as refused:
        raise ActionRefusedError(refused.refusal, _table(game, state)) from None
    except IllegalActionError as err:
        raise ActionRefusedError(Refusal(err.message, err.rule), _table(game, state)) from None
    except ActionError as err:
        raise ActionRefusedError(Refusal(str(err)), _table(game, state)) from None
    if not actions:
        return Outcome(_table(game, state))
    try:
        with db.writing_statements() as connection:
            players.touch(connection, caller)
            after = repository.advance_game(
                connection, game, actions, states[-1], results_before=len(state.results)
            )
            if after is None:  # missing, or moved on since `game` was read
                raise _Moved
    except _Moved:  # say, an identical copy (a double click) got there first
        return _moved_on(db, caller, *_read(db, caller, game_id), version, retry_of)
    _remember(after, states[-1])
    _keep_row(after)
    return _outcome(after, actions, states, version, at_once)


def _play_out(
    state: GameState,
    start: list[Action],
    seats: tuple[str, ...],
    seed: int,
    number: int,
    thinkers: Thinkers,
    auto: AutoPlay = NO_AUTOPLAY,
) -> tuple[list[Action], list[GameState], int]:
    """`start` (validated by the engine), then the computers' turns, and the human's cards that
    `auto` plays for the player (then the computers' turns again): every action, the state after
    each one, and how many of the last actions play out at once the rest of a hand in which
    nothing was left to score."""
    actions = list(start)
    states: list[GameState] = []
    for action in start:
        state = apply(state, action)
        states.append(state)
    if not start and not any(seats[s] != HUMAN for s in to_act(state)):
        return [], [], 0
    while True:
        planned = thinkers.plan(state, seats, seed, number + len(actions))
        for action in planned:
            state = apply(state, action)
            states.append(state)
        actions += planned
        humans = [s for s in to_act(state) if seats[s] == HUMAN]
        if not auto.active or state.phase is not Phase.PLAY or not humans:
            return actions, states, 0
        view = view_for(state, humans[0])
        if auto.finish_hand and nothing_left_to_score(view):
            rest = autoplay.finish(state)
            for action in rest:
                state = apply(state, action)
                states.append(state)
            return actions + rest, states, len(rest)
        single = autoplay.only_card(view) if auto.only_card else None
        if single is None:
            return actions, states, 0
        state = apply(state, single)
        states.append(state)
        actions.append(single)


def _outcome(
    game: GameLike,
    actions: Sequence[Action],
    states: Sequence[GameState],
    version: int,
    at_once: int = 0,
) -> Outcome:
    """The final table and the steps the page plays before it: the table after each action that
    a card follows (after the human's card, after each computer card but the last), except the
    last `at_once` actions, the rest of a hand played out at once, which no step shows."""
    shown = len(actions) - at_once
    steps = tuple(
        _table(game, states[i], version + i + 1)
        for i in range(min(shown, len(actions) - 1))
        if isinstance(actions[i + 1], Play)
    )
    finished = autoplay.tricks_in(at_once, states[-1].num_players) if at_once else 0
    return Outcome(_table(game, states[-1]), steps, finished)


def _moved_on(
    db: Database,
    caller: Caller,
    game: GameRow,
    state: GameState,
    version: int,
    retry_of: Action | None,
) -> Outcome:
    """The answer to a change posted at `version` when the game has moved past it: the outcome
    of that very decision if it is the one applied there (a retry, a double click), else the
    "moved on" refusal with the table as it is."""
    if retry_of is not None and game.status == ACTIVE and version < game.version:
        outcome = _retried(db, caller, game, version, retry_of)
        if outcome is not None:
            return outcome
    raise ActionRefusedError(_stale(game), _table(game, state))


def _stale(game: GameLike) -> Refusal:
    if game.status != ACTIVE:
        # A finished game, or one abandoned for a newer game (say, from another tab).
        return Refusal(f"This game is {game.status}; it takes no more actions.", stale=True)
    return Refusal("The table had moved on; here it is as it is now.", stale=True)


def _retried(
    db: Database, caller: Caller, game: GameRow, version: int, action: Action
) -> Outcome | None:
    """The outcome of the human's decision at `version` if it is the one stored there and only
    computer actions followed it (a retry after a lost response, or a double click); else None."""
    with db.reading() as connection:
        actions = repository.load_actions(connection, game)
    later = actions[version:]
    if not later or later[0] != action:
        return None
    for a in later[1:]:  # the human's plays among them: those the table played for the human
        if isinstance(a, Deal) or (game.seats[a.seat] == HUMAN and not isinstance(a, Play)):
            return None
    state = replay(GameHeader.from_json(game.header), actions[:version])
    states = []
    for a in later:
        state = apply(state, a)
        states.append(state)
    return _outcome(game, later, states, version)


def _deal(seed: int, secret: str | None, state: GameState) -> Deal:
    """The next hand's deal: from the game's secret (docs/fair-play.md), or for a game started
    before verifiable deals, from its seed; and the hand number."""
    number = state.hand_number + 1
    if secret is not None:
        return fairdeal.secret_deal(state.options, bytes.fromhex(secret), number)
    digest = hashlib.sha256(f"hearts-deal:{seed}:{number}".encode()).digest()
    return seeded_deal(state.options, int.from_bytes(digest[:8], "big"))
