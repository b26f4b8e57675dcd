"""`plan`, `run` and `dft recommend` take the same path: what `plan` refuses, `run`
refuses before creating a run; what `plan` accepts, it has built the inputs of."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simwright.cli.main import app


@pytest.fixture
def cli(tmp_path: Path):
    runner = CliRunner()
    env = {"SIMWRIGHT_HOME": str(tmp_path / "home")}

    def invoke(*args: str) -> tuple[int, dict]:
        result = runner.invoke(app, [*args, "--json"], env=env)
        return result.exit_code, json.loads(result.stdout)

    return invoke


def test_plan_and_run_refuse_the_same_request_and_no_run_is_left(cli) -> None:
    code, planned = cli("plan", "melting point of Cu with PBE")
    assert code == 2 and "'melting point'" in planned["error"]
    code, ran = cli("run", "melting point of Cu with PBE")
    assert code == 2 and ran["error"] == planned["error"]
    _, runs = cli("runs")
    assert runs["runs"] == []


def test_plan_shows_given_choices_and_the_inputs_it_built(cli) -> None:
    code, out = cli("plan", "lattice constant of fcc Cu with EMT, 7 points")
    assert code == 0
    assert out["parameters"]["calculator"]["source"] == "given"
    assert out["parameters"]["eos"]["source"] == "assumed"
    assert out["phrases"] == [
        {"text": "EMT", "category": "interatomic potential", "how": "given: calculator=emt"}
    ]
    assert out["inputs"][0].startswith("structure: fcc Cu")


def test_a_missing_spec_file_is_named_not_misunderstood(cli) -> None:
    code, out = cli("run", "/nonexistent/spec.yaml")
    assert code == 2 and out["error"] == "no such spec file: /nonexistent/spec.yaml"


def test_dft_recommend_reads_requests_like_plan(cli) -> None:
    code, planned = cli("plan", "relax bulk silicon with PBE")
    assert code == 0 and planned["parameters"]["formula"]["value"] == "Si"
    code, rec = cli("dft", "recommend", "relax bulk silicon with PBE")
    assert code == 0 and rec["formula"] == "Si2"
    code, planned = cli("plan", "SCF of graphene with PBE")
    assert code == 0 and planned["parameters"]["structure"]["value"] == "two_d"
    code, rec = cli("dft", "recommend", "graphene")
    assert code == 0 and rec["system_kind"] == "two_d"
