"""The preflight estimates and settings checks of the solid-state protocols.

Each takes a protocol's validated parameters (and the :class:`Settings`) and returns an
:class:`~simwright.protocols.estimate.Estimate` or raises
:class:`~simwright.errors.ValidationError`; nothing here imports an engine adapter.
"""

from __future__ import annotations

from typing import Any

from simwright.engines.ase.registry import check_calculator
from simwright.protocols.estimate import Estimate
from simwright.settings import Settings

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
