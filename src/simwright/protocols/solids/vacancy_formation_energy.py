"""Protocol ``vacancy_formation_energy``: the relaxed monovacancy of an elemental cubic crystal.

Relax the lattice constant (an equation-of-state scan), then for each supercell of
n×n×n conventional cells (default 2, 3 and 4) compute the energy E(N) of the perfect
supercell and E(N−1) of the supercell with one atom removed, its ions relaxed at
fixed cell (constant volume), and E_v = E(N−1) − (N−1)/N · E(N). The value is
converged when the last two sizes differ by less than the stated tolerance; the
report lists every size. Any energy engine: a LAMMPS potential of the catalogue
("with the Mishin EAM potential", "with Tersoff"; ions relaxed by ``minimize``) or
an ASE calculator (EMT, the MLIPs; ions relaxed by BFGS).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np
from pydantic import ConfigDict, Field, field_validator
from typing_extensions import override

from simwright.builders import supercell, vacancy
from simwright.contract import SCHEMA_VERSION, Column, Table, read_structure, write_table
from simwright.graph import Done, Graph, RunContext, Step
from simwright.protocols.estimate import Estimate
from simwright.protocols.registry import Protocol
from simwright.protocols.solids.defect_common import (
    Convergence,
    comparison_note,
    defect_estimate,
    defect_request,
    rattled,
    read_int_list,
    references,
)
from simwright.protocols.solids.engine import SolidEngineParams
from simwright.protocols.solids.inputs import crystal_inputs
from simwright.protocols.solids.sizing import ATOMS_PER_CELL, check_lattice_constant
from simwright.reporting import plot_xy
from simwright.results import ArtifactRef, ProtocolResult, Quantity
from simwright.settings import Settings
from simwright.steps.eos import StrainScan
from simwright.steps.lattice import LatticeFit, relax_lattice
from simwright.steps.report import report_result

QUANTITY = "vacancy_formation_energy"


class VacancyFormationParams(SolidEngineParams):
    """Typed parameters of ``vacancy_formation_energy``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    sizes: tuple[int, ...] = Field(
        (2, 3, 4), min_length=1, description="supercells of n×n×n conventional cells, ascending"
    )
    tolerance_ev: float = Field(
        0.02, gt=0, description="converged when the last two sizes differ by less (eV)"
    )
    rattle_a: float = Field(
        0.02,
        ge=0,
        le=0.2,
        description="random displacements (Å, fixed seed) of the vacancy cell's atoms before "
        "relaxing, so that a symmetry-lowering relaxation can happen; 0: from ideal sites",
    )
    eos_strain_percent: float = Field(3.0, gt=0, le=20, description="± range of the EOS scan")
    eos_points: int = Field(7, ge=5, le=101)

    @field_validator("sizes")
    @classmethod
    def _ascending(cls, value: tuple[int, ...]) -> tuple[int, ...]:
        if any(n < 1 or n > 10 for n in value) or list(value) != sorted(set(value)):
            raise ValueError("sizes are distinct integers from 1 to 10, ascending")
        return value


@dataclass(frozen=True)
class RelaxCrystal(Step):
    """Relax the lattice constant by an equation-of-state scan."""

    params: VacancyFormationParams

    @override
    def run(self, ctx: RunContext) -> Supercells:
        p = self.params
        scan = StrainScan(p.eos_strain_percent, p.eos_points)
        return Supercells(p, relax_lattice(ctx, p.crystal(), p.engine(), scan, "birchmurnaghan"))


@dataclass(frozen=True)
class Supercells(Step):
    """Perfect and vacancy supercells of each size; ions relaxed at fixed cell."""

    params: VacancyFormationParams
    fit: LatticeFit

    @override
    def run(self, ctx: RunContext) -> VacancyReport:
        p = self.params
        cell = read_structure(ctx.path(self.fit.relaxed))
        perfect = [supercell(cell, (n, n, n)) for n in p.sizes]
        defective = [rattled(vacancy(s, 0), p.rattle_a) for s in perfect]
        for n, s in zip(p.sizes, defective, strict=True):
            ctx.structure(s, f"vacancy-{n}x{n}x{n}.extxyz", f"{p.element} {n}³ cells, one vacancy")
        out = p.engine().points(ctx, [*perfect, *defective], relax_ions=True)
        k = len(perfect)
        e_perfect, e_vacancy = out.energy_ev[:k], out.energy_ev[k:]
        atoms = np.array([len(s) for s in perfect])
        formation = e_vacancy - (atoms - 1) / atoms * e_perfect
        for n, s in zip(p.sizes, out.structures[k:], strict=True):
            ctx.structure(s, f"vacancy-{n}x{n}x{n}-relaxed.extxyz", "relaxed vacancy cell")
        table = Table(
            name="vacancy_formation",
            columns=(
                Column("size", np.array(p.sizes), "1", "n of the n×n×n conventional cells"),
                Column("atoms", atoms, "1", "atoms of the perfect supercell N"),
                Column("energy_perfect", e_perfect, "eV", "E(N)"),
                Column("energy_vacancy", e_vacancy, "eV", "E(N−1), ions relaxed"),
                Column("formation_energy", formation, "eV", "E(N−1) − (N−1)/N E(N)"),
            ),
            description=f"vacancy formation energy of {p.element} against supercell size",
            producer=ctx.producer,
        )
        path = write_table(ctx.workdir / "vacancy_formation.h5", table)
        plot = plot_xy(
            ctx.workdir / "vacancy_convergence.png",
            atoms.astype(float),
            formation,
            xlabel="atoms in the perfect supercell N",
            ylabel="E_v (eV)",
            title=f"Vacancy formation energy of {p.element} ({p.engine_name()})",
        )
        return VacancyReport(
            p,
            self.fit,
            tuple(float(e) for e in formation),
            tuple(int(a) for a in atoms),
            (
                ctx.artifact(path, "table", table.description, SCHEMA_VERSION),
                ctx.artifact(plot, "plot", "E_v against supercell size"),
            ),
        )


@dataclass(frozen=True)
class VacancyReport(Step):
    """E_v of the largest supercell, every size, convergence and comparison."""

    params: VacancyFormationParams
    fit: LatticeFit
    formation_ev: tuple[float, ...]
    atoms: tuple[int, ...]
    artifacts: tuple[ArtifactRef, ...]

    @override
    def run(self, ctx: RunContext) -> Done[ProtocolResult]:
        p = self.params
        conv = Convergence(
            "E_v per supercell",
            tuple(f"{n}³ ({a} atoms)" for n, a in zip(p.sizes, self.atoms, strict=True)),
            self.formation_ev,
            p.tolerance_ev,
            "eV",
        )
        source = self.artifacts[0].path
        values = {
            QUANTITY: Quantity(self.formation_ev[-1], "eV", source=source),
            **{
                f"{QUANTITY}_{n}": Quantity(e, "eV", source=source)
                for n, e in zip(p.sizes, self.formation_ev, strict=True)
            },
            "lattice_constant": Quantity(self.fit.a0_a, "Å", source=self.fit.results.path),
        }
        notes = [
            conv.note(),
            "Finite size: a vacancy interacts with its periodic images (elastic field); the "
            f"largest cell here holds {self.atoms[-1]} atoms.",
            (
                f"The ions of the vacancy cell were displaced randomly by up to {p.rattle_a:g} Å "
                "(fixed seed) before relaxing, so that a symmetry-lowering relaxation "
                "(Jahn–Teller, dangling-bond pairing in diamond Si) can happen; the relaxed "
                "configuration is a local minimum, not a searched global one."
                if p.rattle_a > 0
                else "The ions relax from the ideal lattice sites, which keeps the vacancy's "
                "point symmetry: a symmetry-lowering distortion is not seeded, so E_v may lie "
                "above the lowest relaxed configuration."
            ),
            comparison_note(p),
            p.validation_note(),
        ]
        verdict = "converged" if conv.converged else "NOT converged"
        summary = (
            f"{p.element} ({p.engine_name()}): E_v = {self.formation_ev[-1]:.3f} eV "
            f"({self.atoms[-1]}-atom cell, {verdict} within {p.tolerance_ev:g} eV)"
        )
        return Done(
            report_result(
                ctx,
                title=f"Vacancy formation energy of {p.element}",
                summary=summary,
                values=values,
                method=(
                    f"Lattice constant from a Birch–Murnaghan fit ({p.eos_points} points within "
                    f"±{p.eos_strain_percent} %); supercells of {', '.join(map(str, p.sizes))} "
                    "conventional cells per side with one atom removed, ions displaced by up to "
                    f"{p.rattle_a:g} Å and relaxed at fixed "
                    f"cell (constant volume) with {p.engine().describe()}; "
                    "E_v = E(N−1) − (N−1)/N · E(N)."
                ),
                artifacts=(*self.artifacts, self.fit.results, self.fit.plot),
                references=references(p, (QUANTITY,)),
                notes=notes,
            )
        )


GRAPH = Graph.build("vacancy_formation_energy", [RelaxCrystal, Supercells, VacancyReport])

_TRIGGER = re.compile(r"\bvacancy\s+formation\s+energ(?:y|ies)\b|\bvacancy\s+energy\b")


def parse_request(text: str) -> dict[str, Any] | None:
    """Parameters from 'vacancy formation energy of Cu with the Mishin EAM potential,
    sizes 2, 3'."""
    raw = defect_request(
        text, _TRIGGER, "vacancy formation energy of Cu with the Mishin EAM potential"
    )
    sizes = read_int_list(text, r"\b(?:sizes?|supercells?)\s+\d+(?:\s*(?:,|and|to)\s*\d+)*")
    if raw is not None and sizes:
        raw["sizes"] = sizes
    return raw


def start(p: VacancyFormationParams) -> RelaxCrystal:
    """The first step."""
    return RelaxCrystal(p)


def estimate(params: Any, settings: Settings) -> Estimate:
    """One relaxation of each perfect and each defective supercell."""
    per_cell = ATOMS_PER_CELL.get(params.resolved_lattice(), 8)
    atoms = [per_cell * n**3 for n in params.sizes]
    return defect_estimate(params, atoms + atoms, 2 * len(atoms), "perfect and vacancy cells")


PROTOCOL = Protocol(
    name="vacancy_formation_energy",
    title="Vacancy formation energy of a cubic crystal with supercell convergence",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=VacancyFormationParams,
    start=start,
    examples=(
        "vacancy formation energy of Cu with the Mishin EAM potential",
        "vacancy formation energy of Si with Tersoff, sizes 2, 3",
    ),
    parse_request=parse_request,
    check=check_lattice_constant,
    estimate=estimate,
    prepare=crystal_inputs,
)
