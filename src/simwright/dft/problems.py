"""The typed findings of the pw.x input checks, and helpers to read namelists.

A :class:`Problem` names its kind, its severity (``error``: pw.x 6.7 stops or the
run cannot be what was asked; ``warning``: pw.x runs, perhaps not as meant) and,
when one is obvious, the change that repairs it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from simwright.dft.kg_rules import Value
from simwright.dft.knowledge_graph import split_name

ProblemKind = Literal[
    "unknown_variable",
    "wrong_namelist",
    "later_version",
    "rejected",
    "undocumented",
    "missing_index",
    "wrong_type",
    "not_allowed",
    "out_of_range",
    "missing_dependency",
    "inconsistent",
    "missing_namelist",
    "reserved",
]


@dataclass(frozen=True)
class Problem:
    """One finding about an input; ``fix`` holds changes that would repair it.

    ``fix`` maps namelist -> {variable: value}; a value None removes the variable.
    """

    kind: ProblemKind
    severity: Literal["error", "warning"]
    namelist: str
    name: str
    message: str
    suggestion: str | None = None
    suggested_namelist: str | None = None
    fix: Mapping[str, Mapping[str, Value | None]] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary."""
        return {
            "kind": self.kind,
            "severity": self.severity,
            "namelist": self.namelist,
            "name": self.name,
            "message": self.message,
            "suggestion": self.suggestion,
            "suggested_namelist": self.suggested_namelist,
            "fix": {k: dict(v) for k, v in self.fix.items()},
        }


Namelists = Mapping[str, Mapping[str, Value]]


def errors(problems: list[Problem]) -> list[Problem]:
    """The problems of severity ``error``."""
    return [p for p in problems if p.severity == "error"]


def flat(namelists: Namelists) -> dict[str, Value]:
    """Lower-case base name -> value (the first element written of arrays)."""
    out: dict[str, Value] = {}
    for values in namelists.values():
        for name, value in values.items():
            out.setdefault(split_name(name)[0].lower(), value)
    return out


def indexed(namelists: Namelists, base: str) -> list[Value]:
    """Every value of array ``base`` (``base(1)``, ``base(2)``...), case-insensitive."""
    return [
        v
        for values in namelists.values()
        for k, v in values.items()
        if split_name(k)[0].lower() == base.lower()
    ]
