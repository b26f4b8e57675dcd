"""Quantum-chemistry molecules from XYZ files and SMILES, and the SMILES edits."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from simwright.builders.qc_molecules import (
    MoleculeSource,
    add_hydride,
    build_molecule,
    deprotonate,
    embed_conformers,
)
from simwright.errors import ValidationError

needs_rdkit = pytest.mark.skipif(
    importlib.util.find_spec("rdkit") is None, reason="extra [molecules] (rdkit) not installed"
)


def test_an_xyz_file_needs_its_charge(tmp_path: Path) -> None:
    path = tmp_path / "w.xyz"
    path.write_text("3\nwater\nO 0 0 0.117\nH 0 0.757 -0.467\nH 0 -0.757 -0.467\n")
    with pytest.raises(ValidationError, match="state it"):
        build_molecule(MoleculeSource(xyz=str(path)))
    mol = build_molecule(MoleculeSource(xyz=str(path), charge=0))
    assert mol.formula == "H2O" and mol.multiplicity == 1 and mol.name == "w"
    with pytest.raises(ValidationError, match="odd count"):
        build_molecule(MoleculeSource(xyz=str(path), charge=1))


@needs_rdkit
def test_smiles_charge_conformers_and_edits() -> None:
    with pytest.raises(ValidationError, match="differs from the SMILES"):
        build_molecule(MoleculeSource(smiles="CC(=O)[O-]", charge=0))
    assert build_molecule(MoleculeSource(smiles="CC(=O)[O-]")).charge == -1
    butane = embed_conformers("butane", "CCCC", n_conformers=8)
    assert 1 < len(butane) <= 8  # anti and gauche at least
    assert deprotonate("OC(=O)c1ccccc1") == ("O=C([O-])c1ccccc1", "carboxylic acid O-H")
    assert add_hydride("C[CH+]C") == "CCC"
    with pytest.raises(ValidationError, match="invalid SMILES"):
        build_molecule(MoleculeSource(smiles="C1CC"))
