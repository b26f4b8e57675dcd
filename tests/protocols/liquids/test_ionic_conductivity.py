"""The ionic_conductivity protocol with real PACKMOL and LAMMPS on molten NaCl."""

from __future__ import annotations

import pytest

from simwright.errors import ParseError
from simwright.graph import Runner
from simwright.protocols.liquids.ionic_conductivity import PROTOCOL, parse_request


def test_molten_nacl_einstein_helfand_and_nernst_einstein(store, settings) -> None:
    params = PROTOCOL.validate(
        {
            "system": "nacl_melt",
            "n_molecules": 32,
            "equilibration_ps": 1.0,
            "production_ps": 4.0,
            "frame_interval_fs": 20.0,
        }
    )
    out = Runner(store, settings).start(
        PROTOCOL.graph, PROTOCOL.first_step(params), protocol=PROTOCOL.name, params=params
    )
    assert out.status == "completed", out.error
    values = out.result.values
    sigma, ne = values["conductivity"], values["conductivity_nernst_einstein"]
    assert sigma.unit == ne.unit == "S/cm"
    # molten NaCl conducts a few S/cm; 4 ps of 64 ions is a very noisy estimate
    assert 0.3 < ne.value < 15.0 and 0.0 < sigma.value < 30.0
    for ion in ("Na", "Cl"):
        d = values[f"diffusion_coefficient_{ion}"]
        assert d.unit == "1e-5 cm^2/s" and 2.0 < d.value < 30.0  # about 10 near 1200 K
    assert any("Janz" in r.citation for r in out.result.references)
    pack = store.engine_calls(out.run_id)[0]
    assert pack.engine == "packmol"
    minimize = next(s for s in store.steps(out.run_id) if s.name == "Prepare")
    assert minimize.decided_by != "rule:rigid_molecules_skip_minimization"


def test_requests() -> None:
    assert parse_request("ionic conductivity of molten NaCl at 1200 K") == {
        "system": "nacl_melt",
        "temperature_k": 1200.0,
    }
    assert parse_request("thermal conductivity of argon") is None
    with pytest.raises(ParseError, match="ionic_conductivity does not run spce_water"):
        parse_request("ionic conductivity of water")
