"""Review decisions: the seam to a human or a model, and validation before anything acts.

A :class:`Reviewer` (a model plugged in by the agent layer, a scripted one in
tests) receives a :class:`ReviewRequest` — the event, its evidence bundle, the
actions allowed and the parameter scope — and returns a decision: a
:class:`ReviewDecision`, a mapping, or the JSON text a model wrote. Humans answer
through ``simwright campaign approve``. Either way :func:`validate_decision`
checks it: the event id matches, the action is allowed for the event (and for a
model), the confidence lies in [0, 1] (and, for a model, reaches the spec's
minimum), and parameter changes stay in scope — none, or the next segment's
length within the spec's range. Only a valid decision acts; otherwise the state
waits for a human.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field
from pydantic import ValidationError as PydanticValidationError

from simwright.campaign.spec import CampaignSpec
from simwright.campaign.status import (
    ALLOWED_ACTIONS,
    HUMAN_ONLY,
    PARAMETER_ACTIONS,
    EventKind,
    ReviewAction,
)

ReviewerKind = Literal["model", "human"]

SEGMENT_STEPS: Final = "segment_steps"
"""The one parameter a decision may change: the next segment's length (local steps)."""


class ReviewDecision(BaseModel):
    """A reviewer's answer to one event."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    event_id: str
    action: str
    confidence: float
    parameter_changes: dict[str, Any] = Field(default_factory=dict)
    rationale: str = ""


RawDecision = ReviewDecision | Mapping[str, Any] | str | None
"""What a reviewer may return: a decision, a mapping, JSON text, or nothing."""


@dataclass(frozen=True)
class ReviewRequest:
    """Everything a reviewer is given: the event, its evidence and what it may decide."""

    event: Mapping[str, Any]
    evidence: Mapping[str, Any]
    allowed_actions: tuple[str, ...]
    parameter_scope: Mapping[str, tuple[int, int]]
    min_confidence: float


class Reviewer(Protocol):
    """A model (or a script standing in for one) that answers review events."""

    name: str

    def review(self, request: ReviewRequest) -> RawDecision:
        """A decision on ``request.event`` (None when it has none)."""
        ...


@dataclass(frozen=True)
class DecisionValidation:
    """The verdict on a decision, written to ``decision_validation.json``."""

    event_id: str
    reviewer: str
    reviewer_kind: ReviewerKind
    valid: bool
    problems: tuple[str, ...]
    decision: Mapping[str, Any] | None
    outcome: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary."""
        return {
            "schema": "simwright.campaign.decision_validation/1",
            "event_id": self.event_id,
            "reviewer": self.reviewer,
            "reviewer_kind": self.reviewer_kind,
            "valid": self.valid,
            "problems": list(self.problems),
            "decision": dict(self.decision) if self.decision is not None else None,
            "outcome": self.outcome,
            **dict(self.extra),
        }


def allowed_actions(kind: EventKind, reviewer_kind: ReviewerKind) -> tuple[str, ...]:
    """Actions a decision of ``reviewer_kind`` may take on an event of ``kind``."""
    allowed = ALLOWED_ACTIONS[kind]
    if reviewer_kind == "model":
        allowed = allowed - HUMAN_ONLY
    return tuple(sorted(allowed))


def parameter_scope(spec: CampaignSpec) -> dict[str, tuple[int, int]]:
    """The parameters a decision may change, with their inclusive ranges."""
    return {SEGMENT_STEPS: spec.segment_steps_range}


def parse_decision(raw: RawDecision) -> tuple[ReviewDecision | None, list[str]]:
    """Parse what a reviewer returned; the problems when it cannot be parsed."""
    if raw is None:
        return None, ["no decision was returned"]
    if isinstance(raw, ReviewDecision):
        return raw, []
    data: object = raw
    if isinstance(raw, str):
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as exc:
            return None, [f"the decision is not valid JSON: {exc}"]
    if not isinstance(data, Mapping):
        return None, ["the decision must be a JSON object"]
    try:
        return ReviewDecision.model_validate(dict(data)), []
    except PydanticValidationError as exc:
        problems = [
            f"{'.'.join(str(p) for p in e['loc']) or 'decision'}: {e['msg']}" for e in exc.errors()
        ]
        return None, problems


def validate_decision(
    raw: RawDecision,
    *,
    event_id: str,
    kind: EventKind,
    spec: CampaignSpec,
    reviewer: str,
    reviewer_kind: ReviewerKind,
) -> tuple[ReviewDecision | None, DecisionValidation]:
    """Check a decision against its event and the spec (see the module docstring)."""
    decision, problems = parse_decision(raw)
    if decision is not None:
        problems += _problems(decision, event_id, kind, spec, reviewer_kind)
    valid = decision is not None and not problems
    report = DecisionValidation(
        event_id=event_id,
        reviewer=reviewer,
        reviewer_kind=reviewer_kind,
        valid=valid,
        problems=tuple(problems),
        decision=decision.model_dump() if decision is not None else _raw_dict(raw),
        outcome="" if valid else "waiting_for_human",
    )
    return (decision if valid else None), report


def _raw_dict(raw: RawDecision) -> dict[str, Any] | None:
    if isinstance(raw, Mapping):
        return {str(k): v for k, v in raw.items()}
    if isinstance(raw, str):
        return {"text": raw[:2000]}
    return None


def _problems(
    d: ReviewDecision, event_id: str, kind: EventKind, spec: CampaignSpec, who: ReviewerKind
) -> list[str]:
    problems = []
    if d.event_id != event_id:
        problems.append(f"event_id {d.event_id!r} does not match the event {event_id!r}")
    allowed = allowed_actions(kind, who)
    if d.action not in allowed:
        why = "only a human may" if d.action in HUMAN_ONLY else "not allowed for"
        problems.append(f"action {d.action!r} is {why} {kind} (allowed: {', '.join(allowed)})")
    if not (math.isfinite(d.confidence) and 0.0 <= d.confidence <= 1.0):
        problems.append(f"confidence {d.confidence} is not in [0, 1]")
    elif who == "model" and d.confidence < spec.review.min_confidence:
        problems.append(
            f"confidence {d.confidence} is below the minimum {spec.review.min_confidence} "
            "for a model's decision to act"
        )
    return problems + _parameter_problems(d, spec)


def _parameter_problems(d: ReviewDecision, spec: CampaignSpec) -> list[str]:
    if not d.parameter_changes:
        return []
    problems = []
    outside = sorted(set(d.parameter_changes) - {SEGMENT_STEPS})
    if outside:
        problems.append(
            f"parameter change(s) {', '.join(outside)} outside the permitted scope "
            f"(only {SEGMENT_STEPS}, the next segment's length)"
        )
    if SEGMENT_STEPS in d.parameter_changes:
        value = d.parameter_changes[SEGMENT_STEPS]
        low, high = spec.segment_steps_range
        if d.action not in {str(a) for a in PARAMETER_ACTIONS}:
            problems.append(f"action {d.action!r} takes no parameter change")
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            problems.append(f"{SEGMENT_STEPS} {value!r} must be an integer in [{low}, {high}]")
    return problems


def action_of(decision: ReviewDecision) -> ReviewAction:
    """The decision's action as a :class:`ReviewAction` (call on valid decisions only)."""
    return ReviewAction(decision.action)
