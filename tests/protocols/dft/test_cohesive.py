"""dft_cohesive_energy: consistent settings, a real pw.x run on Si, and its requests."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from simwright.dft.recommender import recommend
from simwright.engines.espresso.pseudo_library import PseudoLibrary
from simwright.errors import ValidationError
from simwright.graph import Runner
from simwright.protocols.dft import cohesive as dft_cohesive
from simwright.settings import Settings
from simwright.store import Store

PSEUDO = Path("/usr/share/espresso/pseudo")
needs_pw = pytest.mark.skipif(
    shutil.which("pw.x") is None or not (PSEUDO / "Si.pz-vbc.UPF").is_file(),
    reason="pw.x and quantum-espresso-data are needed",
)
SI = {"structure": {"kind": "bulk", "name": "Si"}, "functional": "lda", "ecutwfc_ry": 12.0}


@needs_pw
def test_the_atom_input_shares_cutoffs_files_and_smearing_with_the_bulk() -> None:
    params = dft_cohesive.PROTOCOL.validate(SI)
    bulk = recommend(params, PseudoLibrary((PSEUDO,))).template
    atom = dft_cohesive.atom_input(bulk, "Si", 8.0, 0.5, 4.0)
    record = dft_cohesive.consistent_settings(bulk, {"Si": atom}, (PSEUDO,), "lda", 8.0)
    assert record["consistent_settings"] is True
    assert record["smearing"] == "gaussian" and record["degauss_ry"] == 0.01
    assert record["pseudopotentials"]["Si"]["file"] == "Si.pz-vbc.UPF"
    assert len(record["pseudopotentials"]["Si"]["sha256"]) == 64
    assert atom.get("system", "nspin") == 2 and atom.kpoints.mode == "gamma"
    assert atom.get("system", "nbnd") == 8 and bulk.get("system", "nbnd") is None
    assert atom.get("system", "tot_magnetization") == 2.0  # Si: 3P, two unpaired p electrons
    other = atom.with_values({"system": {"ecutwfc": 20.0}})
    with pytest.raises(ValidationError, match="would not use the bulk's settings"):
        dft_cohesive.consistent_settings(bulk, {"Si": other}, (PSEUDO,), "lda", 8.0)


@needs_pw
def test_si_cohesive_energy_end_to_end(store: Store, settings: Settings) -> None:
    raw = {**SI, "kspacing_inv_a": 0.5, "box_a": 7.0}
    params = dft_cohesive.PROTOCOL.validate(raw)
    out = Runner(store, settings).start(
        dft_cohesive.GRAPH, dft_cohesive.PROTOCOL.first_step(params), protocol="dft_cohesive_energy"
    )
    assert out.status == "completed", out.error
    e_coh = out.result.values["cohesive_energy"]
    assert e_coh.unit == "eV" and 3.5 < e_coh.value < 7.0  # LDA overbinds; coarse settings
    settings_file = next(a for a in out.result.artifacts if a.kind == "settings")
    record = json.loads((out.run_dir / settings_file.path).read_text())
    assert record["consistent_settings"] and record["ecutwfc_ry"] == 12.0
    assert len(store.engine_calls(out.run_id)) == 2


def test_requests_are_claimed_and_refused_precisely() -> None:
    assert dft_cohesive.parse_request("cohesive energy of Cu with PBE") == {
        "formula": "Cu",
        "structure": "bulk",
        "functional": "pbe",
    }
    assert dft_cohesive.parse_request("band gap of Si") is None
    assert dft_cohesive.parse_request("cohesive energy of Cu with EMT") is None
    with pytest.raises(ValidationError, match="smearing"):
        dft_cohesive.PROTOCOL.validate({**SI, "smearing": "none"})
