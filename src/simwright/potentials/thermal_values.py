"""Finite-temperature properties of a few catalogued potentials and of experiment, cited.

The solid-state MD protocols compare with these: the melting point, linear thermal
expansion coefficient, heat capacity and lattice thermal conductivity. A value is
recorded only with its source; values recalled from the literature but not checked
against the paper in this project carry ``verified=False`` and the report says
"unverified". Nothing is recorded that could not be attributed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from simwright.potentials.published import MISHIN_CU_2001
from simwright.results import Reference

UNVERIFIED: Final = " [unverified: recalled, not checked against the paper]"
"""What a reference's citation says when its value was recalled, not re-read."""

THERMAL_UNITS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "melting_point": "K",
        "thermal_expansion": "1/K",
        "heat_capacity": "J/(mol K)",
        "thermal_conductivity": "W/(m K)",
    }
)
"""The properties recorded, with their units (heat capacity at constant pressure, per mole)."""


@dataclass(frozen=True)
class ThermalValue:
    """One recorded value: whose (a potential file or "experiment"), what, and from where."""

    source: str
    element: str
    quantity: str
    value: float
    temperature_k: float | None
    citation: str
    verified: bool = True

    def reference(self) -> Reference:
        """The value as a :class:`Reference` of a report."""
        at = f" at {self.temperature_k:g} K" if self.temperature_k is not None else ""
        mark = "" if self.verified else UNVERIFIED
        who = "experiment" if self.source == "experiment" else f"{self.source} published"
        return Reference(
            self.quantity,
            self.value,
            THERMAL_UNITS[self.quantity],
            f"{who}{at}: {self.citation}{mark}",
        )


CRC: Final = "CRC Handbook of Chemistry and Physics, 97th ed. (CRC Press, 2016)"
TOULOUKIAN: Final = (
    "Y. S. Touloukian, R. K. Kirby, R. E. Taylor and P. D. Desai, Thermal Expansion: "
    "Metallic Elements and Alloys, TPRC Data Series Vol. 12 (Plenum, 1975)"
)
GLASSBRENNER_SLACK: Final = "C. J. Glassbrenner and G. A. Slack, Phys. Rev. 134, A1058 (1964)"
BROUGHTON_LI: Final = "J. Q. Broughton and X. P. Li, Phys. Rev. B 35, 9120 (1987)"

VALUES: Final[tuple[ThermalValue, ...]] = (
    # Mishin et al. (2001) computed the melting point of EAM1 by solid–liquid coexistence;
    # 1327 K is the value NIST's repository and later papers quote; not re-read here.
    ThermalValue(
        "Cu_mishin1.eam.alloy", "Cu", "melting_point", 1327.0, None, MISHIN_CU_2001, False
    ),
    # Broughton and Li (1987): free-energy melting point of Stillinger–Weber Si, 1691 ± 20 K.
    ThermalValue("Si.sw", "Si", "melting_point", 1691.0, None, BROUGHTON_LI, False),
    ThermalValue("experiment", "Cu", "melting_point", 1357.77, None, CRC),
    ThermalValue("experiment", "Al", "melting_point", 933.47, None, CRC),
    ThermalValue("experiment", "Si", "melting_point", 1687.0, None, CRC),
    ThermalValue("experiment", "Ni", "melting_point", 1728.0, None, CRC),
    ThermalValue("experiment", "Ag", "melting_point", 1234.93, None, CRC),
    ThermalValue("experiment", "Au", "melting_point", 1337.33, None, CRC),
    ThermalValue("experiment", "Cu", "thermal_expansion", 16.5e-6, 300.0, TOULOUKIAN),
    ThermalValue("experiment", "Al", "thermal_expansion", 23.1e-6, 300.0, TOULOUKIAN),
    ThermalValue("experiment", "Si", "thermal_expansion", 2.6e-6, 300.0, CRC),
    ThermalValue("experiment", "Cu", "heat_capacity", 24.44, 298.15, CRC),
    ThermalValue("experiment", "Al", "heat_capacity", 24.20, 298.15, CRC),
    ThermalValue("experiment", "Si", "heat_capacity", 20.00, 298.15, CRC),
    ThermalValue("experiment", "Si", "thermal_conductivity", 148.0, 300.0, CRC),
    ThermalValue(
        "experiment", "Si", "thermal_conductivity", 156.0, 300.0, GLASSBRENNER_SLACK, False
    ),
)
"""Recorded values. Stillinger and Weber's own paper (Phys. Rev. B 31, 5262 (1985)) gives no
thermal conductivity; published NEMD/Green–Kubo values for it (e.g. P. K. Schelling,
S. R. Phillpot and P. Keblinski, Phys. Rev. B 65, 144306 (2002)) depend on size and
method and are not recorded here (not checked)."""


def thermal_references(
    element: str, potential: str, quantities: tuple[str, ...]
) -> tuple[Reference, ...]:
    """The recorded values of ``potential`` and experiment for ``element``, potential first."""
    own = [v for v in VALUES if v.source == potential and v.element == element]
    exp = [v for v in VALUES if v.source == "experiment" and v.element == element]
    return tuple(v.reference() for v in (*own, *exp) if v.quantity in quantities)


def recorded(element: str, source: str, quantity: str) -> ThermalValue | None:
    """The first recorded value of ``quantity`` for ``element`` from ``source``."""
    for v in VALUES:
        if (v.element, v.source, v.quantity) == (element, source, quantity):
            return v
    return None
