"""Protocol ``electrolyte_diffusivity``: Li⁺ self-diffusion in a LiPF₆ carbonate electrolyte.

The procedure of the knowledge module ``li_ion_diffusivity_carbonate_electrolytes``:
composition closest to the molality (and solvent ratio) in an atom window → PACKMOL
in a cubic box 1.1·V₀^(1/3) from Bondi volumes, 2 Å tolerance, 3 Å between Li⁺ →
FIRE relaxation until the largest force is below ``fmax_ev_a`` → NPT with tritium
masses on H at 2 fs → NPT with normal masses at 1 fs and a density convergence check
→ the frame of the last half whose density is closest to its mean → NVT production
(Bussi) → MSD of Li⁺, PF₆⁻ and each solvent (molecular centres) with the whole
system's centre-of-mass drift removed → Einstein fit over 10–67 % with block errors,
extension by a rule when R² is low → Yeh–Hummer correction, Nernst–Einstein
conductivity and transference number. Potential: SevenNet-0 + D3(BJ) through ASE
(the GPU when present), or CHGNet; or, chosen in words ("with OPLS-AA", "classical
force field"), the classical route of :mod:`.classical`: OPLS-AA run by LAMMPS with
PPPM after the same packing step.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from ase.data import atomic_masses
from typing_extensions import override

from simwright.analysis.density import closest_frame_to_mean
from simwright.contract import SCHEMA_VERSION, Column, Table, read_table, write_table
from simwright.engines.ase.ensembles import TRITIUM_MASS_AMU, StageSpec, relax_positions, run_stage
from simwright.engines.packmol import PackSpec, pack
from simwright.errors import EngineError
from simwright.graph import Done, Graph, RunContext, Step
from simwright.protocols.electrolytes import report as report
from simwright.protocols.electrolytes.classical import (
    LammpsAnalyze,
    LammpsHeavyNPT,
    LammpsMinimize,
    LammpsNormalNPT,
    LammpsProduction,
    LammpsReport,
    LammpsSelectFrame,
)
from simwright.protocols.electrolytes.msd import analyse_or_extend
from simwright.protocols.electrolytes.params import (
    HEAVY_TIMESTEP_FS,
    LI_RADIUS_A,
    NORMAL_TIMESTEP_FS,
    ElectrolyteParams,
    calculator,
    composition,
)
from simwright.protocols.electrolytes.sizing import electrolyte_estimate, electrolyte_inputs
from simwright.protocols.electrolytes.words import parse_request
from simwright.protocols.liquids.start_frame import density_converged
from simwright.protocols.registry import Protocol
from simwright.results import ArtifactRef, ProtocolResult


@dataclass(frozen=True)
class Pack(Step):
    """Choose the counts and pack them with PACKMOL."""

    params: ElectrolyteParams

    @override
    def run(self, ctx: RunContext) -> Relax | LammpsMinimize:
        p = self.params
        comp = composition(p)
        spec = PackSpec(
            comp.components,
            tolerance_a=2.0,
            seed=p.seed,
            vdw_box_factor=p.box_factor,
            radii_a=(("li+", LI_RADIUS_A),),
        )
        result = pack(
            spec, ctx.workdir, timeout_s=ctx.settings.limits.engine_timeout_s, runner=ctx.jobs
        )
        ctx.engine_call(result.call)
        ref = ctx.structure(result.structure, "packed.extxyz", comp.describe())
        ctx.rule(
            "closest_molality_in_window",
            f"{comp.describe()} in a {result.box_a:.2f} Å box ({p.box_factor:g}·V₀^(1/3)); target "
            f"{comp.target_molality_mol_kg:.3f} mol/kg, window {p.n_atoms_min}–{p.n_atoms_max}",
        )
        return LammpsMinimize(p, ref) if p.classical else Relax(p, ref)


@dataclass(frozen=True)
class Relax(Step):
    """Remove packing clashes: FIRE until the largest force is below ``fmax_ev_a``."""

    params: ElectrolyteParams
    packed: ArtifactRef

    @override
    def run(self, ctx: RunContext) -> HeavyNPT:
        p = self.params
        ctx.progress(None, f"relaxing to fmax {p.fmax_ev_a} eV/Å")
        path, fmax, steps, call = relax_positions(
            ctx.path(self.packed),
            calculator(p),
            ctx.workdir,
            fmax_ev_a=p.fmax_ev_a,
            max_steps=p.relax_max_steps,
        )
        ctx.engine_call(call)
        if fmax >= p.fmax_ev_a:
            raise EngineError(
                f"the packed box still has a force of {fmax:.2f} eV/Å after {steps} FIRE "
                f"steps (threshold {p.fmax_ev_a}); raise relax_max_steps"
            )
        ref = ctx.artifact(path, "structure", f"relaxed box, fmax {fmax:.3f} eV/Å")
        ctx.rule("prerelaxed", f"largest force {fmax:.3f} < {p.fmax_ev_a} eV/Å after {steps} steps")
        return HeavyNPT(p, ref)


def _stage(
    ctx: RunContext, p: ElectrolyteParams, start: ArtifactRef, spec: StageSpec, what: str
) -> tuple[ArtifactRef, ArtifactRef, ArtifactRef]:
    """Run one ASE stage and record its thermo table, frames and final state."""
    ctx.progress(None, f"{what}: {spec.steps} steps")
    result, call = run_stage(ctx.path(start), spec, calculator(p), ctx.workdir)
    ctx.engine_call(call)
    table = Table(
        name="thermo",
        columns=(
            Column("time", result.time_fs, "fs", "time since the stage began"),
            Column("potential_energy", result.potential_ev, "eV", "potential energy"),
            Column("temperature", result.temperature_k, "K", "kinetic temperature"),
            Column("density", result.density_g_cm3, "g/cm^3", "density with normal masses"),
            Column("volume", result.volume_a3, "Å^3", "box volume"),
        ),
        description=f"thermo of {what}",
        producer=ctx.producer,
        attrs={"timestep_fs": spec.timestep_fs, "every": spec.every},
    )
    thermo = ctx.artifact(
        write_table(ctx.workdir / "thermo.h5", table), "table", table.description, SCHEMA_VERSION
    )
    frames = ctx.artifact(result.frames_path, "frames", f"unwrapped extxyz frames of {what}")
    state = ctx.artifact(result.state_path, "structure", f"state after {what} (with momenta)")
    return thermo, frames, state


@dataclass(frozen=True)
class HeavyNPT(Step):
    """NPT with the tritium mass on hydrogen at 2 fs (Berendsen)."""

    params: ElectrolyteParams
    start: ArtifactRef

    @override
    def run(self, ctx: RunContext) -> NormalNPT:
        p = self.params
        steps = p.steps(p.heavy_npt_ns, HEAVY_TIMESTEP_FS)
        spec = StageSpec(
            "npt",
            steps,
            HEAVY_TIMESTEP_FS,
            p.temperature_k,
            p.pressure_bar,
            every=max(1, steps // 50),
            seed=p.seed,
            hydrogen_mass_amu=TRITIUM_MASS_AMU,
            new_velocities=True,
        )
        _, _, state = _stage(ctx, p, self.start, spec, "heavy-hydrogen NPT")
        ctx.rule("heavy_hydrogen_npt", f"{steps} steps of 2 fs with m(H) = {TRITIUM_MASS_AMU} u")
        return NormalNPT(p, state)


@dataclass(frozen=True)
class NormalNPT(Step):
    """NPT with normal masses at 1 fs; velocities redrawn since the masses changed."""

    params: ElectrolyteParams
    start: ArtifactRef

    @override
    def run(self, ctx: RunContext) -> SelectFrame:
        p = self.params
        steps = p.steps(p.npt_ns, NORMAL_TIMESTEP_FS)
        spec = StageSpec(
            "npt",
            steps,
            NORMAL_TIMESTEP_FS,
            p.temperature_k,
            p.pressure_bar,
            every=max(1, steps // 100),
            seed=p.seed + 1,
            new_velocities=True,
        )
        thermo, frames, _ = _stage(ctx, p, self.start, spec, "normal-mass NPT")
        ctx.rule("normal_mass_npt", f"{steps} steps of 1 fs, velocities redrawn")
        return SelectFrame(p, thermo, frames)


@dataclass(frozen=True)
class SelectFrame(Step):
    """Check the density converged; start NVT from the frame closest to the mean density."""

    params: ElectrolyteParams
    thermo: ArtifactRef
    frames: ArtifactRef

    @override
    def run(self, ctx: RunContext) -> Production:
        # lazy: ASE's I/O loads only when frames are read
        from ase.io import read, write

        p = self.params
        thermo = read_table(ctx.path(self.thermo))
        times, density = thermo["time"], thermo["density"]
        pick = closest_frame_to_mean(
            times, density, candidate_times_fs=times, last_window_fraction=0.5
        )
        drift, converged = density_converged(
            ctx, density, pick.window_mean_g_cm3, p.density_tolerance
        )
        atoms = read(ctx.path(self.frames), index=pick.index, format="extxyz")
        path = ctx.workdir / "nvt_start.extxyz"
        write(path, atoms, format="extxyz")
        start = ctx.artifact(path, "structure", f"NVT start, {pick.density_g_cm3:.4f} g/cm³")
        ctx.rule(
            "closest_density_frame",
            f"frame at {pick.time_fs / 1000:.3f} ps: {pick.density_g_cm3:.4f} g/cm³, last-half "
            f"mean {pick.window_mean_g_cm3:.4f} ± {pick.window_std_g_cm3:.4f}; density drift "
            f"between its quarters {drift:.2%} ({'≤' if converged else '>'} "
            f"{p.density_tolerance:.0%})",
        )
        return Production(p, start, (), 0, converged)


@dataclass(frozen=True)
class Production(Step):
    """NVT production at 1 fs (Bussi thermostat), or an extension of it."""

    params: ElectrolyteParams
    start: ArtifactRef
    segments: tuple[ArtifactRef, ...]
    extensions: int
    density_converged: bool

    @override
    def run(self, ctx: RunContext) -> Analyze:
        p = self.params
        ns = p.nvt_ns if not self.segments else p.extension_ns
        steps = p.steps(ns, NORMAL_TIMESTEP_FS)
        every = max(1, round(p.frame_interval_fs / NORMAL_TIMESTEP_FS))
        spec = StageSpec(
            "nvt",
            steps,
            NORMAL_TIMESTEP_FS,
            p.temperature_k,
            every=every,
            seed=p.seed + 2 + len(self.segments),
        )
        what = f"NVT production segment {len(self.segments) + 1}"
        thermo, frames, state = _stage(ctx, p, self.start, spec, what)
        ctx.rule("nvt_production", f"{steps} steps of 1 fs, a frame every {every} steps")
        return Analyze(
            p, (*self.segments, frames), state, thermo, self.extensions, self.density_converged
        )


@dataclass(frozen=True)
class Analyze(Step):
    """MSDs with the system's drift removed, Einstein fits; extend if Li⁺ R² is low."""

    params: ElectrolyteParams
    segments: tuple[ArtifactRef, ...]
    last_state: ArtifactRef
    last_thermo: ArtifactRef
    extensions: int
    density_converged: bool

    @override
    def run(self, ctx: RunContext) -> Production | Report:
        p = self.params
        comp = composition(p)
        positions, masses = _read_frames([ctx.path(s) for s in self.segments])
        msd, extend = analyse_or_extend(
            ctx,
            p,
            comp,
            positions,
            masses,
            segments=tuple(s.path for s in self.segments),
            extensions=self.extensions,
        )
        if extend:
            return Production(
                p, self.last_state, self.segments, self.extensions + 1, self.density_converged
            )
        return Report(p, msd, self.last_thermo, self.extensions, self.density_converged)


def _read_frames(paths: list[Path]) -> tuple[np.ndarray, np.ndarray]:
    """Positions (n_frames, n_atoms, 3) of consecutive segments and the atomic masses.

    Each segment's first frame repeats the previous segment's last state and is dropped.
    """
    # lazy: ASE's I/O loads only when frames are read
    from ase.io import read

    blocks = []
    numbers = None
    for k, path in enumerate(paths):
        frames: Any = read(path, index=":", format="extxyz")
        numbers = frames[0].numbers
        blocks.append(np.array([f.get_positions() for f in frames[(1 if k else 0) :]]))
    assert numbers is not None
    return np.concatenate(blocks), np.asarray(atomic_masses[numbers], dtype=float)


@dataclass(frozen=True)
class Report(Step):
    """Yeh–Hummer correction, Nernst–Einstein conductivity, plot and report."""

    params: ElectrolyteParams
    msd: ArtifactRef
    thermo: ArtifactRef
    extensions: int
    density_converged: bool

    @override
    def run(self, ctx: RunContext) -> Done[ProtocolResult]:
        p = self.params
        return Done(
            report.build(
                ctx,
                p,
                composition(p),
                self.msd,
                self.thermo,
                self.extensions,
                self.density_converged,
            )
        )


GRAPH = Graph.build(
    "electrolyte_diffusivity",
    [
        Pack,
        Relax,
        HeavyNPT,
        NormalNPT,
        SelectFrame,
        Production,
        Analyze,
        Report,
        LammpsMinimize,
        LammpsHeavyNPT,
        LammpsNormalNPT,
        LammpsSelectFrame,
        LammpsProduction,
        LammpsAnalyze,
        LammpsReport,
    ],
)

PROTOCOL = Protocol(
    name="electrolyte_diffusivity",
    title="Li⁺ self-diffusion in LiPF₆ carbonate electrolytes (SevenNet-0 + D3 via ASE, "
    "or OPLS-AA via LAMMPS)",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=ElectrolyteParams,
    start=lambda params: Pack(params),
    examples=(
        "Li-ion diffusivity in 1 molal LiPF6 in DMC at 298 K",
        "Li-ion diffusivity in 1 molal LiPF6 in EC/DMC 3:7 by weight at 298 K",
        "Li-ion diffusivity in 1 molal LiPF6 in EC/PC 1:1 by weight at 313 K with OPLS-AA",
    ),
    parse_request=parse_request,
    engines=("packmol",),
    estimate=electrolyte_estimate,
    prepare=electrolyte_inputs,
)
