"""A LAMMPS segment stopped at its wall time continues from its newest periodic restart
for the remaining steps, as a new engine call, and reads as one uninterrupted segment;
segments that cannot continue fail naming the wall time."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from ase.build import bulk

from helpers.stopping import StopAtSnapshot
from simwright.engines.lammps.continuation import run_continuing
from simwright.engines.lammps.launcher import LammpsError, LammpsLauncher, find_lmp
from simwright.engines.lammps.templates import MDSpec
from simwright.forcefields.lj_argon import lj_argon
from simwright.structure import Structure


def _argon() -> Structure:
    """256 fcc argon atoms at ρσ³ = 0.8."""
    a = (4.0 / (0.8 / 3.405**3)) ** (1.0 / 3.0)
    return Structure.from_ase(bulk("Ar", "fcc", a=a, cubic=True).repeat(4))


def _launcher(runner: StopAtSnapshot) -> LammpsLauncher:
    return LammpsLauncher(find_lmp(), mpi_ranks=1, omp_threads=1, runner=runner)


def _nvt(steps: int, restart_every: int) -> MDSpec:
    return MDSpec("nvt", steps, 2.0, temperature_k=120.0, create_velocities=True, seed=3,
                  thermo_every=100, restart_every=restart_every)  # fmt: skip


def test_stopped_segment_continues_from_its_last_snapshot(tmp_path: Path) -> None:
    runner = StopAtSnapshot(stop_after=2)
    result, parts = run_continuing(_launcher(runner), _nvt(4000, 100), lj_argon(), tmp_path,
                                   structure=_argon())  # fmt: skip

    assert len(runner.calls) == 2 and len(parts) == 1
    part = parts[0]
    assert part.call.exit_code == 124 and part.log_path.name == "log.walltime1.lammps"
    assert 200 <= part.restart_step < 4000
    assert part.steps_remaining == 4000 - part.restart_step
    script = (tmp_path / "in.lammps").read_text()
    assert "read_restart    start.restart" in script and "velocity" not in script
    assert f"run             {part.steps_remaining}\n" in script
    # one uninterrupted segment: every thermo step once, 0 to 4000
    assert list(result.thermo["step"]) == list(range(0, 4001, 100))
    assert np.all(np.diff(result.thermo["run"]) >= 0)
    extra = result.call.extra
    assert result.call.exit_code == 0
    assert extra["continuation"] == "1" and extra["continued_from"] == part.restart.name
    assert extra["steps_remaining"] == str(part.steps_remaining)
    assert extra["stopped_job_ids"] == "t1"
    assert result.restart_path is not None and result.structure is not None
    # the thermostat holds the argon near 120 K across the join
    assert 90.0 < float(np.mean(result.thermo["temperature"][-10:])) < 150.0


def test_segments_that_cannot_continue_fail_naming_the_wall_time(tmp_path: Path) -> None:
    no_snapshots = StopAtSnapshot(stop_after=0, stop_when="log.lammps")
    with pytest.raises(LammpsError, match="hit its wall time and writes no periodic restarts"):
        run_continuing(_launcher(no_snapshots), _nvt(4000, 0), lj_argon(), tmp_path / "a",
                       structure=_argon())  # fmt: skip

    twice = StopAtSnapshot(stop_after=2, stops=2)
    with pytest.raises(
        LammpsError, match=r"hit its wall time 2 times; the retry budget \(1\) is spent"
    ):
        run_continuing(_launcher(twice), _nvt(4000, 100), lj_argon(), tmp_path / "b",
                       structure=_argon(), budget=1)  # fmt: skip
    assert len(twice.calls) == 2
