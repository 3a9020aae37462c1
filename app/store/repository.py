"""Repository functions: every read and write of players and games goes through here.

Each function takes a `Session` (or, for the functions of a move's path, a Core `Connection`)
and leaves the transaction to the caller (the services layer commits). Writes are flushed before
returning, so constraint violations surface at the call.

A move's path (read the game, lock it, append to its log) runs on Core statements built once,
returning a plain `GameRow`: per move, the ORM's unit of work and identity map cost more than the
statements themselves.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, NamedTuple, Protocol, cast

from sqlalchemy import (
    JSON,
    Connection,
    Table,
    bindparam,
    column,
    false,
    func,
    insert,
    select,
    true,
    update,
)
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from app.engine import (
    Action,
    Deal,
    EngineError,
    GameHeader,
    GameState,
    HandResult,
    action_from_json,
    action_to_json,
)
from app.store.models import (
    ABANDONED,
    ACTIVE,
    FINISHED,
    SEAT_KINDS,
    Game,
    GameAction,
    GameSeat,
    HandResultRow,
    Player,
    new_token,
    utcnow,
)

PAYLOAD_VERSION = 1
"""The version of the stored action payload `{"v": 1, "action": …}`."""

MAX_TOKEN_LENGTH = 64


class StoredDataError(Exception):
    """Stored data the code cannot read (an unknown payload version, a gap in the log)."""


# --- players ----------------------------------------------------------------------------------


def create_player(session: Session, now: datetime | None = None) -> Player:
    """A new anonymous player with a fresh random token as its id."""
    now = now or utcnow()
    player = Player(id=new_token(), created_at=now, last_seen_at=now)
    session.add(player)
    session.flush()
    return player


def get_player(session: Session, token: str) -> Player | None:
    """The player whose id is `token`, or None for an unknown token (reads only)."""
    if not isinstance(token, str) or not token or len(token) > MAX_TOKEN_LENGTH:
        return None
    return session.get(Player, token)


def mark_seen(session: Session, player: Player, now: datetime | None = None) -> None:
    """Record that the player was active at `now`."""
    player.last_seen_at = now or utcnow()
    session.flush()


def mark_seen_if_due(executor: Executor, player_id: str, now: datetime, due: datetime) -> bool:
    """Record that the player was active at `now` if its last visit is older than `due`, in
    one statement; whether a row changed (False for a recent visit or an unknown player)."""
    result = executor.execute(_SEEN, {"player": player_id, "due": due, "now": now})
    return bool(getattr(result, "rowcount", 0) == 1)


# --- games ------------------------------------------------------------------------------------


def create_game(
    session: Session,
    player: Player,
    header: GameHeader,
    seats: list[str],
    seed: int,
    fast_play: bool,
) -> Game:
    """A new active game with no actions yet (version 0); `seats` names "human" or a bot level
    for every seat (one `game_seats` row each), and `seed` must fit a signed 64-bit integer."""
    n = _check_new_game(header, seats, seed)
    now = utcnow()
    game = Game(
        player_id=player.id,
        header=header.to_json(),
        variant=header.options.variant.value,
        num_players=n,
        omnibus=header.options.omnibus,
        seats=list(seats),
        seed=seed,
        fast_play=fast_play,
        status=ACTIVE,
        version=0,
        hand_number=0,
        totals=[0] * n,
        winners=[],
        created_at=now,
        updated_at=now,
        finished_at=None,
    )
    session.add(game)
    session.flush()
    session.add_all(
        GameSeat(game_id=game.id, seat=seat, kind=kind) for seat, kind in enumerate(seats)
    )
    session.flush()
    return game


def _check_new_game(header: GameHeader, seats: Sequence[str], seed: int) -> int:
    """The number of seats of a new game, after checking its seats and seed."""
    n = header.options.num_players
    if len(seats) != n:
        raise ValueError(f"a {n}-seat game needs {n} seats, not {len(seats)}")
    unknown = [s for s in seats if s not in SEAT_KINDS]
    if unknown:
        raise ValueError(f"unknown seat kinds {unknown}: use one of {SEAT_KINDS}")
    if not -(2**63) <= seed < 2**63:
        raise ValueError("the seed must fit a signed 64-bit integer")
    return n


Executor = Session | Connection
"""What the statements of a move's path run on: an ORM session or a Core connection."""


class GameRow(NamedTuple):
    """A game as a move's path reads it (the `games` columns it needs, no ORM object)."""

    id: int
    player_id: str
    header: dict[str, Any]
    seats: list[Any]
    seed: int
    fast_play: bool
    status: str
    version: int
    hand_number: int
    updated_at: datetime
    deal_secret: str | None = None
    """The secret of the game's deals (hex), None for a game dealt from its seed."""
    assisted: bool = False
    """Whether the player asked for a hint in this game."""
    replayed: bool = False
    """Whether the game was dealt from another game's secret (its deals were known)."""


class LogOf(Protocol):
    """A game whose log can be loaded: an ORM `Game` or a `GameRow`."""

    @property
    def id(self) -> int: ...

    @property
    def version(self) -> int: ...


_GAMES = cast(Table, Game.__table__)
_PLAYERS = cast(Table, Player.__table__)
_OWNED = (_GAMES.c.id == bindparam("game_id")) & (_GAMES.c.player_id == bindparam("player"))
# Statements built once (building a statement costs more than running it on a small table).
_GAME = select(Game).where(_OWNED)
_LOCKED_GAME = _GAME.with_for_update().execution_options(populate_existing=True)
_GAME_ROW = select(*(_GAMES.c[name] for name in GameRow._fields)).where(_OWNED)
_SEEN = (
    update(_PLAYERS)
    .where(_PLAYERS.c.id == bindparam("player"), _PLAYERS.c.last_seen_at < bindparam("due"))
    .values(last_seen_at=bindparam("now"))
)
_SUMMARY_COLUMNS = (
    "version",
    "hand_number",
    "totals",
    "winners",
    "updated_at",
    "status",
    "finished_at",
)
_NEW_SUMMARY: dict[str, Any] = {name: bindparam(name) for name in _SUMMARY_COLUMNS}
_ADVANCE = (
    update(_GAMES)
    .where(
        _OWNED,
        _GAMES.c.version == bindparam("was_version"),
        _GAMES.c.updated_at == bindparam("was_updated_at"),
        _GAMES.c.status == ACTIVE,
    )
    .values(**_NEW_SUMMARY)
)
_SUMMARY = update(_GAMES).where(_GAMES.c.id == bindparam("game_id")).values(**_NEW_SUMMARY)
_ACTIONS = cast(Table, GameAction.__table__)
_RESULTS = cast(Table, HandResultRow.__table__)
_LOG_COLUMNS = ("seq", "seat", "kind", "payload")
_RESULT_COLUMNS = tuple(c.name for c in _RESULTS.columns if c.name not in ("id", "game_id"))


def _inserted(moved: Any, table: Table, rows: str, columns: Sequence[str], *also: Any) -> Any:
    """A CTE inserting into `table` one row per element of the JSON array bound to `rows`
    (PostgreSQL's `json_to_recordset`: its `columns`, other keys ignored), with `moved`'s game
    id and the labelled expressions `also`; no row when `moved` holds none."""
    records = (
        func.json_to_recordset(bindparam(rows, type_=JSON))
        .table_valued(*(column(name, table.c[name].type) for name in columns))
        .render_derived(with_types=True)
    )
    chosen = select(moved.c.id, *(records.c[name] for name in columns), *also)
    names = ["game_id", *columns, *(expression.name for expression in also)]
    source = chosen.select_from(moved.join(records, true()))
    return insert(table).from_select(names, source).cte(f"{rows}_in")


def _advance_in_one() -> Any:
    """`_ADVANCE` with the log and the hand results inserted in the same statement (PostgreSQL's
    data-modifying CTEs): a move is one statement, atomic in autocommit, whose row is the game's
    id if the version check passed. Nothing is inserted when it did not."""
    moved = _ADVANCE.returning(_GAMES.c.id).cte("moved")
    written = bindparam("updated_at", type_=_ACTIONS.c.created_at.type).label("created_at")
    log = _inserted(moved, _ACTIONS, "log", _LOG_COLUMNS, written)
    results = _inserted(moved, _RESULTS, "results", _RESULT_COLUMNS)
    return select(moved.c.id).add_cte(log).add_cte(results)


_ADVANCE_IN_ONE = _advance_in_one()
_LOCKED_PLAYER = select(_PLAYERS.c.id).where(_PLAYERS.c.id == bindparam("player")).with_for_update()
_ACTIVE_GAME_ID = (
    select(_GAMES.c.id)
    .where(_GAMES.c.player_id == bindparam("player"), _GAMES.c.status == ACTIVE)
    .order_by(_GAMES.c.updated_at.desc(), _GAMES.c.id.desc())
    .limit(1)
)
_ASSIST = update(_GAMES).where(_OWNED, _GAMES.c.assisted == false()).values(assisted=True)
_ABANDON = (
    update(_GAMES)
    .where(_GAMES.c.id == bindparam("game_id"), _GAMES.c.status == ACTIVE)
    .values(status=ABANDONED, updated_at=bindparam("now"))
)


def mark_assisted(executor: Executor, game_id: int, player_id: str) -> None:
    """Mark a game of `player_id` as played with hints (once: a game already marked, or not
    theirs, is left alone). Its version and last write stay: the table on the page is current."""
    executor.execute(_ASSIST, {"game_id": game_id, "player": player_id})


class SharedDeals(NamedTuple):
    """What a deal code gives another browser of a game: its table, its computer players, its
    seed and secret, and whether it has ended (only an ended game's deals are shared)."""

    header: dict[str, Any]
    seats: list[Any]
    seed: int
    deal_secret: str | None
    status: str


_SHARED = select(*(_GAMES.c[name] for name in SharedDeals._fields)).where(
    _GAMES.c.id == bindparam("game_id")
)


def shared_deals(executor: Executor, game_id: int) -> SharedDeals | None:
    """The deals of game `game_id`, whoever played it (the caller checks the deal code)."""
    found = executor.execute(_SHARED, {"game_id": game_id}).one_or_none()
    return None if found is None else SharedDeals(*found)


def get_game(session: Session, game_id: int, player_id: str) -> Game | None:
    """The game `game_id` if it belongs to `player_id`; None otherwise (missing or not theirs)."""
    return session.scalars(_GAME, {"game_id": game_id, "player": player_id}).one_or_none()


def lock_game(session: Session, game_id: int, player_id: str) -> Game | None:
    """Like `get_game`, but locks the row for the rest of the transaction and re-reads it.

    PostgreSQL gets `SELECT … FOR UPDATE`; on SQLite a write transaction already holds the write
    lock from its start (`BEGIN IMMEDIATE`), and the clause is not rendered.
    """
    params = {"game_id": game_id, "player": player_id}
    return session.scalars(_LOCKED_GAME, params).one_or_none()


def game_row(executor: Executor, game_id: int, player_id: str) -> GameRow | None:
    """The game `game_id` of `player_id` as a `GameRow`, None if missing or not theirs."""
    found = executor.execute(_GAME_ROW, {"game_id": game_id, "player": player_id}).one_or_none()
    return None if found is None else GameRow(*found)


def mark_abandoned(session: Session, game: Game) -> None:
    """Mark an active game abandoned (a finished or already abandoned game is left as it is)."""
    if game.status == ACTIVE:
        game.status = ABANDONED
        game.updated_at = utcnow()
        session.flush()


# --- the action log ---------------------------------------------------------------------------


def encode_action(action: Action) -> dict[str, Any]:
    """The stored payload of an action."""
    return {"v": PAYLOAD_VERSION, "action": action_to_json(action)}


def decode_action(payload: Any) -> Action:
    """The action of a stored payload; raises `StoredDataError` for anything unreadable."""
    if not isinstance(payload, dict) or "v" not in payload:
        raise StoredDataError(f"a stored action is an object with a version, not {payload!r}")
    if payload["v"] != PAYLOAD_VERSION:
        raise StoredDataError(
            f"unknown action payload version {payload['v']!r} (this code reads version "
            f"{PAYLOAD_VERSION}); upgrade the code or migrate the data"
        )
    try:
        return action_from_json(payload.get("action"))
    except EngineError as err:
        raise StoredDataError(f"unreadable stored action: {err}") from err


def load_actions(session: Executor, game: LogOf, since: int = 0) -> list[Action]:
    """The game's actions in order, ready for `replay(game.game_header, actions)`: the first
    `game.version` of them, the log as it was when `game` was read; with `since`, only those
    after the first `since` (to bring a state known at version `since` up to date).

    The log only grows, and a writer appends actions and raises the version in one transaction;
    but the row and the log may be read at different moments (two statements of a PostgreSQL
    transaction at READ COMMITTED, or two transactions), and actions committed in between are
    not part of the game that was read."""
    stmt = (
        select(GameAction.seq, GameAction.payload)
        .where(
            GameAction.game_id == game.id,
            GameAction.seq >= since,
            GameAction.seq < game.version,
        )
        .order_by(GameAction.seq)
    )
    actions: list[Action] = []
    for expected, (seq, payload) in enumerate(session.execute(stmt), start=since):
        if seq != expected:
            raise StoredDataError(f"game {game.id}: action {expected} is missing from the log")
        try:
            actions.append(decode_action(payload))
        except StoredDataError as err:
            raise StoredDataError(f"game {game.id}, action {seq}: {err}") from err
    if since + len(actions) != game.version:
        raise StoredDataError(
            f"game {game.id}: action {since + len(actions)} is missing from the log"
            f" (the game is at version {game.version})"
        )
    return actions


def append_actions(
    session: Session,
    game: Game,
    actions: Sequence[Action],
    state: GameState,
    *,
    results_before: int | None = None,
) -> None:
    """Store `actions` after the game's last one and update its summary from `state`, the state
    they lead to; every hand result of `state` not yet stored is written too.

    `results_before` is the number of hand results of the state the actions were applied to
    (all of them stored already): given, the results after it are written without asking the
    database how many are stored; omitted, the database is asked (unless `state` has none).

    The actions get `seq = game.version, game.version + 1, …`; a second writer with the same
    stale version fails on the unique (game_id, seq) constraint. Call it on a game read with
    `lock_game` in the same transaction.
    """
    session.flush()
    summary = _append(session, row_of(game), actions, state, results_before)
    for name, value in summary.items():  # the object agrees with the row, nothing to flush
        set_committed_value(game, name, value)


def advance_game(
    executor: Executor,
    game: GameRow,
    actions: Sequence[Action],
    state: GameState,
    *,
    results_before: int | None = None,
) -> GameRow | None:
    """`append_actions` for a `GameRow`, if the game is still exactly that row (its owner,
    version, last write and active status): one conditional UPDATE is the version check and
    takes the row's lock (no SELECT … FOR UPDATE first), then the log and results are inserted.
    On PostgreSQL (with `results_before` given) the three are one statement, atomic even
    outside a transaction. The row after, or None (nothing written) if the game is missing or
    has moved on."""
    summary = _summary(game, actions, state)
    params = {
        "game_id": game.id,
        "player": game.player_id,
        "was_version": game.version,
        "was_updated_at": game.updated_at,
        **summary,
    }
    if results_before is not None and _dialect(executor) == "postgresql":
        params["log"] = _log_rows(game, actions)
        params["results"] = hand_result_rows(game.id, game.seats, state.results[results_before:])
        if executor.execute(_ADVANCE_IN_ONE, params).first() is None:
            return None
    else:
        if getattr(executor.execute(_ADVANCE, params), "rowcount", 0) != 1:
            return None
        _insert_log(executor, game, actions, summary["updated_at"])
        _store_hand_results(executor, game, state.results, results_before)
    return game._replace(**{k: v for k, v in summary.items() if k in GameRow._fields})


def _dialect(executor: Executor) -> str:
    bind = executor.get_bind() if isinstance(executor, Session) else executor
    return bind.dialect.name


def insert_player(executor: Executor, now: datetime) -> str:
    """A new anonymous player with a fresh random token as its id (one INSERT); its id."""
    token = new_token()
    executor.execute(insert(_PLAYERS), {"id": token, "created_at": now, "last_seen_at": now})
    return token


def lock_player(executor: Executor, player_id: str) -> bool:
    """Lock the player's row for the rest of the transaction (PostgreSQL; SQLite's write lock
    already orders writers); whether the player exists."""
    return executor.execute(_LOCKED_PLAYER, {"player": player_id}).first() is not None


def active_game_id(executor: Executor, player_id: str) -> int | None:
    """The id of the player's most recently updated active game, if any (one small SELECT)."""
    return executor.execute(_ACTIVE_GAME_ID, {"player": player_id}).scalar()


def abandon_game(executor: Executor, game_id: int, now: datetime) -> None:
    """Mark an active game abandoned (a finished or abandoned game is left as it is)."""
    executor.execute(_ABANDON, {"game_id": game_id, "now": now})


def start_game(
    executor: Executor,
    player_id: str,
    header: GameHeader,
    seats: Sequence[str],
    seed: int,
    fast_play: bool,
    actions: Sequence[Action],
    state: GameState,
    deal_secret: str | None = None,
    *,
    replayed: bool = False,
) -> GameRow:
    """`create_game` then `append_actions` in Core statements, as a move's path does: the game
    row is inserted with its summary after `actions` (leading to `state`) already in it, then
    the seats and the log. The new game's row (`replayed`: dealt from another game's secret)."""
    n = _check_new_game(header, seats, seed)
    now = utcnow()
    empty = GameRow(
        0,
        player_id,
        header.to_json(),
        list(seats),
        seed,
        fast_play,
        ACTIVE,
        0,
        0,
        now,
        deal_secret,
        replayed=replayed,
    )
    summary = _summary(empty, actions, state)
    values = {
        "player_id": player_id,
        "header": empty.header,
        "variant": header.options.variant.value,
        "num_players": n,
        "omnibus": header.options.omnibus,
        "seats": empty.seats,
        "seed": seed,
        "deal_secret": deal_secret,
        "replayed": replayed,
        "fast_play": fast_play,
        "created_at": now,
        **summary,
    }
    game_id = executor.execute(insert(_GAMES).returning(_GAMES.c.id), values).scalar_one()
    executor.execute(
        insert(GameSeat),
        [{"game_id": game_id, "seat": seat, "kind": kind} for seat, kind in enumerate(seats)],
    )
    new = empty._replace(id=game_id)
    _insert_log(executor, new, actions, summary["updated_at"])
    _store_hand_results(executor, new, state.results, 0)
    return new._replace(**{k: v for k, v in summary.items() if k in GameRow._fields})


def row_of(game: Game) -> GameRow:
    """The `GameRow` of an ORM game."""
    return GameRow(*(getattr(game, name) for name in GameRow._fields))


def _append(
    executor: Executor,
    game: GameRow,
    actions: Sequence[Action],
    state: GameState,
    results_before: int | None,
) -> dict[str, Any]:
    """Insert the actions (one executemany) and the new hand results, update the summary; the
    summary's new values."""
    if game.status != ACTIVE:
        raise ValueError(f"game {game.id} is {game.status}: no more actions can be stored")
    summary = _summary(game, actions, state)
    _insert_log(executor, game, actions, summary["updated_at"])
    executor.execute(_SUMMARY, {"game_id": game.id, **summary})
    _store_hand_results(executor, game, state.results, results_before)
    return summary


def _summary(game: GameRow, actions: Sequence[Action], state: GameState) -> dict[str, Any]:
    """The game's summary columns once `actions` (leading to `state`) are appended."""
    now = utcnow()
    over = state.is_over
    return {
        "version": game.version + len(actions),
        "hand_number": state.hand_number,
        "totals": list(state.totals),
        "winners": list(state.winners),
        "updated_at": now,
        "status": FINISHED if over else game.status,
        "finished_at": now if over else None,
    }


def _insert_log(
    executor: Executor, game: GameRow, actions: Sequence[Action], now: datetime
) -> None:
    """The actions after the game's last one (`seq` from its version), in one executemany."""
    rows = [{"game_id": game.id, "created_at": now, **row} for row in _log_rows(game, actions)]
    if rows:
        executor.execute(insert(GameAction), rows)


def _log_rows(game: GameRow, actions: Sequence[Action]) -> list[dict[str, Any]]:
    """The `_LOG_COLUMNS` of the actions after the game's last one (`seq` from its version)."""
    rows = []
    for offset, action in enumerate(actions):
        payload = encode_action(action)
        rows.append(
            {
                "seq": game.version + offset,
                "seat": None if isinstance(action, Deal) else action.seat,
                "kind": payload["action"]["type"],
                "payload": payload,
            }
        )
    return rows


def _store_hand_results(
    session: Executor, game: GameRow, results: Sequence[HandResult], stored: int | None
) -> None:
    if stored is None:
        if not results:
            return
        stored = session.scalar(
            select(func.count(func.distinct(HandResultRow.hand_number))).where(
                HandResultRow.game_id == game.id
            )
        )
    rows = hand_result_rows(game.id, game.seats, results[stored or 0 :])
    if rows:
        session.execute(insert(HandResultRow), rows)


def hand_result_rows(
    game_id: int, seats: Sequence[str], results: Sequence[HandResult]
) -> list[dict[str, Any]]:
    """The `hand_results` rows of `results` (one per hand and seat) of a game with `seats`."""
    return [
        {
            "game_id": game_id,
            "hand_number": result.number,
            "seat": seat,
            "level": seats[seat],
            "points": points,
            "total_after": result.totals[seat],
            "pass_direction": result.direction.value,
            "shot_moon": result.shooter == seat,
            "moon_suffered": result.shooter is not None and result.shooter != seat,
            "queens": result.queens[seat],
            "hearts": result.hearts[seat],
            "bonus_cards": result.bonus_cards[seat],
            "tricks_won": result.tricks_won[seat],
        }
        for result in results
        for seat, points in enumerate(result.points)
    ]
