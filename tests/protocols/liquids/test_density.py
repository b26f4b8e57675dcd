"""The density protocol with real PACKMOL and LAMMPS on tiny systems."""

from __future__ import annotations

import pytest

from simwright.errors import ParseError
from simwright.graph import Runner
from simwright.protocols.liquids.density import PROTOCOL, DensityParams, parse_request


def test_tip4p2005_density_is_sampled_extended_and_reported(store, settings) -> None:
    params = PROTOCOL.validate(
        {
            "system": "tip4p2005_water",
            "n_molecules": 32,
            "equilibration_ps": 0.5,
            "production_ps": 1.0,
            "sem_tol": 1e-6,
            "max_extensions": 1,
        }
    )
    out = Runner(store, settings).start(
        PROTOCOL.graph, PROTOCOL.first_step(params), protocol=PROTOCOL.name, params=params
    )
    assert out.status == "completed", out.error
    rho = out.result.values["density"]
    assert rho.unit == "g/cm^3" and 0.6 < rho.value < 1.4 and rho.uncertainty > 0
    assert out.result.values["sampled_time"].value == pytest.approx(1.5, abs=0.05)
    decided = [(s.name, s.decided_by) for s in store.steps(out.run_id)]
    assert ("Prepare", "rule:rigid_molecules_skip_minimization") in decided
    assert ("CheckConvergence", "rule:extend_density_sampling") in decided
    assert ("CheckConvergence", "rule:density_not_converged") in decided
    assert any(r.value == 0.993 for r in out.result.references)
    report = next(a for a in out.result.artifacts if a.kind == "report")
    text = (settings.runs_path / out.run_id / report.path).read_text()
    assert "Abascal" in text and "WARNING" in text
    assert "long-range LJ tail correction on (pair_modify shift no tail yes)" in text


def test_density_parameters_and_requests() -> None:
    argon = DensityParams.model_validate({"system": "lj_argon"})
    assert (argon.temperature_k, argon.pressure_bar, argon.density_g_cm3) == (85.0, 1.01325, None)
    with pytest.raises(ValueError, match="give pressure_bar"):
        DensityParams.model_validate({"system": "spce_water", "density_g_cm3": 1.0})
    with pytest.raises(ValueError, match="unknown system 'hexane'"):
        DensityParams.model_validate({"system": "hexane"})
    assert parse_request("density of TIP4P/2005 water at 298 K and 1 bar") == {
        "system": "tip4p2005_water",
        "temperature_k": 298.0,
        "pressure_bar": 1.0,
    }
    assert parse_request("density of molten NaCl at 1200 K") == {
        "system": "nacl_melt",
        "temperature_k": 1200.0,
    }
    with pytest.raises(ParseError, match="'TIP5P' is not available"):
        parse_request("density of TIP5P water at 298 K")
    assert parse_request("lattice constant of Cu") is None


@pytest.mark.slow
def test_methanol_opls_aa_density_is_minimized_sampled_and_compared(store, settings) -> None:
    # 20 flexible OPLS-AA methanols, 0.5 + 0.5 ps: a smoke-level density near the liquid's
    params = PROTOCOL.validate(
        {
            "system": "methanol",
            "n_molecules": 20,
            "equilibration_ps": 0.5,
            "production_ps": 0.5,
            "max_extensions": 0,
        }
    )
    assert parse_request("density of methanol at 298 K and 1 atm") == {
        "system": "methanol",
        "temperature_k": 298.0,
        "pressure_bar": 1.01325,
    }
    out = Runner(store, settings).start(
        PROTOCOL.graph, PROTOCOL.first_step(params), protocol=PROTOCOL.name, params=params
    )
    assert out.status == "completed", out.error
    assert 0.4 < out.result.values["density"].value < 1.2
    assert any(r.value == 0.7866 for r in out.result.references)
    calls = store.engine_calls(out.run_id)
    assert sum(c.engine == "lammps" for c in calls) == 3  # minimize, NPT, NPT sampling
