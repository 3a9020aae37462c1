"""Retention: find the players idle since before a cutoff and delete them with all their games.

A player is idle when it was last seen before the cutoff (`players.last_seen_at`, refreshed at
most once an hour while the browser acts) and, belt and braces, no game of theirs was updated at
or after it. Deleting a player removes its games and every row hanging off them: the action logs
(`game_actions`), the seats (`game_seats`) and the per-hand results (`hand_results`). The
children are deleted explicitly, before their games, rather than left to the foreign keys'
`ON DELETE CASCADE`: the deletion then does not depend on SQLite's `foreign_keys` pragma, and
each statement's row count is the number of rows removed. `GAME_CHILDREN` and `PLAYER_CHILDREN`
name every table that points at a game or a player (a test compares them with the schema).

The functions take a `Session` and leave the transaction to the caller: the maintenance service
deletes a batch of players' games a few per transaction (`delete_games`), then the players
(`delete_players`), so that SQLite's write lock is never held for long while the site serves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import (
    ColumnElement,
    Connection,
    Delete,
    ScalarSelect,
    delete,
    exists,
    func,
    select,
    update,
)
from sqlalchemy.orm import Session, aliased

from app.store.models import Base, Game, GameAction, GameSeat, HandResultRow, Player

GAME_CHILDREN = (GameAction, GameSeat, HandResultRow)
"""The models whose rows belong to a game (a foreign key to `games.id`)."""
PLAYER_CHILDREN = (Game,)
"""The models whose rows belong to a player (a foreign key to `players.id`)."""


@dataclass(frozen=True, slots=True)
class Removed:
    """Rows removed (or, in a dry run, that would be removed), by table."""

    players: int = 0
    games: int = 0
    actions: int = 0
    seats: int = 0
    hand_results: int = 0

    def __add__(self, other: Removed) -> Removed:
        return Removed(
            players=self.players + other.players,
            games=self.games + other.games,
            actions=self.actions + other.actions,
            seats=self.seats + other.seats,
            hand_results=self.hand_results + other.hand_results,
        )


def is_idle(cutoff: datetime) -> ColumnElement[bool]:
    """The condition on `players` that a player is idle since before `cutoff`."""
    # An alias, so the subquery never correlates with a `games` of the enclosing query.
    game = aliased(Game)
    recent_game = exists().where(game.player_id == Player.id, game.updated_at >= cutoff)
    return (Player.last_seen_at < cutoff) & ~recent_game


def idle_players(
    session: Session, cutoff: datetime, *, limit: int, after: str | None = None
) -> list[str]:
    """The ids of up to `limit` players idle since before `cutoff`, in id order, after `after`.

    Passing the last id of one call as `after` to the next walks the table once (the primary
    key's index), however many active players sit between the idle ones.
    """
    stmt = select(Player.id).where(is_idle(cutoff)).order_by(Player.id).limit(limit)
    if after is not None:
        stmt = stmt.where(Player.id > after)
    return list(session.scalars(stmt))


def count_rows(session: Session, player_ids: Sequence[str]) -> Removed:
    """The rows that belong to these players, by table (what `delete_players` would remove)."""
    games = _games_of(player_ids)
    return Removed(
        players=_count(session, Player, Player.id.in_(player_ids)),
        games=_count(session, Game, Game.player_id.in_(player_ids)),
        actions=_count(session, GameAction, GameAction.game_id.in_(games)),
        seats=_count(session, GameSeat, GameSeat.game_id.in_(games)),
        hand_results=_count(session, HandResultRow, HandResultRow.game_id.in_(games)),
    )


def delete_games(
    session: Session, player_ids: Sequence[str], cutoff: datetime, *, limit: int
) -> Removed:
    """Delete up to `limit` games, with every row of theirs, of those of these players still
    idle since before `cutoff` (the players stay); return the rows removed.

    Deleting a few games per transaction keeps each one short, whatever the number of games a
    player has; `delete_players` then removes the players. The games go player by player, and
    only the owners of the next `limit` games are checked (and locked) again.
    """
    next_games = (
        select(Game.player_id)
        .join(Player, Player.id == Game.player_id)
        .where(Game.player_id.in_(player_ids), is_idle(cutoff))
        .order_by(Game.player_id, Game.id)
        .limit(limit)
    )
    idle = _still_idle(session, Player.id.in_(next_games.scalar_subquery()), cutoff)
    if not idle:
        return Removed()
    stmt = (
        select(Game.id)
        .where(Game.player_id.in_(idle))
        .order_by(Game.player_id, Game.id)
        .limit(limit)
    )
    game_ids = list(session.scalars(stmt))
    removed = _delete_rows_of_games(session, game_ids)
    return removed + Removed(games=_delete(session, delete(Game).where(Game.id.in_(game_ids))))


def delete_players(session: Session, player_ids: Sequence[str], cutoff: datetime) -> Removed:
    """Delete those of these players still idle since before `cutoff`, with all their games
    and every row of those games; return the rows removed."""
    if not player_ids:
        return Removed()
    idle = _still_idle(session, Player.id.in_(player_ids), cutoff)
    if not idle:
        return Removed()
    removed = _delete_rows_of_games(session, _games_of(idle))
    return removed + Removed(
        games=_delete(session, delete(Game).where(Game.player_id.in_(idle))),
        players=_delete(session, delete(Player).where(Player.id.in_(idle))),
    )


def _still_idle(session: Session, which: ColumnElement[bool], cutoff: datetime) -> list[str]:
    """The ids of the players that match `which` and are idle since before `cutoff`, checked
    again in the deleting transaction, so that one who came back since it was found keeps
    everything.

    It must be the transaction's first statement, and it writes (no value changes): on SQLite
    it takes the write lock before anything is read (a transaction that reads first and writes
    later cannot upgrade its snapshot, under WAL, once another connection has written), and on
    PostgreSQL it locks the players' rows, so their last visit cannot change until the commit.
    """
    confirm = (
        update(Player)
        .where(which, is_idle(cutoff))
        .values(last_seen_at=Player.last_seen_at)
        .returning(Player.id)
    )
    return list(_core(session).execute(confirm).scalars())


def _delete_rows_of_games(session: Session, games: Sequence[int] | ScalarSelect[int]) -> Removed:
    """Delete every row of these games, not the games: actions, seats and hand results."""
    return Removed(
        actions=_delete(session, delete(GameAction).where(GameAction.game_id.in_(games))),
        seats=_delete(session, delete(GameSeat).where(GameSeat.game_id.in_(games))),
        hand_results=_delete(
            session, delete(HandResultRow).where(HandResultRow.game_id.in_(games))
        ),
    )


def _games_of(player_ids: Sequence[str]) -> ScalarSelect[int]:
    """The ids of these players' games, as a subquery (any number of games, no bound list)."""
    return select(Game.id).where(Game.player_id.in_(player_ids)).scalar_subquery()


def _count(session: Session, model: type[Base], condition: ColumnElement[bool]) -> int:
    return session.scalar(select(func.count()).select_from(model).where(condition)) or 0


def _delete(session: Session, stmt: Delete) -> int:
    return _core(session).execute(stmt).rowcount


def _core(session: Session) -> Connection:
    """The session's connection: bulk statements go there, as plain SQL with row counts, since
    the session holds none of these rows and need not look for them (the ORM would fetch the
    id of every deleted row to expire it)."""
    return session.connection()
