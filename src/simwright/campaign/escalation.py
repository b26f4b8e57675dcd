"""Raising review events, routing them to a model or a human, and recording decisions.

:meth:`Escalator.raise_event` writes the event's files, records it with the
state's move to ``needs_review`` and routes it. A model (the injected reviewer)
is asked only when all of these hold: a reviewer is configured, the event kind
is in ``review.reviewer_events``, no earlier event has the same fingerprint, the
caps on model calls (per system and event kind, per campaign) are not reached,
and the event was not raised while a review was being applied — so an
escalation can never trigger itself. Every other event waits for a human.
:meth:`Escalator.record` validates and applies a decision from either.
"""

from __future__ import annotations

import dataclasses
import json
import threading
from pathlib import Path
from typing import Any

from simwright.campaign.decisions import Effect, plan_effect
from simwright.campaign.events import (
    EVENT_FILE,
    EVIDENCE_FILE,
    VALIDATION_FILE,
    EventDraft,
    EvidenceInputs,
    event_dirname,
    evidence,
    fingerprint,
    write_json,
)
from simwright.campaign.repository import StateView
from simwright.campaign.review import (
    DecisionValidation,
    RawDecision,
    ReviewDecision,
    ReviewerKind,
    ReviewRequest,
    allowed_actions,
    parameter_scope,
    validate_decision,
)
from simwright.campaign.status import CampaignError, EventKind, StateStatus
from simwright.campaign.wiring import CampaignContext
from simwright.store.models import utcnow
from simwright.store.models_campaign import CampaignEventRow, CampaignReviewRow


class Escalator:
    """Raises events and records the decisions taken on them, for one campaign."""

    def __init__(self, ctx: CampaignContext) -> None:
        self.ctx = ctx
        self._reviewing = False
        self._lock = threading.RLock()  # systems advanced in threads raise events one at a time

    # -- raising ----------------------------------------------------------------
    def raise_event(self, state: StateView | None, draft: EventDraft) -> CampaignEventRow:
        """Write, record and route one event; ask the model when the rules allow."""
        with self._lock:  # the event's number is the count of events so far
            return self._raise(state, draft)

    def _raise(self, state: StateView | None, draft: EventDraft) -> CampaignEventRow:
        ctx = self.ctx
        system = state.system if state is not None else ""
        condition = state.condition if state is not None else ""
        fp = fingerprint(draft.kind, system, draft.signature)
        original = ctx.cstore.first_with_fingerprint(ctx.campaign.id, fp)
        number = len(ctx.cstore.events(ctx.campaign.id)) + 1
        directory = ctx.events_dir() / event_dirname(number, draft.kind, system, condition)
        row = CampaignEventRow(
            id=f"{ctx.campaign.id}-e{number:04d}",
            campaign_id=ctx.campaign.id,
            state_id=state.id if state is not None else None,
            system=system,
            condition=condition,
            kind=str(draft.kind),
            fingerprint=fp,
            status="open",
            duplicate_of=original.id if original is not None else None,
            message=draft.message,
            directory=str(directory),
        )
        route, why = self._route(draft.kind, system, original)
        scope = self._scope(draft.kind)
        event_doc = _event_doc(row, draft, route, why)
        evidence_doc = evidence(row.id, draft, fp, self._inputs(state, scope))
        write_json(directory / EVIDENCE_FILE, evidence_doc)
        write_json(directory / EVENT_FILE, event_doc)
        fields = None
        if state is not None and draft.kind is not EventKind.BATCH_COMPLETE:
            fields = {"status": StateStatus.NEEDS_REVIEW, "stop_reason": draft.message}
        ctx.cstore.add_event(row, state, fields)
        ctx.observer.event_raised(row, route)
        if route == "model":
            self._ask_model(row, event_doc, evidence_doc, scope)
        return row

    def _scope(self, kind: EventKind) -> dict[str, Any]:
        return {
            "allowed_actions": list(allowed_actions(kind, "human")),
            "model_actions": list(allowed_actions(kind, "model")),
            "parameter_scope": {k: list(v) for k, v in parameter_scope(self.ctx.spec).items()},
            "min_confidence": self.ctx.spec.review.min_confidence,
        }

    def _route(
        self, kind: EventKind, system: str, original: CampaignEventRow | None
    ) -> tuple[str, str]:
        ctx = self.ctx
        caps = ctx.spec.model_calls
        if ctx.reviewer is None:
            return "human", "no reviewer is configured"
        if kind not in ctx.spec.review.reviewer_events:
            return "human", f"{kind} is not in review.reviewer_events"
        if original is not None:
            return "human", f"same fingerprint as {original.id}: the model is not asked again"
        if self._reviewing:
            return "human", "raised while a decision was being applied: no self-escalation"
        if ctx.cstore.model_calls(ctx.campaign.id) >= caps.per_campaign:
            return "human", f"cap of {caps.per_campaign} model calls per campaign reached"
        used = ctx.cstore.model_calls(ctx.campaign.id, system=system, kind=str(kind))
        if used >= caps.per_system_event:
            return (
                "human",
                f"cap of {caps.per_system_event} model call(s) for {system}/{kind} reached",
            )
        return "model", "rules allow a model review"

    def _inputs(self, state: StateView | None, scope: dict[str, Any]) -> EvidenceInputs:
        cstore = self.ctx.cstore
        rules = {n: r.model_dump() for n, r in self.ctx.spec.acceptance.items()}
        if state is None:
            return EvidenceInputs(self.ctx.campaign, None, (), (), None, rules, scope)
        completed = cstore.segments(state.id, state.chain_id)
        attempts = cstore.segments(state.id, state.chain_id, status=None)
        start = cstore.archive(state.start_archive_id) if state.start_archive_id else None
        return EvidenceInputs(self.ctx.campaign, state, completed, attempts, start, rules, scope)

    def _ask_model(
        self,
        event: CampaignEventRow,
        event_doc: dict[str, Any],
        evidence_doc: dict[str, Any],
        scope: dict[str, Any],
    ) -> None:
        reviewer = self.ctx.reviewer
        assert reviewer is not None
        request = ReviewRequest(
            event=event_doc,
            evidence=evidence_doc,
            allowed_actions=tuple(scope["model_actions"]),
            parameter_scope=parameter_scope(self.ctx.spec),
            min_confidence=self.ctx.spec.review.min_confidence,
        )
        error = None
        raw: RawDecision = None
        self._reviewing = True
        try:
            try:
                raw = reviewer.review(request)
            except Exception as exc:  # a model provider's failure must not stop the campaign
                error = f"the reviewer raised {type(exc).__name__}: {exc}"
            self.record(event, raw, reviewer.name, "model", error=error)
        finally:
            self._reviewing = False

    # -- recording decisions --------------------------------------------------------
    def record(
        self,
        event: CampaignEventRow,
        raw: RawDecision,
        reviewer: str,
        reviewer_kind: ReviewerKind,
        *,
        error: str | None = None,
    ) -> DecisionValidation:
        """Validate a decision on ``event``, write its validation, apply it when valid."""
        decision, validation = validate_decision(
            raw,
            event_id=event.id,
            kind=EventKind(event.kind),
            spec=self.ctx.spec,
            reviewer=reviewer,
            reviewer_kind=reviewer_kind,
        )
        if error is not None:
            validation = dataclasses.replace(validation, problems=(error, *validation.problems))
        effect = None
        if decision is not None:
            effect, validation = self._plan(event, decision, validation)
        self._write_validation(Path(event.directory), validation)
        self._commit(event, decision, validation, effect, model_call=reviewer_kind == "model")
        return validation

    def _plan(
        self, event: CampaignEventRow, decision: ReviewDecision, validation: DecisionValidation
    ) -> tuple[Effect | None, DecisionValidation]:
        if event.status != "open":
            problem = f"event {event.id} is already {event.status}"
            return None, dataclasses.replace(
                validation, valid=False, problems=(problem,), outcome="not applied"
            )
        try:
            effect = plan_effect(self.ctx, event, decision)
        except CampaignError as exc:
            problem = f"the decision cannot be applied: {exc}"
            return None, dataclasses.replace(
                validation, valid=False, problems=(problem,), outcome="waiting_for_human"
            )
        return effect, dataclasses.replace(validation, outcome=f"applied: {effect.summary}")

    @staticmethod
    def _write_validation(directory: Path, validation: DecisionValidation) -> None:
        path = directory / VALIDATION_FILE
        if path.exists():
            earlier = len(list(directory.glob("decision_validation.*.json"))) + 1
            path.replace(directory / f"decision_validation.{earlier}.json")
        write_json(path, validation.as_dict())

    def _commit(
        self,
        event: CampaignEventRow,
        decision: ReviewDecision | None,
        validation: DecisionValidation,
        effect: Effect | None,
        *,
        model_call: bool,
    ) -> None:
        review = CampaignReviewRow(
            campaign_id=event.campaign_id,
            event_id=event.id,
            reviewer=validation.reviewer,
            reviewer_kind=validation.reviewer_kind,
            valid=validation.valid,
            action=decision.action if decision is not None else "",
            decision_json=decision.model_dump_json() if decision is not None else "{}",
            validation_json=_json(validation.as_dict()),
        )
        self.ctx.cstore.add_review(
            review,
            model_call=model_call,
            resolution=validation.as_dict() if effect is not None else None,
            changes=effect.changes if effect is not None else (),
            superseded=effect.superseded if effect is not None else (),
        )


def _event_doc(row: CampaignEventRow, draft: EventDraft, route: str, why: str) -> dict[str, Any]:
    """The content of ``event.json``."""
    return {
        "schema": "simwright.campaign.event/1",
        "event_id": row.id,
        "campaign_id": row.campaign_id,
        "kind": row.kind,
        "system": row.system,
        "condition": row.condition,
        "state_id": row.state_id,
        "message": draft.message,
        "rule": draft.rule,
        "fingerprint": row.fingerprint,
        "duplicate_of": row.duplicate_of,
        "routing": {"to": route, "why": why},
        "details": dict(draft.details),
        "evidence": EVIDENCE_FILE,
        "created_at": utcnow().isoformat(),
    }


def _json(data: dict[str, Any]) -> str:
    return json.dumps(data, default=str)
