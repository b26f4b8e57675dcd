"""A campaign's segment engine is a registered name: a ``module:Class`` in the spec is
refused before any campaign exists, naming the engines that are allowed."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from typer.testing import CliRunner

from helpers.campaign import SYNTHETIC, merged
from simwright.cli.campaign import campaign_app


def test_an_import_path_as_engine_is_refused_before_anything_is_created(tmp_path: Path) -> None:
    spec = tmp_path / "bad.yaml"
    spec.write_text(yaml.safe_dump(merged(SYNTHETIC, {"segment": {"engine": "subprocess:Popen"}})))
    home = tmp_path / "home"
    result = CliRunner().invoke(
        campaign_app, ["run", str(spec), "--json"], env={"SIMWRIGHT_HOME": str(home)}
    )
    assert result.exit_code == 2
    error = json.loads(result.stdout)["error"]
    assert "unknown engine 'subprocess:Popen'" in error
    assert "lammps_gcmc" in error and "synthetic" in error
    assert not (home / "campaigns").exists()
