"""The Structure value object and its sanity summary."""

from __future__ import annotations

import numpy as np
import pytest
from ase.build import bulk, molecule

from simwright.errors import StructureError
from simwright.graph import codec
from simwright.structure import Structure


def test_round_trip_through_ase_keeps_everything() -> None:
    atoms = bulk("Cu", "fcc", a=3.6, cubic=True)
    s = Structure.from_ase(atoms)
    back = s.to_ase()
    assert back.get_chemical_formula() == "Cu4"
    assert np.allclose(back.get_cell(), atoms.get_cell())
    assert s == Structure.from_ase(back)
    assert s.content_hash() == Structure.from_ase(back).content_hash()


def test_structure_is_immutable() -> None:
    s = Structure.from_ase(bulk("Cu", "fcc", a=3.6))
    with pytest.raises(ValueError):
        s.positions[0, 0] = 1.0
    with pytest.raises(AttributeError):
        s.symbols = ("Ag",)  # type: ignore[misc]


def test_sanity_summary_of_copper() -> None:
    summary = Structure.from_ase(bulk("Cu", "fcc", a=3.615, cubic=True)).sanity()
    assert summary.composition == {"Cu": 4}
    assert summary.volume_a3 == pytest.approx(3.615**3)
    assert summary.density_g_cm3 == pytest.approx(8.93, abs=0.02)  # handbook density of Cu
    assert summary.pbc == (True, True, True)
    assert summary.ok and summary.min_distance_a == pytest.approx(3.615 / 2**0.5, rel=1e-6)


def test_close_pairs_fail_the_check_including_across_the_boundary() -> None:
    cell = np.eye(3) * 5.0
    s = Structure(("Ar", "Ar"), [[0.1, 0, 0], [4.8, 0, 0]], cell, (True, True, True))
    summary = s.sanity()
    assert len(summary.close_pairs) == 1
    assert summary.close_pairs[0].distance_a == pytest.approx(0.3)
    with pytest.raises(StructureError, match=r"closer than 0\.55"):
        s.check()
    apart = Structure(("Ar", "Ar"), [[0.1, 0, 0], [4.8, 0, 0]], cell, (False, False, False))
    assert apart.sanity().ok


def test_molecule_without_cell_has_no_volume() -> None:
    s = Structure.from_ase(molecule("H2O"))
    summary = s.sanity()
    assert summary.volume_a3 is None and summary.density_g_cm3 is None
    assert summary.formula == "H2O"
    assert "no cell" in summary.text()


def test_unknown_elements_and_bad_shapes_are_refused() -> None:
    with pytest.raises(StructureError, match="unknown element"):
        Structure(("Xx",), [[0, 0, 0]])
    with pytest.raises(StructureError, match="shape"):
        Structure(("Ar", "Ar"), [[0, 0, 0]])
    with pytest.raises(StructureError, match="non-zero volume"):
        Structure(("Ar",), [[0, 0, 0]], np.zeros((3, 3)), (True, True, True))


def test_codec_round_trips_structures_with_molecule_ids() -> None:
    s = Structure(("O", "H", "H"), [[0, 0, 0], [1, 0, 0], [0, 1, 0]], molecule_ids=(1, 1, 1))
    back = codec.loads(codec.dumps(s))
    assert back == s and back.molecule_ids == (1, 1, 1)
