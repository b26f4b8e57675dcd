"""The viscosity protocol with real PACKMOL and LAMMPS on tiny systems."""

from __future__ import annotations

import json

import numpy as np
import pytest

from simwright.contract import read_table
from simwright.errors import ParseError
from simwright.graph import Runner
from simwright.protocols.liquids.viscosity import PROTOCOL, ViscosityParams, parse_request


def test_argon_green_kubo_and_helfand_after_an_extension(store, settings) -> None:
    params = PROTOCOL.validate(
        {
            "system": "lj_argon",
            "n_molecules": 256,
            "equilibration_ps": 2.0,
            "production_ps": 8.0,
            "sample_interval_fs": 10.0,
            # lags up to 2 ps cannot hold a 2.2 ps window: the rule extends once (to 3 ps);
            # the tolerance is loose because 12 ps of 256 atoms is a noisy integral
            "max_lag_fraction": 0.25,
            "plateau_window_fs": 2200.0,
            "plateau_rel_tol": 0.8,
        }
    )
    out = Runner(store, settings).start(
        PROTOCOL.graph, PROTOCOL.first_step(params), protocol=PROTOCOL.name, params=params
    )
    assert out.status == "completed", out.error
    gk, hf = out.result.values["viscosity"], out.result.values["viscosity_helfand"]
    assert gk.unit == hf.unit == "mPa*s"
    # LJ argon near its triple point: about 0.2–0.3 mPa·s; a 12 ps run is far noisier
    assert 0.03 < gk.value < 1.5 and gk.uncertainty is not None
    assert 0.0 < hf.value < 2.0
    decided = [(s.name, s.decided_by) for s in store.steps(out.run_id)]
    assert ("Analyze", "rule:extend_no_plateau") in decided
    assert ("Analyze", "rule:green_kubo_plateau") in decided
    assert ("Equilibrate", "rule:fixed_density_final_state") in decided
    table_ref = next(a for a in out.result.artifacts if a.path.endswith("viscosity.h5"))
    table = read_table(settings.runs_path / out.run_id / table_ref.path)
    assert table.column("eta_running").unit == "mPa*s"
    assert table.attrs["n_samples"] == 1201  # steps 0..12 ps every 10 fs, repeats dropped
    assert np.isclose(table["lag"][1], 10.0)


def test_water_production_starts_from_the_frame_closest_to_mean_density(store, settings) -> None:
    params = PROTOCOL.validate(
        {
            "system": "spce_water",
            "n_molecules": 32,
            "equilibration_ps": 1.0,
            "production_ps": 2.0,
            "plateau_window_fs": 100.0,
            "plateau_rel_tol": 0.9,
            "max_lag_fraction": 0.5,
            "max_extensions": 0,
        }
    )
    out = Runner(store, settings).start(
        PROTOCOL.graph, PROTOCOL.first_step(params), protocol=PROTOCOL.name, params=params
    )
    assert out.status == "completed", out.error
    equilibrate = next(s for s in store.steps(out.run_id) if s.name == "Equilibrate")
    assert equilibrate.decided_by == "rule:closest_density_frame"
    assert "mean of the last half" in equilibrate.reason
    event = next(e for e in store.events(out.run_id) if e.kind == "frame_selected")
    assert "snapshot." in event.message
    payload = json.loads(event.payload_json)
    assert abs(payload["density_g_cm3"] - payload["window_mean_g_cm3"]) < 0.2


def test_viscosity_defaults_and_requests() -> None:
    water = ViscosityParams.model_validate({"system": "tip4p2005_water"})
    assert (water.sample_interval_fs, water.plateau_window_fs, water.production_ps) == (
        4.0,
        2000.0,
        100.0,
    )
    assert parse_request("viscosity of TIP4P/2005 water at 298 K by Green–Kubo") == {
        "system": "tip4p2005_water",
        "temperature_k": 298.0,
    }
    assert parse_request("shear viscosity of liquid argon")["system"] == "lj_argon"  # type: ignore[index]
    with pytest.raises(ParseError, match="'TIP4P-Ew' is not available"):
        parse_request("viscosity of TIP4P-Ew water")
    assert parse_request("density of water") is None
