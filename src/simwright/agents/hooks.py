"""The agent layer behind other layers' seams, when a model is configured.

- :class:`ModelDecider` — a graph :class:`~simwright.graph.Decider`: picks one of the
  offered options at a decision point (an answer naming no option is refused and
  retried; without a valid answer, or at a cap, the graph gets no decision and the
  run waits for review).
- :class:`ModelReviewer` — a campaign :class:`~simwright.campaign.review.Reviewer`:
  returns a typed :class:`~simwright.campaign.review.ReviewDecision`, which the
  campaign validates before it acts (``None`` when every tier fails or a cap is
  reached: a human decides).
- :class:`ModelFixProposer` and :func:`proposer_tiers` — DFT
  :class:`~simwright.dft.proposers.FixProposer` tiers for the recovery machine:
  namelist changes pre-checked against the pw.x knowledge graph (the machine
  validates them again before any run).

These seams are synchronous; each call runs the model through ``bridge``: by
default a fresh event loop (:func:`anyio.run`); inside a worker thread of a running
agent loop pass :func:`anyio.from_thread.run`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import anyio
from pydantic_ai import Agent, ModelRetry, RunContext, ToolOutput
from pydantic_ai.models import Model

from simwright.agents.errors import BudgetExceeded, TiersExhausted
from simwright.agents.replies import DecisionReply, FixReply
from simwright.agents.setup import prompts
from simwright.agents.setup.bundle import AgentContext
from simwright.agents.setup.config import ModelRef, Role, RoleConfig
from simwright.agents.setup.tiers import call_tiered
from simwright.campaign.review import ReviewDecision, ReviewRequest
from simwright.dft.proposers import FixRequest, ProposedFix, ProposerTier
from simwright.dft.validation import errors, validate_input
from simwright.graph.decision import Choice, DecisionRequest

T = TypeVar("T")
Bridge = Callable[[Callable[[], Coroutine[Any, Any, Any]]], Any]


def run_in_new_loop(fn: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run ``fn`` in a fresh event loop (the default bridge)."""
    return anyio.run(fn)


def from_worker_thread(fn: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run ``fn`` on the event loop of the agent run this worker thread belongs to."""
    return anyio.from_thread.run(fn)


def _ask(
    ctx: AgentContext,
    config: RoleConfig,
    role: Role,
    what: str,
    agent: Agent[Any, Any],
    prompt: str,
    deps: Any = None,
) -> Callable[[], Coroutine[Any, Any, Any]]:
    async def go() -> Any:
        async def one(model: Model) -> Any:
            return (await agent.run(prompt, deps=deps, model=model)).output

        return await call_tiered(ctx, config, role=role, subtask="", what=what, call=one)

    return go


# -- graph decision points ---------------------------------------------------------
def _check_option(ctx: RunContext[tuple[str, ...]], reply: DecisionReply) -> DecisionReply:
    if reply.option not in ctx.deps:
        raise ModelRetry(f"choose one of {', '.join(ctx.deps)}, not {reply.option!r}")
    return reply


class ModelDecider:
    """Answers decision points of typed graphs with the orchestrator's models."""

    def __init__(self, ctx: AgentContext, bridge: Bridge = run_in_new_loop) -> None:
        self.ctx = ctx
        self.bridge = bridge
        self.agent: Agent[tuple[str, ...], DecisionReply] = Agent(
            deps_type=tuple[str, ...],
            output_type=ToolOutput(DecisionReply, name="choose"),
            instructions=prompts.DECIDER,
            retries=2,
        )
        self.agent.output_validator(_check_option)

    def decide(self, request: DecisionRequest) -> Choice:
        """The model's option, or no answer (``option=""``) when every tier fails."""
        prompt = (
            f"Decision point: {request.point}\nOptions: {', '.join(request.options)}\n"
            f"Inputs: {json.dumps(dict(request.inputs), default=str)[:6000]}"
        )
        config = self.ctx.settings.role("orchestrator")
        try:
            reply: DecisionReply = self.bridge(
                _ask(
                    self.ctx,
                    config,
                    "orchestrator",
                    "decision",
                    self.agent,
                    prompt,
                    request.options,
                )
            )
        except (TiersExhausted, BudgetExceeded) as exc:
            return Choice("", "model", f"no valid answer: {exc}")
        return Choice(reply.option, f"model:{config.tiers[0].name}", reply.rationale)


def model_decider(ctx: AgentContext) -> ModelDecider:
    """The decider of protocol runs inside an agent run (they run in worker threads)."""
    return ModelDecider(ctx, from_worker_thread)


# -- campaign review events ---------------------------------------------------------
class ModelReviewer:
    """A campaign reviewer backed by the orchestrator's models."""

    def __init__(
        self, ctx: AgentContext, bridge: Bridge = run_in_new_loop, name: str | None = None
    ) -> None:
        self.ctx = ctx
        self.bridge = bridge
        self.name = name or f"model:{ctx.settings.role('orchestrator').tiers[0].name}"
        self.agent: Agent[None, ReviewDecision] = Agent(
            output_type=ToolOutput(ReviewDecision, name="decide"),
            instructions=prompts.REVIEWER,
            retries=2,
        )

    def review(self, request: ReviewRequest) -> ReviewDecision | None:
        """A typed decision (validated by the campaign), or None when every tier fails."""
        prompt = json.dumps(
            {
                "event": dict(request.event),
                "evidence": dict(request.evidence),
                "allowed_actions": list(request.allowed_actions),
                "parameter_scope": {k: list(v) for k, v in request.parameter_scope.items()},
                "min_confidence": request.min_confidence,
            },
            default=str,
        )[:40_000]
        config = self.ctx.settings.role("orchestrator")
        try:
            decision: ReviewDecision = self.bridge(
                _ask(self.ctx, config, "orchestrator", "campaign review", self.agent, prompt)
            )
        except (TiersExhausted, BudgetExceeded):
            return None
        return decision


# -- DFT repairs --------------------------------------------------------------------
def _check_fix(ctx: RunContext[Any], reply: FixReply) -> FixReply:
    request = ctx.deps
    merged = request.input.with_values(reply.changes)
    bad = errors(validate_input(merged.namelists))
    if bad:
        raise ModelRetry("the changes do not validate: " + "; ".join(p.message for p in bad))
    return reply


class ModelFixProposer:
    """Proposes pw.x namelist changes with one model (one tier of the recovery machine)."""

    def __init__(self, ctx: AgentContext, ref: ModelRef, bridge: Bridge = run_in_new_loop) -> None:
        self.ctx = ctx
        self.ref = ref
        self.bridge = bridge
        self.agent: Agent[Any, FixReply] = Agent(
            output_type=ToolOutput(FixReply, name="propose_fix"),
            instructions=prompts.FIXER,
            retries=2,
        )
        self.agent.output_validator(_check_fix)

    def __call__(self, request: FixRequest) -> ProposedFix | None:
        """A fix that validates against the knowledge graph, or None (pass)."""
        nodes = "\n".join(n.text() for n in request.nodes)
        current = {k: dict(v) for k, v in request.input.namelists.items()}
        prompt = (
            f"Diagnosis: {request.diagnosis.code}: {request.diagnosis.message}\n"
            f"CRASH:\n{request.crash_text[-2000:]}\nOutput tail:\n{request.output_tail[-3000:]}\n"
            f"Current namelists: {json.dumps(current, default=str)}\n"
            f"Knowledge-graph nodes:\n{nodes}"
        )
        single = RoleConfig(tiers=(self.ref.model_copy(update={"attempts": 1}),))
        try:
            reply: FixReply = self.bridge(
                _ask(self.ctx, single, "executor", "pw.x fix", self.agent, prompt, request)
            )
        except (TiersExhausted, BudgetExceeded):
            return None
        return ProposedFix(reply.changes, reply.rationale)


def proposer_tiers(ctx: AgentContext, bridge: Bridge = run_in_new_loop) -> list[ProposerTier]:
    """One recovery-machine tier per executor model, each with its K attempts."""
    return [
        ProposerTier(ref.name, ModelFixProposer(ctx, ref, bridge), ref.attempts)
        for ref in ctx.settings.role("executor").tiers
    ]
