"""Protocol ``lattice_constant``: the equilibrium lattice constant of a cubic crystal.

Build the conventional cell, scan energies over isotropic strains, fit an equation
of state (ASE's Birch–Murnaghan by default), and report a0, B0, B0' and E0 with a
plot of the fitted curve and its residuals. The procedure is the shared EOS
sub-graph of :mod:`simwright.steps.eos` run with any energy engine: an ASE calculator
(EMT, LJ, the universal MLIPs SevenNet-0 and CHGNet) or a LAMMPS potential of the
catalogue ("with the Mishin EAM potential", "with Tersoff"), compared with the
potential's own published values where they are recorded, and with experiment.
This module only parses the request and writes the plan.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from ase.data import atomic_numbers, reference_states
from pydantic import ConfigDict, Field, field_validator

from simwright.builders import BulkSpec
from simwright.errors import ParseError, ValidationError
from simwright.graph import Graph
from simwright.protocols import sizing
from simwright.protocols.inputs import lattice_constant_inputs
from simwright.protocols.registry import Protocol
from simwright.protocols.solid_engine import SolidEngineParams, engine_request
from simwright.protocols.text import find_elements, has_word
from simwright.results import Reference
from simwright.steps.eos import EOS_STEPS, BuildCrystal, EosPlan, EosText, StrainScan
from simwright.structure import is_element

Lattice = Literal["fcc", "bcc", "sc", "diamond"]

EXPERIMENT_A: dict[str, float] = {
    "Al": 4.05,
    "Cu": 3.61,
    "Ag": 4.09,
    "Au": 4.08,
    "Ni": 3.52,
    "Pd": 3.89,
    "Pt": 3.92,
}
"""Room-temperature lattice constants (Å), C. Kittel, Introduction to Solid State
Physics, 8th ed. (Wiley, 2005), Table 1.3."""
KITTEL = "C. Kittel, Introduction to Solid State Physics, 8th ed. (Wiley, 2005), Table 1.3"


class LatticeConstantParams(SolidEngineParams):
    """Typed parameters of the ``lattice_constant`` protocol (engine fields from
    :class:`~simwright.protocols.solid_engine.SolidEngineParams`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    lattice: Lattice | None = Field(None, description="cubic lattice; default: the element's own")
    a_guess_a: float | None = Field(None, gt=0, description="starting lattice constant (Å)")
    strain_percent: float = Field(5.0, gt=0, le=20, description="± isotropic strain range (%)")
    n_points: int = Field(9, ge=5, le=101, description="number of volumes in the scan")
    eos: Literal["birchmurnaghan", "murnaghan", "vinet", "sj"] = "birchmurnaghan"

    @field_validator("element")
    @classmethod
    def _known_element(cls, value: str) -> str:
        if not is_element(value):
            raise ValueError(f"unknown element {value!r}")
        return value

    def resolved_lattice(self) -> Lattice:
        """The lattice to build: the given one or the element's reference structure."""
        if self.lattice is not None:
            return self.lattice
        ref = reference_states[atomic_numbers[self.element]] or {}
        sym = ref.get("symmetry")
        if sym not in ("fcc", "bcc", "sc", "diamond"):
            raise ValidationError(
                f"{self.element} is not cubic in its reference state ({sym}); give a cubic lattice"
            )
        return sym

    def resolved_a(self) -> float:
        """The starting lattice constant (Å)."""
        if self.a_guess_a is not None:
            return self.a_guess_a
        ref = reference_states[atomic_numbers[self.element]] or {}
        if "a" not in ref:
            raise ValidationError(
                f"no reference lattice constant for {self.element}; give a_guess_a"
            )
        return float(ref["a"])  # type: ignore[arg-type]


def crystal_spec(p: LatticeConstantParams) -> BulkSpec:
    """The conventional cubic cell of the element."""
    return BulkSpec(p.element, p.resolved_lattice(), p.resolved_a(), cubic=True)


def eos_plan(p: LatticeConstantParams) -> EosPlan:
    """The shared EOS sub-graph's plan: strains, EOS form and report text."""
    lattice = p.resolved_lattice()
    refs = p.references(("lattice_constant", "bulk_modulus"))
    if p.element in EXPERIMENT_A and not any(r.citation.startswith("experiment") for r in refs):
        refs += (Reference("lattice_constant", EXPERIMENT_A[p.element], "Å", KITTEL),)
    engine = p.engine()
    attrs = {"calculator": p.calculator} if p.potential is None else {"potential": p.engine_name()}
    text = EosText(
        title=f"Lattice constant of {p.element}",
        subject=f"{p.element} ({lattice}, {p.engine_name()})",
        plot_subject=f"{p.element} {lattice}",
        method=(
            f"Energies of the conventional {lattice} cell at {p.n_points} "
            f"isotropic strains within ±{p.strain_percent} % computed with "
            f"{engine.describe()}; {p.eos} equation of state fitted with ASE "
            f"(B0 and its pressure derivative B0' at V0). {p.validation_note()}"
        ),
        fit_description=f"{p.eos} equation-of-state fit of {p.element} ({lattice})",
        references=refs,
        attrs=attrs,
    )
    return EosPlan(StrainScan(p.strain_percent, p.n_points), p.eos, text, cubic_cell_ratio=1.0)


def start(p: LatticeConstantParams) -> BuildCrystal:
    """The first step of the shared EOS sub-graph, with the chosen engine."""
    return BuildCrystal(crystal_spec(p), p.engine(), eos_plan(p))


GRAPH = Graph.build("lattice_constant", EOS_STEPS)

_LATTICES = ("fcc", "bcc", "sc", "diamond")
_TRIGGERS = ("lattice constant", "lattice parameter", "equation of state", "eos")


def parse_request(text: str) -> dict[str, Any] | None:
    """Parameters from phrases like 'lattice constant of fcc Cu with EMT'."""
    low = text.lower()
    if not any(t in low for t in _TRIGGERS):
        return None
    mentions_dft = has_word(text, "dft", "pbe", "lda", "pbesol", "pw.x", "espresso")
    if mentions_dft:
        return None
    elements = find_elements(text)
    if not elements:
        raise ParseError("which element? e.g. 'lattice constant of fcc Cu with EMT'")
    if len(elements) > 1:
        raise ParseError(
            f"the request names several elements ({', '.join(elements)}); "
            "this protocol handles one element"
        )
    raw: dict[str, Any] = {"element": elements[0]}
    lat = [name for name in _LATTICES if has_word(text, name)]
    if len(lat) > 1:
        raise ParseError(f"the request names several lattices ({', '.join(lat)})")
    if lat:
        raw["lattice"] = lat[0]
    raw.update(engine_request(text))
    m = re.search(r"(\d+)\s+(?:points|volumes)", low)
    if m:
        raw["n_points"] = int(m.group(1))
    return raw


PROTOCOL = Protocol(
    name="lattice_constant",
    title="Lattice constant and bulk modulus of a cubic crystal from an equation-of-state fit",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=LatticeConstantParams,
    start=start,
    examples=(
        "lattice constant of fcc Cu with EMT",
        "equation of state of Al with EMT",
        "lattice constant of Cu with the Mishin EAM potential",
        "equation of state of Si with Tersoff",
        "lattice constant of Si with CHGNet",
    ),
    parse_request=parse_request,
    check=sizing.check_lattice_constant,
    estimate=sizing.lattice_constant_estimate,
    prepare=lattice_constant_inputs,
)
