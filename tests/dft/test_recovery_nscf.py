"""The recovery machine on non-self-consistent runs with real pw.x: too few bands for the
tetrahedron method is repaired; an nscf run without the SCF's saved data is named."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from simwright.dft.handlers import RepairContext, diagnose
from simwright.dft.knowledge_graph import load_knowledge_graph
from simwright.dft.recommender import recommend
from simwright.dft.recovery import RecoveryMachine
from simwright.dft.request import DftRequest
from simwright.engines.espresso.launcher import PwLauncher
from simwright.engines.espresso.postproc import seed_scratch
from simwright.engines.espresso.pseudo_library import SYSTEM_PSEUDO_DIR, PseudoLibrary
from simwright.engines.espresso.pw import PwRun, run_pw
from simwright.engines.espresso.template import KPoints, PwInput
from simwright.protocols.dft.post import nscf_input

pytestmark = pytest.mark.skipif(
    shutil.which("pw.x") is None or not (SYSTEM_PSEUDO_DIR / "Si.pz-vbc.UPF").is_file(),
    reason="pw.x and quantum-espresso-data are needed",
)
DIRS = (SYSTEM_PSEUDO_DIR,)
RAW: dict[str, Any] = {
    "structure": {"kind": "bulk", "name": "Si"},
    "functional": "lda",
    "kspacing_inv_a": 0.5,
    "ecutwfc_ry": 12.0,
}


def si_scf(where: Path) -> tuple[PwInput, float]:
    rec = recommend(DftRequest.model_validate(RAW), PseudoLibrary(DIRS))
    run = run_pw(rec.template, where, launcher=PwLauncher(), pseudo_dirs=DIRS, keep_scratch=True)
    assert run.valid, run.problems
    return rec.template, rec.valence_electrons


def test_tetrahedra_with_too_few_bands_gets_more_bands(tmp_path: Path) -> None:
    scf, valence = si_scf(tmp_path / "scf")
    changes = {"occupations": "tetrahedra", "smearing": None, "degauss": None}
    inp = nscf_input(scf, "nscf", KPoints("automatic", (4, 4, 4)), 2, changes)

    def runner(i: PwInput, where: Path) -> PwRun:
        seed_scratch(tmp_path / "scf", where)
        return run_pw(i, where, launcher=PwLauncher(), pseudo_dirs=DIRS, keep_scratch=True)

    runs: list[PwRun] = []
    machine = RecoveryMachine(
        runner, RepairContext(load_knowledge_graph(), valence, DIRS), on_run=runs.append
    )
    out = machine.run(inp, tmp_path / "nscf")
    assert "bad Fermi energy" in runs[0].crash
    assert out.status == "success" and out.repairs == ("more_bands",)
    assert out.run is not None and out.run.output.bands_done
    assert int(out.run.input.get("system", "nbnd") or 0) > 4


def test_nscf_without_saved_data_is_named(tmp_path: Path) -> None:
    rec = recommend(DftRequest.model_validate(RAW), PseudoLibrary(DIRS))
    inp = nscf_input(rec.template, "nscf", KPoints("automatic", (2, 2, 2)), 8)
    run = run_pw(inp, tmp_path, launcher=PwLauncher(), pseudo_dirs=DIRS)
    assert not run.valid
    assert diagnose(run).code == "missing_saved_data"
