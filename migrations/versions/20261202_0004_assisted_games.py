"""Assisted games: a game in which the player asked for a hint.

`games.assisted` is set when the player first asks for a hint in the game; the statistics keep
those games apart. Every game before it was played without hints (false).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02 07:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema."""
    # A plain ALTER TABLE ADD COLUMN (a constant default), in place on SQLite too: a batch
    # operation would copy the table, and dropping the old `games` would delete every game's
    # seats and results with it (ON DELETE CASCADE).
    op.add_column(
        "games", sa.Column("assisted", sa.Boolean(), nullable=False, server_default=sa.false())
    )


def downgrade() -> None:
    """Downgrade schema."""
    op.drop_column("games", "assisted")  # SQLite 3.35 or later drops it in place
