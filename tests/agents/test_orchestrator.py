"""The orchestrator with scripted models and real engines: plan -> subtasks -> reports ->
final answer, the fabrication guard, clarification, invalid replies, escalation, caps,
and the orchestrator's updates (revise, consult, add, discard)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from pydantic_ai.messages import ModelMessage, ModelResponse
from pydantic_ai.models.function import AgentInfo

from helpers.agents import agent_settings, block_network, prompt_text, tiers
from simwright.agents.execution.adapters_specs import AnalysisAdapter, AseAdapter
from simwright.agents.orchestration.clarify import ScriptedClarifier
from simwright.agents.orchestration.orchestrator import Orchestrator
from simwright.agents.scripted import ScriptedModel, ScriptedModels, call, raw_call
from simwright.agents.usage.caps import Caps, Price
from simwright.agents.usage.view import usage_json, usage_lines
from simwright.cli.views import show_json
from simwright.knowledge.modules import load_modules
from simwright.protocols import load_protocols
from simwright.settings import Settings
from simwright.store import Store


@pytest.fixture(autouse=True)
def _no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    block_network(monkeypatch)


def orchestrator(
    settings: Settings, store: Store, cfg: Any, scripts: dict[str, ScriptedModel], **kw: Any
) -> Orchestrator:
    return Orchestrator(
        settings=cfg,
        factory=ScriptedModels(scripts),
        store=store,
        sim_settings=settings,
        protocols=load_protocols(),
        modules=load_modules(),
        adapters={"ase": AseAdapter(), "analysis": AnalysisAdapter()},
        **kw,
    )


A0_PLAN = {
    "id": "a0",
    "instruction": "lattice constant of fcc Cu with EMT",
    "executor": "protocol",
    "protocol": "lattice_constant",
    "parameters": {"element": "Cu", "lattice": "fcc"},
    "required_outputs": ["lattice_constant"],
}
ENERGY_PLAN = {
    "id": "energy",
    "instruction": "Single-point EMT energy of the crystal in crystal.extxyz",
    "executor": "ase",
    "depends_on": ["a0"],
    "required_outputs": ["energy"],
}
SINGLE_POINT = (
    "task: single_point\nstructure: {kind: file, path: crystal.extxyz}\ncalculator: emt\n"
)


def output(text: str, name: str) -> tuple[float, str, str]:
    """The value, source and quantity of an output as the orchestrator reads it."""
    match = re.search(
        rf"output {name} = ([-0-9.eE+]+) \S* ?\(source (\S+); quantity ([^)]+)\)", text
    )
    assert match, text
    return float(match.group(1)), match.group(2), match.group(3)


def final(invent: bool) -> Any:
    def reply(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        text = prompt_text(messages)
        a0, a0_source, a0_q = output(text, "lattice_constant")
        energy, e_source, e_q = output(text, "energy")
        summary = f"EMT gives a0 = {a0:.4f} Å and a cell energy of {energy:.3f} eV."
        if invent:
            summary += " This agrees with experiment within 0.52 %."
        return call(
            "finish",
            answer={
                "summary": summary,
                "values": [
                    {"name": "a0", "value": a0, "unit": "Å", "source": a0_source, "quantity": a0_q},
                    {
                        "name": "energy",
                        "value": energy,
                        "unit": "eV",
                        "source": e_source,
                        "quantity": e_q,
                    },
                ],
            },
        )

    return reply


def complete_energy(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    from simwright.agents.scripted import last_tool_return

    data = json.loads(
        last_tool_return(messages, "run").split("result.json: ", 1)[1].split("; final")[0]
    )
    return call(
        "complete_task",
        outputs={"energy": {"value": data["energy_ev"], "unit": "eV", "source": "result.json"}},
    )


def test_plan_subtasks_reports_and_a_guarded_final_answer(settings: Settings, store: Store) -> None:
    orch = ScriptedModel(
        [
            call("outline_plan", subtasks=[A0_PLAN, ENERGY_PLAN], rationale="protocol, then ASE"),
            call("proceed"),
            final(invent=True),
            final(invent=False),
        ],
        "scripted:orch",
    )
    ex = ScriptedModel(
        [
            call("write_script", name="sp.yaml", content=SINGLE_POINT),
            call("run", name="sp.yaml"),
            complete_energy,
        ],
        "scripted:exec",
    )
    critic = ScriptedModel([call("vote", vote="pass")], "scripted:critic")
    cfg = agent_settings(
        {"orchestrator": "scripted:orch", "executor": "scripted:exec"}, critics=["scripted:critic"]
    )
    scripts = {"scripted:orch": orch, "scripted:exec": ex, "scripted:critic": critic}
    out = orchestrator(settings, store, cfg, scripts).run(
        "lattice constant of fcc Cu with EMT, then its energy"
    )

    assert out.status == "completed", out.error
    assert out.answer is not None and "0.52" not in out.answer.summary
    a0 = {v.name: v for v in out.answer.values}["a0"]
    assert 3.5 < a0.value < 3.7 and a0.source.endswith("subtasks/a0/results.h5")
    assert a0.quantity == "lattice_constant"
    protocol_report, energy_report = out.reports
    assert (
        protocol_report.child_run_id
        and store.get_run(protocol_report.child_run_id).status == "completed"
    )
    assert protocol_report.structures[0]["formula"] == "Cu4"
    assert energy_report.structures[0]["n_close_pairs"] == 0
    rejected = [e for e in store.events(out.run_id) if e.kind == "fabrication_rejected"]
    assert len(rejected) == 1 and "0.52" in rejected[0].message
    assert "crystal.extxyz" in prompt_text(ex.seen[0])  # the dependency's files were copied in
    usage = usage_json(store, out.run_id)
    assert usage["total"]["requests"] == 8 == out.usage.requests
    assert set(usage["by_role"]) == {"orchestrator", "executor", "critic"}
    assert usage["by_subtask"]["energy"]["requests"] == 4
    assert any(line.strip().startswith("role executor") for line in usage_lines(store, out.run_id))
    row = store.get_run(out.run_id)
    assert (row.protocol, row.status) == ("agent", "completed")
    assert json.loads(row.result_json or "{}")["answer"]["values"][0]["name"] == "a0"
    shown = show_json(store, row)  # what `simwright show` prints
    assert [s["name"] for s in shown["steps"]] == ["subtask:energy"]
    assert {"lammps-dryrun"}.isdisjoint(c["engine"] for c in shown["engine_calls"])
    assert all(m.left == 0 for m in scripts.values())


def test_a_run_that_keeps_inventing_numbers_fails(settings: Settings, store: Store) -> None:
    def invented(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        _a0, source, quantity = output(prompt_text(messages), "lattice_constant")
        value = {"name": "a0", "value": 3.61, "unit": "Å", "source": source, "quantity": quantity}
        return call(
            "finish",
            answer={
                "summary": "a0 is 3.61 Å",
                "values": [value],
            },
        )

    orch = ScriptedModel(
        [call("outline_plan", subtasks=[A0_PLAN]), invented, invented, invented], "scripted:orch"
    )
    cfg = agent_settings({"orchestrator": "scripted:orch"})
    out = orchestrator(settings, store, cfg, {"scripted:orch": orch}).run(
        "lattice constant of fcc Cu with EMT"
    )
    assert out.status == "failed" and out.answer is None
    assert "every model tier failed" in (out.error or "")
    assert [e.kind for e in store.events(out.run_id)].count("fabrication_rejected") == 3
    assert store.get_run(out.run_id).status == "failed"


def test_clarification_from_the_planner_and_from_the_model(
    settings: Settings, store: Store
) -> None:
    orch = ScriptedModel(
        [call("outline_plan", questions=["Which strain range do you want?"])], "scripted:orch"
    )
    clarifier = ScriptedClarifier(["copper", None])
    cfg = agent_settings({"orchestrator": "scripted:orch"})
    out = orchestrator(settings, store, cfg, {"scripted:orch": orch}, clarifier=clarifier).run(
        "lattice constant with EMT"
    )
    assert clarifier.questions[0].startswith("which element?")
    assert clarifier.questions[1] == "Which strain range do you want?"
    assert '"element": {"value": "Cu"' in prompt_text(orch.seen[0])  # the answer was read
    assert out.status == "needs_clarification" and "strain range" in (out.error or "")


def test_invalid_replies_are_retried_then_escalated_to_the_next_tier(
    settings: Settings, store: Store
) -> None:
    bad_range = dict(A0_PLAN, parameters={"element": "Cu", "n_points": 1000})
    small = ScriptedModel(
        [
            raw_call("outline_plan", '{"subtasks": [{"id": "a0", '),
            call("make_a_plan", subtasks=[A0_PLAN]),
            call("outline_plan", subtasks=[bad_range]),
            call("outline_plan", subtasks=[bad_range]),
        ],
        "scripted:small",
    )
    big = ScriptedModel([call("outline_plan", questions=["Really?"])], "scripted:big")
    cfg = agent_settings({"orchestrator": tiers("scripted:small", "scripted:big")})
    out = orchestrator(settings, store, cfg, {"scripted:small": small, "scripted:big": big}).run(
        "lattice constant of fcc Cu with EMT"
    )
    assert out.status == "needs_clarification"  # nobody answers "Really?"
    feedback = [prompt_text(small.seen[i]) + str(small.seen[i][-1]) for i in (1, 2)]
    assert "Invalid JSON" in feedback[0]
    assert "Unknown tool name: 'make_a_plan'" in feedback[1]
    assert big.used == 1 and small.left == 0
    failed = [e for e in store.events(out.run_id) if e.kind == "model_attempt_failed"]
    assert len(failed) == 1 and "n_points" in failed[0].message


@pytest.mark.parametrize(
    ("caps", "prices", "used", "why"),
    [
        (Caps(max_requests=1), {}, 1, "request cap"),
        (Caps(max_tokens=50), {}, 0, "token cap"),
        (
            Caps(max_cost_usd=0.001),
            {"scripted:orch": Price(input_per_mtok=1000, output_per_mtok=0)},
            0,
            "cost cap",
        ),
    ],
)
def test_caps_are_enforced_before_the_call(
    settings: Settings, store: Store, caps: Caps, prices: dict[str, Price], used: int, why: str
) -> None:
    orch = ScriptedModel(
        [raw_call("outline_plan", "{not json"), call("outline_plan", subtasks=[A0_PLAN])],
        "scripted:orch",
    )
    cfg = agent_settings({"orchestrator": "scripted:orch"}, caps=caps, prices=prices)
    out = orchestrator(settings, store, cfg, {"scripted:orch": orch}).run(
        "lattice constant of fcc Cu with EMT"
    )
    assert out.status == "budget_exceeded" and why in (out.error or "")
    assert orch.used == used and out.usage.requests == used
    assert store.get_run(out.run_id).status == "budget_exceeded"


EV_PLAN = {
    "id": "ev",
    "instruction": "Energy of fcc Cu at a = 3.6 Å with EMT",
    "executor": "ase",
    "required_outputs": ["energy"],
}
LATER = {"id": "later", "instruction": "Relax it", "executor": "ase", "depends_on": ["ev"]}
BULK = "task: single_point\nstructure: {kind: bulk, element: Cu, lattice: fcc, a_a: 3.6}\n"


def test_revise_consult_add_and_discard(settings: Settings, store: Store) -> None:
    orch = ScriptedModel(
        [
            call("outline_plan", subtasks=[EV_PLAN, LATER]),
            call(
                "revise_subtask",
                subtask_id="ev",
                instruction="Energy of fcc Cu at a = 3.6 Å, EMT, single point",
            ),
            call("consult_executor", subtask_id="ev", question="Also report the energy per atom."),
            call("add_subtasks", subtasks=[dict(LATER, id="ev")]),
            call("discard_subtask", subtask_id="later", reason="not needed"),
            call("finish", answer={"summary": "Done.", "values": []}),
        ],
        "scripted:orch",
    )

    def per_atom(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        from simwright.agents.scripted import last_tool_return

        data = json.loads(
            last_tool_return(messages, "run").split("result.json: ", 1)[1].split("; final")[0]
        )
        outputs = {
            "energy": {"value": data["energy_ev"], "unit": "eV", "source": "result.json"},
            "energy_per_atom": {
                "value": data["energy_per_atom_ev"],
                "unit": "eV",
                "source": "result.json",
            },
        }
        return call("complete_task", outputs=outputs)

    ex = ScriptedModel(
        [
            call("abort_task", reason="unclear"),
            call("abort_task", reason="still unclear"),
            call("write_script", name="sp.yaml", content=BULK),
            call("run", name="sp.yaml"),
            complete_energy,
            per_atom,
        ],
        "scripted:exec",
    )
    cfg = agent_settings({"orchestrator": "scripted:orch", "executor": "scripted:exec"})
    scripts = {"scripted:orch": orch, "scripted:exec": ex}
    out = orchestrator(settings, store, cfg, scripts).run("energy of fcc Cu with EMT")

    assert out.status == "completed", out.error
    ev = out.reports[0]
    assert ev.status == "completed" and set(ev.outputs) == {"energy", "energy_per_atom"}
    assert "subtask ev (ase): failed" in prompt_text(orch.seen[1])
    assert "is used twice" in str(orch.seen[4][-1])
    assert "Also report the energy per atom." in prompt_text(ex.seen[-1])
    with store.transaction() as s:
        from sqlalchemy import select

        from simwright.store.models_agents import AgentSubtaskRow

        rows = {r.subtask_id: r.status for r in s.scalars(select(AgentSubtaskRow))}
    assert rows == {"ev": "completed", "later": "discarded"}
    assert all(m.left == 0 for m in scripts.values())
