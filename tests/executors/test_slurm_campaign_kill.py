"""``simwright campaign run`` SIGKILLed while a segment's Slurm job is queued or running,
then ``simwright campaign resume``: the campaign completes, and the scheduler's own job
list (``squeue -t all``) shows every segment job exactly once — the interrupted
segment's job is re-attached or collected, never submitted again."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from helpers.campaign import GCMC, merged, needs_lmp, rows
from helpers.slurm import SlurmCluster

pytestmark = [needs_lmp, pytest.mark.slow]

TIMEOUT_S = 120.0


def _submitted(home: Path) -> list[dict[str, object]]:
    path = home / "campaigns" / "jobs.jsonl"
    if not path.is_file():
        return []
    records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [r for r in records if r["kind"] == "job_submitted"]


def _cli(cluster: SlurmCluster, home: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "simwright", "campaign", *args, "--home", str(home), "--json",
         "--no-report"],
        env=cluster.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def test_killed_campaign_controller_resumes_without_duplicate_jobs(
    slurm_cluster: SlurmCluster, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text(
        'threads = 1\n[executor]\nkind = "slurm"\npoll_interval_s = 0.2\nretries = 2\n'
    )
    spec = merged(GCMC, {"continuation": {"segment_steps": 500, "max_local_steps": 3000}})
    spec["conditions"] = GCMC["conditions"][:1]
    spec_path = tmp_path / "spec.yaml"
    spec_path.write_text(yaml.safe_dump(spec))

    first = _cli(slurm_cluster, home, "run", str(spec_path))
    deadline = time.monotonic() + TIMEOUT_S
    while len(_submitted(home)) < 2:  # the second segment's job is queued or running
        assert first.poll() is None, first.communicate()
        assert time.monotonic() < deadline, "the second segment was never submitted"
        time.sleep(0.02)
    os.kill(first.pid, signal.SIGKILL)
    first.communicate(timeout=30)
    [(campaign,)] = rows(home, "select id from campaigns")
    prefix = f"sw-{campaign}-"
    at_kill = {j.name: j.state for j in slurm_cluster.jobs(prefix)}
    assert len(at_kill) == 2

    second = _cli(slurm_cluster, home, "resume", campaign)
    out, err = second.communicate(timeout=TIMEOUT_S)
    assert second.returncode == 0, err
    assert json.loads(out)["status"] == "completed"

    jobs = slurm_cluster.jobs(prefix)
    names = [j.name for j in jobs]
    assert len(names) == len(set(names)), f"duplicate submissions: {names}"
    assert {j.state for j in jobs} == {"COMPLETED"}
    assert set(at_kill) <= set(names)
    completed = rows(home, "select count(*) from campaign_segments where status = 'completed'")
    assert completed[0][0] == len(jobs)
    records = [json.loads(x) for x in (home / "campaigns/jobs.jsonl").read_text().splitlines()]
    killed_job = _submitted(home)[1]["job_id"]
    ends = [r for r in records if r["kind"] == "job_ended" and r["job_id"] == killed_job]
    assert len(ends) == 1 and ends[0]["exit_code"] == 0  # followed to its end once
