"""Protocol ``solid_electrolyte_diffusivity``: Li-ion diffusivity in a crystalline solid
electrolyte with a universal MLIP, by NVT MD at several temperatures (Arrhenius).

Build the cited crystal (:mod:`simwright.builders.cited`; α-Li₃N) as a supercell,
remove Li atoms to make vacancies (Li₃N conducts by vacancies in the Li₂N plane,
the Li(2) sites; a removed neutral Li leaves no charge compensation an MLIP could
represent), then at each temperature: new Maxwell–Boltzmann velocities, an NVT
equilibration and an NVT production (Bussi thermostat, ASE) with CHGNet or
SevenNet-0 on the GPU when torch sees one, else the CPU. The Li MSD is taken from
unwrapped positions with the whole system's centre-of-mass drift removed; D comes
from the Einstein relation (fit over 10–67 % of the lags, uncertainty from time
blocks); ln D against 1/T gives E_a with its standard error and D(300 K)
extrapolated with the propagated uncertainty. Plots: MSD per temperature and
the Arrhenius line. The default size (31 atoms, 2 ps per temperature) runs on two
CPU cores in minutes and is a *quick estimate with a large uncertainty*; publishable
values need larger cells and nanoseconds.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from typing_extensions import override

from simwright.analysis.arrhenius import arrhenius_plot, fit_arrhenius, msd_plot
from simwright.analysis.einstein import MIN_WINDOW_POINTS, EinsteinFit, einstein_diffusion
from simwright.analysis.transport import remove_system_drift
from simwright.builders.argyrodite import anion_exchange
from simwright.builders.cited import CITED
from simwright.contract import SCHEMA_VERSION, Column, Table, write_table
from simwright.engines.ase.calculators import CalculatorSpec
from simwright.engines.ase.ensembles import StageSpec, run_stage
from simwright.engines.ase.mlip import torch_threads
from simwright.errors import ParseError
from simwright.graph import Done, Graph, RunContext, Step
from simwright.protocols.estimate import Estimate
from simwright.protocols.inputs import BuiltInputs
from simwright.protocols.registry import Protocol
from simwright.protocols.solids.electrolyte_cells import (
    ARGYRODITE_ATOMS,
    build_cell,
    cell_description,
    citation,
    in_plane_li,  # noqa: F401 (re-exported: the Li3N vacancy sites)
    material_defaults,
)
from simwright.protocols.solids.electrolyte_refs import (
    NO_ARGYRODITE_MLIP_NOTE,
    NO_MLIP_NOTE,
    references_for,
)
from simwright.results import ArtifactRef, ProtocolResult, Quantity
from simwright.settings import Settings
from simwright.steps.report import report_result

CORE_S_PER_ATOM_STEP = {"chgnet": 0.004, "sevennet": 0.008}
"""CPU core-seconds per atom and MD step (measured: 64-atom Si, 0.2 s and 0.5 s a step)."""


class SolidDiffusivityParams(BaseModel):
    """Typed parameters of ``solid_electrolyte_diffusivity``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    material: Literal["Li3N", "Li6PS5Cl"] = Field(
        "Li3N", description="a cited crystal (builders.cited, builders.argyrodite)"
    )
    repeat: tuple[int, int, int] = Field(
        (2, 2, 2), description="supercell of the cited cell (Li6PS5Cl: 1×1×1 by default)"
    )
    li_vacancies: int = Field(
        1, ge=0, le=8, description="Li atoms removed (in-plane sites of Li3N; 0 for Li6PS5Cl)"
    )
    anion_exchange: float = Field(
        0.0, ge=0.0, le=1.0, description="Li6PS5Cl: fraction of Cl on 4a swapped with S on 4c"
    )
    temperatures_k: tuple[float, ...] = Field(
        (500.0, 650.0, 800.0), min_length=2, description="NVT temperatures (K)"
    )
    calculator: Literal["chgnet", "sevennet"] = "chgnet"
    device: str = Field("auto", description="auto: the GPU when torch sees one, else cpu")
    timestep_fs: float = Field(2.0, gt=0, le=4)
    equilibration_ps: float = Field(0.4, gt=0)
    production_ps: float = Field(2.0, gt=0)
    every: int = Field(5, ge=1, description="steps between stored frames")
    n_blocks: int = Field(4, ge=3, le=20, description="time blocks for the D uncertainty")
    extrapolate_k: float = Field(300.0, gt=0, description="temperature D is extrapolated to")
    seed: int = 1

    @model_validator(mode="before")
    @classmethod
    def _material_defaults(cls, data: Any) -> Any:
        return material_defaults(data)

    @field_validator("repeat")
    @classmethod
    def _positive(cls, value: tuple[int, int, int]) -> tuple[int, int, int]:
        if min(value) < 1:
            raise ValueError(f"a supercell repeats by positive integers, got {value}")
        return value

    @field_validator("temperatures_k")
    @classmethod
    def _distinct(cls, value: tuple[float, ...]) -> tuple[float, ...]:
        if len(set(value)) != len(value) or min(value) <= 0:
            raise ValueError("temperatures must be positive and distinct")
        return tuple(sorted(value))

    @model_validator(mode="after")
    def _enough_frames(self) -> SolidDiffusivityParams:
        frames = self.steps(self.production_ps) // self.every + 1
        per_block = frames // self.n_blocks
        lags = per_block - 1
        window = math.floor(0.67 * lags) - math.ceil(0.10 * lags) + 1
        if window < MIN_WINDOW_POINTS:
            raise ValueError(
                f"{frames} production frames in {self.n_blocks} blocks leave {window} MSD "
                f"points in each block's fit window (need {MIN_WINDOW_POINTS}): run longer, "
                "store frames more often (every) or use fewer blocks"
            )
        return self

    def steps(self, ps: float) -> int:
        """MD steps of ``ps`` picoseconds."""
        return max(1, round(ps * 1000.0 / self.timestep_fs))

    def calculator_spec(self) -> CalculatorSpec:
        """The MLIP as an ASE calculator on the resolved device."""
        # lazy: torch is imported only to look for a GPU
        from simwright.engines.ase.mlip import resolve_device

        return CalculatorSpec(self.calculator, {"device": resolve_device(self.device)})

    def atoms(self) -> int:
        """Atoms of the simulated cell."""
        per_cell = ARGYRODITE_ATOMS if self.material == "Li6PS5Cl" else len(CITED["Li3N"].build())
        return per_cell * int(np.prod(self.repeat)) - self.li_vacancies


@dataclass(frozen=True)
class Build(Step):
    """The supercell with its vacancies."""

    params: SolidDiffusivityParams

    @override
    def run(self, ctx: RunContext) -> RunTemperature:
        p = self.params
        cell = build_cell(p)
        what = f"{cell_description(p)} ({len(cell)} atoms)"
        return RunTemperature(p, ctx.structure(cell, "initial.extxyz", what), ())


@dataclass(frozen=True)
class RunTemperature(Step):
    """NVT equilibration and production at the next temperature of the list."""

    params: SolidDiffusivityParams
    initial: ArtifactRef
    frames: tuple[ArtifactRef, ...]

    @override
    def run(self, ctx: RunContext) -> RunTemperature | Analyse:
        p = self.params
        t = p.temperatures_k[len(self.frames)]
        calc = p.calculator_spec()
        seed = p.seed + len(self.frames)
        equil = StageSpec(
            "nvt",
            p.steps(p.equilibration_ps),
            p.timestep_fs,
            t,
            every=p.every,
            seed=seed,
            new_velocities=True,
        )
        folder = ctx.workdir / "equilibration"
        folder.mkdir(exist_ok=True)
        prod = StageSpec(
            "nvt", p.steps(p.production_ps), p.timestep_fs, t, every=p.every, seed=seed + 1000
        )
        allow = ctx.settings.plugins
        with torch_threads(ctx.settings.cores()):
            first, call = run_stage(ctx.path(self.initial), equil, calc, folder, allow=allow)
            ctx.engine_call(call)
            result, call = run_stage(first.state_path, prod, calc, ctx.workdir, allow=allow)
        ctx.engine_call(call)
        frames = ctx.artifact(
            result.frames_path,
            "frames",
            f"unwrapped extxyz frames, NVT {t:g} K, every {p.every} steps of {p.timestep_fs} fs; "
            f"mean T {float(result.temperature_k.mean()):.0f} K",
        )
        done = (*self.frames, frames)
        if len(done) < len(p.temperatures_k):
            return RunTemperature(p, self.initial, done)
        return Analyse(p, done)


HOP_A = 1.5
"""A Li atom that moved farther than this (Å) from its start has left its site (the
Li–Li distances of Li3N are 2.1–2.6 Å)."""


def li_diffusion(path: Path, p: SolidDiffusivityParams) -> tuple[EinsteinFit, np.ndarray, float]:
    """Einstein fit of the Li MSD of one production run (system drift removed), the MSD
    curve as (lag fs, MSD Å²) rows, and the largest Li displacement from its start (Å)."""
    # lazy: ASE's I/O loads only when frames are read
    from ase.io import read

    # lazy: the MSD needs freud (simwright[md]) only here
    from simwright.analysis.msd import mean_squared_displacement

    frames: Any = read(path, index=":", format="extxyz")
    positions = np.array([f.get_positions() for f in frames])
    positions = remove_system_drift(positions, frames[0].get_masses())
    li = [i for i, s in enumerate(frames[0].get_chemical_symbols()) if s == "Li"]
    fit = einstein_diffusion(
        positions, p.timestep_fs, p.every, atom_indices=li, n_blocks=p.n_blocks
    )
    curve = mean_squared_displacement(positions, p.timestep_fs, p.every, atom_indices=li)
    moved = float(np.max(np.linalg.norm(positions[:, li] - positions[0, li], axis=2)))
    return fit, np.column_stack([curve.lag_fs, curve.msd_a2]), moved


@dataclass(frozen=True)
class Analyse(Step):
    """D(T) with uncertainties, the Arrhenius fit, plots and the report."""

    params: SolidDiffusivityParams
    frames: tuple[ArtifactRef, ...]

    @override
    def run(self, ctx: RunContext) -> Done[ProtocolResult]:
        p = self.params
        fits, curves, moved = zip(*(li_diffusion(ctx.path(f), p) for f in self.frames), strict=True)
        temps = np.array(p.temperatures_k)
        d = np.array([f.d_1e5_cm2_s for f in fits])
        err = np.array([f.d_err_1e5_cm2_s for f in fits])
        table = Table(
            name="li_diffusion",
            columns=(
                Column("temperature", temps, "K"),
                Column("d_li", d, "1e-5 cm^2/s", "Li self-diffusion (Einstein)"),
                Column("d_li_err", err, "1e-5 cm^2/s", "std of block values"),
                Column("r2", np.array([f.r2 for f in fits]), "1", "R² of the MSD fit"),
                Column("li_max_displacement", np.array(moved), "Å", "farthest Li from its start"),
            ),
            description=f"Li diffusion in {p.material} with {p.calculator}",
            producer=ctx.producer,
        )
        source = ctx.artifact(
            write_table(ctx.workdir / "li_diffusion.h5", table),
            "table",
            table.description,
            SCHEMA_VERSION,
        )
        msds = msd_plot(
            ctx.workdir / "msd.png",
            [(c[:, 0] / 1000.0, c[:, 1], f"{t:g} K") for c, t in zip(curves, temps, strict=True)],
            ylabel="Li MSD (Å²)",
            title=f"Li MSD in {p.material} (system drift removed)",
        )
        values = {
            f"d_li_{t:g}K": Quantity(
                float(v), "1e-5 cm^2/s", uncertainty=float(e), source=source.path
            )
            for t, v, e in zip(temps, d, err, strict=True)
        }
        notes = [QUICK_NOTE, NO_MLIP_NOTE]
        if p.material == "Li6PS5Cl":
            values["anion_exchange"] = Quantity(
                anion_exchange(build_cell(p), p.repeat), "1", source=self.frames[0].path
            )
            notes[1:] = [NO_ARGYRODITE_MLIP_NOTE, ARGYRODITE_NOTE]
        still = [f"{t:g} K" for t, m in zip(temps, moved, strict=True) if m < HOP_A]
        if still:
            notes.insert(
                0,
                f"WARNING: no Li left its site at {', '.join(still)} (every Li within {HOP_A} Å "
                "of its start): D there measures vibrations, not diffusion; run longer or hotter.",
            )
        fit = None
        ok = d > 0
        if ok.sum() >= 2:
            fit = fit_arrhenius(temps[ok], d[ok], err[ok])
            d_ex, d_ex_err = fit.at(p.extrapolate_k)
            values["activation_energy"] = Quantity(
                fit.ea_ev, "eV", uncertainty=fit.ea_err_ev, source=source.path
            )
            values[f"d_li_{p.extrapolate_k:g}K_extrapolated"] = Quantity(
                d_ex, "1e-5 cm^2/s", uncertainty=d_ex_err, source=source.path
            )
        else:
            notes.insert(0, "WARNING: fewer than two temperatures gave D > 0; no Arrhenius fit.")
        plot = arrhenius_plot(
            ctx.workdir / "arrhenius.png",
            temps,
            d,
            err,
            fit,
            extrapolate_k=p.extrapolate_k,
            unit="1e-5 cm²/s",
            title=f"Li in {p.material} ({p.calculator})",
        )
        artifacts = (
            source,
            ctx.artifact(plot, "plot", "Arrhenius plot of D(Li)"),
            ctx.artifact(msds, "plot", "Li MSD at each temperature"),
            *self.frames,
        )
        return Done(
            report_result(
                ctx,
                title=f"Li diffusivity in {p.material}",
                summary=(f"WARNING: no Li hop at {', '.join(still)}. " if still else "")
                + _summary(p, d, err, values),
                values=values,
                method=_method(p),
                artifacts=artifacts,
                references=references_for(p.material, p.calculator),
                notes=notes,
            )
        )


ARGYRODITE_NOTE = (
    "Li6PS5Cl's lattice parameter and positions (Deiseroth et al. 2008) and the literature "
    "values compared with are quoted unverified; the ordered model keeps one Li of each "
    "48h pair, and anion_exchange is the measured fraction of 4c sites holding Cl."
)

QUICK_NOTE = (
    "Quick estimate: a small cell and picoseconds per temperature leave D uncertain by tens "
    "of per cent or more, E_a by ~0.1 eV, and the extrapolation to 300 K by an order of "
    "magnitude; the vacancy concentration is set by the cell, not by thermodynamics."
)


def _summary(
    p: SolidDiffusivityParams, d: np.ndarray, err: np.ndarray, values: dict[str, Quantity]
) -> str:
    text = (
        f"Li in {p.material} ({p.calculator}): D = "
        + ", ".join(f"{v:.3g} ± {e:.2g}" for v, e in zip(d, err, strict=True))
        + f" × 1e-5 cm²/s at {', '.join(f'{t:g}' for t in p.temperatures_k)} K"
    )
    ea = values.get("activation_energy")
    if ea is not None:
        ex = values[f"d_li_{p.extrapolate_k:g}K_extrapolated"]
        text += (
            f"; E_a = {ea.value:.2f} ± {ea.uncertainty or 0:.2f} eV, D({p.extrapolate_k:g} K) ≈ "
            f"{ex.value:.2g} ± {ex.uncertainty or 0:.1g} × 1e-5 cm²/s (extrapolated)"
        )
    return text + " — a quick estimate with a large uncertainty"


def _method(p: SolidDiffusivityParams) -> str:
    return (
        f"{cell_description(p)} ({citation(p.material)}; {p.atoms()} atoms). "
        "At each temperature: "
        f"{p.equilibration_ps:g} ps NVT equilibration then {p.production_ps:g} ps NVT "
        f"production, {p.timestep_fs:g} fs steps, Bussi thermostat (ASE), {p.calculator} "
        f"({p.device} device). Li MSD from unwrapped positions (frames every {p.every} "
        "steps) with the system's centre-of-mass drift removed; D = slope/6 over 10–67 % of "
        f"the lags; uncertainty the spread of {p.n_blocks} time blocks; weighted fit of ln D "
        "against 1/T for E_a, its covariance for the extrapolated D."
    )


GRAPH = Graph.build("solid_electrolyte_diffusivity", [Build, RunTemperature, Analyse])

_TRIGGER = re.compile(
    r"\b(?:li(?:thium)?(?:[- ]ion)?|li\+)\s+(?:self-)?diffusi(?:on|vity)\b.*\b(?:li3n|solid)"
    r"|\bdiffusi(?:on|vity)\b.*\b(?:in|of)\s+(?:solid\s+)?li3n\b"
    r"|\bsolid[- ]electrolyte\b.*\bdiffusi"
    r"|\bdiffusi(?:on|vity)\b.*\b(?:li6ps5cl|argyrodite)\b",
    re.IGNORECASE,
)


_TEMPERATURES = re.compile(r"\bat\s+((?:\d+(?:\.\d+)?\s*(?:k\b)?\s*(?:,|and)?\s*)+?)\s*k\b")


def parse_request(text: str) -> dict[str, Any] | None:
    """Parameters from 'Li diffusivity in Li3N with CHGNet at 500, 650 and 800 K'."""
    if not _TRIGGER.search(text):
        return None
    raw: dict[str, Any] = {}
    low = text.lower()
    if "li6ps5cl" in low or "argyrodite" in low:
        raw["material"] = "Li6PS5Cl"
    elif "li3n" in low:
        raw["material"] = "Li3N"
    else:
        raise ParseError(
            "which solid electrolyte? simwright holds Li3N and Li6PS5Cl "
            "(e.g. 'Li diffusivity in Li3N with CHGNet')"
        )
    if "sevennet" in low or "7net" in low:
        raw["calculator"] = "sevennet"
    elif "chgnet" in low:
        raw["calculator"] = "chgnet"
    m = _TEMPERATURES.search(low)
    if m:
        temps = tuple(float(t) for t in re.findall(r"\d+(?:\.\d+)?", m.group(1)))
        if len(temps) < 2:
            raise ParseError(
                f"{m.group(0)!r}: an Arrhenius fit needs at least two temperatures "
                "('at 500, 650 and 800 K')"
            )
        raw["temperatures_k"] = temps
    return raw


def estimate(params: Any, settings: Settings) -> Estimate:
    """MD steps × atoms × the MLIP's CPU cost per atom-step."""
    p: SolidDiffusivityParams = params
    steps = len(p.temperatures_k) * (p.steps(p.equilibration_ps) + p.steps(p.production_ps))
    atoms = p.atoms()
    per_step = CORE_S_PER_ATOM_STEP[p.calculator] * atoms
    longest = per_step * (p.steps(p.equilibration_ps) + p.steps(p.production_ps))
    return Estimate(
        atoms=atoms,
        md_steps=steps,
        engine_calls=2 * len(p.temperatures_k),
        output_bytes=steps // p.every * atoms * 120 + 500_000,
        core_hours=steps * per_step / 3600.0,
        longest_call_core_s=longest,
        basis=(
            f"{steps} MD steps × {per_step:.2f} core-s ({p.calculator} on a CPU, "
            f"{atoms} atoms); a GPU is faster",
        ),
    )


def prepare(params: Any, settings: Settings) -> BuiltInputs:
    """The supercell and the MLIP (its package must be installed)."""
    p: SolidDiffusivityParams = params
    cell = build_cell(p)
    spec = CalculatorSpec(p.calculator, {"device": "cpu"})
    spec.load(settings.plugins)
    return BuiltInputs(
        (f"structure: {p.material}, {len(cell)} atoms", f"calculator: {p.calculator}")
    )


def start(p: SolidDiffusivityParams) -> Build:
    """The first step."""
    return Build(p)


PROTOCOL = Protocol(
    name="solid_electrolyte_diffusivity",
    title="Li-ion diffusivity in a solid electrolyte with a universal MLIP (Arrhenius)",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=SolidDiffusivityParams,
    start=start,
    examples=("Li diffusivity in Li3N with CHGNet", "Li-ion diffusion in solid Li3N with SevenNet"),
    parse_request=parse_request,
    estimate=estimate,
    prepare=prepare,
)
