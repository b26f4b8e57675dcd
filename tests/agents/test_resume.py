"""Agent runs resume: a run SIGKILLed in a child process goes on from its recorded plan,
reports and usage — completed subtasks never run again, each model request is booked
once, the scripted models are asked exactly what is left (a script that runs out fails)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import select

from helpers.agent_kill import PLAN, REQUEST, executor_replies, finish, finish_all, orchestrator
from helpers.agents import block_network, prompt_text
from simwright.agents.scripted import ScriptedModel, call
from simwright.agents.usage.view import usage_json
from simwright.settings import Settings
from simwright.store import Store
from simwright.store.models_agents import AgentSubtaskRow, AgentUsageRow

TESTS = Path(__file__).resolve().parents[1]
SRC = TESTS.parent / "src"


@pytest.fixture(autouse=True)
def _no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    block_network(monkeypatch)


def _killed_run(settings: Settings, store: Store, mode: str) -> str:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(SRC), str(TESTS)]))
    proc = subprocess.run(
        [sys.executable, str(TESTS / "helpers" / "agent_kill.py"), str(settings.home), mode],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == -signal.SIGKILL, proc.stderr[-3000:]
    (run,) = store.list_runs(5)
    assert (run.protocol, run.status) == ("agent", "running")
    return run.id


def _subtasks(store: Store, run_id: str) -> dict[str, tuple[str, int]]:
    with store.transaction() as s:
        rows = s.scalars(select(AgentSubtaskRow).where(AgentSubtaskRow.run_id == run_id))
        return {r.subtask_id: (r.status, r.revision) for r in rows}


def _usage_rows(store: Store, run_id: str) -> list[tuple[str, str]]:
    with store.transaction() as s:
        rows = s.scalars(select(AgentUsageRow).where(AgentUsageRow.run_id == run_id))
        return [(r.role, r.subtask) for r in rows]


@pytest.mark.parametrize("mode", ["between", "during"])
def test_a_killed_agent_run_resumes_without_repeating_work(
    settings: Settings, store: Store, mode: str
) -> None:
    run_id = _killed_run(settings, store, mode)
    before = _usage_rows(store, run_id)
    s1_result = settings.runs_path / run_id / "subtasks" / "s1" / "attempt1" / "result.json"
    s1_bytes = s1_result.read_bytes()
    if mode == "between":  # s1 recorded, its report not yet answered
        assert _subtasks(store, run_id) == {"s1": ("completed", 0), "s2": ("pending", 0)}
        assert before == [("orchestrator", "")] + [("executor", "s1")] * 3
        orch = ScriptedModel([call("proceed"), finish], "scripted:orch")
    else:  # killed inside s2's executor
        assert _subtasks(store, run_id) == {"s1": ("completed", 0), "s2": ("running", 0)}
        assert len(before) == 6 and before[-1] == ("executor", "s2")
        orch = ScriptedModel([finish], "scripted:orch")
    ex = ScriptedModel(executor_replies("3.7"), "scripted:exec")
    scripts = {"scripted:orch": orch, "scripted:exec": ex}

    out = orchestrator(settings, store, scripts).resume(run_id)

    assert out.status == "completed", out.error
    assert all(m.left == 0 for m in scripts.values())  # asked exactly what was left
    assert {v.name: v.quantity for v in out.answer.values} == {  # type: ignore[union-attr]
        "energy_s1": "energy_ev",
        "energy_s2": "energy_ev",
    }
    steps = [s.name for s in store.steps(run_id)]
    assert steps == ["subtask:s1", "subtask:s2"]  # each executed (to its end) once
    assert s1_result.read_bytes() == s1_bytes
    revision = 0 if mode == "between" else 1  # an interrupted subtask restarts in a new folder
    assert _subtasks(store, run_id) == {"s1": ("completed", 0), "s2": ("completed", revision)}
    s2_folder = "s2" if mode == "between" else "s2-r1"
    assert out.reports[1].folders == (f"{run_id}/subtasks/{s2_folder}",)
    after = _usage_rows(store, run_id)
    assert after[: len(before)] == before and len(after) == len(before) + 5 - (mode == "during")
    assert out.usage.requests == len(after) == usage_json(store, run_id)["total"]["requests"]
    assert [e.kind for e in store.events(run_id)].count("resumed") == 1
    row = store.get_run(run_id)
    assert row.status == "completed"
    assert json.loads(row.result_json or "{}")["usage"]["requests"] == len(after)


def test_resume_refuses_completed_and_protocol_runs(settings: Settings, store: Store) -> None:
    from simwright.errors import ValidationError
    from simwright.graph.runner import new_run_id

    orch = ScriptedModel(
        [call("outline_plan", subtasks=[PLAN[0]]), call("finish", answer={"summary": "Done."})],
        "scripted:orch",
    )
    scripts = {
        "scripted:orch": orch,
        "scripted:exec": ScriptedModel(executor_replies("3.6"), "scripted:exec"),
    }
    agent = orchestrator(settings, store, scripts)
    done = agent.run(REQUEST)
    assert done.status == "completed", done.error
    stored = store.get_run(done.run_id).result_json
    with pytest.raises(ValidationError, match="already completed"):
        agent.resume(done.run_id)
    row = store.get_run(done.run_id)
    assert (row.status, row.result_json) == ("completed", stored)  # left intact
    other = new_run_id()
    store.create_run(
        other, "lattice_constant", request="a0", params_json="{}", workdir="/x", version="t"
    )
    with pytest.raises(ValidationError, match="not an agent run"):
        agent.resume(other)


def test_the_cli_resumes_agent_runs_and_refuses_what_it_cannot(
    settings: Settings, store: Store
) -> None:
    from typer.testing import CliRunner

    from simwright.cli.main import app

    orch = ScriptedModel(
        [call("outline_plan", subtasks=[PLAN[0]]), call("finish", answer={"summary": "Done."})],
        "scripted:orch",
    )
    ex = ScriptedModel(executor_replies("3.6"), "scripted:exec")
    done = orchestrator(settings, store, {"scripted:orch": orch, "scripted:exec": ex}).run(REQUEST)
    home = str(settings.home)
    runner = CliRunner()
    offline = {"SIMWRIGHT_MODEL": "ollama:qwen2.5:7b"}  # configured, never reached
    for args in (["resume", done.run_id], ["ask", "--resume", done.run_id]):
        result = runner.invoke(app, [*args, "--home", home, "--json"], env=offline)
        assert result.exit_code == 2, result.output
        assert "already completed" in json.loads(result.stdout)["error"]
    neither = runner.invoke(app, ["ask", "--home", home], env=offline)
    assert neither.exit_code == 2 and "--resume RUN" in " ".join(neither.output.split())
    assert store.get_run(done.run_id).status == "completed"


def test_a_killed_refinement_turn_resumes_without_refining_twice(
    settings: Settings, store: Store
) -> None:
    run_id = _killed_run(settings, store, "refine")
    assert _subtasks(store, run_id) == {"s1": ("completed", 0), "s2": ("running", 0)}
    kinds = [e.kind for e in store.events(run_id)]
    assert kinds.count("user_feedback") == 1 and kinds.count("plan_refined") == 1
    orch = ScriptedModel([finish_all], "scripted:orch")  # no second refine_plan is asked for
    ex = ScriptedModel(executor_replies("3.7"), "scripted:exec")
    scripts = {"scripted:orch": orch, "scripted:exec": ex}

    out = orchestrator(settings, store, scripts).resume(run_id)

    assert out.status == "completed", out.error
    assert all(m.left == 0 for m in scripts.values())
    assert sorted(v.name for v in out.answer.values) == ["energy_s1", "energy_s2"]  # type: ignore[union-attr]
    assert _subtasks(store, run_id) == {"s1": ("completed", 0), "s2": ("completed", 1)}
    assert [s.name for s in store.steps(run_id)] == ["subtask:s1", "subtask:s2"]
    assert "Also at a = 3.7 Å." in prompt_text(orch.seen[0])  # the turn's feedback is kept
