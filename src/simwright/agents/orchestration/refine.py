"""Turns of a conversation with a person: feedback on a finished (or held) run.

``simwright ask --continue RUN "feedback"`` records the feedback as a
``user_feedback`` event (its text, author and time) and hands it to the
orchestrator model with the run's board (every subtask with its status and
report), the earlier turns and their answers, and the past successful subtasks of
episodic memory that resemble the feedback. The model replies with a
:class:`~simwright.agents.replies.RefinePlan` — subtasks to revise, discard or add —
validated against the board like any update. Subtasks it does not name keep their
reports and are reused, not run again; the completed subtasks depending on a
revised one run again (their inputs change). The change is recorded as a
``plan_refined`` event, so a turn killed afterwards resumes from the board and is
not refined twice.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import UTC, datetime

from pydantic_ai import Agent, ModelRetry, RunContext, ToolOutput
from pydantic_ai.models import Model

from simwright.agents.execution.examples import EpisodicMemory
from simwright.agents.orchestration.board import Board
from simwright.agents.orchestration.planning import subtask_problems
from simwright.agents.orchestration.updates import UpdateState
from simwright.agents.replies import AddSubtasks, RefinePlan
from simwright.agents.setup.tiers import call_tiered

FEEDBACK_EVENT = "user_feedback"
REFINED_EVENT = "plan_refined"
APPROVED_EVENT = "plan_approved"
HELD_EVENT = "held_for_review"

REFINE = """\
You are the orchestrator of simwright. The user read the run's results and gives
feedback. Change the plan to answer it: revise subtasks (they run again with the new
instruction), discard those no longer wanted, add new ones (ids not used before; they
may depend on existing subtasks). Completed subtasks you leave alone are reused as they
are: do not redo work the feedback does not touch. Reply by calling refine_plan."""


def now_iso() -> str:
    """The current UTC time, as recorded with a turn."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def remembered(
    memory: EpisodicMemory, executors: Iterable[str], feedback: str, min_similarity: float
) -> list[str]:
    """Past successful subtasks (episodic memory) resembling the feedback, one line each."""
    lines = []
    for name in executors:
        found = memory.recall(name, feedback, min_similarity)
        if found is not None:
            done = ", ".join(found.episode.outputs) or "no values"
            lines.append(
                f"- a past {name} subtask (similarity {found.similarity:.2f}): "
                f"{found.episode.instruction[:300]} (reported {done})"
            )
    return lines


def refine_prompt(
    board: Board, answers: list[str], feedback: str, memory: Sequence[str] = ()
) -> str:
    """What the orchestrator reads to refine: request, earlier turns, board, reports,
    resembling past subtasks."""
    parts = [f"Request: {board.request}"]
    for n, (said, answered) in enumerate(zip(board.feedback, answers[1:], strict=False), 1):
        parts.append(f"Turn {n} feedback: {said}\nTurn {n} answer: {answered}")
    if answers:
        parts.insert(1, f"First answer: {answers[0]}")
    parts.append(f"Plan:\n{board.text()}")
    reports = board.reports()
    if reports:
        parts.append("Reports:\n" + "\n\n".join(r.text() for r in reports))
    if memory:
        parts.append("From episodic memory:\n" + "\n".join(memory))
    parts.append(f"New feedback from the user: {feedback}")
    return "\n\n".join(parts)


def _validate(ctx: RunContext[UpdateState], plan: RefinePlan) -> RefinePlan:
    board = ctx.deps.board
    named = [r.subtask_id for r in plan.revise] + [d.subtask_id for d in plan.discard]
    unknown = [n for n in named if n not in board.tasks]
    if unknown:
        raise ModelRetry(f"no subtask {unknown}; subtasks: {', '.join(board.tasks)}")
    if len(set(named)) < len(named):
        raise ModelRetry("a subtask is named twice (revise it or discard it, not both)")
    if plan.add:
        check = replace(ctx.deps.check, existing=board.ids())
        problems = subtask_problems(plan.add, check)
        if problems:
            raise ModelRetry("the subtasks cannot be added:\n" + "\n".join(problems))
    return plan


def refine_agent() -> Agent[UpdateState, RefinePlan]:
    """The agent answering feedback with a plan change (the model is given per call)."""
    agent: Agent[UpdateState, RefinePlan] = Agent(
        deps_type=UpdateState,
        output_type=ToolOutput(RefinePlan, name="refine_plan"),
        instructions=REFINE,
        retries=2,
    )
    agent.output_validator(_validate)
    return agent


async def ask_refinement(
    state: UpdateState, answers: list[str], feedback: str, memory: Sequence[str] = ()
) -> RefinePlan:
    """The orchestrator's validated plan change for ``feedback``."""
    agent = refine_agent()
    prompt = refine_prompt(state.board, answers, feedback, memory)

    async def ask(model: Model) -> RefinePlan:
        return (await agent.run(prompt, deps=state, model=model)).output

    return await call_tiered(
        state.ctx,
        state.ctx.settings.role("orchestrator"),
        role="orchestrator",
        subtask="",
        what="refine_plan",
        call=ask,
    )


def apply_refinement(board: Board, plan: RefinePlan) -> list[str]:
    """Apply a validated plan change; the ids of every subtask whose record changed."""
    changed: list[str] = []
    for revision in plan.revise:
        changed.append(board.revise(revision).spec.id)
    changed += board.rerun_dependents([r.subtask_id for r in plan.revise])
    for discard in plan.discard:
        changed += board.discard(discard)
    if plan.add:
        board.add(AddSubtasks(subtasks=plan.add))
        changed += [s.id for s in plan.add]
    return list(dict.fromkeys(changed))
