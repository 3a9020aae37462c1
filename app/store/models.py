"""SQLAlchemy models: players, games, their action logs and per-hand results.

A game is its header plus its action log (`game_actions`); everything else on `games` is a
denormalised summary kept up to date in the transaction that appends actions. `game_seats` names
who sat where (the human or a computer level), `hand_results` holds one row per finished hand and
seat; both feed the statistics page (`app/store/stats.py`).
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    DateTime,
    Dialect,
    ForeignKey,
    Integer,
    MetaData,
    String,
    TypeDecorator,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from app.engine import GameHeader

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

TOKEN_BYTES = 32
"""Random bytes in a player token (256 bits; at least 128 are required)."""

HUMAN = "human"
BOT_LEVELS = ("easy", "medium", "hard", "expert")
SEAT_KINDS = (HUMAN, *BOT_LEVELS)

ACTIVE = "active"
FINISHED = "finished"
ABANDONED = "abandoned"
STATUSES = (ACTIVE, FINISHED, ABANDONED)


def utcnow() -> datetime:
    """The current time, timezone-aware, in UTC."""
    return datetime.now(UTC)


def new_token() -> str:
    """A fresh random player token (URL-safe text, 256 bits from `secrets`)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC timestamp on every database.

    SQLite stores no offset, so values are converted to UTC on the way in and marked UTC on the
    way out; PostgreSQL's `timestamptz` values are converted to UTC on the way out.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"naive datetime {value!r}: store timezone-aware UTC times")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


class Base(DeclarativeBase):
    """The declarative base; its metadata names every constraint (for Alembic's batch mode)."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map: ClassVar[dict[Any, Any]] = {
        datetime: UTCDateTime(),
        dict[str, Any]: JSON(),
        list[Any]: JSON(),
    }


class Player(Base):
    """An anonymous browser identity: the session cookie holds its id."""

    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(64), primary_key=True, default=new_token)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    last_seen_at: Mapped[datetime] = mapped_column(default=utcnow)

    def __repr__(self) -> str:
        return f"Player(id={self.id[:6]}…)"


class Game(Base):
    """One game: its header, seats and seed, and a summary derived from its action log."""

    __tablename__ = "games"
    __table_args__ = (
        CheckConstraint(f"status IN {STATUSES!r}", name="status"),
        CheckConstraint("version >= 0", name="version"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str] = mapped_column(
        String(64), ForeignKey("players.id", ondelete="CASCADE"), index=True
    )
    header: Mapped[dict[str, Any]]
    """`GameHeader.to_json()`: the rule options and the first dealer."""
    seats: Mapped[list[Any]]
    """For each seat, "human" or a computer level ("easy", "medium", "hard", "expert")."""
    variant: Mapped[str] = mapped_column(String(16), server_default="standard")
    """The preset's variant ("standard" or "cancellation"), copied from the header for filters."""
    num_players: Mapped[int] = mapped_column(server_default="4")
    """The number of seats, copied from the header for filters."""
    omnibus: Mapped[bool] = mapped_column(server_default=false())
    """Whether the Omnibus bonus card is in play (R20), copied from the header."""
    seed: Mapped[int] = mapped_column(BigInteger)
    """The game's seed (signed 64-bit), from which the computers' decisions derive (and the
    deals of a game without a `deal_secret`)."""
    deal_secret: Mapped[str | None] = mapped_column(String(64))
    """The secret every deal derives from (docs/fair-play.md), as 64 hex digits; None for a game
    started before verifiable deals."""
    fast_play: Mapped[bool]
    assisted: Mapped[bool] = mapped_column(default=False, server_default=false())
    """Whether the player asked for a hint in this game (the statistics keep such games apart)."""
    replayed: Mapped[bool] = mapped_column(default=False, server_default=false())
    """Whether the game was dealt from another game's secret ("Play these deals again", a deal
    code): its deals were known (the statistics keep such games apart)."""
    status: Mapped[str] = mapped_column(String(16), default=ACTIVE)
    version: Mapped[int] = mapped_column(default=0)
    """The number of actions stored; a page posts the version it was rendered at."""
    hand_number: Mapped[int] = mapped_column(default=0)
    totals: Mapped[list[Any]]
    winners: Mapped[list[Any]]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None]

    @property
    def game_header(self) -> GameHeader:
        """The header as the engine's value."""
        return GameHeader.from_json(self.header)

    def __repr__(self) -> str:
        return f"Game(id={self.id}, status={self.status}, version={self.version})"


class GameSeat(Base):
    """Who sits at one seat of a game: "human" or a computer level (written with the game)."""

    __tablename__ = "game_seats"
    __table_args__ = (CheckConstraint(f"kind IN {SEAT_KINDS!r}", name="kind"),)

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))


class GameAction(Base):
    """One action of a game's log, in order (`seq` from 0); deals included."""

    __tablename__ = "game_actions"
    __table_args__ = (UniqueConstraint("game_id", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int]
    seat: Mapped[int | None]
    """The acting seat; None for a deal."""
    kind: Mapped[str] = mapped_column(String(16))
    """The action's type: "deal", "pass", "play" or "moon"."""
    payload: Mapped[dict[str, Any]]
    """`{"v": 1, "action": action_to_json(action)}`."""
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class HandResultRow(Base):
    """One seat's result of one finished hand (statistics)."""

    __tablename__ = "hand_results"
    __table_args__ = (UniqueConstraint("game_id", "hand_number", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    hand_number: Mapped[int]
    seat: Mapped[int]
    level: Mapped[str] = mapped_column(String(16))
    """"human" or the computer level of the seat."""
    points: Mapped[int]
    total_after: Mapped[int]
    pass_direction: Mapped[str] = mapped_column(String(16))
    shot_moon: Mapped[bool]
    moon_suffered: Mapped[bool]
    """Another seat shot the moon this hand."""
    queens: Mapped[int]
    hearts: Mapped[int]
    bonus_cards: Mapped[int]
    tricks_won: Mapped[int]
