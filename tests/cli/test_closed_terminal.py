"""Closing the terminal of ``simwright run`` (the kernel sends SIGHUP) interrupts the run
like Ctrl-C: it is recorded as interrupted, not left ``running``, and resumes."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import sqlite3
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from helpers.paths import TESTS
from helpers.plugins import allow_test_calculators

SPEC = """protocol: lattice_constant
parameters:
  element: Cu
  lattice: fcc
  n_points: 9
  calculator: helpers.slowcalc:SlowEMT
  calculator_kwargs: {delay_s: 0.3}
"""


def _take_terminal() -> None:
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)  # the pty becomes the controlling terminal


def _rows(home: Path, sql: str) -> list[tuple]:
    with sqlite3.connect(home / "simwright.db") as db:
        return db.execute(sql).fetchall()


def _drain(fd: int) -> None:
    with contextlib.suppress(OSError):
        os.read(fd, 1 << 16)


def _wait_for_scan(home: Path, master: int) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        _drain(master)
        try:
            if _rows(home, "select name from steps where status='running'") == [("ScanVolumes",)]:
                return
        except sqlite3.Error:
            pass
        time.sleep(0.05)
    pytest.fail("the scan step never started")


def test_closing_the_terminal_marks_the_run_interrupted(tmp_path: Path) -> None:
    home = tmp_path / "home"
    allow_test_calculators(home)  # the installation allows the slow test calculator
    spec = tmp_path / "spec.yaml"
    spec.write_text(SPEC)
    env = dict(
        os.environ,
        SIMWRIGHT_HOME=str(home),
        PYTHONPATH=os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")]),
    )
    master, slave = os.openpty()
    os.set_blocking(master, False)
    proc = subprocess.Popen(
        [sys.executable, "-m", "simwright", "run", str(spec)],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        start_new_session=True,
        preexec_fn=_take_terminal,
        env=env,
    )
    os.close(slave)
    try:
        _wait_for_scan(home, master)
    finally:
        os.close(master)  # the terminal goes away: SIGHUP
    proc.wait(timeout=60)
    assert proc.returncode == 130, "a closed terminal is an interruption (exit 130)"
    assert _rows(home, "select status from runs") == [("interrupted",)]
    assert _rows(home, "select seq, status from steps") == [(1, "completed"), (2, "interrupted")]
    (run_id,) = _rows(home, "select id from runs")[0]
    done = subprocess.run(
        [sys.executable, "-m", "simwright", "resume", run_id, "--json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert json.loads(done.stdout)["status"] == "completed", done.stderr
