"""Saturation vapour pressure of SPC/E water, and relative humidity as a reservoir pressure.

Values: NIST Standard Reference Simulation Website, "SAT-TMMC: Liquid-vapor
coexistence properties — SPC/E water (LRC)" (grand-canonical transition-matrix
Monte Carlo with histogram reweighting; LJ cut at 10 Å with analytic tail
corrections, Ewald electrostatics). At 300 K it gives p_sat = 1.017e-2 bar
(± 4.5e-5) with a vapour density of 7.373e-3 kg/m³, which an ideal gas at
300 K and 1.017 kPa also has (7.35e-3 kg/m³): at these pressures the vapour is
ideal, so a GCMC reservoir at p = RH · p_sat with fugacity coefficient 1 is the
treatment used here. The campaign's water model truncates LJ at 12 Å without a
tail correction; the small difference in p_sat this makes is not corrected.

Between the tabulated temperatures ln p_sat is interpolated linearly in 1/T;
outside 300–400 K the conversion is refused.
"""

from __future__ import annotations

import itertools
import math
from typing import Final

from simwright.errors import ValidationError

NIST_SPCE_SAT_REFERENCE: Final = (
    "NIST Standard Reference Simulation Website, SAT-TMMC liquid-vapor coexistence "
    "properties of SPC/E water (LRC), https://www.nist.gov/mml/csd/chemical-informatics-"
    "group/sat-tmmc-liquid-vapor-coexistence-properties-spce-water-lrc"
)

P_SAT_SPCE_BAR: Final = {
    300.0: 1.017e-2,
    325.0: 4.551e-2,
    350.0: 1.599e-1,
    375.0: 4.635e-1,
    400.0: 1.157,
}
"""Saturation pressure of SPC/E water (bar) by temperature (K), NIST SAT-TMMC."""

BAR_PER_ATM: Final = 1.01325


def saturation_pressure_bar(temperature_k: float) -> float:
    """p_sat of SPC/E water (bar) at ``temperature_k`` (300–400 K)."""
    temps = sorted(P_SAT_SPCE_BAR)
    if not temps[0] - 1e-9 <= temperature_k <= temps[-1] + 1e-9:
        raise ValidationError(
            f"no SPC/E saturation pressure at {temperature_k} K: tabulated for "
            f"{temps[0]:g}–{temps[-1]:g} K ({NIST_SPCE_SAT_REFERENCE})"
        )
    for low, high in itertools.pairwise(temps):
        if temperature_k <= high + 1e-9:
            x = (1 / temperature_k - 1 / low) / (1 / high - 1 / low)
            ln_p = (1 - x) * math.log(P_SAT_SPCE_BAR[low]) + x * math.log(P_SAT_SPCE_BAR[high])
            return math.exp(ln_p)
    return P_SAT_SPCE_BAR[temps[-1]]


def humidity_pressure_bar(relative_humidity: float, temperature_k: float) -> float:
    """Reservoir pressure (bar) of water vapour at ``relative_humidity`` (0–1): RH · p_sat."""
    if not 0 < relative_humidity <= 1:
        raise ValidationError(f"relative humidity must lie in (0, 1], got {relative_humidity}")
    return relative_humidity * saturation_pressure_bar(temperature_k)
