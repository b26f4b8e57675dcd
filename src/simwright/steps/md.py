"""Molecular-dynamics actions: launch, run and record LAMMPS segments.

The lead-in every MD protocol shares — pack (:func:`simwright.steps.build.record_liquid`)
-> :func:`minimize` -> :func:`equilibrate` (NVT or NPT) -> :func:`produce` — is written
here once; each works on values (settings, specs, artifact references) and returns
values, so a protocol's steps stay a few lines long. Run one segment per step: a
segment's files (``thermo.h5``, ``final.restart``...) have fixed names in the step
directory.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from simwright.contract import SCHEMA_VERSION, read_structure
from simwright.engines.lammps.continuation import run_continuing, stop_reason
from simwright.engines.lammps.segment import (
    LammpsLauncher,
    LammpsResult,
    MDSpec,
)
from simwright.engines.lammps.templates import SNAPSHOT_PATTERN
from simwright.forcefields.base import ForceField
from simwright.jobs import JobRunner
from simwright.results import ArtifactRef
from simwright.settings import Settings
from simwright.structure import Structure

if TYPE_CHECKING:
    from simwright.graph import RunContext


def launcher(settings: Settings, runner: JobRunner | None = None) -> LammpsLauncher:
    """A LAMMPS launcher for the machine: MPI ranks over all cores, one thread each.

    ``settings.mpi_ranks`` > 0 fixes the number of ranks; ``settings.threads`` limits
    the cores used. ``runner`` (a step's ``ctx.jobs``) decides where its calls run.
    """
    cores = settings.cores()
    ranks = settings.mpi_ranks or cores
    found = LammpsLauncher.from_settings(
        settings, mpi_ranks=ranks, omp_threads=max(1, cores // ranks)
    )
    return dataclasses.replace(found, runner=runner) if runner is not None else found


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
    result, stopped = run_continuing(
        launcher(ctx.settings, ctx.jobs),
        spec,
        forcefield,
        ctx.workdir,
        structure=structure,
        restart=ctx.path(restart) if restart is not None else None,
        timeout_s=ctx.settings.limits.engine_timeout_s,
        budget=ctx.settings.executor.retries,
        progress=ctx.progress,
    )
    for part in stopped:
        ctx.engine_call(part.call)
        ctx.event(
            "segment_continued",
            f"LAMMPS {stop_reason(part.call)}; continued from {part.restart.name} "
            f"for the remaining {part.steps_remaining} steps",
            stopped_by=part.stopped_by,
            restart=part.restart.name,
            restart_step=part.restart_step,
            steps_remaining=part.steps_remaining,
            stopped_job_id=part.job_id,
            stopped_log=part.log_path.name,
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


def minimize(
    ctx: RunContext,
    forcefield: ForceField,
    structure: ArtifactRef,
    timestep_fs: float,
    iterations: int = MINIMIZE_STEPS,
) -> ArtifactRef:
    """Minimize a recorded structure with LAMMPS and return the restart to start from."""
    spec = MDSpec("minimize", steps=iterations, timestep_fs=timestep_fs, thermo_every=50)
    result = segment(ctx, spec, forcefield, structure=read_structure(ctx.path(structure)))
    files = record_segment(ctx, result, "minimization")
    assert files.restart is not None
    return files.restart


def minimize_packed(
    ctx: RunContext, forcefield: ForceField, packed: ArtifactRef, timestep_fs: float
) -> ArtifactRef:
    """Minimize a packed structure (:data:`MINIMIZE_STEPS` iterations); the restart."""
    return minimize(ctx, forcefield, packed, timestep_fs)


def equilibrate(
    ctx: RunContext,
    spec: MDSpec,
    forcefield: ForceField,
    start: ArtifactRef,
    what: str | None = None,
) -> SegmentFiles:
    """Run an NVT or NPT equilibration ``spec`` from ``start`` (a restart or a structure)."""
    if spec.ensemble not in ("nvt", "npt"):
        raise ValueError(f"equilibrate runs nvt or npt, not {spec.ensemble}")
    return run_from(ctx, spec, forcefield, start, what or f"{spec.ensemble.upper()} equilibration")


def produce(
    ctx: RunContext,
    spec: MDSpec,
    forcefield: ForceField,
    start: ArtifactRef,
    what: str | None = None,
) -> SegmentFiles:
    """Run a production segment ``spec`` (NVE, NVT or NPT) from the restart ``start``."""
    return run_from(ctx, spec, forcefield, start, what or f"{spec.ensemble.upper()} production")


def run_from(
    ctx: RunContext, spec: MDSpec, forcefield: ForceField, start: ArtifactRef, what: str
) -> SegmentFiles:
    """Run ``spec`` from a recorded restart (kind ``restart``) or structure and record it."""
    if start.kind == "restart":
        result = segment(ctx, spec, forcefield, restart=start)
    else:
        result = segment(ctx, spec, forcefield, structure=read_structure(ctx.path(start)))
    return record_segment(ctx, result, what)


def steps_for(duration_ps: float, timestep_fs: float) -> int:
    """Number of MD steps covering ``duration_ps`` (at least 1)."""
    return max(1, round(duration_ps * 1000.0 / timestep_fs))
