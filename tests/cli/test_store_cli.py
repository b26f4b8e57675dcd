"""``simwright store copy``: a home's SQLite store copied into PostgreSQL, then used."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from simwright.cli.main import app


def test_copy_to_postgresql_then_list_the_runs_there(tmp_path: Path, pg_server) -> None:
    runner = CliRunner()
    home = {"SIMWRIGHT_HOME": str(tmp_path / "home")}
    made = runner.invoke(app, ["run", "lattice constant of fcc Cu with EMT", "--json"], env=home)
    assert made.exit_code == 0, made.output
    run_id = json.loads(made.stdout)["run_id"]
    url = pg_server.new_database()
    copied = runner.invoke(app, ["store", "copy", url, "--json"], env=home)
    assert copied.exit_code == 0, copied.output
    assert json.loads(copied.stdout)["rows"]["runs"] == 1
    there = {**home, "SIMWRIGHT_DATABASE_URL": url}
    listed = runner.invoke(app, ["runs", "--json"], env=there)
    assert [r["run_id"] for r in json.loads(listed.stdout)["runs"]] == [run_id]
    again = runner.invoke(app, ["store", "copy", url, "--json"], env=home)
    assert again.exit_code == 2 and "not empty" in again.stdout
