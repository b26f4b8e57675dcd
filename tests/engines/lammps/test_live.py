"""Live progress of LAMMPS read from a growing log: steps of the current run, speed, ns/day."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from simwright.engines.lammps.launcher import find_lmp
from simwright.engines.lammps.live import LiveProgress, LogFollower
from simwright.engines.lammps.log import steps_done

HEADER = "LAMMPS (22 Jul 2025)\nunits real\ntimestep 2.0\nrun 50000\n"
THERMO = "   Step          Temp          E_pair         TotEng         Press     \n"


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _lines(first: int, last: int, every: int = 5) -> str:
    return "".join(
        f"{s:>10d}   94.123456789   -6.7711239812   -5.3711239812    12.345678901\n"
        for s in range(first, last + 1, every)
    )


def test_a_long_production_never_falls_back_to_starting(tmp_path: Path) -> None:
    """Past 64 KB of thermo lines the old tail reader lost the block header."""
    log = tmp_path / "log.lammps"
    clock = Clock()
    follower = LogFollower(log, clock)
    assert follower.poll() is None  # no log yet
    log.write_text(HEADER + THERMO + _lines(1000, 1000))
    assert follower.poll() == LiveProgress(0)
    seen = []
    for chunk in range(10):  # ~100 KB more, in pieces cut in the middle of a line
        text = _lines(1005 + chunk * 1000, 1000 + (chunk + 1) * 1000)
        with log.open("a") as fh:
            fh.write(text[:-7])
        clock.now += 10.0
        seen.append(follower.poll())
        with log.open("a") as fh:
            fh.write(text[-7:])
    assert log.stat().st_size > 100_000
    assert all(p is not None for p in seen)
    assert [p.steps_done for p in seen if p] == [1000 * n - 5 for n in range(1, 11)]
    final = follower.poll()
    assert final is not None and final.steps_done == 10_000
    assert steps_done(log) == 10_000  # the one-shot reader agrees on a long log too
    assert final.steps_per_s == pytest.approx(10_000 / 100.0)
    assert final.ns_per_day == pytest.approx(100.0 * 2.0 * 86400 / 1e6)  # 2 fs steps, real units
    assert final.describe(50_000) == "step 10000/50000 · 100 steps/s · 17.3 ns/day"


def test_a_new_run_block_restarts_the_count(tmp_path: Path) -> None:
    log = tmp_path / "log.lammps"
    log.write_text(HEADER + THERMO + _lines(0, 500) + "Loop time of 1.0\n" + THERMO)
    follower = LogFollower(log, Clock(), timestep_fs=5.0)
    assert follower.poll() is None  # the second run has printed only its header
    with log.open("a") as fh:
        fh.write(_lines(500, 700))
    progress = follower.poll()
    assert progress is not None and progress.steps_done == 200


def test_lj_units_have_no_ns_per_day(tmp_path: Path) -> None:
    log = tmp_path / "log.lammps"
    clock = Clock()
    log.write_text("units lj\n" + THERMO + _lines(0, 0))
    follower = LogFollower(log, clock)
    follower.poll()
    with log.open("a") as fh:
        fh.write(_lines(10, 100))
    clock.now = 2.0
    progress = follower.poll()
    assert progress is not None and progress.steps_per_s == pytest.approx(50.0)
    assert progress.ns_per_day is None and "ns/day" not in progress.describe()


LJ = """units lj
atom_style atomic
lattice fcc 0.8442
region box block 0 4 0 4 0 4
create_box 1 box
create_atoms 1 box
mass 1 1.0
velocity all create 1.44 87287
pair_style lj/cut 2.5
pair_coeff 1 1 1.0 1.0 2.5
fix 1 all nve
thermo 10
run 300
"""


def test_the_log_of_a_real_lammps_run_read_in_pieces(tmp_path: Path) -> None:
    (tmp_path / "in.lammps").write_text(LJ)
    proc = subprocess.run(
        [str(find_lmp()), "-in", "in.lammps", "-log", "log.lammps"],
        cwd=tmp_path,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-1000:]
    data = (tmp_path / "log.lammps").read_bytes()
    growing = tmp_path / "growing.log"
    follower = LogFollower(growing, Clock())
    done = []
    for cut in range(0, len(data), 397):
        with growing.open("ab") as fh:
            fh.write(data[cut : cut + 397])
        progress = follower.poll()
        done.append(progress.steps_done if progress else None)
    numbers = [d for d in done if d is not None]
    assert done[-1] == 300 and numbers == sorted(numbers)
    assert None not in done[done.index(numbers[0]) :]  # once running, never "starting" again
