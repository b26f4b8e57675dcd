"""What an engine call records besides its command: executor, job id, scheduler states, ranks.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``engine_calls.extra_json`` (a JSON object of strings; ``{}`` for older calls)."""
    with op.batch_alter_table("engine_calls") as batch:
        batch.add_column(sa.Column("extra_json", sa.Text, nullable=False, server_default="{}"))


def downgrade() -> None:
    """Drop ``engine_calls.extra_json``."""
    with op.batch_alter_table("engine_calls") as batch:
        batch.drop_column("extra_json")
