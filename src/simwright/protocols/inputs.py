"""The build stage: every input a protocol's run needs, built without running an engine.

``simwright plan`` calls it so that a plan exits 0 only when ``simwright run`` would
get as far as its first engine call: the structure is built, the force field or
calculator constructed, pseudopotentials chosen, and the engines found. Each
builder returns one line per input it built; any problem raises a
:class:`~simwright.errors.SimwrightError` that names it.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simwright.builders import BulkSpec
from simwright.builders.crystals import build_bulk
from simwright.engines.ase.registry import SHIPPED_WITH_ASE
from simwright.engines.packmol.launcher import PackmolLauncher
from simwright.errors import EngineError, ValidationError
from simwright.molecules import get_molecule
from simwright.protocols.md_systems import SYSTEMS, forcefield_of, launcher
from simwright.settings import Settings


@dataclass(frozen=True)
class BuiltInputs:
    """What the build stage built, one readable line per input."""

    lines: tuple[str, ...]


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
            (structure, f"potential: {potential.file} ({potential.pair_style})", _lammps(settings))
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


def _lammps(settings: Settings) -> str:

    try:
        lmp = launcher(settings)
    except EngineError as exc:
        raise EngineError(f"LAMMPS is needed and was not found: {exc}") from exc
    if not lmp.executable.is_file():
        raise EngineError(f"LAMMPS is needed and {lmp.executable} does not exist")
    return f"engine: LAMMPS {lmp.executable}"


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
            _lammps(settings),
            "engine: PACKMOL",
        )
    )


def dft_inputs(params: Any, settings: Settings) -> BuiltInputs:
    """The structure, pseudopotentials and complete pw.x input of a DFT protocol."""
    # lazy: only the DFT protocols need the recommender and the pw.x modules
    from simwright.dft.recommender import recommend
    from simwright.engines.espresso.launcher import PwLauncher
    from simwright.engines.espresso.pseudo_library import PseudoLibrary, default_pseudo_dirs

    dirs = (*default_pseudo_dirs(settings.home), *(Path(d) for d in params.pseudo_dirs))
    rec = recommend(params, PseudoLibrary(dirs))
    pw = PwLauncher.from_settings(settings)
    if not pw.available():
        raise EngineError(f"pw.x is needed and was not found ({pw.executable})")
    summary = rec.as_dict()
    pseudos = ", ".join(f"{e}: {f}" for e, f in (summary.get("pseudopotentials") or {}).items())
    return BuiltInputs(
        (
            f"structure: {summary['structure']} ({len(rec.structure.symbols)} atoms)",
            f"pseudopotentials: {pseudos}",
            f"k-points: {rec.template.kpoints.describe()}",
            f"input: pw.x, {len(rec.parameters)} parameters",
            f"engine: {pw.executable}",
        )
    )
