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
from simwright.dft.magnetic import Ordered, antiferromagnetic, hubbard_values
from simwright.dft.request import SMEARING_NAMES, DftRequest, correlated_elements
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
        return library.select(
            elements,
            request.functional,
            spin_orbit=request.spin_orbit,
            families=request.pseudo_family,
        )
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
    relativistic = any(p.fully_relativistic for p in chosen)
    if request.spin_orbit and not all(p.fully_relativistic for p in chosen):
        scalar = ", ".join(p.name for p in chosen if not p.fully_relativistic)
        raise ValidationError(
            f"spin-orbit coupling needs fully relativistic files; {scalar} is not"
        )
    return PseudoSelection(family, chosen, relativistic)


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
    t: _Template, conditions: ConditionReport, request: DftRequest, species: SpeciesPlan
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


@dataclass(frozen=True)
class SpeciesPlan:
    """The species of the input in order: name (label or element), element, spin sign, and
    the Hubbard U of each element with where it came from."""

    names: tuple[str, ...]
    symbols: tuple[str, ...]
    signs: tuple[int, ...]
    hubbard_u_ev: dict[str, float]
    hubbard_source: dict[str, str]


def _starting_moment(sym: str, plan: SpeciesPlan, request: DftRequest) -> float:
    """Starting magnetization of an element: the table's for Fe, Co, Ni, 0.5 for other d/f
    elements (or for every element of a structure without one) when spin is asked for."""
    if sym in MAGNETIC_MOMENTS:
        return MAGNETIC_MOMENTS[sym]
    spin = request.spin or request.magnetic_order is not None
    if not spin:
        return 0.0
    correlated = correlated_elements("".join(plan.symbols))
    return 0.5 if (sym in correlated or not correlated) else 0.0


def _per_species(
    t: _Template, name: str, reason: str, request: DftRequest, plan: SpeciesPlan
) -> None:
    for i, (sym, sign) in enumerate(zip(plan.symbols, plan.signs, strict=True), start=1):
        if name == "starting_magnetization":
            moment = _starting_moment(sym, plan, request)
            if moment:
                why = reason if sign > 0 else "opposite spin of the antiferromagnetic order"
                t.set("system", f"starting_magnetization({i})", sign * moment, why)
        elif name == "Hubbard_U" and sym in plan.hubbard_u_ev:
            t.set("system", f"Hubbard_U({i})", plan.hubbard_u_ev[sym], plan.hubbard_source[sym])


def _assemble(
    request: DftRequest,
    built: BuiltStructure,
    pseudos: PseudoSelection,
    conditions: ConditionReport,
    kg: KnowledgeGraph,
    species: SpeciesPlan,
) -> _Template:
    t = _Template(kg)
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
    if conditions.has("hubbard") and conditions.has("spin_orbit"):
        _full_plus_u(t, request)
    if built.kind == "molecule":
        nelec = pseudos.valence_electrons(built.structure.symbols)
        t.set("system", "nbnd", math.ceil(nelec / 2) + 4, "empty states help a molecule's SCF")
        _molecule_spin(t, round(nelec), request.multiplicity)
    _spin_occupations(t, species)
    return t


def _full_plus_u(t: _Template, request: DftRequest) -> None:
    """Non-collinear DFT+U: pw.x 6.7 has only the full scheme, without forces or stress."""
    if request.calculation != "scf":
        raise ValidationError(
            "DFT+U with spin-orbit coupling needs pw.x's full DFT+U scheme, which in pw.x 6.7 "
            "computes no forces or stress: a relaxation cannot be run; drop one of the two"
        )
    t.set("system", "lda_plus_u_kind", 1, "non-collinear DFT+U needs the full scheme (J = 0)")
    t.set("control", "tprnfor", False, "no forces with the full DFT+U scheme in pw.x 6.7")
    t.set("control", "tstress", False, "no stress with the full DFT+U scheme in pw.x 6.7")


def _spin_occupations(t: _Template, plan: SpeciesPlan) -> None:
    """A spin-polarised run with fixed occupations needs its moment: zero for an
    antiferromagnet; otherwise a little smearing lets the moment find its value."""
    system = t.values["system"]
    if system.get("nspin") != 2 or system.get("occupations") == "smearing":
        return
    if "tot_magnetization" in system:
        return
    if any(sign < 0 for sign in plan.signs):
        t.set("system", "tot_magnetization", 0.0, "an antiferromagnet has no net moment")
        return
    t.set("system", "occupations", "smearing", "a spin-polarised insulator: the moment is free")
    t.set("system", "smearing", "gaussian", "narrow Gaussian smearing for an insulator")
    t.set("system", "degauss", 0.005, "0.005 Ry: small enough not to blur a gap")


def _molecule_spin(t: _Template, nelec: int, multiplicity: int | None) -> None:
    """nspin and the fixed moment of a molecule: the stated multiplicity, else a doublet
    for an odd electron count."""
    if multiplicity is None:
        if nelec % 2 == 1:
            t.set("system", "nspin", 2, "an odd number of electrons leaves one spin unpaired")
            t.set("system", "tot_magnetization", 1.0, "a doublet")
        return
    if (multiplicity - 1) % 2 != nelec % 2:
        raise ValidationError(
            f"multiplicity {multiplicity} is impossible with {nelec} valence electrons"
        )
    if multiplicity > 1:
        t.set("system", "nspin", 2, "the stated multiplicity")
        t.set(
            "system", "tot_magnetization", float(multiplicity - 1), "2S of the stated multiplicity"
        )


def _species_plan(
    request: DftRequest, built: BuiltStructure, ordered: Ordered | None
) -> tuple[SpeciesPlan, tuple[str, ...]]:
    """Species names (two per element of an antiferromagnet), signs and Hubbard U."""
    symbols = list(dict.fromkeys(built.structure.symbols))
    if ordered is None:
        names, syms, signs = symbols, symbols, [1] * len(symbols)
    else:
        names = list(dict.fromkeys(ordered.labels))
        syms = [ordered.built.structure.symbols[ordered.labels.index(n)] for n in names]
        signs = [ordered.signs.get(n, 1) for n in names]
    given = dict(request.hubbard_u_ev)
    values, source = (
        hubbard_values(symbols, given, request.hubbard) if (request.hubbard or given) else ({}, {})
    )
    notes = tuple(v for e, v in source.items() if e not in given)
    plan = SpeciesPlan(tuple(names), tuple(syms), tuple(signs), values, source)
    return plan, notes


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
    ordered = None
    if request.magnetic_order == "antiferromagnetic":
        ordered = antiferromagnetic(built, request.structure.name, request.structure.lattice)
        built = ordered.built
    structure = _rattled(built.structure, request.rattle_a)
    elements = list(dict.fromkeys(structure.symbols))
    pseudos = _pseudos(request, library, elements)
    conditions = decide_conditions(request, built, pseudos)
    plan, hubbard_notes = _species_plan(request, built, ordered)
    t = _assemble(request, built, pseudos, conditions, kg, plan)
    problems = errors(validate_input(t.values, kg))
    if problems:
        raise ValidationError(
            "the recommended input is inconsistent: " + "; ".join(p.message for p in problems)
        )
    species = tuple(
        Species(sym, pseudos.for_element(sym).name, label=name if name != sym else None)
        for name, sym in zip(plan.names, plan.symbols, strict=True)
    )
    if request.gamma_point:
        mesh = KPoints("gamma")
    elif request.kpoints is not None:
        mesh = KPoints("automatic", request.kpoints)
    else:
        mesh = kpoint_mesh(structure, request.kspacing_inv_a, built.kind)
    labels = ordered.labels if ordered is not None else None
    template = PwInput(t.values, species, structure, mesh, labels=labels)
    if request.overrides:
        template = template.with_values(request.overrides)
        _check_input_dft(template, pseudos)
    assumed = (*built.assumed, *pseudos.assumed, *conditions.assumed, *hubbard_notes)
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
