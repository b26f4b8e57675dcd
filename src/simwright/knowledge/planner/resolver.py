"""The one request path: `plan`, `run`, `dft recommend` and the agents' protocol tool
all call :func:`resolve`.

A request (words, or the path of a YAML spec file) becomes a :class:`Resolution`:
the protocol, its validated parameters, a record of every phrase that stated a
choice and how it was honoured, plausibility warnings, and, when asked, the inputs
built without running anything (structure, force field or calculator, engines).

In order, each stage refusing with a message that names the phrase at fault:

1. a spec file is read (a path that does not exist is named);
2. a property no protocol computes ("band structure", "viscosity") is refused with
   what simwright can do instead (:mod:`~simwright.knowledge.planner.stated`);
3. the knowledge module is chosen; a module without a protocol says how to proceed;
4. every phrase that states a choice ("with CHGNet", "HSE06", "NVE", "SG15", "8x8x8")
   must be taken by a parameter of the module or fixed by its protocol's procedure;
   otherwise it is refused by name with what the protocol offers;
5. the plan is made (:func:`~simwright.knowledge.planner.plan.plan`) and each phrase
   taken by a parameter is checked to be among the *given* values;
6. the protocol validates the values and the state is checked for plausibility
   (:mod:`~simwright.knowledge.planner.plausibility`);
7. with settings, the preflight (:func:`~simwright.protocols.preflight.preflight`:
   names, engines, the size estimate against the limits) and the build stage
   (:meth:`Protocol.build_inputs`) that builds every input.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from simwright.errors import ParseError, SimwrightError, ValidationError
from simwright.knowledge.modules import KnowledgeModule, load_modules
from simwright.knowledge.planner.extraction import CELL_WORD, TEXT_JOIN
from simwright.knowledge.planner.lattice import (
    read_as_symbol,
    refuse_if_determined,
    require_taken,
    require_used,
)
from simwright.knowledge.planner.lexical import BM25, tokens
from simwright.knowledge.planner.plan import Plan, normalize, plan
from simwright.knowledge.planner.plausibility import check
from simwright.knowledge.planner.properties import find_properties
from simwright.knowledge.planner.refusals import cannot_honour
from simwright.knowledge.planner.selection import NotUnderstood, choose_module
from simwright.knowledge.planner.stated import Stated, find_stated, fixed_reason
from simwright.knowledge.requests import ResolvedRequest, claim, load_spec
from simwright.protocols.preflight import Preflight
from simwright.protocols.preflight import preflight as check_run
from simwright.protocols.registry import Protocol
from simwright.settings import Settings
from simwright.text import find_phrases
from simwright.textio import require_utf8


@dataclass(frozen=True)
class PhraseUse:
    """A phrase of the request that stated a choice, and how it was honoured."""

    text: str
    category: str
    how: str


@dataclass(frozen=True)
class Resolution:
    """A request resolved: protocol, validated parameters, and the record behind them."""

    request: str
    protocol: Protocol
    params: BaseModel
    plan: Plan | None = None
    phrases: tuple[PhraseUse, ...] = ()
    warnings: tuple[str, ...] = ()
    inputs: tuple[str, ...] = ()
    source: str = "knowledge module"
    given: frozenset[str] = field(default_factory=frozenset)
    preflight: Preflight | None = None

    def to_json(self) -> dict[str, Any]:
        """What ``simwright plan --json`` prints."""
        out: dict[str, Any] = (
            self.plan.to_json()
            if self.plan is not None
            else {
                "protocol": self.protocol.name,
                "module": None,
                "parameters": {
                    n: {
                        "value": v,
                        "unit": None,
                        "source": "given" if n in self.given else "assumed",
                    }
                    for n, v in self.params.model_dump(mode="json").items()
                },
                "alternatives": [],
            }
        )
        if self.plan is not None:  # a key the protocol marks as defaulted ("water")
            for name, entry in out["parameters"].items():
                if entry.get("source") == "given" and name not in self.given:
                    entry["source"] = "assumed"
        out["source"] = self.source
        out["phrases"] = [
            {"text": p.text, "category": p.category, "how": p.how} for p in self.phrases
        ]
        out["warnings"] = list(self.warnings)
        out["inputs"] = list(self.inputs)
        if self.preflight is not None:
            out["preflight"] = self.preflight.as_dict()
        return out


def resolve(
    request: str,
    protocols: Mapping[str, Protocol],
    modules: Sequence[KnowledgeModule] | None = None,
    *,
    settings: Settings | None = None,
    default_module: str | None = None,
) -> Resolution:
    """Resolve ``request``; with ``settings``, also run the preflight (names, engines,
    the estimate against the limits; :mod:`simwright.protocols.preflight`) and build
    every input of the run. Text that is not valid UTF-8 is refused.

    ``default_module`` is the module used when no module's keywords match (``dft
    recommend`` uses ``dft_scf``: there, "graphene" alone means its SCF).
    """

    require_utf8(request, "the request")
    resolution = _resolve(request.strip(), protocols, modules, default_module)
    return resolution if settings is None else prepare(resolution, settings)


def prepare(resolution: Resolution, settings: Settings) -> Resolution:
    """``resolution`` after the preflight (names, engines, the estimate against the
    limits) and the build stage; a refusal raises (:class:`ValidationError`)."""
    checked = check_run(resolution.protocol, resolution.params, settings)
    said = _said(resolution).strip(" ()")
    if checked.problems and said:
        checked = replace(checked, problems=tuple(f"{said}: {p}" for p in checked.problems))
    checked.require()
    resolution = replace(resolution, preflight=checked)
    try:
        built = resolution.protocol.build_inputs(resolution.params, settings)
    except SimwrightError as exc:
        raise ValidationError(
            f"cannot build the inputs of {resolution.protocol.name}{_said(resolution)}: {exc}"
        ) from exc
    return replace(resolution, inputs=built.lines)


_STRUCTURE_WORDS = ("formula", "element", "structure", "lattice", "facet", "layers", "vacuum_a")


def _said(resolution: Resolution) -> str:
    """The request's own words for the structure, for a refusal of the build stage."""
    if resolution.plan is None:
        return ""
    params = resolution.plan.parameters
    words = [
        repr(params[n].text)
        for n in _STRUCTURE_WORDS
        if n in params and params[n].source == "given" and params[n].text
    ]
    return f" (from {', '.join(dict.fromkeys(words))})" if words else ""


def _resolve(
    request: str,
    protocols: Mapping[str, Protocol],
    modules: Sequence[KnowledgeModule] | None,
    default_module: str | None,
) -> Resolution:
    if request.endswith((".yaml", ".yml")):
        if not Path(request).is_file():
            raise ParseError(f"no such spec file: {request}")
        spec = load_spec(Path(request), protocols)
        given = frozenset(spec.params.model_fields_set)
        return Resolution(spec.request, spec.protocol, spec.params, source="spec file", given=given)

    modules = load_modules() if modules is None else modules
    text, read_as = _conditions(normalize(request))
    text, stated_a, how = read_as_symbol(text)
    if stated_a is not None and how is not None:
        read_as = (*read_as, PhraseUse(stated_a.text, "lattice constant", how))
    computing = _property_protocols(text, protocols)
    if computing:
        # a protocol of its own computes the asked property: its parser decides (and
        # refuses by name what it cannot honour); no module stands in for it
        proto, raw = _claim_property(text, computing, modules)
        _check_claimed(text, proto, raw)
        params = proto.validate(raw)
        require_used(stated_a, proto.name, params)
        given = proto.given_keys(text, raw)
        return Resolution(
            text, proto, params, phrases=read_as, source="protocol parser", given=given
        )
    fallback = next((m for m in modules if m.id == default_module), None)
    try:
        module = choose_module(text, modules)[0].module
    except NotUnderstood:
        if fallback is None:
            fallback = _module_of_claimant(text, protocols, modules)
        if fallback is None:
            proto, raw = _claim_or_name(text, protocols, claim, modules)
            _check_claimed(text, proto, raw)
            params = proto.validate(raw)
            require_used(stated_a, proto.name, params)
            given = proto.given_keys(text, raw)
            return Resolution(
                text, proto, params, phrases=read_as, source="protocol parser", given=given
            )
        module = fallback
    stated = find_stated(text)
    if module.protocol is not None and module.protocol in protocols:
        refuse_if_determined(stated_a, module.protocol)
        _check_stated(stated, module, module.protocol, text)
    result = plan(text, modules, protocols, fallback)
    proto = protocols[result.protocol]
    require_taken(stated_a, proto.name, result.given().get("a_a"))
    uses = (*read_as, *_ledger(stated, result, proto.name))
    _no_unread_numbers(text, result, stated)
    _no_unread_potential(text, result)
    params = proto.validate(result.given())
    require_used(stated_a, proto.name, params)
    warnings = check(proto.name, params, result.parameters)
    assumed = proto.defaulted(text) if proto.defaulted is not None else frozenset()
    given = frozenset(result.given()) - assumed  # e.g. plain "water": the model is assumed
    return Resolution(text, proto, params, result, uses, warnings, given=given)


CONDITIONS: dict[str, str] = {
    "room temperature": "298.15 K",
    "ambient temperature": "298.15 K",
    "ambient conditions": "298.15 K and 1 atm",
    "standard conditions": "298.15 K and 1 bar",
    "ambient pressure": "1 atm",
    "atmospheric pressure": "1 atm",
    "normal pressure": "1 atm",
}
"""Conditions in words and the values they stand for (shown in the plan's record)."""


def _conditions(text: str) -> tuple[str, tuple[PhraseUse, ...]]:
    """``text`` with conditions in words replaced by their values, and the record."""
    uses = []
    for m in reversed(find_phrases(text, list(CONDITIONS.items()))):
        uses.append(PhraseUse(m.text, "condition", f"read as {m.meaning}"))
        text = text[: m.start] + m.meaning + text[m.end :]
    return text, tuple(reversed(uses))


def _claim_property(
    text: str, computing: Mapping[str, Protocol], modules: Sequence[KnowledgeModule]
) -> tuple[Protocol, dict[str, Any]]:
    """The protocol computing the asked property claims ``text``; when none can read it,
    the refusal names the property, the protocols and what else simwright can do."""
    try:
        return _claim_or_name(text, computing, claim, modules)
    except ParseError as exc:
        prop, words = find_properties(text)[0]
        reason = str(exc).split("\n")[0]
        raise ParseError(
            f"{words!r}: {prop.name} is computed by {', '.join(computing)}, which cannot "
            f"read this request ({reason}). Otherwise: {prop.instead}."
        ) from exc


def _property_protocols(text: str, protocols: Mapping[str, Protocol]) -> dict[str, Protocol]:
    """The installed protocols that compute the property ``text`` asks for; {} when it
    asks for none. A property no installed protocol computes is refused by name."""
    found = find_properties(text)
    if not found:
        return {}
    prop, words = found[0]
    computing = {n: protocols[n] for n in prop.protocols if n in protocols}
    if computing:
        return computing
    raise ParseError(
        f"{words!r}: {prop.name} is not a simwright protocol yet. What is: {prop.instead}. "
        "`simwright knowledge list` shows what simwright knows."
    )


STATED_PARAMETERS: dict[str, str] = {"surface cell": "surface_cell", "box": "box_a"}
"""Stated phrases a module takes through a parameter that is not a choice."""


def _consumed(s: Stated, module: KnowledgeModule, text: str) -> bool:
    """True when a choice phrase of the module covers the stated phrase (or, for a
    k-point mesh, when the module takes one)."""
    if s.value == "mesh" and "kpoints" in module.parameters:
        return not CELL_WORD.search(s.text)
    taken_by = STATED_PARAMETERS.get(s.value)
    if taken_by is not None and taken_by in module.parameters:
        return True
    phrases = [
        (phrase, name)
        for name, spec in module.parameters.items()
        for aliases in spec.phrases().values()
        for phrase in aliases
    ]
    return any(m.start <= s.start and s.end <= m.end for m in find_phrases(text, phrases))


def _check_stated(stated: list[Stated], module: KnowledgeModule, protocol: str, text: str) -> None:
    for s in stated:
        if _consumed(s, module, text) or fixed_reason(protocol, s.value):
            continue
        raise ParseError(cannot_honour(s, module, protocol))


def _carries(given_text: str, stated_text: str) -> bool:
    """A given value's words carry a stated phrase: they contain it, or they are the
    number inside it ("12 Å" of "12 Å box"; a word such as "PBE" never carries "PBE+U")."""
    given, stated = given_text.lower(), stated_text.lower()
    parts = [p for p in given.split(TEXT_JOIN) if p.strip()]
    numbers = [p.strip() for p in parts if re.search(r"\d", p)]
    return stated in given or any(p in stated for p in numbers)


def _ledger(stated: list[Stated], result: Plan, protocol: str) -> tuple[PhraseUse, ...]:
    """How each stated phrase was honoured; refuse one that no given value carries."""
    uses = []
    given = {n: p for n, p in result.parameters.items() if p.source == "given"}
    for s in stated:
        carriers = [n for n, p in given.items() if p.text and _carries(p.text, s.text)]
        if carriers:
            name = carriers[0]
            uses.append(PhraseUse(s.text, s.category, f"given: {name}={given[name].value}"))
            continue
        reason = fixed_reason(protocol, s.value)
        if reason is None:
            raise ParseError(f"{s.text!r} ({s.category}) was not applied by {protocol}")
        uses.append(PhraseUse(s.text, s.category, f"fixed by the protocol: {reason}"))
    return tuple(uses)


_STANDALONE_NUMBER = re.compile(r"(?<![\w.(/+-])[-+−]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w.)/])")


_NAMED_POTENTIAL = re.compile(
    r"\b(?:with|using|by)\s+(?:the\s+|a\s+|an\s+)?(?P<name>[^,;.()]+?)\s+"
    r"(?:interatomic\s+|pair\s+)?potential\b",
    re.IGNORECASE,
)


def _no_unread_potential(text: str, result: Plan) -> None:
    """ "with the X potential" names a potential: some parameter the plan took as *given*
    must come from those words, else the request is refused naming them (never EMT or
    another default in its place)."""
    for m in _NAMED_POTENTIAL.finditer(text):
        name = m.group("name").strip()
        words = name.lower()
        if any(
            p.source == "given" and p.text and p.text.lower() in words
            for p in result.parameters.values()
        ):
            continue
        raise ParseError(
            f"'{name} potential' cannot be honoured: no potential called {name!r} is known "
            f"to {result.protocol}. `simwright potentials ELEMENT` lists the interatomic "
            "potentials of the catalogue; a spec file may name a file (`potential: FILE`)"
        )


def _no_unread_numbers(text: str, result: Plan, stated: list[Stated]) -> None:
    """A number the plan did not read ("conv_thr 1e-8", "32 atoms") is refused by name:
    a value the request states is never dropped silently."""
    covered = [(s.start, s.end) for s in stated]
    for p in result.parameters.values():
        if p.source != "given" or not p.text:
            continue
        for part in p.text.split(TEXT_JOIN):
            covered += [(m.start(), m.end()) for m in re.finditer(re.escape(part), text)]
    for m in _STANDALONE_NUMBER.finditer(text):
        if any(a <= m.start() and m.end() <= b for a, b in covered):
            continue
        before = text[: m.start()].split()[-1:]
        after = text[m.end() :].split()[:2]
        snippet = " ".join([*before, m.group(0), *after]).strip(" ,;.")
        raise ParseError(
            f"{snippet!r}: the number {m.group(0)} was not understood — no parameter of "
            f"{result.protocol} took it. `simwright knowledge show {result.module_id}` lists "
            "its parameters; name one next to the value, or write a spec file"
        )


def _claimants(text: str, protocols: Mapping[str, Protocol]) -> tuple[list[str], list[str]]:
    """The protocols whose own parser claims ``text``: cleanly, and with a complaint."""
    clean, troubled = [], []
    for proto in protocols.values():
        try:
            if proto.parse_request(text) is not None:
                clean.append(proto.name)
        except SimwrightError:
            troubled.append(proto.name)
    return clean, troubled


def _module_of_claimant(
    text: str, protocols: Mapping[str, Protocol], modules: Sequence[KnowledgeModule]
) -> KnowledgeModule | None:
    """No module's keywords match: the module of the one protocol whose own parser
    claims ``text`` (even with a complaint), so that the module reads it, with all its
    checks. None when no such protocol has a module, or several claim it."""

    clean, troubled = _claimants(text, protocols)
    claimants = clean or troubled
    found = [m for m in modules if m.protocol in claimants]
    if len(found) != len(claimants) or not found:
        return None
    if len(found) == 1:
        return found[0]
    scores = BM25.from_texts([m.index_text() for m in found]).scores(tokens(text))
    ranked = sorted(zip(scores, found, strict=True), key=lambda x: -x[0])
    return ranked[0][1] if ranked[1][0] < 0.8 * ranked[0][0] else None


def _claim_or_name(
    text: str,
    protocols: Mapping[str, Protocol],
    claim: Any,
    modules: Sequence[KnowledgeModule],
) -> tuple[Protocol, dict[str, Any]]:
    """A protocol's own parser claims ``text``; when it refuses, a stated choice that
    no module knows is named as the reason."""
    try:
        result: tuple[Protocol, dict[str, Any]] = claim(text, protocols)
    except ParseError as exc:
        unknown = [s for s in find_stated(text) if not any(_consumed(s, m, text) for m in modules)]
        if not unknown:
            raise
        s = unknown[0]
        raise ParseError(
            f"{s.text!r} ({s.category}) cannot be honoured: no protocol takes it ({exc})"
        ) from exc
    return result


def _check_claimed(text: str, proto: Protocol, raw: Mapping[str, Any]) -> None:
    """A protocol's own parser claimed the request: its stated phrases must be in it."""
    values = " ".join(str(v).lower() for v in raw.values())
    for s in find_stated(text):
        if s.value in values or fixed_reason(proto.name, s.value):
            continue
        raise ValidationError(
            f"{s.text!r} ({s.category}) cannot be honoured by {proto.name}: "
            "its request parser does not take it; write a spec file"
        )


def resolve_request(
    text: str,
    protocols: Mapping[str, Protocol],
    modules: Sequence[KnowledgeModule] | None = None,
) -> ResolvedRequest:
    """Choose the protocol a request is for and validate its parameters.

    The same path as ``simwright plan`` (:func:`resolve`, without settings); ``modules`` are the
    knowledge modules to plan with (default: the shipped ones). Text that is not valid
    UTF-8 is refused (:class:`~simwright.errors.ValidationError`).
    """
    resolution = resolve(text, protocols, modules)
    return ResolvedRequest(resolution.protocol, resolution.params, resolution.request)
