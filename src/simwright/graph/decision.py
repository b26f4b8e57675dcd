"""Decision points: an external decider (a model, a human) chooses among declared successors.

Routine routing is code inside a step. A step calls :meth:`RunContext.decide`
only where judgement is wanted; the options it offers must be among its declared
successors. With no decider the fallback is conservative: a sole option is taken,
several options stop the run as ``needs_review`` with the options recorded.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(frozen=True)
class DecisionRequest:
    """What a decider is asked: the point, the labelled options and typed inputs."""

    run_id: str
    point: str
    options: tuple[str, ...]
    inputs: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Choice:
    """A decider's answer: one option label, who decided, and why."""

    option: str
    decided_by: str
    rationale: str = ""


class Decider(Protocol):
    """Anything that can choose an option at a decision point."""

    def decide(self, request: DecisionRequest) -> Choice:
        """Return the chosen option for ``request``."""
        ...


@dataclass(frozen=True)
class FixedChoice:
    """A decider that answers one decision point with a fixed option (a human's choice).

    Used by ``simwright resume RUN --choose OPTION``; any other point gets no answer
    (``option=""``), which the run treats as "no decision".
    """

    option: str
    point: str | None = None
    decided_by: str = "human"

    def decide(self, request: DecisionRequest) -> Choice:
        """Return the fixed option if this is the right point."""
        if self.point is not None and request.point != self.point:
            return Choice(option="", decided_by=self.decided_by)
        return Choice(option=self.option, decided_by=self.decided_by, rationale="chosen by user")
