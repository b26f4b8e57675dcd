"""Agent runs resume: the revision of each subtask (which folder its next run uses).

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``agent_subtasks.revision`` (0 for subtasks recorded before)."""
    with op.batch_alter_table("agent_subtasks") as batch:
        batch.add_column(sa.Column("revision", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    """Drop ``agent_subtasks.revision``."""
    with op.batch_alter_table("agent_subtasks") as batch:
        batch.drop_column("revision")
