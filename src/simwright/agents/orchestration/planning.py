"""The planning phase: retrieve the knowledge module, clarify, outline the plan.

1. The deterministic planner (:func:`~simwright.knowledge.planner.plan.plan`) reads the
   request: module, protocol, parameters given and assumed.
2. When it asks for a missing parameter ("which element?"), or the model's outline
   asks questions, the injected :class:`~simwright.agents.orchestration.clarify.Clarifier` asks
   the user; the answers are appended to the request and it is read again.
3. The orchestrator model outlines the subtasks (``outline_plan``), shown the
   module, the deterministic plan and the protocols. The outline is validated
   before it is accepted (ids, dependencies, executors, protocol parameters);
   a problem goes back to the model as a retry prompt.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from pydantic_ai import Agent, ModelRetry, RunContext, ToolOutput
from pydantic_ai.models import Model

from simwright.agents.orchestration.clarify import Clarifier
from simwright.agents.orchestration.protocol_tool import ProtocolTool
from simwright.agents.replies import PlanReply, SubtaskSpec
from simwright.agents.setup import prompts
from simwright.agents.setup.bundle import AgentContext
from simwright.agents.setup.tiers import call_tiered
from simwright.errors import SimwrightError
from simwright.knowledge.modules import KnowledgeModule
from simwright.knowledge.planner.plan import Plan, plan
from simwright.knowledge.planner.selection import NotUnderstood, rank_modules


@dataclass(frozen=True)
class Understanding:
    """What the deterministic planner made of a request."""

    request: str
    module: KnowledgeModule | None
    plan: Plan | None
    problem: str | None

    @property
    def missing_parameter(self) -> bool:
        """The planner asks for a parameter the request does not give."""
        return self.problem is not None and self.problem.startswith("which ")


def understand(
    request: str, modules: Sequence[KnowledgeModule], protocols: Mapping[str, object]
) -> Understanding:
    """The module, deterministic plan, or the problem, of ``request``."""
    try:
        chosen = plan(request, modules, protocols)
    except NotUnderstood as exc:
        return Understanding(request, None, None, str(exc))
    except SimwrightError as exc:
        ranked = rank_modules(request, modules)
        return Understanding(request, ranked[0].module if ranked else None, None, str(exc))
    module = next(m for m in modules if m.id == chosen.module_id)
    return Understanding(request, module, chosen, None)


def module_text(module: KnowledgeModule) -> str:
    """A module as the orchestrator reads it: title, protocol, parameters, procedure."""
    params = "; ".join(
        f"{n} ({s.type}{', ' + s.unit if s.unit else ''}"
        f"{', default ' + str(s.default) if s.default is not None else ''})"
        for n, s in module.parameters.items()
    )
    return (
        f"knowledge module {module.id}: {module.title}\n"
        f"protocol: {module.protocol or 'none (' + str(module.pending) + ')'}\n"
        f"parameters: {params}\n{module.body[:3000]}"
    )


def outline_prompt(
    u: Understanding,
    protocols: Mapping[str, object],
    executors: Collection[str],
    notes: Sequence[str] = (),
) -> str:
    """What the orchestrator is shown to outline a plan."""
    parts = [f"Request: {u.request}"]
    if u.module is not None:
        parts.append(module_text(u.module))
    if u.plan is not None:
        parts.append(f"Deterministic plan: {json.dumps(u.plan.to_json(), default=str)}")
    if u.problem:
        parts.append(f"The deterministic planner could not plan: {u.problem}")
    parts.append(f"Registered protocols: {', '.join(protocols)}")
    parts.append(f"Executors available: protocol, {', '.join(executors)}")
    if notes:
        parts.append("External executors:\n" + "\n".join(f"- {n}" for n in notes))
    return "\n\n".join(parts)


@dataclass(frozen=True)
class PlanCheck:
    """What an outline is validated against."""

    tool: ProtocolTool
    executors: frozenset[str]
    max_subtasks: int
    existing: frozenset[str] = field(default_factory=frozenset)
    notes: tuple[str, ...] = ()
    """What the orchestrator is told of external executors (an MCP server and its tools)."""


def subtask_problems(specs: Sequence[SubtaskSpec], check: PlanCheck) -> list[str]:
    """Why ``specs`` (added after ``check.existing``) cannot be run as they are."""
    problems: list[str] = []
    seen = set(check.existing)
    if len(seen) + len(specs) > check.max_subtasks:
        problems.append(f"at most {check.max_subtasks} subtasks in all")
    for spec in specs:
        if spec.id in seen:
            problems.append(f"subtask id {spec.id!r} is used twice")
        unknown = [d for d in spec.depends_on if d not in seen]
        if unknown:
            problems.append(f"{spec.id} depends on {unknown}, which are not earlier subtasks")
        if spec.executor == "protocol":
            try:
                check.tool.resolve(spec)
            except SimwrightError as exc:
                problems.append(f"{spec.id}: {exc}")
        elif spec.executor not in check.executors:
            problems.append(f"{spec.id}: executor {spec.executor!r} is not available here")
        seen.add(spec.id)
    return problems


def _validate(ctx: RunContext[PlanCheck], reply: PlanReply) -> PlanReply:
    if not reply.subtasks and not reply.questions:
        raise ModelRetry("give subtasks, or questions for the user")
    problems = subtask_problems(reply.subtasks, ctx.deps)
    if problems:
        raise ModelRetry("the plan cannot run:\n" + "\n".join(problems))
    return reply


@dataclass
class PlanOutcome:
    """The planning phase's result: the (clarified) request, its module and subtasks."""

    request: str
    module: KnowledgeModule | None
    subtasks: list[SubtaskSpec]
    unanswered: list[str] = field(default_factory=list)


class Planner:
    """Planning with the orchestrator's models and the user's answers."""

    def __init__(
        self,
        ctx: AgentContext,
        clarifier: Clarifier,
        check: PlanCheck,
        modules: Sequence[KnowledgeModule],
    ) -> None:
        self.ctx = ctx
        self.clarifier = clarifier
        self.check = check
        self.modules = modules
        self.agent: Agent[PlanCheck, PlanReply] = Agent(
            deps_type=PlanCheck,
            output_type=ToolOutput(PlanReply, name="outline_plan"),
            instructions=prompts.PLANNER,
            retries=2,
        )
        self.agent.output_validator(_validate)

    async def plan(self, request: str) -> PlanOutcome:
        """Clarify as needed, then outline; unanswered questions end planning."""
        protocols = self.check.tool.protocols
        for _ in range(self.ctx.settings.max_clarifications + 1):
            u = understand(request, self.modules, protocols)
            questions = [u.problem] if u.missing_parameter and u.problem else []
            if not questions:
                reply = await self._outline(u)
                if not reply.questions:
                    self.ctx.note(
                        "plan", f"{len(reply.subtasks)} subtask(s)", rationale=reply.rationale
                    )
                    return PlanOutcome(u.request, u.module, list(reply.subtasks))
                questions = list(reply.questions)
            answers = [self._ask(q) for q in questions]
            if any(a is None for a in answers):
                return PlanOutcome(
                    request,
                    u.module,
                    [],
                    [q for q, a in zip(questions, answers, strict=True) if a is None],
                )
            request = f"{request}; " + "; ".join(a for a in answers if a)
        return PlanOutcome(
            request, None, [], ["the request is still underspecified after clarification"]
        )

    def _ask(self, question: str) -> str | None:
        answer = self.clarifier.ask(question)
        self.ctx.note("clarification", question, answer=answer)
        return answer.strip() if answer and answer.strip() else None

    async def _outline(self, u: Understanding) -> PlanReply:
        prompt = outline_prompt(
            u, self.check.tool.protocols, sorted(self.check.executors), self.check.notes
        )

        async def ask(model: Model) -> PlanReply:
            return (await self.agent.run(prompt, deps=self.check, model=model)).output

        return await call_tiered(
            self.ctx,
            self.ctx.settings.role("orchestrator"),
            role="orchestrator",
            subtask="",
            what="outline_plan",
            call=ask,
        )


def planning_error(outcome: PlanOutcome) -> str:
    """Why planning ended without subtasks."""
    if outcome.unanswered:
        return "the request needs clarification: " + " | ".join(outcome.unanswered)
    return "planning produced no subtasks"
