"""The Green–Kubo protocol end to end with real PACKMOL and LAMMPS on a tiny argon box."""

from __future__ import annotations

import pytest

from simwright.contract import read_table
from simwright.errors import ParseError
from simwright.graph import Runner
from simwright.protocols.liquids.thermal_conductivity import PROTOCOL, parse_request


def test_green_kubo_argon_gives_a_plausible_kappa(store, settings) -> None:
    params = PROTOCOL.validate(
        {
            "n_atoms": 108,
            "equilibration_ps": 2.0,
            "production_ps": 20.0,
            "correlation_ps": 2.0,
            "plateau_rel_tol": 0.3,
        }
    )
    out = Runner(store, settings).start(
        PROTOCOL.graph, PROTOCOL.first_step(params), protocol=PROTOCOL.name, params=params
    )
    assert out.status == "completed", out.error
    kappa = out.result.values["thermal_conductivity"]
    assert kappa.unit == "W/(m K)"
    assert 0.01 < kappa.value < 1.0  # liquid argon is ~0.1; a unit slip is off by 10^3
    table = read_table(settings.runs_path / out.run_id / kappa.source)
    assert table.column("kappa_running").unit == "W/(m K)"
    assert table["lag"].max() <= 4000.0
    script = next((settings.runs_path / out.run_id / "steps").glob("004-SampleHeatFlux"))
    text = (script / "in.lammps").read_text()
    assert "centroid/stress/atom NULL virial" in text and "heat/flux" in text


def test_requests() -> None:
    assert parse_request("thermal conductivity of liquid argon by Green–Kubo at 90 K") == {
        "system": "lj_argon",
        "temperature_k": 90.0,
    }
    with pytest.raises(ParseError, match="argon only"):
        parse_request("thermal conductivity of copper")
    assert parse_request("diffusion of water") is None
