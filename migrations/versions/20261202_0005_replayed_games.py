"""Deals played again: a game dealt from another game's secret (its deals were known).

`games.replayed` is set for a game started with "Play these deals again" or a deal code; the
statistics keep those games apart. Every game before it had new deals (false).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02 08:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema."""
    # A plain ALTER TABLE ADD COLUMN (a constant default), in place on SQLite too: a batch
    # operation would copy the table, and dropping the old `games` would delete every game's
    # seats and results with it (ON DELETE CASCADE).
    op.add_column(
        "games", sa.Column("replayed", sa.Boolean(), nullable=False, server_default=sa.false())
    )


def downgrade() -> None:
    """Downgrade schema."""
    op.drop_column("games", "replayed")  # SQLite 3.35 or later drops it in place
