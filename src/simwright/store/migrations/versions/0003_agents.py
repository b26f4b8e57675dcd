"""Agents: model usage, subtasks and critic reviews.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def _id() -> sa.Column:
    return sa.Column("id", sa.Integer, primary_key=True, autoincrement=True)


def _run_fk() -> sa.Column:
    return sa.Column(
        "run_id", sa.String(64), sa.ForeignKey("runs.id", ondelete="CASCADE"), nullable=False
    )


def _ts(name: str = "created_at") -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=False)


def _int(name: str) -> sa.Column:
    return sa.Column(name, sa.Integer, nullable=False)


def _str(name: str, length: int) -> sa.Column:
    return sa.Column(name, sa.String(length), nullable=False)


def _text(name: str) -> sa.Column:
    return sa.Column(name, sa.Text, nullable=False)


def upgrade() -> None:
    op.create_table(
        "agent_usage",
        _id(),
        _run_fk(),
        _str("role", 32),
        _str("subtask", 64),
        _str("model", 200),
        sa.Column("ok", sa.Boolean, nullable=False),
        _int("requests"),
        _int("input_tokens"),
        _int("output_tokens"),
        _int("prompt_tokens"),
        sa.Column("cost_usd", sa.Float, nullable=False),
        _ts(),
    )
    op.create_index("ix_agent_usage_run_id", "agent_usage", ["run_id"])
    op.create_table(
        "agent_subtasks",
        _id(),
        _run_fk(),
        _str("subtask_id", 64),
        _str("executor", 32),
        _text("instruction"),
        _text("spec_json"),
        _str("status", 32),
        _int("attempts"),
        _text("report_json"),
        sa.Column("child_run_id", sa.String(64), nullable=True),
        _ts(),
        _ts("updated_at"),
        sa.UniqueConstraint("run_id", "subtask_id", name="uq_agent_subtask"),
    )
    op.create_index("ix_agent_subtasks_run_id", "agent_subtasks", ["run_id"])
    op.create_table(
        "agent_reviews",
        _id(),
        _run_fk(),
        _str("subtask_id", 64),
        _str("point", 32),
        _int("round"),
        _str("verdict", 16),
        _text("votes_json"),
        _text("feedback"),
        _ts(),
    )
    op.create_index("ix_agent_reviews_run_id", "agent_reviews", ["run_id"])


def downgrade() -> None:
    for table in ("agent_reviews", "agent_subtasks", "agent_usage"):
        op.drop_table(table)
