"""Advancing one state: initialize, then run -> analyze -> decide cycles until it settles.

Every step of a state is a committed record, so a process killed anywhere
resumes where it stopped:

- ``pending``/``initializing``: check the predecessor's archive (provenance), start;
- ``running``: run the next segment (:mod:`simwright.campaign.segments`), pass
  through ``analyzing`` — the acceptance rules judge the samples — and commit the
  segment's record, the state's counters and the decision together: run again,
  accept, fail, or (committed as ``analyzing``) raise a review event; a failed
  attempt is retried up to ``max_attempts`` times, then UNKNOWN_FAILURE;
- ``analyzing`` (found on resume): judge the committed samples again and act;
- ``accepted``: archive the last restart (-> ``archived``).
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simwright.campaign.acceptance import (
    Accept,
    Anomaly,
    Continue,
    Escalate,
    StateSeries,
    Stop,
    Verdict,
    analyze,
    decide,
    find_anomalies,
    path_check,
)
from simwright.campaign.archive import ProvenanceConflict, archive_state, check_inheritance
from simwright.campaign.decisions import load_series
from simwright.campaign.escalation import Escalator
from simwright.campaign.events import EventDraft, normalize_signature
from simwright.campaign.repository import SegmentRef, StateView
from simwright.campaign.segments import Failed, Judgement, Refused, SegmentRunner
from simwright.campaign.status import CampaignError, EventKind, StateStatus
from simwright.campaign.wiring import CampaignContext

S = StateStatus


@dataclass
class Limits:
    """How much one invocation may still do (None: no limit); shared by the threads that
    advance systems side by side (``stop`` set: do nothing more)."""

    segments: int | None = None
    states: int | None = None
    stop: threading.Event = field(default_factory=threading.Event)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def spent(self) -> bool:
        """True when either limit is used up or a stop was asked for."""
        used_up = [n is not None and n <= 0 for n in (self.segments, self.states)]
        return any(used_up) or self.stop.is_set()

    def use_segment(self) -> None:
        """Count one segment run."""
        with self._lock:
            if self.segments is not None:
                self.segments -= 1

    def use_state(self) -> None:
        """Count one state archived."""
        with self._lock:
            if self.states is not None:
                self.states -= 1


@dataclass(frozen=True)
class _Memory:
    """What the runner remembers of a state between cycles (reloaded when stale)."""

    chain_id: str
    cycles: int
    last: SegmentRef | None
    series: StateSeries
    latest: tuple[np.ndarray, dict[str, np.ndarray]]


class StateRunner:
    """Advances the states of one campaign (see the module docstring)."""

    def __init__(self, ctx: CampaignContext, escalator: Escalator) -> None:
        self.ctx = ctx
        self.escalator = escalator
        self.segments = SegmentRunner(ctx)
        self._memory: dict[int, _Memory] = {}
        self._failures: dict[int, int] = {}

    def advance(self, state: StateView, limits: Limits) -> StateView:
        """Advance ``state`` until it is archived, failed, waiting for review, or limits hit."""
        while not limits.spent():
            status = S(state.status)
            if status in (S.ARCHIVED, S.FAILED, S.NEEDS_REVIEW):
                break
            if status in (S.PENDING, S.INITIALIZING):
                state = self._initialize(state)
            elif status is S.RUNNING:
                state = self._run(state, limits)
            elif status is S.ANALYZING:
                state = self._analyze(state)
            else:
                state = self._archive(state, limits)
            self.ctx.observer.state_changed(state)
        return state

    # -- initializing -------------------------------------------------------------
    def _initialize(self, state: StateView) -> StateView:
        cstore = self.ctx.cstore
        if state.status == S.PENDING:
            state = cstore.update_state(state, status=S.INITIALIZING)
        predecessor = self.ctx.predecessor(state)
        if predecessor is None:
            return cstore.update_state(state, status=S.RUNNING, start_archive_id=None)
        try:
            archive = check_inheritance(cstore, state, predecessor)
        except ProvenanceConflict as exc:
            return self._conflict(state, exc)
        return cstore.update_state(
            state,
            status=S.RUNNING,
            start_archive_id=archive.id,
            abs_step_entry=archive.abs_step,
            abs_step=archive.abs_step,
        )

    def _conflict(self, state: StateView, exc: ProvenanceConflict) -> StateView:
        draft = EventDraft(
            EventKind.PROVENANCE_CONFLICT,
            str(exc),
            "restart_not_on_accepted_chain",
            exc.signature,
            exc.details(),
        )
        return self._escalate(state, draft)

    def _escalate(self, state: StateView, draft: EventDraft) -> StateView:
        self.escalator.raise_event(state, draft)
        return self.ctx.cstore.state(state.id)

    # -- running ------------------------------------------------------------------
    def _run(self, state: StateView, limits: Limits) -> StateView:
        left = state.max_local_steps - state.local_steps
        if left <= 0:
            return self.ctx.cstore.update_state(state, status=S.ANALYZING)
        steps = min(state.next_segment_steps or self.ctx.spec.continuation.segment_steps, left)
        memory = self._remember(state)

        def judge(after: StateView, local: np.ndarray, values: dict[str, np.ndarray]) -> Judgement:
            series = memory.series.extend(local, values)
            return self._judge(after, series, find_anomalies(self.ctx.spec, local, values))

        result = self.segments.run(state, memory.last, steps, judge)
        if isinstance(result, Refused):
            return self._conflict(state, result.conflict)
        if isinstance(result, Failed):
            return self._failed(state, result)
        limits.use_segment()
        self._failures[state.id] = 0
        self._memory[state.id] = _Memory(
            state.chain_id,
            result.state.cycles,
            result.segment,
            result.judgement.series,
            (result.local_steps, result.values),
        )
        return self._follow_up(result.state, result.judgement)

    def _failed(self, state: StateView, failed: Failed) -> StateView:
        failures = self._failures.get(state.id, 0) + 1
        self._failures[state.id] = failures
        if failures < self.ctx.spec.continuation.max_attempts:
            return state
        self._failures[state.id] = 0
        exc = failed.error
        first_line = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        signature = f"{type(exc).__name__}: {normalize_signature(first_line)}"
        message = f"segment {state.cycles + 1} failed {failures} time(s): {first_line}"
        details = {"attempts": failures, "error": failed.text[-3000:]}
        draft = EventDraft(EventKind.UNKNOWN_FAILURE, message, "engine_failed", signature, details)
        return self._escalate(state, draft)

    def _remember(self, state: StateView) -> _Memory:
        memory = self._memory.get(state.id)
        if memory is not None and (memory.chain_id, memory.cycles) == (
            state.chain_id,
            state.cycles,
        ):
            return memory
        row = self.ctx.cstore.last_completed(state.id, state.chain_id)
        names = tuple(o.name for o in self.ctx.spec.observables)
        latest: tuple[np.ndarray, dict[str, np.ndarray]] = (
            np.zeros(0, dtype=np.int64),
            {n: np.zeros(0) for n in names},
        )
        if row is not None:
            data = json.loads(row.series_json)
            values = {n: np.asarray(data["values"][n], dtype=float) for n in names}
            latest = (np.asarray(data["local_steps"], dtype=np.int64), values)
        last = SegmentRef.of(row) if row is not None else None
        memory = _Memory(state.chain_id, state.cycles, last, load_series(self.ctx, state), latest)
        self._memory[state.id] = memory
        return memory

    # -- analyzing ------------------------------------------------------------------
    def _judge(
        self, state: StateView, series: StateSeries, anomalies: tuple[Anomaly, ...]
    ) -> Judgement:
        """The rules on ``state`` (as after its latest segment): decision and changes."""
        spec = self.ctx.spec
        analysis = analyze(spec, series, state.local_steps, anomalies)
        verdict: Verdict = decide(spec, analysis, state.max_local_steps)
        changes: dict[str, Any] = {}
        if isinstance(verdict, Accept):
            changes["values_json"] = json.dumps(verdict.values)
            verdict = self._path_check(state, verdict)
            if isinstance(verdict, Accept):
                changes["status"] = S.ACCEPTED
        elif isinstance(verdict, Continue):
            changes["status"] = S.RUNNING
        elif isinstance(verdict, Stop):
            changes.update(status=S.FAILED, stop_reason=verdict.reason)
        segment = {
            "analysis_json": json.dumps(analysis.as_dict()),
            "decision": _decision(verdict),
            "rule": verdict.rule,
            "reason": verdict.reason[:4000],
        }
        return Judgement(segment, changes, verdict, series)

    def _analyze(self, state: StateView) -> StateView:
        """Judge a state left in ``analyzing`` (its decision was not yet acted on)."""
        memory = self._remember(state)
        if memory.last is None:
            raise CampaignError(f"{state.system}/{state.condition}: nothing to analyze")
        anomalies = find_anomalies(self.ctx.spec, *memory.latest)
        judgement = self._judge(state, memory.series, anomalies)
        state = self.ctx.cstore.update_segment(
            memory.last.id, state, judgement.changes, **judgement.segment
        )
        return self._follow_up(state, judgement)

    def _follow_up(self, state: StateView, judgement: Judgement) -> StateView:
        verdict = judgement.verdict
        if not isinstance(verdict, Escalate):
            return state
        details = {"analysis": json.loads(judgement.segment["analysis_json"])}
        draft = EventDraft(verdict.kind, verdict.reason, verdict.rule, verdict.signature, details)
        return self._escalate(state, draft)

    def _path_check(self, state: StateView, verdict: Accept) -> Accept | Escalate:
        trigger = self.ctx.spec.review.triggers.monotonic
        if trigger is None:
            return verdict
        predecessor = self.ctx.predecessor(state)
        previous = json.loads(predecessor.values_json) if predecessor is not None else None
        return path_check(trigger, previous, verdict.values) or verdict

    # -- accepted -> archived -------------------------------------------------------
    def _archive(self, state: StateView, limits: Limits) -> StateView:
        last = self._remember(state).last
        if last is None:
            raise CampaignError(f"{state.system}/{state.condition}: accepted with no segment")
        try:
            state = archive_state(self.ctx.cstore, self.ctx.directory, state, last)
        except ProvenanceConflict as exc:
            return self._conflict(state, exc)
        limits.use_state()
        return state


def _decision(verdict: Verdict) -> str:
    if isinstance(verdict, Accept):
        return "accept"
    if isinstance(verdict, Continue):
        return "continue"
    if isinstance(verdict, Stop):
        return "stop"
    return "escalate"
