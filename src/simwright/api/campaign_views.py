"""JSON shapes of campaigns for the API's clients (service, dashboard, an MCP server).

A campaign's **grid** is its systems (rows) × conditions (columns), each cell the
state's status with a short text label; a **trace** is one state's segments with
their samples in local steps, decisions and rules; a **review bundle** is an event
with its evidence, the actions a human may take and the decisions recorded so far.
These read stored records only; nothing here changes a campaign.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from simwright.api.views import utc_iso
from simwright.campaign.events import EVENT_FILE, EVIDENCE_FILE, VALIDATION_FILE, read_json
from simwright.campaign.repository import CampaignStore, StateView
from simwright.campaign.review import allowed_actions
from simwright.campaign.status import EventKind
from simwright.store.models_campaign import CampaignEventRow, CampaignReviewRow, CampaignRow

STATUS_LABELS: Final = {
    "pending": "pending",
    "initializing": "starting",
    "running": "running",
    "analyzing": "analyzing",
    "accepted": "accepted",
    "archived": "done (archived)",
    "failed": "failed",
    "needs_review": "needs review",
}
"""A short text for each state status (the dashboard shows it beside the colour)."""


@dataclass(frozen=True)
class GridCell:
    """One (system, condition) state of a campaign's grid."""

    system: str
    condition: str
    status: str
    label: str
    cycles: int
    local_steps: int
    max_local_steps: int
    accepted_values: dict[str, Any]
    stop_reason: str

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dictionary."""
        return dict(self.__dict__)


@dataclass(frozen=True)
class CampaignGrid:
    """Systems (rows) × conditions (columns) with each state's status."""

    campaign_id: str
    systems: tuple[str, ...]
    conditions: tuple[str, ...]
    cells: tuple[tuple[GridCell, ...], ...]

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dictionary: ``rows`` is one list of cells per system."""
        return {
            "campaign_id": self.campaign_id,
            "systems": list(self.systems),
            "conditions": list(self.conditions),
            "rows": [[c.to_json() for c in row] for row in self.cells],
        }


def cell_of(state: StateView) -> GridCell:
    """The grid cell of one state (accepted values only once it is accepted)."""
    values = json.loads(state.values_json or "{}")
    accepted = state.status in ("accepted", "archived")
    return GridCell(
        system=state.system,
        condition=state.condition,
        status=state.status,
        label=STATUS_LABELS.get(state.status, state.status),
        cycles=state.cycles,
        local_steps=state.local_steps,
        max_local_steps=state.max_local_steps,
        accepted_values=values if accepted else {},
        stop_reason=state.stop_reason,
    )


def grid_of(campaign_id: str, states: list[StateView]) -> CampaignGrid:
    """The grid of a campaign's states (ordered by system, then along the path)."""
    systems = tuple(dict.fromkeys(s.system for s in states))
    conditions = tuple(
        dict.fromkeys(s.condition for s in sorted(states, key=lambda s: s.condition_index))
    )
    by_key = {(s.system, s.condition): s for s in states}
    cells = tuple(
        tuple(cell_of(by_key[(sys, cond)]) for cond in conditions if (sys, cond) in by_key)
        for sys in systems
    )
    return CampaignGrid(campaign_id, systems, conditions, cells)


def campaign_summary(row: CampaignRow, status: str) -> dict[str, Any]:
    """One line of the campaign list."""
    return {
        "campaign_id": row.id,
        "name": row.name,
        "objective": row.objective,
        "status": status,
        "engine": row.engine,
        "model_calls": row.model_calls,
        "created_at": utc_iso(row.created_at),
        "updated_at": utc_iso(row.updated_at),
    }


def trace_json(cstore: CampaignStore, state: StateView) -> dict[str, Any]:
    """One state's segment attempts on its current chain, with samples in local steps."""
    segments = []
    steps: list[int] = []
    series: dict[str, list[float]] = {}
    for seg in cstore.segments(state.id, state.chain_id, status=None):
        data = json.loads(seg.series_json or "{}")
        if seg.status == "completed":
            steps += data.get("local_steps", [])
            for name, values in data.get("values", {}).items():
                series.setdefault(name, []).extend(values)
        segments.append(
            {
                "seq": seg.seq,
                "attempt": seg.attempt,
                "status": seg.status,
                "steps": seg.steps,
                "local_steps": [seg.local_start, seg.local_end],
                "decision": seg.decision,
                "rule": seg.rule,
                "reason": seg.reason,
                "error": seg.error[-1500:],
                "restart_sha256": seg.restart_sha256,
                "wall_s": seg.wall_s,
                "recorded_at": utc_iso(seg.created_at),
            }
        )
    return {
        "state": cell_of(state).to_json() | {"chain_id": state.chain_id},
        "segments": segments,
        "samples": {"local_steps": steps, "values": series},
    }


def review_json(row: CampaignReviewRow) -> dict[str, Any]:
    """One recorded decision: who took it, what, whether it was valid and its outcome."""
    validation = json.loads(row.validation_json or "{}")
    decision = json.loads(row.decision_json or "{}")
    if not decision and isinstance(validation.get("decision"), dict):
        decision = validation["decision"]  # a refused decision is kept in its validation
    return {
        "event_id": row.event_id,
        "reviewer": row.reviewer,
        "reviewer_kind": row.reviewer_kind,
        "action": row.action or str(decision.get("action", "")),
        "valid": row.valid,
        "rationale": decision.get("rationale", ""),
        "parameter_changes": decision.get("parameter_changes", {}),
        "problems": validation.get("problems", []),
        "outcome": validation.get("outcome", ""),
        "at": utc_iso(row.created_at),
    }


def event_bundle(event: CampaignEventRow, reviews: list[CampaignReviewRow]) -> dict[str, Any]:
    """An event with its evidence bundle, the actions a human may take and its reviews."""
    directory = Path(event.directory)
    return {
        "event_id": event.id,
        "number": int(event.id.rsplit("-e", 1)[-1]) if "-e" in event.id else None,
        "kind": event.kind,
        "system": event.system,
        "condition": event.condition,
        "status": event.status,
        "message": event.message,
        "duplicate_of": event.duplicate_of,
        "raised_at": utc_iso(event.created_at),
        "resolved_at": utc_iso(event.resolved_at),
        "allowed_actions": list(allowed_actions(EventKind(event.kind), "human")),
        "event": _read(directory / EVENT_FILE),
        "evidence": _read(directory / EVIDENCE_FILE),
        "validation": _read(directory / VALIDATION_FILE),
        "reviews": [review_json(r) for r in reviews if r.event_id == event.id],
    }


def _read(path: Path) -> dict[str, Any] | None:
    try:
        return read_json(path)
    except (OSError, ValueError):
        return None
