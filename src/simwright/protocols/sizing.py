"""The in-tree protocols' own estimators and settings-dependent checks, for the preflight.

Each function takes a protocol's validated parameters and the :class:`Settings`;
the estimators return an :class:`~simwright.protocols.estimate.Estimate`, the
checks raise :class:`~simwright.errors.ValidationError`. A protocol names them in
its :class:`~simwright.protocols.registry.Protocol` record (``estimate=``,
``check=``); nothing here imports a protocol module at import time.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from simwright.engines.ase.registry import check_calculator
from simwright.engines.espresso.pseudo_library import PseudoLibrary, default_pseudo_dirs
from simwright.engines.espresso.template import render
from simwright.molecules import get_molecule
from simwright.protocols.estimate import (
    Estimate,
    MdSegment,
    frames_of,
    md_estimate,
    scf_estimate,
)
from simwright.protocols.md_systems import MIN_FRAMES, SYSTEMS
from simwright.settings import Settings
from simwright.steps.md import MINIMIZE_STEPS, steps_for

ATOMS_PER_CELL = {"fcc": 4, "bcc": 2, "sc": 1, "diamond": 8}
ASE_EVAL_CORE_S = {"emt": 0.01, "lj": 0.01}
"""Core-seconds of one energy evaluation of a conventional cell (others: 2 s, MLIPs)."""


def check_lattice_constant(params: Any, settings: Settings) -> None:
    """The calculator must be registered or allowed by this installation."""
    check_calculator(params.calculator, settings.plugins)


LAMMPS_POINT_CORE_S = 0.5
"""Core-seconds of one LAMMPS point of a small cell with a catalogued potential
(start-up dominated; a fixed-cell ion relaxation adds little at this size)."""


def _per_evaluation(params: Any) -> tuple[float, str, bool]:
    """Core-seconds per evaluation, the engine's name, and whether each is its own call."""
    potential = getattr(params, "potential", None)
    if potential:
        return LAMMPS_POINT_CORE_S, f"LAMMPS, {potential}", True
    return ASE_EVAL_CORE_S.get(params.calculator.lower(), 2.0), params.calculator, False


def solid_estimate(params: Any, evaluations: int, what: str) -> Estimate:
    """``evaluations`` energy (or stress) evaluations of a conventional cubic cell."""
    per_eval, engine, per_call = _per_evaluation(params)
    core_s = evaluations * per_eval
    if hasattr(params, "resolved_lattice"):
        lattice = params.resolved_lattice()
    else:
        lattice = params.lattice or params.crystal().resolved()[0]
    return Estimate(
        atoms=ATOMS_PER_CELL.get(lattice, 8),
        engine_calls=evaluations if per_call else 1,
        output_bytes=200_000 + (20_000 * evaluations if per_call else 0),
        core_hours=core_s / 3600.0,
        longest_call_core_s=per_eval if per_call else core_s,
        basis=(
            f"{evaluations} evaluations ({what}) × {per_eval:g} core-s ({engine})",
            "output: structures, small HDF5 tables, plots and the report",
        ),
    )


def lattice_constant_estimate(params: Any, settings: Settings) -> Estimate:
    """``n_points`` evaluations of the conventional cell."""
    if getattr(params, "potential", None):
        return solid_estimate(params, params.n_points, "EOS scan")
    atoms = ATOMS_PER_CELL[params.resolved_lattice()]
    per_eval = ASE_EVAL_CORE_S.get(params.calculator.lower(), 2.0)
    core_s = params.n_points * per_eval
    return Estimate(
        atoms=atoms,
        engine_calls=1,
        output_bytes=200_000,
        core_hours=core_s / 3600.0,
        longest_call_core_s=core_s,
        basis=(
            f"{params.n_points} energy evaluations × {per_eval:g} core-s ({params.calculator})",
            "output: structure, two small HDF5 tables, a plot and the report (~200 kB)",
        ),
    )


def cohesive_energy_estimate(params: Any, settings: Settings) -> Estimate:
    """The EOS scan plus the isolated atom."""
    return solid_estimate(params, params.n_points + 1, "EOS scan and the isolated atom")


def elastic_constants_estimate(params: Any, settings: Settings) -> Estimate:
    """The EOS scan plus six strain patterns at each ± strain."""
    strained = 12 * len(params.strains_percent)
    return solid_estimate(params, params.eos_points + strained, "EOS scan and strained cells")


def diffusivity_estimate(params: Any, settings: Settings) -> Estimate:
    """Minimization, equilibration, production and every allowed extension."""
    p = params
    system = SYSTEMS[p.system]
    atoms = p.n_molecules * get_molecule(system.molecule).n_atoms
    production_fs = p.production_ps * 1000.0
    extension_ps = p.extension_ps or p.production_ps / 2
    segments = [
        MdSegment("minimize", MINIMIZE_STEPS),
        MdSegment("equilibration", steps_for(p.equilibration_ps, p.timestep_fs)),
        MdSegment(
            "production",
            steps_for(p.production_ps, p.timestep_fs),
            frames=max(MIN_FRAMES, frames_of(production_fs, p.dump_interval_fs)),
        ),
    ]
    extension_fs = extension_ps * 1000.0
    segments += [
        MdSegment(
            f"extension {i + 1}",
            steps_for(extension_ps, p.timestep_fs),
            frames=max(MIN_FRAMES, frames_of(extension_fs, p.dump_interval_fs)),
        )
        for i in range(p.max_extensions)
    ]
    return md_estimate(system.forcefield, atoms, tuple(segments))


def thermal_conductivity_estimate(params: Any, settings: Settings) -> Estimate:
    """Minimization, equilibration and an NVE production sampling the heat current."""
    p = params
    production = steps_for(p.production_ps, p.timestep_fs)
    segments = (
        MdSegment("minimize", MINIMIZE_STEPS),
        MdSegment("equilibration", steps_for(p.equilibration_ps, p.timestep_fs)),
        MdSegment("production", production, samples=production // p.sample_every),
    )
    return md_estimate(SYSTEMS[p.system].forcefield, p.n_atoms, segments)


def dft_estimate(params: Any, settings: Settings) -> Estimate:
    """pw.x calls on the recommended structure: one, or one per volume of an EOS scan.

    Runs the recommender and renders its input (no pw.x), so a request that cannot
    become a valid input (no pseudopotential, an override of a variable the template
    manages such as ``nat`` or ``ibrav``...) is refused here.
    """
    rec = _recommend(params, settings)
    calls = int(getattr(params, "n_points", 1))
    return scf_estimate(len(rec.structure), calls, params.calculation)


def _recommend(params: Any, settings: Settings) -> Any:

    # lazy: the recommender loads the knowledge graph (networkx); only DFT sizes need it
    from simwright.dft.recommender import recommend

    dirs = (*default_pseudo_dirs(settings.home), *(Path(d) for d in params.pseudo_dirs))
    rec = recommend(params, PseudoLibrary(dirs))
    render(rec.template)  # refuses overrides of the variables the template manages
    return rec
