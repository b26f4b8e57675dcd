"""The plan as it runs: subtasks with their status, reports and executor sessions.

The orchestrator's updates are applied here after validation: revise (the
subtask runs again with the new instruction), discard (with every subtask that
depends on it), add (validated like the outline), consult. The board also says
which subtask can run next (all dependencies completed) and which folders and
numbers a final answer may draw on.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from simwright.agents.execution.executor import Session
from simwright.agents.replies import AddSubtasks, DiscardSubtask, ReviseSubtask, SubtaskSpec
from simwright.agents.review.fabrication import numbers_in_text
from simwright.agents.review.reports import SubtaskReport

Status = Literal["pending", "completed", "failed", "discarded"]


@dataclass
class Task:
    """One subtask of the plan."""

    spec: SubtaskSpec
    status: Status = "pending"
    report: SubtaskReport | None = None
    session: Session | None = None
    revision: int = 0

    @property
    def folder_name(self) -> str:
        """The subtask's folder under ``subtasks/`` (a revision gets its own)."""
        return self.spec.id if not self.revision else f"{self.spec.id}-r{self.revision}"


@dataclass
class Board:
    """The subtasks of a run, in plan order."""

    request: str
    tasks: dict[str, Task] = field(default_factory=dict)
    feedback: list[str] = field(default_factory=list)
    """A person's feedback on earlier turns, oldest first (``simwright ask --continue``)."""

    @classmethod
    def of(cls, request: str, specs: list[SubtaskSpec]) -> Board:
        """A board with ``specs`` pending."""
        return cls(request, {s.id: Task(s) for s in specs})

    def __iter__(self) -> Iterator[Task]:
        return iter(self.tasks.values())

    def ids(self) -> frozenset[str]:
        """Every subtask id, discarded ones included (ids are never reused)."""
        return frozenset(self.tasks)

    def runnable(self) -> Task | None:
        """The first pending subtask whose dependencies all completed."""
        for task in self:
            if task.status == "pending" and all(
                self.tasks[d].status == "completed" for d in task.spec.depends_on
            ):
                return task
        return None

    def pending(self) -> list[Task]:
        """Subtasks not yet run."""
        return [t for t in self if t.status == "pending"]

    def revise(self, update: ReviseSubtask) -> Task:
        """Set a subtask to run again with a new instruction."""
        task = self.tasks[update.subtask_id]
        changes: dict[str, object] = {"instruction": update.instruction}
        if update.required_outputs is not None:
            changes["required_outputs"] = update.required_outputs
        task.spec = task.spec.model_copy(update=changes)
        task.status, task.report, task.session = "pending", None, None
        task.revision += 1
        return task

    def rerun_dependents(self, changed: list[str]) -> list[str]:
        """Set the completed or failed subtasks depending (transitively) on ``changed`` to
        run again (their inputs change); their ids."""
        again: list[str] = []
        stale = set(changed)
        moved = True
        while moved:
            moved = False
            for task in self:
                if (
                    task.spec.id not in stale
                    and task.status in ("completed", "failed")
                    and stale.intersection(task.spec.depends_on)
                ):
                    task.status, task.report, task.session = "pending", None, None
                    task.revision += 1
                    stale.add(task.spec.id)
                    again.append(task.spec.id)
                    moved = True
        return again

    def discard(self, update: DiscardSubtask) -> list[str]:
        """Discard a subtask and, transitively, those depending on it; their ids."""
        gone = [update.subtask_id]
        self.tasks[update.subtask_id].status = "discarded"
        changed = True
        while changed:
            changed = False
            for task in self:
                if task.status != "discarded" and any(d in gone for d in task.spec.depends_on):
                    task.status = "discarded"
                    gone.append(task.spec.id)
                    changed = True
        return gone

    def add(self, update: AddSubtasks) -> None:
        """Append validated subtasks."""
        for spec in update.subtasks:
            self.tasks[spec.id] = Task(spec)

    def reports(self) -> list[SubtaskReport]:
        """The reports so far, in plan order (discarded subtasks' reports no longer count)."""
        return [t.report for t in self if t.report is not None and t.status != "discarded"]

    def folders(self, root: Path) -> list[Path]:
        """Folders holding the files of completed subtasks (a final answer's sources)."""
        return [root / f for r in self.reports() if r.status == "completed" for f in r.folders]

    def known_numbers(self) -> list[float]:
        """Numbers of the request, of a person's feedback and of the parameters of protocol
        subtasks that ran (validated inputs). Instructions are model-written: their numbers
        do not count."""
        texts = [self.request, *self.feedback]
        for task in self:
            if task.spec.executor == "protocol" and task.status == "completed":
                texts.extend(str(v) for v in task.spec.parameters.values())
        return [w.value for text in texts for w in numbers_in_text(text)]

    def text(self) -> str:
        """The plan's state as the orchestrator reads it."""
        lines = []
        for t in self:
            deps = f" after {', '.join(t.spec.depends_on)}" if t.spec.depends_on else ""
            lines.append(
                f"- {t.spec.id} [{t.spec.executor}] {t.status}{deps}: {t.spec.instruction[:200]}"
            )
        return "\n".join(lines)
