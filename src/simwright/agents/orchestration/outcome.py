"""How an agent run ended: the typed outcome every entry point returns."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from simwright.agents.replies import FinalAnswer
from simwright.agents.review.reports import SubtaskReport
from simwright.agents.usage.ledger import Totals

Status = Literal["completed", "failed", "needs_clarification", "budget_exceeded", "needs_review"]
"""``needs_clarification`` and ``needs_review`` wait for a person (exit 3 in the CLI)."""


@dataclass(frozen=True)
class AgentOutcome:
    """How an agent run ended: status, answer, reports and usage."""

    run_id: str
    status: Status
    run_dir: Path
    answer: FinalAnswer | None
    reports: tuple[SubtaskReport, ...]
    usage: Totals
    error: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary (the run's ``result_json``)."""
        return {
            "run_id": self.run_id,
            "status": self.status,
            "run_dir": str(self.run_dir),
            "answer": self.answer.model_dump() if self.answer else None,
            "reports": [r.as_dict() for r in self.reports],
            "usage": self.usage.as_dict(),
            "error": self.error,
        }
