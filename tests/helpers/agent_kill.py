"""An agent run with scripted models that SIGKILLs its own process at a chosen moment
(no tests here), and the scripts a test resumes it with.

Usage: python agent_kill.py HOME MODE. The plan has two ASE subtasks, s1 and s2.
MODE "between": killed when the orchestrator is asked about s1's report (s1 is
recorded as completed, nothing of s2 has started). MODE "during": killed inside
s2's executor, after its script was written and before it runs (s2 is recorded as
running). MODE "refine": the run plans and answers s1 alone, then a person's feedback
adds s2 (a refinement turn) and the process is killed inside s2's executor. The
scripted model's reply kills the process, so the kill lands exactly there.
"""

from __future__ import annotations

import os
import re
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pydantic_ai.messages import ModelMessage, ModelResponse
from pydantic_ai.models.function import AgentInfo

from helpers.agents import agent_settings, block_network, prompt_text
from simwright.agents.execution.adapters_specs import AnalysisAdapter, AseAdapter
from simwright.agents.orchestration.orchestrator import Orchestrator
from simwright.agents.scripted import ScriptedModel, ScriptedModels, call, last_tool_return
from simwright.knowledge.modules import load_modules
from simwright.protocols import load_protocols
from simwright.settings import Settings
from simwright.store import Store

REQUEST = "EMT energies of fcc Cu at a = 3.6 and 3.7 Å"
PLAN = [
    {
        "id": f"s{i}",
        "instruction": f"Energy of fcc Cu at a = {a} Å with EMT",
        "executor": "ase",
        "required_outputs": ["energy"],
    }
    for i, a in ((1, "3.6"), (2, "3.7"))
]
Reply = ModelResponse | Callable[[list[ModelMessage], AgentInfo], ModelResponse]


def bulk(a: str) -> str:
    """The ASE task spec of a single point of fcc Cu at lattice constant ``a``."""
    return f"task: single_point\nstructure: {{kind: bulk, element: Cu, lattice: fcc, a_a: {a}}}\n"


def complete_energy(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    """Report the energy the last run wrote to result.json."""
    import json

    text = last_tool_return(messages, "run").split("result.json: ", 1)[1].split("; final")[0]
    energy = json.loads(text)["energy_ev"]
    return call(
        "complete_task",
        outputs={"energy": {"value": energy, "unit": "eV", "source": "result.json"}},
    )


def executor_replies(a: str) -> list[Reply]:
    """The executor's three replies for one subtask."""
    return [
        call("write_script", name="sp.yaml", content=bulk(a)),
        call("run", name="sp.yaml"),
        complete_energy,
    ]


def finish(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    """The final answer, citing both energies as the reports give them."""
    found = re.findall(
        r"subtask (s\d) \(ase\): completed\n(?:.*\n)*?output energy = ([-0-9.eE+]+) eV "
        r"\(source (\S+); quantity ([^)]+)\)",
        prompt_text(messages[-1:]),
    )
    assert len(found) == 2, prompt_text(messages[-1:])
    values = [
        {"name": f"energy_{sid}", "value": float(v), "unit": "eV", "source": src, "quantity": q}
        for sid, v, src, q in sorted(found)
    ]
    summary = ", ".join(
        f"E({a}) = {float(v['value']):.4f} eV" for a, v in zip(("3.6", "3.7"), values, strict=True)
    )
    return call("finish", answer={"summary": summary, "values": values})


def finish_text(text: str) -> ModelResponse:
    """finish citing every output of the completed reports in ``text`` as they are given
    (each named ``<output>_<subtask>``)."""
    values: dict[str, dict[str, Any]] = {}
    for report in re.finditer(r"subtask (\w+) \(\w+\): completed\n((?:(?!subtask ).*\n?)*)", text):
        for out in re.finditer(
            r"output (\w+) = ([-0-9.eE+]+) (\S*) ?\(source (\S+); quantity ([^)]+)\)",
            report.group(2),
        ):
            name = f"{out.group(1)}_{report.group(1)}"
            values[name] = {
                "name": name,
                "value": float(out.group(2)),
                "unit": out.group(3),
                "source": out.group(4),
                "quantity": out.group(5),
            }
    assert values, text
    return call("finish", answer={"summary": "Done.", "values": list(values.values())})


def finish_all(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    """finish citing every output of the completed reports of the latest prompt."""
    return finish_text(prompt_text(messages[-1:]))


def kill(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    """SIGKILL this process (a reply that never comes)."""
    os.kill(os.getpid(), signal.SIGKILL)
    raise AssertionError("unreachable")


def orchestrator(
    settings: Settings, store: Store, scripts: dict[str, ScriptedModel], **kw: Any
) -> Orchestrator:
    """The orchestrator of these runs, its models scripted."""
    cfg = agent_settings({"orchestrator": "scripted:orch", "executor": "scripted:exec"})
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


def main() -> None:
    """Start the run and die where MODE says."""
    home, mode = Path(sys.argv[1]), sys.argv[2]
    settings = Settings(home=home, threads=1)
    plan = call("outline_plan", subtasks=PLAN)
    if mode == "refine":
        first = call("outline_plan", subtasks=PLAN[:1])
        orch = [first, finish_all, call("refine_plan", add=PLAN[1:])]
        ex = [*executor_replies("3.6"), executor_replies("3.7")[0], kill]
    elif mode == "between":
        orch = [plan, kill]
        ex = executor_replies("3.6")
    else:
        orch = [plan, call("proceed")]
        ex = [*executor_replies("3.6"), executor_replies("3.7")[0], kill]
    scripts = {
        "scripted:orch": ScriptedModel(orch, "scripted:orch"),
        "scripted:exec": ScriptedModel(ex, "scripted:exec"),
    }
    with pytest.MonkeyPatch.context() as mp:
        block_network(mp)
        orch_ = orchestrator(settings, Store.at(home / "simwright.db"), scripts)
        out = orch_.run(REQUEST if mode != "refine" else "EMT energy of fcc Cu at a = 3.6 Å")
        if mode == "refine":
            orch_.refine(out.run_id, "Also at a = 3.7 Å.", author="ana")


if __name__ == "__main__":
    main()
