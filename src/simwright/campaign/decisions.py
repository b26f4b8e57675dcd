"""The effect of a valid review decision on the campaign's states, computed before it acts.

:func:`plan_effect` turns a decision into the state changes it causes, written
by the caller in the same transaction as the review record:

- ``continue`` -> running; a spent budget gets ``extension_steps`` more local steps;
- ``accept`` -> accepted, with the candidate values (NEEDS_REASONING) or values
  from the most recent window the state has (CONVERGENCE_ANOMALY);
- ``retry`` -> running again;
- ``stop`` -> failed;
- ``rebuild`` -> the refused state and every later state of its system back to
  pending on a new chain, their archives superseded;
- ``acknowledge`` -> nothing but closing the event.

``continue`` and ``retry`` may set the next segment's length.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from simwright.campaign.acceptance import StateSeries, forced_values
from simwright.campaign.events import EVENT_FILE, read_json
from simwright.campaign.repository import StateFields, StateView
from simwright.campaign.review import SEGMENT_STEPS, ReviewDecision, action_of
from simwright.campaign.status import CampaignError, EventKind, ReviewAction, StateStatus
from simwright.campaign.wiring import CampaignContext, chain_generation, chain_id
from simwright.errors import ValidationError
from simwright.store.models_campaign import CampaignEventRow


@dataclass(frozen=True)
class Effect:
    """State changes a decision causes, and a one-line summary of them."""

    summary: str
    changes: tuple[tuple[StateView, StateFields], ...] = ()
    superseded: tuple[int, ...] = ()


def load_series(ctx: CampaignContext, state: StateView) -> StateSeries:
    """All samples of ``state`` on its current chain, from the segment records."""
    names = tuple(o.name for o in ctx.spec.observables)
    series = StateSeries.empty(names)
    for segment in ctx.cstore.segments(state.id, state.chain_id):
        data = json.loads(segment.series_json)
        values = {n: np.asarray(data["values"][n], dtype=float) for n in names}
        series = series.extend(np.asarray(data["local_steps"], dtype=np.int64), values)
    return series


def plan_effect(ctx: CampaignContext, event: CampaignEventRow, decision: ReviewDecision) -> Effect:
    """The effect of ``decision`` on ``event`` (raises :class:`CampaignError` if it cannot act)."""
    action = action_of(decision)
    if action is ReviewAction.ACKNOWLEDGE:
        return Effect("event acknowledged")
    if event.state_id is None:
        raise CampaignError(f"event {event.id} concerns no state; only 'acknowledge' applies")
    state = ctx.cstore.state(event.state_id)
    if action is ReviewAction.REBUILD:
        return _rebuild(ctx, event)
    if state.status != StateStatus.NEEDS_REVIEW:
        raise CampaignError(f"{state.system}/{state.condition} is {state.status}, not needs_review")
    if action is ReviewAction.STOP:
        reason = f"stopped on review of {event.kind}: {decision.rationale or 'no rationale'}"
        return Effect(
            "state failed", ((state, {"status": StateStatus.FAILED, "stop_reason": reason}),)
        )
    if action is ReviewAction.ACCEPT:
        return _accept(ctx, event, state)
    fields: StateFields = {"status": StateStatus.RUNNING, "stop_reason": ""}
    summary = "state running again"
    if action is ReviewAction.CONTINUE and state.local_steps >= state.max_local_steps:
        fields["max_local_steps"] = state.max_local_steps + ctx.spec.extension_steps
        summary += f", budget extended to {fields['max_local_steps']} local steps"
    if SEGMENT_STEPS in decision.parameter_changes:
        fields["next_segment_steps"] = int(decision.parameter_changes[SEGMENT_STEPS])
        summary += f", next segment {fields['next_segment_steps']} steps"
    return Effect(summary, ((state, fields),))


def _accept(ctx: CampaignContext, event: CampaignEventRow, state: StateView) -> Effect:
    if state.cycles == 0:
        raise CampaignError("the state has no completed segment to accept")
    if event.kind == EventKind.NEEDS_REASONING and json.loads(state.values_json or "{}"):
        values: dict[str, Any] = json.loads(state.values_json)
    else:
        try:
            values = forced_values(ctx.spec, load_series(ctx, state), state.local_steps)
        except ValidationError as exc:
            raise CampaignError(f"cannot compute accepted values: {exc}") from exc
    fields = {"status": StateStatus.ACCEPTED, "values_json": json.dumps(values), "stop_reason": ""}
    return Effect("state accepted on review", ((state, fields),))


def _rebuild(ctx: CampaignContext, event: CampaignEventRow) -> Effect:
    details = read_json(Path(event.directory) / EVENT_FILE).get("details", {})
    refused_id = details.get("refused_state_id")
    if not isinstance(refused_id, int):
        raise CampaignError(f"event {event.id} names no refused state to rebuild from")
    refused = ctx.cstore.state(refused_id)
    same = [s for s in ctx.cstore.states(refused.campaign_id) if s.system == refused.system]
    new_chain = chain_id(refused.system, max(chain_generation(s.chain_id) for s in same) + 1)
    resets: list[tuple[StateView, StateFields]] = []
    superseded: list[int] = []
    for state in same:
        if state.condition_index < refused.condition_index:
            continue
        if state.status not in (
            StateStatus.ARCHIVED,
            StateStatus.NEEDS_REVIEW,
            StateStatus.PENDING,
        ):
            raise CampaignError(
                f"cannot rebuild {state.system}/{state.condition}: it is {state.status}"
            )
        resets.append((state, _fresh_fields(ctx, new_chain)))
        if state.archive_id is not None:
            superseded.append(state.archive_id)
    summary = f"{refused.system} rebuilt from {refused.condition} on chain {new_chain}"
    return Effect(summary, tuple(resets), tuple(superseded))


def _fresh_fields(ctx: CampaignContext, chain: str) -> StateFields:
    return {
        "status": StateStatus.PENDING,
        "chain_id": chain,
        "cycles": 0,
        "local_steps": 0,
        "abs_step_entry": None,
        "abs_step": None,
        "max_local_steps": ctx.spec.continuation.max_local_steps,
        "next_segment_steps": None,
        "start_archive_id": None,
        "archive_id": None,
        "stop_reason": "",
        "values_json": "{}",
    }
