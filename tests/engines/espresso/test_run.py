"""The pw.x adapter with the real program on tiny cells: validity, parsing into the file
contract, physics checks (forces against finite differences, Newton's third law),
a metal's Fermi level, a variable-cell relaxation, MPI launch."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from ase.build import bulk
from ase.io import read

from simwright.contract import read_structure, read_table, write_structure
from simwright.engines.espresso.launcher import PwLauncher
from simwright.engines.espresso.pseudo_library import SYSTEM_PSEUDO_DIR
from simwright.engines.espresso.pw import ENGINE, PwRun, run_pw
from simwright.engines.espresso.summary import write_pw_tables
from simwright.engines.espresso.template import KPoints, PwInput, Species
from simwright.settings import Settings
from simwright.structure import Structure

pytestmark = pytest.mark.skipif(
    shutil.which("pw.x") is None or not (SYSTEM_PSEUDO_DIR / "Si.pz-vbc.UPF").is_file(),
    reason="pw.x and quantum-espresso-data are needed",
)
DIRS = (SYSTEM_PSEUDO_DIR,)


def si_input(structure: Structure | None = None, **system: object) -> PwInput:
    s = structure or Structure.from_ase(bulk("Si", "diamond", a=5.43))
    return PwInput(
        {
            "control": {"calculation": "scf", "tprnfor": True, "tstress": True},
            "system": {"ecutwfc": 16.0, **system},
            "electrons": {"conv_thr": 1e-10},
        },
        (Species("Si", "Si.pz-vbc.UPF"),),
        s,
        KPoints(mesh=(3, 3, 3)),
    )


def run(inp: PwInput, where: Path, **kw: object) -> PwRun:
    return run_pw(inp, where, launcher=PwLauncher(**kw), pseudo_dirs=DIRS)  # type: ignore[arg-type]


def test_si_scf_is_valid_and_lands_in_the_contract(tmp_path: Path) -> None:
    r = run(si_input(), tmp_path)
    assert r.valid, r.problems
    assert r.call.exit_code == 0 and r.call.engine == "espresso" and r.call.version.startswith("6.")
    assert (tmp_path / "pw.in").is_file() and (tmp_path / "pseudo" / "Si.pz-vbc.UPF").is_file()
    assert not (tmp_path / "tmp").exists()  # scratch removed
    o = r.output
    assert o.energy_ev == pytest.approx(-215.0, abs=0.5)  # 2 Si, LDA, 16 Ry
    assert o.forces_ev_a is not None and np.abs(o.forces_ev_a).max() < 1e-4  # symmetry
    assert o.stress_bar is not None and np.allclose(o.stress_bar, o.stress_bar.T)
    assert o.homo_ev is not None and o.fermi_energy_ev is None and o.n_scf_iterations > 2
    tables = write_pw_tables(r, tmp_path, "test")
    summary = read_table(tables.summary)
    assert summary.column("energy").unit == "eV" and summary.column("pressure").unit == "bar"
    assert summary["energy"][0] == pytest.approx(o.energy_ev)
    assert bool(summary["valid"][0]) and summary["stress_voigt"].shape == (1, 6)
    assert tables.forces is not None
    assert read_table(tables.forces).column("force").unit == "eV/Å"
    # ASE's own reader of pw.x output agrees on energy, forces and stress
    atoms = read(tmp_path / "pw.stdout", format="espresso-out")
    assert atoms.get_potential_energy() == pytest.approx(o.energy_ev, rel=1e-6)  # CODATA
    assert atoms.get_forces() == pytest.approx(o.forces_ev_a, abs=1e-5)


def test_forces_match_finite_differences(tmp_path: Path) -> None:
    base = Structure.from_ase(bulk("Si", "diamond", a=5.43))
    h = 0.01

    def displaced(dx: float) -> Structure:
        pos = np.array(base.positions)
        pos[0, 0] += 0.05 + dx
        return base.with_positions(pos)

    center = run(si_input(displaced(0.0)), tmp_path / "0")
    plus = run(si_input(displaced(h)), tmp_path / "p")
    minus = run(si_input(displaced(-h)), tmp_path / "m")
    assert center.output.forces_ev_a is not None
    assert plus.output.energy_ev is not None and minus.output.energy_ev is not None
    numeric = -(plus.output.energy_ev - minus.output.energy_ev) / (2 * h)
    analytic = center.output.forces_ev_a[0, 0]
    assert abs(analytic) > 0.1
    assert numeric == pytest.approx(analytic, rel=0.03)
    assert center.output.forces_ev_a.sum(axis=0) == pytest.approx(np.zeros(3), abs=1e-4)


def test_metal_reports_a_fermi_level(tmp_path: Path) -> None:
    al = PwInput(
        {
            "control": {"calculation": "scf"},
            "system": {
                "ecutwfc": 16.0,
                "occupations": "smearing",
                "smearing": "mv",
                "degauss": 0.02,
            },
            "electrons": {},
        },
        (Species("Al", "Al.pz-vbc.UPF"),),
        Structure.from_ase(bulk("Al", "fcc", a=4.05)),
        KPoints(mesh=(6, 6, 6)),
    )
    r = run(al, tmp_path)
    assert r.valid
    assert r.output.fermi_energy_ev is not None and 5.0 < r.output.fermi_energy_ev < 12.0
    summary = read_table(write_pw_tables(r, tmp_path).summary)
    assert np.isfinite(summary["fermi_energy"][0])


def test_vc_relax_returns_the_final_structure(tmp_path: Path) -> None:
    start = Structure.from_ase(bulk("Si", "diamond", a=5.6))
    inp = si_input(start).with_values(
        {
            "control": {"calculation": "vc-relax"},
            "ions": {"ion_dynamics": "bfgs"},
            "cell": {"cell_dynamics": "bfgs"},
            "electrons": {"conv_thr": 1e-8},
        }
    )
    r = run(inp, tmp_path)
    assert r.valid and r.output.relax_converged
    assert r.structure.volume_a3 is not None and start.volume_a3 is not None
    assert r.structure.volume_a3 < start.volume_a3  # 5.6 Å is too large for LDA Si
    path = write_structure(tmp_path / "final.extxyz", r.structure)
    assert read_structure(path).volume_a3 == pytest.approx(r.structure.volume_a3)
    relax = write_pw_tables(r, tmp_path).relax
    assert relax is not None and read_table(relax).n_rows == len(r.output.energies_ev) > 1


def test_mpi_launch_gives_the_same_energy(tmp_path: Path) -> None:
    serial = run(si_input(), tmp_path / "serial")
    parallel = run(si_input(), tmp_path / "mpi", mpi_ranks=2)
    assert parallel.valid and parallel.call.command.split()[0].endswith("mpirun")
    assert parallel.output.energy_ev == pytest.approx(serial.output.energy_ev, abs=1e-5)


def test_engine_is_registered_information() -> None:
    status = ENGINE.status(Settings(home=Path.home()))
    assert ENGINE.name == "espresso" and status.available and status.version.startswith("6.")
