"""The orchestrator's decisions as reports come in, validated before they act.

After each report the orchestrator model chooses one of ``proceed``,
``revise_subtask``, ``discard_subtask``, ``add_subtasks``, ``consult_executor``,
``finish``. Each is checked against the board: the subtask must exist (and, to be
consulted, have an executor session), added subtasks pass the outline's checks,
and a final answer must pass the fabrication guard — an untraceable number is
refused deterministically and the model is told which.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from pydantic_ai import Agent, ModelRetry, RunContext, ToolOutput
from pydantic_ai.models import Model

from simwright.agents.orchestration.board import Board
from simwright.agents.orchestration.planning import PlanCheck, subtask_problems
from simwright.agents.replies import (
    AddSubtasks,
    ConsultExecutor,
    DiscardSubtask,
    Finish,
    Proceed,
    ReviseSubtask,
    Update,
)
from simwright.agents.review.fabrication import check_report
from simwright.agents.review.reports import SubtaskReport
from simwright.agents.setup import prompts
from simwright.agents.setup.bundle import AgentContext
from simwright.agents.setup.tiers import call_tiered


@dataclass
class UpdateState:
    """What an update is validated against."""

    ctx: AgentContext
    board: Board
    check: PlanCheck
    root: Path


def _task(state: UpdateState, subtask_id: str) -> None:
    if subtask_id not in state.board.tasks:
        raise ModelRetry(
            f"there is no subtask {subtask_id!r}; subtasks: {', '.join(state.board.tasks)}"
        )


def guard(state: UpdateState, finish: Finish) -> list[str]:
    """The fabrication guard's problems with a final answer (empty: it passes)."""
    answer = finish.answer
    return check_report(
        answer.summary,
        answer.values,
        root=state.root,
        allowed=state.board.folders(state.root),
        references=answer.references,
        known=state.board.known_numbers(),
        rtol=state.ctx.settings.trace_rtol,
    )


def validate_update(ctx: RunContext[UpdateState], update: Update) -> Update:
    """Refuse an update that cannot act (the model is told why and may try again)."""
    state = ctx.deps
    board = state.board
    if isinstance(update, ReviseSubtask | DiscardSubtask | ConsultExecutor):
        _task(state, update.subtask_id)
    if isinstance(update, ConsultExecutor) and board.tasks[update.subtask_id].session is None:
        raise ModelRetry(
            f"{update.subtask_id} has no executor to consult (protocols are not consulted)"
        )
    if isinstance(update, AddSubtasks):
        problems = subtask_problems(update.subtasks, replace(state.check, existing=board.ids()))
        if problems:
            raise ModelRetry("the subtasks cannot be added:\n" + "\n".join(problems))
    if isinstance(update, Proceed) and board.runnable() is None:
        raise ModelRetry("nothing is left to run: finish, revise, add or discard a subtask")
    if isinstance(update, Finish):
        problems = guard(state, update)
        if problems:
            state.ctx.note("fabrication_rejected", "; ".join(problems), problems=problems)
            raise ModelRetry(
                "the final answer was rejected: every number must be a reported value traced "
                "to a named quantity of its artifact, or a literature value marked [ref:KEY].\n"
                + "\n".join(problems)
            )
    return update


def update_agent() -> Agent[UpdateState, Update]:
    """The agent choosing the next move (the model is given per call)."""
    agent: Agent[UpdateState, Update] = Agent(
        deps_type=UpdateState,
        output_type=[
            ToolOutput(Proceed, name="proceed"),
            ToolOutput(ReviseSubtask, name="revise_subtask"),
            ToolOutput(DiscardSubtask, name="discard_subtask"),
            ToolOutput(AddSubtasks, name="add_subtasks"),
            ToolOutput(ConsultExecutor, name="consult_executor"),
            ToolOutput(Finish, name="finish"),
        ],
        instructions=prompts.UPDATE,
        retries=2,
    )
    agent.output_validator(validate_update)
    return agent


def update_prompt(board: Board, latest: SubtaskReport | None) -> str:
    """The plan's state, the latest report and (when all is done) every report."""
    parts = [f"Request: {board.request}"]
    parts += [f"Feedback from the user (turn {n}): {f}" for n, f in enumerate(board.feedback, 1)]
    parts.append(f"Plan:\n{board.text()}")
    if latest is not None:
        parts.append(f"Latest report:\n{latest.text()}")
    earlier = [r for r in board.reports() if r is not latest]
    if earlier and board.runnable() is None:
        parts.append("Other reports:\n" + "\n\n".join(r.text() for r in earlier))
    if board.runnable() is None:
        parts.append("No subtask is left to run.")
    return "\n\n".join(parts)


async def next_update(
    agent: Agent[UpdateState, Update], state: UpdateState, latest: SubtaskReport | None
) -> Update:
    """The orchestrator's validated next move."""
    prompt = update_prompt(state.board, latest)

    async def ask(model: Model) -> Update:
        return (await agent.run(prompt, deps=state, model=model)).output

    return await call_tiered(
        state.ctx,
        state.ctx.settings.role("orchestrator"),
        role="orchestrator",
        subtask="",
        what="orchestrator update",
        call=ask,
    )
