"""ORM tables of campaigns: states, segments, archives, review events and reviews.

A campaign runs many (system, condition) states; each state advances by segments
and, once accepted, leaves an archived restart from which its successor starts.
Changing these tables needs a new Alembic revision in ``store/migrations/versions``.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from simwright.store.models import Base, utcnow


class CampaignRow(Base):
    """One campaign: its validated spec, directory, status and model-call count."""

    __tablename__ = "campaigns"

    id: Mapped[str] = mapped_column(String(96), primary_key=True)
    name: Mapped[str] = mapped_column(String(128))
    objective: Mapped[str] = mapped_column(Text, default="")
    spec_json: Mapped[str] = mapped_column(Text)
    spec_sha256: Mapped[str] = mapped_column(String(64))
    engine: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(32), index=True)
    workdir: Mapped[str] = mapped_column(Text)
    model_calls: Mapped[int] = mapped_column(Integer, default=0)
    simwright_version: Mapped[str] = mapped_column(String(32), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class CampaignStateRow(Base):
    """The state machine of one (system, condition) of a campaign.

    ``local_steps`` count MD steps since the state was entered; ``abs_step_entry``
    and ``abs_step`` are the engine's absolute timestep at entry and now.
    """

    __tablename__ = "campaign_states"
    __table_args__ = (
        UniqueConstraint("campaign_id", "system", "condition", name="uq_campaign_state"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    campaign_id: Mapped[str] = mapped_column(
        ForeignKey("campaigns.id", ondelete="CASCADE"), index=True
    )
    system: Mapped[str] = mapped_column(String(128))
    condition: Mapped[str] = mapped_column(String(128))
    system_index: Mapped[int] = mapped_column(Integer)
    condition_index: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(32))
    chain_id: Mapped[str] = mapped_column(String(160))
    cycles: Mapped[int] = mapped_column(Integer, default=0)
    local_steps: Mapped[int] = mapped_column(Integer, default=0)
    abs_step_entry: Mapped[int | None] = mapped_column(Integer, nullable=True)
    abs_step: Mapped[int | None] = mapped_column(Integer, nullable=True)
    max_local_steps: Mapped[int] = mapped_column(Integer)
    next_segment_steps: Mapped[int | None] = mapped_column(Integer, nullable=True)
    start_archive_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    archive_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    stop_reason: Mapped[str] = mapped_column(Text, default="")
    values_json: Mapped[str] = mapped_column(Text, default="{}")
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class CampaignSegmentRow(Base):
    """One attempt at one segment of a state, written once its files are complete."""

    __tablename__ = "campaign_segments"
    __table_args__ = (Index("ix_campaign_segments_state", "state_id", "chain_id", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    campaign_id: Mapped[str] = mapped_column(
        ForeignKey("campaigns.id", ondelete="CASCADE"), index=True
    )
    state_id: Mapped[int] = mapped_column(ForeignKey("campaign_states.id", ondelete="CASCADE"))
    chain_id: Mapped[str] = mapped_column(String(160))
    seq: Mapped[int] = mapped_column(Integer)
    attempt: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(32))
    workdir: Mapped[str] = mapped_column(Text)
    seed: Mapped[int] = mapped_column(Integer)
    steps: Mapped[int] = mapped_column(Integer)
    local_start: Mapped[int] = mapped_column(Integer)
    local_end: Mapped[int] = mapped_column(Integer)
    abs_start: Mapped[int | None] = mapped_column(Integer, nullable=True)
    abs_end: Mapped[int | None] = mapped_column(Integer, nullable=True)
    start_sha256: Mapped[str] = mapped_column(String(64), default="")
    restart_path: Mapped[str] = mapped_column(Text, default="")
    restart_sha256: Mapped[str] = mapped_column(String(64), default="", index=True)
    series_json: Mapped[str] = mapped_column(Text, default="{}")
    monitor_json: Mapped[str] = mapped_column(Text, default="{}")
    analysis_json: Mapped[str] = mapped_column(Text, default="{}")
    decision: Mapped[str] = mapped_column(String(32), default="")
    rule: Mapped[str] = mapped_column(String(64), default="")
    reason: Mapped[str] = mapped_column(Text, default="")
    error: Mapped[str] = mapped_column(Text, default="")
    engine_json: Mapped[str] = mapped_column(Text, default="[]")
    wall_s: Mapped[float] = mapped_column(Float, default=0.0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class CampaignArchiveRow(Base):
    """The archived, authoritative restart of an accepted state, with its lineage.

    ``restart_of`` is the segment whose restart was archived; ``derived_from`` the
    archive the state started from (None for a freshly built system).
    """

    __tablename__ = "campaign_archives"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    campaign_id: Mapped[str] = mapped_column(
        ForeignKey("campaigns.id", ondelete="CASCADE"), index=True
    )
    state_id: Mapped[int] = mapped_column(ForeignKey("campaign_states.id", ondelete="CASCADE"))
    system: Mapped[str] = mapped_column(String(128))
    condition: Mapped[str] = mapped_column(String(128))
    chain_id: Mapped[str] = mapped_column(String(160))
    path: Mapped[str] = mapped_column(Text)
    sha256: Mapped[str] = mapped_column(String(64), index=True)
    size: Mapped[int] = mapped_column(Integer)
    abs_step: Mapped[int | None] = mapped_column(Integer, nullable=True)
    restart_of: Mapped[int] = mapped_column(Integer)
    derived_from: Mapped[int | None] = mapped_column(Integer, nullable=True)
    status: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class CampaignEventRow(Base):
    """A review event: what happened, its fingerprint, files and resolution."""

    __tablename__ = "campaign_events"

    id: Mapped[str] = mapped_column(String(160), primary_key=True)
    campaign_id: Mapped[str] = mapped_column(
        ForeignKey("campaigns.id", ondelete="CASCADE"), index=True
    )
    state_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    system: Mapped[str] = mapped_column(String(128), default="")
    condition: Mapped[str] = mapped_column(String(128), default="")
    kind: Mapped[str] = mapped_column(String(32))
    fingerprint: Mapped[str] = mapped_column(String(64), index=True)
    status: Mapped[str] = mapped_column(String(32))
    duplicate_of: Mapped[str | None] = mapped_column(String(160), nullable=True)
    message: Mapped[str] = mapped_column(Text, default="")
    directory: Mapped[str] = mapped_column(Text)
    resolution_json: Mapped[str] = mapped_column(Text, default="{}")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    resolved_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class CampaignReviewRow(Base):
    """One answer to a review event, by a human or a model, and its validation."""

    __tablename__ = "campaign_reviews"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    campaign_id: Mapped[str] = mapped_column(
        ForeignKey("campaigns.id", ondelete="CASCADE"), index=True
    )
    event_id: Mapped[str] = mapped_column(ForeignKey("campaign_events.id", ondelete="CASCADE"))
    reviewer: Mapped[str] = mapped_column(String(128))
    reviewer_kind: Mapped[str] = mapped_column(String(16))
    valid: Mapped[bool] = mapped_column(Boolean)
    action: Mapped[str] = mapped_column(String(32), default="")
    decision_json: Mapped[str] = mapped_column(Text, default="{}")
    validation_json: Mapped[str] = mapped_column(Text, default="{}")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
