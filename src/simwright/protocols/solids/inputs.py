"""The build stage of the solid-state protocols: the crystal and the energy engine."""

from __future__ import annotations

import importlib.util
from typing import Any

from simwright.builders import BulkSpec
from simwright.builders.crystals import build_bulk
from simwright.engines.ase.registry import SHIPPED_WITH_ASE
from simwright.errors import ValidationError
from simwright.protocols.inputs import BuiltInputs, lammps_line
from simwright.settings import Settings

_MLIP_MODULES = {"chgnet": "chgnet", "sevennet": "sevenn"}


def lattice_constant_inputs(params: Any, settings: Settings) -> BuiltInputs:
    """The crystal and the energy engine of ``lattice_constant``."""

    spec = BulkSpec(params.element, params.resolved_lattice(), params.resolved_a(), cubic=True)
    return solid_inputs(params, spec, settings)


def crystal_inputs(params: Any, settings: Settings) -> BuiltInputs:
    """The crystal (``params.crystal()``) and the energy engine of a solid-state protocol."""
    return solid_inputs(params, params.crystal(), settings)


def solid_inputs(params: Any, spec: Any, settings: Settings) -> BuiltInputs:
    """The crystal of ``spec`` and the energy engine of ``params`` (a catalogued LAMMPS
    potential, or an ASE calculator: its extra must be installed and its name allowed)."""

    crystal = build_bulk(spec)
    cell = crystal.cell
    structure = (
        f"structure: {spec.resolved()[0]} {params.element}, {len(crystal.symbols)} "
        f"atoms, a = {float(cell[0][0]):.3f} Å"
    )
    potential = params.potential_entry()
    if potential is not None:
        return BuiltInputs(
            (
                structure,
                f"potential: {potential.file} ({potential.pair_style})",
                lammps_line(settings),
            )
        )
    calc = params.calculator_spec()
    module = _MLIP_MODULES.get(calc.name.lower())
    if module is not None and importlib.util.find_spec(module) is None:
        raise ValidationError(
            f"calculator {calc.name!r} needs the mlip extra, which is not installed: "
            "pip install 'simwright[mlip]'; EMT works for Al, Cu, Ag, Au, Ni, Pd, Pt"
        )
    if calc.name.lower() in SHIPPED_WITH_ASE:
        calc.check(settings.plugins)  # importable wherever ASE is: no slow import to prove it
    else:
        calc.load(settings.plugins)
    return BuiltInputs((structure, f"calculator: {calc.describe()}"))
