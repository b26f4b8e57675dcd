"""Where a killed agent run stood, read back from its records, so it can go on.

The plan is the run's ``agent_subtasks`` rows (in the order planned or added): each
subtask's spec, status, revision and report. A completed or failed subtask keeps
its report and never runs again; one recorded as ``running`` (the process died
inside it) runs again from scratch in a fresh folder (its revision is raised). The
orchestrator's position is read from the events: a ``subtask_report`` that no
``orchestrator_update`` followed is the report the orchestrator must still answer;
a recorded ``Finish`` is the answer. The usage booked before the kill is loaded into
the new ledger (see :meth:`AgentRecorder.usage_entries`), so caps and totals count
every model request once.

Turns (:mod:`.refine`): a ``user_feedback`` event opens a new turn (the earlier answer
no longer ends the run); until its ``plan_refined`` event the feedback is still to be
answered. A ``held_for_review`` event that no approval or feedback followed means
the run waits for a person.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from simwright.agents.orchestration.board import Board, Status, Task
from simwright.agents.orchestration.refine import (
    APPROVED_EVENT,
    FEEDBACK_EVENT,
    HELD_EVENT,
    REFINED_EVENT,
)
from simwright.agents.replies import FinalAnswer, SubtaskSpec
from simwright.agents.review.reports import SubtaskReport
from simwright.agents.usage.records import AgentRecorder
from simwright.store import Store
from simwright.store.models_agents import AgentSubtaskRow

FINAL: tuple[Status, ...] = ("completed", "failed", "discarded")
PLAN_EVENT = "plan_recorded"
"""The event holding the request the plan answers (after any clarification)."""


@dataclass(frozen=True)
class Resumed:
    """What a resumed run starts from."""

    request: str
    board: Board | None
    """None when the run died before its plan was recorded (it plans again)."""
    latest: SubtaskReport | None = None
    """A report the orchestrator has not answered yet."""
    answer: FinalAnswer | None = None
    """The final answer, when it was accepted before the kill."""
    restarted: tuple[str, ...] = ()
    """Subtasks interrupted by the kill, to run again."""
    pending_feedback: str | None = None
    """A person's feedback the orchestrator has not answered with a plan change yet."""
    held: str | None = None
    """Why the run waits for a person (``plan``, ``verdict``); None when it does not."""
    answers: tuple[str, ...] = ()
    """The summaries of the answers of earlier turns, oldest first."""


def _task(row: AgentSubtaskRow) -> tuple[Task, bool]:
    spec = SubtaskSpec.model_validate(json.loads(row.spec_json))
    report_data = json.loads(row.report_json or "{}")
    status = row.status
    task = Task(spec, revision=row.revision)
    interrupted = status == "running"
    for kept in FINAL:
        if status == kept:
            task.status = kept
    if report_data and status in ("completed", "failed"):
        task.report = SubtaskReport.from_dict(report_data)
    if interrupted:
        task.revision += 1
    return task, interrupted


def load_state(store: Store, recorder: AgentRecorder) -> Resumed:
    """The board, the unanswered report and the answer of a stored agent run."""
    request = store.get_run(recorder.run_id).request or ""
    events = store.events(recorder.run_id)
    for e in events:
        if e.kind == PLAN_EVENT:
            request = str(json.loads(e.payload_json or "{}").get("request", request))
    rows = recorder.subtasks()
    if not rows:  # no plan yet: a person's feedback answers what planning asked
        given = [
            str(json.loads(e.payload_json or "{}").get("text", e.message))
            for e in events
            if e.kind == FEEDBACK_EVENT
        ]
        return Resumed("; ".join([request, *given]), None)
    board = Board(request)
    restarted = []
    for row in rows:
        task, interrupted = _task(row)
        board.tasks[task.spec.id] = task
        if interrupted:
            restarted.append(task.spec.id)
    pending: str | None = None
    answer: FinalAnswer | None = None
    feedback: str | None = None
    held: str | None = None
    answers: list[str] = []
    for e in events:
        payload = json.loads(e.payload_json or "{}")
        if e.kind == "subtask_report":
            pending = str(payload.get("subtask", "")) or None
        elif e.kind == "orchestrator_update":
            pending = None
            update = payload.get("update", {})
            if e.message == "Finish" and "answer" in update:
                answer = FinalAnswer.model_validate(update["answer"])
                answers.append(answer.summary)
        elif e.kind == FEEDBACK_EVENT:
            said = str(payload.get("text", e.message))
            board.feedback.append(said)
            feedback, answer, held = said, None, None
        elif e.kind == REFINED_EVENT:
            feedback = None
        elif e.kind == HELD_EVENT:
            held = str(payload.get("reason", "plan"))
        elif e.kind == APPROVED_EVENT:
            held = None
    latest = None
    if pending is not None and pending in board.tasks:
        latest = board.tasks[pending].report
    return Resumed(request, board, latest, answer, tuple(restarted), feedback, held, tuple(answers))
