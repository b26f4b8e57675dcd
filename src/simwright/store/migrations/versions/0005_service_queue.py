"""The service's run queue: runs waiting for, or held by, a worker process.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``service_queue``."""
    op.create_table(
        "service_queue",
        sa.Column(
            "run_id",
            sa.String(64),
            sa.ForeignKey("runs.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("choose", sa.String(128), nullable=True),
        sa.Column("worker_pid", sa.Integer, nullable=True),
        sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
        sa.Column("queued_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_service_queue_state", "service_queue", ["state"])


def downgrade() -> None:
    """Drop ``service_queue``."""
    op.drop_index("ix_service_queue_state", "service_queue")
    op.drop_table("service_queue")
