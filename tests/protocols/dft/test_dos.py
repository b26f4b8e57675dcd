"""dft_dos end to end with real pw.x, dos.x and projwfc.x on a tiny Si cell, and its requests."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from simwright.contract import read_table
from simwright.graph import Runner
from simwright.protocols.dft import dos as dft_dos
from simwright.settings import Settings
from simwright.store import Store

needs_tools = pytest.mark.skipif(
    any(shutil.which(t) is None for t in ("pw.x", "dos.x", "projwfc.x"))
    or not Path("/usr/share/espresso/pseudo/Si.pz-vbc.UPF").is_file(),
    reason="pw.x, dos.x, projwfc.x and quantum-espresso-data are needed",
)


@needs_tools
def test_si_dos_integrates_to_the_valence_electrons_and_is_projected_on_s_and_p(
    store: Store, settings: Settings
) -> None:
    raw = {
        "structure": {"kind": "bulk", "name": "Si"},
        "functional": "lda",
        "ecutwfc_ry": 12.0,
        "kspacing_inv_a": 0.5,
        "dense_kspacing_inv_a": 0.4,
        "delta_e_ev": 0.05,
    }
    params = dft_dos.PROTOCOL.validate(raw)
    out = Runner(store, settings).start(
        dft_dos.GRAPH, dft_dos.PROTOCOL.first_step(params), protocol="dft_dos", params=params
    )
    assert out.status == "completed", out.error
    dos = read_table(out.run_dir / out.result.values["fermi_energy"].source)
    below = np.asarray(dos["energy_minus_fermi"]) <= 0
    assert np.asarray(dos["int_dos"])[below][-1] == pytest.approx(8.0, abs=0.1)
    assert dos.column("dos").unit == "1/eV"
    pdos = read_table(out.run_dir / next(a.path for a in out.result.artifacts if "pdos" in a.path))
    assert {"Si_s", "Si_p"} <= set(pdos.names)
    assert [c.engine for c in store.engine_calls(out.run_id)] == [
        "espresso",
        "espresso",
        "dos",
        "projwfc",
    ]


def test_requests_are_claimed_precisely() -> None:
    assert dft_dos.parse_request("density of states of bcc Fe") == {
        "formula": "Fe",
        "structure": "bulk",
        "lattice": "bcc",
    }
    assert dft_dos.parse_request("projected DOS of Si with PBE") == {
        "formula": "Si",
        "structure": "bulk",
        "functional": "pbe",
    }
    assert dft_dos.parse_request("band structure of Si") is None
