"""GFN2-xTB through tblite: energies and gradients, ALPB implicit solvation.

GFN2-xTB: C. Bannwarth, S. Ehlert, S. Grimme, J. Chem. Theory Comput. 15, 1652 (2019);
ALPB: S. Ehlert et al., J. Chem. Theory Comput. 17, 4250 (2021).
"""

from __future__ import annotations

import numpy as np

from simwright.engines.qc.level import LevelOfTheory
from simwright.errors import EngineError
from simwright.molecules.qc import QcMolecule
from simwright.molecules.solvents import find_solvent

BOHR_A = 0.529177210903
"""CODATA 2018 Bohr radius in Å."""


def tblite_version() -> str:
    """The installed tblite version ('' when it is not installed)."""
    try:
        # lazy: tblite (extra [molecules]) is optional
        from importlib.metadata import version

        return version("tblite")
    except Exception:
        return ""


def energy_gradient(molecule: QcMolecule, level: LevelOfTheory) -> tuple[float, np.ndarray]:
    """GFN2-xTB energy (hartree) and gradient (hartree/bohr, n × 3)."""
    # lazy: tblite (extra [molecules]) loads a compiled library
    from tblite.interface import Calculator

    calc = Calculator(
        "GFN2-xTB",
        molecule.numbers,
        molecule.positions / BOHR_A,
        charge=float(molecule.charge),
        uhf=molecule.multiplicity - 1,
    )
    calc.set("verbosity", 0)
    if level.solvent is not None:
        name = find_solvent(level.solvent).alpb
        if name is None:
            raise EngineError(f"GFN2-xTB's ALPB has no parameters for {level.solvent}")
        calc.add("alpb-solvation", name)
    try:
        result = calc.singlepoint()
    except Exception as exc:
        raise EngineError(f"GFN2-xTB failed on {molecule.name}: {exc}") from exc
    return float(result.get("energy")), np.asarray(result.get("gradient"))
