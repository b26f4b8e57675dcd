"""Input that is not valid UTF-8 is refused before anything is created; ``inspect`` fails
on a broken file; read-only commands create no store and no home."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from simwright.cli.main import app
from simwright.contract import Table, write_table
from simwright.contract.tables import Column


def _simwright(home: Path, *args: str | bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "simwright", *args],
        env=dict(os.environ, SIMWRIGHT_HOME=str(home)),
        capture_output=True,
        timeout=120,
        check=False,
    )


def _nothing_created(home: Path) -> bool:
    return not (home / "runs").exists() or not any((home / "runs").iterdir())


@pytest.mark.parametrize("command", ["run", "plan"])
def test_a_request_with_bytes_that_are_not_utf8_is_refused(tmp_path: Path, command: str) -> None:
    home = tmp_path / "home"
    proc = _simwright(home, command, b"lattice constant of fcc Cu \xff with EMT")
    assert proc.returncode == 2, proc.stderr
    err = proc.stderr.decode()
    assert "not valid UTF-8" in err and "0xff" in err and "Traceback" not in err
    assert _nothing_created(home)


def test_a_spec_file_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    home = tmp_path / "home"
    spec = tmp_path / "spec.yaml"
    spec.write_bytes(b"protocol: lattice_constant\nparameters:\n  element: Cu\xe9\n")
    proc = _simwright(home, "run", str(spec), "--json")
    assert proc.returncode == 2
    out = json.loads(proc.stdout)
    assert out["status"] == "error" and "not valid UTF-8" in out["error"]
    assert _nothing_created(home)


def _table(path: Path) -> Path:
    table = Table("t", (Column("x", np.arange(2000.0), "nm"),), "a test table")
    return write_table(path, table)


def test_inspect_fails_on_a_truncated_hdf5_table(tmp_path: Path) -> None:
    runner = CliRunner()
    good = _table(tmp_path / "good.h5")
    data = good.read_bytes()
    bad = tmp_path / "truncated.h5"
    bad.write_bytes(data[: len(data) // 2])
    ok = runner.invoke(app, ["inspect", str(good), "--json"])
    assert ok.exit_code == 0 and json.loads(ok.stdout)["ok"]
    broken = runner.invoke(app, ["inspect", str(bad), "--json"])
    assert broken.exit_code == 1
    out = json.loads(broken.stdout)
    assert not out["ok"] and "truncated" in out["problems"][0]
    in_words = runner.invoke(app, ["inspect", str(bad)])
    assert in_words.exit_code == 1 and "problem:" in in_words.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["runs"],
        ["show", "20260101"],
        ["verify", "20260101"],
        ["plan", "lattice constant of fcc Cu with EMT"],
        ["protocols"],
        ["memory", "list"],
        ["memory", "search", "water diffusion"],
    ],
    ids=lambda a: " ".join(a[:2]),
)
def test_read_only_commands_create_no_store_and_no_home(tmp_path: Path, args: list[str]) -> None:
    runner = CliRunner()
    home = tmp_path / "nowhere" / "home"
    result = runner.invoke(app, [*args, "--json"], env={"SIMWRIGHT_HOME": str(home)})
    assert result.exit_code in (0, 2), result.output
    if result.exit_code == 2:
        assert "no simwright store at" in json.loads(result.stdout)["error"]
    assert not (tmp_path / "nowhere").exists()


def test_runs_in_an_existing_folder_leaves_no_database_there(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["runs", "--home", str(tmp_path), "--json"])
    assert result.exit_code == 0 and json.loads(result.stdout) == {"runs": []}
    assert list(tmp_path.iterdir()) == []
