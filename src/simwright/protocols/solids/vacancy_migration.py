"""Protocol ``vacancy_migration``: the barrier of a vacancy hop by climbing-image NEB.

Relax the lattice constant (an equation-of-state scan); in each supercell of n×n×n
conventional cells remove one atom, and build the end point where a nearest
neighbour has hopped into the vacant site; relax both at fixed cell; then run a
nudged elastic band with a climbing image between them (ASE's ``ase.mep.NEB``,
FIRE optimizer, improved tangent) whose energies and forces come from the energy
engine — LAMMPS with a catalogued potential (all images of an iteration in one
LAMMPS run) or an ASE calculator. The migration energy is E_max − E_initial; its
convergence is checked against the band's force tolerance and across the
supercell sizes. The report plots the energy profile along the path.
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
from simwright.steps.neb import NebSettings, run_neb
from simwright.steps.report import report_result
from simwright.structure import Structure

QUANTITY = "vacancy_migration_energy"
DIP_EV = 0.005
"""An image this far (eV) below the initial state means the end points are not minima."""


class VacancyMigrationParams(SolidEngineParams):
    """Typed parameters of ``vacancy_migration``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    sizes: tuple[int, ...] = Field(
        (2, 3), min_length=1, description="supercells of n×n×n conventional cells, ascending"
    )
    n_images: int = Field(5, ge=1, le=15, description="intermediate images of the band")
    fmax_ev_a: float = Field(0.02, gt=0, le=0.2, description="band converged below (eV/Å)")
    max_steps: int = Field(500, ge=10, le=5000, description="FIRE iterations at most")
    spring_ev_a2: float = Field(0.1, gt=0, le=5, description="NEB spring constant (eV/Å²)")
    rattle_a: float = Field(
        0.02, ge=0, le=0.2, description="random displacements (Å) of the end points before relaxing"
    )
    tolerance_ev: float = Field(
        0.02, gt=0, description="converged when the last two sizes differ by less (eV)"
    )
    eos_strain_percent: float = Field(3.0, gt=0, le=20, description="± range of the EOS scan")
    eos_points: int = Field(7, ge=5, le=101)

    @field_validator("sizes")
    @classmethod
    def _ascending(cls, value: tuple[int, ...]) -> tuple[int, ...]:
        if any(n < 2 or n > 8 for n in value) or list(value) != sorted(set(value)):
            raise ValueError("sizes are distinct integers from 2 to 8, ascending")
        return value


def hop_ends(cell: Structure, n: int) -> tuple[Structure, Structure]:
    """The n×n×n supercell of ``cell`` without atom 0, and the same with the nearest
    neighbour of site 0 (one lying inside the cell) moved into the vacant site."""
    perfect = supercell(cell, (n, n, n))
    distance = np.linalg.norm(perfect.positions - perfect.positions[0], axis=1)
    distance[0] = np.inf
    j = int(np.argmin(distance))
    start = vacancy(perfect, 0)
    moved = start.positions.copy()
    moved[j - 1] = perfect.positions[0]
    return start, start.with_positions(moved)


@dataclass(frozen=True)
class RelaxCrystal(Step):
    """Relax the lattice constant by an equation-of-state scan."""

    params: VacancyMigrationParams

    @override
    def run(self, ctx: RunContext) -> Endpoints:
        p = self.params
        scan = StrainScan(p.eos_strain_percent, p.eos_points)
        return Endpoints(p, relax_lattice(ctx, p.crystal(), p.engine(), scan, "birchmurnaghan"))


@dataclass(frozen=True)
class Endpoints(Step):
    """Both end points of the hop in every supercell, ions relaxed at fixed cell."""

    params: VacancyMigrationParams
    fit: LatticeFit

    @override
    def run(self, ctx: RunContext) -> Bands:
        p = self.params
        cell = read_structure(ctx.path(self.fit.relaxed))
        ends = [rattled(s, p.rattle_a) for n in p.sizes for s in hop_ends(cell, n)]
        out = p.engine().points(ctx, ends, relax_ions=True)
        refs = tuple(
            ctx.structure(s, f"{'initial' if i % 2 == 0 else 'final'}-{p.sizes[i // 2]}.extxyz")
            for i, s in enumerate(out.structures)
        )
        return Bands(p, self.fit, refs, tuple(float(e) for e in out.energy_ev))


@dataclass(frozen=True)
class Bands(Step):
    """A climbing-image band for each supercell; the profiles in one table."""

    params: VacancyMigrationParams
    fit: LatticeFit
    ends: tuple[ArtifactRef, ...]
    end_energies_ev: tuple[float, ...]

    @override
    def run(self, ctx: RunContext) -> MigrationReport:
        p = self.params
        settings = NebSettings(p.n_images, p.spring_ev_a2, p.fmax_ev_a, p.max_steps)
        rows: list[tuple[int, int, float, float]] = []
        runs: list[tuple[bool, int, float]] = []
        for i, n in enumerate(p.sizes):
            start = read_structure(ctx.path(self.ends[2 * i]))
            end = read_structure(ctx.path(self.ends[2 * i + 1]))
            energies = (self.end_energies_ev[2 * i], self.end_energies_ev[2 * i + 1])
            path = run_neb(ctx, p.engine(), (start, end), energies, settings, f"band-{n}")
            runs.append((path.converged, path.iterations, path.max_force_ev_a))
            rows += [
                (n, k, x, e - energies[0])
                for k, (x, e) in enumerate(zip(path.coordinate_a, path.energies_ev, strict=True))
            ]
            top = int(np.argmax(path.energies_ev))
            ctx.structure(path.images[top], f"saddle-{n}.extxyz", f"climbing image, {n}³ cells")
        arr = np.array(rows)
        table = Table(
            name="vacancy_migration",
            columns=(
                Column("size", arr[:, 0].astype(int), "1", "n of the n×n×n conventional cells"),
                Column("image", arr[:, 1].astype(int), "1", "0 and the last: end points"),
                Column("coordinate", arr[:, 2], "Å", "cumulative distance along the band"),
                Column("energy", arr[:, 3], "eV", "energy relative to the initial state"),
            ),
            description=f"vacancy migration energy profiles of {p.element}",
            producer=ctx.producer,
        )
        table_path = write_table(ctx.workdir / "vacancy_migration.h5", table)
        last = arr[arr[:, 0] == p.sizes[-1]]
        plot = plot_xy(
            ctx.workdir / "migration_profile.png",
            last[:, 2],
            last[:, 3],
            xlabel="reaction coordinate (Å)",
            ylabel="E − E_initial (eV)",
            title=f"Vacancy hop in {p.element} ({p.engine_name()}), {p.sizes[-1]}³ cells",
        )
        barriers = tuple(float(arr[arr[:, 0] == n][:, 3].max()) for n in p.sizes)
        dips = tuple(float(arr[arr[:, 0] == n][:, 3].min()) for n in p.sizes)
        return MigrationReport(
            p,
            self.fit,
            barriers,
            tuple(runs),
            dips,
            (
                ctx.artifact(table_path, "table", table.description, SCHEMA_VERSION),
                ctx.artifact(plot, "plot", "energy profile along the band"),
            ),
        )


@dataclass(frozen=True)
class MigrationReport(Step):
    """The barrier per size, convergence of the band and in size, comparison."""

    params: VacancyMigrationParams
    fit: LatticeFit
    barriers_ev: tuple[float, ...]
    runs: tuple[tuple[bool, int, float], ...]
    dips_ev: tuple[float, ...]
    artifacts: tuple[ArtifactRef, ...]

    @override
    def run(self, ctx: RunContext) -> Done[ProtocolResult]:
        p = self.params
        per_cell = ATOMS_PER_CELL.get(p.resolved_lattice(), 8)
        conv = Convergence(
            "E_m per supercell",
            tuple(f"{n}³ ({per_cell * n**3 - 1} atoms)" for n in p.sizes),
            self.barriers_ev,
            p.tolerance_ev,
            "eV",
        )
        source = self.artifacts[0].path
        values = {
            QUANTITY: Quantity(self.barriers_ev[-1], "eV", source=source),
            **{
                f"{QUANTITY}_{n}": Quantity(e, "eV", source=source)
                for n, e in zip(p.sizes, self.barriers_ev, strict=True)
            },
            "lattice_constant": Quantity(self.fit.a0_a, "Å", source=self.fit.results.path),
        }
        bands = "; ".join(
            f"{n}³: {'converged' if ok else 'NOT converged'} after {steps} iterations, "
            f"max force {f:.3f} eV/Å"
            for n, (ok, steps, f) in zip(p.sizes, self.runs, strict=True)
        )
        notes = [
            f"Bands (fmax {p.fmax_ev_a:g} eV/Å): {bands}.",
            conv.note(),
            "Finite size: the hopping vacancy and its periodic images share the strain "
            "field; the barrier is the static 0 K energy difference (no zero-point or "
            "entropy terms).",
            comparison_note(p),
            p.validation_note(),
        ]
        below = [(n, d) for n, d in zip(p.sizes, self.dips_ev, strict=True) if d < -DIP_EV]
        if below:
            notes.insert(
                0,
                "An image lies below the initial state ("
                + ", ".join(f"{n}³: {d:.3f} eV" for n, d in below)
                + "): the relaxed end points are not the lowest minima of the path, and "
                "E_m is NOT a migration barrier. Relax the end points further (a larger "
                "rattle_a) or study the defect's structure first.",
            )
        ok = all(r[0] for r in self.runs) and (conv.converged or len(p.sizes) == 1) and not below
        summary = (
            f"{p.element} ({p.engine_name()}): E_m = {self.barriers_ev[-1]:.3f} eV "
            f"(climbing-image NEB, {p.sizes[-1]}³ cells"
            + ("" if ok else "; NOT converged, see notes")
            + ")"
        )
        return Done(
            report_result(
                ctx,
                title=f"Vacancy migration energy of {p.element}",
                summary=summary,
                values=values,
                method=(
                    "Lattice constant from a Birch–Murnaghan fit; nearest-neighbour vacancy "
                    f"hop in supercells of {', '.join(map(str, p.sizes))} conventional cells "
                    f"per side, end points displaced by up to {p.rattle_a:g} Å and relaxed at "
                    "fixed cell; climbing-image NEB "
                    f"(ASE ase.mep, improved tangent, {p.n_images} intermediate images, "
                    f"spring {p.spring_ev_a2:g} eV/Å², FIRE to {p.fmax_ev_a:g} eV/Å) with "
                    f"energies and forces from {p.engine().describe()}."
                ),
                artifacts=(*self.artifacts, self.fit.results, self.fit.plot),
                references=references(p, (QUANTITY,)),
                notes=notes,
            )
        )


GRAPH = Graph.build("vacancy_migration", [RelaxCrystal, Endpoints, Bands, MigrationReport])

_TRIGGER = re.compile(
    r"\bvacancy\s+(?:migration|hop(?:ping)?|diffusion)\b|\bmigration\s+(?:barrier|energy)"
)


def parse_request(text: str) -> dict[str, Any] | None:
    """Parameters from 'vacancy migration barrier of Cu with the Mishin EAM potential'."""
    raw = defect_request(
        text, _TRIGGER, "vacancy migration barrier of Cu with the Mishin EAM potential"
    )
    if raw is None:
        return None
    sizes = read_int_list(text, r"\b(?:sizes?|supercells?)\s+\d+(?:\s*(?:,|and|to)\s*\d+)*")
    if sizes:
        raw["sizes"] = sizes
    m = re.search(r"(\d+)\s+(?:intermediate\s+)?images", text)
    if m:
        raw["n_images"] = int(m.group(1))
    return raw


def start(p: VacancyMigrationParams) -> RelaxCrystal:
    """The first step."""
    return RelaxCrystal(p)


def estimate(params: Any, settings: Settings) -> Estimate:
    """Two relaxed end points per size and a band of about 100 iterations (each a batch)."""
    per_cell = ATOMS_PER_CELL.get(params.resolved_lattice(), 8)
    atoms = [per_cell * n**3 - 1 for n in params.sizes]
    band = [a * params.n_images // 20 for a in atoms for _ in range(100)]
    return defect_estimate(
        params, atoms + atoms + band, 2 * len(atoms) + 100 * len(atoms), "end points and bands"
    )


PROTOCOL = Protocol(
    name="vacancy_migration",
    title="Vacancy migration barrier by climbing-image NEB (ASE band, any energy engine)",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=VacancyMigrationParams,
    start=start,
    examples=(
        "vacancy migration barrier of Cu with the Mishin EAM potential",
        "vacancy migration energy of Al with EMT, 3 images",
    ),
    parse_request=parse_request,
    check=check_lattice_constant,
    estimate=estimate,
    prepare=crystal_inputs,
)
