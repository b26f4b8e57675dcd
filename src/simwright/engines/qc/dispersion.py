"""Grimme's D3 dispersion through the ``dftd3`` package (simple-dftd3).

D3(BJ): S. Grimme, S. Ehrlich, L. Goerigk, J. Comput. Chem. 32, 1456 (2011); zero
damping: S. Grimme, J. Antony, S. Ehrlich, H. Krieg, J. Chem. Phys. 132, 154104 (2010).
"""

from __future__ import annotations

import numpy as np

from simwright.engines.qc.level import DFTD3_NAMES, LevelOfTheory
from simwright.engines.qc.xtb_calc import BOHR_A
from simwright.molecules.qc import QcMolecule


def d3_energy_gradient(molecule: QcMolecule, level: LevelOfTheory) -> tuple[float, np.ndarray]:
    """The D3 energy (hartree) and gradient (hartree/bohr) of ``level``'s dispersion."""
    n = len(molecule.symbols)
    if level.dispersion == "none":
        return 0.0, np.zeros((n, 3))
    # lazy: dftd3 (extra [molecules]) loads a compiled library
    from dftd3.interface import DispersionModel, RationalDampingParam, ZeroDampingParam

    model = DispersionModel(molecule.numbers, molecule.positions / BOHR_A)
    name = DFTD3_NAMES[level.method]
    damping = (
        RationalDampingParam(method=name)
        if level.dispersion == "d3bj"
        else ZeroDampingParam(method=name)
    )
    res = model.get_dispersion(damping, grad=True)
    return float(res["energy"]), np.asarray(res["gradient"])
