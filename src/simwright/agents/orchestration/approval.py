"""A plan held for a person: what it will do and what it may cost.

With ``simwright ask --review-plan`` the orchestrator's plan is recorded and the run
stops (status ``needs_review``, exit 3) before any subtask runs. The
``held_for_review`` event carries the subtasks (executor, protocol, parameters,
dependencies) and an estimate: each protocol subtask's own engine estimate
(:meth:`~simwright.protocols.registry.Protocol.estimate`), the most model requests
the plan may take under the settings' budgets, and — when the models are priced —
the most it may cost, from the mean prompt measured in the requests made so far.
``simwright ask --approve RUN`` (or ``--continue RUN "change …"``) proceeds.

A committee verdict of Fail is held the same way when ``hold_on_fail`` is set: the
run stops after the failed subtask's report, and a person's approval (the
orchestrator then reads the report) or feedback lets it go on.
"""

from __future__ import annotations

from typing import Any

from simwright.agents.orchestration.board import Board
from simwright.agents.orchestration.protocol_tool import ProtocolTool
from simwright.agents.setup.config import AgentSettings
from simwright.agents.usage.ledger import Totals
from simwright.errors import SimwrightError
from simwright.settings import Settings

ANSWER_TOKENS = 400
"""Output tokens assumed per model request for the cost bound."""


def _executor_requests(agent: AgentSettings) -> int:
    """The most model requests one executor subtask may take: every attempt's iterations
    plus each critic's votes in every review round."""
    reviews = len(agent.critics) * (agent.critic_turns + 1)
    return agent.subtask_attempts * (agent.executor_iterations + reviews)


def _engine(tool: ProtocolTool, board: Board, subtask: str, sim: Settings) -> dict[str, Any]:
    spec = board.tasks[subtask].spec
    try:
        protocol, params = tool.resolve(spec)
    except SimwrightError as exc:  # validated when planned; said, not raised
        return {"problem": str(exc)}
    if protocol.estimate is None:
        return {"problem": f"{protocol.name} gives no estimate"}
    estimate = protocol.estimate(params, sim)
    return {"summary": estimate.summary(), **estimate.as_dict()}


def plan_estimate(
    board: Board, tool: ProtocolTool, agent: AgentSettings, sim: Settings, so_far: Totals
) -> dict[str, Any]:
    """The held plan: subtasks and the estimate (engine work, model requests, cost)."""
    rows: list[dict[str, Any]] = []
    requests = 1  # the final answer
    core_hours = 0.0
    for task in board:
        spec = task.spec
        row: dict[str, Any] = {
            "id": spec.id,
            "executor": spec.executor,
            "instruction": spec.instruction,
            "depends_on": list(spec.depends_on),
            "required_outputs": list(spec.required_outputs),
        }
        if spec.executor == "protocol":
            row["protocol"] = spec.protocol
            row["parameters"] = dict(spec.parameters)
            row["engine"] = _engine(tool, board, spec.id, sim)
            core_hours += float(row["engine"].get("core_hours", 0.0))
            row["max_model_requests"] = 1
        else:
            row["max_model_requests"] = _executor_requests(agent) + 1
        requests += row["max_model_requests"]
        rows.append(row)
    estimate: dict[str, Any] = {"max_model_requests": requests, "core_hours": core_hours}
    cost = _cost_bound(agent, so_far, requests)
    if cost is not None:
        estimate["max_cost_usd"] = cost
    return {"subtasks": rows, "estimate": estimate}


def _cost_bound(agent: AgentSettings, so_far: Totals, requests: int) -> float | None:
    """The most the plan's model requests may cost at the dearest configured price
    (None when no model is priced)."""
    if not agent.prices or not so_far.requests:
        return None
    prompt = so_far.prompt_tokens / so_far.requests
    dearest = max(
        agent.prices.values(), key=lambda p: p.input_per_mtok * prompt + p.output_per_mtok
    )
    per_request = (dearest.input_per_mtok * prompt + dearest.output_per_mtok * ANSWER_TOKENS) / 1e6
    return round(requests * per_request, 4)


def plan_text(held: dict[str, Any]) -> str:
    """The held plan in a few lines, as the command line prints it."""
    lines = []
    for row in held["subtasks"]:
        what = f"protocol {row['protocol']} {row['parameters']}" if "protocol" in row else ""
        after = f" after {', '.join(row['depends_on'])}" if row["depends_on"] else ""
        lines.append(f"- {row['id']} [{row['executor']}]{after}: {what or row['instruction']}")
        engine = row.get("engine", {})
        if "summary" in engine:
            lines.append(f"    estimate: {engine['summary']}")
    est = held["estimate"]
    cost = f", at most ${est['max_cost_usd']:.4f}" if "max_cost_usd" in est else ""
    lines.append(
        f"at most {est['max_model_requests']} model requests{cost}; "
        f"~{est['core_hours']:.3g} core-hours of engine work"
    )
    return "\n".join(lines)
