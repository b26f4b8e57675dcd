"""Every moment a run can be stopped at leaves it resumable or cleanly marked: SIGTERM
between steps, SIGKILL right after the run row is written, and a recorded file an
earlier step made (and a remaining step depends on through its inputs) changed."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

from helpers.paths import TESTS
from helpers.plugins import allow_test_calculators

KILL_RUNNER = TESTS / "helpers" / "kill_runner.py"
STEPS = ["BuildCrystal", "ScanVolumes", "FitEOS", "Report"]


def _env(home: Path) -> dict[str, str]:
    return dict(
        os.environ,
        SIMWRIGHT_HOME=str(home),
        PYTHONPATH=os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")]),
    )


def _cli(home: Path, *args: str) -> tuple[int, dict]:
    proc = subprocess.run(
        [sys.executable, "-m", "simwright", *args, "--json"],
        env=_env(home),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.stdout, proc.stderr
    return proc.returncode, json.loads(proc.stdout)


def _kill_runner(home: Path, mode: str) -> subprocess.CompletedProcess[str]:
    allow_test_calculators(home)  # the installation allows the slow test calculator
    return subprocess.run(
        [sys.executable, str(KILL_RUNNER), str(home), mode],
        env=_env(home),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _rows(home: Path, sql: str) -> list[tuple]:
    with sqlite3.connect(home / "simwright.db") as db:
        return db.execute(sql).fetchall()


def _completed_once(home: Path, run_id: str) -> None:
    code, out = _cli(home, "resume", run_id)
    assert code == 0 and out["status"] == "completed", out
    steps = _rows(home, f"select name, status from steps where run_id='{run_id}' order by id")
    assert [name for name, status in steps if status == "completed"] == STEPS


def test_sigterm_between_steps_marks_the_run_interrupted(tmp_path: Path) -> None:
    home = tmp_path / "home"
    proc = _kill_runner(home, "term-between")
    assert proc.returncode == 0, proc.stderr
    run_id, *_, status = proc.stdout.split()
    assert status == "interrupted"
    assert _rows(home, "select status from runs") == [("interrupted",)]
    assert _rows(home, "select count(*) from steps where status = 'running'") == [(0,)]
    _, listed = _cli(home, "runs")
    assert [r["status"] for r in listed["runs"]] == ["interrupted"]
    _completed_once(home, run_id)
    assert _rows(home, "select count(*) from steps where name = 'BuildCrystal'") == [(1,)]


def test_sigkill_right_after_the_run_row_is_written_resumes(tmp_path: Path) -> None:
    home = tmp_path / "home"
    proc = _kill_runner(home, "created")
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    run_id = proc.stdout.split()[0]
    assert _rows(home, "select status from runs") == [("running",)]  # as recorded
    _, listed = _cli(home, "runs")
    assert [r["status"] for r in listed["runs"]] == ["interrupted"]  # as it is
    _completed_once(home, run_id)


def test_resume_refuses_when_a_file_a_remaining_step_depends_on_indirectly_changed(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    proc = _kill_runner(home, "after-scan")
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    run_id = proc.stdout.split()[0]
    # FitEOS (next) reads the scan table; the scan was computed from the crystal file
    crystal = next(home.glob(f"runs/{run_id}/steps/001-BuildCrystal/crystal.extxyz"))
    crystal.write_text(crystal.read_text().replace("Cu", "Ag", 1))
    code, out = _cli(home, "resume", run_id)
    assert code == 2 and "crystal.extxyz (changed)" in out["error"]
    assert _rows(home, "select count(*) from steps where name = 'FitEOS'") == [(0,)]
    code, report = _cli(home, "verify", run_id)
    assert code == 1 and not report["ok"]
    assert [(p["path"].split("/")[-1], p["state"]) for p in report["problems"]] == [
        ("crystal.extxyz", "changed")
    ]
