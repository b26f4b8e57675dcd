"""Turns and approvals: a person's feedback on a finished run (finished subtasks reused,
not rerun), a plan held for approval, a Fail verdict held for a person. Scripted models
through the production seam; the engines are real (ASE/EMT, the lattice-constant protocol)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from helpers.agent_kill import PLAN, executor_replies, finish_all
from helpers.agents import agent_settings, block_network, prompt_text
from simwright.agents.execution.adapters_specs import AnalysisAdapter, AseAdapter
from simwright.agents.execution.examples import Episode, EpisodicMemory, NoMemory, Recalled
from simwright.agents.orchestration.board import Board
from simwright.agents.orchestration.orchestrator import Orchestrator
from simwright.agents.orchestration.refine import apply_refinement
from simwright.agents.replies import RefinePlan, ReviseSubtask, SubtaskSpec
from simwright.agents.review.reports import SubtaskReport
from simwright.agents.scripted import ScriptedModel, ScriptedModels, call
from simwright.agents.usage.turns import turns_json
from simwright.errors import ValidationError
from simwright.knowledge.modules import load_modules
from simwright.protocols import load_protocols
from simwright.settings import Settings
from simwright.store import Store

A0_PLAN = {
    "id": "a0",
    "instruction": "lattice constant of fcc Cu with EMT",
    "executor": "protocol",
    "protocol": "lattice_constant",
    "parameters": {"element": "Cu", "lattice": "fcc"},
    "required_outputs": ["lattice_constant"],
}


@pytest.fixture(autouse=True)
def _no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    block_network(monkeypatch)


def orchestrator(
    settings: Settings,
    store: Store,
    scripts: dict[str, ScriptedModel],
    memory: EpisodicMemory | None = None,
    **options: Any,
) -> Orchestrator:
    roles = {"orchestrator": "scripted:orch", "executor": "scripted:exec"}
    critics = ["scripted:critic"] if "scripted:critic" in scripts else []
    return Orchestrator(
        settings=agent_settings(roles, critics=critics, **options),
        factory=ScriptedModels(scripts),
        store=store,
        sim_settings=settings,
        protocols=load_protocols(),
        modules=load_modules(),
        adapters={"ase": AseAdapter(), "analysis": AnalysisAdapter()},
        memory=memory or NoMemory(),
    )


class OneEpisode:
    """An episodic memory holding one successful ASE episode (similarity 0.9)."""

    def __init__(self, episode: Episode) -> None:
        self.episode = episode

    def recall(self, executor: str, instruction: str, min_similarity: float) -> Recalled | None:
        """The episode, for the ASE executor."""
        return Recalled(self.episode, 0.9) if executor == "ase" else None

    def remember(self, episode: Episode) -> None:
        """Nothing is kept."""


def scripts_of(orch: list[Any], ex: list[Any], critic: list[Any] | None = None) -> dict[str, Any]:
    out = {
        "scripted:orch": ScriptedModel(orch, "scripted:orch"),
        "scripted:exec": ScriptedModel(ex, "scripted:exec"),
    }
    if critic is not None:
        out["scripted:critic"] = ScriptedModel(critic, "scripted:critic")
    return out


def events(store: Store, run_id: str, kind: str) -> list[dict[str, Any]]:
    return [
        {"message": e.message, **json.loads(e.payload_json or "{}")}
        for e in store.events(run_id)
        if e.kind == kind
    ]


def test_feedback_adds_a_subtask_and_reuses_the_finished_one(
    settings: Settings, store: Store
) -> None:
    scripts = scripts_of(
        [
            call("outline_plan", subtasks=[PLAN[0]]),
            finish_all,
            call("refine_plan", discard=[{"subtask_id": "s9", "reason": "not there"}]),
            call("refine_plan", add=[PLAN[1]], note="add the 3.7 Å point"),
            finish_all,
        ],
        [*executor_replies("3.6"), *executor_replies("3.7")],
    )
    past = Episode("ase", "EMT energy of fcc Cu at a = 3.7 Å", "success", outputs={"energy": -1})
    orch = orchestrator(settings, store, scripts, memory=OneEpisode(past))
    first = orch.run("EMT energy of fcc Cu at a = 3.6 Å")
    assert first.status == "completed", first.error

    second = orch.refine(first.run_id, "Also at a = 3.7 Å, please.", author="ana")

    assert second.status == "completed" and second.run_id == first.run_id, second.error
    assert sorted(v.name for v in second.answer.values) == ["energy_s1", "energy_s2"]  # type: ignore[union-attr]
    assert [s.name for s in store.steps(first.run_id)] == ["subtask:s1", "subtask:s2"]  # s1 reused
    assert all(m.left == 0 for m in scripts.values())
    (said,) = events(store, first.run_id, "user_feedback")
    assert (said["author"], said["turn"], said["text"]) == ("ana", 1, "Also at a = 3.7 Å, please.")
    assert re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", said["at"])
    (refined,) = events(store, first.run_id, "plan_refined")
    assert (refined["changed"], refined["reused"]) == (["s2"], ["s1"])
    refine_prompt = prompt_text(scripts["scripted:orch"].seen[2])
    assert "First answer: Done." in refine_prompt and "subtask s1 (ase): completed" in refine_prompt
    assert "New feedback from the user: Also at a = 3.7" in refine_prompt
    remembered = "a past ase subtask (similarity 0.90): EMT energy of fcc Cu at a = 3.7"
    assert remembered in refine_prompt
    retry = str(scripts["scripted:orch"].seen[3][-1])
    assert "no subtask ['s9']" in retry  # an unknown subtask is sent back, not applied
    turns = turns_json(store, first.run_id)
    assert [(t["kind"], t["author"]) for t in turns] == [
        ("request", None),
        ("answer", None),
        ("feedback", "ana"),
        ("answer", None),
    ]
    assert (turns[2]["changed"], turns[2]["reused"]) == (["s2"], ["s1"])
    assert store.get_run(first.run_id).status == "completed"


def _spec(sid: str, *deps: str) -> SubtaskSpec:
    return SubtaskSpec(id=sid, instruction=f"do {sid}", executor="ase", depends_on=list(deps))


def test_a_revised_subtask_reruns_what_depends_on_it_and_nothing_else() -> None:
    board = Board.of("r", [_spec("a"), _spec("b", "a"), _spec("c", "b"), _spec("d")])
    for task in board:
        task.status = "completed"
        task.report = SubtaskReport(task.spec.id, "ase", "completed")
    plan = RefinePlan(revise=[ReviseSubtask(subtask_id="a", instruction="do a better")])
    assert apply_refinement(board, plan) == ["a", "b", "c"]
    assert [(t.spec.id, t.status, t.revision) for t in board] == [
        ("a", "pending", 1),
        ("b", "pending", 1),
        ("c", "pending", 1),
        ("d", "completed", 0),
    ]
    assert board.tasks["a"].spec.instruction == "do a better"


def test_a_held_plan_runs_only_when_approved(settings: Settings, store: Store) -> None:
    scripts = scripts_of([call("outline_plan", subtasks=[A0_PLAN]), finish_all], [])
    orch = orchestrator(settings, store, scripts)
    held = orch.run("lattice constant of fcc Cu with EMT", review_plan=True)

    assert held.status == "needs_review" and "--approve" in (held.error or "")
    assert store.get_run(held.run_id).status == "needs_review"
    assert not store.steps(held.run_id) and held.reports == ()
    (plan,) = events(store, held.run_id, "held_for_review")
    (row,) = plan["subtasks"]
    assert (row["protocol"], row["parameters"]["element"]) == ("lattice_constant", "Cu")
    assert row["engine"]["atoms"] > 0 and "core-hours" in row["engine"]["summary"]
    assert plan["estimate"]["max_model_requests"] == 2
    with pytest.raises(ValidationError, match="waits for a person"):
        orch.resume(held.run_id)

    done = orch.approve(held.run_id, author="ana")

    assert done.status == "completed", done.error
    assert 3.5 < done.answer.values[0].value < 3.7  # type: ignore[union-attr]
    assert events(store, held.run_id, "plan_approved")[0]["author"] == "ana"
    with pytest.raises(ValidationError, match="nothing to approve"):
        orch.approve(held.run_id, author="ana")


def test_a_fail_verdict_waits_for_a_person_whose_feedback_changes_the_plan(
    settings: Settings, store: Store
) -> None:
    scripts = scripts_of(
        [
            call("outline_plan", subtasks=[PLAN[0]]),
            call("refine_plan", discard=[{"subtask_id": "s1", "reason": "failed"}], add=[PLAN[1]]),
            finish_all,
        ],
        [*executor_replies("3.6"), *executor_replies("3.7")],
        [
            call("vote", vote="malicious", reasons=["reads files it should not"]),
            call("vote", vote="pass"),
        ],
    )
    orch = orchestrator(settings, store, scripts, hold_on_fail=True)
    held = orch.run("EMT energy of fcc Cu at a = 3.6 Å")

    assert held.status == "needs_review", held.error
    (why,) = events(store, held.run_id, "held_for_review")
    assert (why["reason"], why["subtask"]) == ("verdict", "s1")
    assert held.reports[0].review_failed and held.reports[0].status == "failed"

    done = orch.refine(held.run_id, "Skip 3.6 Å; compute 3.7 Å instead.", author="ben")

    assert done.status == "completed", done.error
    assert [v.name for v in done.answer.values] == ["energy_s2"]  # type: ignore[union-attr]
    assert all(m.left == 0 for m in scripts.values())
    kinds = [t["kind"] for t in turns_json(store, held.run_id)]
    assert kinds == ["request", "held", "feedback", "answer"]


def test_feedback_on_a_run_without_a_plan_answers_its_question(
    settings: Settings, store: Store
) -> None:
    scripts = scripts_of(
        [
            call("outline_plan", questions=["Which lattice constant?"]),
            call("outline_plan", questions=["Which calculator?"]),
        ],
        [],
    )
    orch = orchestrator(settings, store, scripts)
    first = orch.run("energy of fcc Cu")
    assert first.status == "needs_clarification"

    second = orch.refine(first.run_id, "a = 3.6 Å", author="ana")

    assert second.status == "needs_clarification" and "Which calculator?" in (second.error or "")
    assert "Request: energy of fcc Cu; a = 3.6 Å" in prompt_text(scripts["scripted:orch"].seen[1])
