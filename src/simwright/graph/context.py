"""The :class:`RunContext` a step receives: its working directory and its record keeper.

A step never touches the store directly. It tells the context what it produced
(artifacts, engine calls, structures, events) and which rule chose its successor;
the runner writes all of it in one transaction when the step finishes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simwright.contract import SCHEMA_VERSION, write_structure
from simwright.errors import GraphError, NeedsReview, StoreError
from simwright.graph import codec
from simwright.graph.decision import Choice, Decider, DecisionRequest
from simwright.graph.observer import NullObserver, RunObserver
from simwright.graph.step import Step
from simwright.jobs import JobRunner
from simwright.results import ArtifactRef
from simwright.settings import Settings
from simwright.store.hashing import sha256_file
from simwright.store.records import ArtifactRecord, DecisionRecord, EngineCall, EventRecord
from simwright.structure import SanitySummary, Structure


@dataclass
class RunContext:
    """Everything a running step may use, and the buffer of what it records."""

    run_id: str
    seq: int
    attempt: int
    workdir: Path
    run_dir: Path
    settings: Settings
    allowed: tuple[str, ...]
    decider: Decider | None = None
    observer: RunObserver = field(default_factory=NullObserver)
    jobs: JobRunner | None = None
    """Where this step's engine calls run (a local pool, a batch scheduler); None: here."""
    artifacts: list[ArtifactRecord] = field(default_factory=list)
    engine_calls: list[EngineCall] = field(default_factory=list)
    decisions: list[DecisionRecord] = field(default_factory=list)
    events: list[EventRecord] = field(default_factory=list)
    structures: list[dict[str, Any]] = field(default_factory=list)
    decided_by: str | None = None
    reason: str | None = None

    # -- files --------------------------------------------------------------
    def artifact(
        self, path: Path, kind: str, description: str = "", schema_version: str = ""
    ) -> ArtifactRef:
        """Record ``path`` (inside the run directory) as an artifact of this step."""
        path = path if path.is_absolute() else self.workdir / path
        rel = self._relative(path)
        if not path.is_file():
            raise StoreError(f"artifact {rel} does not exist")
        digest = sha256_file(path)
        self.artifacts.append(
            ArtifactRecord(rel, digest, path.stat().st_size, kind, description, schema_version)
        )
        return ArtifactRef(path=rel, sha256=digest, kind=kind)

    def path(self, ref: ArtifactRef) -> Path:
        """The absolute path of a recorded artifact, after checking its content hash."""
        full = self.run_dir / ref.path
        if not full.is_file():
            raise StoreError(f"recorded artifact {ref.path} is missing")
        if sha256_file(full) != ref.sha256:
            raise StoreError(f"recorded artifact {ref.path} was changed after it was recorded")
        return full

    def _relative(self, path: Path) -> str:
        try:
            return str(path.resolve().relative_to(self.run_dir.resolve()))
        except ValueError as exc:
            raise StoreError(f"artifact {path} lies outside the run directory") from exc

    def structure(
        self, structure: Structure, name: str = "structure.extxyz", description: str = ""
    ) -> ArtifactRef:
        """Write ``structure`` as an extxyz artifact and check its sanity.

        The sanity summary is recorded with the step; atom pairs closer than
        0.55 Å fail the step (:class:`~simwright.errors.StructureError`).
        """
        summary: SanitySummary = structure.sanity()
        self.structures.append({"name": name, **summary.as_dict()})
        path = write_structure(self.workdir / name, structure, producer=self.producer)
        ref = self.artifact(path, "structure", description or summary.text(), SCHEMA_VERSION)
        structure.check()
        return ref

    @property
    def producer(self) -> str:
        """``run_id/seq-step`` naming this step in the files it writes."""
        return f"{self.run_id}/{self.workdir.name}"

    # -- engines, rules, events ---------------------------------------------
    def engine_call(self, call: EngineCall) -> None:
        """Record one engine call."""
        self.engine_calls.append(call)

    def rule(self, name: str, reason: str = "") -> None:
        """Record that rule ``name`` chose this step's successor (and why)."""
        self.decided_by = f"rule:{name}"
        self.reason = reason

    def event(self, kind: str, message: str = "", **payload: Any) -> None:
        """Record an event of this step."""
        self.events.append(EventRecord(kind, message, json.dumps(payload, default=str)))

    def progress(self, fraction: float | None, message: str = "") -> None:
        """Report progress to the observer (the CLI's progress display)."""
        self.observer.step_progress(fraction, message)

    # -- decision points ----------------------------------------------------
    def decide(
        self, point: str, options: Mapping[str, Step], inputs: Mapping[str, Any] | None = None
    ) -> Step:
        """Let the configured decider choose one of ``options`` (labelled successors).

        Every option must be a declared successor of the current step. Without a
        decider, a sole option is taken; several raise :class:`NeedsReview`, which
        stops the run as ``needs_review``. An answer naming no offered option is
        treated as no answer.
        """
        if not options:
            raise GraphError(f"decision point {point!r} offers no options")
        for label, step in options.items():
            if type(step).label() not in self.allowed:
                raise GraphError(
                    f"decision point {point!r}: option {label!r} ({type(step).label()}) "
                    "is not a declared successor"
                )
        labels = tuple(options)
        inputs = dict(inputs or {})
        choice = self._ask(point, labels, inputs)
        chosen = choice.option if choice.option in options else None
        self.decisions.append(
            DecisionRecord(
                point, labels, chosen, choice.decided_by, codec.dumps(inputs), choice.rationale
            )
        )
        if chosen is None:
            raise NeedsReview(point, labels)
        self.decided_by = choice.decided_by
        self.reason = choice.rationale or f"{point}: {chosen}"
        return options[chosen]

    def _ask(self, point: str, labels: tuple[str, ...], inputs: dict[str, Any]) -> Choice:
        if self.decider is not None:
            answer = self.decider.decide(DecisionRequest(self.run_id, point, labels, inputs))
            if answer.option in labels:
                return answer
            if len(labels) > 1:
                return Choice("", answer.decided_by, f"invalid choice {answer.option!r}")
        if len(labels) == 1:
            return Choice(labels[0], "fallback:sole-option")
        return Choice("", "fallback:needs-review", "no decider configured")
