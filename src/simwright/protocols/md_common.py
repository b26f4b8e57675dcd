"""Pieces the molecular-dynamics protocols share: the launcher, systems, segments.

Everything here works on values (settings, parameters, artifact references) and
returns values; the steps of each protocol stay small.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from simwright.contract import SCHEMA_VERSION, read_structure
from simwright.engines.lammps.segment import (
    LammpsLauncher,
    LammpsResult,
    MDSpec,
    run_segment,
)
from simwright.engines.lammps.templates import SNAPSHOT_PATTERN
from simwright.engines.packmol import PackSpec, pack
from simwright.forcefields import get_forcefield
from simwright.forcefields.base import ForceField
from simwright.graph import RunContext
from simwright.molecules import get_molecule
from simwright.results import ArtifactRef
from simwright.settings import Settings
from simwright.structure import Structure


@dataclass(frozen=True)
class LiquidSystem:
    """A one-component liquid simwright knows how to build and simulate."""

    name: str
    molecule: str
    forcefield: str
    tracer_element: str
    """Element whose atoms represent molecular centres in the MSD (O for water)."""
    description: str


SYSTEMS: dict[str, LiquidSystem] = {
    "spce_water": LiquidSystem("spce_water", "spce_water", "spce", "O", "SPC/E water"),
    "lj_argon": LiquidSystem("lj_argon", "argon", "lj_argon", "Ar", "Lennard-Jones argon"),
}


def launcher(settings: Settings) -> LammpsLauncher:
    """A LAMMPS launcher for the machine: MPI ranks over all cores, one thread each.

    ``settings.mpi_ranks`` > 0 fixes the number of ranks; ``settings.threads`` limits
    the cores used.
    """
    cores = settings.cores()
    ranks = settings.mpi_ranks or cores
    return LammpsLauncher.from_settings(
        settings, mpi_ranks=ranks, omp_threads=max(1, cores // ranks)
    )


def build_liquid(
    ctx: RunContext, system: LiquidSystem, n_molecules: int, density_g_cm3: float, seed: int
) -> ArtifactRef:
    """Pack ``n_molecules`` with PACKMOL at ``density_g_cm3`` and record the structure."""
    spec = PackSpec(
        components=((get_molecule(system.molecule), n_molecules),),
        density_g_cm3=density_g_cm3,
        seed=seed,
    )
    result = pack(spec, ctx.workdir)
    ctx.engine_call(result.call)
    return ctx.structure(result.structure, "packed.extxyz", f"{n_molecules} × {system.molecule}")


def forcefield_of(system: LiquidSystem) -> ForceField:
    """The force field of a system."""
    return get_forcefield(system.forcefield)


def segment(
    ctx: RunContext,
    spec: MDSpec,
    forcefield: ForceField,
    *,
    structure: Structure | None = None,
    restart: ArtifactRef | None = None,
) -> LammpsResult:
    """Run one LAMMPS segment in the step directory and record the call."""
    ctx.progress(None, f"LAMMPS {spec.ensemble}, {spec.steps} steps")
    result = run_segment(
        launcher(ctx.settings),
        spec,
        forcefield,
        ctx.workdir,
        structure=structure,
        restart=ctx.path(restart) if restart is not None else None,
        progress=ctx.progress,
    )
    ctx.engine_call(result.call)
    return result


@dataclass(frozen=True)
class SegmentFiles:
    """The recorded files of one MD segment."""

    thermo: ArtifactRef
    restart: ArtifactRef | None
    trajectory: ArtifactRef | None
    final_structure: ArtifactRef | None


def record_segment(ctx: RunContext, result: LammpsResult, what: str) -> SegmentFiles:
    """Record a segment's thermo table, restart, trajectory (manifest and files) and structure."""
    thermo = ctx.artifact(result.thermo_path, "table", f"thermo of {what}", SCHEMA_VERSION)
    restart = (
        ctx.artifact(result.restart_path, "restart", f"restart after {what}")
        if (result.restart_path)
        else None
    )
    traj = None
    if result.manifest_path is not None and result.dcd_path is not None:
        if result.data_path is not None:
            ctx.artifact(result.data_path, "topology", f"LAMMPS data file after {what}")
        ctx.artifact(result.dcd_path, "trajectory-binary", f"DCD trajectory of {what}")
        traj = ctx.artifact(
            result.manifest_path, "trajectory", f"trajectory of {what}", SCHEMA_VERSION
        )
    final = None
    if result.structure is not None:
        final = ctx.structure(result.structure, "final.extxyz", f"structure after {what}")
    return SegmentFiles(thermo, restart, traj, final)


def snapshots(workdir: Path) -> list[tuple[int, Path]]:
    """Periodic restart files of a segment as (absolute step, path), in step order."""
    pattern = re.compile(re.escape(SNAPSHOT_PATTERN).replace(r"\*", r"(\d+)") + "$")
    found = []
    for path in workdir.iterdir():
        m = pattern.match(path.name)
        if m:
            found.append((int(m.group(1)), path))
    return sorted(found)


MINIMIZE_STEPS = 200
"""Conjugate-gradient iterations after packing: a few hundred remove PACKMOL's close
contacts; converging further is wasted on a liquid that is equilibrated next."""


def minimize_packed(
    ctx: RunContext, forcefield: ForceField, packed: ArtifactRef, timestep_fs: float
) -> ArtifactRef:
    """Minimize a packed structure with LAMMPS and return the restart to start from."""
    spec = MDSpec("minimize", steps=MINIMIZE_STEPS, timestep_fs=timestep_fs, thermo_every=50)
    result = segment(ctx, spec, forcefield, structure=read_structure(ctx.path(packed)))
    files = record_segment(ctx, result, "minimization")
    assert files.restart is not None
    return files.restart


def steps_for(duration_ps: float, timestep_fs: float) -> int:
    """Number of MD steps covering ``duration_ps`` (at least 1)."""
    return max(1, round(duration_ps * 1000.0 / timestep_fs))
