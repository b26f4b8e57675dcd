"""Live SCF progress of pw.x read from its growing output (the real program on 2-atom Si)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from ase.build import bulk

from simwright.engines.espresso.launcher import PwLauncher
from simwright.engines.espresso.live import PwFollower, ScfProgress
from simwright.engines.espresso.pseudo_library import SYSTEM_PSEUDO_DIR
from simwright.engines.espresso.pw import run_pw
from simwright.engines.espresso.template import OUTPUT_NAME, KPoints, PwInput, Species
from simwright.structure import Structure

pytestmark = pytest.mark.skipif(
    shutil.which("pw.x") is None or not (SYSTEM_PSEUDO_DIR / "Si.pz-vbc.UPF").is_file(),
    reason="pw.x and quantum-espresso-data are needed",
)


def test_scf_iterations_and_energy_change_from_a_real_output(tmp_path: Path) -> None:
    inp = PwInput(
        {"control": {"calculation": "scf"}, "system": {"ecutwfc": 16.0}, "electrons": {}},
        (Species("Si", "Si.pz-vbc.UPF"),),
        Structure.from_ase(bulk("Si", "diamond", a=5.43)),
        KPoints(mesh=(2, 2, 2)),
    )
    reports: list[tuple[float | None, str]] = []
    run = run_pw(
        inp,
        tmp_path,
        launcher=PwLauncher(),
        pseudo_dirs=(SYSTEM_PSEUDO_DIR,),
        progress=lambda f, m: reports.append((f, m)),
    )
    assert run.valid, run.problems
    assert all(f is None for f, _ in reports)  # pw.x gives no fraction; a spinner shows
    data = (tmp_path / OUTPUT_NAME).read_bytes()
    growing = tmp_path / "growing.out"
    follower = PwFollower(growing)
    seen: list[ScfProgress | None] = []
    for cut in range(0, len(data), 211):
        with growing.open("ab") as fh:
            fh.write(data[cut : cut + 211])
        seen.append(follower.poll())
    final = seen[-1]
    assert final is not None
    assert final.iteration == run.output.n_scf_iterations and final.scf_cycles_done == 1
    assert final.delta_e_ry is not None and abs(final.delta_e_ry) < 1e-4
    assert final.accuracy_ry is not None and final.accuracy_ry < 1e-5
    iterations = [p.iteration for p in seen if p is not None]
    assert iterations == sorted(iterations) and iterations[0] == 1
    text = final.describe()
    assert text.startswith("ionic step 2 · SCF iteration") and "ΔE" in text and "Ry" in text
