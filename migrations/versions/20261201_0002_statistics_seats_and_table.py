"""Statistics: who sat where (game_seats) and the table of each game (variant, seats, Omnibus).

`games` gets `variant`, `num_players` and `omnibus`, copied from the stored header so the
statistics can filter on them in SQL; `game_seats` gets one row per seat ("human" or a computer
level), copied from `games.seats`. Existing games are backfilled from their JSON columns.
The downgrade drops the new columns with a table copy on SQLite: run it with alembic's own
connection (foreign keys off), as `alembic downgrade` does.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01 09:00:00.000000
"""

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_games = sa.table(
    "games",
    sa.column("id", sa.Integer()),
    sa.column("header", sa.JSON()),
    sa.column("seats", sa.JSON()),
    sa.column("variant", sa.String()),
    sa.column("num_players", sa.Integer()),
    sa.column("omnibus", sa.Boolean()),
)
_game_seats = sa.table(
    "game_seats",
    sa.column("game_id", sa.Integer()),
    sa.column("seat", sa.Integer()),
    sa.column("kind", sa.String()),
)


def _table_of(header: Any, seats: list[Any]) -> dict[str, Any]:
    """variant, num_players and omnibus of a stored header (defaults as in RuleOptions)."""
    options = header.get("options", {}) if isinstance(header, dict) else {}
    return {
        "variant": str(options.get("variant", "standard")),
        "num_players": int(options.get("num_players", len(seats))),
        "omnibus": bool(options.get("omnibus", False)),
    }


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table(
        "game_seats",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.CheckConstraint(
            "kind IN ('human', 'easy', 'medium', 'hard')", name=op.f("ck_game_seats_kind")
        ),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_game_seats_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", "seat", name=op.f("pk_game_seats")),
    )
    # NOT NULL columns with server defaults: SQLite adds them in place (ALTER TABLE ADD COLUMN),
    # so `games` is never copied and dropped, which would cascade into its child tables on a
    # connection with foreign keys on. The backfill then writes every game's real values.
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("variant", sa.String(length=16), server_default="standard", nullable=False)
        )
        batch_op.add_column(
            sa.Column("num_players", sa.Integer(), server_default="4", nullable=False)
        )
        batch_op.add_column(
            sa.Column("omnibus", sa.Boolean(), server_default=sa.false(), nullable=False)
        )

    bind = op.get_bind()
    rows = bind.execute(sa.select(_games.c.id, _games.c.header, _games.c.seats)).all()
    for game_id, header, seats in rows:
        bind.execute(
            _games.update().where(_games.c.id == game_id).values(**_table_of(header, seats))
        )
        if seats:
            bind.execute(
                _game_seats.insert(),
                [{"game_id": game_id, "seat": s, "kind": kind} for s, kind in enumerate(seats)],
            )


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("omnibus")
        batch_op.drop_column("num_players")
        batch_op.drop_column("variant")

    op.drop_table("game_seats")
