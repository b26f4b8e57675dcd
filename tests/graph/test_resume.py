"""Kill a real running protocol with SIGKILL, resume it, and compare with an uninterrupted run."""

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

from helpers.paths import TESTS
from helpers.plugins import allow_test_calculators

HERE = TESTS
SIMWRIGHT = [sys.executable, "-m", "simwright"]


def _env(home: Path) -> dict[str, str]:
    allow_test_calculators(home)
    env = dict(os.environ)
    env["SIMWRIGHT_HOME"] = str(home)
    env["PYTHONPATH"] = os.pathsep.join([str(HERE), env.get("PYTHONPATH", "")])
    return env


def _cli(home: Path, *args: str) -> dict:
    proc = subprocess.run(
        [*SIMWRIGHT, *args, "--json"],
        env=_env(home),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.stdout, proc.stderr
    return json.loads(proc.stdout)


def _rows(home: Path, sql: str) -> list[tuple]:
    with sqlite3.connect(home / "simwright.db") as db:
        return db.execute(sql).fetchall()


SPEC = """protocol: lattice_constant
parameters:
  element: Cu
  lattice: fcc
  n_points: 9
  calculator: helpers.slowcalc:SlowEMT
  calculator_kwargs: {delay_s: 0.05}
"""


@pytest.fixture
def reference(tmp_path: Path) -> dict:
    spec = tmp_path / "spec.yaml"
    spec.write_text(SPEC)
    out = _cli(tmp_path / "ref", "run", str(spec))
    assert out["status"] == "completed"
    return out["results"]


def _assert_resumed_once(home: Path, run_id: str, reference: dict) -> dict:
    out = _cli(home, "resume", run_id)
    assert out["status"] == "completed"
    assert out["results"] == reference
    steps = _rows(home, f"select seq, name, attempt, status from steps where run_id='{run_id}'")
    completed = [(seq, name) for seq, name, _, status in steps if status == "completed"]
    assert completed == [(1, "BuildCrystal"), (2, "ScanVolumes"), (3, "FitEOS"), (4, "Report")]
    assert _rows(home, "pragma integrity_check") == [("ok",)]
    events = [k for (k,) in _rows(home, f"select kind from events where run_id='{run_id}'")]
    assert events.count("resumed") == 1
    return {seq: (name, attempt, status) for seq, name, attempt, status in steps}


@pytest.mark.parametrize("mode", ["between", "during"])
def test_sigkill_then_resume_runs_no_completed_step_twice(
    tmp_path: Path, reference: dict, mode: str
) -> None:
    home = tmp_path / "home"
    proc = subprocess.run(
        [sys.executable, str(HERE / "helpers" / "kill_runner.py"), str(home), mode],
        env=_env(home),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    run_id = proc.stdout.split()[0]
    before = _rows(home, "select seq, attempt, status from steps order by id")
    build_dir = next((home / "runs" / run_id / "steps").glob("001-BuildCrystal"))
    build_mtime = (build_dir / "crystal.extxyz").stat().st_mtime_ns
    if mode == "between":
        assert before == [(1, 1, "completed")]
    else:
        assert before == [(1, 1, "completed"), (2, 1, "running")]
    assert _rows(home, "select status from runs") == [("running",)]
    steps = _assert_resumed_once(home, run_id, reference)
    assert (build_dir / "crystal.extxyz").stat().st_mtime_ns == build_mtime
    attempts = _rows(home, "select seq, attempt, status from steps order by id")
    if mode == "during":
        assert attempts[1:3] == [(2, 1, "killed"), (2, 2, "completed")]
    else:
        assert [a for a in attempts if a[0] == 2] == [(2, 1, "completed")]
    assert steps[1][2] == "completed"


def test_cli_run_killed_mid_step_resumes(tmp_path: Path, reference: dict) -> None:
    home = tmp_path / "home"
    spec = tmp_path / "spec.yaml"
    spec.write_text(SPEC.replace("0.05", "0.3"))
    proc = subprocess.Popen(
        [*SIMWRIGHT, "run", str(spec), "--json"],
        env=_env(home),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            running = _rows(home, "select name from steps where status='running'")
        except sqlite3.OperationalError:  # the store is still being created
            running = []
        if running == [("ScanVolumes",)]:
            break
        time.sleep(0.05)
    else:
        proc.kill()
        pytest.fail("the scan step never started")
    time.sleep(0.5)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    (run_id,) = _rows(home, "select id from runs")[0]
    _assert_resumed_once(home, run_id, reference)
    again = _cli(home, "resume", run_id)
    assert again["status"] == "completed"
    assert len(_rows(home, "select id from steps")) == 5


@pytest.mark.parametrize(
    "sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT], ids=["sigterm", "sighup", "sigint"]
)
def test_a_signal_marks_the_run_interrupted_and_resume_completes(
    tmp_path: Path, reference: dict, sig: signal.Signals
) -> None:
    """SIGTERM (kill), SIGHUP (the terminal closed) and SIGINT (Ctrl-C) end alike."""
    home = tmp_path / "home"
    spec = tmp_path / "spec.yaml"
    spec.write_text(SPEC.replace("0.05", "0.3"))
    proc = subprocess.Popen(
        [*SIMWRIGHT, "run", str(spec), "--json"],
        env=_env(home),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if _rows(home, "select name from steps where status='running'") == [("ScanVolumes",)]:
                break
        except sqlite3.OperationalError:
            pass
        time.sleep(0.05)
    proc.send_signal(sig)
    stdout, _ = proc.communicate(timeout=60)
    assert proc.returncode == 130
    out = json.loads(stdout)
    assert out["status"] == "interrupted" and "resume" in out["error"]
    _assert_resumed_once(home, out["run_id"], reference)
