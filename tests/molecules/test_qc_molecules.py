"""The spin rule of quantum-chemistry molecules and the species table."""

from __future__ import annotations

import pytest

from simwright.errors import ValidationError
from simwright.molecules.qc import spin_multiplicity
from simwright.molecules.species import find_species


def test_even_counts_are_assumed_singlets_odd_counts_need_a_multiplicity() -> None:
    assert spin_multiplicity("water", ("O", "H", "H"), 0, None) == (1, True)
    assert spin_multiplicity("O2", ("O", "O"), 0, 3) == (3, False)
    with pytest.raises(ValidationError, match="odd count"):
        spin_multiplicity("methyl", ("C", "H", "H", "H"), 0, None)
    with pytest.raises(ValidationError, match="impossible"):
        spin_multiplicity("water", ("O", "H", "H"), 0, 2)


def test_species_by_alias_and_refusal_with_the_fix() -> None:
    assert find_species("H2O").name == "water"
    assert find_species("oxygen").multiplicity == 3
    with pytest.raises(ValidationError, match="give a SMILES"):
        find_species("unobtainium")
