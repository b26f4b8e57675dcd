"""dft_formation_energy: MgO from hcp Mg and triplet O₂ with real pw.x, and its requests."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from simwright.errors import ValidationError
from simwright.graph import Runner
from simwright.protocols.dft import formation as dft_formation
from simwright.settings import Settings
from simwright.store import Store

PSEUDO = Path("/usr/share/espresso/pseudo")
needs_pw = pytest.mark.skipif(
    shutil.which("pw.x") is None or not (PSEUDO / "Mg.pz-n-vbc.UPF").is_file(),
    reason="pw.x and quantum-espresso-data are needed",
)


@needs_pw
@pytest.mark.slow
def test_mgo_formation_energy_end_to_end(store: Store, settings: Settings) -> None:
    raw = {
        "structure": {"kind": "bulk", "name": "MgO"},
        "functional": "lda",
        "ecutwfc_ry": 20.0,
        "kspacing_inv_a": 0.6,
        "box_a": 7.0,
    }
    params = dft_formation.PROTOCOL.validate(raw)
    out = Runner(store, settings).start(
        dft_formation.GRAPH, dft_formation.PROTOCOL.first_step(params), protocol="dft_formation"
    )
    assert out.status == "completed", out.error
    delta = out.result.values["formation_energy"]
    # coarse settings; experiment −6.24 eV per MgO (CRC)
    assert delta.unit == "eV" and -8.0 < delta.value < -4.5
    assert out.result.references[0].value == pytest.approx(-6.235, abs=0.01)
    settings_file = next(a for a in out.result.artifacts if a.kind == "settings")
    record = json.loads((out.run_dir / settings_file.path).read_text())
    assert record["consistent_settings"] and record["o2_correction"] == "none"
    assert record["runs"]["ref-O"]["tot_magnetization"] == 2.0
    assert len(store.engine_calls(out.run_id)) == 3
    report = next(a for a in out.result.artifacts if a.path.endswith("report.md"))
    assert "not corrected" in (out.run_dir / report.path).read_text()


def test_requests_are_claimed_and_refused_precisely() -> None:
    assert dft_formation.parse_request("formation energy of MgO with LDA") == {
        "formula": "MgO",
        "structure": "bulk",
        "functional": "lda",
    }
    raw = dft_formation.parse_request("formation energy of MgO with PBE and the Wang O2 correction")
    assert raw is not None and raw["o2_correction"] == "wang2006"
    assert dft_formation.parse_request("vacancy formation energy of Al with PBE") is None
    assert dft_formation.parse_request("formation energy of MgO") is None
    with pytest.raises(ValidationError, match="fitted for PBE only"):
        dft_formation.PROTOCOL.validate(
            {"formula": "MgO", "functional": "lda", "o2_correction": "wang2006"}
        )
    with pytest.raises(ValidationError, match="is an element"):
        dft_formation.PROTOCOL.validate({"formula": "Cu"})
