"""ORM table of the service's run queue: which runs wait for, or hold, a worker.

Written and read by :mod:`simwright.store.queue`. The queue lives in the store, so a
service restarted after a crash finds every run it had accepted.
Changing this table needs a new Alembic revision in ``store/migrations/versions``.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from simwright.store.models import Base, utcnow


class QueueRow(Base):
    """The service's current job for one run: start or resume it (with an answer)."""

    __tablename__ = "service_queue"

    run_id: Mapped[str] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True)
    state: Mapped[str] = mapped_column(String(16), index=True)
    """``queued``, ``running``, ``cancelling``, ``cancelled`` or ``done``."""
    choose: Mapped[str | None] = mapped_column(String(128), nullable=True)
    """The option answering a pending decision point (a resume with an answer)."""
    worker_pid: Mapped[int | None] = mapped_column(Integer, nullable=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    queued_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
