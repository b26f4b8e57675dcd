"""The diffusivity protocol end to end with real PACKMOL and LAMMPS on tiny systems."""

from __future__ import annotations

import json

import pytest

from simwright.errors import ParseError
from simwright.graph import Runner
from simwright.protocols.liquids.diffusivity import PROTOCOL, DiffusivityParams, parse_request


def _run(store, settings, **raw):
    params = PROTOCOL.validate(raw)
    runner = Runner(store, settings)
    out = runner.start(
        PROTOCOL.graph, PROTOCOL.first_step(params), protocol=PROTOCOL.name, params=params
    )
    assert out.status == "completed", out.error
    return out


def _rules(store, run_id):
    return [(s.name, s.decided_by) for s in store.steps(run_id)]


def test_argon_fixed_density_with_a_forced_extension(store, settings) -> None:
    out = _run(
        store,
        settings,
        system="lj_argon",
        n_molecules=64,
        equilibration_ps=1.0,
        production_ps=4.0,
        extension_ps=2.0,
        r2_min=0.999999,
        max_extensions=1,
    )
    d = out.result.values["diffusion_coefficient"]
    assert d.unit == "1e-5 cm^2/s" and 0.3 < d.value < 10 and d.uncertainty > 0
    assert d.source.endswith("msd.h5")
    rules = _rules(store, out.run_id)
    assert ("SelectFrame", "rule:fixed_density_final_state") in rules
    assert ("AnalyzeMSD", "rule:extend_low_r2") in rules
    assert ("AnalyzeMSD", "rule:max_extensions_reached") in rules
    assert [n for n, _ in rules].count("Production") == 2
    calls = store.engine_calls(out.run_id)
    assert [c.engine for c in calls][:1] == ["packmol"]
    assert all(c.exit_code == 0 for c in calls)
    report = next(a for a in out.result.artifacts if a.kind == "report")
    assert "WARNING: R²" in (settings.runs_path / out.run_id / report.path).read_text()


def test_water_npt_selects_the_frame_closest_to_mean_density(store, settings) -> None:
    out = _run(
        store,
        settings,
        system="spce_water",
        n_molecules=32,
        equilibration_ps=1.0,
        production_ps=2.0,
        max_extensions=0,
    )
    steps = store.steps(out.run_id)
    minimize = next(s for s in steps if s.name == "Minimize")
    assert minimize.decided_by == "rule:rigid_molecules_skip_minimization"
    select = next(s for s in steps if s.name == "SelectFrame")
    assert select.decided_by == "rule:closest_density_frame"
    assert "mean of the last half" in select.reason
    event = next(e for e in store.events(out.run_id) if e.kind == "frame_selected")
    assert "snapshot." in event.message
    payload = json.loads(event.payload_json)
    assert abs(payload["density_g_cm3"] - payload["window_mean_g_cm3"]) < 0.2
    values = out.result.values
    assert "diffusion_coefficient_yeh_hummer" in values
    assert values["temperature_mean"].unit == "K"
    pack = next(s for s in steps if s.name == "Pack")
    (summary,) = json.loads(pack.structure_json)
    assert summary["composition"] == {"H": 64, "O": 32} and summary["n_close_pairs"] == 0


def test_parameters_take_system_defaults_and_refuse_contradictions() -> None:
    water = DiffusivityParams.model_validate({"system": "spce_water"})
    assert (water.temperature_k, water.pressure_bar, water.n_molecules) == (298.15, 1.01325, 216)
    argon = DiffusivityParams.model_validate({"system": "lj_argon"})
    assert argon.density_g_cm3 == 1.374 and argon.pressure_bar is None
    fixed = DiffusivityParams.model_validate({"system": "spce_water", "density_g_cm3": 0.997})
    assert not fixed.npt
    with pytest.raises(ValueError, match="either pressure_bar"):
        DiffusivityParams.model_validate(
            {"system": "spce_water", "density_g_cm3": 1.0, "pressure_bar": 1.0}
        )
    with pytest.raises(ValueError, match="temperature_k"):
        DiffusivityParams.model_validate({"system": "spce_water", "temperature_k": -5})


def test_request_parsing() -> None:
    assert parse_request("self-diffusion coefficient of SPC/E water at 298 K") == {
        "system": "spce_water",
        "temperature_k": 298.0,
    }
    assert parse_request("diffusivity of liquid argon at 90 K with 256 atoms") == {
        "system": "lj_argon",
        "temperature_k": 90.0,
        "n_molecules": 256,
    }
    assert parse_request("lattice constant of Cu") is None


def test_tip4p2005_water_runs_with_its_references(store, settings) -> None:
    out = _run(
        store,
        settings,
        system="tip4p2005_water",
        n_molecules=32,
        equilibration_ps=1.0,
        production_ps=2.0,
        max_extensions=0,
    )
    values = out.result.values
    assert values["diffusion_coefficient"].unit == "1e-5 cm^2/s"
    assert values["diffusion_coefficient_yeh_hummer"].value > values["diffusion_coefficient"].value
    assert any("Abascal" in r.citation and r.value == 2.08 for r in out.result.references)
    assert 0.6 < values["density_mean"].value < 1.4


def test_water_models_in_words() -> None:
    assert parse_request("self-diffusion of TIP4P/2005 water at 298 K") == {
        "system": "tip4p2005_water",
        "temperature_k": 298.0,
    }
    assert parse_request("diffusion coefficient of TIP3P water")["system"] == "tip3p_water"  # type: ignore[index]
    with pytest.raises(ParseError, match="'TIP5P' is not available"):
        parse_request("self-diffusion of TIP5P water at 298 K")
