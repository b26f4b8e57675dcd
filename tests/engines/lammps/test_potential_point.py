"""LAMMPS with a catalogued potential: forces and stress agree with finite differences of
the energy, in the structure's own frame, whatever LAMMPS's rotated frame."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from helpers.engines import needs
from simwright.builders import BulkSpec, build_bulk
from simwright.engines.lammps.launcher import LammpsLauncher, find_lmp
from simwright.engines.lammps.potential_point import (
    potential_point,
    render_potential_point,
    type_order,
)
from simwright.errors import ValidationError
from simwright.potentials import read_catalogue
from simwright.structure import Structure

pytestmark = needs("lammps")

MISHIN = "Cu_mishin1.eam.alloy"


def run(structure: Structure, workdir: Path, potential: str = MISHIN, relax: bool = False):  # type: ignore[no-untyped-def]
    catalogue = read_catalogue()
    entry = catalogue.get(potential)
    launcher = LammpsLauncher(find_lmp(), omp_threads=1)
    return potential_point(
        launcher, structure, entry, catalogue.path(entry), workdir, relax_ions=relax
    )


def deformed(base: Structure, f: np.ndarray) -> Structure:
    return base.with_positions(base.positions @ f.T, base.cell @ f.T)


def test_the_script_copies_the_potential_and_names_the_types_in_its_order(tmp_path: Path) -> None:
    entry = read_catalogue().get(MISHIN)
    script = render_potential_point(entry, ("Cu",), relax_ions=True)
    assert f"pair_coeff      * * {MISHIN} Cu" in script and "minimize" in script
    point = run(build_bulk(BulkSpec("Cu", "fcc", 3.615, cubic=True)), tmp_path / "p")
    assert (tmp_path / "p" / MISHIN).is_file()
    assert point.energy_ev / 4 == pytest.approx(-3.54, abs=0.005)  # Mishin et al.: E_coh 3.54 eV
    with pytest.raises(ValidationError, match="no parameters for Si"):
        type_order(entry, build_bulk(BulkSpec("Si", "diamond", 5.43, cubic=True)))


def test_forces_are_minus_the_energy_gradient(tmp_path: Path) -> None:
    rng = np.random.default_rng(7)
    base = build_bulk(BulkSpec("Cu", "fcc", 3.615, cubic=True))
    base = deformed(base, np.array([[1.0, 0.02, 0.0], [0.0, 1.0, 0.03], [0.01, 0.0, 1.0]]))
    base = base.with_positions(base.positions + rng.normal(0, 0.05, base.positions.shape))
    point = run(base, tmp_path / "0")
    h = 1e-4
    shifted = base.positions.copy()
    shifted[1, 2] += h
    plus = run(base.with_positions(shifted), tmp_path / "plus").energy_ev
    shifted[1, 2] -= 2 * h
    minus = run(base.with_positions(shifted), tmp_path / "minus").energy_ev
    assert point.forces_ev_a[1, 2] == pytest.approx(-(plus - minus) / (2 * h), rel=1e-4)


def test_stress_is_the_strain_derivative_of_the_energy_in_the_structure_frame(
    tmp_path: Path,
) -> None:
    base = build_bulk(BulkSpec("Cu", "fcc", 3.63, cubic=True))
    shear = deformed(base, np.array([[1.0, 0.01, 0.0], [0.01, 1.0, 0.0], [0.0, 0.0, 1.0]]))
    point = run(shear, tmp_path / "0")
    assert np.allclose(point.stress_gpa, point.stress_gpa.T, atol=1e-8)
    h = 1e-5
    energies = []
    for sign in (1, -1):
        f = np.eye(3)
        f[0, 1] = f[1, 0] = sign * h / 2
        energies.append(run(deformed(shear, f), tmp_path / f"s{sign}").energy_ev)
    volume = abs(np.linalg.det(shear.cell))
    numeric = (energies[0] - energies[1]) / (2 * h) / volume * 160.21766
    assert point.stress_gpa[0, 1] == pytest.approx(numeric, rel=2e-3)
    assert point.stress_gpa[0, 1] > 1.0  # 2 C44 ε ≈ 1.5 GPa for ε_xy = 1 %


def test_relaxing_the_ions_lowers_the_energy_of_sheared_diamond_si(tmp_path: Path) -> None:
    si = build_bulk(BulkSpec("Si", "diamond", 5.432, cubic=True))
    shear = deformed(si, np.array([[1.0, 0.01, 0.0], [0.01, 1.0, 0.0], [0.0, 0.0, 1.0]]))
    fixed = run(shear, tmp_path / "fixed", "Si.tersoff")
    relaxed = run(shear, tmp_path / "relaxed", "Si.tersoff", relax=True)
    assert relaxed.energy_ev < fixed.energy_ev
    assert np.abs(relaxed.forces_ev_a).max() < 1e-4
    assert relaxed.stress_gpa[0, 1] < 0.5 * fixed.stress_gpa[0, 1]  # internal relaxation


def test_a_funcfl_file_gets_one_pair_coeff_per_type(tmp_path: Path) -> None:
    point = run(build_bulk(BulkSpec("Cu", "fcc", 3.615, cubic=True)), tmp_path / "u3", "Cu_u3.eam")
    assert "pair_coeff      1 1 Cu_u3.eam" in (tmp_path / "u3" / "in.lammps").read_text()
    assert -3.6 < point.energy_ev / 4 < -3.45  # Foiles et al. fitted E_coh = 3.54 eV
