"""The classical route of ``electrolyte_diffusivity``: OPLS-AA run by LAMMPS with PPPM.

The same procedure as the machine-learned route (knowledge module
``li_ion_diffusivity_carbonate_electrolytes``), after the shared PACKMOL step:
conjugate-gradient minimisation until the largest force on any atom is below
``fmax_ev_a`` → NPT with tritium masses on H at 2 fs → NPT with normal masses at 1 fs
(fresh velocities), storing restart snapshots → density convergence check and the
snapshot closest to the mean density of the last half → NVT production (Nosé–Hoover)
→ the shared MSD analysis and report. Force field: :func:`simwright.forcefields.opls.opls_aa`
with the ionic charges scaled by ``ion_charge_scale``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
from typing_extensions import override

from simwright.analysis.density import closest_frame_to_mean
from simwright.analysis.trajectory_io import read_positions
from simwright.contract import read_structure, read_table
from simwright.engines.ase.ensembles import TRITIUM_MASS_AMU
from simwright.engines.lammps.segment import MDSpec
from simwright.errors import EngineError
from simwright.forcefields.base import ForceField
from simwright.forcefields.opls import opls_aa, with_hydrogen_mass
from simwright.graph import Done, RunContext, Step
from simwright.protocols.electrolytes import report
from simwright.protocols.electrolytes.msd import analyse_or_extend
from simwright.protocols.electrolytes.params import (
    HEAVY_TIMESTEP_FS,
    NORMAL_TIMESTEP_FS,
    ElectrolyteParams,
    composition,
)
from simwright.protocols.liquids.start_frame import (
    density_converged,
    record_snapshots,
    snapshot_every,
)
from simwright.results import ArtifactRef, ProtocolResult
from simwright.steps.md import record_segment, segment


def forcefield(p: ElectrolyteParams) -> ForceField:
    """OPLS-AA for Li⁺, PF₆⁻ and the solvents, ionic charges scaled as asked."""
    return opls_aa(
        ["li+", "pf6-", *p.solvents],
        ion_charge_scale=p.ion_charge_scale,
        cutoff_a=p.cutoff_a,
        pppm_accuracy=p.pppm_accuracy,
    )


@dataclass(frozen=True)
class LammpsMinimize(Step):
    """Conjugate gradients until the largest force on any atom is below ``fmax_ev_a``."""

    params: ElectrolyteParams
    packed: ArtifactRef

    @override
    def run(self, ctx: RunContext) -> LammpsHeavyNPT:
        p = self.params
        spec = MDSpec(
            "minimize",
            steps=p.relax_max_steps,
            timestep_fs=NORMAL_TIMESTEP_FS,
            thermo_every=50,
            min_ftol_ev_a=p.fmax_ev_a,
            min_force_norm="max",
        )
        structure = read_structure(ctx.path(self.packed))
        result = segment(ctx, spec, forcefield(p), structure=structure)
        criterion, two_norm = minimize_outcome((ctx.workdir / "log.lammps").read_text())
        if criterion != "force tolerance" and two_norm >= p.fmax_ev_a:
            raise EngineError(
                f"minimisation stopped by '{criterion}' with a force 2-norm of {two_norm:.2f} "
                f"eV/Å, not below {p.fmax_ev_a}; raise relax_max_steps"
            )
        files = record_segment(ctx, result, "minimization")
        assert files.final_structure is not None
        ctx.rule(
            "prerelaxed",
            f"largest atomic force below {p.fmax_ev_a} eV/Å ({criterion}; force 2-norm "
            f"{two_norm:.3f} eV/Å)",
        )
        return LammpsHeavyNPT(p, files.final_structure)


def minimize_outcome(log: str) -> tuple[str, float]:
    """The stopping criterion and final force 2-norm (eV/Å) of a LAMMPS minimisation log."""
    criterion = re.search(r"Stopping criterion = (.+)", log)
    norm = re.search(r"Force two-norm initial, final = \S+ (\S+)", log)
    if criterion is None or norm is None:
        raise EngineError("the LAMMPS log has no minimisation statistics")
    return criterion.group(1).strip(), float(norm.group(1))


@dataclass(frozen=True)
class LammpsHeavyNPT(Step):
    """NPT with the tritium mass on hydrogen at 2 fs, fresh velocities."""

    params: ElectrolyteParams
    start: ArtifactRef

    @override
    def run(self, ctx: RunContext) -> LammpsNormalNPT:
        p = self.params
        steps = p.steps(p.heavy_npt_ns, HEAVY_TIMESTEP_FS)
        spec = _npt(p, steps, HEAVY_TIMESTEP_FS, seed=p.seed)
        ff = with_hydrogen_mass(forcefield(p), TRITIUM_MASS_AMU)
        result = segment(ctx, spec, ff, structure=read_structure(ctx.path(self.start)))
        files = record_segment(ctx, result, "heavy-hydrogen NPT")
        assert files.final_structure is not None
        ctx.rule("heavy_hydrogen_npt", f"{steps} steps of 2 fs with m(H) = {TRITIUM_MASS_AMU} u")
        return LammpsNormalNPT(p, files.final_structure)


def _npt(
    p: ElectrolyteParams, steps: int, timestep_fs: float, seed: int, restart_every: int = 0
) -> MDSpec:
    return MDSpec(
        "npt",
        steps=steps,
        timestep_fs=timestep_fs,
        temperature_k=p.temperature_k,
        pressure_bar=p.pressure_bar,
        thermo_every=max(1, steps // 100),
        seed=seed,
        create_velocities=True,
        restart_every=restart_every,
    )


@dataclass(frozen=True)
class LammpsNormalNPT(Step):
    """NPT with normal masses at 1 fs (velocities redrawn), storing restart snapshots."""

    params: ElectrolyteParams
    start: ArtifactRef

    @override
    def run(self, ctx: RunContext) -> LammpsSelectFrame:
        p = self.params
        steps = p.steps(p.npt_ns, NORMAL_TIMESTEP_FS)
        spec = _npt(p, steps, NORMAL_TIMESTEP_FS, p.seed + 1, restart_every=snapshot_every(steps))
        result = segment(ctx, spec, forcefield(p), structure=read_structure(ctx.path(self.start)))
        files = record_segment(ctx, result, "normal-mass NPT")
        snaps = record_snapshots(ctx)
        assert files.restart is not None
        ctx.rule("normal_mass_npt", f"{steps} steps of 1 fs, velocities redrawn")
        return LammpsSelectFrame(p, files.thermo, files.restart, snaps)


@dataclass(frozen=True)
class LammpsSelectFrame(Step):
    """Check the density converged; start NVT from the snapshot closest to the mean."""

    params: ElectrolyteParams
    thermo: ArtifactRef
    final: ArtifactRef
    snapshots: tuple[ArtifactRef, ...]

    @override
    def run(self, ctx: RunContext) -> LammpsProduction:
        p = self.params
        thermo = read_table(ctx.path(self.thermo))
        first = float(thermo["step"][0])
        times = (thermo["step"] - first) * NORMAL_TIMESTEP_FS
        density = thermo["density"]
        candidates = self.snapshots or (self.final,)
        steps = np.array([_step_of(s, thermo["step"][-1]) for s in candidates], dtype=float)
        pick = closest_frame_to_mean(
            times,
            density,
            candidate_times_fs=(steps - first) * NORMAL_TIMESTEP_FS,
            last_window_fraction=0.5,
        )
        drift, converged = density_converged(
            ctx, density, pick.window_mean_g_cm3, p.density_tolerance
        )
        ctx.rule(
            "closest_density_frame",
            f"snapshot at {pick.time_fs / 1000:.3f} ps: {pick.density_g_cm3:.4f} g/cm³, "
            f"last-half mean {pick.window_mean_g_cm3:.4f} ± {pick.window_std_g_cm3:.4f}; "
            f"density drift between its quarters {drift:.2%} "
            f"({'≤' if converged else '>'} {p.density_tolerance:.0%})",
        )
        return LammpsProduction(p, candidates[pick.index], (), 0, converged)


def _step_of(ref: ArtifactRef, last: float) -> int:
    if "snapshot." not in ref.path:
        return int(last)
    return int(ref.path.rsplit("snapshot.", 1)[1].split(".")[0])


@dataclass(frozen=True)
class LammpsProduction(Step):
    """NVT production at 1 fs (Nosé–Hoover), or an extension of it from the last restart."""

    params: ElectrolyteParams
    start: ArtifactRef
    segments: tuple[ArtifactRef, ...]
    extensions: int
    density_converged: bool

    @override
    def run(self, ctx: RunContext) -> LammpsAnalyze:
        p = self.params
        ns = p.nvt_ns if not self.segments else p.extension_ns
        steps = p.steps(ns, NORMAL_TIMESTEP_FS)
        every = max(1, round(p.frame_interval_fs / NORMAL_TIMESTEP_FS))
        spec = MDSpec(
            "nvt",
            steps=steps,
            timestep_fs=NORMAL_TIMESTEP_FS,
            temperature_k=p.temperature_k,
            thermo_every=max(1, steps // 100),
            dump_every=every,
            seed=p.seed + 2,
        )
        result = segment(ctx, spec, forcefield(p), restart=self.start)
        what = f"NVT production segment {len(self.segments) + 1}"
        files = record_segment(ctx, result, what)
        assert files.trajectory is not None and files.restart is not None
        ctx.rule("nvt_production", f"{steps} steps of 1 fs, a frame every {every} steps")
        return LammpsAnalyze(
            p,
            (*self.segments, files.trajectory),
            files.restart,
            files.thermo,
            self.extensions,
            self.density_converged,
        )


@dataclass(frozen=True)
class LammpsAnalyze(Step):
    """The shared MSD analysis of the DCD frames; extend production if Li⁺ R² is low."""

    params: ElectrolyteParams
    segments: tuple[ArtifactRef, ...]
    last_restart: ArtifactRef
    last_thermo: ArtifactRef
    extensions: int
    density_converged: bool

    @override
    def run(self, ctx: RunContext) -> LammpsProduction | LammpsReport:
        p = self.params
        ff = forcefield(p)
        blocks = [read_positions(ctx.path(s)).positions_a for s in self.segments]
        positions = np.concatenate(blocks)
        comp = composition(p)
        types = [t for m, n in comp.components for _ in range(n) for t in _types(ff, m.name)]
        masses = np.array([ff.atom_types[ff.type_id(t) - 1].mass_amu for t in types])
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
            return LammpsProduction(
                p, self.last_restart, self.segments, self.extensions + 1, self.density_converged
            )
        return LammpsReport(p, msd, self.last_thermo, self.extensions, self.density_converged)


def _types(ff: ForceField, molecule: str) -> tuple[str, ...]:
    return next(m.atom_types for m in ff.molecules if m.name == molecule)


@dataclass(frozen=True)
class LammpsReport(Step):
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
