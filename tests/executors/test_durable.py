"""The durable runner against a real one-node Slurm, in this process: a job whose
submission was recorded without its id is found by name and attached, not submitted
again; a job cancelled once too often spends the retry budget and fails the call; a
recorded wall-time stop is collected for a continuable job and run again otherwise."""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest

from helpers.slurm import SlurmCluster
from simwright.errors import EngineError
from simwright.executors.backend import JobEnd
from simwright.executors.durable import DurableRunner, fingerprint, job_name
from simwright.executors.journal import Journal, Submission
from simwright.executors.psij_backend import PsijBackend
from simwright.jobs import STOPPED_EXIT, EngineJob, ExecutorProfile, JobOutcome, JobScope
from simwright.store import Store

PROFILE = ExecutorProfile(kind="slurm", poll_interval_s=0.2, retries=0)


def _scope(store: Store, tmp_path: Path, run_id: str) -> tuple[JobScope, Journal]:
    run_dir = tmp_path / run_id
    run_dir.mkdir()
    store.create_run(
        run_id, "test", request="", params_json="{}", workdir=str(run_dir), version="0"
    )
    step_id = store.begin_step(
        run_id, seq=1, attempt=1, name="Echo", step_json="{}", inputs_hash="", workdir=""
    )
    return JobScope(run_id, 1, step_id, run_dir), Journal(store, run_id, step_id)


def _echo(folder: Path) -> EngineJob:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "input.txt").write_text("hello\n")
    return EngineJob(
        "cat", ("/bin/cat", "input.txt"), folder, folder / "cat.stdout", folder / "cat.stderr"
    )


def test_recorded_intent_is_found_by_name_and_attached(
    slurm_here: SlurmCluster, store: Store, tmp_path: Path
) -> None:
    scope, journal = _scope(store, tmp_path, "intent-run")
    job = _echo(scope.run_dir / "call")
    key = f"{scope.run_id}/001/1"
    # a controller recorded its intent, submitted, and died before recording the job id
    sub = Submission(key, 1, job_name(key, 1), fingerprint(job), str(job.workdir), "slurm")
    journal.intent(sub)
    backend = PsijBackend(PROFILE, tmp_path / "jobs")
    first_id = backend.submit(job, sub.job_name)

    runner = DurableRunner(
        PsijBackend(PROFILE, tmp_path / "jobs"), journal, f"{scope.run_id}/001", retries=0
    )
    outcome = runner.run(job)

    assert outcome.exit_code == 0
    assert outcome.extra["job_id"] == first_id
    assert outcome.extra["collection"] == "re-attached"
    assert [j.job_id for j in slurm_here.jobs(job_name(key, 0)[:-1])] == [first_id]
    assert job.stdout_path.read_text() == "hello\n"


def test_cancelled_beyond_the_retry_budget_fails_the_call(
    slurm_here: SlurmCluster, store: Store, tmp_path: Path
) -> None:
    scope, journal = _scope(store, tmp_path, "budget-run")
    job = _echo(scope.run_dir / "call")
    name = job_name(f"{scope.run_id}/001/1", 1)
    slurm_here.partition("DOWN")  # the job stays queued until it is cancelled
    try:
        canceller = threading.Thread(target=_cancel_when_listed, args=(slurm_here, name))
        canceller.start()
        runner = DurableRunner(
            PsijBackend(PROFILE, tmp_path / "jobs"), journal, f"{scope.run_id}/001", retries=0
        )
        with pytest.raises(EngineError, match="retry budget"):
            runner.run(job)
        canceller.join()
    finally:
        slurm_here.partition("UP")
    ended = [a.ending for a in journal.attempts(f"{scope.run_id}/001/1")]
    assert [e.state if e else None for e in ended] == ["CANCELED"]


def _cancel_when_listed(cluster: SlurmCluster, name: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        found = [j for j in cluster.jobs() if j.name == name]
        if found:
            cluster.command("scancel", found[0].job_id)
            return
        time.sleep(0.1)


def test_a_recorded_wall_time_stop_is_collected_only_when_the_job_can_continue(
    slurm_here: SlurmCluster, store: Store, tmp_path: Path
) -> None:
    scope, journal = _scope(store, tmp_path, "stopped-run")
    before = _echo(scope.run_dir / "attempt1")
    key = f"{scope.run_id}/001/1"
    # an earlier controller saw the job stopped at its wall time (exit 124), then died
    sub = Submission(key, 1, job_name(key, 1), fingerprint(before), str(before.workdir), "slurm")
    (before.workdir / "snapshot.100.restart").write_text("restart\n")  # what the job wrote
    journal.intent(sub)
    journal.submitted(sub, "999999")
    journal.ended(sub, "999999", JobEnd("FAILED", STOPPED_EXIT, message="time limit"))

    def resumed(folder: str, continuable: bool) -> JobOutcome:
        job = replace(_echo(scope.run_dir / folder), continuable=continuable)
        backend = PsijBackend(PROFILE, tmp_path / "jobs")
        return DurableRunner(backend, journal, f"{scope.run_id}/001", retries=0).run(job)

    collected = resumed("attempt2", continuable=True)
    assert (collected.exit_code, collected.extra["collection"]) == (STOPPED_EXIT, "collected")
    assert collected.extra["stopped_by"] == "wall time"
    assert (scope.run_dir / "attempt2" / "snapshot.100.restart").read_text() == "restart\n"
    assert slurm_here.jobs(job_name(key, 0)[:-1]) == []  # nothing submitted

    rerun = resumed("attempt3", continuable=False)  # cannot continue: run again
    assert (rerun.exit_code, rerun.extra["collection"]) == (0, "submitted")
    assert [j.name for j in slurm_here.jobs(job_name(key, 0)[:-1])] == [job_name(key, 2)]
