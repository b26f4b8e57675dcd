"""dft_vacancy_formation_energy: a real (tiny) Al supercell whose SCFs are repaired by the
error-recovery machine, and its requests."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from simwright.errors import ParseError, ValidationError
from simwright.graph import Runner
from simwright.protocols.dft import vacancy as dft_vacancy
from simwright.settings import Settings
from simwright.store import Store

PSEUDO = Path("/usr/share/espresso/pseudo")
needs_pw = pytest.mark.skipif(
    shutil.which("pw.x") is None or not (PSEUDO / "Al.pz-vbc.UPF").is_file(),
    reason="pw.x and quantum-espresso-data are needed",
)


@needs_pw
@pytest.mark.slow
def test_al_vacancy_through_the_recovery_machine(store: Store, settings: Settings) -> None:
    raw = {
        "structure": {"kind": "bulk", "name": "Al"},
        "functional": "lda",
        "ecutwfc_ry": 12.0,
        "kspacing_inv_a": 0.6,
        "supercell": (1, 1, 1),
        "overrides": {"electrons": {"electron_maxstep": 3}},
    }
    params = dft_vacancy.PROTOCOL.validate(raw)
    out = Runner(store, settings).start(
        dft_vacancy.GRAPH, dft_vacancy.PROTOCOL.first_step(params), protocol="dft_vacancy"
    )
    assert out.status == "completed", out.error
    values = out.result.values
    assert values["supercell_atoms"].value == 4
    assert values["vacancy_formation_energy"].unit == "eV"
    assert 0.2 < values["vacancy_formation_energy"].value < 3.0  # 3-atom cell, coarse
    assert out.result.references[0].value == 0.67
    # electron_maxstep=3 cannot converge: every run is repaired and rerun
    calls = store.engine_calls(out.run_id)
    assert len(calls) >= 4 and any(c.exit_code != 0 for c in calls)
    steps = store.steps(out.run_id)
    assert steps[1].decided_by.startswith("rule:dft_recovery:")
    assert steps[1].decided_by != "rule:dft_recovery:zero_shot"


def test_requests() -> None:
    raw = dft_vacancy.parse_request("vacancy formation energy of Cu with PBE in a 3x3x3 supercell")
    assert raw == {
        "formula": "Cu",
        "structure": "bulk",
        "functional": "pbe",
        "supercell": (3, 3, 3),
    }
    assert dft_vacancy.parse_request("vacancy formation energy of Cu with EAM") is None
    with pytest.raises(ParseError, match="k-point mesh"):
        dft_vacancy.parse_request("vacancy formation energy of Cu with PBE, 4x4x4 k-points")
    assert dft_vacancy.parse_request("formation energy of MgO with PBE") is None
    with pytest.raises(ValidationError, match="elemental crystal"):
        dft_vacancy.PROTOCOL.validate({"formula": "MgO"})
    cell = dft_vacancy.supercell("Cu", None, None, (2, 2, 2))
    assert len(cell) == 32 and len(dft_vacancy.without_atom(cell)) == 31
