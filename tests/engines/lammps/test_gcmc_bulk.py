"""Bulk LJ GCMC with real LAMMPS: a very short run gives a sane density (not accuracy)."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers.engines import needs
from simwright.analysis.lj_eos import truncated_fugacity
from simwright.engines.lammps.gcmc_bulk import (
    LJFluidGcmcSettings,
    render_lj_gcmc_input,
    run_lj_gcmc,
)
from simwright.engines.lammps.launcher import LammpsLauncher, find_lmp
from simwright.errors import EngineError

needs_lmp = needs("lammps")

TINY = LJFluidGcmcSettings(box=6.5, steps=400, equilibration_steps=200, exchange_attempts=20)


def test_the_script_is_truncated_unshifted_and_pure_monte_carlo() -> None:
    script = render_lj_gcmc_input(TINY, 2.0, 0.4, 7)
    assert "pair_modify     shift no" in script
    assert "tail" not in script.replace("no tail correction", "")
    assert "fix             gcmc all gcmc 1 20 50 1 7 2 0.0 0.3 pressure 0.4" in script
    assert "nve" not in script and "full_energy" not in script


def test_inconsistent_settings_are_refused(tmp_path: Path) -> None:
    launcher = LammpsLauncher(Path("/nonexistent/lmp"))
    bad = LJFluidGcmcSettings(box=5.0, cutoff=3.0)
    with pytest.raises(EngineError, match="twice the cutoff"):
        run_lj_gcmc(launcher, bad, 2.0, 0.4, tmp_path)


@needs_lmp
def test_a_short_run_reaches_a_fluid_density_with_working_moves(tmp_path: Path) -> None:
    fugacity = truncated_fugacity(0.3, 2.0, TINY.cutoff)
    launcher = LammpsLauncher(find_lmp(), mpi_ranks=1, omp_threads=1)
    result = run_lj_gcmc(launcher, TINY, 2.0, fugacity, tmp_path, seed=3)
    assert result.densities.size == 40
    assert 0.15 < result.density < 0.45  # sanity only: the benchmark checks accuracy
    assert result.density_sem > 0
    for ratio in (result.insertion_acceptance, result.translation_acceptance):
        assert 0.0 < ratio < 1.0
