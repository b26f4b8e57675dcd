"""ClayFF charges and the relative-humidity conversion of SPC/E water."""

from __future__ import annotations

import math

import pytest

from simwright.errors import ValidationError
from simwright.forcefields.clayff import CLAY_TYPES, IONS, SUBSTITUTION_CHARGE_E, WATER_TYPES
from simwright.forcefields.spce_vapour import (
    P_SAT_SPCE_BAR,
    humidity_pressure_bar,
    saturation_pressure_bar,
)


def test_pyrophyllite_formula_unit_is_neutral_and_mg_substitution_costs_one_charge() -> None:
    q = {name: t.charge_e for name, t in CLAY_TYPES.items()}
    formula = 2 * q["ao"] + 4 * q["st"] + 10 * q["ob"] + 2 * (q["oh"] + q["ho"])
    assert formula == pytest.approx(0.0, abs=1e-12)
    assert pytest.approx(-0.9998, abs=1e-9) == SUBSTITUTION_CHARGE_E
    assert IONS["Ca"].charge_e == 2.0 and IONS["Na"].sigma_a == pytest.approx(2.350, abs=1e-3)
    assert WATER_TYPES["OW"].charge_e + 2 * WATER_TYPES["HW"].charge_e == pytest.approx(0.0)


def test_relative_humidity_is_rh_times_the_spce_saturation_pressure() -> None:
    assert saturation_pressure_bar(300.0) == pytest.approx(1.017e-2)
    assert humidity_pressure_bar(0.9, 300.0) == pytest.approx(0.9 * 1.017e-2)
    assert humidity_pressure_bar(0.1, 300.0) == pytest.approx(1.017e-3)
    between = saturation_pressure_bar(310.0)
    assert P_SAT_SPCE_BAR[300.0] < between < P_SAT_SPCE_BAR[325.0]


def test_the_saturated_vapour_is_ideal_so_the_fugacity_coefficient_is_one() -> None:
    # NIST SAT-TMMC at 300 K: p_sat = 1.017e-2 bar, vapour density 7.373e-3 kg/m3.
    ideal_density = 1.017e3 * 18.015e-3 / (8.314462618 * 300.0)
    assert ideal_density == pytest.approx(7.373e-3, rel=0.01)


@pytest.mark.parametrize(("rh", "t"), [(0.5, 250.0), (0.0, 300.0), (1.2, 300.0)])
def test_conversions_outside_the_data_are_refused(rh: float, t: float) -> None:
    with pytest.raises(ValidationError):
        humidity_pressure_bar(rh, t)
    assert math.isfinite(saturation_pressure_bar(400.0))
