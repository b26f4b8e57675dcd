"""ORM tables of the agent layer: model usage, subtasks and critic reviews.

Written by :mod:`simwright.agents.usage.records`; read by :mod:`simwright.agents.usage.view`.
Changing these tables needs a new Alembic revision in ``store/migrations/versions``.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, Float, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from simwright.store.models import Base, utcnow


class AgentUsageRow(Base):
    """One model request of a run: role, subtask, model, tokens and cost."""

    __tablename__ = "agent_usage"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    run_id: Mapped[str] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), index=True)
    role: Mapped[str] = mapped_column(String(32))
    subtask: Mapped[str] = mapped_column(String(64), default="")
    model: Mapped[str] = mapped_column(String(200))
    ok: Mapped[bool] = mapped_column(Boolean, default=True)
    requests: Mapped[int] = mapped_column(Integer, default=1)
    input_tokens: Mapped[int] = mapped_column(Integer, default=0)
    output_tokens: Mapped[int] = mapped_column(Integer, default=0)
    prompt_tokens: Mapped[int] = mapped_column(Integer, default=0)
    cost_usd: Mapped[float] = mapped_column(Float, default=0.0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class AgentSubtaskRow(Base):
    """A subtask of an agent run: what was asked of which executor, and its report."""

    __tablename__ = "agent_subtasks"
    __table_args__ = (UniqueConstraint("run_id", "subtask_id", name="uq_agent_subtask"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    run_id: Mapped[str] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), index=True)
    subtask_id: Mapped[str] = mapped_column(String(64))
    executor: Mapped[str] = mapped_column(String(32))
    instruction: Mapped[str] = mapped_column(Text)
    spec_json: Mapped[str] = mapped_column(Text, default="{}")
    status: Mapped[str] = mapped_column(String(32))
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    revision: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """How often the orchestrator revised it (or a resume restarted it): its folder suffix."""
    report_json: Mapped[str] = mapped_column(Text, default="{}")
    child_run_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class AgentReviewRow(Base):
    """One round of the critic committee: the votes, the verdict and the feedback."""

    __tablename__ = "agent_reviews"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    run_id: Mapped[str] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), index=True)
    subtask_id: Mapped[str] = mapped_column(String(64), default="")
    point: Mapped[str] = mapped_column(String(32))
    round: Mapped[int] = mapped_column(Integer, default=1)
    verdict: Mapped[str] = mapped_column(String(16))
    votes_json: Mapped[str] = mapped_column(Text, default="[]")
    feedback: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
