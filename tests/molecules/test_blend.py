"""Salt in solvent blends: counts, ratio bases and molarity conversion."""

from __future__ import annotations

import pytest

from simwright.errors import ValidationError
from simwright.molecules import get_molecule
from simwright.molecules.blend import (
    electrolyte_in_blend,
    molality_from_molarity,
    solvent_mole_fractions,
)

LI, PF6 = get_molecule("li+"), get_molecule("pf6-")
EC, DMC = get_molecule("ec"), get_molecule("dmc")


def test_one_solvent_matches_the_molality_inside_the_window() -> None:
    comp = electrolyte_in_blend(LI, PF6, [DMC], [1.0], 1.0, atom_window=(950, 1150))
    assert 950 <= comp.n_atoms <= 1150
    assert comp.n_cations == comp.n_anions == comp.n_salt
    assert comp.molality_mol_kg == pytest.approx(1.0, abs=0.02)
    ((_dmc, n),) = comp.solvents
    assert comp.n_atoms == n * 12 + comp.n_salt * 8


def test_mass_ratio_3_7_gives_ec_dmc_counts_with_30_percent_ec_by_mass() -> None:
    x = solvent_mole_fractions([EC, DMC], [3, 7], "mass")
    assert x[0] == pytest.approx((3 / 88.06) / (3 / 88.06 + 7 / 90.08), rel=1e-3)
    comp = electrolyte_in_blend(LI, PF6, [EC, DMC], x, 1.0, atom_window=(950, 1150))
    assert comp.solvent_mass_fractions[0] == pytest.approx(0.3, abs=0.02)
    assert comp.molality_mol_kg == pytest.approx(1.0, abs=0.03)


def test_volume_ratio_uses_pure_densities_and_mole_ratio_is_direct() -> None:
    by_volume = solvent_mole_fractions([EC, DMC], [1, 1], "volume")
    by_mass = solvent_mole_fractions([EC, DMC], [1.321, 1.063], "mass")
    assert by_volume == pytest.approx(by_mass)
    assert solvent_mole_fractions([EC, DMC], [1, 3], "mole") == pytest.approx((0.25, 0.75))


def test_molarity_becomes_molality_through_the_stated_density() -> None:
    # 1 mol/L of a 151.9 g/mol salt in 1.2 kg/L of solution: 1.0481 kg of solvent per litre
    assert molality_from_molarity(1.0, 1.2, 151.9) == pytest.approx(1 / 1.0481, rel=1e-4)
    with pytest.raises(ValidationError, match="weighs more"):
        molality_from_molarity(5.0, 0.5, 151.9)


def test_refusals_name_the_problem() -> None:
    with pytest.raises(ValidationError, match="one positive number per solvent"):
        solvent_mole_fractions([EC, DMC], [1], "mass")
    with pytest.raises(ValidationError, match="between 10 and 12 atoms"):
        electrolyte_in_blend(LI, PF6, [DMC], [1.0], 1.0, atom_window=(10, 12))
