"""A protocol run through a real one-node Slurm: killed controller, resume, scancel.

The controller (``simwright run`` in a subprocess) is SIGKILLed while its third engine
job is queued or running; ``simwright resume`` collects the two finished jobs from the
journal, re-attaches to the third, and when the fourth is cancelled with ``scancel`` it
is resubmitted. The scheduler's own job list (``squeue -t all``; finished jobs stay
listed for an hour) must show every job name exactly once.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from helpers.slurm import SlurmCluster

REQUEST = "lattice constant of Cu with the Mishin EAM potential, 5 points"
TIMEOUT_S = 120.0

pytestmark = pytest.mark.slow


def _write_config(home: Path) -> None:
    home.mkdir(parents=True)
    (home / "config.toml").write_text(
        "threads = 1\nremember_runs = false\n"
        '[executor]\nkind = "slurm"\npoll_interval_s = 0.2\nretries = 2\n'
    )


def _events(home: Path, kind: str) -> list[dict[str, object]]:
    """The payloads of the run's ``kind`` events, oldest first (read-only, as a second reader)."""
    db = home / "simwright.db"
    if not db.is_file():
        return []
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
            rows = conn.execute(
                "SELECT payload_json FROM events WHERE kind = ? ORDER BY id", (kind,)
            ).fetchall()
    except sqlite3.OperationalError:  # the store is still being created
        return []
    return [json.loads(r[0]) for r in rows]


def _wait(what: str, check: Callable[[], bool], proc: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + TIMEOUT_S
    while not check():
        if proc.poll() is not None:
            out, err = proc.communicate()
            raise AssertionError(f"controller ended ({proc.returncode}) before {what}: {out}{err}")
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


def _simwright(cluster: SlurmCluster, home: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "simwright", *args, "--home", str(home), "--json"],
        env=cluster.env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_killed_controller_resumes_without_duplicates_and_resubmits_cancelled(
    slurm_cluster: SlurmCluster, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    _write_config(home)

    # 1. run until the third job is submitted, then SIGKILL the controller
    first = _simwright(slurm_cluster, home, "run", REQUEST)
    _wait("the third job", lambda: len(_events(home, "job_submitted")) >= 3, first)
    os.kill(first.pid, signal.SIGKILL)
    first.communicate(timeout=30)
    run_id = str(_events(home, "job_submitted")[0]["key"]).split("/")[0]
    prefix = f"sw-{run_id}-"
    killed_with = {j.name: j.state for j in slurm_cluster.jobs(prefix)}
    assert len(killed_with) == 3

    # 2. a blocker holding both CPUs keeps the fourth job queued once it is submitted
    blocker = slurm_cluster.command(
        "sbatch", "--parsable", "-c", "2", "-J", f"blocker-{run_id}", "-o", "/dev/null",
        "--wrap", "sleep 300",
    ).strip()  # fmt: skip

    # 3. resume: re-attach to job 3, then cancel job 4 while it waits; it is resubmitted
    second = _simwright(slurm_cluster, home, "resume", run_id)
    fourth = f"{prefix}002-4-a1"
    _wait("the fourth job", lambda: any(j.name == fourth for j in slurm_cluster.jobs()), second)
    cancelled = next(j.job_id for j in slurm_cluster.jobs(prefix) if j.name == fourth)
    slurm_cluster.command("scancel", cancelled)
    again = f"{prefix}002-4-a2"
    _wait("the resubmission", lambda: any(j.name == again for j in slurm_cluster.jobs()), second)
    slurm_cluster.command("scancel", blocker)
    out, err = second.communicate(timeout=TIMEOUT_S)
    assert second.returncode == 0, err
    assert json.loads(out)["status"] == "completed"

    # the scheduler's own job list: every job once, the cancelled one resubmitted once
    jobs = slurm_cluster.jobs(prefix)
    names = [j.name for j in jobs]
    assert len(names) == len(set(names)), f"duplicate submissions: {names}"
    expected = {f"{prefix}002-{n}-a1" for n in range(1, 6)} | {again}
    assert set(names) == expected
    states = {j.name: j.state for j in jobs}
    assert states[fourth] == "CANCELLED"
    assert all(states[n] == "COMPLETED" for n in expected - {fourth})

    # what the run recorded: job ids, scheduler state history, how each call was collected
    calls = _engine_calls(home, run_id)
    assert len(calls) == 5
    extras = [c["extra"] for c in calls]
    ids = {j.name: j.job_id for j in jobs}
    assert [x["job_id"] for x in extras] == [
        ids[f"{prefix}002-{n}-a{1 + (n == 4)}"] for n in range(1, 6)
    ]
    assert [x["collection"] for x in extras[:2]] == ["collected", "collected"]
    assert extras[2]["collection"] in ("re-attached", "collected")
    assert extras[3]["resubmissions"] == "1"
    assert extras[3]["job_ids"].split() == [cancelled, ids[again]]
    finals = [x["job_states"].split()[-1].split("@")[0] for x in extras]
    assert finals == ["COMPLETED"] * 5, extras
    assert "QUEUED" in extras[4]["job_states"]
    assert all(c["exit_code"] == 0 and "Total wall time" in c["stdout_tail"] for c in calls)
    result = json.loads(out)["results"]["lattice_constant"]["value"]
    assert abs(result - 3.615) < 0.01  # Mishin et al., PRB 63, 224106 (2001): 3.615 Å
    assert killed_with  # the kill happened with jobs in the queue (any state)
    prov = tmp_path / "run.prov.json"
    subprocess.run(
        [sys.executable, "-m", "simwright", "export", run_id, "-f", "prov-json", "-o", str(prov),
         "--home", str(home)],
        capture_output=True, check=True, timeout=120,
    )  # fmt: skip
    exported = json.loads(prov.read_text())
    job_ids = {a.get("simwright:job_id") for a in exported["activity"].values()}
    assert {x["job_id"] for x in extras} <= job_ids


def _engine_calls(home: Path, run_id: str) -> list[dict[str, object]]:
    out = subprocess.run(
        [sys.executable, "-m", "simwright", "show", run_id, "--home", str(home), "--json"],
        capture_output=True, text=True, check=True, timeout=120,
    ).stdout  # fmt: skip
    return list(json.loads(out)["engine_calls"])
