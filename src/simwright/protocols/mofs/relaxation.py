"""A framework relaxed by a universal MLIP with a cap on the optimiser's steps.

BFGS on the atoms and, by default, the cell (ASE's ``FrechetCellFilter``), for at most
``relax_steps`` steps: a cap keeps a few-hundred-atom framework within minutes on two
cores. Stopping at the cap is not an error; the report says the relaxation did not
converge and gives the largest force left.
"""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass

import numpy as np
from ase.filters import FrechetCellFilter

from simwright.engines.ase.calculators import CalculatorSpec, ase_version
from simwright.engines.ase.mlip import torch_threads
from simwright.errors import EngineError
from simwright.store.records import EngineCall
from simwright.structure import Structure


@dataclass(frozen=True)
class Relaxed:
    """The relaxed framework and the optimiser's history (per step: energy eV, largest
    force eV/Å, cell volume Å³)."""

    structure: Structure
    energy_ev: np.ndarray
    fmax_ev_a: np.ndarray
    volume_a3: np.ndarray
    converged: bool


def relax_capped(
    structure: Structure,
    spec: CalculatorSpec,
    *,
    fmax_ev_a: float,
    max_steps: int,
    cell: bool,
    threads: int,
    allow: tuple[str, ...] = (),
) -> tuple[Relaxed, EngineCall]:
    """Relax ``structure`` with the calculator of ``spec`` (at most ``max_steps``)."""
    # lazy: ase.optimize takes ~1 s to import
    from ase.optimize import BFGS

    start = time.perf_counter()
    atoms = structure.to_ase()
    rows: list[tuple[float, float, float]] = []
    with torch_threads(threads), warnings.catch_warnings():
        # CHGNet converts its stress tensor with .item() and torch warns on every call
        warnings.filterwarnings("ignore", ".*requires_grad=True to a scalar", UserWarning)
        # ASE's FrechetCellFilter takes scipy's logm of a near-identity deformation
        warnings.filterwarnings("ignore", "logm result may be inaccurate", RuntimeWarning)
        try:
            atoms.calc = spec.build(allow)
            target = FrechetCellFilter(atoms) if cell else atoms
            opt = BFGS(target, logfile=None)  # type: ignore[arg-type]

            def record() -> None:
                forces = target.get_forces()
                fmax = float(np.sqrt((forces**2).sum(axis=1)).max())
                rows.append((float(atoms.get_potential_energy()), fmax, atoms.get_volume()))

            opt.attach(record, interval=1)
            converged = bool(opt.run(fmax=fmax_ev_a, steps=max_steps))
        except Exception as exc:  # a calculator fails in many ways
            raise EngineError(f"{spec.name} relaxation failed: {exc}") from exc
    data = np.array(rows)
    relaxed = structure.with_positions(atoms.get_positions(), np.array(atoms.get_cell()))
    call = EngineCall(
        engine="ase",
        command=f"BFGS{' + FrechetCellFilter' if cell else ''} with {spec.describe()}",
        version=ase_version(),
        exit_code=0,
        wall_s=time.perf_counter() - start,
        extra={"steps": str(len(rows) - 1), "converged": str(converged)},
    )
    return Relaxed(relaxed, data[:, 0], data[:, 1], data[:, 2], converged), call
