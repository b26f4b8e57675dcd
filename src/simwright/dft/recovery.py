"""The error-recovery finite-state machine around pw.x.

States: ``entry -> generate -> validate -> run -> (success | diagnose -> repair ->
validate -> run ...) -> failure``. Every transition is returned as a
:class:`Transition` and reported to ``on_transition`` (a step records them as
events); every pw.x attempt is reported to ``on_run`` (a step records it as an
engine call). Repairs come first from the rule-based handlers
(:mod:`simwright.dft.handlers`), then from tiers of fix proposers
(:mod:`simwright.dft.proposers`); a proposal is validated against the
knowledge graph before it runs. Without a proposer an unresolved case ends as
a failure with its diagnosis.

```
entry --> generate --> validate --> run --> success
                          ^          |
                          |          v
                        repair <-- diagnose
                          |
                          v
                       failure
```
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from simwright.dft.handlers import (
    HANDLERS,
    Changes,
    Diagnosis,
    Handler,
    RepairContext,
    diagnose,
    find_repair,
)
from simwright.dft.kg_rules import Value
from simwright.dft.knowledge_graph import KnowledgeGraph
from simwright.dft.proposers import FixRequest, ProposerTier, relevant_nodes
from simwright.dft.validation import Problem, errors, validate_input
from simwright.engines.espresso.pw import PwRun
from simwright.engines.espresso.template import PwInput
from simwright.store.records import tail

State = Literal["entry", "generate", "validate", "run", "diagnose", "repair", "success", "failure"]
PwRunner = Callable[[PwInput, Path], PwRun]

_PASS_TO_ENGINE = frozenset({"unknown_variable", "wrong_namelist", "later_version", "undocumented"})
"""Problems of a user-given input that pw.x itself arbitrates (the graph may lag the engine)."""


@dataclass(frozen=True)
class Transition:
    """One edge taken by the machine."""

    index: int
    source: State
    target: State
    reason: str
    rule: str | None = None
    attempt: int = 0


@dataclass(frozen=True)
class Attempt:
    """One pw.x run, its diagnosis and the repair that followed."""

    index: int
    run: PwRun
    diagnosis: Diagnosis | None
    repair: str | None


@dataclass(frozen=True)
class RecoveryOutcome:
    """How the machine ended: the valid run (on success), every attempt, every transition."""

    status: Literal["success", "failure"]
    run: PwRun | None
    attempts: tuple[Attempt, ...]
    transitions: tuple[Transition, ...]
    message: str
    repairs: tuple[str, ...] = ()

    @property
    def zero_shot(self) -> bool:
        """Succeeded on the first run without any repair."""
        return self.status == "success" and len(self.attempts) == 1 and not self.repairs


@dataclass
class _Cursor:
    current: PwInput
    tier: int = 0
    tier_used: int = 0
    runs: int = 0
    trail: list[Transition] = field(default_factory=list)
    attempts: list[Attempt] = field(default_factory=list)
    repairs: list[str] = field(default_factory=list)
    user_input: bool = True
    pending: tuple[str, str | None] = ("check the repaired input", None)


class RecoveryMachine:
    """Runs pw.x on an input until it succeeds, repairing it on the way."""

    def __init__(
        self,
        runner: PwRunner,
        context: RepairContext,
        *,
        handlers: Sequence[Handler] = HANDLERS,
        proposers: Sequence[ProposerTier] = (),
        max_runs: int = 8,
        on_transition: Callable[[Transition], None] | None = None,
        on_run: Callable[[PwRun], None] | None = None,
    ) -> None:
        self.runner = runner
        self.context = context
        self.handlers = handlers
        self.proposers = tuple(proposers)
        self.max_runs = max_runs
        self.on_transition = on_transition
        self.on_run = on_run

    @property
    def kg(self) -> KnowledgeGraph:
        """The knowledge graph used for validation."""
        return self.context.kg

    def _go(
        self, c: _Cursor, source: State, target: State, reason: str, rule: str | None = None
    ) -> None:
        t = Transition(len(c.trail), source, target, reason, rule, c.runs)
        c.trail.append(t)
        if self.on_transition is not None:
            self.on_transition(t)

    def _end(
        self, c: _Cursor, status: Literal["success", "failure"], message: str, run: PwRun | None
    ) -> RecoveryOutcome:
        return RecoveryOutcome(
            status, run, tuple(c.attempts), tuple(c.trail), message, tuple(c.repairs)
        )

    def run(self, template: PwInput, workdir: Path) -> RecoveryOutcome:
        """Drive ``template`` through the machine; attempts run in ``workdir/attempt-NN``."""
        c = _Cursor(current=template)
        self._go(c, "entry", "generate", "start from the recommended template")
        self._go(c, "generate", "validate", "check the input against the knowledge graph")
        while True:
            blocking = self._validate(c)
            if blocking:
                fixable = [p for p in blocking if p.fix]
                if len(fixable) < len(blocking) or not self._apply_problems(c, fixable):
                    msg = "invalid input: " + "; ".join(p.message for p in blocking)
                    self._go(c, "validate", "failure", msg)
                    return self._end(c, "failure", msg, None)
                continue
            if c.runs >= self.max_runs:
                msg = f"gave up after {c.runs} pw.x runs"
                self._go(c, "validate", "failure", msg)
                return self._end(c, "failure", msg, c.attempts[-1].run if c.attempts else None)
            self._go(c, "validate", "run", "input is consistent")
            c.runs += 1
            run = self.runner(c.current, workdir / f"attempt-{c.runs:02d}")
            if self.on_run is not None:
                self.on_run(run)
            if run.valid:
                c.attempts.append(Attempt(c.runs, run, None, None))
                self._go(c, "run", "success", "valid run: exit 0, JOB DONE, SCF converged")
                return self._end(c, "success", "converged", run)
            self._go(c, "run", "diagnose", "; ".join(run.problems))
            d = diagnose(run)
            self._go(c, "diagnose", "repair", f"{d.code}: {d.message}")
            outcome = self._repair(c, run, d, template)
            if outcome is not None:
                return outcome
            self._go(c, "repair", "validate", *c.pending)

    # -- validation ------------------------------------------------------------
    def _validate(self, c: _Cursor) -> list[Problem]:
        problems = errors(validate_input(c.current.written_namelists(), self.kg))
        if c.user_input:
            problems = [p for p in problems if p.kind not in _PASS_TO_ENGINE]
        return problems

    def _apply_problems(self, c: _Cursor, problems: list[Problem]) -> bool:
        merged: dict[str, dict[str, Value | None]] = {}
        for p in problems:
            for nl, values in p.fix.items():
                merged.setdefault(nl, {}).update(values)
        new = c.current.with_values(merged)
        if new == c.current:
            return False
        reason = "; ".join(p.message for p in problems)
        self._go(c, "validate", "repair", reason, "knowledge_graph_validation")
        c.current = new
        c.repairs.append("knowledge_graph_validation")
        self._go(c, "repair", "validate", "check the repaired input")
        return True

    # -- repair ----------------------------------------------------------------
    def _repair(
        self, c: _Cursor, run: PwRun, d: Diagnosis, template: PwInput
    ) -> RecoveryOutcome | None:
        repair = find_repair(d, run, self.context, self.handlers)
        if repair is not None and repair.terminal:
            c.attempts.append(Attempt(c.runs, run, d, repair.rule))
            self._go(c, "repair", "failure", repair.reason, repair.rule)
            return self._end(c, "failure", repair.reason, run)
        if repair is not None:
            new = c.current.with_values(repair.changes)
            if repair.structure is not None:
                new = new.with_structure(repair.structure)
            if new != c.current:
                c.attempts.append(Attempt(c.runs, run, d, repair.rule))
                c.current, c.user_input = new, False
                c.repairs.append(repair.rule)
                c.pending = (repair.reason, repair.rule)
                return None
        c.attempts.append(Attempt(c.runs, run, d, None))
        return self._propose(c, run, d, template)

    def _propose(
        self, c: _Cursor, run: PwRun, d: Diagnosis, template: PwInput
    ) -> RecoveryOutcome | None:
        while c.tier < len(self.proposers):
            tier = self.proposers[c.tier]
            if c.tier_used >= tier.attempts:
                c.tier, c.tier_used = c.tier + 1, 0
                if c.tier < len(self.proposers):
                    c.current = template
                    self._go(
                        c,
                        "repair",
                        "generate",
                        f"tier {tier.name} exhausted; next tier "
                        f"{self.proposers[c.tier].name} restarts from the template",
                    )
                    self._go(c, "generate", "repair", "ask the next tier")
                continue
            c.tier_used += 1
            fix = self._ask(tier, c, run, d)
            if fix is None:
                continue
            c.current, c.user_input = fix, False
            c.repairs.append(f"proposer:{tier.name}")
            return None
        msg = f"no rule or proposer could repair {d.code}: {d.message}"
        self._go(c, "repair", "failure", msg)
        return self._end(c, "failure", msg, run)

    def _ask(self, tier: ProposerTier, c: _Cursor, run: PwRun, d: Diagnosis) -> PwInput | None:
        text = run.crash + "\n" + tail(run.output_text, 3000)
        request = FixRequest(
            run.crash,
            tail(run.output_text, 3000),
            d,
            relevant_nodes(self.kg, d, text, c.current),
            c.current,
            c.tier_used,
        )
        proposal = tier.proposer(request)
        rule = f"proposer:{tier.name}"
        if proposal is None or not proposal.changes:
            self._go(c, "repair", "repair", f"{tier.name} proposed nothing", rule)
            return None
        new = c.current.with_values(proposal.changes)
        bad = errors(validate_input(new.written_namelists(), self.kg))
        if bad or new == c.current:
            why = "; ".join(p.message for p in bad) or "it changes nothing"
            self._go(c, "repair", "repair", f"{tier.name}'s proposal rejected: {why}", rule)
            return None
        c.pending = (f"{tier.name}: {proposal.rationale or changes_text(proposal.changes)}", rule)
        return new


def changes_text(changes: Changes) -> str:
    """``&SYSTEM nbnd=8, &ELECTRONS mixing_beta=0.3`` (None shown as removed)."""
    parts = []
    for nl, values in changes.items():
        for k, v in values.items():
            parts.append(f"&{nl.upper()} {k}={'(removed)' if v is None else v!r}")
    return ", ".join(parts)
