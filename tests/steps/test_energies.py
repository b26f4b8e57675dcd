"""EnergyEngine: the same structures through ASE and LAMMPS, each a real engine (pw.x:
tests/protocols/test_dft_energies.py, beside its module)."""

from __future__ import annotations

import numpy as np
import pytest

from helpers.engines import needs
from helpers.steps import evaluate
from simwright.builders import BulkSpec, build_bulk, supercell
from simwright.engines.ase.calculators import CalculatorSpec
from simwright.errors import ValidationError
from simwright.forcefields.lj_argon import EPSILON_OVER_KB_K, SIGMA_A
from simwright.settings import Settings
from simwright.steps.energies import AseEnergies, LammpsEnergies
from simwright.steps.eos import strained
from simwright.store import Store
from simwright.units import KB_EV_K

needs_lammps = needs("lammps")

ARGON_LJ = CalculatorSpec(
    "lj", {"epsilon": EPSILON_OVER_KB_K * KB_EV_K, "sigma": SIGMA_A, "rc": 2.5 * SIGMA_A}
)
"""ASE's Lennard-Jones with the parameters (and shifted cutoff) of the LAMMPS force field."""


def argon_cells() -> list:
    base = supercell(build_bulk(BulkSpec("Ar", "fcc", 5.26, cubic=True)), (2, 2, 2))
    return strained(base, np.array([0.97, 1.0, 1.03]))


def test_ase_engine_evaluates_all_structures_in_one_recorded_call(
    store: Store, settings: Settings
) -> None:
    cells = strained(build_bulk(BulkSpec("Cu", "fcc", 3.61, cubic=True)), np.array([0.98, 1.02]))
    energies, calls = evaluate(AseEnergies(CalculatorSpec("emt")), cells, store, settings)
    assert energies.energy_ev.shape == (2,) and np.all(np.isfinite(energies.energy_ev))
    assert energies.energy_ev[0] != energies.energy_ev[1]
    assert [c.engine for c in calls] == ["ase"]


def test_engines_refuse_elements_they_do_not_know() -> None:
    with pytest.raises(ValidationError, match="EMT has no parameters for Si"):
        AseEnergies(CalculatorSpec("emt")).check_elements(["Si"])
    with pytest.raises(ValidationError, match="no atom type for Cu"):
        LammpsEnergies("lj_argon").check_elements(["Cu"])


@needs_lammps
def test_lammps_single_points_match_ase_with_the_same_potential(
    store: Store, settings: Settings
) -> None:
    cells = argon_cells()
    lammps, calls = evaluate(LammpsEnergies("lj_argon"), cells, store, settings)
    ase, _ = evaluate(AseEnergies(ARGON_LJ), cells, store, settings)
    assert [c.engine for c in calls] == ["lammps"] * 3  # one real `run 0` per structure
    assert np.allclose(lammps.energy_ev, ase.energy_ev, rtol=1e-7, atol=1e-7)
    per_atom = lammps.energy_ev / len(cells[0])
    assert -0.09 < per_atom.min() < -0.07  # near -8.6 ε per atom for fcc LJ, rc = 2.5 σ
    assert np.argmin(per_atom) == 1


@needs_lammps
def test_a_catalogued_potential_is_an_energy_engine_with_stresses_and_its_file_recorded(
    store: Store, settings: Settings
) -> None:
    from simwright.steps.energies import PotentialEnergies

    cells = strained(build_bulk(BulkSpec("Cu", "fcc", 3.615, cubic=True)), np.array([0.99, 1.01]))
    energies, calls = evaluate(PotentialEnergies("Cu_mishin1.eam.alloy"), cells, store, settings)
    assert [c.engine for c in calls] == ["lammps", "lammps"]
    assert energies.stress_gpa is not None
    pressure = -np.trace(energies.stress_gpa, axis1=1, axis2=2) / 3
    assert pressure[0] > 1.0 > -1.0 > pressure[1]  # compressed pushes out, stretched pulls in
    with pytest.raises(ValidationError, match="no parameters for"):
        PotentialEnergies("Si.sw").check_elements(["Cu"])
