"""The typed values model replies are parsed into, before anything is allowed to act.

Every reply is a pydantic model with ``extra="forbid"`` and ranges as constraints,
so an unknown field, a wrong type or an out-of-range value is refused by
pydantic-ai and sent back to the model as a retry prompt; what survives is then
validated against the world (protocol schemas, artifacts, the plan) by the code
that uses it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

EXECUTORS: tuple[str, ...] = ("protocol", "lammps", "ase", "packmol", "analysis", "pwx")
"""The built-in executors; an external one (an MCP server) is named in the configuration."""
Scalar = bool | int | float | str
ParamValue = Scalar | list[Scalar]
ID = r"^[a-z][a-z0-9_]{0,39}$"
_STRICT = ConfigDict(frozen=True, extra="forbid")


# -- planning -------------------------------------------------------------------
class SubtaskSpec(BaseModel):
    """A subtask: its instruction, executor, dependencies and the outputs it must report.

    ``executor="protocol"`` runs the registered protocol ``protocol`` with
    ``parameters`` (validated by the protocol) — no script is written.
    """

    model_config = _STRICT

    id: str = Field(pattern=ID)
    instruction: str = Field(min_length=3, max_length=4000)
    executor: str = Field(pattern=ID)
    """A built-in executor or a configured external one (checked against the plan's)."""
    depends_on: list[str] = Field(default_factory=list, max_length=10)
    required_outputs: list[str] = Field(default_factory=list, max_length=20)
    protocol: str | None = Field(default=None, pattern=ID)
    parameters: dict[str, ParamValue] = Field(default_factory=dict)


class PlanReply(BaseModel):
    """The orchestrator's outline: questions for the user, or the subtasks."""

    model_config = _STRICT

    questions: list[str] = Field(default_factory=list, max_length=5)
    subtasks: list[SubtaskSpec] = Field(default_factory=list, max_length=20)
    rationale: str = Field(default="", max_length=4000)


# -- orchestration updates ------------------------------------------------------
class Proceed(BaseModel):
    """Go on with the plan as it is."""

    model_config = _STRICT

    note: str = Field(default="", max_length=1000)


class ReviseSubtask(BaseModel):
    """Run a subtask (again) with a new instruction and, optionally, new outputs."""

    model_config = _STRICT

    subtask_id: str = Field(pattern=ID)
    instruction: str = Field(min_length=3, max_length=4000)
    required_outputs: list[str] | None = Field(default=None, max_length=20)


class DiscardSubtask(BaseModel):
    """Drop a subtask that is no longer needed (and those that depend on it)."""

    model_config = _STRICT

    subtask_id: str = Field(pattern=ID)
    reason: str = Field(min_length=3, max_length=1000)


class AddSubtasks(BaseModel):
    """Add subtasks to the plan."""

    model_config = _STRICT

    subtasks: list[SubtaskSpec] = Field(min_length=1, max_length=10)


class ConsultExecutor(BaseModel):
    """Ask the executor of a finished subtask a question (it may report again)."""

    model_config = _STRICT

    subtask_id: str = Field(pattern=ID)
    question: str = Field(min_length=3, max_length=2000)


class ReportedValue(BaseModel):
    """A result of the final answer: the artifact and the named quantity it comes from."""

    model_config = _STRICT

    name: str = Field(min_length=1, max_length=80)
    value: float
    unit: str = Field(default="", max_length=40)
    source: str = Field(min_length=1, max_length=400)
    """The artifact holding the value, relative to the runs folder (as reports give it)."""
    quantity: str = Field(min_length=1, max_length=120)
    """The named quantity of ``source``: a column (``diffusion_coefficient``,
    ``mean(temperature)``, ``energy[-1]``), an attribute, a JSON key path."""


class LiteratureValue(BaseModel):
    """A published value the answer quotes: written in the summary as ``2.49 [ref:KEY]``."""

    model_config = _STRICT

    key: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9_-]{0,39}$")
    value: float
    unit: str = Field(default="", max_length=40)
    citation: str = Field(min_length=3, max_length=400)
    """Authors, year and venue (``Mark & Nilsson, J. Phys. Chem. A 105, 9954 (2001)``)."""


class FinalAnswer(BaseModel):
    """The answer to the user: a summary, the results it reports and the literature it quotes.

    Every number of ``summary`` is one of ``values`` (each traced to a named quantity of
    an artifact), a number of the request, or a literature value followed by its
    marker ``[ref:KEY]`` naming an entry of ``references``.
    """

    model_config = _STRICT

    summary: str = Field(min_length=1, max_length=6000)
    values: list[ReportedValue] = Field(default_factory=list, max_length=50)
    references: list[LiteratureValue] = Field(default_factory=list, max_length=20)


class Finish(BaseModel):
    """End the run with the final answer."""

    model_config = _STRICT

    answer: FinalAnswer


Update = Proceed | ReviseSubtask | DiscardSubtask | AddSubtasks | ConsultExecutor | Finish


class RefinePlan(BaseModel):
    """The orchestrator's answer to a person's feedback: the subtasks to revise (run again
    with a new instruction), discard and add. Completed subtasks not named are reused."""

    model_config = _STRICT

    revise: list[ReviseSubtask] = Field(default_factory=list, max_length=10)
    discard: list[DiscardSubtask] = Field(default_factory=list, max_length=10)
    add: list[SubtaskSpec] = Field(default_factory=list, max_length=10)
    note: str = Field(default="", max_length=2000)


# -- executors ------------------------------------------------------------------
class OutputValue(BaseModel):
    """A value an executor reports, with the file (in its working directory) that holds it."""

    model_config = _STRICT

    value: float
    unit: str = Field(default="", max_length=40)
    source: str = Field(min_length=1, max_length=400)
    quantity: str = Field(default="", max_length=120)
    """The named quantity of ``source`` (a column, attribute or JSON key); empty: the
    guard finds the one that matches and records it."""


class CompleteTask(BaseModel):
    """The executor finished: its outputs (each traced to a file) and a short summary."""

    model_config = _STRICT

    outputs: dict[str, OutputValue] = Field(default_factory=dict, max_length=40)
    summary: str = Field(default="", max_length=4000)


class AbortTask(BaseModel):
    """The executor gives up, saying why."""

    model_config = _STRICT

    reason: str = Field(min_length=3, max_length=2000)


# -- review ---------------------------------------------------------------------
VoteKind = Literal["pass", "concern", "reject", "malicious"]
Verdict = Literal["pass", "revise", "fail"]


class CriticVote(BaseModel):
    """A critic's vote on an executor's work and its reasons."""

    model_config = _STRICT

    vote: VoteKind
    reasons: list[str] = Field(default_factory=list, max_length=10)


class Feedback(BaseModel):
    """The summarizer's condensed feedback for the executor."""

    model_config = _STRICT

    feedback: str = Field(min_length=3, max_length=3000)


# -- documentation --------------------------------------------------------------
class Selection(BaseModel):
    """The selector's pick among the retrieved pages (by page name)."""

    model_config = _STRICT

    pages: list[str] = Field(min_length=1, max_length=5)


class Mark(BaseModel):
    """A passage the annotator marks as mattering for the subtask."""

    model_config = _STRICT

    page: str
    quote: str = Field(min_length=3, max_length=600)
    why: str = Field(default="", max_length=300)


class Annotation(BaseModel):
    """The annotator's marks."""

    model_config = _STRICT

    marks: list[Mark] = Field(default_factory=list, max_length=10)


# -- decisions of other layers --------------------------------------------------
class DecisionReply(BaseModel):
    """An option chosen at a decision point of a typed graph, and why."""

    model_config = _STRICT

    option: str = Field(min_length=1, max_length=120)
    rationale: str = Field(default="", max_length=2000)


class FixReply(BaseModel):
    """Changes to pw.x namelists (namelist -> variable -> value; null removes) and why."""

    model_config = _STRICT

    changes: dict[str, dict[str, Scalar | None]] = Field(min_length=1)
    rationale: str = Field(default="", max_length=2000)
