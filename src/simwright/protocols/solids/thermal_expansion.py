"""Protocol ``thermal_expansion``: lattice parameter and enthalpy of a crystal against T.

A cubic supercell is run by LAMMPS with a catalogued potential ("with the Mishin EAM
potential") through an NPT temperature scan at zero pressure (isotropic Nosé–Hoover):
at each temperature fresh velocities, an equilibration, then a production whose
lattice parameter a = L/n and enthalpy per atom are block-averaged (standard errors
from block means). Each point starts from the one before. Weighted polynomial fits
give the linear thermal-expansion coefficient α(T) = (1/a) da/dT and the isobaric heat
capacity C_p = dH/dT, with errors from the fits. Classical MD: no quantum correction
is applied (below the Debye temperature experiment lies under 3R; MD does not).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import numpy as np
from pydantic import ConfigDict, Field, field_validator
from typing_extensions import override

from simwright.analysis.convergence import block_average
from simwright.analysis.thermal_expansion import expansion_plot, fit_scan, value_at
from simwright.contract import SCHEMA_VERSION, Column, Table, read_table, write_table
from simwright.engines.lammps.solid_md import Dynamics, npt_point
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
    supercell_of,
    temperatures_in,
)
from simwright.results import ArtifactRef, ProtocolResult, Quantity
from simwright.settings import Settings
from simwright.steps.md import steps_for
from simwright.steps.potential_md import md_with_potential, potential_run
from simwright.steps.report import report_result

PROPERTIES = ("thermal_expansion", "heat_capacity")


class ThermalExpansionParams(CrystalMDParams):
    """Typed parameters of ``thermal_expansion``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    temperatures_k: tuple[float, ...] = Field(
        (100.0, 200.0, 300.0, 400.0, 500.0), min_length=3, description="increasing (K)"
    )
    reference_k: float = Field(300.0, gt=0, description="where α and C_p are reported (K)")
    pressure_bar: float = 0.0
    cells: int = Field(4, ge=2, le=20, description="conventional cells along each axis")
    equilibration_ps: float = Field(5.0, gt=0)
    production_ps: float = Field(20.0, gt=0)
    n_blocks: int = Field(5, ge=2, le=50)
    sample_every: int = Field(20, ge=1, description="thermo sampling interval (steps)")

    @field_validator("temperatures_k")
    @classmethod
    def _increasing(cls, value: tuple[float, ...]) -> tuple[float, ...]:
        if any(t <= 0 for t in value) or any(b <= a for a, b in pairwise(value)):
            raise ValueError("temperatures must be positive and strictly increasing")
        return value

    def reference_temperature(self) -> float:
        """``reference_k`` when inside the scan, else the scan's middle temperature."""
        t = self.temperatures_k
        return self.reference_k if t[0] <= self.reference_k <= t[-1] else t[len(t) // 2]

    def dynamics(self) -> Dynamics:
        """Timestep, damping and seed."""
        return Dynamics(self.timestep_fs, self.seed)


@dataclass(frozen=True)
class ScanPoint(Step):
    """NPT at the ``index``-th temperature, from the previous point's restart."""

    params: ThermalExpansionParams
    index: int = 0
    restart: ArtifactRef | None = None
    thermo: tuple[ArtifactRef, ...] = ()

    @override
    def run(self, ctx: RunContext) -> ScanPoint | ExpansionReport:
        p = self.params
        t = p.temperatures_k[self.index]
        equil = steps_for(p.equilibration_ps, p.timestep_fs)
        prod = steps_for(p.production_ps, p.timestep_fs)
        body = npt_point(p.dynamics(), t, p.pressure_bar, equil, prod, p.sample_every)
        run = potential_run(p.entry(), [p.element])
        structure = supercell_of(p, (p.cells,) * 3) if self.restart is None else None
        _, files = md_with_potential(
            ctx,
            run,
            body,
            f"NPT at {t:g} K",
            structure=structure,
            restart=self.restart,
            steps=equil + prod,
        )
        thermo = (*self.thermo, files.thermo)
        if self.index + 1 < len(p.temperatures_k):
            return ScanPoint(p, self.index + 1, files.restart, thermo)
        return ExpansionReport(p, thermo)


def _production(ctx: RunContext, ref: ArtifactRef) -> dict[str, np.ndarray]:
    table = read_table(ctx.path(ref))
    last = np.asarray(table["run"]) == np.max(table["run"])
    return {k: np.asarray(table[k], float)[last] for k in ("lx", "ly", "lz", "enthalpy")}


@dataclass(frozen=True)
class ExpansionReport(Step):
    """Block averages per temperature, α(T) and C_p(T), table, plot and report."""

    params: ThermalExpansionParams
    thermo: tuple[ArtifactRef, ...]

    @override
    def run(self, ctx: RunContext) -> Done[ProtocolResult]:
        p = self.params
        n_atoms = p.atoms_per_cell() * p.cells**3
        t = np.array(p.temperatures_k)
        a, a_err, h, h_err = (np.empty(t.size) for _ in range(4))
        for i, ref in enumerate(self.thermo):
            data = _production(ctx, ref)
            lattice = (data["lx"] + data["ly"] + data["lz"]) / (3 * p.cells)
            ba, bh = (
                block_average(lattice, p.n_blocks),
                block_average(data["enthalpy"] / n_atoms, p.n_blocks),
            )
            a[i], a_err[i], h[i], h_err[i] = ba.mean, ba.sem, bh.mean, bh.sem
        fit = fit_scan(t, a, a_err, h, h_err)
        table = Table(
            name="thermal_expansion",
            columns=(
                Column("temperature", t, "K"),
                Column("lattice_parameter", a, "Å", "block mean of L/n"),
                Column("lattice_parameter_sem", a_err, "Å"),
                Column("enthalpy_per_atom", h, "eV", "block mean of H/N"),
                Column("enthalpy_per_atom_sem", h_err, "eV"),
                Column("alpha", fit.alpha_per_k, "1/K", "(1/a) da/dT from the fit"),
                Column("alpha_err", fit.alpha_err, "1/K"),
                Column("cp", fit.cp_j_mol_k, "J/(mol K)", "dH/dT from the fit"),
                Column("cp_err", fit.cp_err, "J/(mol K)"),
            ),
            description=f"NPT scan of {p.element} with {p.engine_name()}",
            producer=ctx.producer,
        )
        path = write_table(ctx.workdir / "thermal_expansion.h5", table)
        plot = expansion_plot(
            ctx.workdir / "thermal_expansion.png",
            t,
            a,
            a_err,
            h,
            h_err,
            fit,
            f"{p.element} ({p.engine_name()}), {n_atoms} atoms",
        )
        table_ref = ctx.artifact(path, "table", table.description, SCHEMA_VERSION)
        plot_ref = ctx.artifact(plot, "plot", "a(T), H(T), α(T), C_p(T)")
        return Done(self._report(ctx, fit, a, table_ref, plot_ref, n_atoms))

    def _report(
        self,
        ctx: RunContext,
        fit: Any,
        a: np.ndarray,
        table: ArtifactRef,
        plot: ArtifactRef,
        n_atoms: int,
    ) -> ProtocolResult:
        p = self.params
        tr = p.reference_temperature()
        alpha, alpha_err = value_at(fit, fit.alpha_per_k, fit.alpha_err, tr)
        cp, cp_err = value_at(fit, fit.cp_j_mol_k, fit.cp_err, tr)
        a_ref = float(np.interp(tr, fit.temperatures_k, a))
        values = {
            "thermal_expansion": Quantity(alpha, "1/K", alpha_err, table.path),
            "heat_capacity": Quantity(cp, "J/(mol K)", cp_err, table.path),
            "lattice_parameter": Quantity(a_ref, "Å", source=table.path),
        }
        summary = (
            f"{p.element} ({p.engine_name()}) at {tr:g} K: α = {alpha * 1e6:.1f} ± "
            f"{alpha_err * 1e6:.1f} ×10⁻⁶/K, C_p = {cp:.2f} ± {cp_err:.2f} J/(mol K), "
            f"a = {a_ref:.4f} Å"
        )
        temps = ", ".join(f"{x:g}" for x in p.temperatures_k)
        return report_result(
            ctx,
            title=f"Thermal expansion and heat capacity of {p.element}",
            summary=summary,
            values=values,
            method=(
                f"LAMMPS NPT (Nosé–Hoover, isotropic, {p.pressure_bar:g} bar) of a "
                f"{p.cells}×{p.cells}×{p.cells} {p.resolved_lattice()} supercell ({n_atoms} atoms) "
                f"with {p.entry().describe()} at {temps} K; each point {p.equilibration_ps:g} ps "
                f"equilibration + {p.production_ps:g} ps production ({p.timestep_fs:g} fs step), "
                f"started from the previous point; a = L/n and H/N block-averaged "
                f"({p.n_blocks} blocks); α = (1/a) da/dT and C_p = dH/dT from weighted "
                f"polynomial fits of degree {fit.degree}."
            ),
            artifacts=(table, plot, *self.thermo),
            references=thermal_references(p.element, p.engine_name(), PROPERTIES),
            notes=[
                "Classical MD: no quantum correction is applied. Below the element's Debye "
                "temperature the experimental C_p lies below the classical 3R + anharmonic "
                "value and MD overestimates α.",
                "Uncertainties are standard errors of block means propagated through the fit; "
                f"with {n_atoms} atoms and {p.production_ps:g} ps per point, C_p from dH/dT over "
                "the scan spacing is the noisier of the two.",
            ],
        )


GRAPH = Graph.build("thermal_expansion", [ScanPoint, ExpansionReport])

_TRIGGER = re.compile(r"\bthermal expansion\b|\bheat capacity\b|\bspecific heat\b")


def parse_request(text: str) -> dict[str, Any] | None:
    """Parameters from 'thermal expansion of Cu with the Mishin EAM potential from 100 K to
    500 K' (two temperatures: a five-point scan between them; three or more: the scan)."""
    raw = md_solid_request(text, _TRIGGER, "thermal expansion of Cu with the Mishin EAM potential")
    if raw is None:
        return None
    temps = temperatures_in(text)
    if len(temps) == 2:
        raw["temperatures_k"] = tuple(float(x) for x in np.linspace(min(temps), max(temps), 5))
    elif len(temps) > 2:
        raw["temperatures_k"] = tuple(sorted(temps))
    elif len(temps) == 1:
        raw["reference_k"] = temps[0]
        raw["temperatures_k"] = tuple(
            temps[0] + d for d in (-200, -100, 0, 100, 200) if temps[0] + d > 0
        )
    return raw


def estimate(params: ThermalExpansionParams, settings: Settings) -> Estimate:
    """One LAMMPS call per temperature of the scan."""
    steps = steps_for(params.equilibration_ps + params.production_ps, params.timestep_fs)
    segments = tuple(MdSegment(f"NPT {t:g} K", steps) for t in params.temperatures_k)
    return md_estimate(params, params.atoms_per_cell() * params.cells**3, segments)


def prepare(params: ThermalExpansionParams, settings: Settings) -> BuiltInputs:
    """The supercell, the potential and LAMMPS."""
    return md_inputs(params, supercell_of(params, (params.cells,) * 3), settings)


PROTOCOL = Protocol(
    name="thermal_expansion",
    title="Thermal expansion and heat capacity of a crystal by an NPT temperature scan (LAMMPS)",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=ThermalExpansionParams,
    start=lambda params: ScanPoint(params),
    examples=(
        "thermal expansion of Cu with the Mishin EAM potential",
        "heat capacity of Al with the Zhou EAM potential from 200 K to 600 K",
    ),
    parse_request=parse_request,
    engines=("lmp",),
    estimate=estimate,
    prepare=prepare,
)
