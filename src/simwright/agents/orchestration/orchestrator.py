"""The orchestrator: plan, then run subtasks, read reports, adapt, answer.

Planning (:mod:`.planning`, optionally after extracting a module from an article,
:mod:`.article`) gives the subtasks. Execution runs the next runnable subtask —
a protocol through the :class:`~simwright.graph.Runner` (:mod:`.protocol_tool`),
anything else through its engine's executor
(:mod:`~simwright.agents.execution.executor`) — then asks the orchestrator model for
the next move (:mod:`.updates`) until it finishes with an answer that passes the
fabrication guard. Everything is recorded with the run
(:mod:`~simwright.agents.usage.records`); a cap reached before a call ends the run as
``budget_exceeded``.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio

from simwright.agents.errors import AgentError, BudgetExceeded, HeldForReview
from simwright.agents.execution.adapters import EngineAdapter
from simwright.agents.execution.docs_search import DocSearch, DocsTool, NoDocs
from simwright.agents.execution.examples import EpisodicMemory, NoMemory
from simwright.agents.execution.executor import Executor
from simwright.agents.execution.mcp_adapter import McpAdapter
from simwright.agents.orchestration.approval import plan_estimate
from simwright.agents.orchestration.article import ExtractionTarget, extract_module
from simwright.agents.orchestration.board import Board, Task
from simwright.agents.orchestration.clarify import Clarifier, NoClarifier
from simwright.agents.orchestration.outcome import AgentOutcome, Status
from simwright.agents.orchestration.planning import PlanCheck, Planner, planning_error
from simwright.agents.orchestration.protocol_tool import ProtocolTool
from simwright.agents.orchestration.refine import (
    APPROVED_EVENT,
    FEEDBACK_EVENT,
    HELD_EVENT,
    REFINED_EVENT,
    apply_refinement,
    ask_refinement,
    now_iso,
    remembered,
)
from simwright.agents.orchestration.resume import PLAN_EVENT, Resumed, load_state
from simwright.agents.orchestration.updates import UpdateState, next_update, update_agent
from simwright.agents.replies import (
    AddSubtasks,
    ConsultExecutor,
    DiscardSubtask,
    FinalAnswer,
    Finish,
    ReviseSubtask,
    Update,
)
from simwright.agents.review.critics import Committee, Review
from simwright.agents.review.reports import SubtaskReport
from simwright.agents.setup.bundle import AgentContext, ModelFactory
from simwright.agents.setup.config import AgentSettings
from simwright.agents.usage.records import AgentRecorder
from simwright.agents.usage.tokens import TokenCounter
from simwright.graph import Decider
from simwright.graph.lock import run_lock
from simwright.knowledge.modules import KnowledgeModule
from simwright.protocols.registry import Protocol
from simwright.settings import Settings
from simwright.store import Store

INPUT_SUFFIXES = (".extxyz", ".xyz", ".pdb", ".data", ".h5", ".json")


@dataclass
class Orchestrator:
    """Everything an agent run needs, injected."""

    settings: AgentSettings
    factory: ModelFactory
    store: Store
    sim_settings: Settings
    protocols: Mapping[str, Protocol]
    modules: Sequence[KnowledgeModule]
    adapters: Mapping[str, EngineAdapter]
    clarifier: Clarifier = field(default_factory=NoClarifier)
    memory: EpisodicMemory = field(default_factory=NoMemory)
    docs: DocSearch = field(default_factory=NoDocs)
    knowledge_dir: Path | None = None
    decider: Callable[[AgentContext], Decider | None] | None = None
    """Builds the decider of protocol runs' decision points for a run's context."""
    counter: TokenCounter | None = None

    def run(
        self, request: str, article: str | None = None, *, review_plan: bool = False
    ) -> AgentOutcome:
        """Answer ``request`` (sync entry point; runs its own event loop)."""
        return anyio.run(lambda: self.arun(request, article, review_plan=review_plan))

    async def arun(
        self, request: str, article: str | None = None, *, review_plan: bool = False
    ) -> AgentOutcome:
        """Answer ``request``; ``article`` is the text of a paper to extract a procedure from.
        With ``review_plan`` the plan is held for a person before anything runs."""
        params = {
            "roles": {r: c.label() for r, c in self.settings.roles.items()},
            "critics": len(self.settings.critics),
        }
        recorder = AgentRecorder.start(self.store, self.sim_settings, request, params)
        with run_lock(recorder.run_dir):
            run = _Run(self, self._context(recorder), recorder, review_plan=review_plan)
            return await self._drive(run, run.go(request, article))

    def resume(self, run_id: str) -> AgentOutcome:
        """Continue a killed or failed agent run (sync entry point)."""
        return anyio.run(self.aresume, run_id)

    async def aresume(self, run_id: str) -> AgentOutcome:
        """Continue the agent run ``run_id`` from its recorded plan, reports and usage:
        completed subtasks are not run again, booked model requests are counted once."""
        return await self._continue(AgentRecorder.reopen(self.store, run_id), None)

    def refine(self, run_id: str, feedback: str, author: str) -> AgentOutcome:
        """A new turn of ``run_id`` with a person's feedback (sync entry point)."""
        return anyio.run(self.arefine, run_id, feedback, author)

    async def arefine(self, run_id: str, feedback: str, author: str) -> AgentOutcome:
        """Record ``feedback`` (with its author and time) and let the orchestrator revise,
        discard or add subtasks; the completed subtasks it leaves alone are reused."""
        recorder = AgentRecorder.reopen(self.store, run_id, "feedback")
        turn = sum(e.kind == FEEDBACK_EVENT for e in self.store.events(recorder.run_id)) + 1
        event = (FEEDBACK_EVENT, feedback, {"text": feedback, "author": author, "turn": turn})
        return await self._continue(recorder, event)

    def approve(self, run_id: str, author: str) -> AgentOutcome:
        """Approve a held plan or verdict and go on (sync entry point)."""
        return anyio.run(self.aapprove, run_id, author)

    async def aapprove(self, run_id: str, author: str) -> AgentOutcome:
        """Record a person's approval of the run held for review, then go on."""
        recorder = AgentRecorder.reopen(self.store, run_id, "approve")
        return await self._continue(
            recorder, (APPROVED_EVENT, f"approved by {author}", {"author": author})
        )

    async def _continue(
        self, recorder: AgentRecorder, event: tuple[str, str, dict[str, Any]] | None
    ) -> AgentOutcome:
        with run_lock(recorder.run_dir):
            ctx = self._context(recorder)
            ctx.ledger.entries.extend(recorder.usage_entries())
            if event is not None:
                kind, message, payload = event
                ctx.note(kind, message, at=now_iso(), **payload)
            state = load_state(self.store, recorder)
            ctx.note(
                "resumed",
                f"resumed with {ctx.ledger.totals().requests} model requests booked",
                restarted=list(state.restarted),
                pending_report=state.latest.subtask_id if state.latest else None,
            )
            run = _Run(self, ctx, recorder)
            return await self._drive(run, run.resume(state))

    def _context(self, recorder: AgentRecorder) -> AgentContext:
        return AgentContext.create(
            self.settings,
            self.factory,
            sink=recorder.usage,
            notes=recorder.note,
            counter=self.counter,
        )

    @staticmethod
    async def _drive(run: _Run, work: Coroutine[Any, Any, AgentOutcome]) -> AgentOutcome:
        try:
            outcome = await work
        except HeldForReview as exc:
            outcome = run.outcome("needs_review", None, str(exc))
        except BudgetExceeded as exc:
            outcome = run.outcome("budget_exceeded", None, str(exc))
        except AgentError as exc:
            outcome = run.outcome("failed", None, str(exc))
        finally:
            await run.ctx.aclose()
        run.recorder.finish(outcome.status, outcome.as_dict(), outcome.error)
        return outcome


class _Run:
    """The state of one agent run."""

    def __init__(
        self,
        orch: Orchestrator,
        ctx: AgentContext,
        recorder: AgentRecorder,
        *,
        review_plan: bool = False,
    ) -> None:
        self.o = orch
        self.review_plan = review_plan
        self.ctx = ctx
        self.recorder = recorder
        self.root = orch.sim_settings.runs_path
        make = orch.decider
        self.tool = ProtocolTool(
            orch.store,
            orch.sim_settings,
            orch.protocols,
            decider=(lambda: make(ctx)) if make is not None else None,
            modules=orch.modules,
        )
        notes = tuple(a.summary() for a in orch.adapters.values() if isinstance(a, McpAdapter))
        self.check = PlanCheck(
            self.tool, frozenset(orch.adapters), orch.settings.max_subtasks, notes=notes
        )
        self.committee = Committee(ctx, self._review_sink)
        self.docs = DocsTool(ctx, orch.docs)
        self.executors: dict[str, Executor] = {}
        self.board = Board("")

    def _review_sink(self, review: Review, subtask: str) -> None:
        self.recorder.review(
            subtask,
            point=review.point,
            round_=review.round,
            verdict=review.verdict,
            votes=[b.as_dict() for b in review.ballots],
            feedback=review.feedback,
        )

    def outcome(
        self, status: Status, answer: FinalAnswer | None, error: str | None
    ) -> AgentOutcome:
        """The outcome of this run now."""
        return AgentOutcome(
            self.recorder.run_id,
            status,
            self.recorder.run_dir,
            answer,
            tuple(self.board.reports()),
            self.ctx.ledger.totals(),
            error,
        )

    async def go(self, request: str, article: str | None) -> AgentOutcome:
        """Plan and execute."""
        modules = list(self.o.modules)
        if article is not None:
            folder = self.o.knowledge_dir or self.recorder.run_dir / "knowledge"
            target = ExtractionTarget(folder, frozenset(self.o.protocols))
            modules.append(await extract_module(self.ctx, article, request, target))
        planned = await Planner(self.ctx, self.o.clarifier, self.check, modules).plan(request)
        if not planned.subtasks:
            return self.outcome("needs_clarification", None, planning_error(planned))
        self.board = Board.of(planned.request, planned.subtasks)
        self.ctx.note(PLAN_EVENT, planned.request[:500], request=planned.request)
        for task in self.board:
            self._record(task)
        if self.review_plan:
            o, totals = self.o, self.ctx.ledger.totals()
            held = plan_estimate(self.board, self.tool, o.settings, o.sim_settings, totals)
            self._hold("plan", "the plan waits for approval", held)
        return self._answered(await self._execute(None))

    def _hold(self, reason: str, message: str, payload: dict[str, Any]) -> None:
        self.ctx.note(HELD_EVENT, message, reason=reason, **payload)
        raise HeldForReview(reason, f"{message}: simwright ask --approve {self.recorder.run_id}")

    async def resume(self, state: Resumed) -> AgentOutcome:
        """Go on from a recorded state (plan again if no plan was recorded); answer a
        person's feedback first when a turn has not been refined yet."""
        if state.board is None:
            return await self.go(state.request, None)
        self.board = state.board
        for task in self.board:
            if task.spec.id in state.restarted:
                self._record(task)
        if state.held is not None:
            raise HeldForReview(state.held, "the run still waits for a person")
        if state.pending_feedback is not None:
            await self._refine(state.pending_feedback, list(state.answers))
            return self._answered(await self._execute(None))
        if state.answer is not None:
            return self._answered(state.answer)
        return self._answered(await self._execute(state.latest))

    async def _refine(self, feedback: str, answers: list[str]) -> None:
        state = UpdateState(self.ctx, self.board, self.check, self.root)
        memory = remembered(
            self.o.memory,
            sorted(self.o.adapters),
            feedback,
            self.o.settings.memory_min_similarity,
        )
        plan = await ask_refinement(state, answers, feedback, memory)
        changed = apply_refinement(self.board, plan)
        for subtask in changed:
            self._record(self.board.tasks[subtask])
        reused = [t.spec.id for t in self.board if t.status == "completed"]
        self.ctx.note(
            REFINED_EVENT,
            plan.note or f"{len(changed)} subtask(s) changed, {len(reused)} reused",
            plan=plan.model_dump(),
            changed=changed,
            reused=reused,
        )

    def _answered(self, answer: FinalAnswer) -> AgentOutcome:
        self.ctx.note(
            "final_answer", answer.summary[:500], values=[v.model_dump() for v in answer.values]
        )
        return self.outcome("completed", answer, None)

    async def _execute(self, latest: SubtaskReport | None) -> FinalAnswer:
        agent = update_agent()
        state = UpdateState(self.ctx, self.board, self.check, self.root)
        limit = 4 * self.o.settings.max_subtasks + 4
        for _ in range(limit):
            if latest is None and (task := self.board.runnable()) is not None:
                latest = await self._run_task(task)
            update = await next_update(agent, state, latest)
            self.ctx.note("orchestrator_update", type(update).__name__, update=update.model_dump())
            if isinstance(update, Finish):
                return update.answer
            latest = await self._apply(update)
        raise AgentError(f"the orchestrator did not finish within {limit} turns")

    async def _apply(self, update: Update) -> SubtaskReport | None:
        """Act on a validated update; a consultation's new report (None otherwise)."""
        if isinstance(update, ReviseSubtask):
            self._record(self.board.revise(update))
        elif isinstance(update, DiscardSubtask):
            for gone in self.board.discard(update):
                self._record(self.board.tasks[gone])
        elif isinstance(update, AddSubtasks):
            self.board.add(update)
            for spec in update.subtasks:
                self._record(self.board.tasks[spec.id])
        elif isinstance(update, ConsultExecutor):
            task = self.board.tasks[update.subtask_id]
            assert task.session is not None
            report = await self.executors[task.spec.executor].consult(task.session, update.question)
            self._finish(task, report)
            return report
        return None

    async def _run_task(self, task: Task) -> SubtaskReport:
        spec = task.spec
        self.ctx.note("subtask_started", f"{spec.id} ({spec.executor})", subtask=spec.id)
        self._record(task, "running")
        folder = self.recorder.run_dir / "subtasks" / task.folder_name
        if spec.executor == "protocol":
            report = await self.tool.run(spec, folder)
        else:
            executor = self._executor(spec.executor)
            report, task.session = await executor.execute(spec, self._inputs(task), folder)
        self._finish(task, report)
        if report.review_failed and self.o.settings.hold_on_fail:
            self._hold("verdict", f"the committee failed {spec.id}", {"subtask": spec.id})
        return report

    def _finish(self, task: Task, report: SubtaskReport) -> None:
        task.report = report
        task.status = "completed" if report.status == "completed" else "failed"
        self.ctx.note("subtask_report", f"{task.spec.id}: {report.status}", subtask=task.spec.id)
        self._record(task)

    def _executor(self, name: str) -> Executor:
        if name not in self.executors:
            self.executors[name] = Executor(
                self.ctx,
                self.o.adapters[name],
                committee=self.committee,
                docs=self.docs,
                memory=self.o.memory,
                root=self.root,
                recorder=self.recorder,
            )
        return self.executors[name]

    def _inputs(self, task: Task) -> list[Path]:
        files: dict[str, Path] = {}
        for dep in task.spec.depends_on:
            report = self.board.tasks[dep].report
            for rel in report.artifacts if report else ():
                path = self.root / rel
                if path.suffix.lower() in INPUT_SUFFIXES and path.name != "transcript.json":
                    files.setdefault(path.name, path)
        return list(files.values())

    def _record(self, task: Task, status: str | None = None) -> None:
        report = task.report
        self.recorder.subtask(
            task.spec.id,
            executor=task.spec.executor,
            instruction=task.spec.instruction,
            spec=task.spec.model_dump(),
            status=status or task.status,
            revision=task.revision,
            attempts=report.attempts if report else 0,
            report=report.as_dict() if report else None,
            child_run_id=report.child_run_id if report else None,
        )
