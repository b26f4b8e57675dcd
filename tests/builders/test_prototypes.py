"""The prototypes built without ase.build are the crystals ase.build.bulk builds."""

from __future__ import annotations

import numpy as np
import pytest
from ase.build import bulk as ase_bulk

from simwright.builders.prototypes import bulk

CASES = [
    ("Po", "sc", {}),
    ("Cu", "fcc", {}),
    ("Fe", "bcc", {}),
    ("Mg", "hcp", {"c": 5.21}),
    ("Si", "diamond", {}),
    ("NaCl", "rocksalt", {}),
    ("GaAs", "zincblende", {}),
]


@pytest.mark.parametrize("cubic", [False, True])
@pytest.mark.parametrize(("formula", "prototype", "extra"), CASES)
def test_same_cell_atoms_and_order_as_ase(
    formula: str, prototype: str, extra: dict[str, float], cubic: bool
) -> None:
    if cubic and prototype == "hcp":
        pytest.skip("hcp has no conventional cubic cell")
    ours = bulk(formula, prototype, a=3.7, cubic=cubic, **extra)
    theirs = ase_bulk(formula, prototype, a=3.7, cubic=cubic, **extra)
    assert ours.get_chemical_symbols() == theirs.get_chemical_symbols()
    np.testing.assert_allclose(ours.cell[:], theirs.cell[:], atol=1e-12)
    np.testing.assert_allclose(ours.positions, theirs.positions, atol=1e-12)
    assert ours.pbc.all()


@pytest.mark.parametrize(
    ("formula", "prototype"),
    [
        ("NaCl", "fcc"),
        ("Cu", "rocksalt"),
        ("Xx", "fcc"),
        ("NaCl2", "rocksalt"),
        ("Cu", "unknown"),
        ("Mg", "hcp"),
    ],
)
def test_formula_that_does_not_fit_is_refused(formula: str, prototype: str) -> None:
    with pytest.raises(ValueError, match=r"element|needs|prototype|height|[Uu]nknown"):
        bulk(formula, prototype, a=4.0)


def test_other_prototypes_are_built_by_ase() -> None:
    ours = bulk("ZnO", "wurtzite", a=3.25, c=5.2)
    assert (
        ours.get_chemical_symbols()
        == ase_bulk("ZnO", "wurtzite", a=3.25, c=5.2).get_chemical_symbols()
    )
