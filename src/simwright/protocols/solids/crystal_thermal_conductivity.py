"""Protocol ``crystal_thermal_conductivity``: lattice thermal conductivity by Müller-Plathe NEMD.

For each box length along z, a cubic supercell with a catalogued potential ("Si with
Stillinger–Weber") is thermalised by LAMMPS NVT at T, then run NVE while
``fix thermal/conductivity`` swaps the kinetic energy of the hottest atom of the bottom
slab with the coldest of the middle slab every few steps (slabs two atomic layers
thick). The energy moved and the slab temperatures, averaged in blocks, give the flux
and the gradient of the steady state (the first part of the production is skipped):
κ = ΔE / (2 A Δt |dT/dz|), with a standard error from the blocks. The phonon mean free
paths of a crystal exceed any box run here, so κ grows with L: 1/κ against 1/L is
extrapolated to 1/L -> 0 over the lengths run (two or more). The box is built at the
element's reference lattice constant (ASE's; Si 5.43 Å, which Stillinger–Weber and
Tersoff reproduce) unless ``a_guess_a`` is given, and kept (NVT/NVE: thermal expansion
is neglected); classical MD, no quantum correction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np
from pydantic import ConfigDict, Field, field_validator
from typing_extensions import override

from simwright.analysis.nemd import conductivity, extrapolate, nemd_plot, read_profile
from simwright.contract import SCHEMA_VERSION, Column, Table, read_table, write_table
from simwright.engines.lammps.solid_md import PROFILE_NAME, Dynamics, muller_plathe
from simwright.graph import Done, Graph, RunContext, Step
from simwright.potentials.thermal_values import thermal_references
from simwright.protocols.estimate import Estimate, MdSegment
from simwright.protocols.inputs import BuiltInputs
from simwright.protocols.registry import Protocol
from simwright.protocols.solids.md_engine import (
    CrystalMDParams,
    md_estimate,
    md_inputs,
    md_solid_request,
    one_temperature,
    supercell_of,
)
from simwright.results import ArtifactRef, ProtocolResult, Quantity
from simwright.settings import Settings
from simwright.steps.md import steps_for
from simwright.steps.potential_md import md_with_potential, potential_run
from simwright.steps.report import report_result

LAYERS_PER_CELL = {"fcc": 2, "bcc": 2, "diamond": 4}
"""Atomic layers along [001] in a conventional cell: slabs are two layers thick."""


class CrystalConductivityParams(CrystalMDParams):
    """Typed parameters of ``crystal_thermal_conductivity``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    timestep_fs: float = Field(1.0, gt=0, le=5, description="MD timestep (fs)")
    temperature_k: float = Field(300.0, gt=0)
    cross_cells: int = Field(3, ge=2, le=12, description="cells along x and y")
    lengths_cells: tuple[int, ...] = Field(
        (8, 16, 24), min_length=1, description="cells along z, one NEMD run each"
    )
    swap_every: int = Field(50, ge=1, description="steps between kinetic-energy swaps")
    equilibration_ps: float = Field(10.0, gt=0)
    production_ps: float = Field(60.0, gt=0)
    steady_after_ps: float = Field(20.0, ge=0, description="production skipped as transient")
    sample_every: int = Field(10, ge=1, description="profile sampling; blocks of 100 samples")

    @field_validator("lengths_cells")
    @classmethod
    def _lengths(cls, value: tuple[int, ...]) -> tuple[int, ...]:
        if any(n < 6 or n % 2 for n in value) or len(set(value)) != len(value):
            raise ValueError("lengths_cells: distinct even numbers of cells, each at least 6")
        return tuple(sorted(value))

    def slabs(self, cells: int) -> int:
        """Müller-Plathe slabs along z: two atomic layers each."""
        return cells * LAYERS_PER_CELL[self.resolved_lattice()] // 2

    def block_steps(self) -> int:
        """Steps per profile block."""
        return 100 * self.sample_every

    def dynamics(self) -> Dynamics:
        """Timestep, damping and seed."""
        return Dynamics(self.timestep_fs, self.seed)

    def atoms(self, cells: int) -> int:
        """Atoms in the box of ``cells`` along z."""
        return self.atoms_per_cell() * self.cross_cells**2 * cells


@dataclass(frozen=True)
class NemdRun(Step):
    """One Müller-Plathe run at the ``index``-th length; then the next, or the report."""

    params: CrystalConductivityParams
    index: int = 0
    runs: tuple[tuple[ArtifactRef, ArtifactRef], ...] = ()

    @override
    def run(self, ctx: RunContext) -> NemdRun | ConductivityReport:
        p = self.params
        cells = p.lengths_cells[self.index]
        equil = steps_for(p.equilibration_ps, p.timestep_fs)
        prod = steps_for(p.production_ps, p.timestep_fs)
        body = muller_plathe(
            p.dynamics(),
            p.temperature_k,
            equil,
            prod,
            p.swap_every,
            p.slabs(cells),
            p.sample_every,
        )
        _, files = md_with_potential(
            ctx,
            potential_run(p.entry(), [p.element]),
            body,
            f"Müller-Plathe, {cells} cells",
            structure=supercell_of(p, (p.cross_cells, p.cross_cells, cells)),
            steps=equil + prod,
        )
        profile = ctx.artifact(
            ctx.workdir / PROFILE_NAME, "profile", "slab temperatures (fix ave/chunk)"
        )
        runs = (*self.runs, (files.thermo, profile))
        if self.index + 1 < len(p.lengths_cells):
            return NemdRun(p, self.index + 1, runs)
        return ConductivityReport(p, runs)


@dataclass(frozen=True)
class ConductivityReport(Step):
    """κ per length, the 1/L extrapolation, table, plot and report."""

    params: CrystalConductivityParams
    runs: tuple[tuple[ArtifactRef, ArtifactRef], ...]

    @override
    def run(self, ctx: RunContext) -> Done[ProtocolResult]:
        p = self.params
        a = p.resolved_a()
        area = (p.cross_cells * a) ** 2
        results = []
        for cells, (thermo_ref, profile_ref) in zip(p.lengths_cells, self.runs, strict=True):
            table = read_table(ctx.path(thermo_ref))
            energy = dict(
                zip(np.asarray(table["step"]).tolist(), np.asarray(table["f_mp"]), strict=True)
            )
            profile = read_profile(ctx.path(profile_ref))
            moved = np.array([energy[int(s)] for s in profile.steps])
            skip = round(p.steady_after_ps * 1000 / p.timestep_fs / p.block_steps())
            length = cells * a
            results.append(
                (length, conductivity(profile, moved, area, length, p.timestep_fs, skip))
            )
        lengths = np.array([length for length, _ in results])
        kappa = np.array([c.kappa for _, c in results])
        errs = np.array([c.stderr for _, c in results])
        fit = extrapolate(lengths, kappa, errs) if len(results) > 1 else None
        table = Table(
            name="nemd_conductivity",
            columns=(
                Column("length", lengths, "Å"),
                Column("kappa", kappa, "W/(m K)"),
                Column("kappa_stderr", errs, "W/(m K)", "standard error of block values"),
                Column("gradient", np.array([c.gradient_k_a for _, c in results]), "K/Å"),
            ),
            description=f"Müller-Plathe κ of {p.element} with {p.engine_name()} per box length",
            producer=ctx.producer,
        )
        path = write_table(ctx.workdir / "conductivity.h5", table)
        refs = [ctx.artifact(path, "table", table.description, SCHEMA_VERSION)]
        if fit is not None:
            plot = nemd_plot(
                ctx.workdir / "conductivity.png",
                results,
                fit,
                f"{p.element} ({p.engine_name()}), {p.temperature_k:g} K",
            )
            refs.append(ctx.artifact(plot, "plot", "temperature profiles and 1/κ against 1/L"))
        return Done(self._report(ctx, results, fit, tuple(refs)))

    def _report(
        self, ctx: RunContext, results: list[Any], fit: Any, refs: tuple[ArtifactRef, ...]
    ) -> ProtocolResult:
        p = self.params
        src = refs[0].path
        longest_l, longest = results[-1]
        values = {
            "thermal_conductivity_longest_box": Quantity(
                longest.kappa, "W/(m K)", longest.stderr, src
            ),
        }
        if fit is not None and fit.kappa_inf is not None:
            values["thermal_conductivity"] = Quantity(fit.kappa_inf, "W/(m K)", fit.stderr, src)
            extrap = f"κ∞ = {fit.kappa_inf:.0f} W/(m K) (1/κ vs 1/L over {len(results)} lengths)"
        else:
            extrap = (
                "no 1/L extrapolation: one length only"
                if fit is None
                else "no 1/L extrapolation: 1/κ against 1/L has no positive intercept (the "
                "boxes are shorter than the dominant mean free paths)"
            )
        per = "; ".join(
            f"L = {length / 10:.1f} nm: {c.kappa:.1f} ± {c.stderr:.1f}" for length, c in results
        )
        summary = (
            f"{p.element} ({p.engine_name()}) at {p.temperature_k:g} K: κ = {longest.kappa:.1f} ± "
            f"{longest.stderr:.1f} W/(m K) in the longest box ({longest_l / 10:.1f} nm); {extrap}"
        )
        return report_result(
            ctx,
            title=f"Lattice thermal conductivity of {p.element}",
            summary=summary,
            values=values,
            method=(
                f"Müller-Plathe reverse NEMD with {p.entry().describe()}: "
                f"{p.cross_cells}×{p.cross_cells}×L {p.resolved_lattice()} supercells, L = "
                f"{', '.join(map(str, p.lengths_cells))} cells (a = {p.resolved_a():.4f} Å; "
                f"{', '.join(str(p.atoms(n)) for n in p.lengths_cells)} atoms), NVT "
                f"{p.equilibration_ps:g} ps at {p.temperature_k:g} K, then NVE "
                f"{p.production_ps:g} ps "
                f"with a swap every {p.swap_every} steps ({p.timestep_fs:g} fs step), slabs two "
                f"layers thick; first {p.steady_after_ps:g} ps of production skipped; blocks of "
                f"{p.block_steps()} steps."
            ),
            artifacts=(*refs, *(r for pair in self.runs for r in pair)),
            references=thermal_references(p.element, p.engine_name(), ("thermal_conductivity",)),
            notes=[
                f"κ per length (W/(m K)): {per}.",
                "Size effect: the boxes are far shorter than the phonon mean free paths "
                "(hundreds of nm in Si at 300 K), so κ(L) underestimates the bulk value; the "
                "1/L extrapolation assumes one effective mean free path; it is accurate only "
                "when the shortest box is comparable to the longest mean free paths that carry "
                "the heat, and otherwise underpredicts the bulk value (D. P. Sellan, E. S. "
                "Landry, J. E. Turney, A. J. H. McGaughey and C. H. Amon, Phys. Rev. B 81, "
                "214305 (2010): a factor 2.5 for Stillinger–Weber Si at 500 K).",
                "Classical MD (all modes equally populated); no quantum correction. "
                "Experiment includes isotope and boundary scattering absent here.",
            ],
        )


GRAPH = Graph.build("crystal_thermal_conductivity", [NemdRun, ConductivityReport])

_TRIGGER = re.compile(r"\bthermal conductivit(?:y|ies)\b")


def parse_request(text: str) -> dict[str, Any] | None:
    """Parameters from 'thermal conductivity of Si with Stillinger-Weber at 300 K'; None
    for a liquid (argon, water: the Green–Kubo protocol ``thermal_conductivity``)."""
    raw = md_solid_request(
        text, _TRIGGER, "thermal conductivity of Si with the Stillinger-Weber potential"
    )
    if raw is None:
        return None
    t = one_temperature(text)
    if t is not None:
        raw["temperature_k"] = t
    return raw


def estimate(params: CrystalConductivityParams, settings: Settings) -> Estimate:
    """One NEMD run per length (sized by the longest box)."""
    steps = steps_for(params.equilibration_ps + params.production_ps, params.timestep_fs)
    segments = tuple(MdSegment(f"NEMD {n} cells", steps) for n in params.lengths_cells)
    return md_estimate(params, params.atoms(max(params.lengths_cells)), segments)


def prepare(params: CrystalConductivityParams, settings: Settings) -> BuiltInputs:
    """The longest supercell, the potential and LAMMPS."""
    n = max(params.lengths_cells)
    return md_inputs(
        params, supercell_of(params, (params.cross_cells, params.cross_cells, n)), settings
    )


PROTOCOL = Protocol(
    name="crystal_thermal_conductivity",
    title="Lattice thermal conductivity of a crystal by Müller-Plathe NEMD (LAMMPS)",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=CrystalConductivityParams,
    start=lambda params: NemdRun(params),
    examples=(
        "thermal conductivity of Si with the Stillinger-Weber potential at 300 K",
        "lattice thermal conductivity of Si with Tersoff",
    ),
    parse_request=parse_request,
    engines=("lmp",),
    estimate=estimate,
    prepare=prepare,
)
