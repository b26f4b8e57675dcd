"""``simwright run --many``: every request planned first, then run side by side in workers."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from helpers.paths import TESTS
from helpers.plugins import allow_test_calculators
from simwright.api.batch import BatchEntry, default_jobs, read_batch
from simwright.cli.main import app
from simwright.settings import Settings

CU = "lattice constant of fcc Cu with EMT, 5 points"
AL = "lattice constant of fcc Al with EMT, 5 points"
REFUSED = "melting point of Cu with PBE"


def _cli(home: Path, *args: str) -> tuple[int, dict]:
    result = CliRunner().invoke(app, [*args, "--home", str(home), "--json"])
    return result.exit_code, json.loads(result.stdout)


def test_a_request_file_skips_blank_lines_and_comments(tmp_path: Path) -> None:
    batch = tmp_path / "batch.txt"
    batch.write_text(f"# tiny runs\n{CU}\n\n{AL}  # aluminium\n  # nothing\nspec.yaml\n")
    assert read_batch(batch) == [
        BatchEntry("batch.txt:2", CU),
        BatchEntry("batch.txt:4", AL),
        BatchEntry("batch.txt:6", str(tmp_path / "spec.yaml")),
    ]


def test_the_default_jobs_share_the_cores_among_runs(tmp_path: Path) -> None:
    assert default_jobs(Settings(home=tmp_path), cores=8) == 8
    assert default_jobs(Settings(home=tmp_path, threads=2, mpi_ranks=2), cores=8) == 2
    assert default_jobs(Settings(home=tmp_path, threads=16), cores=8) == 1


def test_one_refused_request_stops_the_batch_before_anything_runs(tmp_path: Path) -> None:
    batch = tmp_path / "batch.txt"
    batch.write_text(f"{CU}\n{REFUSED}\n")
    code, out = _cli(tmp_path / "home", "run", "--many", str(batch))
    assert code == 2 and out["error"] == "1 of 2 request(s) refused"
    [refused] = out["refused"]
    assert refused["origin"] == "batch.txt:2" and "'melting point'" in refused["error"]
    code, runs = _cli(tmp_path / "home", "runs")
    assert runs["runs"] == []


@pytest.mark.slow
def test_a_batch_runs_in_workers_and_ends_with_a_table(tmp_path: Path) -> None:
    specs = tmp_path / "specs"
    specs.mkdir()
    for name, formula in (("cu.yaml", "Cu"), ("al.yaml", "Al")):
        parameters = {"element": formula, "lattice": "fcc", "n_points": 5, "calculator": "emt"}
        spec = {"protocol": "lattice_constant", "parameters": parameters}
        (specs / name).write_text(yaml.safe_dump(spec))
    (specs / "refused.yaml").write_text(yaml.safe_dump({"protocol": "no_such_protocol"}))
    code, out = _cli(
        tmp_path / "home", "run", "--many", str(specs), "--jobs", "2", "--skip-refused"
    )
    assert code == 0, out
    assert [r["origin"] for r in out["refused"]] == ["refused.yaml"]
    assert [r["status"] for r in out["runs"]] == ["completed", "completed"]
    assert all(" GPa" in r["headline"] or " Å" in r["headline"] for r in out["runs"])
    code, runs = _cli(tmp_path / "home", "runs")
    assert {r["run_id"] for r in runs["runs"]} == {r["run_id"] for r in out["runs"]}


def _env(home: Path) -> dict[str, str]:
    return dict(
        os.environ,
        SIMWRIGHT_HOME=str(home),
        PYTHONPATH=os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")]),
    )


def _scanning(home: Path) -> bool:
    """True once a run's volume scan (the slow step) is running."""
    try:
        with sqlite3.connect(home / "simwright.db") as db:
            sql = "select 1 from steps where name = 'ScanVolumes' and status = 'running'"
            return bool(db.execute(sql).fetchall())
    except sqlite3.Error:
        return False


@pytest.mark.slow
def test_ctrl_c_leaves_every_run_of_the_batch_resumable(tmp_path: Path) -> None:
    home = tmp_path / "home"
    allow_test_calculators(home)  # the installation allows the slow test calculator
    slow = {
        "element": "Cu",
        "lattice": "fcc",
        "n_points": 5,
        "calculator": "helpers.slowcalc:SlowEMT",
        "calculator_kwargs": {"delay_s": 1.0},
    }
    batch = tmp_path / "batch"
    batch.mkdir()
    for name in ("a.yaml", "b.yaml"):
        (batch / name).write_text(
            yaml.safe_dump({"protocol": "lattice_constant", "parameters": slow})
        )
    proc = subprocess.Popen(
        [sys.executable, "-m", "simwright", "run", "--many", str(batch), "--jobs", "1", "--json"],
        env=_env(home),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 240
    while not _scanning(home) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=240)
    assert proc.returncode == 130, stderr
    runs = json.loads(stdout)["runs"]
    assert [r["status"] for r in runs] == ["interrupted", "queued"]
    for run in runs:
        code, out = _cli(home, "resume", run["run_id"])
        assert code == 0 and out["status"] == "completed", out
