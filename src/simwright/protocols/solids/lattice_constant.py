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

from pydantic import ConfigDict, Field

from simwright.graph import Graph
from simwright.protocols.registry import Protocol
from simwright.protocols.solids import sizing
from simwright.protocols.solids.engine import EXPERIMENT_A, KITTEL, SolidEngineParams, solid_request
from simwright.protocols.solids.inputs import lattice_constant_inputs
from simwright.results import Reference
from simwright.steps.eos import EOS_STEPS, BuildCrystal, EosPlan, EosText, StrainScan


class LatticeConstantParams(SolidEngineParams):
    """Typed parameters of the ``lattice_constant`` protocol (engine fields from
    :class:`~simwright.protocols.solids.engine.SolidEngineParams`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    strain_percent: float = Field(5.0, gt=0, le=20, description="± isotropic strain range (%)")
    n_points: int = Field(9, ge=5, le=101, description="number of volumes in the scan")
    eos: Literal["birchmurnaghan", "murnaghan", "vinet", "sj"] = "birchmurnaghan"


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
    return BuildCrystal(p.crystal(), p.engine(), eos_plan(p))


GRAPH = Graph.build("lattice_constant", EOS_STEPS)

_TRIGGER = re.compile(r"\blattice (?:constant|parameter)|\bequation of state\b|\beos\b")


def parse_request(text: str) -> dict[str, Any] | None:
    """Parameters from phrases like 'lattice constant of fcc Cu with EMT'."""
    raw = solid_request(text, _TRIGGER, "lattice constant of fcc Cu with EMT")
    m = re.search(r"(\d+)\s+(?:points|volumes)", text.lower())
    if raw is not None and m:
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
