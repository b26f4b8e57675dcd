"""The one tool interface every executor shares, whatever its engine.

Tools: ``search_docs``, ``write_script`` (save + automatic safety check and dry
run), ``run`` (only a script whose checked content is unchanged; LAMMPS scripts
pass the committee's pre-submission gate first), ``inspect`` (the file contract's
summary, never raw files); outputs: ``complete_task`` (each value is traced to its
file before it is accepted) and ``abort_task``. Every path is confined to the
executor's working directory. Engine work runs in a worker thread.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated

import anyio
from pydantic import Field
from pydantic_ai import Agent, ModelRetry, RunContext, ToolOutput

from simwright.agents.errors import AttemptFailed, SubtaskFailed
from simwright.agents.execution.adapters import Check, EngineAdapter, confined
from simwright.agents.execution.docs_search import DocsTool
from simwright.agents.execution.mcp_adapter import McpAdapter
from simwright.agents.execution.transcript import transcript
from simwright.agents.replies import AbortTask, CompleteTask, SubtaskSpec
from simwright.agents.review.critics import Committee, Review
from simwright.agents.review.fabrication import check_outputs
from simwright.agents.setup import prompts
from simwright.agents.setup.bundle import AgentContext
from simwright.contract import inspect_file
from simwright.store.records import EngineCall

ScriptName = Annotated[str, Field(pattern=r"^[A-Za-z0-9_][A-Za-z0-9_.\-]{0,63}$")]
ScriptText = Annotated[str, Field(min_length=1, max_length=100_000)]
FilePath = Annotated[str, Field(min_length=1, max_length=400)]


@dataclass
class ExecutorDeps:
    """The state of one executor attempt: its subtask, engine, folder and short-term memory."""

    spec: SubtaskSpec
    adapter: EngineAdapter
    workdir: Path
    ctx: AgentContext
    committee: Committee
    docs: DocsTool
    checked: dict[str, str] = field(default_factory=dict)
    """Scripts whose check passed: name -> sha256 of the checked content."""
    scripts: dict[str, str] = field(default_factory=dict)
    engine_calls: list[EngineCall] = field(default_factory=list)
    reviews: list[Review] = field(default_factory=list)
    turns_used: int = 0

    def revise_turn(self) -> None:
        """Count one Revise verdict; fail the attempt past the critic turn budget."""
        self.turns_used += 1
        if self.turns_used > self.ctx.settings.critic_turns:
            raise AttemptFailed(
                f"critic turn budget ({self.ctx.settings.critic_turns}) exhausted for "
                f"{self.spec.id}"
            )

    async def review(self, point: str, subject: str, history: str) -> Review:
        """A committee round on this attempt; a Fail verdict fails the subtask for good."""
        review = await self.committee.review(
            point=point,
            subtask=self.spec.id,
            round_=len(self.reviews) + 1,
            subject=subject,
            history=history,
        )
        self.reviews.append(review)
        if review.verdict == "fail":
            raise SubtaskFailed(f"the review committee failed {self.spec.id}: {review.feedback}")
        return review


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _path(deps: ExecutorDeps, name: str) -> Path:
    why = confined(name, deps.workdir)
    if why:
        raise ModelRetry(why)
    return deps.workdir / name


async def search_docs(ctx: RunContext[ExecutorDeps], query: str) -> str:
    """Search the engine's documentation for ``query``; the passages that matter are marked."""
    deps = ctx.deps
    if deps.adapter.docs is None:
        return f"the {deps.adapter.name} executor has no documentation to search"
    return await deps.docs.search(deps.adapter.docs, query, deps.spec.id, deps.spec.instruction)


async def write_script(ctx: RunContext[ExecutorDeps], name: ScriptName, content: ScriptText) -> str:
    """Save a script in the working directory and check it (safety rules, dry run)."""
    deps = ctx.deps
    if not name.endswith(deps.adapter.suffixes):
        raise ModelRetry(
            f"{deps.adapter.name} scripts end with {' or '.join(deps.adapter.suffixes)}"
        )
    path = _path(deps, name)
    path.write_text(content, encoding="utf-8")
    deps.scripts[name] = content
    deps.checked.pop(name, None)
    check: Check = await anyio.to_thread.run_sync(deps.adapter.check, path, deps.workdir)
    deps.engine_calls.extend(check.engine_calls)
    deps.ctx.note(
        "script_checked", f"{name}: {'ok' if check.ok else 'refused'}", subtask=deps.spec.id
    )
    if check.security:
        history = transcript(ctx.messages) + f"\n\n[refused script {name}]\n{content}\n{check.text}"
        await deps.review(
            "safety", f"{name} broke safety rules: {', '.join(check.security)}", history
        )
    if not check.ok:
        return f"refused: {name} did not pass its check:\n{check.text}"
    deps.checked[name] = _sha(content)
    return check.text


async def run(ctx: RunContext[ExecutorDeps], name: ScriptName) -> str:
    """Run a script that passed its check (LAMMPS scripts are reviewed before they run)."""
    deps = ctx.deps
    path = _path(deps, name)
    if not path.is_file() or deps.checked.get(name) != _sha(path.read_text(encoding="utf-8")):
        return f"run refused: {name} has not passed write_script's check in its current form"
    if deps.adapter.gated and deps.committee.size:
        review = await deps.review(
            "pre_submission", f"the {name} job before it runs", transcript(ctx.messages)
        )
        if review.verdict == "revise":
            deps.revise_turn()
            return f"not run: the review committee asks for changes first:\n{review.feedback}"
    before = {p for p in deps.workdir.rglob("*") if p.is_file()}
    result = await anyio.to_thread.run_sync(deps.adapter.run, path, deps.workdir)
    deps.engine_calls.extend(result.engine_calls)
    deps.ctx.note(
        "job_finished", f"{name}: {'ok' if result.ok else 'failed'}", subtask=deps.spec.id
    )
    new = sorted(
        str(p.relative_to(deps.workdir))
        for p in deps.workdir.rglob("*")
        if p.is_file() and p not in before
    )
    listing = f"\nnew files: {', '.join(new)}" if new else ""
    return f"{'ok' if result.ok else 'failed'}: {result.text}{listing}"


async def inspect(ctx: RunContext[ExecutorDeps], path: FilePath) -> str:
    """A short summary of a file of the working directory (tables, structures, logs...)."""
    target = _path(ctx.deps, path)
    if target.is_dir():
        names = sorted(
            str(p.relative_to(ctx.deps.workdir)) for p in target.rglob("*") if p.is_file()
        )
        return "files: " + (", ".join(names[:100]) or "none")
    return await anyio.to_thread.run_sync(inspect_file, target)


def _check_completion(
    ctx: RunContext[ExecutorDeps], output: CompleteTask | AbortTask
) -> CompleteTask | AbortTask:
    if isinstance(output, CompleteTask):
        deps = ctx.deps
        problems, traced = check_outputs(output.outputs, deps.workdir, deps.ctx.settings.trace_rtol)
        if problems:
            raise ModelRetry("untraceable outputs, fix them:\n" + "\n".join(problems))
        return output.model_copy(update={"outputs": traced})
    return output


def executor_agent(adapter: EngineAdapter) -> Agent[ExecutorDeps, CompleteTask | AbortTask]:
    """The pydantic-ai agent of ``adapter``'s executor (the model is given per run)."""
    extra = adapter.guide() if isinstance(adapter, McpAdapter) else ""
    instructions = prompts.EXECUTOR.format(
        engine=adapter.name, extra=extra or prompts.EXECUTOR_EXTRA.get(adapter.name, "")
    )
    agent: Agent[ExecutorDeps, CompleteTask | AbortTask] = Agent(
        deps_type=ExecutorDeps,
        output_type=[
            ToolOutput(CompleteTask, name="complete_task"),
            ToolOutput(AbortTask, name="abort_task"),
        ],
        instructions=instructions,
        tools=[search_docs, write_script, run, inspect],
        retries=3,
    )
    agent.output_validator(_check_completion)
    return agent
