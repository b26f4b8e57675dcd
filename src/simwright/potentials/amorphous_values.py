"""Measured structure of amorphous and crystalline silicon, cited, for the melt–quench
protocol's report.

Values recalled from the literature but not checked against the paper in this project
carry ``verified=False`` and the report says "unverified". Only silicon is recorded;
for other elements the report says that no reference is recorded.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from simwright.potentials.thermal_values import CRC, UNVERIFIED
from simwright.results import Reference

CUSTER_1994: Final = (
    "J. S. Custer, M. O. Thompson, D. C. Jacobson, J. M. Poate, S. Roorda, W. C. Sinke and "
    "F. Spaepen, Appl. Phys. Lett. 64, 437 (1994)"
)
LAAZIRI_1999: Final = (
    "K. Laaziri, S. Kycia, S. Roorda, M. Chicoine, J. L. Robertson, J. Wang and S. C. Moss, "
    "Phys. Rev. Lett. 82, 3460 (1999)"
)


@dataclass(frozen=True)
class StructureValue:
    """One measured value: element, quantity (a result key), value, unit, source."""

    element: str
    quantity: str
    value: float
    unit: str
    citation: str
    verified: bool = True

    def reference(self) -> Reference:
        """The value as a :class:`Reference` of a report."""
        mark = "" if self.verified else UNVERIFIED
        return Reference(self.quantity, self.value, self.unit, f"{self.citation}{mark}")


VALUES: Final[tuple[StructureValue, ...]] = (
    # Custer et al. (1994): amorphous Si made by ion implantation is 1.8 ± 0.1 % less dense
    # than the crystal (2.329 g/cm³); the recorded value is 0.982 × 2.329.
    StructureValue(
        "Si", "density", 2.287, "g/cm^3", f"experiment, a-Si: {CUSTER_1994}", verified=False
    ),
    # Laaziri et al. (1999), X-ray diffraction of pure a-Si: coordination 3.88 after
    # annealing (3.79 as implanted); first-neighbour distance 2.35 Å.
    StructureValue(
        "Si",
        "coordination",
        3.88,
        "1",
        f"experiment, annealed a-Si (3.79 as implanted): {LAAZIRI_1999}",
        verified=False,
    ),
    StructureValue(
        "Si", "first_peak", 2.35, "Å", f"experiment, a-Si: {LAAZIRI_1999}", verified=False
    ),
    StructureValue("Si", "crystal_density", 2.329, "g/cm^3", f"experiment, c-Si: {CRC}"),
)
"""The recorded values."""


def amorphous_references(element: str) -> tuple[Reference, ...]:
    """The recorded values for ``element`` (empty when none is recorded)."""
    return tuple(v.reference() for v in VALUES if v.element == element)
