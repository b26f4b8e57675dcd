"""Relax ions along z only, at fixed cell: a shared action for planar faults.

A generalized stacking-fault curve shifts half a crystal rigidly in the (x, y)
plane and lets the atoms relax only perpendicular to it; relaxing in the plane
would slide the halves back. :func:`relax_along_z` does that with any engine that
can: a LAMMPS potential (``minimize`` with the in-plane forces zeroed by
``fix setforce``) or an ASE calculator (BFGS with ASE's ``FixCartesian``).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from simwright.engines.ase.calculators import ase_version
from simwright.engines.base import EngineCall
from simwright.errors import ValidationError
from simwright.steps.energies import AseEnergies, Energies, EnergyEngine, PotentialEnergies
from simwright.structure import Structure

if TYPE_CHECKING:
    from simwright.graph import RunContext

FMAX_EV_A = 1e-4
"""Force tolerance of the ASE relaxation (eV/Å)."""


def relax_along_z(
    ctx: RunContext, engine: EnergyEngine, structures: Sequence[Structure]
) -> Energies:
    """Energies of ``structures`` with their ions relaxed along z only (cell fixed)."""
    if isinstance(engine, PotentialEnergies):
        held = dataclasses.replace(engine, relax_axes="z")
        return held.points(ctx, structures, relax_ions=True)
    if isinstance(engine, AseEnergies):
        return _ase_relax_z(ctx, engine, structures)
    raise ValidationError(f"{engine.label()} cannot relax ions along one axis in simwright")


def _ase_relax_z(ctx: RunContext, engine: AseEnergies, structures: Sequence[Structure]) -> Energies:
    # lazy: ASE's constraints and optimizers load only when an ASE engine relaxes
    from ase.constraints import FixCartesian
    from ase.optimize import BFGS

    if not structures:
        raise ValidationError("no structures to evaluate")
    engine.check_elements(structures[0].symbols)
    start = time.perf_counter()
    calc = engine.calculator.build(ctx.settings.plugins)
    energy, final = np.empty(len(structures)), []
    for i, s in enumerate(structures):
        atoms = s.to_ase()
        atoms.calc = calc
        atoms.set_constraint(FixCartesian(range(len(atoms)), mask=(True, True, False)))
        BFGS(atoms, logfile=None).run(fmax=FMAX_EV_A, steps=1000)
        energy[i] = atoms.get_potential_energy()
        final.append(s.with_positions(atoms.get_positions()))
        ctx.progress((i + 1) / len(structures), f"structure {i + 1}/{len(structures)}")
    ctx.engine_call(
        EngineCall(
            engine="ase",
            command=f"z-only BFGS relaxation of {len(structures)} structures with "
            f"{engine.describe()}",
            version=ase_version(),
            exit_code=0,
            wall_s=time.perf_counter() - start,
        )
    )
    return Energies(energy, structures=tuple(final))
