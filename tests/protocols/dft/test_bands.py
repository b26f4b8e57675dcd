"""dft_bands end to end with real pw.x and bands.x on a tiny Si cell, and its requests."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from simwright.contract import read_table
from simwright.errors import ParseError
from simwright.graph import Runner
from simwright.protocols.dft import bands as dft_bands
from simwright.settings import Settings
from simwright.store import Store

needs_tools = pytest.mark.skipif(
    shutil.which("pw.x") is None
    or shutil.which("bands.x") is None
    or not Path("/usr/share/espresso/pseudo/Si.pz-vbc.UPF").is_file(),
    reason="pw.x, bands.x and quantum-espresso-data are needed",
)
CHEAP = {
    "functional": "lda",
    "ecutwfc_ry": 12.0,
    "kspacing_inv_a": 0.5,
    "dense_kspacing_inv_a": 0.45,
    "path_points": 20,
}


def run(raw: dict, store: Store, settings: Settings):  # type: ignore[no-untyped-def]
    params = dft_bands.PROTOCOL.validate(raw)
    return Runner(store, settings).start(
        dft_bands.GRAPH,
        dft_bands.PROTOCOL.first_step(params),
        protocol="dft_bands",
        params=params,
        request="test",
    )


@needs_tools
def test_si_has_an_indirect_gap_from_the_path_and_the_uniform_mesh(
    store: Store, settings: Settings
) -> None:
    out = run({"structure": {"kind": "bulk", "name": "Si"}, **CHEAP}, store, settings)
    assert out.status == "completed", out.error
    values = out.result.values
    assert values["gap_is_direct"].value == 0.0
    assert 0.2 < values["band_gap_path"].value < 1.0  # LDA at 12 Ry: about 0.5 eV
    assert 0.2 < values["band_gap"].value < 1.2
    assert "indirect (VBM at Γ" in out.result.summary and "(LDA)" in out.result.summary
    table = read_table(out.run_dir / values["band_gap_path"].source)
    assert table.column("energy").unit == "eV"
    assert np.all(np.diff(np.asarray(table["distance"])) >= 0)
    engines = [c.engine for c in store.engine_calls(out.run_id)]
    assert engines == ["espresso", "espresso", "bands", "espresso", "bands"]
    assert (out.run_dir / next(a.path for a in out.result.artifacts if a.kind == "plot")).is_file()


@needs_tools
def test_gaas_is_refused_by_name_when_ga_has_no_pseudopotential(
    store: Store, settings: Settings
) -> None:
    if any(Path("/usr/share/espresso/pseudo").glob("Ga.*")):
        pytest.skip("a Ga pseudopotential is installed")
    out = run({"structure": {"kind": "bulk", "name": "GaAs"}, "functional": "pbe"}, store, settings)
    assert out.status == "failed"
    assert "for Ga" in (out.error or "")


def test_requests_are_claimed_and_choices_kept() -> None:
    raw = dft_bands.parse_request("band gap of GaAs with PBE")
    assert raw == {"formula": "GaAs", "structure": "bulk", "functional": "pbe"}
    assert dft_bands.parse_request("band structure of Si") is not None
    assert dft_bands.parse_request("density of states of Si") is None
    assert dft_bands.parse_request("SCF of Si with PBE") is None
    with pytest.raises(ParseError, match="hybrid"):
        dft_bands.parse_request("band gap of Si with HSE")
    with pytest.raises(ParseError, match="bulk"):
        dft_bands.parse_request("band structure of a Cu(111) slab")
