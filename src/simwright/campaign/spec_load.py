"""Read a campaign spec from YAML and check it, naming the field and the problem.

Three layers of checks, all reported together: the pydantic schema
(:class:`~simwright.campaign.spec.CampaignSpec`), the consistency of its parts
(unique names, rules naming declared observables, windows within budgets) and,
when an engine is given, the engine's own checks of systems, conditions and
segment parameters.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import yaml
from pydantic import ValidationError as PydanticValidationError

from simwright import yamlio
from simwright.campaign.spec import CampaignSpec
from simwright.errors import ParseError, ValidationError
from simwright.textio import read_utf8


@dataclass(frozen=True)
class SpecProblem:
    """One problem of a spec: the field (``systems[1].parameters.width_a``) and what is wrong."""

    field: str
    problem: str

    def text(self) -> str:
        """``field: problem``."""
        return f"{self.field}: {self.problem}"


class CampaignSpecError(ValidationError):
    """A campaign spec is invalid; ``problems`` lists every problem found."""

    def __init__(self, source: str, problems: Sequence[SpecProblem]) -> None:
        lines = "\n".join(f"  - {p.text()}" for p in problems)
        super().__init__(f"invalid campaign spec {source} ({len(problems)} problem(s)):\n{lines}")
        self.problems = tuple(problems)


class SpecChecker(Protocol):
    """What checks a spec beyond the schema: an engine's view of its parameters."""

    def check_spec(self, spec: CampaignSpec) -> list[SpecProblem]:
        """Problems of ``spec`` this checker knows about (empty when none)."""
        ...


def field_name(loc: Sequence[str | int]) -> str:
    """``("systems", 1, "name")`` -> ``systems[1].name``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out or "(spec)"


_MESSAGES = {
    "string_pattern_mismatch": "must be letters, digits, '_', '.' or '-' (at most 64 characters)",
    "extra_forbidden": "is not a known field",
    "missing": "is required",
}


def pydantic_problems(
    exc: PydanticValidationError, prefix: Sequence[str | int] = ()
) -> list[SpecProblem]:
    """One :class:`SpecProblem` per error of a pydantic validation, fields under ``prefix``."""
    problems = []
    for error in exc.errors():
        message = _MESSAGES.get(error["type"], error["msg"])
        value = error.get("input")
        if error["type"] != "missing" and isinstance(value, str | int | float | bool):
            message = f"{message} (got {value!r})"
        problems.append(SpecProblem(field_name((*prefix, *error["loc"])), message))
    return problems


def _duplicates(field: str, names: Sequence[str]) -> list[SpecProblem]:
    return [
        SpecProblem(field, f"name {name!r} is used {count} times; names must be unique")
        for name, count in Counter(names).items()
        if count > 1
    ]


def consistency_problems(spec: CampaignSpec) -> list[SpecProblem]:
    """Problems between the parts of a schema-valid spec."""
    problems = _duplicates("systems", [s.name for s in spec.systems])
    problems += _duplicates("conditions", [c.name for c in spec.conditions])
    problems += _duplicates("observables", [o.name for o in spec.observables])
    declared = [o.name for o in spec.observables]
    budget = spec.continuation.max_local_steps
    for name, rule in spec.acceptance.items():
        if name not in declared:
            problems.append(_unknown(f"acceptance.{name}", name, declared))
        if rule.window_steps > budget:
            problems.append(
                SpecProblem(
                    f"acceptance.{name}.window_steps",
                    f"{rule.window_steps} exceeds continuation.max_local_steps ({budget})",
                )
            )
    if spec.continuation.segment_steps > budget:
        problems.append(
            SpecProblem(
                "continuation.segment_steps",
                f"{spec.continuation.segment_steps} exceeds continuation.max_local_steps "
                f"({budget})",
            )
        )
    return problems + _review_problems(spec, declared)


def _unknown(field: str, name: str, declared: Sequence[str]) -> SpecProblem:
    return SpecProblem(field, f"no observable named {name!r} (declared: {', '.join(declared)})")


def _review_problems(spec: CampaignSpec, declared: Sequence[str]) -> list[SpecProblem]:
    problems = []
    triggers = spec.review.triggers
    for name, bounds in triggers.bounds.items():
        field = f"review.triggers.bounds.{name}"
        if name not in declared:
            problems.append(_unknown(field, name, declared))
        if bounds.min is not None and bounds.max is not None and bounds.min > bounds.max:
            problems.append(SpecProblem(field, f"min {bounds.min} exceeds max {bounds.max}"))
    if triggers.monotonic is not None and triggers.monotonic.observable not in spec.acceptance:
        problems.append(
            SpecProblem(
                "review.triggers.monotonic.observable",
                f"{triggers.monotonic.observable!r} has no acceptance rule, so no accepted value",
            )
        )
    span = spec.review.segment_steps_range
    if span is not None and not 1 <= span[0] <= span[1]:
        problems.append(
            SpecProblem(
                "review.segment_steps_range",
                f"must be [low, high] with 1 <= low <= high, got {list(span)}",
            )
        )
    return problems


def parse_spec(
    data: object, source: str = "<spec>", checker: SpecChecker | None = None
) -> CampaignSpec:
    """Validate ``data`` (a mapping read from YAML or JSON) into a :class:`CampaignSpec`.

    Raises :class:`CampaignSpecError` listing every problem found.
    """
    if not isinstance(data, Mapping):
        raise CampaignSpecError(source, [SpecProblem("(spec)", "must be a mapping of fields")])
    try:
        spec = CampaignSpec.model_validate(dict(data))
    except PydanticValidationError as exc:
        raise CampaignSpecError(source, pydantic_problems(exc)) from None
    problems = consistency_problems(spec)
    if checker is not None and not problems:
        problems = checker.check_spec(spec)
    if problems:
        raise CampaignSpecError(source, problems)
    return spec


def read_spec_data(path: Path) -> dict[str, Any]:
    """The mapping in a YAML spec file (raises :class:`ParseError` on bad YAML)."""
    try:
        text = read_utf8(path, "campaign spec")
    except OSError as exc:
        raise ParseError(f"cannot read campaign spec {path}: {exc.strerror}") from exc
    try:
        data = yamlio.safe_load(text)
    except yaml.YAMLError as exc:
        raise ParseError(f"campaign spec {path} is not valid YAML: {exc}") from exc
    if not isinstance(data, dict):
        raise CampaignSpecError(str(path), [SpecProblem("(spec)", "must be a mapping of fields")])
    return data


def load_spec(path: Path, checker: SpecChecker | None = None) -> CampaignSpec:
    """Read and validate the YAML campaign spec at ``path``."""
    return parse_spec(read_spec_data(path), str(path), checker)
