"""LAMMPS single-point energies: one ``run 0`` of a structure with a force field."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from simwright.engines.lammps.data import write_data_file
from simwright.engines.lammps.launcher import LammpsError, LammpsLauncher
from simwright.engines.lammps.segment import check_template
from simwright.engines.lammps.templates import DATA_NAME, DataStart, render_single_point
from simwright.forcefields.base import ForceField
from simwright.store.records import EngineCall
from simwright.structure import Structure


@dataclass(frozen=True)
class LammpsEnergy:
    """The potential energy (eV) of one structure and the record of the LAMMPS call."""

    energy_ev: float
    pressure_bar: float
    call: EngineCall


def single_point(
    launcher: LammpsLauncher,
    structure: Structure,
    forcefield: ForceField,
    workdir: Path,
    *,
    timeout_s: float | None = None,
) -> LammpsEnergy:
    """Write the data file and input in ``workdir``, run LAMMPS, read the energy.

    Raises :class:`LammpsError` when LAMMPS fails or reports no finite energy.
    """
    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    write_data_file(structure, forcefield, workdir / DATA_NAME)
    script = render_single_point(forcefield, DataStart(DATA_NAME, structure.pbc))
    check_template(script, workdir)
    result = launcher.run(
        script,
        workdir,
        type_elements=forcefield.type_elements(),
        pbc=structure.pbc,
        timeout_s=timeout_s,
    )
    pe = float(result.thermo["potential_energy"][-1])
    if not math.isfinite(pe):
        raise LammpsError("LAMMPS reported no finite potential energy", call=result.call)
    return LammpsEnergy(pe, float(result.thermo["pressure"][-1]), result.call)
