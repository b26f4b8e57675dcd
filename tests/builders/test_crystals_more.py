"""Compound prototypes (wurtzite, fluorite, rutile, perovskite, CsCl), the cited Li3N,
CIF files read inside a confined folder, substitutions and interstitials."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from ase.io import write

from simwright.builders import (
    BulkSpec,
    CifSpec,
    CitedSpec,
    build_bulk,
    build_structure,
    describe_spec,
    interstitial,
    substitute,
)
from simwright.engines.confine import ConfinementError
from simwright.errors import ValidationError
from simwright.structure import Structure


def shortest(s: Structure, a: str, b: str) -> float:
    """The shortest a–b distance (Å), periodic images included."""
    atoms = s.to_ase()
    d = atoms.get_all_distances(mic=True)
    sym = np.array(s.symbols)
    block = d[np.ix_(sym == a, sym == b)]
    return float(block[block > 1e-6].min())


@pytest.mark.parametrize(
    ("spec", "formula", "atoms", "pair", "distance"),
    [
        # ideal wurtzite: the cation-anion bond is u c = 3/8 c = a sqrt(3/8)
        (BulkSpec("ZnO", "wurtzite", 3.25), "O Zn", 4, ("Zn", "O"), 3.25 * (3 / 8) ** 0.5),
        # fluorite: Ca-F = a sqrt(3)/4
        (BulkSpec("CaF2", "fluorite", 5.463), "Ca F", 3, ("Ca", "F"), 5.463 * 3**0.5 / 4),
        (BulkSpec("CaF2", "fluorite", 5.463, cubic=True), "Ca F", 12, ("F", "F"), 5.463 / 2),
        # perovskite: B-X = a/2
        (BulkSpec("SrTiO3", "perovskite", 3.905), "O Sr Ti", 5, ("Ti", "O"), 3.905 / 2),
        # rutile: four equatorial Ti-O bonds of sqrt(2 (1/2 - u)² a² + c²/4) = 1.95 Å
        (
            BulkSpec("TiO2", "rutile", 4.594, c_over_a=0.644, u=0.305),
            "O Ti",
            6,
            ("Ti", "O"),
            (2 * (0.195 * 4.594) ** 2 + (0.644 * 4.594 / 2) ** 2) ** 0.5,
        ),
        (BulkSpec("CsCl", "cesiumchloride", 4.12), "Cl Cs", 2, ("Cs", "Cl"), 4.12 * 3**0.5 / 2),
    ],
)
def test_compound_prototypes_have_their_textbook_bond_lengths(
    spec: BulkSpec, formula: str, atoms: int, pair: tuple[str, str], distance: float
) -> None:
    s = build_bulk(spec)
    assert len(s) == atoms
    assert sorted(set(s.symbols)) == sorted(formula.split())
    assert shortest(s, *pair) == pytest.approx(distance, rel=1e-3)


def test_a_prototype_refuses_a_formula_of_the_wrong_shape() -> None:
    with pytest.raises(ValidationError, match=r"perovskite needs a formula ABX3"):
        build_bulk(BulkSpec("TiO2", "perovskite", 3.9))
    with pytest.raises(ValidationError, match=r"rutile needs a formula AX2"):
        build_bulk(BulkSpec("SrTiO3", "rutile", 4.6))


def test_cited_li3n_has_the_published_bond_lengths() -> None:
    s = build_structure(CitedSpec("Li3N", (2, 2, 1)))
    assert s.symbols.count("Li") == 12 and s.symbols.count("N") == 4
    # Li(1)-N = c/2 = 1.94 Å along c; Li(2)-N = a/sqrt(3) = 2.11 Å in the Li2N plane
    assert shortest(s, "Li", "N") == pytest.approx(3.875 / 2, abs=1e-3)
    with pytest.raises(ValidationError, match=r"no cited crystal 'LLZO'; simwright holds Li3N"):
        build_structure(CitedSpec("LLZO"))


def test_a_cif_file_is_read_inside_its_folder_only(tmp_path: Path) -> None:
    crystal = build_structure(CitedSpec("Li3N"))
    write(tmp_path / "li3n.cif", crystal.to_ase())
    spec = CifSpec("li3n.cif", tmp_path, (1, 1, 2))
    s = build_structure(spec)
    assert len(s) == 8 and np.allclose(s.cell[2], 2 * crystal.cell[2], atol=1e-6)
    assert "li3n.cif" in describe_spec(spec)
    outside = tmp_path / "inner"
    outside.mkdir()
    with pytest.raises(ConfinementError, match=r"'\.\.'"):
        build_structure(CifSpec("../li3n.cif", outside))
    with pytest.raises(ConfinementError, match=r"absolute"):
        build_structure(CifSpec(str(tmp_path / "li3n.cif"), outside))
    (outside / "link.cif").symlink_to(tmp_path / "li3n.cif")
    with pytest.raises(ConfinementError, match=r"link"):
        build_structure(CifSpec("link.cif", outside))


def test_a_cif_with_partial_occupancies_is_refused(tmp_path: Path) -> None:
    (tmp_path / "disordered.cif").write_text(
        "data_test\n_cell_length_a 4.0\n_cell_length_b 4.0\n_cell_length_c 4.0\n"
        "_cell_angle_alpha 90\n_cell_angle_beta 90\n_cell_angle_gamma 90\n"
        "_symmetry_space_group_name_H-M 'P 1'\nloop_\n_atom_site_label\n"
        "_atom_site_type_symbol\n_atom_site_fract_x\n_atom_site_fract_y\n"
        "_atom_site_fract_z\n_atom_site_occupancy\nLi1 Li 0 0 0 0.5\nN1 N 0.5 0.5 0.5 1.0\n"
    )
    with pytest.raises(ValidationError, match=r"partially occupied sites \(Li 0.5\)"):
        build_structure(CifSpec("disordered.cif", tmp_path))


def test_substitution_and_interstitial_keep_the_rest_of_the_crystal() -> None:
    host = build_bulk(BulkSpec("Cu", "fcc", 3.61, cubic=True))
    doped = substitute(host, 0, "Ni")
    assert doped.symbols[0] == "Ni" and doped.symbols[1:] == host.symbols[1:]
    assert np.allclose(doped.positions, host.positions)
    with pytest.raises(ValidationError, match=r"already Cu"):
        substitute(host, 1, "Cu")
    octahedral = interstitial(host, "H", (0.5, 0.5, 0.5))
    assert len(octahedral) == 5 and shortest(octahedral, "H", "Cu") == pytest.approx(3.61 / 2)
    with pytest.raises(ValidationError, match=r"lies 0.00 Å from an atom"):
        interstitial(host, "H", (0.0, 0.0, 0.0))
