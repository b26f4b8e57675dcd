"""The subprocess launcher every file-based engine uses."""

from __future__ import annotations

import os
import time
from pathlib import Path

from simwright.engines.base import run_subprocess


def test_runs_in_the_workdir_and_keeps_output(tmp_path: Path) -> None:
    call = run_subprocess("sh", ["sh", "-c", "pwd; echo oops >&2; exit 3"], tmp_path / "w")
    assert call.exit_code == 3 and not call.ok
    assert call.stdout_tail.strip() == str(tmp_path / "w")
    assert call.stderr_tail.strip() == "oops"
    assert (tmp_path / "w" / "sh.stdout").read_text().strip() == str(tmp_path / "w")


def test_timeout_kills_the_whole_process_group(tmp_path: Path) -> None:
    start = time.monotonic()
    script = "sleep 60 & echo $! > child.pid; wait"
    call = run_subprocess("sh", ["sh", "-c", script], tmp_path, timeout_s=1.0)
    assert call.exit_code == 124
    assert time.monotonic() - start < 10
    child = int((tmp_path / "child.pid").read_text())
    time.sleep(0.2)
    try:
        os.kill(child, 0)
        alive = Path(f"/proc/{child}/stat").read_text().split()[2] != "Z"
    except ProcessLookupError:
        alive = False
    assert not alive, "the grandchild survived the timeout"


def test_missing_executable_is_exit_127(tmp_path: Path) -> None:
    call = run_subprocess("nope", ["/no/such/binary"], tmp_path)
    assert call.exit_code == 127 and "not found" in call.stderr_tail


def test_monitor_is_called_while_the_engine_runs(tmp_path: Path) -> None:
    ticks: list[float] = []
    call = run_subprocess(
        "sh",
        ["sh", "-c", "sleep 1"],
        tmp_path,
        monitor=lambda: ticks.append(time.monotonic()),
        monitor_every_s=0.2,
    )
    assert call.exit_code == 0 and len(ticks) >= 3


def test_an_orphaned_engine_is_stopped(tmp_path: Path) -> None:
    import subprocess

    from simwright.processes import PID_FILE, kill_orphaned_engine

    proc = subprocess.Popen(["sleep", "60"], cwd=tmp_path, start_new_session=True)
    (tmp_path / PID_FILE).write_text(str(proc.pid))
    assert kill_orphaned_engine(tmp_path)
    assert proc.wait(timeout=5) == -9
    assert not (tmp_path / PID_FILE).exists()
    assert not kill_orphaned_engine(tmp_path)
