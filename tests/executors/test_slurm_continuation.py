"""A LAMMPS segment whose Slurm job is requeued (``scontrol requeue``, as a preemption
does) goes on from the newest periodic restart the job wrote, as a new job for the
remaining steps; the requeued job is cancelled, never rerun from its start."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from ase.build import bulk

from helpers.campaign import needs_lmp
from helpers.slurm import SlurmCluster, slurm_profile
from simwright.engines.lammps.continuation import run_continuing
from simwright.engines.lammps.launcher import LammpsLauncher, find_lmp
from simwright.engines.lammps.templates import MDSpec
from simwright.executors.durable import DurableRunner
from simwright.executors.file_journal import FileJournal
from simwright.executors.psij_backend import PsijBackend
from simwright.forcefields.lj_argon import lj_argon
from simwright.jobs import parse_profile
from simwright.structure import Structure

pytestmark = [needs_lmp, pytest.mark.slow]

STEPS, EVERY, REQUEUE_AFTER = 20000, 500, 8


def _requeue_when_snapshots(
    cluster: SlurmCluster, folder: Path, name: str, requeued: list[str]
) -> None:
    """``scontrol requeue`` job ``name`` once it has written REQUEUE_AFTER snapshots."""
    deadline = time.monotonic() + 120
    while len(list(folder.glob("snapshot.*.restart"))) < REQUEUE_AFTER:
        if time.monotonic() > deadline:
            return
        time.sleep(0.02)
    job = next(j for j in cluster.jobs() if j.name == name)
    cluster.command("scontrol", "requeue", job.job_id)
    requeued.append(job.job_id)


def test_requeued_job_continues_from_its_last_restart(
    slurm_here: SlurmCluster, tmp_path: Path
) -> None:
    prefix = f"rq{os.getpid()}"
    backend = PsijBackend(parse_profile(dict(slurm_profile())), tmp_path / "jobs")
    runner = DurableRunner(backend, FileJournal(tmp_path / "jobs.jsonl"), f"{prefix}/1")
    launcher = LammpsLauncher(find_lmp(), mpi_ranks=1, omp_threads=1, runner=runner)
    a = (4.0 / (0.8 / 3.405**3)) ** (1.0 / 3.0)  # fcc argon at ρσ³ = 0.8, 108 atoms
    argon = Structure.from_ase(bulk("Ar", "fcc", a=a, cubic=True).repeat(3))
    spec = MDSpec("nvt", STEPS, 2.0, temperature_k=120.0, create_velocities=True, seed=5,
                  thermo_every=EVERY, restart_every=EVERY)  # fmt: skip
    folder = tmp_path / "segment"
    requeued: list[str] = []
    first = f"sw-{prefix}-1-1-a1"
    watcher = threading.Thread(
        target=_requeue_when_snapshots, args=(slurm_here, folder, first, requeued)
    )
    watcher.start()
    result, parts = run_continuing(launcher, spec, lj_argon(), folder, structure=argon)
    watcher.join()

    assert requeued, "the job ended before it could be requeued"
    assert len(parts) == 1
    part = parts[0]
    assert part.stopped_by == "requeue" and part.job_id == requeued[0]
    assert part.restart_step >= (REQUEUE_AFTER - 1) * EVERY
    assert result.call.extra["stopped_by"] == "requeue"
    assert result.call.extra["steps_remaining"] == str(STEPS - part.restart_step)
    assert list(result.thermo["step"]) == list(range(0, STEPS + 1, EVERY))
    assert 90.0 < float(np.mean(result.thermo["temperature"][-10:])) < 150.0
    # the scheduler's own list: the requeued job cancelled (not rerun), one new job
    jobs = {j.name: j for j in slurm_here.jobs(f"sw-{prefix}-")}
    assert set(jobs) == {first, f"sw-{prefix}-1-2-a1"}
    assert jobs[first].state == "CANCELLED"
    assert jobs[f"sw-{prefix}-1-2-a1"].state == "COMPLETED"
    assert "Restarts=1" in slurm_here.command("scontrol", "-o", "show", "job", requeued[0])
