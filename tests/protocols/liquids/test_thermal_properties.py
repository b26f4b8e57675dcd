"""liquid_thermal_properties: C_p and α of a liquid from an NPT temperature scan, with real
PACKMOL and LAMMPS on a tiny argon box; its parameters, requests in words and YAML."""

from __future__ import annotations

from pathlib import Path

import pytest

from simwright.errors import ParseError
from simwright.graph import Runner
from simwright.knowledge.planner.resolver import resolve_request
from simwright.knowledge.requests import load_spec
from simwright.protocols.liquids.thermal_properties import (
    PROTOCOL,
    LiquidThermalParams,
    parse_request,
)


@pytest.mark.slow
def test_argon_scan_gives_heat_capacity_and_expansion(store, settings) -> None:
    params = PROTOCOL.validate(
        {
            "system": "lj_argon",
            "n_molecules": 108,
            "equilibration_ps": 2.0,
            "settle_ps": 1.0,
            "production_ps": 4.0,
            "delta_t_k": 4.0,
        }
    )
    out = Runner(store, settings).start(
        PROTOCOL.graph, PROTOCOL.first_step(params), protocol=PROTOCOL.name, params=params
    )
    assert out.status == "completed", out.error
    values = out.result.values
    # a classical monatomic liquid: C_p above the ideal-gas 5/2 R = 20.8 J/(mol K), α > 0
    assert 20.0 < values["heat_capacity_p"].value < 120.0
    assert values["heat_capacity_p"].uncertainty > 0
    assert 0 < values["thermal_expansion"].value < 0.02
    assert values["heat_capacity_p_fluctuation"].value > 12.5  # at least 3/2 R
    assert 1.0 < values["density"].value < 1.6
    names = [s.name for s in store.steps(out.run_id)]
    assert names.count("Sample") == 3
    report = next(a for a in out.result.artifacts if a.kind == "report")
    text = (settings.runs_path / out.run_id / report.path).read_text()
    assert "82 K" in text and "90 K" in text and "Classical" in text


def test_parameters_scan_and_refusals() -> None:
    water = LiquidThermalParams.model_validate({"system": "tip4p2005_water"})
    assert water.temperatures() == (288.15, 298.15, 308.15)
    assert water.pressure_bar == 1.01325 and water.density_g_cm3 is None
    argon = LiquidThermalParams.model_validate({"system": "lj_argon", "n_temperatures": 5})
    assert argon.temperatures() == (80.0, 83.0, 86.0, 89.0, 92.0)
    with pytest.raises(ValueError, match="odd"):
        LiquidThermalParams.model_validate({"system": "lj_argon", "n_temperatures": 4})
    with pytest.raises(ValueError, match="give pressure_bar"):
        LiquidThermalParams.model_validate({"system": "lj_argon", "density_g_cm3": 1.4})
    with pytest.raises(ValueError, match="unknown system 'nacl_melt'"):
        LiquidThermalParams.model_validate({"system": "nacl_melt"})
    with pytest.raises(ParseError, match="does not run nacl_melt"):
        parse_request("heat capacity of molten NaCl")
    assert parse_request("density of water") is None


@pytest.mark.parametrize(
    ("text", "system", "temperature"),
    [
        ("heat capacity of liquid argon", "lj_argon", 86.0),
        ("heat capacity of water", "spce_water", 298.15),
        ("thermal expansion coefficient of TIP4P/2005 water at 300 K", "tip4p2005_water", 300.0),
        ("specific heat of TIP4P/2005 water at 25 °C", "tip4p2005_water", 298.15),
    ],
)
def test_requests_in_words_reach_the_liquid_protocol(
    text: str, system: str, temperature: float
) -> None:
    resolved = resolve_request(text, {PROTOCOL.name: PROTOCOL})
    assert resolved.protocol.name == "liquid_thermal_properties"
    params = resolved.params
    assert params.system == system  # type: ignore[attr-defined]
    assert params.temperature_k == pytest.approx(temperature)  # type: ignore[attr-defined]


def test_yaml_spec(tmp_path: Path) -> None:
    spec = tmp_path / "cp.yaml"
    spec.write_text(
        "protocol: liquid_thermal_properties\nparameters:\n  system: tip4p2005_water\n"
        "  delta_t_k: 5\n  n_temperatures: 5\n"
    )
    resolved = load_spec(spec, {PROTOCOL.name: PROTOCOL})
    assert resolved.params.temperatures() == (288.15, 293.15, 298.15, 303.15, 308.15)  # type: ignore[attr-defined]
