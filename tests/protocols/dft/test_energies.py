"""PwEnergies: pw.x as an energy engine of the shared steps (real pw.x, 2-atom Si, LDA, 16 Ry)."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from helpers.steps import evaluate
from simwright.settings import Settings
from simwright.steps.eos import strained
from simwright.store import Store

needs_pw = pytest.mark.skipif(
    shutil.which("pw.x") is None or not Path("/usr/share/espresso/pseudo/Si.pz-vbc.UPF").is_file(),
    reason="pw.x and quantum-espresso-data are needed",
)


@needs_pw
def test_pw_engine_runs_each_structure_through_the_recovery_machine(
    store: Store, settings: Settings
) -> None:
    from simwright.dft.recommender import recommend
    from simwright.engines.espresso.pseudo_library import SYSTEM_PSEUDO_DIR, PseudoLibrary
    from simwright.protocols.dft.energies import PwEnergies
    from simwright.protocols.dft.eos import DftEosParams

    params = DftEosParams.model_validate(
        {
            "structure": {"kind": "bulk", "name": "Si"},
            "kspacing_inv_a": 0.5,
            "ecutwfc_ry": 16.0,
            "functional": "lda",
        }
    )
    rec = recommend(params, PseudoLibrary((SYSTEM_PSEUDO_DIR,)))
    engine = PwEnergies(params, rec.template, rec.valence_electrons)
    cells = strained(rec.template.structure, np.array([0.95, 1.0]))
    energies, calls = evaluate(engine, cells, store, settings)
    assert [c.engine for c in calls] == ["espresso", "espresso"]
    assert energies.energy_ev[1] < energies.energy_ev[0] < 0  # compressed by 5 % costs energy
    assert {c.name: list(c.values) for c in energies.columns} == {
        "pw_runs": [1, 1],
        "repaired": [False, False],
    }
