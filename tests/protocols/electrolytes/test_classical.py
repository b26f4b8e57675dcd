"""The classical (OPLS-AA, LAMMPS) route of ``electrolyte_diffusivity`` on a tiny box."""

from __future__ import annotations

import numpy as np
import pytest

from simwright.errors import ParseError, ValidationError
from simwright.graph import Runner
from simwright.protocols.electrolytes.classical import minimize_outcome
from simwright.protocols.electrolytes.diffusivity import PROTOCOL, composition
from simwright.protocols.electrolytes.params import ElectrolyteParams
from simwright.protocols.electrolytes.words import parse_request


def test_words_choose_the_classical_route_and_keep_every_choice() -> None:
    raw = parse_request(
        "Li-ion diffusivity in 1 molal LiPF6 in EC:PC 1:1 by weight at 313 K with OPLS-AA"
    )
    assert raw is not None
    assert raw["potential"] == "classical" and raw["solvents"] == ["ec", "pc"]
    assert raw["solvent_ratio"] == [1.0, 1.0] and raw["temperature_k"] == 313.0
    p = PROTOCOL.validate(raw)
    assert isinstance(p, ElectrolyteParams) and p.classical and p.ion_charge_scale == 0.8
    comp = composition(p)
    (ec, n_ec), (pc, n_pc) = comp.solvents
    assert n_ec * ec.mass_amu / (n_ec * ec.mass_amu + n_pc * pc.mass_amu) == pytest.approx(
        0.5, abs=0.1
    )


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("Li-ion diffusivity in 1 molal LiPF6 in EC with GAFF", "gaff"),
        ("Li-ion diffusivity in 1 molal LiPF6 in EC with OPLS-AA and SevenNet", "several"),
    ],
)
def test_words_refuse_other_force_fields_by_name(text: str, named: str) -> None:
    with pytest.raises(ParseError, match=named):
        parse_request(text)


def test_classical_route_refuses_unparametrised_solvents_by_name() -> None:
    with pytest.raises(ValidationError, match="dmc") as info:
        PROTOCOL.validate({"potential": "classical", "solvents": ["dmc"]})
    assert "ec, pc" in str(info.value)
    with pytest.raises(ValidationError, match="ion_charge_scale"):
        PROTOCOL.validate({"solvents": ["ec"], "ion_charge_scale": 0.7})


def test_minimize_outcome_reads_the_lammps_statistics() -> None:
    log = "  Stopping criterion = force tolerance\n  Force two-norm initial, final = 812.5 3.25\n"
    assert minimize_outcome(log) == ("force tolerance", 3.25)


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_tiny_box_runs_every_stage_with_opls_aa(store, settings) -> None:
    # 1 LiPF6 + 3 EC (38 atoms) at 4 mol/kg; a few steps per stage, 56 NVT frames
    raw = {
        "potential": "classical",
        "solvents": ["ec"],
        "molality_mol_kg": 4.0,
        "n_atoms_min": 30,
        "n_atoms_max": 40,
        "temperature_k": 313.15,
        "cutoff_a": 6.0,
        "pppm_accuracy": 1e-4,
        "relax_max_steps": 500,
        "heavy_npt_ns": 2e-5,
        "npt_ns": 4e-5,
        "nvt_ns": 56e-6,
        "frame_interval_fs": 1.0,
        "n_blocks": 3,
    }
    params = PROTOCOL.validate(raw)
    out = Runner(store, settings).start(
        PROTOCOL.graph, PROTOCOL.first_step(params), protocol=PROTOCOL.name
    )
    assert out.status == "completed", out.error
    values = out.result.values
    assert np.isfinite(values["diffusion_coefficient_li"].value)
    assert np.isfinite(values["diffusion_coefficient_ec"].value)
    assert 0.0 <= values["transference_number_li"].value <= 1.0
    assert 0.3 < values["density_mean"].value < 3.0
    rules = [s.decided_by for s in store.steps(out.run_id)]
    assert "rule:prerelaxed" in rules and "rule:closest_density_frame" in rules
    calls = store.engine_calls(out.run_id)
    assert sum(c.engine == "lammps" for c in calls) == 4
    assert any(c.engine == "packmol" for c in calls)
    assert "classical" in out.result.summary
