"""Several structures in one LAMMPS run: the same energies and forces as one run each; and
a relaxation held to one axis moves the atoms along that axis only."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from helpers.engines import needs
from simwright.builders import BulkSpec, build_bulk, supercell, vacancy
from simwright.engines.lammps.batch_point import batch_points, render_batch
from simwright.engines.lammps.launcher import LammpsLauncher, find_lmp
from simwright.engines.lammps.potential_point import potential_point, render_potential_point
from simwright.errors import ValidationError
from simwright.potentials import read_catalogue
from simwright.steps.neb import unwrapped

pytestmark = needs("lammps")

MISHIN = "Cu_mishin1.eam.alloy"


def test_the_batch_script_clears_between_structures_and_dumps_per_atom_energies() -> None:
    script = render_batch(read_catalogue().get(MISHIN), ("Cu",), 3)
    assert script.count("clear") == 3 and script.count("run             0") == 3
    assert "c_peatom" in script and "image-03.dump" in script


def test_a_relaxation_held_to_z_zeroes_the_in_plane_forces() -> None:
    entry = read_catalogue().get(MISHIN)
    script = render_potential_point(entry, ("Cu",), relax_ions=True, relax_axes="z")
    assert "fix             hold all setforce 0.0 0.0 NULL" in script
    assert "setforce" not in render_potential_point(entry, ("Cu",), relax_ions=True)


def test_batch_energies_and_forces_match_single_points(tmp_path: Path) -> None:
    catalogue = read_catalogue()
    entry = catalogue.get(MISHIN)
    launcher = LammpsLauncher(find_lmp(), omp_threads=1)
    cell = build_bulk(BulkSpec("Cu", "fcc", 3.615, cubic=True))
    defect = vacancy(supercell(cell, (2, 2, 2)), 0)
    rng = np.random.default_rng(7)
    shaken = [defect.with_positions(defect.positions + rng.normal(0, 0.05, (31, 3))) for _ in "ab"]
    folder = tmp_path / "batch"
    with pytest.raises(ValidationError, match="must be copied"):
        batch_points(launcher, shaken, entry, folder)
    folder.mkdir()
    shutil.copyfile(catalogue.path(entry), folder / MISHIN)
    batch = batch_points(launcher, shaken, entry, folder)
    for i, s in enumerate(shaken):
        single = potential_point(launcher, s, entry, catalogue.path(entry), tmp_path / f"p{i}")
        assert batch.energy_ev[i] == pytest.approx(single.energy_ev, abs=1e-8)
        assert np.allclose(batch.forces_ev_a[i], single.forces_ev_a, atol=1e-8)
    assert batch.energy_ev[0] != pytest.approx(batch.energy_ev[1], abs=1e-6)


def test_an_end_point_wrapped_across_the_box_is_brought_back_beside_the_start() -> None:
    cell = build_bulk(BulkSpec("Cu", "fcc", 3.615, cubic=True))
    start = cell.with_positions(cell.positions + 0.01)
    wrapped = start.with_positions(start.positions - 0.02)
    wrapped = wrapped.with_positions(np.mod(wrapped.positions, 3.615))
    assert np.allclose(unwrapped(start, wrapped).positions, start.positions - 0.02)
