"""The :class:`Runner` executes a graph step by step, recording everything, and resumes.

Each step attempt is bracketed by two transactions: ``begin_step`` when it starts
and ``finish_step`` when it ends, the latter writing the step's artifacts, engine
calls, decisions, events, its successor and the run's status at once. A run killed
at any moment therefore resumes from its last completed step: that step's
recorded successor is executed next, and completed steps never run again.
"""

from __future__ import annotations

import json
import secrets
import shutil
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from simwright import __version__
from simwright.errors import EngineError, GraphError, NeedsReview, SimwrightError, StoreError
from simwright.graph import codec
from simwright.graph.artifacts import check_required
from simwright.graph.context import RunContext
from simwright.graph.decision import Decider
from simwright.graph.graph import Graph
from simwright.graph.hooks import CompletionHook, call_hooks
from simwright.graph.lock import run_lock
from simwright.graph.observer import NullObserver, RunObserver
from simwright.graph.step import Done, Step, upgraded
from simwright.jobs import JobRunnerFactory, JobScope
from simwright.processes import kill_orphaned_engine
from simwright.settings import Settings
from simwright.store.records import EngineCall, EventRecord, StepOutcome
from simwright.store.store import Store


@dataclass(frozen=True)
class RunOutcome:
    """How a run ended (for now): its id, status, result or error, and directory."""

    run_id: str
    status: str
    run_dir: Path
    result: Any = None
    error: str | None = None


INTERRUPTED = "interrupted by the user or the system; `simwright resume` continues it"
KILLED = "the process running this attempt died (killed); the step was attempted again"


def new_run_id() -> str:
    """A sortable, unique run id: ``YYYYMMDD-HHMMSS-xxxxxx``."""
    return datetime.now().strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(3)


class Runner:
    """Runs graphs with a store, settings, an optional decider and an observer.

    ``jobs`` (if given) gives each step attempt the runner of its engine calls
    (:mod:`simwright.executors`: a local pool or a batch scheduler). ``hooks`` are
    called once a run has completed and its result is committed (the knowledge graph's
    automatic ingestion); a failing hook is a logged warning, never a failed run.
    """

    def __init__(
        self,
        store: Store,
        settings: Settings,
        *,
        decider: Decider | None = None,
        observer: RunObserver | None = None,
        jobs: JobRunnerFactory | None = None,
        hooks: Sequence[CompletionHook] = (),
    ) -> None:
        self.store = store
        self.settings = settings
        self.decider = decider
        self.observer: RunObserver = observer or NullObserver()
        self.jobs = jobs
        self.hooks = tuple(hooks)

    # -- public -------------------------------------------------------------
    def start(
        self, graph: Graph, first: Step, *, protocol: str, params: Any = None, request: str = ""
    ) -> RunOutcome:
        """Create a run of ``graph`` starting at ``first`` and execute it.

        The run row and its first step are written in one transaction while the run's
        lock is held, so a process killed at any moment leaves a run that resumes.
        """
        if type(first) is not graph.entry:
            raise GraphError(
                f"graph {graph.name!r} starts at {graph.entry.label()}, not {type(first).label()}"
            )
        run_id = new_run_id()
        run_dir = self.settings.runs_path / run_id
        run_dir.mkdir(parents=True)
        with run_lock(run_dir):
            try:
                self.store.create_run(
                    run_id,
                    protocol,
                    request=request,
                    params_json=codec.dumps(params),
                    workdir=str(run_dir),
                    version=__version__,
                    entry_json=codec.dumps(first),
                )
            except Exception:
                shutil.rmtree(run_dir, ignore_errors=True)  # no run row: leave no directory
                raise
            outcome = self._interruptible(run_id, run_dir, graph, lambda: (first, 1, 1))
        return self._after(outcome)

    def create(
        self, graph: Graph, first: Step, *, protocol: str, params: Any = None, request: str = ""
    ) -> str:
        """Create a run of ``graph`` starting at ``first`` without executing it; returns its id.

        The run is recorded as ``queued`` with its first step, so :meth:`resume` (in
        another process, later) executes it from step 1.
        """
        if type(first) is not graph.entry:
            raise GraphError(
                f"graph {graph.name!r} starts at {graph.entry.label()}, not {type(first).label()}"
            )
        run_id = new_run_id()
        run_dir = self.settings.runs_path / run_id
        run_dir.mkdir(parents=True)
        try:
            self.store.create_run(
                run_id,
                protocol,
                request=request,
                params_json=codec.dumps(params),
                workdir=str(run_dir),
                version=__version__,
                entry_json=codec.dumps(first),
                status="queued",
            )
        except Exception:
            shutil.rmtree(run_dir, ignore_errors=True)  # no run row: leave no directory
            raise
        return run_id

    def resume(self, graph: Graph, run_id: str) -> RunOutcome:
        """Continue an interrupted, failed or waiting run from its last completed step.

        Refuses (:class:`StoreError`) when a recorded file the remaining steps depend on,
        directly or through the steps that produced their inputs, is missing or changed.
        """
        run = self.store.get_run(run_id)
        run_dir = Path(run.workdir)
        if run.status == "completed":
            result = codec.loads(run.result_json) if run.result_json else None
            return RunOutcome(run.id, "completed", run_dir, result)
        with run_lock(run_dir):
            step, seq, attempt = self._resume_point(run.id, run_dir)
            check_required(self.store, run.id, run_dir, step)

            def begin() -> tuple[Step, int, int]:
                verb = "starting" if run.status == "queued" else "resuming"
                msg = f"{verb} at step {seq} {type(step).label()} (attempt {attempt})"
                self.store.set_run_status(run.id, "running", event=EventRecord("resumed", msg))
                return step, seq, attempt

            outcome = self._interruptible(run.id, run_dir, graph, begin)
        return self._after(outcome)

    # -- internals ------------------------------------------------------------
    def _after(self, outcome: RunOutcome) -> RunOutcome:
        """Call the completion hooks of a completed run (its lock released, its result
        committed); a hook's failure is logged and leaves the outcome as it is."""
        if outcome.status == "completed":
            call_hooks(self.hooks, self.store, outcome.run_id)
        return outcome

    def _resume_point(self, run_id: str, run_dir: Path) -> tuple[Step, int, int]:
        steps = self.store.steps(run_id)
        if not steps:
            entry = [e for e in self.store.events(run_id) if e.kind == "entry"]
            if not entry:
                raise StoreError(f"run {run_id} has no recorded first step")
            return upgraded(codec.loads(json.loads(entry[0].payload_json)["step"])), 1, 1
        last = steps[-1]
        if last.status != "completed" and kill_orphaned_engine(run_dir / last.workdir):
            self.store.add_event(
                run_id,
                EventRecord("orphan_stopped", f"stopped the engine left running in {last.workdir}"),
            )
        if last.status == "running":  # we hold the lock: the process running it died
            self.store.mark_step(run_id, last.id, "killed", KILLED)
        if last.status == "completed":
            if last.successor_json is None:
                raise StoreError(f"run {run_id}: step {last.seq} completed without a successor")
            return upgraded(codec.loads(last.successor_json)), last.seq + 1, 1
        return upgraded(codec.loads(last.step_json)), last.seq, last.attempt + 1

    def _interruptible(
        self,
        run_id: str,
        run_dir: Path,
        graph: Graph,
        begin: Callable[[], tuple[Step, int, int]],
    ) -> RunOutcome:
        """Run from the point ``begin`` returns; an interrupt anywhere (inside a step, between
        steps, while recording) marks the run and its running attempt ``interrupted``."""
        try:
            step, seq, attempt = begin()
            return self._loop(run_id, run_dir, graph, step, seq=seq, attempt=attempt)
        except KeyboardInterrupt:
            self.store.mark_interrupted(run_id, INTERRUPTED)
            return RunOutcome(run_id, "interrupted", run_dir, None, INTERRUPTED)

    def _loop(
        self, run_id: str, run_dir: Path, graph: Graph, step: Step, *, seq: int, attempt: int
    ) -> RunOutcome:
        while True:
            outcome, nxt = self._execute(run_id, run_dir, graph, step, seq, attempt)
            if outcome is not None:
                return outcome
            assert nxt is not None
            step, seq, attempt = nxt, seq + 1, 1

    def _execute(
        self, run_id: str, run_dir: Path, graph: Graph, step: Step, seq: int, attempt: int
    ) -> tuple[RunOutcome | None, Step | None]:
        label = type(step).label()
        if type(step) not in graph.steps:
            raise GraphError(f"step {label} is not part of graph {graph.name!r}")
        suffix = f".attempt{attempt}" if attempt > 1 else ""
        workdir = run_dir / "steps" / f"{seq:03d}-{label}{suffix}"
        workdir.mkdir(parents=True, exist_ok=True)
        step_json = codec.dumps(step)
        step_id = self.store.begin_step(
            run_id,
            seq=seq,
            attempt=attempt,
            name=label,
            step_json=step_json,
            inputs_hash=codec.value_hash(step),
            workdir=workdir.relative_to(run_dir).as_posix(),  # recorded relative to the run
        )
        ctx = RunContext(
            run_id=run_id,
            seq=seq,
            attempt=attempt,
            workdir=workdir,
            run_dir=run_dir,
            settings=self.settings,
            allowed=graph.edges[label],
            decider=self.decider,
            observer=self.observer,
            jobs=self.jobs(JobScope(run_id, seq, step_id, run_dir)) if self.jobs else None,
        )
        self.observer.step_started(run_id, seq, label, attempt)
        start = time.perf_counter()
        try:
            result = step.run(ctx)
            if not graph.allows(type(step), result):
                raise GraphError(
                    f"undeclared transition {label} -> {_name(result)}; "
                    f"{label} declares: {', '.join(graph.edges[label])}"
                )
        except NeedsReview as exc:
            return self._stop(ctx, step_id, start, "needs_review", str(exc), label), None
        except KeyboardInterrupt:
            # Ctrl-C, SIGTERM or SIGHUP (the CLI maps them): record; resume continues later.
            return self._stop(ctx, step_id, start, "interrupted", INTERRUPTED, label), None
        except GraphError as exc:
            self._stop(ctx, step_id, start, "failed", str(exc), label)
            raise
        except SimwrightError as exc:
            if isinstance(exc, EngineError) and isinstance(exc.call, EngineCall):
                ctx.engine_call(exc.call)
            return self._stop(ctx, step_id, start, "failed", _describe(exc), label), None
        except Exception as exc:
            msg = f"internal error in {label}: {exc!r}\n{traceback.format_exc(limit=8)}"
            return self._stop(ctx, step_id, start, "failed", msg, label), None
        wall = time.perf_counter() - start
        if isinstance(result, Done):
            self.store.finish_step(
                run_id,
                self._outcome(
                    ctx,
                    step_id,
                    "completed",
                    wall,
                    successor="Done",
                    run_status="completed",
                    run_result_json=codec.dumps(result.result),
                ),
            )
            self.observer.step_finished(run_id, seq, label, "completed", wall)
            return RunOutcome(run_id, "completed", run_dir, result.result), None
        nxt_label = type(result).label()
        self.store.finish_step(
            run_id,
            self._outcome(
                ctx,
                step_id,
                "completed",
                wall,
                successor=nxt_label,
                successor_json=codec.dumps(result),
            ),
        )
        self.observer.step_finished(run_id, seq, label, "completed", wall)
        return None, result

    def _stop(
        self, ctx: RunContext, step_id: int, start: float, status: str, error: str, label: str
    ) -> RunOutcome:
        """Record a step that ended without a successor; the run takes the step's status."""
        wall = time.perf_counter() - start
        ctx.event(f"step_{status}", error.splitlines()[0] if error else status)
        self.store.finish_step(
            ctx.run_id,
            self._outcome(
                ctx, step_id, status, wall, error=error, run_status=status, run_error=error
            ),
        )
        self.observer.step_finished(ctx.run_id, ctx.seq, label, status, wall)
        return RunOutcome(ctx.run_id, status, ctx.run_dir, None, error)

    @staticmethod
    def _outcome(ctx: RunContext, step_id: int, status: str, wall: float, **kw: Any) -> StepOutcome:
        decided_by = kw.pop("decided_by", None) or ctx.decided_by
        if decided_by is None and kw.get("successor"):
            decided_by = "only-successor" if len(ctx.allowed) == 1 else "code"
        return StepOutcome(
            step_id=step_id,
            status=status,
            wall_s=wall,
            decided_by=decided_by,
            reason=ctx.reason,
            structure_json=json.dumps(ctx.structures) if ctx.structures else None,
            artifacts=tuple(ctx.artifacts),
            engine_calls=tuple(ctx.engine_calls),
            decisions=tuple(ctx.decisions),
            events=tuple(ctx.events),
            **kw,
        )


def _name(result: object) -> str:
    return "Done" if isinstance(result, Done) else type(result).__name__


def _describe(exc: SimwrightError) -> str:
    if isinstance(exc, EngineError) and exc.tail:
        return f"{exc}\n--- engine output (tail) ---\n{exc.tail}"
    return str(exc)
