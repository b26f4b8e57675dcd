"""Protocol ``cohesive_energy``: the cohesive energy of an elemental cubic crystal.

E_coh = E_atom − E_bulk: the energy of the isolated atom (one atom alone in a large
periodic box) minus the bulk energy per atom at the lattice constant fitted by an
equation-of-state scan. For an EAM potential the isolated atom's energy is zero by
construction (no neighbours: no pair term, no density to embed in, F(0) = 0); it is
computed anyway and reported. Any energy engine: a LAMMPS potential of the
catalogue ("with the Mishin EAM potential", "with Tersoff") or an ASE calculator
(EMT, SevenNet-0, CHGNet — whose isolated-atom energies are those of the model).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from pydantic import ConfigDict, Field
from typing_extensions import override

from simwright.graph import Done, Graph, RunContext, Step
from simwright.protocols.registry import Protocol
from simwright.protocols.solids import sizing
from simwright.protocols.solids.engine import SolidEngineParams, solid_request
from simwright.protocols.solids.inputs import crystal_inputs
from simwright.results import ProtocolResult, Quantity
from simwright.steps.eos import StrainScan
from simwright.steps.lattice import LatticeFit, relax_lattice
from simwright.steps.report import report_result
from simwright.structure import Structure

PROPERTIES = ("cohesive_energy", "lattice_constant")


class CohesiveEnergyParams(SolidEngineParams):
    """Typed parameters of ``cohesive_energy``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    strain_percent: float = Field(3.0, gt=0, le=20, description="± isotropic strain range (%)")
    n_points: int = Field(7, ge=5, le=101, description="volumes in the EOS scan")
    eos: Literal["birchmurnaghan", "murnaghan", "vinet", "sj"] = "birchmurnaghan"
    box_a: float = Field(20.0, ge=12, le=60, description="periodic box of the isolated atom (Å)")


@dataclass(frozen=True)
class RelaxCrystal(Step):
    """Fit the equation of state: the bulk energy per atom at the relaxed lattice constant."""

    params: CohesiveEnergyParams

    @override
    def run(self, ctx: RunContext) -> IsolatedAtom:
        p = self.params
        fit = relax_lattice(
            ctx, p.crystal(), p.engine(), StrainScan(p.strain_percent, p.n_points), p.eos
        )
        return IsolatedAtom(p, fit)


@dataclass(frozen=True)
class IsolatedAtom(Step):
    """The energy of one atom alone in a periodic box larger than twice any cutoff used."""

    params: CohesiveEnergyParams
    fit: LatticeFit

    @override
    def run(self, ctx: RunContext) -> CohesiveReport:
        p = self.params
        atom = Structure(
            (p.element,), np.full((1, 3), p.box_a / 2), np.eye(3) * p.box_a, (True, True, True)
        )
        ctx.structure(atom, "atom.extxyz", f"one {p.element} atom in a {p.box_a:g} Å box")
        energy = float(p.engine().evaluate(ctx, [atom]).energy_ev[0])
        return CohesiveReport(p, self.fit, energy)


@dataclass(frozen=True)
class CohesiveReport(Step):
    """E_coh = E_atom − E_bulk, compared with published values and experiment."""

    params: CohesiveEnergyParams
    fit: LatticeFit
    atom_energy_ev: float

    @override
    def run(self, ctx: RunContext) -> Done[ProtocolResult]:
        p, fit = self.params, self.fit
        cohesive = self.atom_energy_ev - fit.e0_ev
        values = {
            "cohesive_energy": Quantity(cohesive, "eV", source=fit.results.path),
            **fit.values(),
            "isolated_atom_energy": Quantity(self.atom_energy_ev, "eV"),
        }
        entry = p.potential_entry()
        notes = [p.validation_note()]
        if entry is not None and entry.family.startswith("EAM"):
            notes.append(
                "For an EAM potential the isolated atom's energy is zero by construction "
                f"(no pair term, F(0) = 0); computed here: {self.atom_energy_ev:.2e} eV."
            )
        if entry is None and p.calculator in ("chgnet", "sevennet"):
            notes.append(
                "A universal MLIP is trained on condensed-phase DFT data: its isolated-atom "
                "energy is an extrapolation, and E_coh inherits that uncertainty."
            )
        summary = (
            f"{p.element} ({p.engine_name()}): E_coh = {cohesive:.4f} eV/atom "
            f"at a0 = {fit.a0_a:.4f} Å"
        )
        return Done(
            report_result(
                ctx,
                title=f"Cohesive energy of {p.element}",
                summary=summary,
                values=values,
                method=(
                    f"Bulk energy per atom at the lattice constant of a {p.eos} fit to "
                    f"{p.n_points} energies within ±{p.strain_percent} % isotropic strain, "
                    f"and the energy of one atom in a {p.box_a:g} Å periodic box, both with "
                    f"{p.engine().describe()}; E_coh = E_atom − E_bulk."
                ),
                artifacts=(fit.results, fit.plot, fit.scan),
                references=p.references(PROPERTIES),
                notes=notes,
            )
        )


GRAPH = Graph.build("cohesive_energy", [RelaxCrystal, IsolatedAtom, CohesiveReport])

_TRIGGER = re.compile(r"\bcohesive\s+energ(?:y|ies)\b|\bbinding\s+energy\s+of\s+(?:bulk|solid)")


def parse_request(text: str) -> dict[str, Any] | None:
    """Parameters from 'cohesive energy of Cu with the Mishin EAM potential'."""
    return solid_request(text, _TRIGGER, "cohesive energy of Cu with the Mishin EAM potential")


def start(p: CohesiveEnergyParams) -> RelaxCrystal:
    """The first step."""
    return RelaxCrystal(p)


PROTOCOL = Protocol(
    name="cohesive_energy",
    title="Cohesive energy of an elemental cubic crystal (any energy engine)",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=CohesiveEnergyParams,
    start=start,
    examples=(
        "cohesive energy of Cu with the Mishin EAM potential",
        "cohesive energy of Si with Stillinger-Weber",
    ),
    parse_request=parse_request,
    check=sizing.check_lattice_constant,
    estimate=sizing.cohesive_energy_estimate,
    prepare=crystal_inputs,
)
