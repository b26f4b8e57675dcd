"""The generic molecule descriptor on the parameters the molecular protocols store:
nested molecule inputs by name or SMILES, several molecules (no subject), one molecule
(the subject, with its conformers), and mappings that are not molecules."""

from __future__ import annotations

import importlib.util

from simwright.kg.molecules import molecules, named_molecules
from simwright.kg.runs import FileFact, RunFacts


def _facts(params: dict, files: tuple[FileFact, ...] = ()) -> RunFacts:
    return RunFacts("r1", "p", "", "completed", "", "", params, {}, "", files)


def _input(name: str = "", smiles: str = "") -> dict:
    return {"name": name, "smiles": smiles, "xyz": "", "charge": None, "multiplicity": None}


def test_a_pka_run_involves_its_acid_and_reference_without_a_subject() -> None:
    params = {
        "acid": _input(name="phenol"),
        "reference": _input(name="acetic acid"),
        "level": {"method": "b3lyp", "basis": "6-31+g*", "dispersion": "none"},
    }
    found = molecules(_facts(params))
    assert [(e.kind, e.attributes["smiles"], e.subject) for e in found] == [
        ("Molecule", "Oc1ccccc1", False),
        ("Molecule", "CC(=O)O", False),
    ]
    if importlib.util.find_spec("rdkit") is not None:
        assert found[0].key == "ISWSIDIOOBJBQZ-UHFFFAOYSA-N"  # phenol


def test_reaction_species_are_found_once_each() -> None:
    hydride = {"molecule": _input(name="hydride"), "coefficient": 1}
    reactions = [
        {
            "reactants": [{"molecule": _input(name="methyl cation"), "coefficient": 1}, hydride],
            "products": [{"molecule": _input(name="methane"), "coefficient": 1}],
        },
        {
            "reactants": [{"molecule": _input(smiles="C[CH2+]"), "coefficient": 1}, hydride],
            "products": [{"molecule": _input(name="ethane"), "coefficient": 1}],
        },
    ]
    smiles = [m.smiles for m in named_molecules({"reactions": reactions})]
    assert smiles == ["[CH3+]", "[H-]", "C", "C[CH2+]", "CC"]


def test_one_molecule_is_the_subject_with_its_conformers() -> None:
    files = (
        FileFact("steps/002-Optimise/opt.xyz", "ab" * 32, 100, "structure"),
        FileFact("steps/003-Report/report.md", "cd" * 32, 100, "report"),
    )
    found = molecules(_facts({"molecule": _input(name="water"), "threads": 1}, files))
    assert [(e.kind, e.subject) for e in found] == [("Molecule", True), ("Conformer", False)]
    assert found[1].links[0].key == found[0].key


def test_mappings_that_are_not_molecules_are_not_taken_for_one() -> None:
    assert named_molecules({"model": {"name": "SPC/E"}, "level": {"method": "xtb"}}) == ()
    assert named_molecules({"molecule": _input() | {"xyz": "/data/mol.xyz"}}) == ()
