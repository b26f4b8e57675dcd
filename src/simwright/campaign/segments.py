"""Running one segment of a state and committing its record once its files are complete.

The segment starts from the state's last committed restart, or from the
inherited archive, or from a fresh build — each hash-checked before use. Its
samples are converted from the engine's absolute steps to local steps (steps
since the state was entered). Once the engine has returned and the restart is
hashed, the rules judge the segment (the state passes through ``analyzing``)
and the record of the segment, its samples, the state's new counters and the
decision are committed in one transaction. An attempt whose process died leaves a
directory without a record; the next attempt records it as ``interrupted`` and
runs in a fresh directory (``seg-0003.attempt2``), from the same committed start.
"""

from __future__ import annotations

import json
import traceback
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from simwright.campaign.acceptance import StateSeries, Verdict
from simwright.campaign.archive import ProvenanceConflict, check_archive, check_segment_restart
from simwright.campaign.engine import (
    FreshStart,
    FromRestart,
    SegmentOutput,
    SegmentRequest,
    Start,
)
from simwright.campaign.repository import SegmentFields, SegmentRef, StateView
from simwright.campaign.status import CampaignError, StateStatus
from simwright.campaign.wiring import CampaignContext, derive_seed
from simwright.errors import EngineError
from simwright.processes import kill_orphaned_engine
from simwright.store.hashing import sha256_file
from simwright.store.records import EngineCall


@dataclass(frozen=True)
class Judgement:
    """The rules' verdict on a segment, committed together with the segment's record.

    ``segment`` holds the record's analysis fields, ``changes`` the state's
    status after ``analyzing``; ``series`` is the state's series with the segment.
    """

    segment: dict[str, Any]
    changes: dict[str, Any]
    verdict: Verdict
    series: StateSeries


Judge = Callable[[StateView, np.ndarray, dict[str, np.ndarray]], Judgement]
"""Judges a segment: the state as after the segment, its local steps and values."""


@dataclass(frozen=True)
class Committed:
    """The segment ran; its record and the rules' judgement on it are committed."""

    state: StateView
    segment: SegmentRef
    local_steps: np.ndarray
    values: dict[str, np.ndarray]
    judgement: Judgement


@dataclass(frozen=True)
class Failed:
    """The engine failed; the failed attempt is recorded, the state is unchanged."""

    state: StateView
    error: BaseException
    text: str


@dataclass(frozen=True)
class Refused:
    """The start restart failed its provenance check; nothing ran."""

    conflict: ProvenanceConflict


SegmentResult = Committed | Failed | Refused
"""What running one segment led to."""


class SegmentRunner:
    """Runs the next segment of a state (see the module docstring)."""

    def __init__(self, ctx: CampaignContext) -> None:
        self.ctx = ctx
        self.observables = tuple(o.name for o in ctx.spec.observables)
        self._dirs: dict[tuple[int, str], Path] = {}

    def _state_dir(self, state: StateView) -> Path:
        key = (state.id, state.chain_id)
        if key not in self._dirs:
            self._dirs[key] = self.ctx.state_dir(state)
        return self._dirs[key]

    def run(
        self, state: StateView, last: SegmentRef | None, steps: int, judge: Judge
    ) -> SegmentResult:
        """Run segment ``state.cycles + 1`` of ``steps`` local steps after ``last``.

        ``judge`` applies the rules before the record is committed, so the segment,
        its samples, the state's counters and the decision are written together.
        """
        spec = self.ctx.spec
        try:
            start = self._start(state, last)
        except ProvenanceConflict as exc:
            return Refused(exc)
        seq = state.cycles + 1
        attempt, workdir = self._attempt(state, seq, steps)
        seed = derive_seed(spec.seed, state.chain_id, state.system, state.condition, seq)
        request = SegmentRequest(
            campaign_id=self.ctx.campaign.id,
            spec=spec,
            system=spec.system(state.system),
            condition=spec.condition(state.condition),
            workdir=workdir,
            start=start,
            steps=steps,
            seed=seed,
        )
        self.ctx.observer.segment_started(state, seq, attempt, steps)
        began = self.ctx.clock()
        try:
            output = self.ctx.engine.run_segment(request)
            self._check(state, output, steps)
            digest = sha256_file(output.restart)
        except Exception as exc:  # every engine failure is recorded, then retried or escalated
            return self._failed(state, request, attempt, exc, self.ctx.clock() - began)
        wall = self.ctx.clock() - began
        return self._commit(state, request, attempt, output, digest, wall, judge)

    def _check(self, state: StateView, output: SegmentOutput, steps: int) -> None:
        output.check(steps, self.observables)
        if state.abs_step is not None and output.abs_start != state.abs_step:
            raise EngineError(
                f"segment started at absolute step {output.abs_start}, but its start was "
                f"written at step {state.abs_step}"
            )

    def _start(self, state: StateView, last: SegmentRef | None) -> Start:
        cstore = self.ctx.cstore
        if last is not None:
            check_segment_restart(cstore, state, last)
            return FromRestart(Path(last.restart_path), last.restart_sha256)
        if state.start_archive_id is None:
            return FreshStart()
        archive = cstore.archive(state.start_archive_id)
        predecessor = self.ctx.predecessor(state)
        if archive is None or predecessor is None:
            raise CampaignError(f"{state.system}/{state.condition}: its start archive is unknown")
        check_archive(cstore, archive, state, predecessor)
        return FromRestart(Path(archive.path), archive.sha256)

    # -- attempts -------------------------------------------------------------------
    def _attempt(self, state: StateView, seq: int, steps: int) -> tuple[int, Path]:
        """The next attempt number and its directory; dead attempts are recorded first."""
        base = self._state_dir(state)
        first = base / f"seg-{seq:04d}"
        if _created(first):
            return 1, first
        recorded = {r.attempt for r in self.ctx.cstore.attempts(state.id, state.chain_id, seq)}
        found = sorted(_attempt_number(p) for p in base.glob(f"seg-{seq:04d}*") if p.is_dir())
        for number in found:
            if number not in recorded:
                dead = _attempt_dir(base, seq, number)
                kill_orphaned_engine(dead)  # the engine a SIGKILLed simwright left running
                fields = self._fields(state, seq, number, dead, steps, 0)
                fields.update(
                    status="interrupted",
                    error="the process ended during this attempt; no record was committed",
                )
                self.ctx.cstore.add_segment(fields, state)
        attempt = max([*found, *recorded]) + 1
        workdir = _attempt_dir(base, seq, attempt)
        workdir.mkdir(parents=True)
        return attempt, workdir

    @staticmethod
    def _fields(
        state: StateView, seq: int, attempt: int, workdir: Path, steps: int, seed: int
    ) -> SegmentFields:
        return {
            "campaign_id": state.campaign_id,
            "state_id": state.id,
            "chain_id": state.chain_id,
            "seq": seq,
            "attempt": attempt,
            "workdir": str(workdir),
            "seed": seed,
            "steps": steps,
            "local_start": state.local_steps,
            "local_end": state.local_steps,
        }

    def _failed(
        self,
        state: StateView,
        request: SegmentRequest,
        attempt: int,
        exc: Exception,
        wall: float,
    ) -> Failed:
        seq = state.cycles + 1
        text = error_text(exc)
        call = getattr(exc, "call", None)
        fields = self._fields(state, seq, attempt, request.workdir, request.steps, request.seed)
        fields.update(
            status="failed",
            error=text,
            wall_s=wall,
            engine_json=json.dumps([call_dict(call)] if isinstance(call, EngineCall) else []),
        )
        self.ctx.cstore.add_segment(fields, state)
        self.ctx.observer.segment_finished(state, seq, "failed", wall)
        return Failed(state, exc, text)

    def _commit(
        self,
        state: StateView,
        request: SegmentRequest,
        attempt: int,
        output: SegmentOutput,
        digest: str,
        wall: float,
        judge: Judge,
    ) -> Committed:
        seq = state.cycles + 1
        elapsed = np.asarray(output.abs_steps, dtype=np.int64) - output.abs_start
        local = state.local_steps + elapsed
        values = {n: np.asarray(output.values[n], dtype=float) for n in self.observables}
        series = {
            "local_steps": local.tolist(),
            "abs_steps": np.asarray(output.abs_steps).tolist(),
            "values": {n: v.tolist() for n, v in values.items()},
        }
        start = request.start
        fields = self._fields(state, seq, attempt, request.workdir, request.steps, request.seed)
        fields.update(
            status="completed",
            local_end=state.local_steps + request.steps,
            abs_start=output.abs_start,
            abs_end=output.abs_end,
            start_sha256=start.sha256 if isinstance(start, FromRestart) else "",
            restart_path=str(output.restart),
            restart_sha256=digest,
            series_json=json.dumps(series),
            monitor_json=json.dumps(dict(output.monitor)),
            engine_json=json.dumps([call_dict(c) for c in output.engine_calls]),
            wall_s=wall,
        )
        changes: dict[str, Any] = {
            "status": StateStatus.ANALYZING,
            "cycles": seq,
            "local_steps": fields["local_end"],
            "abs_step": output.abs_end,
            "next_segment_steps": None,
        }
        if state.abs_step_entry is None:
            changes["abs_step_entry"] = output.abs_start
        judgement = judge(replace(state, **changes), local, values)
        fields.update(judgement.segment)
        changes.update(judgement.changes)
        via = StateStatus.ANALYZING if changes["status"] != StateStatus.ANALYZING else None
        segment_id, new_state = self.ctx.cstore.add_segment(fields, state, via=via, **changes)
        ref = SegmentRef(segment_id, seq, str(output.restart), digest, output.abs_end)
        self.ctx.observer.segment_finished(new_state, seq, "completed", wall)
        return Committed(new_state, ref, local, values, judgement)


def _created(directory: Path) -> bool:
    """Create ``directory`` (and its parents); False when it existed already."""
    try:
        directory.mkdir()
    except FileExistsError:
        return False
    except FileNotFoundError:
        directory.mkdir(parents=True)
    return True


def _attempt_dir(base: Path, seq: int, attempt: int) -> Path:
    suffix = f".attempt{attempt}" if attempt > 1 else ""
    return base / f"seg-{seq:04d}{suffix}"


def _attempt_number(path: Path) -> int:
    _, _, suffix = path.name.partition(".attempt")
    return int(suffix) if suffix.isdigit() else 1


def error_text(exc: BaseException) -> str:
    """An exception as text: type, message, engine output tail, traceback for bugs."""
    text = f"{type(exc).__name__}: {exc}"
    tail = getattr(exc, "tail", "")
    if tail:
        text += f"\n--- engine output (tail) ---\n{tail}"
    if not isinstance(exc, EngineError | CampaignError):
        text += "\n" + "".join(traceback.format_exception(exc, limit=6))
    return text


def call_dict(call: EngineCall) -> dict[str, Any]:
    """The provenance of one engine call as a JSON-ready dictionary."""
    return {
        "engine": call.engine,
        "command": call.command,
        "version": call.version,
        "exit_code": call.exit_code,
        "wall_s": call.wall_s,
        "workdir": call.workdir,
    }
