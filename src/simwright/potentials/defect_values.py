"""Published defect and surface properties: a potential's own paper values and experiment.

The lattice defects protocols (``vacancy_formation_energy``, ``surface_energy``,
``stacking_fault``, ``vacancy_migration``) compare with these. Each value carries its
citation and whether it was checked against the source when it was recorded here
(``verified``). A value recalled but not re-read in the paper is kept as
*unverified*, and every report that shows it says so: a reader must not take it as
a checked number. Values of other potentials are not recorded; their reports
compare with experiment alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from simwright.potentials.published import MISHIN_AL_1999, MISHIN_CU_2001
from simwright.results import Reference

DEFECT_UNITS: Final = {
    "vacancy_formation_energy": "eV",
    "vacancy_migration_energy": "eV",
    "surface_energy_111": "J/m^2",
    "surface_energy_100": "J/m^2",
    "surface_energy_110": "J/m^2",
    "surface_energy": "J/m^2",
    "intrinsic_stacking_fault_energy": "mJ/m^2",
    "unstable_stacking_fault_energy": "mJ/m^2",
}
"""The quantities recorded here, with their units."""


@dataclass(frozen=True)
class DefectValue:
    """One published value: quantity, value (unit of :data:`DEFECT_UNITS`), source, and
    whether it was checked against the source (else the report marks it unverified)."""

    quantity: str
    value: float
    citation: str
    verified: bool

    def reference(self, prefix: str) -> Reference:
        """The value as a report :class:`Reference` (``prefix``: "experiment", the file)."""
        mark = "" if self.verified else " [unverified: recalled, not re-checked in the source]"
        return Reference(
            self.quantity,
            self.value,
            DEFECT_UNITS[self.quantity],
            f"{prefix}: {self.citation}{mark}",
        )


_MISHIN_AL_EV = (
    f"{MISHIN_AL_1999}; as quoted by F. Apostol and Y. Mishin, Phys. Rev. B 82, 144115 "
    "(2010), with their Eq. (18)"
)

PAPER: Final[dict[tuple[str, str], tuple[DefectValue, ...]]] = {
    ("Cu_mishin1.eam.alloy", "Cu"): (
        DefectValue("vacancy_formation_energy", 1.27, MISHIN_CU_2001, True),
        DefectValue("vacancy_migration_energy", 0.69, MISHIN_CU_2001, False),
        DefectValue("intrinsic_stacking_fault_energy", 44.4, MISHIN_CU_2001, True),
        DefectValue("unstable_stacking_fault_energy", 158.0, MISHIN_CU_2001, False),
        DefectValue("surface_energy_111", 1.239, MISHIN_CU_2001, False),
        DefectValue("surface_energy_100", 1.345, MISHIN_CU_2001, False),
        DefectValue("surface_energy_110", 1.475, MISHIN_CU_2001, False),
    ),
    # AlCu.adp: its pure Al is Mishin et al.'s 1999 Al EAM (zero Al–Al angular terms).
    ("AlCu.adp", "Al"): (
        DefectValue("vacancy_formation_energy", 0.675, _MISHIN_AL_EV, True),
        DefectValue("vacancy_migration_energy", 0.64, MISHIN_AL_1999, False),
        DefectValue("intrinsic_stacking_fault_energy", 146.0, MISHIN_AL_1999, False),
        DefectValue("unstable_stacking_fault_energy", 168.0, MISHIN_AL_1999, False),
        DefectValue("surface_energy_111", 0.870, MISHIN_AL_1999, False),
        DefectValue("surface_energy_100", 0.943, MISHIN_AL_1999, False),
        DefectValue("surface_energy_110", 1.006, MISHIN_AL_1999, False),
    ),
}
"""Values the potential's own paper reports, per (file, element)."""

_LB = "P. Ehrhart et al., Landolt-Börnstein, New Series III/25 (Springer, 1991)"
_TYSON = (
    "W. R. Tyson and W. A. Miller, Surf. Sci. 62, 267 (1977), isotropic average "
    "from liquid surface tension"
)
_CARTER = "C. B. Carter and I. L. F. Ray, Philos. Mag. 35, 189 (1977)"
_MURR = "L. E. Murr, Interfacial Phenomena in Metals and Alloys (Addison-Wesley, 1975)"
_JACCODINE = "R. J. Jaccodine, J. Electrochem. Soc. 110, 524 (1963), cleavage"

EXPERIMENT: Final[dict[str, tuple[DefectValue, ...]]] = {
    "Cu": (
        DefectValue("vacancy_formation_energy", 1.28, _LB, False),
        DefectValue("vacancy_migration_energy", 0.70, _LB, False),
        DefectValue("intrinsic_stacking_fault_energy", 45.0, _CARTER, False),
        DefectValue("surface_energy", 1.79, _TYSON, False),
    ),
    "Al": (
        DefectValue("vacancy_formation_energy", 0.67, _LB, False),
        DefectValue("vacancy_migration_energy", 0.61, _LB, False),
        DefectValue("intrinsic_stacking_fault_energy", 166.0, _MURR, False),
        DefectValue("surface_energy", 1.14, _TYSON, False),
    ),
    "Si": (DefectValue("surface_energy_111", 1.23, _JACCODINE, False),),
}
"""Experimental values per element (all recalled, none re-checked here: unverified)."""


def paper_value(potential: str | None, element: str, quantity: str) -> DefectValue | None:
    """The paper's value of ``quantity`` for the potential file and element, if recorded."""
    if potential is None:
        return None
    for value in PAPER.get((potential, element), ()):
        if value.quantity == quantity:
            return value
    return None


def experiment_value(element: str, quantity: str) -> DefectValue | None:
    """The experimental value of ``quantity`` for ``element``; a surface energy of a
    facet falls back to the isotropic average when no facet value is recorded."""
    values = {v.quantity: v for v in EXPERIMENT.get(element, ())}
    if quantity in values:
        return values[quantity]
    if quantity.startswith("surface_energy_"):
        return values.get("surface_energy")
    return None


def defect_references(
    potential: str | None, element: str, quantities: tuple[str, ...]
) -> tuple[Reference, ...]:
    """The paper's values (for the potential file), then experiment, for ``quantities``."""
    out: list[Reference] = []
    for q in quantities:
        own = paper_value(potential, element, q)
        if own is not None and potential is not None:
            out.append(own.reference(f"{potential} published"))
    for q in quantities:
        exp = experiment_value(element, q)
        if exp is not None and exp.reference("experiment") not in out:
            out.append(exp.reference("experiment"))
    return tuple(out)
