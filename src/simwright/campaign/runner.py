"""The :class:`CampaignRunner`: create a campaign, run or resume it, record human approvals.

Systems are advanced along the ordered path of conditions, one after the other or,
with ``jobs`` > 1, up to ``jobs`` systems side by side in threads (the engines run
as subprocesses; the states of one system always stay sequential, since each starts
from its predecessor's accepted restart). A state waiting for review or failed
stops its own system's path but not the other systems. On Ctrl-C the threads start
nothing more and the process leaves at once: a segment cut short leaves no record
and is run again on resume, as after a kill. The
runner holds the campaign's lock for as long as it advances it, so two
processes never advance one campaign; ``run`` on a campaign that was killed
simply continues it. When no state can run any more, a BATCH_COMPLETE event is
recorded and a report is written.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Final

import yaml

from simwright import __version__
from simwright.campaign.concurrent import advance_side_by_side
from simwright.campaign.cycle import Limits, StateRunner
from simwright.campaign.engine import SegmentEngine
from simwright.campaign.escalation import Escalator
from simwright.campaign.events import EventDraft, fingerprint
from simwright.campaign.lock import campaign_lock
from simwright.campaign.repository import CampaignStore, StateView
from simwright.campaign.review import DecisionValidation, RawDecision, Reviewer
from simwright.campaign.spec import CampaignSpec
from simwright.campaign.spec_load import CampaignSpecError
from simwright.campaign.status import CampaignError, EventKind, StateStatus
from simwright.campaign.wiring import (
    CampaignContext,
    CampaignObserver,
    NullObserver,
    chain_id,
)
from simwright.store.models_campaign import CampaignEventRow, CampaignRow, CampaignStateRow
from simwright.store.store import Store

S = StateStatus
SPEC_FILE: Final = "spec.yaml"


@dataclass(frozen=True)
class CampaignOutcome:
    """Where a campaign stands after a run: id, overall status and directory."""

    campaign_id: str
    status: str
    directory: Path


ReportWriter = Callable[[CampaignContext], object]
"""Writes the campaign report after a run (plots, tables); injected, may be None."""


class CampaignRunner:
    """Creates, runs and resumes campaigns with an injected engine and reviewer.

    ``root`` is the folder that holds campaign directories; ``clock`` times the
    segments (wall seconds); ``report`` writes the report after each run.
    """

    def __init__(
        self,
        store: Store,
        engine: SegmentEngine,
        *,
        root: Path,
        reviewer: Reviewer | None = None,
        observer: CampaignObserver | None = None,
        clock: Callable[[], float] = time.perf_counter,
        report: ReportWriter | None = None,
        jobs: int = 1,
    ) -> None:
        if jobs < 1:
            raise CampaignError(f"jobs must be at least 1, not {jobs}")
        self.jobs = jobs
        self.cstore = CampaignStore(store)
        self.engine = engine
        self.root = root
        self.reviewer = reviewer
        self.observer: CampaignObserver = observer or NullObserver()
        self.clock = clock
        self.report = report

    # -- creating ---------------------------------------------------------------
    def create(self, spec: CampaignSpec, spec_text: str = "") -> str:
        """Record a new campaign for ``spec`` (checked by the engine); its id."""
        if spec.segment.engine != self.engine.name:
            raise CampaignError(
                f"the spec asks for engine {spec.segment.engine!r}, this runner has "
                f"{self.engine.name!r}"
            )
        problems = self.engine.check_spec(spec)
        if problems:
            raise CampaignSpecError(spec.name, problems)
        campaign_id = f"{spec.name}-{datetime.now():%Y%m%d-%H%M%S}-{secrets.token_hex(3)}"
        directory = self.root / campaign_id
        directory.mkdir(parents=True)
        text = spec_text or yaml.safe_dump(spec.model_dump(mode="json"), sort_keys=False)
        (directory / SPEC_FILE).write_text(text)
        row = CampaignRow(
            id=campaign_id,
            name=spec.name,
            objective=spec.objective,
            spec_json=spec.canonical_json(),
            spec_sha256=spec.sha256(),
            engine=spec.segment.engine,
            status="created",
            workdir=str(directory),
            model_calls=0,
            simwright_version=__version__,
        )
        self.cstore.create(row, _initial_states(campaign_id, spec))
        return campaign_id

    def context(self, campaign_id: str) -> CampaignContext:
        """The context of a recorded campaign (its spec read back from the store)."""
        campaign = self.cstore.campaign(campaign_id)
        if campaign.engine != self.engine.name:
            raise CampaignError(
                f"campaign {campaign.id} runs on engine {campaign.engine!r}, "
                f"not {self.engine.name!r}"
            )
        spec = CampaignSpec.model_validate_json(campaign.spec_json)
        return CampaignContext(
            campaign, spec, self.cstore, self.engine, self.reviewer, self.observer, self.clock
        )

    # -- running ----------------------------------------------------------------
    def run(
        self, campaign_id: str, *, max_segments: int | None = None, max_states: int | None = None
    ) -> CampaignOutcome:
        """Advance the campaign until nothing can run (or the limits are reached)."""
        ctx = self.context(campaign_id)
        with campaign_lock(ctx.directory), self.cstore.holding():
            self.cstore.set_campaign_status(ctx.campaign.id, "running")
            escalator = Escalator(ctx)
            try:
                self._advance(ctx, escalator, Limits(max_segments, max_states))
            except KeyboardInterrupt:
                self.cstore.set_campaign_status(ctx.campaign.id, "interrupted")
                raise
            status = overall_status(self.cstore.states(ctx.campaign.id))
            if status in ("completed", "failed"):
                self._batch_complete(ctx, escalator)
            self.cstore.set_campaign_status(ctx.campaign.id, status)
            if self.report is not None:
                self.report(ctx)
        return CampaignOutcome(ctx.campaign.id, status, ctx.directory)

    def _advance(self, ctx: CampaignContext, escalator: Escalator, limits: Limits) -> None:
        states = StateRunner(ctx, escalator)
        systems = [system.name for system in ctx.spec.systems]
        if self.jobs == 1 or len(systems) == 1:
            for system in systems:
                self._advance_system(ctx, states, system, limits)
        else:
            advance_side_by_side(
                systems,
                min(self.jobs, len(systems)),
                lambda system: self._advance_system(ctx, states, system, limits),
                limits.stop,
            )

    def _advance_system(
        self, ctx: CampaignContext, states: StateRunner, system: str, limits: Limits
    ) -> None:
        for state in self._path(ctx, system):
            if limits.spent() or state.status in (S.NEEDS_REVIEW, S.FAILED):
                break
            state = states.advance(self.cstore.state(state.id), limits)
            if state.status != S.ARCHIVED:
                break

    def _path(self, ctx: CampaignContext, system: str) -> list[StateView]:
        return [s for s in self.cstore.states(ctx.campaign.id) if s.system == system]

    def _batch_complete(self, ctx: CampaignContext, escalator: Escalator) -> None:
        states = self.cstore.states(ctx.campaign.id)
        settled = sorted(f"{s.system}/{s.condition}:{s.status}:{s.chain_id}" for s in states)
        signature = "batch|" + "|".join(settled)
        fp = fingerprint(EventKind.BATCH_COMPLETE, "", signature)
        if self.cstore.first_with_fingerprint(ctx.campaign.id, fp) is not None:
            return
        archived = sum(s.status == S.ARCHIVED for s in states)
        failed = len(states) - archived
        message = f"all {len(states)} states settled: {archived} archived, {failed} failed"
        details = {"states": [_state_brief(s) for s in states]}
        escalator.raise_event(
            None,
            EventDraft(EventKind.BATCH_COMPLETE, message, "batch_complete", signature, details),
        )

    # -- reviewing ----------------------------------------------------------------
    def approve(
        self, campaign_id: str, event_id: str, decision: RawDecision, reviewer: str
    ) -> DecisionValidation:
        """Record a human's decision on an open event (validated like a model's)."""
        ctx = self.context(campaign_id)
        with campaign_lock(ctx.directory):
            event = resolve_event(self.cstore, ctx.campaign.id, event_id)
            if event.status != "open":
                raise CampaignError(f"event {event.id} is {event.status}, not open")
            validation = Escalator(ctx).record(event, decision, reviewer, "human")
            if validation.valid:
                status = overall_status(self.cstore.states(ctx.campaign.id))
                self.cstore.set_campaign_status(ctx.campaign.id, status)
        return validation


def _initial_states(campaign_id: str, spec: CampaignSpec) -> list[CampaignStateRow]:
    return [
        CampaignStateRow(
            campaign_id=campaign_id,
            system=system.name,
            condition=condition.name,
            system_index=i,
            condition_index=j,
            status=S.PENDING,
            chain_id=chain_id(system.name, 1),
            cycles=0,
            local_steps=0,
            max_local_steps=spec.continuation.max_local_steps,
            stop_reason="",
            values_json="{}",
        )
        for i, system in enumerate(spec.systems)
        for j, condition in enumerate(spec.conditions)
    ]


def _state_brief(state: StateView) -> dict[str, Any]:
    return {
        "system": state.system,
        "condition": state.condition,
        "status": state.status,
        "cycles": state.cycles,
        "local_steps": state.local_steps,
        "chain_id": state.chain_id,
    }


def overall_status(states: list[StateView]) -> str:
    """completed, needs_review, failed (nothing left to run) or paused."""
    if all(s.status == S.ARCHIVED for s in states):
        return "completed"
    if any(s.status == S.NEEDS_REVIEW for s in states):
        return "needs_review"
    systems: dict[str, list[StateView]] = {}
    for state in states:
        systems.setdefault(state.system, []).append(state)
    for path in systems.values():
        for state in sorted(path, key=lambda s: s.condition_index):
            if state.status == S.FAILED:
                break
            if state.status != S.ARCHIVED:
                return "paused"
    return "failed"


def resolve_event(cstore: CampaignStore, campaign_id: str, text: str) -> CampaignEventRow:
    """An event by full id, by its ``eNNNN`` suffix or by its number."""
    candidates = [text, f"{campaign_id}-{text}"]
    if text.isdigit():
        candidates.append(f"{campaign_id}-e{int(text):04d}")
    events: Mapping[str, CampaignEventRow] = {e.id: e for e in cstore.events(campaign_id)}
    for candidate in candidates:
        if candidate in events:
            return events[candidate]
    raise CampaignError(f"campaign {campaign_id} has no event {text!r}")
