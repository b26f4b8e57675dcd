"""Protocol ``ionic_conductivity``: electrical conductivity of an ionic liquid or melt.

pack (PACKMOL) → minimize → equilibration (fixed density or NPT) → NVT production
storing unwrapped frames, the linear momentum zeroed → Einstein–Helfand conductivity
from the collective charge displacement M(t) = Σ q_i r_i(t) → the ions' self-diffusion
coefficients (Einstein) and the Nernst–Einstein conductivity beside it, with their
ratio → report with the measured conductivity. System: molten NaCl (Tosi–Fumi).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from pydantic import Field
from typing_extensions import override

from simwright.analysis.conductivity import (
    einstein_helfand_conductivity,
    nernst_einstein_conductivity,
)
from simwright.analysis.einstein import einstein_diffusion
from simwright.analysis.trajectory_io import read_positions
from simwright.contract import (
    SCHEMA_VERSION,
    Column,
    Table,
    read_structure,
    read_table,
    write_table,
)
from simwright.graph import Done, Graph, RunContext, Step
from simwright.protocols.liquids.inputs import md_inputs
from simwright.protocols.liquids.references import NACL_CONDUCTIVITY_1200K
from simwright.protocols.liquids.run import (
    LiquidRunParams,
    equilibrate_liquid,
    prepare_liquid,
    production_spec,
)
from simwright.protocols.liquids.sizing import liquid_estimate
from simwright.protocols.liquids.words import parse_liquid_request
from simwright.protocols.registry import Protocol
from simwright.reporting import plot_xy
from simwright.results import ArtifactRef, ProtocolResult, Quantity
from simwright.steps.md import produce
from simwright.steps.report import report_result

IONS: dict[str, tuple[str, ...]] = {"nacl_melt": ("Na", "Cl")}
"""The ionic species (elements) of each system."""


class IonicConductivityParams(LiquidRunParams):
    """Parameters of ``ionic_conductivity``."""

    SYSTEMS_ALLOWED: ClassVar[tuple[str, ...]] = tuple(IONS)

    frame_interval_fs: float = Field(20.0, gt=0)
    max_lag_fraction: float = Field(0.1, gt=0, le=1)
    """Longest lag of the charge MSD as a fraction of the run: the charge current
    decorrelates within a picosecond, while lags near the run's length have few
    independent origins, so the fit uses 20–80 % of the first tenth of the lags."""
    fit_start_fraction: float = Field(0.2, ge=0, lt=1)
    fit_end_fraction: float = Field(0.8, gt=0, le=1)

    @classmethod
    @override
    def system_defaults(cls, system: str) -> dict[str, Any]:
        defaults = super().system_defaults(system)
        defaults["production_ps"] = 100.0
        return defaults


@dataclass(frozen=True)
class Prepare(Step):
    """Pack the ions and minimize."""

    params: IonicConductivityParams

    @override
    def run(self, ctx: RunContext) -> Equilibrate:
        return Equilibrate(self.params, prepare_liquid(ctx, self.params))


@dataclass(frozen=True)
class Equilibrate(Step):
    """Equilibrate at the target state (fixed density by default)."""

    params: IonicConductivityParams
    start: ArtifactRef

    @override
    def run(self, ctx: RunContext) -> Production:
        files = equilibrate_liquid(ctx, self.params, self.start)
        assert files.restart is not None
        return Production(self.params, files.restart)


@dataclass(frozen=True)
class Production(Step):
    """NVT production storing unwrapped frames every ``frame_interval_fs``."""

    params: IonicConductivityParams
    start: ArtifactRef

    @override
    def run(self, ctx: RunContext) -> Analyze:
        p = self.params
        spec = production_spec(p, p.production_ps, dump_every=p.every(p.frame_interval_fs))
        files = produce(ctx, spec, p.forcefield, self.start, "NVT production")
        assert files.trajectory is not None and files.final_structure is not None
        return Analyze(p, files.trajectory, files.final_structure, files.thermo)


@dataclass(frozen=True)
class Analyze(Step):
    """Einstein–Helfand σ, the ions' D and the Nernst–Einstein σ."""

    params: IonicConductivityParams
    trajectory: ArtifactRef
    final: ArtifactRef
    thermo: ArtifactRef

    @override
    def run(self, ctx: RunContext) -> Report:
        p = self.params
        traj = read_positions(ctx.path(self.trajectory))
        symbols = np.array(read_structure(ctx.path(self.final)).symbols)
        charge_of = {t.element: t.charge_e for t in p.forcefield.atom_types}
        charges = np.array([charge_of[s] for s in symbols])
        volume = float(read_table(ctx.path(self.thermo))["volume"][0])
        interval_fs = traj.frame_interval_steps * traj.timestep_fs
        helfand = einstein_helfand_conductivity(
            traj.positions_a,
            charges,
            interval_fs,
            volume,
            p.temperature_k,
            max_lag_fraction=p.max_lag_fraction,
            fit_fractions=(p.fit_start_fraction, p.fit_end_fraction),
        )
        attrs: dict[str, str | int | float] = {
            "sigma_eh_s_cm": helfand.sigma_s_cm,
            "sigma_eh_err_s_cm": helfand.sigma_err_s_cm,
            "fit_start_fs": helfand.fit_start_fs,
            "fit_end_fs": helfand.fit_end_fs,
            "r2": helfand.r2,
            "volume_a3": volume,
        }
        species = []
        for element in IONS[p.system]:
            indices = np.flatnonzero(symbols == element)
            fit = einstein_diffusion(
                traj.positions_a[:, indices], traj.timestep_fs, traj.frame_interval_steps
            )
            attrs[f"d_{element}_1e5_cm2_s"] = fit.d_1e5_cm2_s
            attrs[f"d_{element}_err_1e5_cm2_s"] = fit.d_err_1e5_cm2_s
            species.append((int(indices.size), float(charge_of[element]), fit.d_a2_fs))
        attrs["sigma_ne_s_cm"] = nernst_einstein_conductivity(species, volume, p.temperature_k)
        table = Table(
            name="charge_msd",
            columns=(
                Column("lag", helfand.lag_fs, "fs", "lag time"),
                Column("msd", helfand.msd_e2_a2, "e^2*Å^2", "MSD of the total charge dipole"),
            ),
            description="collective charge displacement (Einstein–Helfand)",
            producer=ctx.producer,
            links=(f"../../{self.trajectory.path}",),
            attrs=attrs,
        )
        path = write_table(ctx.workdir / "charge_msd.h5", table)
        ref = ctx.artifact(path, "table", table.description, SCHEMA_VERSION)
        return Report(p, ref, self.thermo)


@dataclass(frozen=True)
class Report(Step):
    """Plot the charge MSD; report σ (Einstein–Helfand), σ_NE, their ratio and D."""

    params: IonicConductivityParams
    table: ArtifactRef
    thermo: ArtifactRef

    @override
    def run(self, ctx: RunContext) -> Done[ProtocolResult]:
        p = self.params
        table = read_table(ctx.path(self.table))
        a = table.attrs
        src = self.table.path
        sigma, sigma_ne = float(a["sigma_eh_s_cm"]), float(a["sigma_ne_s_cm"])
        values = {
            "conductivity": Quantity(sigma, "S/cm", float(a["sigma_eh_err_s_cm"]), src),
            "conductivity_nernst_einstein": Quantity(sigma_ne, "S/cm", source=src),
            "haven_ratio_inverse": Quantity(sigma / sigma_ne, "1", source=src),
        }
        for element in IONS[p.system]:
            values[f"diffusion_coefficient_{element}"] = Quantity(
                float(a[f"d_{element}_1e5_cm2_s"]),
                "1e-5 cm^2/s",
                float(a[f"d_{element}_err_1e5_cm2_s"]),
                src,
            )
        plot = plot_xy(
            ctx.workdir / "charge_msd.png",
            table["lag"] / 1000.0,
            table["msd"],
            xlabel="lag time (ps)",
            ylabel="⟨|ΔM|²⟩ (e²·Å²)",
            title=f"{p.liquid.description}: σ = {sigma:.2f} S/cm",
            shade=(float(a["fit_start_fs"]) / 1000, float(a["fit_end_fs"]) / 1000),
        )
        plot_ref = ctx.artifact(plot, "plot", "collective charge displacement with the fit window")
        refs = (NACL_CONDUCTIVITY_1200K,) if p.system == "nacl_melt" else ()
        return Done(
            report_result(
                ctx,
                title=f"Ionic conductivity of {p.liquid.description} at {p.state()}",
                summary=(
                    f"σ = {sigma:.2f} ± {float(a['sigma_eh_err_s_cm']):.2f} S/cm "
                    f"(Einstein–Helfand); Nernst–Einstein {sigma_ne:.2f} S/cm"
                ),
                values=values,
                method=(
                    f"{p.n_molecules} formula units, equilibrated {p.equilibration_ps:g} ps, NVT "
                    f"production {p.production_ps:g} ps, unwrapped frames every "
                    f"{p.frame_interval_fs:g} fs. σ = slope of ⟨|M(t) − M(0)|²⟩/(6 V k_B T), "
                    f"fitted over {float(a['fit_start_fs']) / 1000:.1f}–"
                    f"{float(a['fit_end_fs']) / 1000:.1f} ps; uncertainty from the spread of "
                    "the three Cartesian components. Nernst–Einstein from the ions' D "
                    "(Einstein fits, 10–67 % of the run)."
                ),
                artifacts=(self.table, plot_ref, self.thermo),
                references=refs,
                notes=[
                    "Statistics: the collective charge displacement is one sample per system; "
                    "100 ps of 216 ions gives σ to perhaps ± 20–30 %. Nernst–Einstein averages "
                    "over all ions and is far less noisy, but ignores cross-correlations.",
                    "Finite size: the ions' D carries a 1/L correction (Yeh–Hummer), which "
                    "is not applied here; σ from the collective displacement is less affected.",
                ],
            )
        )


GRAPH = Graph.build("ionic_conductivity", [Prepare, Equilibrate, Production, Analyze, Report])

_TRIGGERS = ("conductivity", "ionic conductivity", "electrical conductivity", "conductance")


def parse_request(text: str) -> dict[str, Any] | None:
    """Parameters from e.g. 'ionic conductivity of molten NaCl at 1200 K'."""
    if "thermal conductivity" in text.lower():
        return None
    allowed = IonicConductivityParams.SYSTEMS_ALLOWED
    return parse_liquid_request(text, _TRIGGERS, allowed, "ionic_conductivity")


PROTOCOL = Protocol(
    name="ionic_conductivity",
    title="Ionic conductivity (Einstein–Helfand, with Nernst–Einstein beside it, LAMMPS)",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=IonicConductivityParams,
    start=lambda params: Prepare(params),
    examples=("ionic conductivity of molten NaCl at 1200 K",),
    parse_request=parse_request,
    estimate=liquid_estimate,
    prepare=md_inputs,
)
