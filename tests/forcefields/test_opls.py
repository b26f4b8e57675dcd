"""OPLS-AA force fields: published numbers, neutral molecules, torsions in LAMMPS."""

from __future__ import annotations

import numpy as np
import pytest

from simwright.engines.lammps.data import render_data, to_lammps_frame
from simwright.engines.lammps.forcefield_block import forcefield_block
from simwright.errors import ValidationError
from simwright.forcefields import get_forcefield
from simwright.forcefields.base import EV_PER_KJ_MOL
from simwright.forcefields.opls import opls_aa, opls_molecule_names, with_hydrogen_mass
from simwright.forcefields.topology import assign_types
from simwright.forcefields.torsions import rb_to_fourier_kj
from simwright.molecules import get_molecule
from simwright.structure import Structure

KCAL = 4.184


def test_rb_to_fourier_recovers_the_opls_alkane_torsion() -> None:
    # GROMACS' CT-CT-CT-CT in RB form is OPLS-AA's V1..V3 = 1.3, -0.05, 0.2 kcal/mol
    f = rb_to_fourier_kj((2.92880, -1.46440, 0.20920, -1.67360, 0.0, 0.0))
    assert [x / KCAL for x in f] == pytest.approx([1.3, -0.05, 0.2, 0.0], abs=1e-6)


@pytest.mark.parametrize("name", ["ec", "pc", "methanol", "ethanol", "acetonitrile"])
def test_every_solvent_is_neutral_with_its_published_terms(name: str) -> None:
    ff = opls_aa([name])
    (mol,) = ff.molecules
    charge = sum(ff.atom_types[ff.type_id(t) - 1].charge_e for t in mol.atom_types)
    assert charge == pytest.approx(0.0, abs=1e-9)
    assert len(mol.bonds) == len(mol.atom_types) - 1 + (1 if name in ("ec", "pc") else 0)


def test_ions_are_scaled_and_pf6_keeps_only_cis_angles() -> None:
    ff = opls_aa(["li+", "pf6-", "ec"], ion_charge_scale=0.8)
    li, pf6, _ = ff.molecules
    charges = {t.name: t.charge_e for t in ff.atom_types}
    assert charges["opls_406"] == pytest.approx(0.8)
    assert charges["clp_P"] + 6 * charges["clp_F"] == pytest.approx(-0.8)
    assert charges["opls_771"] == pytest.approx(-0.5)  # solvent charges unscaled
    assert len(pf6.angles) == 12 and {a.angle_deg for a in ff.angle_types if "FP" in a.name} == {
        90.0
    }
    assert li.bonds == ()


def test_ec_carbonyl_torsions_and_improper_in_the_lammps_input() -> None:
    ff = opls_aa(["ec"])
    text = forcefield_block(ff)
    assert "dihedral_style  opls" in text and "improper_style  cvff" in text
    assert "special_bonds   lj/coul 0.0 0.0 0.5" in text
    assert "pair_modify     shift no tail yes" in text
    # O=C-O-C: V2 = 5 kcal/mol (OPLS-AA esters)
    name = "CT-OS-C-O"
    k = ff.dihedral_types[[d.name for d in ff.dihedral_types].index(name)].k_ev
    assert k[1] == pytest.approx(5.0 * KCAL * EV_PER_KJ_MOL, rel=1e-6)


def test_data_file_lists_dihedrals_and_impropers() -> None:
    ec = get_molecule("ec").structure
    structure = Structure(ec.symbols, ec.positions + 5.0, np.eye(3) * 20.0, (True,) * 3, (1,) * 10)
    ff = opls_aa(["ec"])
    topology = assign_types(structure, ff)
    box, positions = to_lammps_frame(structure)
    text = render_data(structure, ff, topology, box, positions)
    assert "19 dihedrals" in text and "1 impropers" in text
    assert "\nDihedrals\n" in text and "\nImpropers\n" in text


def test_unknown_molecule_is_refused_with_the_known_ones() -> None:
    with pytest.raises(ValidationError) as info:
        opls_aa(["dmc"])
    for name in opls_molecule_names():
        assert name in str(info.value)


def test_heavy_hydrogen_changes_only_hydrogen_masses() -> None:
    ff = with_hydrogen_mass(opls_aa(["methanol"]), 3.016)
    assert {t.mass_amu for t in ff.atom_types if t.element == "H"} == {3.016}
    assert get_forcefield("opls_methanol").atom_types[0].mass_amu == pytest.approx(12.011)
