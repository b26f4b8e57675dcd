"""Published model values and experiments the liquid protocols compare with.

Facts with their sources; the comparison is printed in reports, never used to change
a result. Values marked "≈" are read from a published table or figure to the digits
given; they are for orientation, not for a benchmark target.
"""

from __future__ import annotations

from typing import Final

from simwright.results import Reference

VEGA_ABASCAL_2011: Final = (
    "C. Vega, J. L. F. Abascal, Phys. Chem. Chem. Phys. 13, 19663 (2011), Table 2"
)
GONZALEZ_ABASCAL_2010: Final = "M. A. González, J. L. F. Abascal, J. Chem. Phys. 132, 096101 (2010)"
WATER_DENSITY_EXPERIMENT: Final = Reference(
    "density",
    0.99705,
    "g/cm^3",
    "experiment, water at 298.15 K, 1 bar: W. Wagner, A. Pruss, J. Phys. Chem. Ref. Data "
    "31, 387 (2002) (IAPWS-95)",
)
WATER_VISCOSITY_EXPERIMENT: Final = Reference(
    "viscosity",
    0.890,
    "mPa*s",
    "experiment, water at 298.15 K, 0.1 MPa: M. L. Huber et al., J. Phys. Chem. Ref. Data "
    "38, 101 (2009)",
)

DENSITY: Final[dict[str, tuple[Reference, ...]]] = {
    "spce_water": (
        Reference("density", 0.994, "g/cm^3", f"SPC/E at 298 K, 1 bar: {VEGA_ABASCAL_2011}"),
        WATER_DENSITY_EXPERIMENT,
    ),
    "tip4p2005_water": (
        Reference("density", 0.993, "g/cm^3", f"TIP4P/2005 at 298 K, 1 bar: {VEGA_ABASCAL_2011}"),
        WATER_DENSITY_EXPERIMENT,
    ),
    "tip3p_water": (
        Reference("density", 0.980, "g/cm^3", f"TIP3P at 298 K, 1 bar: {VEGA_ABASCAL_2011}"),
        WATER_DENSITY_EXPERIMENT,
    ),
    **{
        name: (
            Reference("density", rho, "g/cm^3", f"experiment, {name} at 298.15 K, 1 atm: {src}"),
        )
        for name, rho, src in (
            ("methanol", 0.7866, "CRC Handbook of Chemistry and Physics (≈, ±0.001)"),
            ("ethanol", 0.7849, "CRC Handbook of Chemistry and Physics (≈, ±0.001)"),
            ("acetonitrile", 0.7766, "CRC Handbook of Chemistry and Physics (≈, ±0.001)"),
        )
    },
}
"""Densities at 298 K and 1 bar (the models' own values were computed with Ewald sums
and long-range LJ corrections; simwright's SPC/E and TIP4P/2005 run with the LJ tail
correction, as published, while TIP3P has none, which lowers its density by a few tenths
of a percent to about one percent)."""

VISCOSITY: Final[dict[str, tuple[Reference, ...]]] = {
    "spce_water": (
        Reference("viscosity", 0.729, "mPa*s", f"SPC/E at 298 K: {GONZALEZ_ABASCAL_2010}"),
        WATER_VISCOSITY_EXPERIMENT,
    ),
    "tip4p2005_water": (
        Reference("viscosity", 0.855, "mPa*s", f"TIP4P/2005 at 298 K: {GONZALEZ_ABASCAL_2010}"),
        WATER_VISCOSITY_EXPERIMENT,
    ),
    "tip3p_water": (
        Reference("viscosity", 0.321, "mPa*s", f"TIP3P at 298 K: {GONZALEZ_ABASCAL_2010}"),
        WATER_VISCOSITY_EXPERIMENT,
    ),
}
"""Shear viscosities at 298 K and 1 bar."""

RDF_FIRST_PEAK: Final[dict[str, tuple[Reference, ...]]] = {
    "water": (
        Reference(
            "first_peak_position",
            2.80,
            "Å",
            "experiment (X-ray), g_OO of water at 298 K: L. B. Skinner et al., J. Chem. Phys. "
            "138, 074506 (2013)",
        ),
        Reference(
            "first_peak_height",
            2.57,
            "1",
            "experiment (X-ray), g_OO of water at 298 K: L. B. Skinner et al., J. Chem. Phys. "
            "138, 074506 (2013)",
        ),
    ),
    "lj_argon": (
        Reference(
            "first_peak_position",
            3.71,
            "Å",
            "≈ 1.09 σ, LJ fluid near ρσ³ = 0.844, k_BT/ε = 0.72: L. Verlet, Phys. Rev. 165, "
            "201 (1968)",
        ),
        Reference(
            "first_peak_height",
            3.0,
            "1",
            "≈, LJ fluid near ρσ³ = 0.844, k_BT/ε = 0.72: L. Verlet, Phys. Rev. 165, 201 (1968)",
        ),
    ),
}
"""First peak of g(r): O–O for water, Ar–Ar for argon."""

NACL_CONDUCTIVITY_1200K: Final = Reference(
    "conductivity",
    3.95,
    "S/cm",
    "experiment, molten NaCl at 1200 K, from the correlation κ(T) of G. J. Janz et al., "
    "J. Phys. Chem. Ref. Data 8, 791 (1979) (≈, value of the correlation at 1200 K)",
)
"""Measured conductivity of molten NaCl near 1200 K."""

DIFFUSION: Final[dict[str, tuple[Reference, ...]]] = {
    "tip3p_water": (
        Reference(
            "diffusion_coefficient",
            5.19,
            "1e-5 cm^2/s",
            "TIP3P at 298 K: P. Mark and L. Nilsson, J. Phys. Chem. A 105, 9954 (2001)",
        ),
    ),
    "tip4p2005_water": (
        Reference(
            "diffusion_coefficient",
            2.08,
            "1e-5 cm^2/s",
            "TIP4P/2005 at 298 K: J. L. F. Abascal, C. Vega, J. Chem. Phys. 123, 234505 (2005)",
        ),
    ),
}
"""Self-diffusion coefficients of the water models beyond SPC/E (experiment: Mills 1973)."""

BERTA_2020: Final = (
    "D. Berta, D. Ferenc, I. Bakó, Á. Madarász, J. Chem. Theory Comput. 16, 3316 (2020), "
    "Table 1 (298.15 K, 1 atm)"
)
WATER_CP_EXPERIMENT: Final = Reference(
    "heat_capacity_p", 75.4, "J/(mol*K)", f"experiment, liquid water, as listed in {BERTA_2020}"
)
WATER_ALPHA_EXPERIMENT: Final = Reference(
    "thermal_expansion",
    2.57e-4,
    "1/K",
    "experiment, water at 25 °C, 1 atm (IAPWS-95, W. Wagner, A. Pruss, J. Phys. Chem. Ref. "
    "Data 31, 387 (2002); value from standard tables, not re-checked here)",
)

THERMAL_PROPERTIES: Final[dict[str, tuple[Reference, ...]]] = {
    "tip4p2005_water": (
        Reference(
            "heat_capacity_p",
            87.1,
            "J/(mol*K)",
            f"rigid TIP4P/2005, classical MD: {BERTA_2020} (other classical values there: "
            "85.5 and 89)",
            0.6,
        ),
        WATER_CP_EXPERIMENT,
        WATER_ALPHA_EXPERIMENT,
    ),
    "spce_water": (
        Reference(
            "heat_capacity_p",
            87.3,
            "J/(mol*K)",
            f"rigid SPC/E, classical (2PT): as listed in {BERTA_2020} (also 87 and 87.4)",
        ),
        WATER_CP_EXPERIMENT,
        WATER_ALPHA_EXPERIMENT,
    ),
    "tip3p_water": (WATER_CP_EXPERIMENT, WATER_ALPHA_EXPERIMENT),
}
"""C_p and α at 298 K and 1 atm. Classical rigid models lack the quantum corrections of
the librations and overestimate C_p by ≈ 12 J/(mol·K); compare with the classical value.
No verified reference is recorded for LJ argon (the 2.5σ shifted model differs from the
full LJ fluid of the equations of state)."""
