"""Campaign specs: schema, consistency and engine checks name the field and the problem."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from helpers.campaign import GCMC, SYNTHETIC, gcmc_engine, merged
from helpers.paths import REPO
from simwright.campaign import CampaignSpecError, SyntheticEngine, load_spec, parse_spec
from simwright.campaign.plan import plan
from simwright.cli.campaign import campaign_app

EXAMPLE = REPO / "examples" / "gcmc_desorption" / "campaign.yaml"


def problems(data: dict, checker=None) -> dict[str, str]:
    with pytest.raises(CampaignSpecError) as info:
        parse_spec(data, "t", checker)
    return {p.field: p.problem for p in info.value.problems}


def test_the_shipped_demo_spec_is_valid_for_the_gcmc_engine() -> None:
    spec = load_spec(EXAMPLE, gcmc_engine())
    assert [s.name for s in spec.systems] == ["slit_10A", "slit_14A", "slit_20A"]
    pressures = [c.pressure_bar for c in spec.conditions]
    assert pressures == sorted(pressures, reverse=True)  # adsorb high, then desorb
    assert spec.segment.parameters["wall_gap_a"] >= 2.0
    assert {s.parameters["wall"] for s in spec.systems} == {"steele_10_4_3"}
    assert len(spec.sha256()) == 64


def test_a_slit_pore_names_one_of_the_offered_walls() -> None:
    bad = merged(GCMC, {})
    bad["systems"][0]["parameters"] = {"width_a": 10.0, "lateral_a": 20.0, "wall": "graphene"}
    text = problems(bad, gcmc_engine())["systems[0].parameters.wall"]
    assert "'lj93_continuum'" in text and "'steele_10_4_3'" in text


def test_schema_errors_name_each_field_and_problem() -> None:
    bad = merged(SYNTHETIC, {"continuation": {"segment_steps": 0}, "seed": -1})
    bad["systems"][1]["name"] = "has space"
    bad["conditions"][0]["pressure_bar"] = -5
    bad["acceptance"]["n_adsorbed"]["color"] = "red"
    found = problems(bad)
    assert found["continuation.segment_steps"].startswith("Input should be greater than 0")
    assert "(got -1)" in found["seed"]
    assert "letters, digits" in found["systems[1].name"]
    assert "greater than 0" in found["conditions[0].pressure_bar"]
    assert found["acceptance.n_adsorbed.color"].startswith("is not a known field")


def test_consistency_errors_name_the_field() -> None:
    bad = merged(
        SYNTHETIC,
        {"acceptance": {"loading": {"window_steps": 50000, "cv_max": 0.1, "trend_max": 0.1}}},
    )
    bad["conditions"].append({"name": "p10", "pressure_bar": 1.0})
    bad["review"]["triggers"]["bounds"] = {"n_adsorbed": {"min": 5, "max": 1}}
    found = problems(bad)
    assert "no observable named 'loading'" in found["acceptance.loading"]
    assert "exceeds continuation.max_local_steps" in found["acceptance.loading.window_steps"]
    assert "'p10' is used 2 times" in found["conditions"]
    assert "min 5.0 exceeds max 1.0" in found["review.triggers.bounds.n_adsorbed"]


def test_engine_checks_name_gcmc_fields() -> None:
    bad = merged(GCMC, {"segment": {"parameters": {"wall_gap_a": 1.0, "typo": 1}}})
    bad["conditions"][1].pop("temperature_k")
    found = problems(bad, gcmc_engine())
    assert "greater than or equal to 2" in found["segment.parameters.wall_gap_a"]
    assert found["segment.parameters.typo"].startswith("is not a known field")
    assert found["conditions[1].temperature_k"] == "is required"
    narrow = merged(GCMC, {})
    narrow["systems"][0]["parameters"] = {"width_a": 5.0, "lateral_a": 12.0}
    text = problems(narrow, gcmc_engine())["systems[0].parameters"]
    assert "leaves no insertion region" in text or "minimum-image" in text
    odd = merged(GCMC, {"continuation": {"segment_steps": 525}})
    assert "multiple of" in problems(odd, gcmc_engine())["continuation.segment_steps"]


def test_observables_must_be_reported_by_the_engine() -> None:
    bad = merged(SYNTHETIC, {"observables": [{"name": "n_adsorbed", "unit": "mol/kg"}]})
    found = problems(bad, SyntheticEngine())
    assert "reported in 'molecules'" in found["observables[0].unit"]


def test_plan_lists_states_in_path_order_with_budgets() -> None:
    data = plan(parse_spec(SYNTHETIC, "t"))
    assert [(s["system"], s["condition"]) for s in data["states"][:4]] == [
        ("a", "p50"),
        ("a", "p10"),
        ("a", "p2"),
        ("b", "p50"),
    ]
    assert data["states"][1]["starts_from"] == "archive of p50"
    assert data["states"][0]["min_segments"] == 2 and data["states"][0]["max_segments"] == 20
    assert data["totals"]["max_local_steps"] == 6 * 20000


def test_cli_validate_and_plan(tmp_path: Path) -> None:
    good = tmp_path / "good.yaml"
    good.write_text(yaml.safe_dump(SYNTHETIC))
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(merged(SYNTHETIC, {"segment": {"engine": "nope"}})))
    cli = CliRunner()
    env = {"SIMWRIGHT_HOME": str(tmp_path / "home")}
    ok = cli.invoke(campaign_app, ["validate", str(good), "--json"], env=env)
    assert ok.exit_code == 0, ok.output
    assert json.loads(ok.stdout)["states"] == 6
    refused = cli.invoke(campaign_app, ["validate", str(bad), "--json"], env=env)
    assert refused.exit_code == 2
    assert "segment.engine: unknown engine 'nope'" in json.loads(refused.stdout)["error"]
    shown = cli.invoke(campaign_app, ["plan", str(good), "--json"], env=env)
    assert shown.exit_code == 0 and len(json.loads(shown.stdout)["states"]) == 6
