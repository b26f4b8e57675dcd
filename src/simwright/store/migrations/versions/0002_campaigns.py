"""Campaigns: states, segments, archives, review events and reviews.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def _ts(name: str, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def _campaign_fk() -> sa.Column:
    return sa.Column(
        "campaign_id",
        sa.String(96),
        sa.ForeignKey("campaigns.id", ondelete="CASCADE"),
        nullable=False,
    )


def _state_fk() -> sa.Column:
    return sa.Column(
        "state_id",
        sa.Integer,
        sa.ForeignKey("campaign_states.id", ondelete="CASCADE"),
        nullable=False,
    )


def _text(name: str) -> sa.Column:
    return sa.Column(name, sa.Text, nullable=False)


def _int(name: str, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.Integer, nullable=nullable)


def _str(name: str, length: int, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.String(length), nullable=nullable)


def _campaigns() -> None:
    op.create_table(
        "campaigns",
        sa.Column("id", sa.String(96), primary_key=True),
        _str("name", 128),
        _text("objective"),
        _text("spec_json"),
        _str("spec_sha256", 64),
        _str("engine", 64),
        _str("status", 32),
        _text("workdir"),
        _int("model_calls"),
        _str("simwright_version", 32),
        _ts("created_at"),
        _ts("updated_at"),
    )
    op.create_index("ix_campaigns_status", "campaigns", ["status"])


def _states() -> None:
    op.create_table(
        "campaign_states",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        _campaign_fk(),
        _str("system", 128),
        _str("condition", 128),
        _int("system_index"),
        _int("condition_index"),
        _str("status", 32),
        _str("chain_id", 160),
        _int("cycles"),
        _int("local_steps"),
        _int("abs_step_entry", nullable=True),
        _int("abs_step", nullable=True),
        _int("max_local_steps"),
        _int("next_segment_steps", nullable=True),
        _int("start_archive_id", nullable=True),
        _int("archive_id", nullable=True),
        _text("stop_reason"),
        _text("values_json"),
        _ts("updated_at"),
        sa.UniqueConstraint("campaign_id", "system", "condition", name="uq_campaign_state"),
    )
    op.create_index("ix_campaign_states_campaign_id", "campaign_states", ["campaign_id"])


def _segments() -> None:
    op.create_table(
        "campaign_segments",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        _campaign_fk(),
        _state_fk(),
        _str("chain_id", 160),
        _int("seq"),
        _int("attempt"),
        _str("status", 32),
        _text("workdir"),
        _int("seed"),
        _int("steps"),
        _int("local_start"),
        _int("local_end"),
        _int("abs_start", nullable=True),
        _int("abs_end", nullable=True),
        _str("start_sha256", 64),
        _text("restart_path"),
        _str("restart_sha256", 64),
        _text("series_json"),
        _text("monitor_json"),
        _text("analysis_json"),
        _str("decision", 32),
        _str("rule", 64),
        _text("reason"),
        _text("error"),
        _text("engine_json"),
        sa.Column("wall_s", sa.Float, nullable=False),
        _ts("created_at"),
    )
    op.create_index("ix_campaign_segments_campaign_id", "campaign_segments", ["campaign_id"])
    op.create_index(
        "ix_campaign_segments_state", "campaign_segments", ["state_id", "chain_id", "seq"]
    )
    op.create_index("ix_campaign_segments_restart_sha256", "campaign_segments", ["restart_sha256"])


def _archives() -> None:
    op.create_table(
        "campaign_archives",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        _campaign_fk(),
        _state_fk(),
        _str("system", 128),
        _str("condition", 128),
        _str("chain_id", 160),
        _text("path"),
        _str("sha256", 64),
        _int("size"),
        _int("abs_step", nullable=True),
        _int("restart_of"),
        _int("derived_from", nullable=True),
        _str("status", 32),
        _ts("created_at"),
    )
    op.create_index("ix_campaign_archives_campaign_id", "campaign_archives", ["campaign_id"])
    op.create_index("ix_campaign_archives_sha256", "campaign_archives", ["sha256"])


def _events() -> None:
    op.create_table(
        "campaign_events",
        sa.Column("id", sa.String(160), primary_key=True),
        _campaign_fk(),
        _int("state_id", nullable=True),
        _str("system", 128),
        _str("condition", 128),
        _str("kind", 32),
        _str("fingerprint", 64),
        _str("status", 32),
        _str("duplicate_of", 160, nullable=True),
        _text("message"),
        _text("directory"),
        _text("resolution_json"),
        _ts("created_at"),
        _ts("resolved_at", nullable=True),
    )
    op.create_index("ix_campaign_events_campaign_id", "campaign_events", ["campaign_id"])
    op.create_index("ix_campaign_events_fingerprint", "campaign_events", ["fingerprint"])


def _reviews() -> None:
    op.create_table(
        "campaign_reviews",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        _campaign_fk(),
        sa.Column(
            "event_id",
            sa.String(160),
            sa.ForeignKey("campaign_events.id", ondelete="CASCADE"),
            nullable=False,
        ),
        _str("reviewer", 128),
        _str("reviewer_kind", 16),
        sa.Column("valid", sa.Boolean, nullable=False),
        _str("action", 32),
        _text("decision_json"),
        _text("validation_json"),
        _ts("created_at"),
    )
    op.create_index("ix_campaign_reviews_campaign_id", "campaign_reviews", ["campaign_id"])


def upgrade() -> None:
    _campaigns()
    _states()
    _segments()
    _archives()
    _events()
    _reviews()


def downgrade() -> None:
    for table in (
        "campaign_reviews",
        "campaign_events",
        "campaign_archives",
        "campaign_segments",
        "campaign_states",
        "campaigns",
    ):
        op.drop_table(table)
