"""Protocol ``viscosity``: shear viscosity of a liquid by Green–Kubo, with the Einstein
(Helfand) form as a cross-check.

pack (PACKMOL) → minimize (flexible models) → equilibration (NPT or fixed density) →
NVT production sampling the pressure tensor → Green–Kubo: autocorrelation of the
symmetric traceless pressure tensor (three off-diagonal and three diagonal terms with the
Daivis–Evans weights), its running integral and the plateau chosen by a
rule in code (:func:`simwright.analysis.green_kubo.find_plateau`: the first window of
``plateau_window_fs`` over which the integral varies by at most ``plateau_rel_tol``);
no plateau → extend production (a rule, at most ``max_extensions`` times) → Helfand
moments of the same series → report both with published values.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from pydantic import Field
from typing_extensions import override

from simwright.analysis.viscosity import green_kubo_viscosity, helfand_viscosity
from simwright.contract import SCHEMA_VERSION, Column, Table, read_table, write_table
from simwright.engines.lammps.pressure_tensor import COMPONENTS, parse_pressure_tensor
from simwright.engines.lammps.templates import PRESSURE_TENSOR_NAME
from simwright.errors import ValidationError
from simwright.graph import Done, Graph, RunContext, Step
from simwright.protocols.liquids.inputs import md_inputs
from simwright.protocols.liquids.references import VISCOSITY
from simwright.protocols.liquids.run import (
    WATER_SYSTEMS,
    LiquidRunParams,
    equilibrate_liquid,
    prepare_liquid,
    production_spec,
)
from simwright.protocols.liquids.sizing import liquid_estimate
from simwright.protocols.liquids.start_frame import closest_density_start, record_snapshots
from simwright.protocols.liquids.words import parse_liquid_request, water_model_assumed
from simwright.protocols.registry import Protocol
from simwright.reporting import plot_xy
from simwright.results import ArtifactRef, ProtocolResult, Quantity
from simwright.steps.md import produce
from simwright.steps.report import report_result


class ViscosityParams(LiquidRunParams):
    """Parameters of ``viscosity``."""

    SYSTEMS_ALLOWED: ClassVar[tuple[str, ...]] = (*WATER_SYSTEMS, "lj_argon", "nacl_melt")

    sample_interval_fs: float = Field(gt=0)
    plateau_window_fs: float = Field(gt=0)
    plateau_rel_tol: float = Field(0.10, gt=0, lt=1)
    max_lag_fraction: float = Field(0.5, gt=0, le=1)
    """Longest lag searched for the plateau, as a fraction of the production length."""
    helfand_max_lag_fraction: float = Field(0.3, gt=0, le=1)
    max_extensions: int = Field(1, ge=0, le=20)

    @classmethod
    @override
    def system_defaults(cls, system: str) -> dict[str, Any]:
        defaults = super().system_defaults(system)
        water = system in WATER_SYSTEMS
        defaults.update(
            production_ps=100.0,
            sample_interval_fs=2 * defaults["timestep_fs"],
            # the running integral of water rises slowly up to ~3–4 ps and that of LJ argon
            # up to ~2 ps; a window shorter than that tail passes the 10 % flatness test
            # while the integral still rises (1 ps / 0.5 ps windows read 8–10 % low)
            plateau_window_fs=2000.0 if water else 1000.0,
        )
        return defaults


@dataclass(frozen=True)
class Prepare(Step):
    """Pack the system and minimize it (rigid water starts from the packing)."""

    params: ViscosityParams

    @override
    def run(self, ctx: RunContext) -> Equilibrate:
        return Equilibrate(self.params, prepare_liquid(ctx, self.params))


@dataclass(frozen=True)
class Equilibrate(Step):
    """Equilibrate at the target state (NPT or fixed density); production starts from the
    NPT frame closest to the mean density (the end of a fixed-density run)."""

    params: ViscosityParams
    start: ArtifactRef

    @override
    def run(self, ctx: RunContext) -> Production:
        p = self.params
        files = equilibrate_liquid(ctx, p, self.start, snapshot_restarts=True)
        assert files.restart is not None
        start = closest_density_start(
            ctx,
            npt=p.npt,
            thermo=files.thermo,
            final=files.restart,
            candidates=record_snapshots(ctx),
            timestep_fs=p.timestep_fs,
        )
        return Production(p, start, (), (), 0)


@dataclass(frozen=True)
class Production(Step):
    """NVT production sampling the pressure tensor (a segment or an extension)."""

    params: ViscosityParams
    start: ArtifactRef
    tensors: tuple[ArtifactRef, ...]
    thermo: tuple[ArtifactRef, ...]
    extensions: int

    @override
    def run(self, ctx: RunContext) -> Analyze:
        p = self.params
        length = p.production_ps if not self.tensors else p.production_ps / 2
        spec = production_spec(p, length, pressure_tensor_every=p.every(p.sample_interval_fs))
        files = produce(ctx, spec, p.forcefield, self.start, f"NVT production {self.extensions}")
        table = parse_pressure_tensor(ctx.workdir / PRESSURE_TENSOR_NAME, p.timestep_fs)
        path = write_table(ctx.workdir / "pressure_tensor.h5", table)
        tensor = ctx.artifact(path, "table", table.description, SCHEMA_VERSION)
        assert files.restart is not None
        return Analyze(
            p, files.restart, (*self.tensors, tensor), (*self.thermo, files.thermo), self.extensions
        )


def _shear(ctx: RunContext, tensors: tuple[ArtifactRef, ...]) -> np.ndarray:
    """(n, 6) pressure tensors (bar) of all segments, repeated steps dropped."""
    rows: list[np.ndarray] = []
    last = -1
    for ref in tensors:
        table = read_table(ctx.path(ref))
        keep = table["step"] > last
        rows.append(np.column_stack([table[c][keep] for c in COMPONENTS]))
        last = int(table["step"][-1])
    return np.concatenate(rows)


@dataclass(frozen=True)
class Analyze(Step):
    """Green–Kubo with the plateau rule; extend when there is none; Helfand cross-check."""

    params: ViscosityParams
    last_restart: ArtifactRef
    tensors: tuple[ArtifactRef, ...]
    thermo: tuple[ArtifactRef, ...]
    extensions: int

    @override
    def run(self, ctx: RunContext) -> Production | Report:
        p = self.params
        shear = _shear(ctx, self.tensors)
        volume = float(read_table(ctx.path(self.thermo[0]))["volume"][0])
        interval = p.every(p.sample_interval_fs) * p.timestep_fs
        try:
            gk = green_kubo_viscosity(
                shear,
                interval,
                volume,
                p.temperature_k,
                window_fs=p.plateau_window_fs,
                rel_tol=p.plateau_rel_tol,
                max_lag_fraction=p.max_lag_fraction,
            )
        except ValidationError as exc:
            if self.extensions < p.max_extensions:
                ctx.rule("extend_no_plateau", f"{exc}; extend production")
                return Production(
                    p, self.last_restart, self.tensors, self.thermo, self.extensions + 1
                )
            raise
        hf = helfand_viscosity(
            shear, interval, volume, p.temperature_k, max_lag_fraction=p.helfand_max_lag_fraction
        )
        plateau = gk.integral.plateau
        ctx.rule(
            "green_kubo_plateau",
            f"first window of {p.plateau_window_fs:g} fs where the running integral varies by "
            f"<= {p.plateau_rel_tol:g}: "
            f"{plateau.start_fs / 1000:.2f}–{plateau.end_fs / 1000:.2f} ps",
        )
        lag = gk.integral.lag_fs
        table = Table(
            name="viscosity",
            columns=(
                Column("lag", lag, "fs", "lag time"),
                Column(
                    "acf",
                    gk.integral.acf,
                    "bar^2",
                    "shear-stress ACF (traceless pressure tensor, Daivis–Evans average)",
                ),
                Column(
                    "eta_running",
                    gk.prefactor_mpa_s * gk.integral.running_integral,
                    "mPa*s",
                    "running Green–Kubo integral V/(k_B T) ∫ ACF",
                ),
            ),
            description="Green–Kubo shear viscosity",
            producer=ctx.producer,
            attrs={
                "eta_gk_mpa_s": gk.eta_mpa_s,
                "eta_gk_err_mpa_s": gk.eta_err_mpa_s,
                "plateau_start_fs": plateau.start_fs,
                "plateau_end_fs": plateau.end_fs,
                "eta_helfand_mpa_s": hf.eta_mpa_s,
                "eta_helfand_err_mpa_s": hf.eta_err_mpa_s,
                "helfand_fit_start_fs": hf.fit_start_fs,
                "helfand_fit_end_fs": hf.fit_end_fs,
                "volume_a3": volume,
                "n_samples": int(shear.shape[0]),
            },
        )
        ref = ctx.artifact(
            write_table(ctx.workdir / "viscosity.h5", table),
            "table",
            table.description,
            SCHEMA_VERSION,
        )
        return Report(p, ref, self.thermo, self.extensions)


@dataclass(frozen=True)
class Report(Step):
    """Plot the running integral; report both estimates and the published values."""

    params: ViscosityParams
    viscosity: ArtifactRef
    thermo: tuple[ArtifactRef, ...]
    extensions: int

    @override
    def run(self, ctx: RunContext) -> Done[ProtocolResult]:
        p = self.params
        table = read_table(ctx.path(self.viscosity))
        a = table.attrs
        src = self.viscosity.path
        values = {
            "viscosity": Quantity(
                float(a["eta_gk_mpa_s"]), "mPa*s", float(a["eta_gk_err_mpa_s"]), src
            ),
            "viscosity_helfand": Quantity(
                float(a["eta_helfand_mpa_s"]), "mPa*s", float(a["eta_helfand_err_mpa_s"]), src
            ),
        }
        t0, t1 = float(a["plateau_start_fs"]) / 1000, float(a["plateau_end_fs"]) / 1000
        plot = plot_xy(
            ctx.workdir / "viscosity.png",
            table["lag"] / 1000.0,
            table["eta_running"],
            xlabel="lag time (ps)",
            ylabel="running GK integral (mPa·s)",
            title=f"{p.liquid.description}: η = {float(a['eta_gk_mpa_s']):.3f} mPa·s",
            shade=(t0, t1),
        )
        plot_ref = ctx.artifact(plot, "plot", "running Green–Kubo integral with the plateau")
        sampled = int(a["n_samples"]) * p.every(p.sample_interval_fs) * p.timestep_fs / 1000
        return Done(
            report_result(
                ctx,
                title=f"Shear viscosity of {p.liquid.description} at {p.state()}",
                summary=(
                    f"η = {values['viscosity'].value:.3f} ± {values['viscosity'].uncertainty:.3f} "
                    f"mPa·s (Green–Kubo); Helfand {values['viscosity_helfand'].value:.3f} ± "
                    f"{values['viscosity_helfand'].uncertainty:.3f} mPa·s ({p.liquid.description})"
                ),
                values=values,
                method=(
                    f"{p.n_molecules} molecules/atoms/formula units; equilibrated "
                    f"{p.equilibration_ps:g} ps, NVT production {sampled:.1f} ps sampling the "
                    f"pressure tensor every {p.sample_interval_fs:g} fs. Green–Kubo on the "
                    "symmetric traceless pressure tensor (three off-diagonal and three "
                    "diagonal terms, Daivis–Evans weights, no sample mean subtracted); plateau "
                    f"{t0:.2f}–{t1:.2f} ps by the first-flat-window rule; Helfand moments "
                    f"fitted over {float(a['helfand_fit_start_fs']) / 1000:.1f}–"
                    f"{float(a['helfand_fit_end_fs']) / 1000:.1f} ps. Force field "
                    f"{p.liquid.forcefield}: {p.forcefield.pair_style.describe()}."
                ),
                artifacts=(self.viscosity, plot_ref, *self.thermo),
                references=VISCOSITY.get(p.system, ()),
                notes=[
                    "Statistics: the uncertainty of Green–Kubo is the plateau's spread, not a "
                    "statistical error; a single run of 100 ps with a few hundred molecules "
                    "scatters by 20–30 % between seeds. Average independent runs (or run "
                    "nanoseconds) for a value to compare within 10 %.",
                    "Finite size: the shear viscosity depends only weakly on the box size "
                    "(unlike D). Production starts from the NPT frame closest to the mean "
                    "density of the equilibration's last half.",
                    f"Production extended {self.extensions} time(s).",
                ],
            )
        )


GRAPH = Graph.build("viscosity", [Prepare, Equilibrate, Production, Analyze, Report])

_TRIGGERS = ("viscosity", "shear viscosity", "viscous")


def parse_request(text: str) -> dict[str, Any] | None:
    """Parameters from e.g. 'viscosity of TIP4P/2005 water at 298 K by Green–Kubo'."""
    return parse_liquid_request(text, _TRIGGERS, ViscosityParams.SYSTEMS_ALLOWED, "viscosity")


PROTOCOL = Protocol(
    name="viscosity",
    title="Shear viscosity of a liquid (Green–Kubo with a Helfand cross-check, LAMMPS)",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=ViscosityParams,
    start=lambda params: Prepare(params),
    examples=(
        "viscosity of TIP4P/2005 water at 298 K by Green–Kubo",
        "shear viscosity of liquid argon",
    ),
    parse_request=parse_request,
    defaulted=water_model_assumed,
    estimate=liquid_estimate,
    prepare=md_inputs,
)
