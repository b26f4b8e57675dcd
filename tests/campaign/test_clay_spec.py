"""The clay desorption specs: both shipped specs validate and plan with a cost estimate."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import yaml
from typer.testing import CliRunner

from helpers.paths import REPO
from simwright.builders.clay import ClayParameters
from simwright.campaign import CampaignSpecError, load_spec, parse_spec
from simwright.campaign.clay import ClaySegmentEngine, segment_problems
from simwright.campaign.plan import plan
from simwright.cli.campaign import campaign_app
from simwright.engines.lammps.launcher import LammpsLauncher, find_lmp

FULL = REPO / "examples" / "clay_desorption" / "campaign.yaml"
QUICK = REPO / "examples" / "clay_desorption" / "campaign_quick.yaml"


def engine() -> ClaySegmentEngine:
    return ClaySegmentEngine(lambda: LammpsLauncher(find_lmp(), mpi_ranks=1, omp_threads=1))


def test_the_full_spec_is_the_papers_campaign() -> None:
    spec = load_spec(FULL, engine())
    assert len(spec.systems) == 5 and [c.relative_humidity for c in spec.conditions] == [
        0.9,
        0.3,
        0.1,
    ]
    counts = [ClayParameters.model_validate(s.parameters).cation_count() for s in spec.systems]
    assert counts == [12, 16, 20, 16, 8]
    assert {r.cv_max for r in spec.acceptance.values()} == {0.03, 0.05, 0.08}
    cost = plan(spec, engine())["cost"]
    assert 0 < cost["core_hours_min"] < cost["core_hours_max"]
    assert 0 < cost["disk_gb_min"] < cost["disk_gb_max"]


def test_the_quick_spec_is_one_small_system_with_no_model_calls() -> None:
    spec = load_spec(QUICK, engine())
    assert len(spec.systems) == 1 and spec.model_calls.per_campaign == 0
    assert plan(spec, engine())["cost"]["core_hours_max"] < 1.0


def _problems(data: dict) -> dict[str, str]:
    with pytest.raises(CampaignSpecError) as info:
        parse_spec(data, "t", engine())
    return {p.field: p.problem for p in info.value.problems}


def test_a_stated_pressure_or_a_missing_humidity_is_refused_by_name() -> None:
    data = yaml.safe_load(QUICK.read_text())
    data["conditions"][0]["pressure_bar"] = 0.01
    del data["conditions"][1]["relative_humidity"]
    data["systems"][0]["parameters"]["layer_charge"] = 0.5
    data["systems"][0]["parameters"]["cells"] = [3, 2]
    found = _problems(data)
    assert "relative_humidity" in found["conditions[0].pressure_bar"]
    assert found["conditions[1].relative_humidity"] == "required by lammps_clay_gcmc"
    assert "divisible by 4" in found["systems[0].parameters.layer_charge"]
    assert "twice pair_cutoff_a" in found["systems[0].parameters"]


def test_cli_plan_prints_the_estimated_cost(tmp_path: Path) -> None:
    cli = CliRunner()
    env = {"SIMWRIGHT_HOME": str(tmp_path / "home")}
    shown = cli.invoke(campaign_app, ["plan", str(FULL), "--json"], env=env)
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.stdout)["cost"]["core_hours_max"] > 1
    text = cli.invoke(campaign_app, ["plan", str(FULL)], env=env)
    assert "core-hours" in text.stdout and "GB on disk" in text.stdout


def test_a_segment_that_loses_an_ion_or_miscounts_water_is_flagged() -> None:
    good = {
        "n_ions": np.array([8.0, 8.0]),
        "n_water": np.array([10.0, 11.0]),
        "n_interlayer": np.array([6.0, 6.0]),
        "n_below": np.array([2.0, 2.0]),
        "n_above": np.array([2.0, 3.0]),
    }
    assert segment_problems(good, 8) == []
    bad = {**good, "n_ions": np.array([8.0, 7.0]), "n_above": np.array([2.0, 2.0])}
    found = segment_problems(bad, 8)
    assert "ion count left 8: [7.0, 8.0]" in found[0] and "differs from the total" in found[1]
