"""OPLS-AA for small organic liquids and LiPF₆ electrolytes (flexible, LAMMPS with PPPM).

:mod:`.parameters` holds the published numbers with their sources, :mod:`.molecules`
which OPLS-AA type each atom of a library molecule takes, and :mod:`.build` turns a
set of molecules into a :class:`~simwright.forcefields.base.ForceField`.
"""

from simwright.forcefields.opls.build import (
    opls_aa,
    opls_acetonitrile,
    opls_ethanol,
    opls_methanol,
    with_hydrogen_mass,
)
from simwright.forcefields.opls.molecules import OPLS_MOLECULES, opls_molecule_names

__all__ = [
    "OPLS_MOLECULES",
    "opls_aa",
    "opls_acetonitrile",
    "opls_ethanol",
    "opls_methanol",
    "opls_molecule_names",
    "with_hydrogen_mass",
]
