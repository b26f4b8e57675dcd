"""An executor works one subtask: attempts, escalation, consultation, completion review.

Each attempt gets its own working directory (``<subtask>/attemptN``), a fresh
short-term memory (no message history), the inputs of the subtasks it depends
on, a resembling past episode as an example when memory has one, and an
iteration limit (model requests). A failed attempt — abort, iteration limit,
invalid replies beyond repair, critic turn budget spent — is retried with reset
memory on the next tier of the executor's models, within the subtask's retry
budget. A Malicious vote fails the subtask at once, without retry.

A ``complete_task`` missing required outputs is sent back once (the executor is
consulted); other executors than LAMMPS then pass the committee's completion
review before the subtask is final.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from pydantic_ai import Agent, capture_run_messages
from pydantic_ai.messages import ModelMessage
from pydantic_ai.usage import RunUsage, UsageLimits

from simwright.agents.errors import AttemptFailed, SubtaskFailed
from simwright.agents.execution.adapters import EngineAdapter
from simwright.agents.execution.docs_search import DocsTool
from simwright.agents.execution.examples import Episode, EpisodicMemory
from simwright.agents.execution.toolbox import ExecutorDeps, executor_agent
from simwright.agents.execution.transcript import save_transcript, transcript
from simwright.agents.replies import AbortTask, CompleteTask, OutputValue, SubtaskSpec
from simwright.agents.review.critics import Committee
from simwright.agents.review.reports import SubtaskReport, relative, structure_summaries
from simwright.agents.setup.bundle import AgentContext
from simwright.agents.setup.config import ModelRef
from simwright.agents.setup.tiers import RECOVERABLE, describe, tier_for_attempt
from simwright.agents.usage.records import AgentRecorder

RETRYABLE: tuple[type[Exception], ...] = (AttemptFailed, *RECOVERABLE)
"""Errors that fail one attempt; the next attempt starts with fresh memory."""
CONSULT_ERRORS: tuple[type[Exception], ...] = (SubtaskFailed, *RETRYABLE)


@dataclass
class Session:
    """The short-term memory of an executor's last attempt, kept for consultation."""

    deps: ExecutorDeps
    messages: list[ModelMessage]
    ref: ModelRef
    usage: RunUsage
    attempt: int


class Executor:
    """Runs subtasks of one engine."""

    def __init__(
        self,
        ctx: AgentContext,
        adapter: EngineAdapter,
        *,
        committee: Committee,
        docs: DocsTool,
        memory: EpisodicMemory,
        root: Path,
        recorder: AgentRecorder | None = None,
    ) -> None:
        self.ctx = ctx
        self.adapter = adapter
        self.committee = committee
        self.docs = docs
        self.memory = memory
        self.root = root
        self.recorder = recorder
        self.agent: Agent[ExecutorDeps, CompleteTask | AbortTask] = executor_agent(adapter)

    async def execute(
        self, spec: SubtaskSpec, inputs: Sequence[Path], folder: Path
    ) -> tuple[SubtaskReport, Session | None]:
        """Work ``spec`` in ``folder`` with ``inputs`` copied in; its report and last session."""
        settings = self.ctx.settings
        errors: list[str] = []
        session: Session | None = None
        for attempt in range(1, settings.subtask_attempts + 1):
            tier, ref = tier_for_attempt(settings.role("executor"), attempt)
            workdir = folder / f"attempt{attempt}"
            deps = self._deps(spec, workdir, inputs)
            session = Session(deps, [], ref, RunUsage(), attempt)
            self.ctx.note(
                "attempt_started",
                f"{spec.id} attempt {attempt} with {ref.name} (tier {tier + 1})",
                subtask=spec.id,
                model=ref.name,
            )
            start = time.perf_counter()
            try:
                done = await self._converse(session, self._prompt(spec, workdir))
            except SubtaskFailed as exc:
                self._record(session, "failed", str(exc), start)
                failed = self._failed(spec, str(exc), attempt, folder)
                return replace(failed, review_failed=True), session
            except RETRYABLE as exc:
                errors.append(f"attempt {attempt} ({ref.name}): {describe(exc)}")
                self._record(session, "failed", describe(exc), start)
                self.memory.remember(self._episode(session, "failure", {}))
                continue
            self._record(session, "completed", None, start)
            self.memory.remember(self._episode(session, "success", done.outputs))
            return self._report(spec, done, session, folder), session
        return self._failed(spec, "; ".join(errors), settings.subtask_attempts, folder), session

    async def consult(self, session: Session, question: str) -> SubtaskReport:
        """Ask the executor of a finished subtask ``question``; it reports again."""
        spec = session.deps.spec
        start = time.perf_counter()
        session.usage = RunUsage()  # a consultation has its own iteration limit
        try:
            done = await self._converse(session, f"The orchestrator asks: {question}")
        except CONSULT_ERRORS as exc:
            self._record(session, "failed", f"consultation: {exc}", start)
            return self._failed(
                spec, f"consultation failed: {exc}", session.attempt, session.deps.workdir.parent
            )
        self._record(session, "completed", None, start)
        return self._report(spec, done, session, session.deps.workdir.parent)

    # -- the conversation -----------------------------------------------------
    async def _ask(self, session: Session, prompt: str) -> CompleteTask | AbortTask:
        model = self.ctx.metered(session.ref, role="executor", subtask=session.deps.spec.id)
        with capture_run_messages() as captured:
            try:
                result = await self.agent.run(
                    prompt,
                    deps=session.deps,
                    model=model,
                    message_history=session.messages or None,
                    usage=session.usage,
                    usage_limits=UsageLimits(request_limit=self.ctx.settings.executor_iterations),
                )
            except BaseException:
                session.messages = list(captured)
                save_transcript(session.messages, session.deps.workdir / "transcript.json")
                raise
        session.messages = result.all_messages()
        save_transcript(session.messages, session.deps.workdir / "transcript.json")
        return result.output

    async def _converse(self, session: Session, prompt: str) -> CompleteTask:
        deps = session.deps
        out = await self._ask(session, prompt)
        consulted = False
        while True:
            if isinstance(out, AbortTask):
                raise AttemptFailed(f"the executor aborted: {out.reason}")
            missing = [n for n in deps.spec.required_outputs if n not in out.outputs]
            if missing and not consulted:
                consulted = True
                out = await self._ask(
                    session,
                    f"Your report lacks the required output(s) {', '.join(missing)}. Report "
                    "them with complete_task (each from a file), or call abort_task if they "
                    "cannot be had.",
                )
                continue
            if self.adapter.gated or not self.committee.size:
                return out
            review = await deps.review(
                "completion", f"completion of {deps.spec.id}", transcript(session.messages)
            )
            if review.verdict == "pass":
                return out
            deps.revise_turn()
            out = await self._ask(
                session, f"The review committee asks for changes:\n{review.feedback}"
            )

    # -- helpers -----------------------------------------------------------------
    def _deps(self, spec: SubtaskSpec, workdir: Path, inputs: Sequence[Path]) -> ExecutorDeps:
        workdir.mkdir(parents=True, exist_ok=True)
        for path in inputs:
            target = workdir / path.name
            if not target.exists():
                shutil.copyfile(path, target)
        return ExecutorDeps(spec, self.adapter, workdir, self.ctx, self.committee, self.docs)

    def _prompt(self, spec: SubtaskSpec, workdir: Path) -> str:
        files = sorted(p.name for p in workdir.iterdir() if p.is_file())
        lines = [f"Subtask {spec.id}: {spec.instruction}"]
        if spec.required_outputs:
            lines.append(f"Required outputs: {', '.join(spec.required_outputs)}")
        if files:
            lines.append(f"Files in your working directory: {', '.join(files)}")
        recalled = self.memory.recall(
            self.adapter.name, spec.instruction, self.ctx.settings.memory_min_similarity
        )
        if recalled is not None:
            self.ctx.note(
                "memory_example",
                f"{spec.id}: example attached (similarity {recalled.similarity:.2f})",
                subtask=spec.id,
            )
            lines.append(recalled.episode.example())
        return "\n".join(lines)

    def _episode(self, session: Session, outcome: str, outputs: object) -> Episode:
        deps = session.deps
        values = (
            {k: v.model_dump() for k, v in outputs.items()} if isinstance(outputs, dict) else {}
        )
        scripts = {n: deps.scripts[n] for n in deps.checked if n in deps.scripts}
        run_id = self.recorder.run_id if self.recorder else ""
        return Episode(
            self.adapter.name, deps.spec.instruction, outcome, scripts, values, run_id, deps.spec.id
        )

    def _record(self, session: Session, status: str, error: str | None, start: float) -> None:
        if self.recorder is not None:
            deps = session.deps
            self.recorder.attempt(
                deps.spec.id,
                session.attempt,
                deps.workdir,
                status=status,
                engine_calls=deps.engine_calls,
                error=error,
                wall_s=time.perf_counter() - start,
                spec=deps.spec.model_dump(),
            )
            deps.engine_calls.clear()

    def _report(
        self, spec: SubtaskSpec, done: CompleteTask, session: Session, folder: Path
    ) -> SubtaskReport:
        workdir = session.deps.workdir
        outputs = {
            name: OutputValue(
                value=o.value,
                unit=o.unit,
                source=relative(workdir / o.source, self.root),
                quantity=o.quantity,
            )
            for name, o in done.outputs.items()
        }
        files = sorted(p for p in workdir.rglob("*") if p.is_file())
        return SubtaskReport(
            subtask_id=spec.id,
            executor=self.adapter.name,
            status="completed",
            outputs=outputs,
            missing=tuple(n for n in spec.required_outputs if n not in outputs),
            structures=structure_summaries(files, self.root),
            artifacts=tuple(relative(p, self.root) for p in files),
            summary=done.summary,
            attempts=session.attempt,
            folders=(relative(folder, self.root),),
        )

    def _failed(self, spec: SubtaskSpec, error: str, attempts: int, folder: Path) -> SubtaskReport:
        return SubtaskReport(
            subtask_id=spec.id,
            executor=self.adapter.name,
            status="failed",
            missing=tuple(spec.required_outputs),
            error=error,
            attempts=attempts,
            folders=(relative(folder, self.root),) if folder.exists() else (),
        )
