"""From a request to a complete pw.x input, with every choice explained.

request -> structure (:mod:`simwright.dft.structures`) -> pseudopotentials (one
functional, from the UPF headers) -> conditions (metal? spin? slab?) -> the
variables those conditions activate in the knowledge graph, with suggested
values (cutoffs from the files, k-points from a target spacing, smearing for
metals, Γ and vacuum for molecules, n×n×1 meshes for slabs) -> a
:class:`~simwright.engines.espresso.template.PwInput` validated against the graph.
Choices the user did not make are listed in ``assumed``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from ase.units import Bohr, Ry

from simwright.dft.conditions import MAGNETIC_MOMENTS, ConditionReport, decide_conditions
from simwright.dft.kg_rules import HYBRIDS, Value
from simwright.dft.knowledge_graph import KnowledgeGraph, load_knowledge_graph, split_name
from simwright.dft.request import SMEARING_NAMES, DftRequest
from simwright.dft.structures import BuiltStructure, MaterialsProjectFetcher, build_structure
from simwright.dft.validation import errors, validate_input
from simwright.engines.espresso.pseudo import functional_family
from simwright.engines.espresso.pseudo_library import (
    PseudoLibrary,
    PseudoSelection,
    check_same_functional,
)
from simwright.engines.espresso.template import KPoints, PwInput, Species
from simwright.errors import ValidationError
from simwright.structure import Structure

SCF_CONV_THR = 1.0e-8
"""SCF threshold (Ry) of recommended inputs: tight enough for forces and stress."""


@dataclass(frozen=True)
class SuggestedParameter:
    """One variable of the template: where it goes, its type, value and why."""

    namelist: str
    name: str
    type: str
    value: Value
    reason: str

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary."""
        return {
            "namelist": self.namelist,
            "name": self.name,
            "type": self.type,
            "value": self.value,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class Recommendation:
    """The structure, pseudopotentials, conditions and pw.x input recommended for a request."""

    request: DftRequest
    built: BuiltStructure
    pseudos: PseudoSelection
    conditions: ConditionReport
    template: PwInput
    parameters: tuple[SuggestedParameter, ...]
    assumed: tuple[str, ...]

    @property
    def structure(self) -> Structure:
        """The structure the input describes."""
        return self.template.structure

    @property
    def valence_electrons(self) -> float:
        """Valence electrons of the cell (from the pseudopotential headers)."""
        return self.pseudos.valence_electrons(self.structure.symbols)

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready summary."""
        return {
            "structure": self.built.description,
            "formula": self.structure.formula,
            "system_kind": self.built.kind,
            "functional": self.pseudos.functional,
            "pseudopotentials": {p.element: p.name for p in self.pseudos.pseudos},
            "conditions": list(self.conditions.conditions),
            "k_points": self.template.kpoints.describe(),
            "parameters": [p.as_dict() for p in self.parameters],
            "assumed": list(self.assumed),
        }

    def text(self) -> str:
        """A readable summary for people and agents."""
        lines = [
            f"{self.built.description}: {self.request.calculation} with "
            f"{self.pseudos.functional.upper()}, k-points {self.template.kpoints.describe()}",
            "pseudopotentials: " + ", ".join(p.describe() for p in self.pseudos.pseudos),
            "conditions: " + (", ".join(self.conditions.conditions) or "none"),
        ]
        lines += [
            f"  &{p.namelist.upper()} {p.name} = {p.value!r}  ({p.reason})" for p in self.parameters
        ]
        lines += [f"assumed: {a}" for a in self.assumed]
        return "\n".join(lines)


def kpoint_mesh(structure: Structure, kspacing_inv_a: float, kind: str) -> KPoints:
    """Γ for molecules; n_i = ceil(|b_i| / spacing) (|b_i| with 2π), n_3 = 1 for layers."""
    if kind == "molecule":
        return KPoints("gamma")
    reciprocal = 2 * math.pi * np.linalg.inv(structure.cell).T
    mesh = [max(1, math.ceil(float(np.linalg.norm(b)) / kspacing_inv_a)) for b in reciprocal]
    if kind in ("slab", "two_d"):
        mesh[2] = 1
    return KPoints("automatic", (mesh[0], mesh[1], mesh[2]))


def _pseudos(request: DftRequest, library: PseudoLibrary, elements: list[str]) -> PseudoSelection:
    if not request.pseudopotentials:
        return library.select(elements, request.functional)
    missing = [e for e in elements if e not in request.pseudopotentials]
    if missing:
        raise ValidationError(
            f"pseudopotentials were given by name but not for {', '.join(missing)}"
        )
    chosen = tuple(library.by_name(request.pseudopotentials[e]) for e in elements)
    for e, p in zip(elements, chosen, strict=True):
        if p.element != e:
            raise ValidationError(f"{p.name} is a pseudopotential for {p.element}, not {e}")
    family = check_same_functional(chosen)
    if request.functional is not None and family != request.functional:
        raise ValidationError(
            f"the given pseudopotentials are {family.upper()}, not {request.functional.upper()}"
        )
    return PseudoSelection(family, chosen, any(p.fully_relativistic for p in chosen))


class _Template:
    """Accumulates namelist values and the reason for each."""

    def __init__(self, kg: KnowledgeGraph) -> None:
        self.kg = kg
        self.values: dict[str, dict[str, Value]] = {"control": {}, "system": {}, "electrons": {}}
        self.reasons: dict[tuple[str, str], str] = {}

    def set(self, namelist: str, name: str, value: Value, reason: str) -> None:
        self.values.setdefault(namelist, {})[name] = value
        self.reasons[(namelist, name)] = reason

    def suggested(self) -> tuple[SuggestedParameter, ...]:
        out = []
        for nl, values in self.values.items():
            for name, value in values.items():
                param = self.kg.lookup(split_name(name)[0])
                out.append(
                    SuggestedParameter(
                        nl,
                        name,
                        param.type if param else "any",
                        value,
                        self.reasons.get((nl, name), ""),
                    )
                )
        return tuple(out)


def _cutoffs(request: DftRequest, pseudos: PseudoSelection) -> tuple[float, float, str]:
    wfc, rho = pseudos.cutoffs_ry()
    reason = "the largest cutoff the pseudopotentials suggest (at least 30 Ry)"
    if request.ecutwfc_ry is not None:
        rho = request.ecutrho_ry or request.ecutwfc_ry * rho / wfc
        return request.ecutwfc_ry, max(rho, 4 * request.ecutwfc_ry), "given in the request"
    if request.ecutrho_ry is not None:
        rho = max(request.ecutrho_ry, 4 * wfc)
    return wfc, rho, reason


def _apply_activations(
    t: _Template, conditions: ConditionReport, request: DftRequest, species: list[str]
) -> None:
    for a in t.kg.activated(conditions.conditions):
        if a.structural or a.value is None:
            continue
        if a.per_species:
            _per_species(t, a.name, a.reason, request, species)
            continue
        value, reason = _requested(a.name, request) or (a.value, a.reason)
        t.set(a.namelist, a.name, value, reason)
    if conditions.has("spin_orbit") and conditions.has("spin_polarized"):
        t.values["system"].pop("nspin", None)  # non-collinear runs carry the moment in spinors


def _requested(name: str, request: DftRequest) -> tuple[Value, str] | None:
    """The request's own value for an activated variable, if it gives one."""
    given = "given in the request"
    if name == "degauss" and request.smearing_ry != DftRequest.model_fields["smearing_ry"].default:
        return request.smearing_ry, given
    if name == "smearing" and request.smearing not in (None, "none"):
        return SMEARING_NAMES[str(request.smearing)], given
    if name == "forc_conv_thr" and request.force_threshold_ev_a is not None:
        return request.force_threshold_ev_a / (Ry / Bohr), f"{given} (eV/Å converted to Ry/Bohr)"
    if name == "input_dft" and request.hybrid:
        return request.hybrid, given
    return None


def _per_species(
    t: _Template, name: str, reason: str, request: DftRequest, species: list[str]
) -> None:
    for i, sym in enumerate(species, start=1):
        if name == "starting_magnetization":
            moment = MAGNETIC_MOMENTS.get(sym, 0.5 if request.spin else 0.0)
            if moment:
                t.set("system", f"starting_magnetization({i})", moment, reason)
        elif name == "Hubbard_U" and sym in request.hubbard_u_ev:
            t.set("system", f"Hubbard_U({i})", request.hubbard_u_ev[sym], "given in the request")


def _assemble(
    request: DftRequest,
    built: BuiltStructure,
    pseudos: PseudoSelection,
    conditions: ConditionReport,
    kg: KnowledgeGraph,
) -> _Template:
    t = _Template(kg)
    species = list(dict.fromkeys(built.structure.symbols))
    t.set("control", "calculation", request.calculation, "the requested task")
    t.set("control", "tprnfor", True, "report forces")
    if built.kind == "bulk":
        t.set("control", "tstress", True, "report the stress of the periodic crystal")
    wfc, rho, reason = _cutoffs(request, pseudos)
    t.set("system", "ecutwfc", float(wfc), reason)
    t.set("system", "ecutrho", float(rho), reason + "; density cutoff")
    t.set("electrons", "conv_thr", SCF_CONV_THR, "tight SCF for reliable forces and stress")
    _apply_activations(t, conditions, request, species)
    if conditions.has("spin_polarized") or built.kind in ("slab", "two_d"):
        t.set("electrons", "mixing_beta", 0.3, "gentler mixing for magnetic systems and slabs")
    if conditions.has("hybrid"):
        t.set("system", "ecutfock", float(min(rho, 4 * wfc)), "exact exchange at 4 × ecutwfc")
    if request.vdw is not None:
        t.set("system", "vdw_corr", request.vdw, "dispersion correction requested")
    if built.kind == "molecule":
        nelec = pseudos.valence_electrons(built.structure.symbols)
        t.set("system", "nbnd", math.ceil(nelec / 2) + 4, "empty states help a molecule's SCF")
        if round(nelec) % 2 == 1:
            t.set("system", "nspin", 2, "an odd number of electrons leaves one spin unpaired")
            t.set("system", "tot_magnetization", 1.0, "a doublet")
    return t


def recommend(
    request: DftRequest,
    library: PseudoLibrary,
    *,
    fetcher: MaterialsProjectFetcher | None = None,
    kg: KnowledgeGraph | None = None,
) -> Recommendation:
    """The recommended pw.x input for ``request`` (refuses what it cannot do, naming why)."""
    kg = kg or load_knowledge_graph()
    built = build_structure(request.structure, fetcher)
    structure = _rattled(built.structure, request.rattle_a)
    elements = list(dict.fromkeys(structure.symbols))
    pseudos = _pseudos(request, library, elements)
    conditions = decide_conditions(request, built, pseudos)
    t = _assemble(request, built, pseudos, conditions, kg)
    problems = errors(validate_input(t.values, kg))
    if problems:
        raise ValidationError(
            "the recommended input is inconsistent: " + "; ".join(p.message for p in problems)
        )
    species = tuple(Species(p.element, p.name) for p in pseudos.pseudos)
    mesh = (
        KPoints("automatic", request.kpoints)
        if request.kpoints is not None
        else kpoint_mesh(structure, request.kspacing_inv_a, built.kind)
    )
    template = PwInput(t.values, species, structure, mesh)
    if request.overrides:
        template = template.with_values(request.overrides)
        _check_input_dft(template, pseudos)
    assumed = (*built.assumed, *pseudos.assumed, *conditions.assumed)
    if request.functional is None and not any(a.startswith("functional:") for a in assumed):
        assumed = (*assumed, f"functional: {pseudos.functional.upper()} (none was named)")
    return Recommendation(request, built, pseudos, conditions, template, t.suggested(), assumed)


def _check_input_dft(template: PwInput, pseudos: PseudoSelection) -> None:
    """Refuse an ``input_dft`` that silently replaces the files' functional (hybrids aside)."""
    value = template.get("system", "input_dft")
    if not isinstance(value, str) or value.lower() in HYBRIDS:
        return
    if functional_family(value) != pseudos.functional:
        raise ValidationError(
            f"input_dft={value!r} would override the {pseudos.functional.upper()} "
            "pseudopotentials with another functional; choose files of that functional instead"
        )


def _rattled(structure: Structure, amplitude_a: float) -> Structure:
    if amplitude_a <= 0:
        return structure
    rng = np.random.default_rng(0)
    return structure.with_positions(
        structure.positions + rng.normal(0, amplitude_a, (len(structure), 3))
    )
