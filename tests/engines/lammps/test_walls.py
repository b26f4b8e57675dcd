"""Carbon walls of the slit pore: well depths against the analytic values, and LAMMPS agrees."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from helpers.engines import needs
from simwright.engines.lammps.gcmc import (
    METHANE_TRAPPE_UA,
    GcmcCondition,
    GcmcSegment,
    GcmcSettings,
    SlitPore,
    carbon_wall,
    render_gcmc_input,
    run_gcmc_segment,
)
from simwright.engines.lammps.launcher import LammpsLauncher, find_lmp
from simwright.engines.lammps.walls import TABLE_NAME, WALL_KINDS, WallModel
from simwright.units import KB_EV_K

needs_lmp = needs("lammps")


def test_methane_well_depths_match_the_analytic_values_of_both_walls() -> None:
    # TraPPE-UA methane (148 K, 3.73 Å) with Steele's carbon, Lorentz–Berthelot:
    # 9-3 continuum: −(√10/3)·ε_w with ε_w = (2/3)πρε_sfσ_sf³ ≈ 696.4 K → −734 K;
    # Steele 10-4-3: ≈ −1358 K, about twice as deep.
    continuum = carbon_wall(METHANE_TRAPPE_UA, kind="lj93_continuum")
    steele = carbon_wall(METHANE_TRAPPE_UA, kind="steele_10_4_3")
    assert continuum.epsilon_ev / KB_EV_K == pytest.approx(696.39, abs=0.05)
    assert continuum.well()[1] / KB_EV_K == pytest.approx(-(10**0.5) / 3 * 696.389, abs=0.1)
    assert continuum.well()[1] / KB_EV_K == pytest.approx(-734.0, abs=0.5)
    assert steele.well()[1] / KB_EV_K == pytest.approx(-1358.0, abs=1.0)
    # the 9-3 minimum sits at (2/5)^(1/6) σ_sf
    assert continuum.well()[0] == pytest.approx((2 / 5) ** (1 / 6) * 3.565, abs=1e-3)
    assert 3.4 < steele.well()[0] < 3.7


def test_each_wall_names_its_kind_and_source() -> None:
    for kind in WALL_KINDS:
        wall = carbon_wall(METHANE_TRAPPE_UA, kind=kind)
        assert wall.reference.startswith(kind)
        assert "Surf. Sci. 36, 317 (1973)" in wall.reference


def _segment(wall: str, steps: int = 100) -> GcmcSegment:
    return GcmcSegment(
        pore=SlitPore(width_a=10.0, lateral_a=20.0, wall=wall),  # type: ignore[arg-type]
        settings=GcmcSettings(sample_every_steps=50),
        condition=GcmcCondition(temperature_k=298.0, pressure_bar=40.0),
        steps=steps,
        seed=5,
    )


def test_the_script_uses_the_chosen_wall_and_keeps_it_visible_to_monte_carlo() -> None:
    steele = render_gcmc_input(_segment("steele_10_4_3"), continuation=False)
    continuum = render_gcmc_input(_segment("lj93_continuum"), continuation=False)
    assert "wall/table spline 4000 zlo EDGE steele_wall.table STEELE_10_4_3 20" in steele
    assert "zhi EDGE steele_wall.table" in steele
    assert "wall/lj93" not in steele and "wall/table" not in continuum
    assert "wall/lj93 zlo EDGE" in continuum
    for script in (steele, continuum):
        assert "fix_modify      walls energy yes" in script
        assert "full_energy" in script


def test_wall_forces_are_minus_the_energy_gradient() -> None:
    z = np.linspace(2.8, 15.0, 50)
    for kind in WALL_KINDS:
        wall = carbon_wall(METHANE_TRAPPE_UA, kind=kind)
        h = 1e-6
        numeric = -(wall.energy_ev(z + h) - wall.energy_ev(z - h)) / (2 * h)
        assert np.allclose(wall.force_ev_a(z), numeric, rtol=1e-6, atol=1e-9)


def _energy_in_lammps(tmp_path: Path, wall: WallModel, z: float) -> float:
    if wall.needs_table():
        (tmp_path / TABLE_NAME).write_text(wall.table_text())
    script = "\n".join(
        [
            "units metal",
            "atom_style atomic",
            "boundary p p f",
            "region box block 0 20 0 20 0 30",
            "create_box 1 box",
            "mass 1 16.043",
            f"create_atoms 1 single 5 5 {z}",
            "pair_style lj/cut 8.0",
            "pair_coeff 1 1 0.0 3.73",
            wall.fix_command("walls", faces=("zlo",)),
            "fix_modify walls energy yes",
            "thermo_style custom step pe",
            "thermo_modify format float %.12g",
            "run 0",
        ]
    )
    result = LammpsLauncher(find_lmp(), mpi_ranks=1, omp_threads=1).run(script + "\n", tmp_path)
    return float(result.thermo["potential_energy"][0])


@needs_lmp
@pytest.mark.parametrize("kind", WALL_KINDS)
def test_lammps_wall_energy_is_the_analytic_one_shifted_at_the_cutoff(
    tmp_path: Path, kind: str
) -> None:
    wall = carbon_wall(METHANE_TRAPPE_UA, kind=kind)  # type: ignore[arg-type]
    z, depth = wall.well()
    shift = float(wall.energy_ev(np.array(wall.cutoff_a)))
    assert _energy_in_lammps(tmp_path, wall, z) == pytest.approx(depth - shift, rel=1e-5)


@needs_lmp
def test_a_steele_segment_adsorbs_and_records_its_wall(tmp_path: Path) -> None:
    launcher = LammpsLauncher(find_lmp(), mpi_ranks=1, omp_threads=1)
    result = run_gcmc_segment(launcher, _segment("steele_10_4_3", steps=200), tmp_path)
    assert result.n_molecules.max() > 0
    record = json.loads((tmp_path / "model.json").read_text())
    assert record["wall"] == "steele_10_4_3"
    assert "Steele" in record["wall_source"]
    assert record["wall_well_depth_k"] == pytest.approx(-1358.0, abs=1.0)
