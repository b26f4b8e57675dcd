"""Review events on disk: ``event.json`` and the ``evidence.json`` bundle, and fingerprints.

An event directory ``events/<n>-<KIND>-<system>-<condition>/`` holds:

- ``event.json`` — what happened, to which state, its fingerprint, whether it
  duplicates an earlier event, and who was asked (model or human) and why;
- ``evidence.json`` — what a reader needs to decide without opening anything
  else: the state, the stop reason, the latest analysis and the acceptance
  rules, the lineage of its restarts, the error signature, the recent segments
  with their monitor records and the recent samples;
- ``decision_validation.json`` — once a decision arrives, its validation.

Identical fingerprints (same kind, system and normalized signature) mark an
event as a duplicate: it is recorded, and waits for a human, without asking a
model again.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from simwright.campaign.repository import StateView
from simwright.campaign.status import EventKind
from simwright.store.models_campaign import CampaignArchiveRow, CampaignRow, CampaignSegmentRow

EVENT_FILE: Final = "event.json"
EVIDENCE_FILE: Final = "evidence.json"
VALIDATION_FILE: Final = "decision_validation.json"
RECENT_SEGMENTS: Final = 5
RECENT_SAMPLES: Final = 40

_NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
_PATH = re.compile(r"(?:/[\w.\-+@%]+){2,}")


@dataclass(frozen=True)
class EventDraft:
    """An event about to be raised: its kind, reason, rule, signature and details."""

    kind: EventKind
    message: str
    rule: str
    signature: str
    details: Mapping[str, Any] = field(default_factory=dict)


def normalize_signature(signature: str) -> str:
    """``signature`` with paths and numbers replaced, so that reruns compare equal."""
    return _NUMBER.sub("#", _PATH.sub("<path>", signature)).strip()


def fingerprint(kind: str, system: str, signature: str) -> str:
    """sha256 of the kind, the system and the normalized signature."""
    text = f"{kind}|{system}|{normalize_signature(signature)}"
    return hashlib.sha256(text.encode()).hexdigest()


def write_json(path: Path, data: Mapping[str, Any]) -> Path:
    """Write ``data`` as indented JSON atomically (a temporary file, then rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, default=str, ensure_ascii=False) + "\n")
    os.replace(tmp, path)
    return path


def read_json(path: Path) -> dict[str, Any]:
    """The JSON object in ``path``."""
    data = json.loads(path.read_text())
    if not isinstance(data, dict):
        raise ValueError(f"{path} does not hold a JSON object")
    return data


def event_dirname(number: int, kind: str, system: str, condition: str) -> str:
    """``0003-CONVERGENCE_ANOMALY-slit_10A-p60``."""
    parts = [f"{number:04d}", kind] + [p for p in (system, condition) if p]
    return "-".join(parts)


def state_summary(state: StateView) -> dict[str, Any]:
    """The fields of a state a reviewer needs."""
    return {
        "state_id": state.id,
        "system": state.system,
        "condition": state.condition,
        "status": state.status,
        "chain_id": state.chain_id,
        "cycles": state.cycles,
        "local_steps": state.local_steps,
        "max_local_steps": state.max_local_steps,
        "abs_step_entry": state.abs_step_entry,
        "abs_step": state.abs_step,
        "values": json.loads(state.values_json or "{}"),
    }


def segment_summary(segment: CampaignSegmentRow) -> dict[str, Any]:
    """One segment attempt as a monitor record."""
    return {
        "seq": segment.seq,
        "attempt": segment.attempt,
        "status": segment.status,
        "steps": segment.steps,
        "local_steps": [segment.local_start, segment.local_end],
        "abs_steps": [segment.abs_start, segment.abs_end],
        "decision": segment.decision,
        "rule": segment.rule,
        "reason": segment.reason,
        "monitor": json.loads(segment.monitor_json or "{}"),
        "error": segment.error[-1500:],
        "restart_sha256": segment.restart_sha256,
        "wall_s": segment.wall_s,
    }


def archive_summary(archive: CampaignArchiveRow | None) -> dict[str, Any] | None:
    """An archive's lineage record (None when there is none)."""
    if archive is None:
        return None
    return {
        "archive_id": archive.id,
        "system": archive.system,
        "condition": archive.condition,
        "chain_id": archive.chain_id,
        "path": archive.path,
        "sha256": archive.sha256,
        "abs_step": archive.abs_step,
        "restart_of_segment": archive.restart_of,
        "derived_from_archive": archive.derived_from,
        "status": archive.status,
    }


def recent_samples(segments: Sequence[CampaignSegmentRow]) -> dict[str, Any]:
    """The last samples of the state, across its last completed segments."""
    steps: list[int] = []
    values: dict[str, list[float]] = {}
    for segment in segments[-3:]:
        series = json.loads(segment.series_json or "{}")
        steps += series.get("local_steps", [])
        for name, data in series.get("values", {}).items():
            values.setdefault(name, []).extend(data)
    return {
        "local_steps": steps[-RECENT_SAMPLES:],
        "values": {k: v[-RECENT_SAMPLES:] for k, v in values.items()},
    }


@dataclass(frozen=True)
class EvidenceInputs:
    """What the evidence bundle is made of, gathered by the caller from the store."""

    campaign: CampaignRow
    state: StateView | None
    completed: Sequence[CampaignSegmentRow]
    attempts: Sequence[CampaignSegmentRow]
    start_archive: CampaignArchiveRow | None
    rules: Mapping[str, Any]
    scope: Mapping[str, Any]


def evidence(event_id: str, draft: EventDraft, fp: str, inputs: EvidenceInputs) -> dict[str, Any]:
    """The ``evidence.json`` bundle of an event."""
    latest = inputs.completed[-1] if inputs.completed else None
    return {
        "schema": "simwright.campaign.evidence/1",
        "event_id": event_id,
        "kind": str(draft.kind),
        "campaign": {
            "id": inputs.campaign.id,
            "name": inputs.campaign.name,
            "objective": inputs.campaign.objective,
            "spec_sha256": inputs.campaign.spec_sha256,
        },
        "state": state_summary(inputs.state) if inputs.state is not None else None,
        "stop_reason": draft.message,
        "rule": draft.rule,
        "analysis": json.loads(latest.analysis_json or "{}") if latest is not None else {},
        "acceptance_rules": dict(inputs.rules),
        "lineage": {
            "chain_id": inputs.state.chain_id if inputs.state is not None else None,
            "start_archive": archive_summary(inputs.start_archive),
            "last_restart": (
                {"path": latest.restart_path, "sha256": latest.restart_sha256}
                if latest is not None
                else None
            ),
        },
        "error_signature": draft.signature,
        "fingerprint": fp,
        "recent_segments": [segment_summary(s) for s in inputs.attempts[-RECENT_SEGMENTS:]],
        "recent_samples": recent_samples(inputs.completed),
        "details": dict(draft.details),
        "decision_scope": dict(inputs.scope),
    }
