"""A real LAMMPS job under a run: a closed terminal (SIGHUP) stops it and marks the run
interrupted; a SIGKILLed simwright takes LAMMPS along and the run shows as interrupted."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers.paths import TESTS
from helpers.procs import wait_until_gone
from simwright.processes import PID_FILE


def _env(home: Path) -> dict[str, str]:
    return dict(
        os.environ,
        SIMWRIGHT_HOME=str(home),
        PYTHONPATH=os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")]),
    )


def _cli(home: Path, *args: str) -> dict:
    proc = subprocess.run(
        [sys.executable, "-m", "simwright", *args, "--json"],
        env=_env(home),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.stdout, proc.stderr
    return json.loads(proc.stdout)


def _engine_group(home: Path, limit_s: float = 120.0) -> int:
    """The process group of the LAMMPS job, once LAMMPS itself has written its log."""
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        for step_dir in home.glob("runs/*/steps/001-LongLammps"):
            log, pid_file = step_dir / "log.lammps", step_dir / PID_FILE
            if pid_file.is_file() and log.is_file() and "Step" in log.read_text():
                return int(pid_file.read_text())  # LAMMPS itself runs and logs
        time.sleep(0.1)
    pytest.fail("LAMMPS never started")


@pytest.mark.parametrize("sig", [signal.SIGHUP, signal.SIGKILL], ids=["sighup", "sigkill"])
def test_lammps_stops_with_its_run_and_the_run_is_not_left_running(
    tmp_path: Path, sig: signal.Signals
) -> None:
    home = tmp_path / "home"
    proc = subprocess.Popen(
        [sys.executable, str(TESTS / "helpers" / "lammps_runner.py"), str(home)],
        env=_env(home),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        pgid = _engine_group(home)
    except BaseException:
        proc.kill()
        raise
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=120)
    assert wait_until_gone(pgid) == [], "LAMMPS outlived its run"
    (listed,) = _cli(home, "runs")["runs"]
    assert listed["status"] == "interrupted"
    shown = _cli(home, "show", listed["run_id"])
    if sig == signal.SIGHUP:
        assert proc.returncode == 0, err
        assert out.split()[-1] == "interrupted"
        assert [s["status"] for s in shown["steps"]] == ["interrupted"]
    else:
        assert proc.returncode == -signal.SIGKILL
        assert [s["status"] for s in shown["steps"]] == ["killed"]
