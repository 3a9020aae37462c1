"""Verifiable deals: each game's secret (docs/fair-play.md).

`games.deal_secret` holds the 32-byte secret every deal of the game derives from, as 64 hex
digits. Games started before it have none (NULL): they keep being dealt from their seed and say
they were dealt before verifiable deals.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02 04:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema."""
    # A nullable column: SQLite adds it in place (ALTER TABLE ADD COLUMN), no table copy.
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("deal_secret", sa.String(length=64), nullable=True))


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("deal_secret")
