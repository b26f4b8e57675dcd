"""The build stage of the liquid MD protocols: system, force field and engines."""

from __future__ import annotations

from typing import Any

from simwright.engines.packmol.launcher import PackmolLauncher
from simwright.errors import EngineError
from simwright.molecules import get_molecule
from simwright.protocols.inputs import BuiltInputs, lammps_line
from simwright.protocols.md_systems import SYSTEMS, forcefield_of
from simwright.settings import Settings


def md_inputs(params: Any, settings: Settings) -> BuiltInputs:
    """The force field, the molecule and the engines of an MD protocol."""

    system = SYSTEMS[params.system]
    ff = forcefield_of(system)
    per_unit = sum(len(get_molecule(m).structure.symbols) for m in system.components)
    if not PackmolLauncher.from_settings(settings).available():
        raise EngineError("PACKMOL is needed to pack the liquid and was not found on PATH")
    n = getattr(params, "n_molecules", None) or getattr(params, "n_atoms", None)
    return BuiltInputs(
        (
            f"system: {n} × {system.description} ({per_unit} atoms each)",
            f"force field: {ff.description}",
            lammps_line(settings),
            "engine: PACKMOL",
        )
    )
