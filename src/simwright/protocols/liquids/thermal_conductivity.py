"""Protocol ``thermal_conductivity``: κ of Lennard-Jones argon by Green–Kubo.

pack (PACKMOL) at the target density → minimize → NVT equilibration → NVE production
sampling the heat current of LAMMPS ``compute heat/flux`` (per-atom kinetic and
potential energy, per-atom stress including the virial) → heat-current
autocorrelation over all time origins, its running integral and the plateau →
κ = V/(3 k_B T²) ∫⟨J(0)·J(t)⟩ dt in W/(m·K), with the running-integral plot.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import override

from simwright.analysis.green_kubo import thermal_conductivity
from simwright.contract import (
    SCHEMA_VERSION,
    Column,
    Table,
    read_table,
    write_table,
)
from simwright.engines.lammps.segment import MDSpec
from simwright.errors import ParseError
from simwright.graph import Done, Graph, RunContext, Step
from simwright.protocols.liquids import sizing
from simwright.protocols.liquids.inputs import md_inputs
from simwright.protocols.md_systems import SYSTEMS, build_liquid, forcefield_of
from simwright.protocols.registry import Protocol
from simwright.reporting import plot_xy
from simwright.results import ArtifactRef, ProtocolResult, Quantity, Reference
from simwright.steps.md import equilibrate, minimize_packed, record_segment, segment, steps_for
from simwright.steps.report import report_result
from simwright.text import has_word

ARGON_KAPPA = Reference(
    "thermal_conductivity",
    0.12,
    "W/(m K)",
    "liquid argon near 90–95 K, ≈0.12 W/(m·K): E. W. Lemmon and R. T. Jacobsen, "
    "Int. J. Thermophys. 25, 21 (2004) (reference correlation; value read to ±0.01)",
    0.01,
)


class ThermalConductivityParams(BaseModel):
    """Typed parameters of ``thermal_conductivity`` (Rahman's argon state by default)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    system: Literal["lj_argon"] = "lj_argon"
    temperature_k: float = Field(94.4, gt=0, le=2000)
    density_g_cm3: float = Field(1.374, gt=0, le=5)
    n_atoms: int = Field(500, ge=32, le=200_000)
    timestep_fs: float = Field(5.0, gt=0, le=20)
    equilibration_ps: float = Field(20.0, gt=0)
    production_ps: float = Field(500.0, gt=0)
    sample_every: int = Field(2, ge=1, description="steps between heat-current samples")
    correlation_ps: float = Field(10.0, gt=0, description="longest lag searched for a plateau")
    plateau_rel_tol: float = Field(
        0.05,
        gt=0,
        le=1,
        description="largest relative spread of the running integral "
        "over a window that counts as a plateau",
    )
    seed: int = Field(2026, ge=1, lt=2**31)


@dataclass(frozen=True)
class PackArgon(Step):
    """Pack the argon atoms at the target density."""

    params: ThermalConductivityParams

    @override
    def run(self, ctx: RunContext) -> MinimizeArgon:
        p = self.params
        ref = build_liquid(ctx, SYSTEMS[p.system], p.n_atoms, p.density_g_cm3, p.seed)
        return MinimizeArgon(p, ref)


@dataclass(frozen=True)
class MinimizeArgon(Step):
    """Remove close contacts by energy minimization."""

    params: ThermalConductivityParams
    packed: ArtifactRef

    @override
    def run(self, ctx: RunContext) -> EquilibrateNVT:
        p = self.params
        ff = forcefield_of(SYSTEMS[p.system])
        return EquilibrateNVT(p, minimize_packed(ctx, ff, self.packed, p.timestep_fs))


@dataclass(frozen=True)
class EquilibrateNVT(Step):
    """Bring the liquid to the target temperature at fixed density."""

    params: ThermalConductivityParams
    start: ArtifactRef

    @override
    def run(self, ctx: RunContext) -> SampleHeatFlux:
        p = self.params
        spec = MDSpec(
            "nvt",
            steps=steps_for(p.equilibration_ps, p.timestep_fs),
            timestep_fs=p.timestep_fs,
            temperature_k=p.temperature_k,
            create_velocities=True,
            zero_momentum=True,
            seed=p.seed,
            thermo_every=100,
        )
        files = equilibrate(ctx, spec, forcefield_of(SYSTEMS[p.system]), self.start)
        assert files.restart is not None
        return SampleHeatFlux(p, files.restart)


@dataclass(frozen=True)
class SampleHeatFlux(Step):
    """NVE production sampling the heat current (no thermostat disturbs the dynamics)."""

    params: ThermalConductivityParams
    start: ArtifactRef

    @override
    def run(self, ctx: RunContext) -> GreenKubo:
        p = self.params
        spec = MDSpec(
            "nve",
            steps=steps_for(p.production_ps, p.timestep_fs),
            timestep_fs=p.timestep_fs,
            heat_flux_every=p.sample_every,
            thermo_every=200,
            seed=p.seed,
        )
        result = segment(ctx, spec, forcefield_of(SYSTEMS[p.system]), restart=self.start)
        files = record_segment(ctx, result, "NVE production")
        assert result.heat_flux_path is not None
        flux = ctx.artifact(result.heat_flux_path, "table", "heat current J·V", SCHEMA_VERSION)
        return GreenKubo(p, flux, files.thermo)


@dataclass(frozen=True)
class GreenKubo(Step):
    """Autocorrelate the heat current, integrate it and find the plateau."""

    params: ThermalConductivityParams
    flux: ArtifactRef
    thermo: ArtifactRef

    @override
    def run(self, ctx: RunContext) -> Done[ProtocolResult]:
        p = self.params
        flux = read_table(ctx.path(self.flux))
        thermo = read_table(ctx.path(self.thermo))
        j = np.column_stack([flux["jx"], flux["jy"], flux["jz"]]) * 1000.0  # eV·Å/fs → /ps
        volume = float(np.mean(thermo["volume"]))
        temperature = float(np.mean(thermo["temperature"]))
        interval = p.sample_every * p.timestep_fs
        max_lag = min(0.5, p.correlation_ps * 1000.0 / (interval * len(j)))
        gk = thermal_conductivity(
            j,
            interval,
            volume,
            temperature,
            max_lag_fraction=max_lag,
            rel_tol=p.plateau_rel_tol,
        )
        keep = gk.lag_fs <= 2.0 * p.correlation_ps * 1000.0  # the noisy tail says nothing
        lag, acf, running = gk.lag_fs[keep], gk.acf[keep], gk.running_integral_w_mk[keep]
        table = Table(
            name="green_kubo",
            columns=(
                Column("lag", lag, "fs", "correlation lag"),
                Column("acf", acf, "(eV Å/ps)^2", "heat-current autocorrelation (of J·V)"),
                Column(
                    "kappa_running",
                    running,
                    "W/(m K)",
                    "running Green–Kubo integral",
                ),
            ),
            description="Green–Kubo heat-current autocorrelation and running integral",
            producer=ctx.producer,
            links=(f"../../{self.flux.path}",),
            attrs={
                "kappa_w_mk": gk.kappa_w_mk,
                "kappa_err_w_mk": gk.kappa_err_w_mk,
                "plateau_start_fs": gk.plateau_start_fs,
                "plateau_end_fs": gk.plateau_end_fs,
                "volume_a3": volume,
                "temperature_k": temperature,
            },
        )
        gk_ref = ctx.artifact(
            write_table(ctx.workdir / "green_kubo.h5", table),
            "table",
            table.description,
            SCHEMA_VERSION,
        )
        plot = ctx.artifact(
            plot_xy(
                ctx.workdir / "kappa.png",
                lag / 1000.0,
                running,
                xlabel="correlation time (ps)",
                ylabel="κ running integral (W/(m·K))",
                title=f"κ = {gk.kappa_w_mk:.4f} ± {gk.kappa_err_w_mk:.4f} W/(m·K)",
                shade=(gk.plateau_start_fs / 1000.0, gk.plateau_end_fs / 1000.0),
            ),
            "plot",
            "running Green–Kubo integral with the plateau window",
        )
        values = {
            "thermal_conductivity": Quantity(
                gk.kappa_w_mk, "W/(m K)", gk.kappa_err_w_mk, gk_ref.path
            ),
            "temperature_mean": Quantity(temperature, "K", source=self.thermo.path),
        }
        summary = (
            f"κ = {gk.kappa_w_mk:.4f} ± {gk.kappa_err_w_mk:.4f} W/(m·K) "
            f"(LJ argon, {temperature:.1f} K, {p.density_g_cm3:g} g/cm³)"
        )
        return Done(
            report_result(
                ctx,
                title="Thermal conductivity of LJ argon (Green–Kubo)",
                summary=summary,
                values=values,
                references=(ARGON_KAPPA,),
                artifacts=(gk_ref, plot, self.flux),
                method=(
                    f"{p.n_atoms} atoms, NVT {p.equilibration_ps:g} ps then NVE "
                    f"{p.production_ps:g} ps at {p.timestep_fs:g} fs; heat current with "
                    "per-atom KE, PE and centroid stress (virial included) every "
                    f"{p.sample_every} steps; plateau of the running integral."
                ),
                notes=(
                    "the uncertainty is the spread of the running integral over the plateau "
                    "window, not a statistical error; longer runs narrow the true scatter",
                ),
            )
        )


GRAPH = Graph.build(
    "thermal_conductivity", [PackArgon, MinimizeArgon, EquilibrateNVT, SampleHeatFlux, GreenKubo]
)


def parse_request(text: str) -> dict[str, Any] | None:
    """Parameters from phrases like 'thermal conductivity of liquid argon by Green–Kubo'."""
    low = text.lower()
    if "thermal conductivity" not in low and "green-kubo" not in low and "green–kubo" not in low:
        return None
    if "thermal conductivity" not in low and ("viscosity" in low or "viscous" in low):
        return None  # Green–Kubo of the stress: the viscosity protocol's
    if not has_word(text, "argon", "ar", "lennard-jones", "lj"):
        raise ParseError(
            "thermal_conductivity supports Lennard-Jones argon only "
            "(e.g. 'thermal conductivity of liquid argon by Green–Kubo')"
        )
    raw: dict[str, Any] = {"system": "lj_argon"}
    temps = re.findall(r"(\d+(?:\.\d+)?)\s*K\b", text)
    if len(set(temps)) > 1:
        raise ParseError(f"the request names several temperatures ({', '.join(temps)} K)")
    if temps:
        raw["temperature_k"] = float(temps[0])
    return raw


PROTOCOL = Protocol(
    name="thermal_conductivity",
    title="Thermal conductivity of Lennard-Jones argon by Green–Kubo (LAMMPS)",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=ThermalConductivityParams,
    start=lambda params: PackArgon(params),
    examples=("thermal conductivity of liquid argon by Green–Kubo",),
    parse_request=parse_request,
    engines=("packmol", "lmp"),
    estimate=sizing.thermal_conductivity_estimate,
    prepare=md_inputs,
)
