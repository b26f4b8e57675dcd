"""The model seam of the recovery machine: fix proposers, tried when no rule applies.

A :class:`FixProposer` receives the failure (CRASH text, output tail, diagnosis),
the knowledge-graph nodes relevant to it and the latest input, and returns
proposed namelist changes. Proposers are organised in tiers
(:class:`ProposerTier`): each gets ``attempts`` tries, then the next tier starts
again from the recommender's template. Every proposal is validated against the
knowledge graph before it may run. The agent layer plugs language models in
here; tests use :class:`ScriptedProposer`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from simwright.dft.handlers import Changes, Diagnosis
from simwright.dft.knowledge_graph import KnowledgeGraph, ParameterView
from simwright.engines.espresso.template import PwInput
from simwright.errors import SimwrightError

RELATED: Mapping[str, tuple[str, ...]] = {
    "scf_unconverged": (
        "mixing_beta",
        "mixing_mode",
        "mixing_ndim",
        "electron_maxstep",
        "conv_thr",
        "degauss",
        "smearing",
    ),
    "cholesky": ("diagonalization", "mixing_beta", "ecutwfc", "ecutrho"),
    "too_few_bands": ("nbnd", "occupations"),
    "too_many_bands": ("nbnd", "ecutwfc"),
    "smearing_needed": ("occupations", "smearing", "degauss"),
    "fr_pp_needs_spin_orbit": ("noncolin", "lspinorb"),
    "relax_unconverged": ("nstep", "ion_dynamics", "forc_conv_thr", "trust_radius_max"),
}
"""Knowledge-graph variables worth showing a proposer for each diagnosis."""


@dataclass(frozen=True)
class FixRequest:
    """What a proposer is shown."""

    crash_text: str
    output_tail: str
    diagnosis: Diagnosis
    nodes: tuple[ParameterView, ...]
    input: PwInput
    attempt: int


@dataclass(frozen=True)
class ProposedFix:
    """Namelist changes (namelist -> variable -> value; None removes) and why."""

    changes: Changes
    rationale: str = ""


class FixProposer(Protocol):
    """Anything that proposes a fix for a failed pw.x run (a model, a person, a script)."""

    def __call__(self, request: FixRequest) -> ProposedFix | None:
        """A proposed fix, or None to pass."""
        ...


@dataclass(frozen=True)
class ProposerTier:
    """A proposer with its number of attempts."""

    name: str
    proposer: FixProposer
    attempts: int = 2


class ScriptOverError(SimwrightError):
    """A scripted proposer was asked more often than it has replies."""


@dataclass
class ScriptedProposer:
    """Replies with the given fixes in order and records what it was asked.

    Runs out loudly: one more request than replies raises :class:`ScriptOverError`.
    """

    replies: Sequence[ProposedFix | None]
    seen: list[FixRequest] = field(default_factory=list)

    def __call__(self, request: FixRequest) -> ProposedFix | None:
        """The next scripted reply."""
        if len(self.seen) >= len(self.replies):
            raise ScriptOverError(
                f"scripted proposer has only {len(self.replies)} replies; asked again about "
                f"{request.diagnosis.code}"
            )
        self.seen.append(request)
        return self.replies[len(self.seen) - 1]


def relevant_nodes(
    kg: KnowledgeGraph, diagnosis: Diagnosis, text: str, inp: PwInput
) -> tuple[ParameterView, ...]:
    """Knowledge-graph nodes related to a failure: by diagnosis and by name in the text."""
    names: list[str] = list(RELATED.get(diagnosis.code, ()))
    words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]+", text))
    for word in sorted(words):
        param = kg.lookup(word)
        if param is not None and param.status == "documented" and len(word) > 3:
            names.append(param.name)
    out: list[ParameterView] = []
    seen: set[str] = set()
    for name in names:
        param = kg.lookup(name)
        if param is None or param.name in seen:
            continue
        seen.add(param.name)
        out.append(kg.show(param.name))
    return tuple(out)
