"""The Li-ion electrolyte protocol: parameters, words, and a tiny real SevenNet-0 + D3 run."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
import yaml

from simwright.errors import ParseError, ValidationError
from simwright.graph import Runner
from simwright.knowledge.planner.resolver import resolve_request
from simwright.protocols.electrolytes.diffusivity import PROTOCOL, composition
from simwright.protocols.electrolytes.params import ElectrolyteParams
from simwright.protocols.electrolytes.words import parse_request
from simwright.protocols.liquids.diffusivity import PROTOCOL as DIFFUSIVITY

needs_mlip = pytest.mark.skipif(
    importlib.util.find_spec("sevenn") is None or importlib.util.find_spec("dftd3") is None,
    reason="needs simwright[mlip] (sevenn and dftd3)",
)


def _protocols() -> dict:
    # the liquids' protocols side by side, imported directly: an unrelated plugin that
    # fails to load in the environment must not hide this protocol's behaviour
    return {PROTOCOL.name: PROTOCOL, DIFFUSIVITY.name: DIFFUSIVITY}


def test_readme_request_resolves_with_every_choice_honoured() -> None:
    resolved = resolve_request("Li-ion diffusivity in 1 molal LiPF6 in DMC at 298 K", _protocols())
    assert resolved.protocol.name == "electrolyte_diffusivity"
    p = resolved.params
    assert isinstance(p, ElectrolyteParams)
    assert (p.salt, p.solvents, p.molality_mol_kg, p.temperature_k) == (
        "lipf6",
        ("dmc",),
        1.0,
        298.0,
    )
    assert p.potential == "sevennet_0_d3" and p.preset == "quick"
    comp = composition(p)
    assert 100 <= comp.n_atoms <= 160 and abs(comp.molality_mol_kg - 1.0) < 0.15


def test_blend_by_weight_from_words_and_from_yaml(tmp_path: Path) -> None:
    raw = parse_request("Li-ion diffusivity in 1 molal LiPF6 in EC/DMC 3:7 by weight at 25 °C")
    assert raw is not None
    assert raw["solvents"] == ["ec", "dmc"] and raw["solvent_ratio"] == [3.0, 7.0]
    assert raw["temperature_k"] == pytest.approx(298.15)
    spec = tmp_path / "electrolyte.yaml"
    spec.write_text(yaml.safe_dump({"protocol": "electrolyte_diffusivity", "parameters": raw}))
    p = resolve_request(str(spec), _protocols()).params
    assert isinstance(p, ElectrolyteParams)
    comp = composition(p)
    (ec, n_ec), (dmc, n_dmc) = comp.solvents
    mass_ec = n_ec * ec.mass_amu / (n_ec * ec.mass_amu + n_dmc * dmc.mass_amu)
    assert mass_ec == pytest.approx(0.3, abs=0.08)


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("Li-ion diffusivity in 1 molal LiTFSI in DMC", "litfsi"),
        ("Li-ion diffusivity in 1 molal LiPF6 in DMC with CHARMM", "charmm"),
        ("Li-ion diffusivity in 1 M LiPF6 in DMC at 298 K", "solution density"),
        ("Li-ion diffusivity in 1 molal LiPF6 in EC/DMC 1:1:1", "one number per solvent"),
    ],
)
def test_words_refuse_what_cannot_be_honoured_by_name(text: str, named: str) -> None:
    with pytest.raises(ParseError, match=named):
        parse_request(text)


def test_parameters_refuse_emc_classical_and_half_molarity() -> None:
    with pytest.raises(ValidationError, match="emc"):
        PROTOCOL.validate({"solvents": ["emc"]})
    with pytest.raises(ValidationError, match="OPLS-AA"):
        PROTOCOL.validate({"potential": "classical"})
    with pytest.raises(ValidationError, match="solution_density"):
        PROTOCOL.validate({"molarity_mol_l": 1.0})
    p = PROTOCOL.validate({"molarity_mol_l": 1.0, "solution_density_g_cm3": 1.2})
    assert isinstance(p, ElectrolyteParams)
    assert p.target_molality() == pytest.approx(1.0 / (1.2 - 0.15190), rel=1e-3)
    paper = PROTOCOL.validate({"preset": "paper"})
    assert isinstance(paper, ElectrolyteParams)
    assert (paper.n_atoms_min, paper.nvt_ns) == (950, 2.0)


@needs_mlip
@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:.*torch.jit.script.*:DeprecationWarning")
@pytest.mark.timeout(1800)
def test_tiny_box_runs_every_stage_with_sevennet_d3(store, settings) -> None:
    # 1 LiPF6 + 1 DMC (20 atoms): every stage runs a few steps; 56 NVT frames are the
    # fewest that three Einstein blocks can each fit over 10-67 % with 10 points.
    raw = {
        "solvents": ["dmc"],
        "molality_mol_kg": 1.0,
        "n_atoms_min": 20,
        "n_atoms_max": 20,
        "box_factor": 2.0,
        "relax_max_steps": 300,
        "heavy_npt_ns": 4e-6,
        "npt_ns": 6e-6,
        "nvt_ns": 56e-6,
        "frame_interval_fs": 1.0,
        "n_blocks": 3,
        "device": "cpu",
    }
    params = PROTOCOL.validate(raw)
    out = Runner(store, settings).start(
        PROTOCOL.graph, PROTOCOL.first_step(params), protocol=PROTOCOL.name
    )
    assert out.status == "completed", out.error
    values = out.result.values
    assert np.isfinite(values["diffusion_coefficient_li"].value)
    assert 0.0 <= values["transference_number_li"].value <= 1.0
    assert values["conductivity_nernst_einstein"].value > 0
    # the sparse start (2·V0^(1/3)) barely shrinks in 10 NPT steps: 242 g/mol in (11.2 Å)³
    assert 0.2 < values["density_mean"].value < 3.0
    assert values["molality"].value == pytest.approx(1000 / 90.08, rel=1e-3)
    rules = [s.decided_by for s in store.steps(out.run_id)]
    assert "rule:prerelaxed" in rules and "rule:closest_density_frame" in rules
    calls = store.engine_calls(out.run_id)
    assert any("sevennet" in c.command and "d3=True" in c.command for c in calls)
    assert any(c.engine == "packmol" for c in calls)


@needs_mlip
def test_plan_builds_the_box_packmol_and_the_calculator(settings) -> None:
    lines = PROTOCOL.build_inputs(PROTOCOL.validate({}), settings).lines
    assert lines[0].startswith("system: 1 li+, 1 pf6-, 11 dmc")
    assert lines[1].startswith("engine: PACKMOL")
    assert "d3=True" in lines[2]
