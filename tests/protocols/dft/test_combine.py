"""Shared machinery of the energy-difference protocols: derived inputs keep the anchor's
settings, and any difference is refused before a run."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from simwright.dft.recommender import recommend
from simwright.engines.espresso.pseudo_library import PseudoLibrary
from simwright.engines.espresso.template import Species
from simwright.errors import ValidationError
from simwright.protocols.dft import combine
from simwright.protocols.dft import formation as dft_formation

PSEUDO = Path("/usr/share/espresso/pseudo")
needs_pseudo = pytest.mark.skipif(
    not (PSEUDO / "Mg.pz-n-vbc.UPF").is_file() or shutil.which("pw.x") is None,
    reason="pw.x and quantum-espresso-data are needed",
)
MGO = {"structure": {"kind": "bulk", "name": "MgO"}, "functional": "lda", "ecutwfc_ry": 20.0}


@needs_pseudo
def test_references_are_derived_with_the_compounds_settings_and_o2_is_a_triplet() -> None:
    params = dft_formation.PROTOCOL.validate(MGO)
    anchor = recommend(params, PseudoLibrary((PSEUDO,))).template
    z = {"Mg": 2.0, "O": 6.0}
    mg = dft_formation.reference_input(anchor, "Mg", params, z)
    o2 = dft_formation.reference_input(anchor, "O", params, z)
    assert [s.pseudo_file for s in mg.species] == ["Mg.pz-n-vbc.UPF"]
    assert mg.structure.formula == "Mg2" and mg.kpoints.mode == "automatic"
    assert o2.get("system", "tot_magnetization") == 2.0 and o2.get("system", "nspin") == 2
    assert o2.kpoints.mode == "gamma" and o2.calculation == "relax"
    record = combine.settings_record({"MgO": anchor, "Mg": mg, "O2": o2}, (PSEUDO,), "lda", 0.25)
    assert record["consistent_settings"] and record["ecutwfc_ry"] == 20.0
    assert record["smearing"] == "gaussian" and record["degauss_ry"] == 0.01
    assert record["runs"]["O2"]["k_points"] == "Γ only"
    assert len(record["pseudopotentials"]["O"]["sha256"]) == 64
    with pytest.raises(ValidationError, match="would not share the settings"):
        combine.settings_record(
            {"MgO": anchor, "Mg": mg.with_values({"system": {"ecutwfc": 30.0}})},
            (PSEUDO,),
            "lda",
            0.25,
        )
    other = replace(mg, species=(Species("Mg", "Mg.other.UPF"),))
    with pytest.raises(ValidationError, match=r"uses Mg\.other\.UPF"):
        combine.settings_record({"MgO": anchor, "Mg": other}, (PSEUDO,), "lda", 0.25)


def test_molecule_bands_and_spin() -> None:
    assert combine.molecule_system(12.0, 2.0) == {
        "nbnd": 11,
        "nspin": 2,
        "starting_magnetization(1)": 0.5,
        "tot_magnetization": 2.0,
    }
    assert combine.molecule_system(10.0, 0.0) == {"nbnd": 9}
    box = combine.molecule_structure("CO", 8.0)
    assert box.formula in ("CO", "OC") and float(box.cell[0][0]) == 8.0


def test_one_smearing_is_required_for_every_run() -> None:
    with pytest.raises(ValidationError, match="share one smearing"):
        dft_formation.PROTOCOL.validate({**MGO, "smearing": "none"})
