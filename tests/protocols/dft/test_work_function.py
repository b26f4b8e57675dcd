"""dft_work_function end to end with real pw.x and pp.x on a 3-layer Al(111) slab."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from simwright.errors import ParseError
from simwright.graph import Runner
from simwright.protocols.dft import work_function as wf
from simwright.settings import Settings
from simwright.store import Store

needs_tools = pytest.mark.skipif(
    shutil.which("pw.x") is None
    or shutil.which("pp.x") is None
    or not Path("/usr/share/espresso/pseudo/Al.pz-vbc.UPF").is_file(),
    reason="pw.x, pp.x and quantum-espresso-data are needed",
)


@needs_tools
def test_al111_work_function_from_the_planar_average(store: Store, settings: Settings) -> None:
    raw = {
        "structure": {"kind": "surface", "name": "Al", "facet": "111", "vacuum_a": 12.0},
        "functional": "lda",
        "ecutwfc_ry": 15.0,
        "kspacing_inv_a": 0.5,
    }
    params = wf.PROTOCOL.validate(raw)
    out = Runner(store, settings).start(
        wf.GRAPH, wf.PROTOCOL.first_step(params), protocol="dft_work_function"
    )
    assert out.status == "completed", out.error
    phi = out.result.values["work_function"]
    assert phi.unit == "eV" and 3.5 < phi.value < 5.0  # about 4.3 eV at these settings
    assert out.result.values["vacuum_plateau_spread"].value < 0.05
    assert [c.engine for c in store.engine_calls(out.run_id)] == ["espresso", "pp"]


def test_vacuum_middle_is_periodic() -> None:
    assert wf.vacuum_middle(np.array([6.0, 8.0, 10.0]), 20.0) == pytest.approx(18.0)
    assert wf.vacuum_middle(np.array([1.0, 3.0]), 10.0) == pytest.approx(7.0)


def test_requests() -> None:
    assert wf.parse_request("work function of Al(111) with LDA") == {
        "formula": "Al",
        "structure": "surface",
        "facet": "111",
        "functional": "lda",
    }
    assert wf.parse_request("band gap of Si") is None
    with pytest.raises(ParseError, match="surface"):
        wf.parse_request("work function of bulk Cu")
