"""Molecules for quantum chemistry from a name, a SMILES or an XYZ file.

A SMILES is embedded in 3D with RDKit (ETKDG distance geometry, then the MMFF94 force
field; S. Riniker, G. A. Landrum, J. Chem. Inf. Model. 55, 2562 (2015)); the charge is
the SMILES's formal charge, and a stated charge that differs is refused. Conformer
ensembles are several ETKDG embeddings, MMFF-minimised, duplicates (RMSD < 0.1 Å on
heavy atoms) dropped. Two edits serve the protocols: removing the most acidic proton
(pKa) and adding a hydride to a carbocation (hydride affinities), each by a stated
substructure rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from simwright.errors import ValidationError
from simwright.molecules.library import parse_xyz
from simwright.molecules.qc import QcMolecule, spin_multiplicity
from simwright.molecules.species import find_species
from simwright.structure import Structure


@dataclass(frozen=True)
class MoleculeSource:
    """Where a molecule comes from: exactly one of a table name, a SMILES, an XYZ file."""

    name: str = ""
    smiles: str = ""
    xyz: str = ""
    charge: int | None = None
    multiplicity: int | None = None

    @property
    def label(self) -> str:
        """The molecule's label in tables and reports."""
        return self.name or self.smiles or Path(self.xyz).stem


def _rdkit() -> Any:
    # lazy: RDKit (extra [molecules]) takes ~0.3 s to import; only embedding needs it
    from rdkit import Chem, RDLogger
    from rdkit.Chem import AllChem

    RDLogger.DisableLog("rdApp.warning")  # type: ignore[attr-defined]  # H2 warnings
    return Chem, AllChem


def parse_smiles(smiles: str) -> Any:
    """The RDKit molecule of ``smiles`` with explicit hydrogens; refuses invalid SMILES."""
    chem, _ = _rdkit()
    mol = chem.MolFromSmiles(smiles)
    if mol is None:
        raise ValidationError(f"invalid SMILES {smiles!r} (RDKit cannot read it)")
    return chem.AddHs(mol)


def smiles_charge(smiles: str) -> int:
    """The net formal charge of ``smiles``."""
    chem, _ = _rdkit()
    return int(chem.GetFormalCharge(parse_smiles(smiles)))


def _charge(label: str, found: int, stated: int | None) -> int:
    if stated is not None and stated != found:
        raise ValidationError(
            f"{label}: stated charge {stated:+d} differs from the SMILES's formal charge "
            f"{found:+d}; correct one of them"
        )
    return found


def embed_conformers(
    label: str,
    smiles: str,
    *,
    charge: int | None = None,
    multiplicity: int | None = None,
    n_conformers: int = 1,
    seed: int = 7,
) -> tuple[QcMolecule, ...]:
    """Up to ``n_conformers`` distinct 3D conformers of ``smiles`` (ETKDG + MMFF94)."""
    chem, allchem = _rdkit()
    mol = parse_smiles(smiles)
    q = _charge(label, int(chem.GetFormalCharge(mol)), charge)
    symbols = tuple(a.GetSymbol() for a in mol.GetAtoms())
    mult, _ = spin_multiplicity(label, symbols, q, multiplicity)
    params = allchem.ETKDGv3()
    params.randomSeed = seed
    if mol.GetNumAtoms() == 1:
        return (QcMolecule(label, Structure(symbols, np.zeros((1, 3))), q, mult),)
    ids = list(allchem.EmbedMultipleConfs(mol, numConfs=max(1, n_conformers), params=params))
    if not ids:
        raise ValidationError(f"{label}: RDKit could not embed {smiles!r} in 3D")
    if allchem.MMFFHasAllMoleculeParams(mol):
        allchem.MMFFOptimizeMoleculeConfs(mol, maxIters=500)
    kept: list[int] = []
    heavy = chem.RemoveHs(mol)
    for cid in ids:
        if all(allchem.GetBestRMS(heavy, heavy, k, cid) > 0.1 for k in kept):
            kept.append(cid)
    return tuple(
        QcMolecule(label, Structure(symbols, np.array(mol.GetConformer(c).GetPositions())), q, mult)
        for c in kept
    )


def build_molecule(source: MoleculeSource, *, seed: int = 7) -> QcMolecule:
    """The molecule of ``source``: a table name, a SMILES (embedded) or an XYZ file."""
    given = [bool(source.name), bool(source.smiles), bool(source.xyz)]
    if sum(given) != 1:
        raise ValidationError("a molecule needs exactly one of: name, smiles, xyz")
    if source.xyz:
        return _from_xyz(source)
    smiles, mult = source.smiles, source.multiplicity
    if source.name:
        sp = find_species(source.name)
        smiles = sp.smiles
        if mult is None:
            mult = sp.multiplicity
    return embed_conformers(
        source.label, smiles, charge=source.charge, multiplicity=mult, seed=seed
    )[0]


def _from_xyz(source: MoleculeSource) -> QcMolecule:
    path = Path(source.xyz)
    if not path.is_file():
        raise ValidationError(f"no such XYZ file: {source.xyz}")
    structure = parse_xyz(path.read_text(encoding="utf-8"), origin=str(path))
    if source.charge is None:
        raise ValidationError(
            f"{source.xyz}: an XYZ file carries no charge; state it (`charge: 0`)"
        )
    mult, _ = spin_multiplicity(source.label, structure.symbols, source.charge, source.multiplicity)
    return QcMolecule(source.label, structure, source.charge, mult)


ACID_RULES: tuple[tuple[str, str], ...] = (
    ("carboxylic acid O-H", "[CX3](=O)[OX2H1]"),
    ("phenol O-H", "c[OX2H1]"),
    ("alcohol O-H", "[CX4][OX2H1]"),
    ("water O-H", "[OX2H2]"),
)
"""Which proton is removed to make a conjugate base: the first rule that matches."""


def _canonical(mol: Any) -> str:
    chem, _ = _rdkit()
    return str(chem.MolToSmiles(chem.RemoveHs(mol)))


def deprotonate(smiles: str) -> tuple[str, str]:
    """(conjugate base SMILES, rule): the O-H proton of the first :data:`ACID_RULES`
    pattern that matches; refuses a molecule none matches."""
    chem, _ = _rdkit()
    mol = chem.MolFromSmiles(smiles)
    if mol is None:
        raise ValidationError(f"invalid SMILES {smiles!r}")
    for rule, pattern in ACID_RULES:
        hits = mol.GetSubstructMatches(chem.MolFromSmarts(pattern))
        if hits:
            rw = chem.RWMol(mol)
            oxygen = rw.GetAtomWithIdx(hits[0][-1])
            oxygen.SetFormalCharge(oxygen.GetFormalCharge() - 1)
            oxygen.SetNumExplicitHs(max(0, oxygen.GetTotalNumHs() - 1))
            oxygen.SetNoImplicit(True)
            chem.SanitizeMol(rw)
            return _canonical(rw), rule
    raise ValidationError(
        f"no acidic O-H found in {smiles!r} (rules: {', '.join(r for r, _ in ACID_RULES)}); "
        "give the conjugate base's SMILES (`base_smiles`)"
    )


def add_hydride(smiles: str) -> str:
    """The neutral molecule made by adding H⁻ to the positively charged carbon of a
    carbocation SMILES; refuses a SMILES without exactly one such carbon."""
    chem, _ = _rdkit()
    mol = chem.MolFromSmiles(smiles)
    if mol is None:
        raise ValidationError(f"invalid SMILES {smiles!r}")
    cations = [a for a in mol.GetAtoms() if a.GetSymbol() == "C" and a.GetFormalCharge() == 1]
    if len(cations) != 1:
        raise ValidationError(f"{smiles!r} is not a carbocation with one C+ (hydride affinity)")
    rw = chem.RWMol(mol)
    atom = rw.GetAtomWithIdx(cations[0].GetIdx())
    atom.SetFormalCharge(0)
    atom.SetNumExplicitHs(atom.GetTotalNumHs() + 1)
    atom.SetNoImplicit(True)
    chem.SanitizeMol(rw)
    return _canonical(rw)


def formula_of_smiles(smiles: str) -> dict[str, int]:
    """Element counts of ``smiles`` with its hydrogens (for balancing reactions)."""
    counts: dict[str, int] = {}
    for atom in parse_smiles(smiles).GetAtoms():
        counts[atom.GetSymbol()] = counts.get(atom.GetSymbol(), 0) + 1
    return counts


def formula_of(source: MoleculeSource) -> tuple[dict[str, int], int]:
    """(element counts, charge) of a molecule source without embedding it in 3D; a
    charge not stated for an XYZ file counts as 0 here (the build refuses it later)."""
    if source.xyz:
        path = Path(source.xyz)
        if not path.is_file():
            raise ValidationError(f"no such XYZ file: {source.xyz}")
        counts: dict[str, int] = {}
        for s in parse_xyz(path.read_text(encoding="utf-8"), origin=str(path)).symbols:
            counts[s] = counts.get(s, 0) + 1
        return counts, source.charge or 0
    smiles = find_species(source.name).smiles if source.name else source.smiles
    found = smiles_charge(smiles)
    return formula_of_smiles(smiles), _charge(source.label, found, source.charge)


def canonical_smiles(smiles: str) -> str:
    """RDKit's canonical form of ``smiles`` (for comparing two SMILES)."""
    chem, _ = _rdkit()
    mol = chem.MolFromSmiles(smiles)
    if mol is None:
        raise ValidationError(f"invalid SMILES {smiles!r}")
    return str(chem.MolToSmiles(mol))
