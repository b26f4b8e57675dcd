"""PACKMOL and pw.x engine calls through the same job runner as LAMMPS: each one a Slurm
job (a tiny water box; a two-atom silicon SCF, whose energy must equal a local run's),
with the outputs and records of a local call plus the job's id."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from ase.build import bulk

from helpers.engines import needs
from helpers.slurm import SlurmCluster, slurm_profile
from simwright.engines.espresso.launcher import PwLauncher
from simwright.engines.espresso.pseudo_library import SYSTEM_PSEUDO_DIR
from simwright.engines.espresso.pw import run_pw
from simwright.engines.espresso.template import KPoints, PwInput, Species
from simwright.engines.packmol import PackSpec, pack
from simwright.executors.durable import DurableRunner
from simwright.executors.file_journal import FileJournal
from simwright.executors.psij_backend import PsijBackend
from simwright.jobs import parse_profile
from simwright.molecules import get_molecule
from simwright.structure import Structure

pytestmark = pytest.mark.slow


def _runner(tmp_path: Path, prefix: str) -> DurableRunner:
    backend = PsijBackend(parse_profile(dict(slurm_profile())), tmp_path / "jobs")
    return DurableRunner(backend, FileJournal(tmp_path / "jobs.jsonl"), prefix)


@needs("packmol")
def test_packmol_runs_as_a_slurm_job(slurm_here: SlurmCluster, tmp_path: Path) -> None:
    prefix = f"pk{os.getpid()}"
    spec = PackSpec(((get_molecule("water"), 8),), density_g_cm3=1.0)
    result = pack(spec, tmp_path / "pack", runner=_runner(tmp_path, prefix))
    assert len(result.structure) == 24 and result.min_intermolecular_distance_a > 1.5
    extra = result.call.extra
    assert extra["executor"] == "slurm" and extra["box_a"] and extra["stdin"] == "packmol.inp"
    [job] = slurm_here.jobs(f"sw-{prefix}-")
    assert (job.job_id, job.state) == (extra["job_id"], "COMPLETED")


@pytest.mark.skipif(
    shutil.which("pw.x") is None or not (SYSTEM_PSEUDO_DIR / "Si.pz-vbc.UPF").is_file(),
    reason="pw.x and quantum-espresso-data are needed",
)
def test_pw_scf_runs_as_a_slurm_job(slurm_here: SlurmCluster, tmp_path: Path) -> None:
    prefix = f"pw{os.getpid()}"
    inp = PwInput(
        {"control": {"calculation": "scf"}, "system": {"ecutwfc": 12.0}, "electrons": {}},
        (Species("Si", "Si.pz-vbc.UPF"),),
        Structure.from_ase(bulk("Si", "diamond", a=5.43)),
        KPoints(mesh=(2, 2, 2)),
    )
    launcher = PwLauncher(runner=_runner(tmp_path, prefix))
    run = run_pw(inp, tmp_path / "pw", launcher=launcher, pseudo_dirs=(SYSTEM_PSEUDO_DIR,))
    assert run.valid, run.problems
    here = run_pw(inp, tmp_path / "local", launcher=PwLauncher(), pseudo_dirs=(SYSTEM_PSEUDO_DIR,))
    assert run.output.energy_ev == pytest.approx(here.output.energy_ev, abs=1e-6)
    assert run.output.energy_ev == pytest.approx(-212.5, abs=1.0)  # 2 Si, LDA, 12 Ry, 2×2×2
    assert run.call.extra["executor"] == "slurm" and run.call.extra["calculation"] == "scf"
    [job] = slurm_here.jobs(f"sw-{prefix}-")
    assert (job.job_id, job.state) == (run.call.extra["job_id"], "COMPLETED")
