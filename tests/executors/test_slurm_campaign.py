"""A GCMC campaign (the demo's engine, on a tiny pore) whose segments run as Slurm jobs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers.campaign import GCMC, merged, needs_lmp, rows, runner, spec_of
from helpers.slurm import SlurmCluster, slurm_profile
from simwright.campaign.gcmc import GcmcSegmentEngine
from simwright.engines.lammps.launcher import LammpsLauncher, find_lmp
from simwright.executors.factory import segment_job_runners
from simwright.jobs import parse_profile
from simwright.settings import Settings

pytestmark = [needs_lmp, pytest.mark.slow]


def test_campaign_segments_run_as_slurm_jobs_once_each(
    slurm_here: SlurmCluster, tmp_path: Path
) -> None:
    settings = Settings(home=tmp_path, threads=1, executor=parse_profile(dict(slurm_profile())))
    engine = GcmcSegmentEngine(
        lambda: LammpsLauncher(find_lmp(), mpi_ranks=1, omp_threads=1),
        jobs=segment_job_runners(settings),
    )
    one_state = merged(GCMC, {"continuation": {"segment_steps": 500, "max_local_steps": 3000}})
    one_state["conditions"] = GCMC["conditions"][:1]
    r = runner(tmp_path, engine)
    campaign = r.create(spec_of(one_state))
    assert r.run(campaign).status == "completed"

    segments = rows(tmp_path, "select count(*) from campaign_segments where status = 'completed'")
    jobs = slurm_here.jobs(f"sw-{campaign}-")
    assert len(jobs) == segments[0][0] >= 1
    assert len({j.name for j in jobs}) == len(jobs)  # every segment submitted once
    assert {j.state for j in jobs} == {"COMPLETED"}
    lines = (tmp_path / "campaigns/jobs.jsonl").read_text().splitlines()
    journal = [json.loads(line) for line in lines]
    ended = [r for r in journal if r["kind"] == "job_ended"]
    assert [r["job_id"] for r in ended] == [j.job_id for j in jobs]
    assert all(r["exit_code"] == 0 and "COMPLETED" in r["history"] for r in ended)
