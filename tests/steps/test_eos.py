"""The EOS sub-graph written once: the same four steps with ASE and with LAMMPS.

The LAMMPS run is a composition only tests make (fcc argon with the LJ force field);
``lattice_constant`` (ASE) and ``dft_eos`` (pw.x) are the protocols built from it.
"""

from __future__ import annotations

from pathlib import PurePath

import numpy as np
import pytest

from helpers.engines import needs
from helpers.steps import run_graph
from simwright.builders import BulkSpec
from simwright.contract import read_table
from simwright.engines.ase.calculators import CalculatorSpec
from simwright.forcefields.lj_argon import EPSILON_OVER_KB_K, SIGMA_A
from simwright.graph import Graph, Runner, codec
from simwright.results import ProtocolResult
from simwright.settings import Settings
from simwright.steps.energies import AseEnergies, EnergyEngine, LammpsEnergies
from simwright.steps.eos import EOS_STEPS, BuildCrystal, EosPlan, EosText, StrainScan
from simwright.store import Store
from simwright.units import KB_EV_K

needs_lammps = needs("lammps")
GRAPH = Graph.build("argon_eos", EOS_STEPS)
ARGON = BulkSpec("Ar", "fcc", 5.26, cubic=True)
PLAN = EosPlan(
    StrainScan(strain_percent=4.0, n_points=7),
    "birchmurnaghan",
    EosText(
        title="EOS of LJ argon",
        subject="Ar (fcc, LJ)",
        plot_subject="Ar fcc",
        method="LJ argon single points at 7 strains",
        fit_description="Birch-Murnaghan fit of fcc argon",
    ),
)


def run_eos(engine: EnergyEngine, store: Store, settings: Settings) -> tuple[ProtocolResult, str]:
    out = run_graph(GRAPH, BuildCrystal(ARGON, engine, PLAN), store, settings)
    return out.result, out.run_id


@needs_lammps
def test_eos_through_lammps_equals_eos_through_ase_with_the_same_potential(
    store: Store, settings: Settings
) -> None:
    lj = CalculatorSpec(
        "lj", {"epsilon": EPSILON_OVER_KB_K * KB_EV_K, "sigma": SIGMA_A, "rc": 2.5 * SIGMA_A}
    )
    lammps, run_id = run_eos(LammpsEnergies("lj_argon"), store, settings)
    ase, _ = run_eos(AseEnergies(lj), store, settings)
    a_lammps = lammps.values["lattice_constant"].value
    assert a_lammps == pytest.approx(ase.values["lattice_constant"].value, abs=1e-5)
    assert lammps.values["bulk_modulus"].value == pytest.approx(
        ase.values["bulk_modulus"].value, rel=1e-4
    )
    # fcc LJ, cutoff 2.5 σ: nearest neighbours near 1.09 σ, a0 = √2 · 1.09 σ ≈ 5.25 Å
    assert 5.15 < a_lammps < 5.35
    assert lammps.summary.startswith("Ar (fcc, LJ): a0 = ")
    steps = [s.name for s in store.steps(run_id)]
    assert steps == ["BuildCrystal", "ScanVolumes", "FitEOS", "Report"]
    assert [c.engine for c in store.engine_calls(run_id)] == ["lammps"] * 7


def test_emt_copper_scan_and_fit_tables_are_consistent(store: Store, settings: Settings) -> None:
    copper = BulkSpec("Cu", "fcc", 3.61, cubic=True)
    out = run_graph(GRAPH, BuildCrystal(copper, AseEnergies(), PLAN), store, settings)
    run_dir = settings.runs_path / out.run_id
    paths = {PurePath(a.path).name: run_dir / a.path for a in out.result.artifacts}
    scan, results = read_table(paths["eos_scan.h5"]), read_table(paths["results.h5"])
    assert np.allclose(scan["a"], 3.61 * (1 + np.linspace(-0.04, 0.04, 7)))
    assert np.allclose(scan["volume_per_atom"], scan["a"] ** 3 / 4)
    v0, a0 = float(results["v0"][0]), float(results["a0"][0])
    assert a0 == pytest.approx((4 * v0) ** (1 / 3)) and 3.55 < a0 < 3.65  # EMT Cu: 3.59 Å
    assert out.result.values["lattice_constant"].value == pytest.approx(a0)


def test_a_crystal_the_engine_cannot_handle_fails_in_the_first_step(
    store: Store, settings: Settings
) -> None:
    out = Runner(store, settings).start(
        GRAPH, BuildCrystal(ARGON, AseEnergies(), PLAN), protocol="argon_eos"
    )
    assert out.status == "failed" and "EMT has no parameters for Ar" in (out.error or "")
    assert [s.name for s in store.steps(out.run_id)] == ["BuildCrystal"]


def test_steps_with_each_engine_survive_the_store_codec() -> None:
    for engine in (AseEnergies(CalculatorSpec("emt", {"asap_cutoff": False})), LammpsEnergies()):
        step = BuildCrystal(ARGON, engine, PLAN)
        back = codec.loads(codec.dumps(step))
        assert back == step and type(back.engine) is type(engine)
