"""Machine-learned potentials through the ASE engine, fully offline (weights in the wheels)."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest
from ase.build import bulk

from simwright.contract import read_structures
from simwright.engines.ase.calculators import CalculatorSpec, molecular_dynamics, single_point
from simwright.engines.ase.mlip import mlip_available
from simwright.structure import Structure

SI = Structure.from_ase(bulk("Si", "diamond", a=5.43, cubic=True))


@pytest.fixture(autouse=True)
def _quiet_torch():
    # torch and pymatgen emit deprecation and user warnings of their own on import
    # and inference; they say nothing about simwright's behaviour.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@pytest.mark.skipif(not mlip_available("chgnet"), reason="extra simwright[mlip] not installed")
def test_chgnet_single_point_and_a_few_md_steps(tmp_path: Path) -> None:
    spec = CalculatorSpec("chgnet")
    sp, call = single_point(SI, spec)
    assert -6.0 < sp.energy_ev / len(SI) < -4.0  # DFT-like energy of bulk Si per atom
    assert np.abs(sp.forces_ev_a).max() < 0.05  # a perfect crystal: forces vanish by symmetry
    assert call.engine == "ase" and "mlip:chgnet" in call.command
    md, _ = molecular_dynamics(
        SI, spec, tmp_path / "md.extxyz", steps=5, timestep_fs=1.0, temperature_k=300.0, seed=3
    )
    assert len(md.times_fs) == 6 and md.times_fs[-1] == 5.0
    frames = read_structures(md.path)
    assert len(frames) == 6
    assert not np.allclose(frames[0].positions, frames[-1].positions)
    assert md.final.sanity().ok


@pytest.mark.skipif(not mlip_available("sevennet"), reason="extra simwright[mlip] not installed")
def test_sevennet_single_point_matches_chgnet_roughly() -> None:
    sp, _ = single_point(SI, CalculatorSpec("sevennet"))
    assert -6.0 < sp.energy_ev / len(SI) < -4.0
    assert sp.stress_ev_a3 is not None and sp.stress_ev_a3.shape == (6,)
