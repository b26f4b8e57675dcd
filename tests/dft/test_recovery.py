"""The error-recovery machine with real pw.x: every rule-based handler is exercised by an
input that really fails (except the Cholesky failure, which could not be triggered on a
tiny cell and is replayed from a canned CRASH text), the knowledge-graph repair of a bad
namelist variable, a missing pseudopotential, and the tiered proposer seam with a
scripted proposer."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from simwright.dft.handlers import RepairContext, diagnose, needed_bands
from simwright.dft.knowledge_graph import load_knowledge_graph
from simwright.dft.proposers import ProposedFix, ProposerTier, ScriptedProposer, ScriptOverError
from simwright.dft.recommender import recommend
from simwright.dft.recovery import RecoveryMachine, RecoveryOutcome
from simwright.dft.request import DftRequest
from simwright.engines.espresso.launcher import PwLauncher
from simwright.engines.espresso.pseudo_library import SYSTEM_PSEUDO_DIR, PseudoLibrary
from simwright.engines.espresso.pw import PwRun, run_pw
from simwright.engines.espresso.template import PwInput, Species

pytestmark = pytest.mark.skipif(
    shutil.which("pw.x") is None or not (SYSTEM_PSEUDO_DIR / "Si.pz-vbc.UPF").is_file(),
    reason="pw.x and quantum-espresso-data are needed",
)
DIRS = (SYSTEM_PSEUDO_DIR,)
CHEAP = {"kspacing_inv_a": 0.5, "ecutwfc_ry": 16.0}


def template(name: str, **extra: Any) -> tuple[PwInput, float]:
    raw: dict[str, Any] = {
        "structure": {"kind": "bulk", "name": name},
        "functional": "lda",
        **CHEAP,
        **extra,
    }
    rec = recommend(DftRequest.model_validate(raw), PseudoLibrary(DIRS))
    return rec.template, rec.valence_electrons


def real_runner(inp: PwInput, where: Path) -> PwRun:
    return run_pw(inp, where, launcher=PwLauncher(), pseudo_dirs=DIRS)


def machine(valence: float | None, **kw: Any) -> tuple[RecoveryMachine, list[PwRun]]:
    runs: list[PwRun] = []
    m = RecoveryMachine(
        kw.pop("runner", real_runner),
        RepairContext(load_knowledge_graph(), valence, DIRS),
        on_run=runs.append,
        **kw,
    )
    return m, runs


def path_of(outcome: RecoveryOutcome) -> list[str]:
    return [f"{t.source}->{t.target}" for t in outcome.transitions]


def rules(outcome: RecoveryOutcome) -> list[str | None]:
    return [t.rule for t in outcome.transitions if t.rule]


def test_zero_shot_success_takes_the_short_path(tmp_path: Path) -> None:
    inp, nel = template("Si")
    m, runs = machine(nel)
    out = m.run(inp, tmp_path)
    assert out.status == "success" and out.zero_shot and len(runs) == 1
    assert path_of(out) == [
        "entry->generate",
        "generate->validate",
        "validate->run",
        "run->success",
    ]


def test_unconverged_scf_lowers_mixing_then_switches_to_local_tf(tmp_path: Path) -> None:
    inp, nel = template("Si", overrides={"electrons": {"electron_maxstep": 2}})
    m, runs = machine(nel)
    out = m.run(inp, tmp_path / "a")
    assert out.status == "success" and out.repairs == ("scf_mixing",)
    assert runs[0].call.exit_code == 2 and diagnose(runs[0]).code == "scf_unconverged"
    assert out.run is not None and out.run.input.get("electrons", "mixing_beta") == 0.35
    assert path_of(out)[3:6] == ["run->diagnose", "diagnose->repair", "repair->validate"]
    # already gentle mixing: the second stage of the rule
    inp2, _ = template("Si", overrides={"electrons": {"electron_maxstep": 2, "mixing_beta": 0.2}})
    out2 = machine(nel)[0].run(inp2, tmp_path / "b")
    assert out2.status == "success" and out2.repairs == ("scf_local_tf",)
    assert out2.run is not None and out2.run.input.get("electrons", "mixing_mode") == "local-TF"


def test_misspelt_variable_is_repaired_through_the_knowledge_graph(tmp_path: Path) -> None:
    inp, nel = template("Si", overrides={"control": {"tstres": True}})
    m, runs = machine(nel)
    out = m.run(inp, tmp_path)
    assert runs[0].call.exit_code == 1 and "bad line in namelist &control" in runs[0].crash
    assert diagnose(runs[0]).code == "bad_namelist"
    assert out.status == "success" and out.repairs == ("namelist_knowledge_graph",)
    assert out.run is not None and out.run.input.get("control", "tstress") is True
    assert out.run.input.get("control", "tstres") is None
    assert any("did you mean 'tstress'" in t.reason for t in out.transitions)


def test_variable_in_the_wrong_namelist_is_moved(tmp_path: Path) -> None:
    inp, nel = template("Si", overrides={"system": {"mixing_beta": 0.5}})
    out = machine(nel)[0].run(inp, tmp_path)
    assert out.status == "success" and out.repairs == ("namelist_knowledge_graph",)
    assert out.run is not None and out.run.input.get("electrons", "mixing_beta") == 0.5
    assert out.run.input.get("system", "mixing_beta") is None


def test_too_few_bands_for_aluminium(tmp_path: Path) -> None:
    inp, nel = template("Al", overrides={"system": {"nbnd": 1}})
    m, runs = machine(nel)
    out = m.run(inp, tmp_path)
    assert "too few bands" in runs[0].crash and out.repairs == ("more_bands",)
    assert (
        out.run is not None
        and out.run.input.get("system", "nbnd")
        == needed_bands(3.0, smearing=True, noncolin=False)
        == 6
    )


def test_metal_without_smearing_gets_smearing(tmp_path: Path) -> None:
    inp, nel = template(
        "Al", overrides={"system": {"occupations": None, "smearing": None, "degauss": None}}
    )
    m, runs = machine(nel)
    out = m.run(inp, tmp_path)
    assert "smearing is needed" in runs[0].crash and out.repairs == ("metal_smearing",)
    assert out.run is not None and out.run.output.fermi_energy_ev is not None


def test_fully_relativistic_platinum_needs_spin_orbit(tmp_path: Path) -> None:
    inp, nel = template(
        "Pt",
        pseudopotentials={"Pt": "Pt.rel-pz-n-rrkjus.UPF"},
        kspacing_inv_a=0.7,
        ecutwfc_ry=20.0,
        ecutrho_ry=160.0,
        overrides={"system": {"noncolin": None, "lspinorb": None}},
    )
    m, runs = machine(nel)
    out = m.run(inp, tmp_path)
    assert "FR-PP please use lspinorb" in runs[0].crash
    assert out.status == "success" and out.repairs == ("spin_orbit_for_fr_pp",)
    assert out.run is not None and out.run.input.get("system", "lspinorb") is True


def test_relaxation_out_of_steps_restarts_from_the_last_geometry(tmp_path: Path) -> None:
    inp, nel = template(
        "Si", calculation="relax", rattle_a=0.05, overrides={"control": {"nstep": 1}}
    )
    m, runs = machine(nel)
    out = m.run(inp, tmp_path)
    assert runs[0].call.exit_code == 3 and runs[0].output.max_steps_reached
    assert out.status == "success" and out.repairs == ("relax_restart",)
    assert runs[1].input.structure == runs[0].structure  # restarted where the first stopped
    assert runs[1].input.get("control", "nstep") == 50
    assert out.run is not None and out.run.output.forces_ev_a is not None
    assert np.abs(out.run.output.forces_ev_a).max() < 0.03


def test_missing_pseudopotential_fails_naming_file_and_directories(tmp_path: Path) -> None:
    inp, nel = template("Si")
    inp = dataclasses.replace(inp, species=(Species("Si", "Si.nowhere.UPF"),))
    m, runs = machine(nel)
    out = m.run(inp, tmp_path)
    assert out.status == "failure" and len(runs) == 1
    assert "Si.nowhere.UPF" in out.message and str(SYSTEM_PSEUDO_DIR) in out.message
    assert out.transitions[-1].target == "failure"
    assert out.transitions[-1].rule == "missing_pseudopotential"


CANNED_CHOLESKY = """
 %%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%
     task #         0
     from cdiaghg : error #        51
     problems computing cholesky
 %%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%
"""


def test_cholesky_failure_switches_to_cg_canned(tmp_path: Path) -> None:
    """The first run is real but its failure is replayed from a canned CRASH text."""

    def runner(inp: PwInput, where: Path) -> PwRun:
        run = real_runner(inp, where)
        if where.name == "attempt-01":
            call = dataclasses.replace(run.call, exit_code=1)
            return dataclasses.replace(run, call=call, crash=CANNED_CHOLESKY)
        return run

    inp, nel = template("Si")
    m, runs = machine(nel, runner=runner)
    out = m.run(inp, tmp_path)
    assert diagnose(runs[0]).code == "cholesky"
    assert out.status == "success" and out.repairs == ("cg_diagonalization",)
    assert runs[1].input.get("electrons", "diagonalization") == "cg"


def nscf_input() -> tuple[PwInput, float]:
    """An nscf run without a preceding SCF: pw.x fails in a way no rule knows."""
    return template("Si", overrides={"control": {"calculation": "nscf"}})


def test_unresolved_failure_without_proposer_ends_with_a_diagnosis(tmp_path: Path) -> None:
    inp, nel = nscf_input()
    out = machine(nel)[0].run(inp, tmp_path)
    assert out.status == "failure" and "missing_saved_data" in out.message
    assert "reading xml file" in out.message
    assert path_of(out)[-1] == "repair->failure"


def test_proposer_tiers_restart_from_the_template_and_are_validated(tmp_path: Path) -> None:
    inp, nel = nscf_input()
    first = ScriptedProposer(
        [
            ProposedFix({"electrons": {"mixing_bta": 0.3}}, "a typo the graph must reject"),
            None,
        ]
    )
    second = ScriptedProposer([ProposedFix({"control": {"calculation": "scf"}}, "run an SCF")])
    m, runs = machine(
        nel, proposers=(ProposerTier("small", first, 2), ProposerTier("large", second, 1))
    )
    out = m.run(inp, tmp_path)
    assert out.status == "success" and out.repairs == ("proposer:large",)
    assert len(runs) == 2  # the rejected proposal never ran
    reasons = [t.reason for t in out.transitions]
    assert any("proposal rejected" in r and "mixing_bta" in r for r in reasons)
    assert any("restarts from the template" in r for r in reasons)
    asked = first.seen[0]
    assert "reading xml file" in asked.crash_text
    assert asked.diagnosis.code == "missing_saved_data"  # named, but no rule repairs it
    assert asked.input == inp and "generate" in [t.target for t in out.transitions]
    with pytest.raises(ScriptOverError):
        first(asked)


def test_input_errors_are_repaired_from_the_graph_before_running(tmp_path: Path) -> None:
    # pw.x 6.7 stops on ecutrho <= ecutwfc (set_cutoff); below 4 × ecutwfc it only remarks
    inp, nel = template("Si", overrides={"system": {"ecutrho": 12.0}})
    m, runs = machine(nel)
    out = m.run(inp, tmp_path)
    assert out.status == "success" and out.repairs[0] == "knowledge_graph_validation"
    assert len(runs) == 1 and runs[0].input.get("system", "ecutrho") == 64.0
    bad, _ = template("Si", overrides={"system": {"nspin": 3}})
    refused = machine(nel)[0].run(bad, tmp_path / "bad")
    assert refused.status == "failure" and "nspin=3 is not allowed" in refused.message
    assert not refused.attempts


def test_a_proposal_naming_a_folder_is_rejected_before_it_runs(tmp_path: Path) -> None:
    inp, nel = nscf_input()
    proposer = ScriptedProposer(
        [
            ProposedFix({"control": {"wfcdir": "/tmp/elsewhere"}}, "keep wave functions apart"),
            ProposedFix({"control": {"calculation": "scf"}}, "run an SCF"),
        ]
    )
    m, runs = machine(nel, proposers=(ProposerTier("small", proposer, 2),))
    out = m.run(inp, tmp_path)
    assert out.status == "success" and len(runs) == 2
    reasons = [t.reason for t in out.transitions]
    assert any("proposal rejected" in r and "wfcdir names a file or folder" in r for r in reasons)
    assert all("wfcdir" not in run.input.written_namelists()["control"] for run in runs)
