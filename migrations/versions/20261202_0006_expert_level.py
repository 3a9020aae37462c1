"""The Expert level: a seat of `game_seats` may be "expert".

The seat kind's CHECK constraint is replaced (on SQLite by a batch copy of `game_seats`, a child
table: dropping it deletes nothing else). A downgrade turns Expert seats into Hard ones, the
nearest level the older schema knows.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02 11:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BEFORE = "kind IN ('human', 'easy', 'medium', 'hard')"
AFTER = "kind IN ('human', 'easy', 'medium', 'hard', 'expert')"


def _constrain(condition: str) -> None:
    with op.batch_alter_table("game_seats", schema=None) as batch_op:
        batch_op.drop_constraint(op.f("ck_game_seats_kind"), type_="check")
        batch_op.create_check_constraint(op.f("ck_game_seats_kind"), condition)


def upgrade() -> None:
    """Upgrade schema."""
    _constrain(AFTER)


def downgrade() -> None:
    """Downgrade schema."""
    op.execute(sa.text("UPDATE game_seats SET kind = 'hard' WHERE kind = 'expert'"))
    op.execute(sa.text("UPDATE hand_results SET level = 'hard' WHERE level = 'expert'"))
    _constrain(BEFORE)
