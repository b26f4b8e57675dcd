"""Structure builders: prototypes, supercells, slabs, vacancies, molecules, packed liquids."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from helpers.engines import needs
from simwright.builders import (
    BulkSpec,
    LiquidSpec,
    MoleculeSpec,
    SlabSpec,
    SupercellSpec,
    VacancySpec,
    build_bulk,
    build_structure,
    pack_liquid,
    supercell,
    vacancy,
)
from simwright.engines.packmol import min_intermolecular_distance_a
from simwright.errors import ValidationError
from simwright.structure import Structure


def nearest_neighbour_a(s: Structure) -> float:
    """The shortest interatomic distance, periodic images included."""
    atoms = s.to_ase()
    d = atoms.get_all_distances(mic=True)
    return float(d[d > 1e-6].min()) if len(s) > 1 else float(np.linalg.norm(s.cell, axis=1).min())


@pytest.mark.parametrize(
    ("spec", "atoms", "nn"),
    [
        (BulkSpec("Cu", "fcc", 3.6, cubic=True), 4, 3.6 / np.sqrt(2)),
        (BulkSpec("Fe", "bcc", 2.87, cubic=True), 2, 2.87 * np.sqrt(3) / 2),
        (BulkSpec("Si", "diamond", 5.43, cubic=True), 8, 5.43 * np.sqrt(3) / 4),
        (BulkSpec("Po", "sc", 3.35), 1, 3.35),
        (BulkSpec("NaCl", "rocksalt", 5.64, cubic=True), 8, 5.64 / 2),
        (BulkSpec("GaAs", "zincblende", 5.65), 2, 5.65 * np.sqrt(3) / 4),
        (BulkSpec("Mg", "hcp", 3.21, c_over_a=(8 / 3) ** 0.5), 2, 3.21),
    ],
)
def test_prototypes_have_their_atoms_and_nearest_neighbour_distance(
    spec: BulkSpec, atoms: int, nn: float
) -> None:
    s = build_bulk(spec)
    assert len(s) == atoms
    assert nearest_neighbour_a(s) == pytest.approx(nn, rel=1e-6)


def test_reference_state_fills_prototype_and_lattice_constant() -> None:
    s = build_bulk(BulkSpec("Cu", cubic=True))
    assert s.formula == "Cu4" and s.cell[0, 0] == pytest.approx(3.61)
    assert BulkSpec("Al").resolved()[0] == "fcc"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (BulkSpec("NaCl", "rocksalt"), "give a_a"),
        (BulkSpec("Cu", "rocksalt", 3.6), "binary compound"),
        (BulkSpec("NaCl", "fcc", 5.6), "one element"),
        (BulkSpec("Mg", "hcp", 3.2, cubic=True), "no conventional cubic cell"),
        (BulkSpec("Xx"), "not an element"),
    ],
)
def test_bad_bulk_specs_are_refused_with_a_reason(spec: BulkSpec, message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        build_bulk(spec)


def test_supercell_repeats_atoms_and_volume() -> None:
    base = build_bulk(BulkSpec("Cu", "fcc", 3.6, cubic=True))
    big = supercell(base, (2, 3, 1))
    assert len(big) == 24
    assert big.volume_a3 == pytest.approx(6 * (base.volume_a3 or 0))
    assert nearest_neighbour_a(big) == pytest.approx(nearest_neighbour_a(base))
    with pytest.raises(ValidationError, match="three positive integers"):
        supercell(base, (0, 1, 1))


def test_slab_has_vacuum_along_z_and_bulk_spacing_in_plane() -> None:
    spec = SlabSpec(BulkSpec("Cu", "fcc", 3.6), (1, 0, 0), layers=3, vacuum_a=12.0, repeat=(2, 2))
    slab = build_structure(spec)
    z = slab.positions[:, 2]
    assert len(slab) == 2 * 2 * 3 * 4
    assert slab.cell[2, 2] - (z.max() - z.min()) == pytest.approx(12.0)
    assert len(np.unique(np.round(z, 3))) == 6  # two (100) planes per conventional cell
    assert nearest_neighbour_a(slab) == pytest.approx(3.6 / np.sqrt(2))
    with pytest.raises(ValidationError, match="too thin"):
        build_structure(SlabSpec(BulkSpec("Cu"), vacuum_a=2.0))
    with pytest.raises(ValidationError, match="not all zero"):
        build_structure(SlabSpec(BulkSpec("Cu"), miller=(0, 0, 0)))


def test_vacancy_removes_one_atom_and_keeps_the_cell() -> None:
    host = SupercellSpec(BulkSpec("Cu", "fcc", 3.6, cubic=True), (2, 2, 2))
    defect = build_structure(VacancySpec(host, index=5))
    perfect = build_structure(host)
    assert len(defect) == len(perfect) - 1
    assert np.allclose(defect.cell, perfect.cell)
    assert not np.any(np.all(np.isclose(defect.positions, perfect.positions[5]), axis=1))
    with pytest.raises(ValidationError, match="no atom 40"):
        vacancy(perfect, 40)


def test_molecule_is_centred_with_vacuum_to_its_images() -> None:
    water = build_structure(MoleculeSpec("spce_water", vacuum_a=8.0))
    assert water.formula == "H2O" and water.pbc == (False, False, False)
    centre = (water.positions.max(axis=0) + water.positions.min(axis=0)) / 2
    assert np.allclose(centre, np.diag(water.cell) / 2)
    extent = water.positions.max(axis=0) - water.positions.min(axis=0)
    assert water.cell[0, 0] == pytest.approx(extent.max() + 8.0)


@needs("packmol")
def test_packed_liquid_has_the_molecules_at_the_density(tmp_path: Path) -> None:
    spec = LiquidSpec((("spce_water", 30),), density_g_cm3=1.0, seed=3)
    result = pack_liquid(spec, tmp_path)
    s = result.structure
    assert s.formula == "H60O30" and result.call.engine == "packmol"
    mass_g = s.masses_amu.sum() / 6.02214076e23
    assert mass_g / ((s.volume_a3 or 0) * 1e-24) == pytest.approx(1.0, rel=0.01)
    assert min_intermolecular_distance_a(s) > 1.5
    assert spec.describe() == "30 × spce_water"
