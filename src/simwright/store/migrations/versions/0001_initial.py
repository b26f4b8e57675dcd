"""Initial provenance schema: runs, steps, artifacts, engine calls, decisions, events.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _ts(name: str, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def _run_fk() -> sa.Column:
    return sa.Column(
        "run_id", sa.String(64), sa.ForeignKey("runs.id", ondelete="CASCADE"), nullable=False
    )


def _step_fk(nullable: bool = False) -> sa.Column:
    return sa.Column(
        "step_id", sa.Integer, sa.ForeignKey("steps.id", ondelete="CASCADE"), nullable=nullable
    )


def upgrade() -> None:
    op.create_table(
        "runs",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("protocol", sa.String(128), nullable=False),
        sa.Column("request", sa.Text, nullable=False),
        sa.Column("params_json", sa.Text, nullable=False),
        sa.Column("status", sa.String(32), nullable=False),
        sa.Column("workdir", sa.Text, nullable=False),
        sa.Column("result_json", sa.Text, nullable=True),
        sa.Column("error", sa.Text, nullable=True),
        sa.Column("simwright_version", sa.String(32), nullable=False),
        _ts("created_at"),
        _ts("updated_at"),
    )
    op.create_index("ix_runs_status", "runs", ["status"])
    op.create_table(
        "steps",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        _run_fk(),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("attempt", sa.Integer, nullable=False),
        sa.Column("name", sa.String(128), nullable=False),
        sa.Column("step_json", sa.Text, nullable=False),
        sa.Column("inputs_hash", sa.String(64), nullable=False),
        sa.Column("status", sa.String(32), nullable=False),
        sa.Column("workdir", sa.Text, nullable=False),
        sa.Column("successor", sa.String(128), nullable=True),
        sa.Column("successor_json", sa.Text, nullable=True),
        sa.Column("decided_by", sa.String(128), nullable=True),
        sa.Column("reason", sa.Text, nullable=True),
        sa.Column("structure_json", sa.Text, nullable=True),
        sa.Column("error", sa.Text, nullable=True),
        _ts("started_at"),
        _ts("finished_at", nullable=True),
        sa.Column("wall_s", sa.Float, nullable=True),
    )
    op.create_index("ix_steps_run_seq", "steps", ["run_id", "seq"])
    op.create_table(
        "artifacts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        _run_fk(),
        _step_fk(),
        sa.Column("kind", sa.String(64), nullable=False),
        sa.Column("schema_version", sa.String(16), nullable=False),
        sa.Column("path", sa.Text, nullable=False),
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("size", sa.Integer, nullable=False),
        sa.Column("description", sa.Text, nullable=False),
        _ts("created_at"),
    )
    op.create_index("ix_artifacts_run_id", "artifacts", ["run_id"])
    op.create_index("ix_artifacts_sha256", "artifacts", ["sha256"])
    op.create_table(
        "engine_calls",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        _run_fk(),
        _step_fk(),
        sa.Column("engine", sa.String(64), nullable=False),
        sa.Column("command", sa.Text, nullable=False),
        sa.Column("version", sa.String(128), nullable=False),
        sa.Column("exit_code", sa.Integer, nullable=False),
        sa.Column("wall_s", sa.Float, nullable=False),
        sa.Column("stdout_tail", sa.Text, nullable=False),
        sa.Column("stderr_tail", sa.Text, nullable=False),
        _ts("created_at"),
    )
    op.create_index("ix_engine_calls_run_id", "engine_calls", ["run_id"])
    op.create_table(
        "decisions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        _run_fk(),
        _step_fk(),
        sa.Column("point", sa.String(128), nullable=False),
        sa.Column("options_json", sa.Text, nullable=False),
        sa.Column("chosen", sa.String(128), nullable=True),
        sa.Column("decided_by", sa.String(128), nullable=False),
        sa.Column("inputs_json", sa.Text, nullable=False),
        sa.Column("rationale", sa.Text, nullable=False),
        _ts("created_at"),
    )
    op.create_index("ix_decisions_run_id", "decisions", ["run_id"])
    op.create_table(
        "events",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        _run_fk(),
        _step_fk(nullable=True),
        sa.Column("kind", sa.String(64), nullable=False),
        sa.Column("message", sa.Text, nullable=False),
        sa.Column("payload_json", sa.Text, nullable=False),
        _ts("created_at"),
    )
    op.create_index("ix_events_run_id", "events", ["run_id"])


def downgrade() -> None:
    for table in ("events", "decisions", "engine_calls", "artifacts", "steps", "runs"):
        op.drop_table(table)
