"""`simwright engines` lists the registered engines; `simwright run` refuses a protocol
whose engine is missing before any run is created."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from simwright.cli.main import app


def test_engines_lists_every_registered_engine_with_its_version(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["engines", "--json"], env={"SIMWRIGHT_HOME": str(tmp_path)})
    assert result.exit_code == 0
    engines = {e["name"]: e for e in json.loads(result.stdout)["engines"]}
    assert set(engines) == {"ase", "espresso", "lammps", "packmol"}
    assert all(e["available"] and e["version"] for e in engines.values())
    assert engines["packmol"]["command"].endswith("packmol")


def test_run_is_refused_when_its_engine_is_missing(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text(f'[engines]\nlmp = "{tmp_path / "no-lmp"}"\n')
    result = CliRunner().invoke(
        app,
        ["run", "self-diffusion coefficient of SPC/E water at 298 K", "--json"],
        env={"SIMWRIGHT_HOME": str(home)},
    )
    assert result.exit_code == 2
    error = json.loads(result.stdout)["error"]
    assert "missing engine(s)" in error and "lammps" in error
    assert not (home / "runs").exists()  # refused before any run was created
