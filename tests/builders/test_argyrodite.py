"""Argyrodite Li6PS5Cl from its published positions: composition, the half-occupied
Li sublattice, the seeded Cl/S exchange between 4a and 4c, and refusals."""

from __future__ import annotations

import numpy as np
import pytest

from simwright.builders.argyrodite import ArgyroditeSpec, anion_exchange, build_argyrodite
from simwright.errors import ValidationError


def _min_distance(structure, symbols: set[str]) -> float:  # type: ignore[no-untyped-def]
    atoms = structure.to_ase()
    picked = [i for i, s in enumerate(atoms.get_chemical_symbols()) if s in symbols]
    d = atoms.get_all_distances(mic=True)[np.ix_(picked, picked)]
    return float(d[np.triu_indices(len(picked), 1)].min())


def test_the_ordered_cell_is_li24p4s20cl4_with_cl_on_4a() -> None:
    cell = build_argyrodite(ArgyroditeSpec())
    assert len(cell) == 52 and all(cell.pbc)
    assert {s: cell.symbols.count(s) for s in ("Li", "P", "S", "Cl")} == {
        "Li": 24,
        "P": 4,
        "S": 20,
        "Cl": 4,
    }
    assert anion_exchange(cell, (1, 1, 1)) == 0.0
    # one Li of each close 48h pair is kept: no two Li closer than the pair distance
    assert _min_distance(cell, {"Li"}) > 2.0
    # the PS4 tetrahedra: P-S 2.05 Å by construction
    assert _min_distance(cell, {"P", "S"}) == pytest.approx(2.05, abs=0.01)


@pytest.mark.parametrize(("fraction", "expected"), [(0.5, 0.5), (0.25, 0.25), (1.0, 1.0)])
def test_the_stated_fraction_of_cl_changes_places_with_s(fraction: float, expected: float) -> None:
    cell = build_argyrodite(ArgyroditeSpec(exchange=fraction, seed=3))
    assert anion_exchange(cell, (1, 1, 1)) == expected
    assert cell.symbols.count("Cl") == 4 and cell.symbols.count("S") == 20


def test_a_supercell_keeps_the_fraction_and_a_seed_repeats_the_draw() -> None:
    spec = ArgyroditeSpec(repeat=(2, 1, 1), exchange=0.5, seed=7)
    big = build_argyrodite(spec)
    assert len(big) == 104 and anion_exchange(big, (2, 1, 1)) == 0.5
    assert build_argyrodite(spec).symbols == big.symbols


def test_an_exchange_outside_0_to_1_is_refused() -> None:
    with pytest.raises(ValidationError, match="fraction of the Cl sites"):
        build_argyrodite(ArgyroditeSpec(exchange=1.5))
