"""The molecule library, user xyz molecules, van der Waals volumes and compositions."""

from __future__ import annotations

import dataclasses
import math
from importlib import resources
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from ase.data import atomic_numbers, covalent_radii

from simwright.errors import StructureError, ValidationError
from simwright.molecules import (
    BONDI_RADII_A,
    Molecule,
    get_molecule,
    known_molecules,
    load_xyz_molecule,
    vdw_volume_a3,
)
from simwright.molecules.composition import (
    electrolyte_from_molality,
    molality_mol_kg,
    salt_stoichiometry,
)
from simwright.structure import Structure

FORMULAS = {
    "spce_water": ("H2O", 0),
    "tip3p_water": ("H2O", 0),
    "tip4p2005_water": ("H2O", 0),
    "na+": ("Na", 1),
    "cl-": ("Cl", -1),
    "argon": ("Ar", 0),
    "methane": ("CH4", 0),
    "methanol": ("CH4O", 0),
    "ethanol": ("C2H6O", 0),
    "acetonitrile": ("C2H3N", 0),
    "ec": ("C3H4O3", 0),
    "dmc": ("C3H6O3", 0),
    "dec": ("C5H10O3", 0),
    "pc": ("C4H6O3", 0),
    "li+": ("Li", 1),
    "pf6-": ("F6P", -1),
}

# Covalent bonds expected in each molecule, with the accepted length range (Å).
BOND_RANGES = {
    ("H", "O"): (0.95, 1.02),  # TIP3P, TIP4P/2005: 0.9572 Å; SPC/E: 1.0 Å
    ("C", "H"): (1.05, 1.12),
    ("C", "C"): (1.45, 1.56),  # acetonitrile's sp3-sp C-C: 1.46 Å (ASE g2)
    ("C", "O"): (1.16, 1.48),
    ("C", "N"): (1.14, 1.18),
    ("F", "P"): (1.55, 1.65),
}
BOND_COUNTS = {
    "spce_water": 2,
    "tip3p_water": 2,
    "tip4p2005_water": 2,
    "methane": 4,
    "methanol": 5,
    "ethanol": 8,
    "acetonitrile": 5,
    "ec": 10,
    "dmc": 11,
    "dec": 17,
    "pc": 13,
    "pf6-": 6,
}


def _bonds(structure: Structure) -> list[tuple[tuple[str, str], float]]:
    """Atom pairs closer than 1.25 times the sum of their covalent radii."""
    bonds = []
    radius = [covalent_radii[atomic_numbers[s]] for s in structure.symbols]
    for i, j in combinations(range(len(structure)), 2):
        d = float(np.linalg.norm(structure.positions[i] - structure.positions[j]))
        if d < 1.25 * (radius[i] + radius[j]):
            a, b = sorted((structure.symbols[i], structure.symbols[j]))
            bonds.append(((a, b), d))
    return bonds


def test_library_holds_the_promised_molecules() -> None:
    assert set(known_molecules()) == set(FORMULAS)


@pytest.mark.parametrize("name", sorted(FORMULAS))
def test_formula_charge_and_metadata(name: str) -> None:
    molecule = get_molecule(name)
    formula, charge = FORMULAS[name]
    assert molecule.name == name
    assert molecule.formula == formula
    assert molecule.charge == charge
    assert molecule.description and molecule.source
    assert not any(molecule.structure.pbc)


@pytest.mark.parametrize("name", sorted(FORMULAS))
def test_no_close_pairs_and_reasonable_bonds(name: str) -> None:
    structure = get_molecule(name).structure
    if len(structure) > 1:
        assert structure.sanity().min_distance_a >= 0.9
    bonds = _bonds(structure)
    assert len(bonds) == BOND_COUNTS.get(name, 0)
    for pair, length in bonds:
        low, high = BOND_RANGES[pair]
        assert low <= length <= high, (name, pair, length)


def test_carbonyl_and_ester_bonds_are_distinct() -> None:
    lengths = sorted(d for pair, d in _bonds(get_molecule("dmc").structure) if pair == ("C", "O"))
    assert lengths[0] == pytest.approx(1.20, abs=0.02)  # C=O
    assert lengths[1:3] == pytest.approx([1.34, 1.34], abs=0.02)  # O-C(=O)
    assert lengths[3:] == pytest.approx([1.44, 1.44], abs=0.02)  # O-CH3


def test_spce_water_geometry_and_atom_order() -> None:
    water = get_molecule("water").structure
    assert water.symbols == ("O", "H", "H")
    np.testing.assert_allclose(water.positions[0], 0.0, atol=1e-9)
    o, h1, h2 = water.positions
    assert np.linalg.norm(h1 - o) == pytest.approx(1.0, abs=1e-7)
    assert np.linalg.norm(h2 - o) == pytest.approx(1.0, abs=1e-7)
    cos = np.dot(h1 - o, h2 - o) / np.linalg.norm(h1 - o) / np.linalg.norm(h2 - o)
    assert math.degrees(math.acos(cos)) == pytest.approx(109.47, abs=0.01)


def test_pf6_is_an_octahedron() -> None:
    pf6 = get_molecule("PF6-").structure
    p = pf6.positions[0]
    distances = np.linalg.norm(pf6.positions[1:] - p, axis=1)
    np.testing.assert_allclose(distances, 1.60, atol=1e-4)


@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("Water", "spce_water"),
        ("H2O", "spce_water"),
        ("SPC/E", "spce_water"),
        ("methane", "methane"),
        ("CH4", "methane"),
        ("Ar", "argon"),
        ("LI+", "li+"),
        ("pf6-", "pf6-"),
        ("Ethylene Carbonate", "ec"),
        ("ethylene_carbonate", "ec"),
        ("DMC", "dmc"),
        ("  dec ", "dec"),
        ("Propylene carbonate", "pc"),
    ],
)
def test_names_are_case_insensitive_with_aliases(alias: str, name: str) -> None:
    assert get_molecule(alias).name == name


def test_unknown_molecule_is_refused_with_the_known_names() -> None:
    with pytest.raises(ValidationError) as info:
        get_molecule("unobtainium")
    message = str(info.value)
    assert "unobtainium" in message
    for name in known_molecules():
        assert name in message


def test_molecules_are_frozen_and_shared() -> None:
    water = get_molecule("water")
    assert water is get_molecule("H2O")
    with pytest.raises(dataclasses.FrozenInstanceError):
        water.charge = 1  # type: ignore[misc]
    assert not water.structure.positions.flags.writeable


def test_data_files_ship_inside_the_package() -> None:
    data = resources.files("simwright.molecules").joinpath("data")
    names = sorted(p.name for p in data.iterdir() if p.name.endswith(".xyz"))
    assert len(names) == len(known_molecules())
    for name in names:
        assert data.joinpath(name).read_text().strip()


def test_load_xyz_molecule(tmp_path: Path) -> None:
    path = tmp_path / "co2.xyz"
    path.write_text("3\ncarbon dioxide\nC 0 0 0\nO 0 0 1.16\no 0 0 -1.16\n")
    co2 = load_xyz_molecule(path, "co2", description="linear CO2")
    assert isinstance(co2, Molecule)
    assert co2.formula == "CO2"
    assert co2.structure.symbols == ("C", "O", "O")
    assert co2.charge == 0
    assert "co2.xyz" in co2.source
    assert co2.mass_amu == pytest.approx(44.009, abs=0.01)


@pytest.mark.parametrize(
    "text",
    ["", "two\nx\nH 0 0 0\n", "3\nshort\nH 0 0 0\n", "1\nbad\nH 0 zero 0\n", "1\nbad\nH 0 0\n"],
)
def test_malformed_xyz_is_refused(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bad.xyz"
    path.write_text(text)
    with pytest.raises(ValidationError):
        load_xyz_molecule(path, "bad")


def test_xyz_with_overlapping_atoms_or_unknown_elements_is_refused(tmp_path: Path) -> None:
    overlap = tmp_path / "overlap.xyz"
    overlap.write_text("2\n\nH 0 0 0\nH 0 0 0.3\n")
    with pytest.raises(StructureError):
        load_xyz_molecule(overlap, "overlap")
    unknown = tmp_path / "unknown.xyz"
    unknown.write_text("1\n\nQq 0 0 0\n")
    with pytest.raises(StructureError):
        load_xyz_molecule(unknown, "unknown")
    with pytest.raises(ValidationError):
        load_xyz_molecule(tmp_path / "missing.xyz", "missing")


# --- van der Waals volumes ------------------------------------------------------------


def _two_atoms(symbol: str, distance_a: float) -> Structure:
    return Structure((symbol, symbol), np.array([[0.0, 0.0, 0.0], [0.0, 0.0, distance_a]]))


def test_argon_volume_is_its_bondi_sphere() -> None:
    assert BONDI_RADII_A["Ar"] == 1.88
    expected = 4.0 / 3.0 * math.pi * 1.88**3
    assert vdw_volume_a3(get_molecule("argon")) == pytest.approx(expected, rel=1e-12)


def test_overlapping_spheres_match_the_lens_formula() -> None:
    r, d = 1.88, 2.5
    lens = math.pi * (2 * r - d) ** 2 * (d**2 + 4 * d * r) / (12 * d)
    expected = 2 * (4.0 / 3.0 * math.pi * r**3) - lens
    assert vdw_volume_a3(_two_atoms("Ar", d)) == pytest.approx(expected, rel=2e-3)


def test_distant_spheres_add_up() -> None:
    sphere = 4.0 / 3.0 * math.pi * 1.88**3
    assert vdw_volume_a3(_two_atoms("Ar", 10.0)) == pytest.approx(2 * sphere, rel=1e-12)


def test_water_volume_is_plausible_and_deterministic() -> None:
    volume = vdw_volume_a3(get_molecule("water"))
    assert 17.0 < volume < 20.0
    assert vdw_volume_a3(get_molecule("h2o")) == volume


def test_volume_agrees_with_a_brute_force_grid() -> None:
    structure = get_molecule("pf6-").structure
    radii = np.array([BONDI_RADII_A[s] for s in structure.symbols])
    step = 0.05
    low = (structure.positions - radii[:, None]).min(axis=0)
    high = (structure.positions + radii[:, None]).max(axis=0)
    axes = [np.arange(lo + step / 2, hi, step) for lo, hi in zip(low, high, strict=True)]
    grid = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1).reshape(-1, 3)
    inside = np.zeros(len(grid), dtype=bool)
    for centre, radius in zip(structure.positions, radii, strict=True):
        inside |= ((grid - centre) ** 2).sum(axis=1) <= radius**2
    assert vdw_volume_a3(structure) == pytest.approx(inside.sum() * step**3, rel=0.01)


def test_volumes_grow_with_molecule_size() -> None:
    volumes = [vdw_volume_a3(get_molecule(n)) for n in ("water", "methane", "ec", "dmc", "dec")]
    assert volumes == sorted(volumes)


def test_element_without_bondi_radius_is_refused() -> None:
    with pytest.raises(ValidationError, match="Fe"):
        vdw_volume_a3(Structure(("Fe",), np.zeros((1, 3))))


# --- electrolyte compositions ---------------------------------------------------------


def test_one_molal_lipf6_in_dmc() -> None:
    li, pf6, dmc = get_molecule("li+"), get_molecule("pf6-"), get_molecule("dmc")
    comp = electrolyte_from_molality(li, pf6, dmc, 1.0)
    assert 950 <= comp.n_atoms <= 1150
    assert comp.n_cations == comp.n_anions == comp.n_salt > 0
    assert comp.n_atoms == 12 * comp.n_solvent + 8 * comp.n_salt
    assert comp.molality_mol_kg == pytest.approx(1000 * comp.n_salt / (comp.n_solvent * 90.078))
    assert comp.molality_mol_kg == pytest.approx(1.0, rel=0.02)
    assert comp.components == ((li, comp.n_salt), (pf6, comp.n_salt), (dmc, comp.n_solvent))
    # Nothing in the window comes closer to 1 mol/kg.
    best = min(
        abs(molality_mol_kg(s, n, dmc) - 1.0)
        for n in range(1, 100)
        for s in range(0, 30)
        if 950 <= 12 * n + 8 * s <= 1150
    )
    assert abs(comp.molality_mol_kg - 1.0) == pytest.approx(best, abs=1e-12)
    assert electrolyte_from_molality(li, pf6, dmc, 1.0) == comp


def test_zero_molality_is_pure_solvent() -> None:
    comp = electrolyte_from_molality(
        get_molecule("li+"), get_molecule("pf6-"), get_molecule("water"), 0.0
    )
    assert comp.n_salt == 0
    assert comp.molality_mol_kg == 0.0
    assert 950 <= comp.n_atoms <= 1150


def test_divalent_cation_takes_two_anions() -> None:
    mg = Molecule("mg2+", Structure(("Mg",), np.zeros((1, 3))), 2, "magnesium ion", "test")
    pf6 = get_molecule("pf6-")
    assert salt_stoichiometry(mg, pf6) == (1, 2)
    comp = electrolyte_from_molality(mg, pf6, get_molecule("ec"), 0.5, atom_window=(400, 600))
    assert comp.n_anions == 2 * comp.n_cations
    assert 400 <= comp.n_atoms <= 600


@pytest.mark.parametrize(
    ("molality", "window"),
    [(-1.0, (950, 1150)), (math.nan, (950, 1150)), (1.0, (1150, 950)), (1.0, (13, 17))],
)
def test_impossible_compositions_are_refused(molality: float, window: tuple[int, int]) -> None:
    with pytest.raises(ValidationError):
        electrolyte_from_molality(
            get_molecule("li+"),
            get_molecule("pf6-"),
            get_molecule("dmc"),
            molality,
            atom_window=window,
        )


def test_a_salt_needs_opposite_charges() -> None:
    with pytest.raises(ValidationError, match="cation and an anion"):
        salt_stoichiometry(get_molecule("pf6-"), get_molecule("li+"))
    with pytest.raises(ValidationError):
        salt_stoichiometry(get_molecule("li+"), get_molecule("water"))
