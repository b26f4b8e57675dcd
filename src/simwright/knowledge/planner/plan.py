"""From a request in words to a plan: a protocol and its parameters, each marked
*given* (read from the request) or *assumed* (a default), without any model.

1. :func:`~simwright.knowledge.planner.selection.choose_module` picks the knowledge module
   (keyword gating + BM25; ties are refused as ambiguous).
2. :func:`~simwright.knowledge.planner.extraction.extract` reads the module's parameters from
   the request (units through pint; contradictions, unknown substances and values out
   of range are refused).
3. Missing parameters take the module's defaults; required ones without a default
   are asked for. A module whose protocol does not exist (yet) is refused, saying why
   and what was understood.
4. With the protocol objects at hand, the given values are validated by the
   protocol itself and the assumed values are read back from it, so a plan shows
   what will really run.

The protocol receives only the *given* values (:meth:`Plan.given`); its own
defaults fill the rest, and a test keeps the modules' documented defaults equal to
them.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from simwright.errors import ParseError, SimwrightError
from simwright.knowledge.modules import KnowledgeModule
from simwright.knowledge.planner.extraction import Finding, extract
from simwright.knowledge.planner.selection import Candidate, NotUnderstood, choose_module
from simwright.knowledge.planner.substances import substance_candidate
from simwright.knowledge.schema import Value
from simwright.protocols.registry import Protocol
from simwright.text import find_formulas

Source = Literal["given", "assumed"]


@dataclass(frozen=True)
class ResolvedParameter:
    """A parameter's value, its unit, and whether the request gave it or it was assumed."""

    value: Any
    unit: str | None
    source: Source
    text: str | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"value", "unit", "source"}`` (and ``text`` for a given value)."""
        out: dict[str, Any] = {"value": self.value, "unit": self.unit, "source": self.source}
        if self.text is not None:
            out["text"] = self.text
        return out


@dataclass(frozen=True)
class Alternative:
    """Another module that matched the request, less well."""

    module_id: str
    protocol: str | None
    score: float


@dataclass(frozen=True)
class Interpretation:
    """What a request means for one module, whether or not a protocol can run it."""

    request: str
    module: KnowledgeModule
    parameters: Mapping[str, ResolvedParameter]
    score: float
    alternatives: tuple[Alternative, ...]

    def summary(self) -> str:
        """'name=value unit' for each given parameter."""
        return ", ".join(
            f"{n}={p.value}{' ' + p.unit if p.unit else ''}"
            for n, p in self.parameters.items()
            if p.source == "given"
        )


@dataclass(frozen=True)
class Plan:
    """The protocol to run, the module behind it and its resolved parameters."""

    request: str
    protocol: str
    module_id: str
    parameters: Mapping[str, ResolvedParameter]
    score: float
    alternatives: tuple[Alternative, ...]

    def given(self) -> dict[str, Any]:
        """The values the request gave: what the protocol receives."""
        return {n: p.value for n, p in self.parameters.items() if p.source == "given"}

    def to_json(self) -> dict[str, Any]:
        """The plan as printed by ``simwright plan --json``."""
        return {
            "protocol": self.protocol,
            "module": self.module_id,
            "parameters": {n: p.to_json() for n, p in self.parameters.items()},
            "score": self.score,
            "alternatives": [
                {"module": a.module_id, "protocol": a.protocol, "score": a.score}
                for a in self.alternatives
            ],
        }


def normalize(request: str) -> str:
    """Unicode NFKC (Å sign → Å, ³ → 3, ² → 2), single-spaced, stripped."""
    return " ".join(unicodedata.normalize("NFKC", request).split())


def interpret(request: str, modules: Sequence[KnowledgeModule]) -> Interpretation:
    """The module a request is for and its parameters (given and assumed)."""
    text = normalize(request)
    best, rest = choose_module(text, modules)
    return _interpret_for(text, best, rest)


def _interpret_for(text: str, best: Candidate, rest: tuple[Candidate, ...]) -> Interpretation:
    module = best.module
    findings = extract(text, module)
    _require(text, module, findings)
    return Interpretation(
        request=text,
        module=module,
        parameters=_resolve(module, findings),
        score=best.score,
        alternatives=tuple(Alternative(c.module.id, c.module.protocol, c.score) for c in rest),
    )


def _require(text: str, module: KnowledgeModule, findings: Mapping[str, Finding]) -> None:
    """Refuse when a required parameter is missing, or when a substance parameter is
    missing and the request puts an unknown word in a substance's place."""
    for name, spec in module.parameters.items():
        if name in findings:
            continue
        if spec.substance:
            _no_unknown_substance(text, module, name)
        if not spec.required:
            continue
        if spec.type == "element":
            _no_compound(text, module, name)
        if spec.substance:
            raise ParseError(
                f"which {name}? the request names none of: {', '.join(spec.choices or {})}"
            )
        choices = f" (one of {', '.join(spec.choices)})" if spec.choices else ""
        raise ParseError(f"which {name}{choices}? {module.id} needs it: {spec.description}")


def _no_compound(text: str, module: KnowledgeModule, name: str) -> None:
    """Refuse a compound where the module takes one element, saying what can build it."""

    compounds = [f for f in find_formulas(text) if sum(c.isupper() for c in f) > 1]
    if compounds:
        choices = module.parameters.get("calculator")
        calculators = f" ({', '.join(choices.choices or {})})" if choices else ""
        raise ParseError(
            f"{compounds[0]!r} is a compound; {module.protocol or module.id}{calculators} "
            f"takes one {name}. For {compounds[0]} ask for DFT, e.g. "
            f"'lattice constant of {compounds[0]} with PBE'"
        )


def _no_unknown_substance(text: str, module: KnowledgeModule, name: str) -> None:
    vocabulary = {w.lower() for k in module.keywords for w in k.split()}
    vocabulary |= {w.lower() for w in module.title.split()}
    word = substance_candidate(text, vocabulary)
    if word is not None:
        offered = ", ".join(module.parameters[name].choices or {})
        raise ParseError(f"unknown substance {word!r} for {module.id}; it knows: {offered}")


def _resolve(
    module: KnowledgeModule, findings: Mapping[str, Finding]
) -> dict[str, ResolvedParameter]:
    """Given values, then module defaults for the rest (conflicting ones left out)."""
    out: dict[str, ResolvedParameter] = {}
    for name, f in findings.items():
        out[name] = ResolvedParameter(f.value, module.parameters[name].unit, "given", f.text)
    skipped = {c for name in findings for c in module.parameters[name].conflicts}
    for name, spec in module.parameters.items():
        if name in out or name in skipped:
            continue
        value = _default(spec.default, spec.default_by, out)
        if value is not None:
            out[name] = ResolvedParameter(spec.coerce(value), spec.unit, "assumed")
    return _in_module_order(module, out)


def _in_module_order(
    module: KnowledgeModule, params: Mapping[str, ResolvedParameter]
) -> dict[str, ResolvedParameter]:
    return {n: params[n] for n in module.parameters if n in params}


def _default(
    default: Value | None,
    default_by: Mapping[str, Mapping[str, Value]] | None,
    resolved: Mapping[str, ResolvedParameter],
) -> Value | None:
    if default_by is None:
        return default
    ((other, table),) = default_by.items()
    chosen = resolved.get(other)
    return None if chosen is None else table.get(str(chosen.value))


def plan(
    request: str,
    modules: Sequence[KnowledgeModule],
    protocols: Mapping[str, Protocol] | Collection[str],
    fallback: KnowledgeModule | None = None,
) -> Plan:
    """The plan for ``request``: module, executable protocol and parameters.

    ``protocols`` are the registered protocols (then given values are validated by the
    protocol and assumed values read back from it) or just their names. Refuses with
    :class:`ParseError` a request no module matches, an ambiguous one, one whose
    module has no executable protocol, and any value it cannot read with certainty.
    ``fallback`` is the module used when no module matches.
    """
    text = normalize(request)
    try:
        best, rest = choose_module(text, modules)
    except NotUnderstood:
        if fallback is None:
            raise
        best, rest = Candidate(fallback, 0.0, ()), ()
    _check_executable(text, best, rest, protocols)
    interp = _interpret_for(text, best, rest)
    protocol = best.module.protocol
    assert protocol is not None
    params = dict(interp.parameters)
    if isinstance(protocols, Mapping):
        params = _from_protocol(protocols[protocol], best.module, params)
    return Plan(text, protocol, best.module.id, params, interp.score, interp.alternatives)


def _check_executable(
    text: str,
    best: Candidate,
    rest: tuple[Candidate, ...],
    protocols: Collection[str],
) -> None:
    module = best.module
    if module.protocol is not None and module.protocol in protocols:
        return
    try:
        understood = _interpret_for(text, best, rest).summary()
    except SimwrightError:
        understood = ""
    what = f" (understood: {understood})" if understood else ""
    if module.protocol is None:
        raise ParseError(
            f"the request is for {module.id!r} ({module.title}), which has no executable "
            f"protocol yet: {module.pending}{what}. `simwright knowledge show {module.id}` "
            "describes the procedure."
        )
    raise ParseError(
        f"the request is for {module.id!r}, executed by protocol {module.protocol!r}, "
        f"which is not installed (known protocols: {', '.join(sorted(protocols)) or 'none'})"
        f"{what}"
    )


def _from_protocol(
    protocol: Protocol, module: KnowledgeModule, params: dict[str, ResolvedParameter]
) -> dict[str, ResolvedParameter]:
    """Validate the given values with the protocol and take its values for the rest."""
    given = {n: p.value for n, p in params.items() if p.source == "given"}
    validated = protocol.validate(given).model_dump()
    out = {n: p for n, p in params.items() if p.source == "given"}
    skipped = {c for name in out for c in module.parameters[name].conflicts}
    for name, spec in module.parameters.items():
        if name in out or name in skipped:
            continue
        foreign = spec.choices and str(validated.get(name)) not in spec.choices
        if name in validated and not foreign:
            if validated[name] is not None:
                out[name] = ResolvedParameter(validated[name], spec.unit, "assumed")
        elif name in params:
            out[name] = params[name]
    return _in_module_order(module, out)
