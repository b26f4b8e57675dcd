"""One entry to the quantum-chemistry engines: energy, gradient and Hessian of a
molecule at a :class:`~simwright.engines.qc.level.LevelOfTheory`, each call returned
with its :class:`~simwright.store.records.EngineCall` record.

Dispatch: GFN2-xTB -> tblite, everything else -> PySCF, plus D3 when stated. The
Hessian is PySCF's analytic one for a gas-phase SCF without dispersion, otherwise
central differences of analytic gradients (step :data:`FD_STEP_BOHR`): the rule is
returned with the matrix.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from simwright.engines.qc import dispersion, pyscf_calc, xtb_calc
from simwright.engines.qc.level import LevelOfTheory
from simwright.molecules.qc import QcMolecule
from simwright.store.records import EngineCall

FD_STEP_BOHR = 0.005
"""Displacement of the finite-difference Hessian (bohr), central differences."""

GradientFn = Callable[[QcMolecule], tuple[float, np.ndarray]]


def engine_version(level: LevelOfTheory) -> str:
    """The version of the engine ``level`` runs on."""
    return xtb_calc.tblite_version() if level.engine == "xtb" else pyscf_calc.pyscf_version()


def record(level: LevelOfTheory, what: str, molecule: QcMolecule, start: float) -> EngineCall:
    """The record of one in-process engine call that began at ``start``."""
    return EngineCall(
        engine=level.engine,
        command=f"{what} {molecule.name} ({molecule.formula}) at {level.label()}",
        version=engine_version(level),
        exit_code=0,
        wall_s=time.perf_counter() - start,
    )


def energy_gradient(molecule: QcMolecule, level: LevelOfTheory) -> tuple[float, np.ndarray]:
    """Energy (hartree) and gradient (hartree/bohr) including any D3 dispersion."""
    if level.engine == "xtb":
        return xtb_calc.energy_gradient(molecule, level)
    e, g = pyscf_calc.energy_gradient(molecule, level)
    ed, gd = dispersion.d3_energy_gradient(molecule, level)
    return e + ed, g + gd


def energy(molecule: QcMolecule, level: LevelOfTheory) -> float:
    """Energy (hartree) including any D3 dispersion."""
    if level.engine == "xtb":
        return xtb_calc.energy_gradient(molecule, level)[0]
    return pyscf_calc.energy(molecule, level) + dispersion.d3_energy_gradient(molecule, level)[0]


def hessian_rule(level: LevelOfTheory) -> str:
    """How the Hessian of ``level`` is computed."""
    if level.engine == "pyscf" and level.solvent is None:
        if level.dispersion != "none":
            return "analytic SCF (PySCF) + central differences of D3 gradients"
        return "analytic (PySCF)"
    return f"central differences of analytic gradients, step {FD_STEP_BOHR} bohr"


def hessian(molecule: QcMolecule, level: LevelOfTheory) -> tuple[np.ndarray, str]:
    """The Cartesian Hessian (hartree/bohr², 3n × 3n) and the rule that made it."""
    rule = hessian_rule(level)
    if rule.startswith("analytic"):
        h = pyscf_calc.analytic_hessian(molecule, level)
        if level.dispersion != "none":
            h = h + finite_difference_hessian(
                molecule, lambda m: dispersion.d3_energy_gradient(m, level)
            )
        return h, rule
    return finite_difference_hessian(molecule, lambda m: energy_gradient(m, level)), rule


def finite_difference_hessian(molecule: QcMolecule, gradient: GradientFn) -> np.ndarray:
    """Central-difference Hessian from ``gradient`` (6n gradient calls), symmetrised."""
    x0 = molecule.positions / xtb_calc.BOHR_A
    n3 = x0.size
    h = np.zeros((n3, n3))
    for i in range(n3):
        rows = []
        for sign in (1.0, -1.0):
            x = x0.copy().reshape(-1)
            x[i] += sign * FD_STEP_BOHR
            rows.append(gradient(molecule.moved(x.reshape(-1, 3) * xtb_calc.BOHR_A))[1].reshape(-1))
        h[i] = (rows[0] - rows[1]) / (2 * FD_STEP_BOHR)
    return 0.5 * (h + h.T)
