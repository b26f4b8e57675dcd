"""Protocol ``diffusivity``: self-diffusion coefficient of a liquid by the Einstein relation.

pack (PACKMOL) → minimize → equilibrate (NPT, or NVT at a fixed density) → choose the
equilibration frame whose density is closest to the mean of the last window →
NVT production with the linear momentum zeroed → MSD over all time origins and a
linear fit over 10–67 % of the trajectory → if R² is below the threshold, extend the
production (a rule, at most ``max_extensions`` times) → report D with its uncertainty,
the fit plot and the MSD table. Systems: SPC/E, TIP3P and TIP4P/2005 water and
Lennard-Jones argon.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, model_validator
from typing_extensions import override

from simwright.analysis.einstein import einstein_diffusion, yeh_hummer_correction
from simwright.analysis.msd import mean_squared_displacement
from simwright.analysis.trajectory_io import AtomSelection, read_positions
from simwright.contract import (
    SCHEMA_VERSION,
    Column,
    Table,
    read_structure,
    write_table,
)
from simwright.engines.lammps.segment import MDSpec
from simwright.errors import ParseError
from simwright.graph import Done, Graph, RunContext, Step
from simwright.protocols.liquids import diffusivity_report as report
from simwright.protocols.liquids import sizing
from simwright.protocols.liquids.inputs import md_inputs
from simwright.protocols.liquids.start_frame import (
    closest_density_start,
    record_snapshots,
    snapshot_every,
)
from simwright.protocols.liquids.words import water_model, water_model_assumed
from simwright.protocols.md_systems import MIN_FRAMES, SYSTEMS, build_liquid, forcefield_of
from simwright.protocols.registry import Protocol
from simwright.results import ArtifactRef, ProtocolResult
from simwright.steps.md import (
    minimize_packed,
    produce,
    record_segment,
    segment,
    steps_for,
)
from simwright.text import has_word

System = Literal["spce_water", "tip3p_water", "tip4p2005_water", "lj_argon"]

DEFAULTS: dict[str, dict[str, Any]] = {
    # SPC/E water at ambient conditions: NPT at 1 atm, 216 molecules (a small but
    # honest box, L ≈ 18.6 Å), 2 fs with SHAKE.
    "spce_water": {
        "temperature_k": 298.15,
        "pressure_bar": 1.01325,
        "n_molecules": 216,
        "timestep_fs": 2.0,
        "equilibration_ps": 20.0,
        "production_ps": 100.0,
        "dump_interval_fs": 200.0,
        "pack_density_g_cm3": 1.0,
    },
    # Rahman's liquid argon state point (Phys. Rev. 136, A405 (1964)): 94.4 K at
    # 1.374 g/cm³, run at that fixed density (NVT), 10 fs was his timestep; 5 fs here.
    "lj_argon": {
        "temperature_k": 94.4,
        "density_g_cm3": 1.374,
        "n_molecules": 500,
        "timestep_fs": 5.0,
        "equilibration_ps": 20.0,
        "production_ps": 100.0,
        "dump_interval_fs": 100.0,
    },
}
# TIP3P and TIP4P/2005 water: the same state, size and lengths as SPC/E
DEFAULTS["tip3p_water"] = dict(DEFAULTS["spce_water"])
DEFAULTS["tip4p2005_water"] = dict(DEFAULTS["spce_water"])


class DiffusivityParams(BaseModel):
    """Typed parameters of ``diffusivity``; omitted values take the system's defaults.

    Give ``pressure_bar`` for NPT equilibration, or ``density_g_cm3`` for a run at a
    fixed density, not both.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    system: System = "spce_water"
    temperature_k: float = Field(gt=0, le=5000)
    pressure_bar: float | None = Field(None, gt=0, le=1e5)
    density_g_cm3: float | None = Field(None, gt=0, le=30)
    n_molecules: int = Field(ge=2, le=200_000)
    timestep_fs: float = Field(gt=0, le=20)
    equilibration_ps: float = Field(gt=0, le=1e5)
    production_ps: float = Field(gt=0, le=1e6)
    dump_interval_fs: float = Field(gt=0)
    pack_density_g_cm3: float | None = Field(None, gt=0, le=30)
    r2_min: float = Field(0.97, gt=0, le=1)
    max_extensions: int = Field(2, ge=0, le=20)
    extension_ps: float | None = Field(None, gt=0)
    seed: int = Field(2026, ge=1, lt=2**31)

    @model_validator(mode="before")
    @classmethod
    def _system_defaults(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        system = data.get("system", "spce_water")
        defaults = dict(DEFAULTS.get(system, {}))
        if "density_g_cm3" in data and "pressure_bar" not in data:
            defaults.pop("pressure_bar", None)
        if "pressure_bar" in data and "density_g_cm3" not in data:
            defaults.pop("density_g_cm3", None)
        return {**defaults, **data}

    @model_validator(mode="after")
    def _one_ensemble(self) -> DiffusivityParams:
        if (self.pressure_bar is None) == (self.density_g_cm3 is None):
            raise ValueError("give either pressure_bar (NPT) or density_g_cm3 (fixed density)")
        if self.dump_interval_fs < self.timestep_fs:
            raise ValueError("dump_interval_fs must be at least one timestep")
        return self

    @property
    def npt(self) -> bool:
        """True when equilibration runs at constant pressure."""
        return self.pressure_bar is not None

    def every(self, interval_fs: float) -> int:
        """Steps between two outputs spaced ``interval_fs``."""
        return max(1, round(interval_fs / self.timestep_fs))


@dataclass(frozen=True)
class Pack(Step):
    """Pack the molecules into a periodic box with PACKMOL."""

    params: DiffusivityParams

    @override
    def run(self, ctx: RunContext) -> Minimize:
        p = self.params
        density = p.density_g_cm3 or p.pack_density_g_cm3 or 1.0
        ref = build_liquid(ctx, SYSTEMS[p.system], p.n_molecules, density, p.seed)
        return Minimize(p, ref)


@dataclass(frozen=True)
class Minimize(Step):
    """Relax the packed structure by energy minimization (flexible models only)."""

    params: DiffusivityParams
    packed: ArtifactRef

    @override
    def run(self, ctx: RunContext) -> Equilibrate:
        p = self.params
        ff = forcefield_of(SYSTEMS[p.system])
        if ff.rigid:
            # LAMMPS replaces SHAKE by stiff restraints while minimizing, which makes
            # conjugate gradients crawl; PACKMOL's 2 Å tolerance already leaves no
            # overlaps between rigid molecules, so dynamics can start from the packing.
            ctx.rule(
                "rigid_molecules_skip_minimization",
                f"{ff.name} is rigid (SHAKE); start dynamics from the PACKMOL structure",
            )
            return Equilibrate(p, self.packed)
        return Equilibrate(p, minimize_packed(ctx, ff, self.packed, p.timestep_fs))


@dataclass(frozen=True)
class Equilibrate(Step):
    """Equilibrate at the target temperature (NPT, or NVT at a fixed density).

    ``start`` is a minimized restart, or the packed structure for rigid models.
    """

    params: DiffusivityParams
    start: ArtifactRef

    @override
    def run(self, ctx: RunContext) -> SelectFrame:
        p = self.params
        steps = steps_for(p.equilibration_ps, p.timestep_fs)
        spec = MDSpec(
            "npt" if p.npt else "nvt",
            steps=steps,
            timestep_fs=p.timestep_fs,
            temperature_k=p.temperature_k,
            pressure_bar=p.pressure_bar,
            thermo_every=p.every(100.0),
            seed=p.seed,
            create_velocities=True,
            zero_momentum=True,
            restart_every=snapshot_every(steps) if p.npt else 0,
        )
        ff = forcefield_of(SYSTEMS[p.system])
        if self.start.kind == "structure":
            result = segment(ctx, spec, ff, structure=read_structure(ctx.path(self.start)))
        else:
            result = segment(ctx, spec, ff, restart=self.start)
        files = record_segment(ctx, result, f"{spec.ensemble} equilibration")
        snaps = record_snapshots(ctx)
        assert files.restart is not None
        return SelectFrame(p, files.thermo, files.restart, snaps)


@dataclass(frozen=True)
class SelectFrame(Step):
    """Choose the state production starts from (closest to the mean density)."""

    params: DiffusivityParams
    thermo: ArtifactRef
    final: ArtifactRef
    snapshots: tuple[ArtifactRef, ...]

    @override
    def run(self, ctx: RunContext) -> Production:
        p = self.params
        start = closest_density_start(
            ctx,
            npt=p.npt,
            thermo=self.thermo,
            final=self.final,
            candidates=self.snapshots,
            timestep_fs=p.timestep_fs,
        )
        return Production(p, start, (), 0)


@dataclass(frozen=True)
class Production(Step):
    """NVT production with the linear momentum zeroed (one segment or an extension)."""

    params: DiffusivityParams
    start: ArtifactRef
    segments: tuple[ArtifactRef, ...]
    extensions: int

    @override
    def run(self, ctx: RunContext) -> AnalyzeMSD:
        p = self.params
        length = p.production_ps if not self.segments else (p.extension_ps or p.production_ps / 2)
        spec = MDSpec(
            "nvt",
            steps=steps_for(length, p.timestep_fs),
            timestep_fs=p.timestep_fs,
            temperature_k=p.temperature_k,
            thermo_every=p.every(100.0),
            dump_every=p.every(min(p.dump_interval_fs, length * 1000.0 / MIN_FRAMES)),
            seed=p.seed,
            zero_momentum=True,
        )
        what = f"NVT production segment {len(self.segments) + 1}"
        files = produce(ctx, spec, forcefield_of(SYSTEMS[p.system]), self.start, what)
        assert files.trajectory is not None and files.restart is not None
        return AnalyzeMSD(
            p, (*self.segments, files.trajectory), files.restart, files.thermo, self.extensions
        )


@dataclass(frozen=True)
class AnalyzeMSD(Step):
    """MSD over all time origins and the Einstein fit; extend production if R² is low."""

    params: DiffusivityParams
    segments: tuple[ArtifactRef, ...]
    last_restart: ArtifactRef
    last_thermo: ArtifactRef
    extensions: int

    @override
    def run(self, ctx: RunContext) -> Production | Report:
        p = self.params
        system = SYSTEMS[p.system]
        data = [
            read_positions(ctx.path(s), AtomSelection(elements=(system.tracer_element,)))
            for s in self.segments
        ]
        positions = np.concatenate([d.positions_a for d in data], axis=0)
        interval = data[0].frame_interval_steps
        fit = einstein_diffusion(positions, p.timestep_fs, interval)
        curve = mean_squared_displacement(positions, p.timestep_fs, interval)
        table = Table(
            name="msd",
            columns=(
                Column("lag", curve.lag_fs, "fs", "lag time"),
                Column(
                    "msd",
                    curve.msd_a2,
                    "Å^2",
                    f"MSD of {system.tracer_element} atoms, averaged over all time origins",
                ),
            ),
            description=f"mean squared displacement of {system.description}",
            producer=ctx.producer,
            links=tuple(f"../../{s.path}" for s in self.segments),
            attrs={
                "d_1e5_cm2_s": fit.d_1e5_cm2_s,
                "d_err_1e5_cm2_s": fit.d_err_1e5_cm2_s,
                "r2": fit.r2,
                "slope_a2_fs": fit.slope,
                "intercept_a2": fit.intercept,
                "fit_start_fs": fit.fit_start_fs,
                "fit_end_fs": fit.fit_end_fs,
                "n_blocks": fit.n_blocks,
                "n_tracers": curve.n_atoms,
            },
        )
        msd = ctx.artifact(
            write_table(ctx.workdir / "msd.h5", table), "table", table.description, SCHEMA_VERSION
        )
        if fit.r2 < p.r2_min and self.extensions < p.max_extensions:
            ctx.rule(
                "extend_low_r2",
                f"R² = {fit.r2:.4f} < {p.r2_min}: extend production "
                f"({self.extensions + 1}/{p.max_extensions})",
            )
            return Production(p, self.last_restart, self.segments, self.extensions + 1)
        if fit.r2 < p.r2_min:
            ctx.rule(
                "max_extensions_reached",
                f"R² = {fit.r2:.4f} < {p.r2_min} after "
                f"{self.extensions} extensions: report with a warning",
            )
        else:
            ctx.rule("accept_r2", f"R² = {fit.r2:.4f} ≥ {p.r2_min}")
        return Report(p, msd, self.last_thermo, self.extensions)


@dataclass(frozen=True)
class Report(Step):
    """Write the MSD plot and the report; return D with its uncertainty."""

    params: DiffusivityParams
    msd: ArtifactRef
    thermo: ArtifactRef
    extensions: int

    @override
    def run(self, ctx: RunContext) -> Done[ProtocolResult]:
        return Done(
            report.build(
                ctx, self.params, self.msd, self.thermo, self.extensions, yeh_hummer_correction
            )
        )


GRAPH = Graph.build(
    "diffusivity", [Pack, Minimize, Equilibrate, SelectFrame, Production, AnalyzeMSD, Report]
)

_TRIGGERS = ("diffusion", "diffusivity", "diffusion coefficient", "msd", "mean squared")


def parse_request(text: str) -> dict[str, Any] | None:
    """Parameters from phrases like 'self-diffusion coefficient of SPC/E water at 298 K'."""
    low = text.lower()
    if not any(t in low for t in _TRIGGERS):
        return None
    water = water_model(text)  # refuses a water model simwright does not have, by name
    if water is not None:
        system = water
    elif has_word(text, "argon", "ar", "lennard-jones", "lj"):
        system = "lj_argon"
    else:
        return None
    raw: dict[str, Any] = {"system": system}
    raw.update(_quantities(text))
    return raw


def _quantities(text: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    temps = re.findall(r"(-?\d+(?:\.\d+)?)\s*K\b", text)
    if len(set(temps)) > 1:
        raise ParseError(f"the request names several temperatures ({', '.join(temps)} K)")
    if temps:
        out["temperature_k"] = float(temps[0])
    celsius = re.findall(r"(-?\d+(?:\.\d+)?)\s*°?\s*C\b", text)
    if celsius:
        if temps:
            raise ParseError("the request gives the temperature twice (K and °C)")
        out["temperature_k"] = float(celsius[0]) + 273.15
    n = re.search(r"(\d+)\s+(?:molecules|atoms)", text)
    if n:
        out["n_molecules"] = int(n.group(1))
    return out


PROTOCOL = Protocol(
    name="diffusivity",
    title="Self-diffusion coefficient of a liquid (Einstein relation, LAMMPS)",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=DiffusivityParams,
    start=lambda params: Pack(params),
    examples=(
        "self-diffusion coefficient of SPC/E water at 298 K",
        "self-diffusion of TIP4P/2005 water at 298 K",
        "diffusion coefficient of liquid argon at 94.4 K",
    ),
    parse_request=parse_request,
    defaulted=water_model_assumed,
    engines=("packmol", "lmp"),
    estimate=sizing.diffusivity_estimate,
    prepare=md_inputs,
)
