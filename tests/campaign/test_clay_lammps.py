"""Clay GCMC–MD: the template, region assignment, and a real LAMMPS segment of a tiny clay."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from helpers.engines import needs
from simwright.builders.clay import ClayParameters, build_clay
from simwright.campaign.clay_data import render_water_molecule, type_order
from simwright.campaign.clay_lammps import (
    FINAL_DUMP_NAME,
    ClayGcmcSettings,
    ClaySegment,
    render_gcmc,
    run_clay_segment,
)
from simwright.engines.lammps.clay_regions import assign_water_regions, read_oxygen_heights
from simwright.engines.lammps.launcher import LammpsLauncher, find_lmp
from simwright.forcefields.spce_vapour import humidity_pressure_bar

TINY = ClayParameters(
    cation="Na", layer_charge=0.5, cells=(4, 2), vacuum_a=12.0, interlayer_waters=8
)


def _segment(pressure_bar: float, steps: int, settings: ClayGcmcSettings) -> ClaySegment:
    return ClaySegment(TINY, settings, 300.0, pressure_bar, 0.9, steps, 4321)


def test_region_assignment_uses_the_sheets_current_mid_planes() -> None:
    z = np.array([5.0, 10.0, 10.1, 15.0, 19.9, 20.0, 30.0])
    assert assign_water_regions(z, 10.0, 20.0) == {"below": 2, "interlayer": 3, "above": 2}
    # the same oxygens after the upper sheet moved down by 6 Å
    assert assign_water_regions(z, 10.0, 14.0) == {"below": 2, "interlayer": 1, "above": 4}
    with pytest.raises(ValueError, match="below"):
        assign_water_regions(z, 20.0, 10.0)


def test_the_template_states_the_model_and_the_reservoir() -> None:
    system = build_clay(TINY)
    p = humidity_pressure_bar(0.9, 300.0)
    script = render_gcmc(system, _segment(p, 1000, ClayGcmcSettings()))
    assert "units           real" in script
    assert "pair_style      lj/cut/coul/long 12" in script and "mix arithmetic" in script
    assert "kspace_style    pppm 0.0001" in script
    assert (
        "fix             sheets clay rigid molecule force * off off on torque * off off off"
        in script
    )
    assert "shake 1.0e-4" in script and "mol h2o" in script
    mid = sum(system.sheet_mid_z) / 2  # the pair's centre of mass is held, not its separation
    assert f"fix             tether clay spring tether 5 NULL NULL {mid:.10g} 0.0" in script
    gcmc = next(line for line in script.splitlines() if line.startswith("fix             gcmc"))
    assert " 0 0 4321 300 0.0 " in gcmc  # no MC moves (SHAKE), molecule exchange only
    assert f"pressure {p / 1.01325:.10g} " in gcmc  # bar -> atm of units real
    for word in ("full_energy", "fugacity_coeff 1", "shake wshake", "group mobile"):
        assert word in gcmc
    assert "fix             thermostat mobile nvt temp 300 300 100" in script
    assert "timestep        1" in script
    mol = render_water_molecule(system)
    assert "Shake Flags" in mol and f"1 {type_order(system).index('OW') + 1}" in mol


@needs("lammps")
@pytest.mark.slow
def test_a_tiny_clay_segment_inserts_whole_molecules_and_keeps_its_books(tmp_path: Path) -> None:
    settings = ClayGcmcSettings(
        pair_cutoff_a=8.0,
        equilibration_steps=40,
        sample_every_steps=10,
        exchange_every_steps=5,
        exchange_attempts=10,
        insertion_margin_a=4.0,
    )
    launcher = LammpsLauncher(find_lmp(), mpi_ranks=1, omp_threads=1)
    # a supersaturated reservoir (1 bar, ~100 p_sat) so that a few dozen attempts insert
    result = run_clay_segment(launcher, _segment(1.0, 60, settings), tmp_path)
    v = result.values
    n_clay_ions = 2 * 8 * 40 + 8
    atoms = np.asarray(result.lammps.thermo["atoms"])[1:]
    assert np.array_equal(atoms - n_clay_ions, 3 * v["n_water"])  # whole molecules only
    assert np.all(v["n_ions"] == 8)
    assert np.array_equal(v["n_interlayer"] + v["n_below"] + v["n_above"], v["n_water"])
    inserted = np.asarray(result.lammps.thermo["f_gcmc_4"])
    assert inserted[-1] > inserted[0]
    assert result.abs_start == 40 and result.abs_end == 100
    assert np.all(np.diff(v["basal_spacing"]) != 0)  # the sheets move along z
    # the final dump assigns the oxygens as LAMMPS counted them
    ow = type_order(build_clay(TINY)).index("OW") + 1
    z = read_oxygen_heights(tmp_path / FINAL_DUMP_NAME, ow)
    counts = assign_water_regions(z, v["z_sheet1"][-1], v["z_sheet2"][-1])
    assert counts == {
        "below": v["n_below"][-1],
        "interlayer": v["n_interlayer"][-1],
        "above": v["n_above"][-1],
    }
    # preparation checks and the equilibrated restart are recorded
    prep = json.loads((tmp_path / "equilibration" / "preparation.json").read_text())
    assert prep["ok"] and {c["name"] for c in prep["checks"]} >= {
        "total_charge_e",
        "cation_partition",
    }
    eq = json.loads((tmp_path / "equilibration" / "equilibrated.json").read_text())
    restart = tmp_path / "equilibration" / eq["restart"]
    assert hashlib.sha256(restart.read_bytes()).hexdigest() == eq["sha256"]
    assert result.lammps.restart_path is not None and result.lammps.restart_path.is_file()
    # the next segment continues from that restart (as a campaign's next state does)
    nxt = run_clay_segment(
        launcher,
        _segment(0.001, 20, settings),
        tmp_path / "next",
        restart=result.lammps.restart_path,
    )
    assert nxt.abs_start == 100 and nxt.abs_end == 120 and nxt.equilibration is None
    assert np.all(nxt.values["n_ions"] == 8)
