"""`simwright engines` lists the registered engines, found or not, with their versions."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from simwright.cli.main import app


def test_engines_lists_every_registered_engine_with_its_version(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["engines", "--json"], env={"SIMWRIGHT_HOME": str(tmp_path)})
    assert result.exit_code == 0
    engines = {e["name"]: e for e in json.loads(result.stdout)["engines"]}
    in_tree = {"ase", "espresso", "lammps", "packmol", "pormake", "zeo++", "pyscf", "xtb"}
    assert set(engines) == in_tree
    assert all(e["available"] and e["version"] for e in engines.values())
    assert engines["packmol"]["command"].endswith("packmol")
