"""Campaigns as a library: create from a spec, run, read the grid, traces and reviews, decide.

The command line, the service (``/campaigns`` routes and the dashboard) and later
clients (an MCP server) call :class:`Campaigns`. It wires the campaign package
(:mod:`simwright.campaign`) to one home: a spec is checked exactly as
``simwright campaign validate`` checks it (schema, consistency, the engine's own
checks), and a human decision on a review event is built and validated exactly as
``simwright campaign approve`` builds it (:func:`human_decision`, then
:meth:`CampaignRunner.approve`). Every action taken through this API is appended,
with who took it, to ``actions.jsonl`` in the campaign's directory; decisions are
also recorded with their reviewer in the store (``campaign_reviews``).

Errors: :class:`NotFound` (no such campaign, state or event), :class:`Conflict`
(the event is not open, or another process advances the campaign), and
:class:`~simwright.campaign.CampaignSpecError` (a refused spec, every problem named).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

import yaml

from simwright import yamlio
from simwright.api.campaign_views import (
    CampaignGrid,
    campaign_summary,
    event_bundle,
    grid_of,
    review_json,
    trace_json,
)
from simwright.api.errors import Conflict, NotFound
from simwright.campaign.engine import SegmentEngine
from simwright.campaign.lock import is_locked
from simwright.campaign.report import campaign_json, write_report
from simwright.campaign.repository import CampaignStore, StateView
from simwright.campaign.review import DecisionValidation
from simwright.campaign.runner import CampaignOutcome, CampaignRunner, resolve_event
from simwright.campaign.segment_engines import engine_names, make_engine
from simwright.campaign.spec import CampaignSpec
from simwright.campaign.spec_load import CampaignSpecError, SpecProblem, parse_spec
from simwright.campaign.status import CampaignError, EventKind, ReviewAction
from simwright.errors import ParseError
from simwright.settings import Settings
from simwright.store import Store
from simwright.store.models_campaign import CampaignEventRow, CampaignRow

EngineFactory = Callable[[str, Settings], SegmentEngine]
"""Makes the segment engine called ``name`` (default: built-ins and plugins)."""

ACTIONS_FILE: Final = "actions.jsonl"
"""The audit trail of a campaign directory: one JSON object per action taken."""

APPROVE: Final[Mapping[EventKind, ReviewAction]] = {
    EventKind.CONVERGENCE_ANOMALY: ReviewAction.ACCEPT,
    EventKind.NEEDS_REASONING: ReviewAction.ACCEPT,
    EventKind.UNKNOWN_FAILURE: ReviewAction.RETRY,
    EventKind.PROVENANCE_CONFLICT: ReviewAction.REBUILD,
    EventKind.BATCH_COMPLETE: ReviewAction.ACKNOWLEDGE,
}
"""What *approve* means for each event kind: accept the state as it stands, retry the
failed segment, rebuild the chain, acknowledge. *Reject* is always ``stop``."""


def human_decision(
    event_id: str, action: str, *, segment_steps: int | None = None, rationale: str = ""
) -> dict[str, Any]:
    """The decision a human takes (confidence 1), as ``simwright campaign approve`` builds it."""
    return {
        "event_id": event_id,
        "action": action,
        "confidence": 1.0,
        "parameter_changes": {"segment_steps": segment_steps} if segment_steps else {},
        "rationale": rationale,
    }


def parse_campaign_spec(
    data: object, source: str, settings: Settings, engines: EngineFactory = make_engine
) -> CampaignSpec:
    """Validate spec data (a mapping) with the engine it names: every problem at once."""
    segment = data.get("segment") if isinstance(data, Mapping) else None
    name = segment.get("engine") if isinstance(segment, Mapping) else None
    known = engine_names()
    checker = engines(name, settings) if isinstance(name, str) and name in known else None
    spec = parse_spec(data, source, checker)
    if checker is None:
        problem = SpecProblem(
            "segment.engine", f"unknown engine {name!r}; known: {', '.join(known)}"
        )
        raise CampaignSpecError(source, [problem])
    return spec


def spec_data(spec: Mapping[str, Any] | str) -> dict[str, Any]:
    """A spec as a mapping: given as one, or as YAML (or JSON) text."""
    if isinstance(spec, Mapping):
        return dict(spec)
    try:
        data = yamlio.safe_load(spec)
    except yaml.YAMLError as exc:
        raise ParseError(f"the campaign spec is not valid YAML: {exc}") from exc
    if not isinstance(data, dict):
        raise CampaignSpecError("the spec", [SpecProblem("(spec)", "must be a mapping of fields")])
    return data


class Campaigns:
    """Campaigns of one home: its settings, its store and the segment engines.

    ``store`` is shared with :class:`~simwright.api.Simwright` when both are used;
    ``engines`` makes a segment engine by name (tests inject their own).
    """

    def __init__(
        self, settings: Settings, store: Store, *, engines: EngineFactory = make_engine
    ) -> None:
        self.settings = settings
        self.cstore = CampaignStore(store)
        self.engines = engines

    @property
    def root(self) -> Path:
        """The folder holding campaign directories (``$SIMWRIGHT_HOME/campaigns``)."""
        return self.settings.campaigns_path

    # -- creating and running ---------------------------------------------------
    def validate(self, spec: Mapping[str, Any] | str, source: str = "the spec") -> CampaignSpec:
        """Check a spec (a mapping, or YAML text) as ``simwright campaign validate`` does."""
        return parse_campaign_spec(spec_data(spec), source, self.settings, self.engines)

    def create(self, spec: Mapping[str, Any] | str, *, who: str, source: str = "the spec") -> str:
        """Record a new campaign for a valid spec (nothing runs yet); its id."""
        loaded = self.validate(spec, source)
        text = spec if isinstance(spec, str) else ""
        campaign_id = self._runner(loaded.segment.engine).create(loaded, text)
        self.record(campaign_id, who, "create", {"spec_sha256": loaded.sha256()})
        return campaign_id

    def run(
        self,
        campaign_id: str,
        *,
        who: str,
        max_segments: int | None = None,
        max_states: int | None = None,
        report: bool = True,
    ) -> CampaignOutcome:
        """Advance a campaign here, now, until nothing can run (or a limit is reached)."""
        row = self.campaign(campaign_id)
        self.record(row.id, who, "run", {"max_segments": max_segments, "max_states": max_states})
        runner = self._runner(row.engine, report=report)
        try:
            return runner.run(row.id, max_segments=max_segments, max_states=max_states)
        except CampaignError as exc:
            raise Conflict(str(exc)) from exc

    def _runner(self, engine: str, *, report: bool = False) -> CampaignRunner:
        return CampaignRunner(
            self.cstore.store,
            self.engines(engine, self.settings),
            root=self.root,
            report=write_report if report else None,
        )

    # -- reading ------------------------------------------------------------------
    def campaign(self, campaign_id: str) -> CampaignRow:
        """The campaign with this id (or unique prefix); :class:`NotFound` otherwise."""
        try:
            return self.cstore.campaign(campaign_id)
        except CampaignError as exc:
            raise NotFound(str(exc)) from exc

    def recent(self, *, limit: int = 50, offset: int = 0) -> list[dict[str, Any]]:
        """Campaigns, newest first, each with its live status."""
        return [campaign_summary(r, self._live(r)) for r in self.cstore.campaigns(limit, offset)]

    @staticmethod
    def _live(row: CampaignRow) -> str:
        if row.status == "running" and not is_locked(Path(row.workdir)):
            return "interrupted"  # recorded as running, but no process holds its lock
        return row.status

    def advancing(self, campaign_id: str) -> bool:
        """True while some process advances the campaign (holds its lock)."""
        return is_locked(Path(self.campaign(campaign_id).workdir))

    def status(self, campaign_id: str) -> dict[str, Any]:
        """What ``simwright campaign status --json`` prints, plus the ``grid``."""
        row = self.campaign(campaign_id)
        data = campaign_json(self.cstore, row.id)
        data["grid"] = self.grid(row.id).to_json()
        data["advancing"] = is_locked(Path(row.workdir))
        return data

    def grid(self, campaign_id: str) -> CampaignGrid:
        """Systems × conditions with each state's status and a text label."""
        row = self.campaign(campaign_id)
        return grid_of(row.id, self.cstore.states(row.id))

    def state(self, campaign_id: str, system: str, condition: str) -> StateView:
        """The state (system, condition) of a campaign; :class:`NotFound` otherwise."""
        row = self.campaign(campaign_id)
        for state in self.cstore.states(row.id):
            if (state.system, state.condition) == (system, condition):
                return state
        raise NotFound(f"campaign {row.id} has no state {system}/{condition}")

    def trace(self, campaign_id: str, system: str, condition: str) -> dict[str, Any]:
        """One state's segments (seq, attempt, decision, rule, reason) and its samples."""
        data = trace_json(self.cstore, self.state(campaign_id, system, condition))
        data["campaign_id"] = self.campaign(campaign_id).id
        return data

    def reviews(self, campaign_id: str, *, status: str | None = "open") -> list[dict[str, Any]]:
        """The review queue: events (open ones by default) with their evidence bundles."""
        row = self.campaign(campaign_id)
        reviews = self.cstore.reviews(row.id)
        return [event_bundle(e, reviews) for e in self.cstore.events(row.id, status=status)]

    def review(self, campaign_id: str, event: str) -> dict[str, Any]:
        """One event (id, ``eNNNN`` or number) with its evidence bundle and reviews."""
        row = self.campaign(campaign_id)
        return event_bundle(self._event(row.id, event), self.cstore.reviews(row.id))

    def history(self, campaign_id: str) -> list[dict[str, Any]]:
        """Every decision recorded on the campaign's events (humans' and models')."""
        return [review_json(r) for r in self.cstore.reviews(self.campaign(campaign_id).id)]

    def actions(self, campaign_id: str) -> list[dict[str, Any]]:
        """The audit trail: each action taken through this API, with who took it."""
        path = Path(self.campaign(campaign_id).workdir) / ACTIONS_FILE
        if not path.is_file():
            return []
        return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]

    def _event(self, campaign_id: str, event: str) -> CampaignEventRow:
        try:
            return resolve_event(self.cstore, campaign_id, event)
        except CampaignError as exc:
            raise NotFound(str(exc)) from exc

    # -- deciding -----------------------------------------------------------------
    def decide(
        self,
        campaign_id: str,
        event: str,
        action: str,
        *,
        who: str,
        segment_steps: int | None = None,
        rationale: str = "",
    ) -> DecisionValidation:
        """Take ``action`` on an open event as the human ``who``, validated as the CLI
        validates ``approve``; the validation says whether it was applied. Resume the
        campaign afterwards to act on it."""
        row = self.campaign(campaign_id)
        found = self._event(row.id, event)
        if found.status != "open":
            raise Conflict(f"event {found.id} is {found.status}, not open")
        decision = human_decision(
            found.id, action, segment_steps=segment_steps, rationale=rationale
        )
        try:
            validation = self._runner(row.engine).approve(row.id, found.id, decision, who)
        except CampaignError as exc:
            raise Conflict(str(exc)) from exc
        details = {"event_id": found.id, "decision": action, "valid": validation.valid}
        self.record(row.id, who, "decide", details | {"outcome": validation.outcome})
        return validation

    def approve(
        self, campaign_id: str, event: str, *, who: str, rationale: str = ""
    ) -> DecisionValidation:
        """Approve an event: the action :data:`APPROVE` names for its kind."""
        found = self._event(self.campaign(campaign_id).id, event)
        action = APPROVE[EventKind(found.kind)]
        return self.decide(campaign_id, found.id, str(action), who=who, rationale=rationale)

    def reject(
        self, campaign_id: str, event: str, *, who: str, rationale: str = ""
    ) -> DecisionValidation:
        """Reject an event: ``stop`` (the state fails; the rest of its path is not run)."""
        return self.decide(campaign_id, event, str(ReviewAction.STOP), who=who, rationale=rationale)

    def record(self, campaign_id: str, who: str, action: str, details: Mapping[str, Any]) -> None:
        """Append an action taken on a campaign, with who took it, to its audit trail."""
        path = Path(self.campaign(campaign_id).workdir) / ACTIONS_FILE
        entry = {"at": datetime.now(UTC).isoformat(), "who": who, "action": action, **details}
        with path.open("a", encoding="utf-8") as f:
            f.write(json.dumps(entry, default=str) + "\n")


__all__ = [
    "APPROVE",
    "Campaigns",
    "EngineFactory",
    "human_decision",
    "parse_campaign_spec",
    "spec_data",
]
