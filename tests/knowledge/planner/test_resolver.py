"""The resolver: every stated choice honoured or refused by name, properties without
protocols, substances and geometry words, plausibility, spec files (issue 12)."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers.planner import MODULES, PROTOCOLS, refusal, resolve_request
from simwright.errors import SimwrightError
from simwright.knowledge.planner.resolver import resolve


@pytest.mark.parametrize(
    ("text", "phrase", "instead"),
    [
        ("lattice constant of Cu with the Foo potential", "Foo", "simwright potentials"),
        ("bulk Si single point with the HSE06 hybrid functional", "HSE06", "pbe, lda, pbesol"),
        ("self-diffusion of SPC/E water at 300 K in the NVE ensemble", "NVE", "nvt"),
        ("diffusion of water at 300 K with a Langevin thermostat", "Langevin", "Nosé–Hoover"),
        ("thermal conductivity of liquid argon by the Muller-Plathe method", "Muller-Plathe", ""),
        ("SCF of wurtzite ZnO with PBE", "wurtzite", "CIF"),
        ("lattice constant of Ni with EMT in a 3x3x3 supercell", "3x3x3", "its own cell"),
        ("SCF of Si with PBE using the tetrahedron method", "tetrahedron", "no setting"),
        ("self-diffusion of water at 300 K with the SPC/Fw model", "SPC/Fw", "spce_water"),
    ],
)
def test_a_stated_choice_that_cannot_be_honoured_is_refused_by_name(
    text: str, phrase: str, instead: str
) -> None:
    message = refusal(text)
    assert message.startswith(f"'{phrase}")
    assert "cannot be honoured" in message
    assert instead in message


@pytest.mark.parametrize(
    ("text", "words", "instead"),
    [
        ("vapour pressure of ethanol at 300 K", "vapour pressure", "diffusivity"),
    ],
)
def test_a_property_without_a_protocol_is_refused_saying_what_can_be_done(
    text: str, words: str, instead: str
) -> None:
    message = refusal(text)
    assert message.startswith(repr(words))
    assert "not a simwright protocol yet" in message and instead in message


def test_a_property_whose_protocols_cannot_read_the_request_is_refused_by_name() -> None:
    message = refusal("heat capacity of bulk Cu with PBE")
    assert message.startswith("'heat capacity'") and "cannot read this request" in message
    assert "thermal_expansion" in message


def test_choices_taken_by_parameters_or_fixed_by_the_procedure_are_recorded() -> None:
    r = resolve_request("thermal conductivity of liquid argon by Green–Kubo, 4 fs timestep")
    hows = {u.text: u.how for u in r.phrases}
    assert hows["Green–Kubo"].startswith("fixed by the protocol")
    r = resolve_request("lattice constant of fcc Cu with EMT")
    assert [(u.text, u.how) for u in r.phrases] == [("EMT", "given: calculator=emt")]


def test_a_number_no_parameter_takes_is_refused_by_name() -> None:
    message = refusal("SCF of Si with PBE and 40 bands")
    assert message.startswith("'and 40 bands'") and "not understood" in message
    assert refusal("SCF of Si with PBE, conv_thr 1e-8").startswith("'conv_thr'")
    assert resolve_request("diffusion constant of water at 298.15 K (25 °C)").warnings == ()


def test_a_machine_learned_potential_is_honoured_or_refused_by_name() -> None:
    try:
        r = resolve_request("equilibrium lattice constant of fcc Cu using CHGNet")
    except SimwrightError as exc:
        assert "chgnet" in str(exc).lower()
    else:
        assert r.protocol.name == "lattice_constant"
        assert r.plan is not None and r.plan.parameters["calculator"].source == "given"
        assert r.params.model_dump()["calculator"] == "chgnet"


@pytest.mark.parametrize(
    ("text", "protocol", "given"),
    [
        (
            "SCF of cubic boron nitride (zincblende) with PBE",
            "dft_scf",
            {"formula": "BN", "lattice": "zincblende"},
        ),
        ("PBE single point of GaAs-like zincblende AlAs", "dft_scf", {"formula": "AlAs"}),
        ("vc-relax of diamond with PBEsol", "dft_relax", {"formula": "C", "lattice": "diamond"}),
        ("SCF of graphene with PBE", "dft_scf", {"formula": "graphene", "structure": "two_d"}),
        ("PBE energy of methane in the gas phase", "dft_scf", {"formula": "CH4"}),
        (
            "SCF of a Cu(100) surface, 4 layers, 12 Å vacuum, PBE",
            "dft_scf",
            {"formula": "Cu", "structure": "slab", "facet": "100", "layers": 4, "vacuum_a": 12.0},
        ),
        ("relax a 5-layer Au(100) slab with PBEsol", "dft_relax", {"layers": 5}),
        (
            "relax bulk Si with PBE, ecutwfc 40 Ry and ecutrho 320 Ry",
            "dft_relax",
            {"ecutwfc_ry": 40.0, "ecutrho_ry": 320.0},
        ),
    ],
)
def test_substances_and_geometry_words_become_given_values(
    text: str, protocol: str, given: dict
) -> None:
    r = resolve_request(text)
    assert r.protocol.name == protocol
    assert r.plan is not None
    assert {k: r.plan.given()[k] for k in given} == given


def test_slab_words_reach_the_structure_that_is_built() -> None:
    r = resolve_request("SCF of a Cu(100) surface, 4 layers, 12 Å vacuum, PBE")
    structure = r.params.model_dump()["structure"]
    assert structure["facet"] == "100" and structure["size"] == (1, 1, 4)
    assert structure["vacuum_a"] == 12.0


def test_a_compound_for_a_one_element_protocol_is_refused_with_the_way_forward() -> None:
    message = refusal("lattice constant of NaCl with EMT")
    assert "'NaCl' is a compound" in message and "with PBE" in message


@pytest.mark.parametrize(
    ("text", "phrase", "why"),
    [
        ("self-diffusion of SPC/E water at 1000 K and 1 bar in NPT", "1000 K", "critical"),
        ("diffusion coefficient of liquid argon at 300 K", "300 K", "critical"),
        ("diffusivity of liquid argon at 50 K", "50 K", "83.8 K"),
        ("self-diffusion of water at 380 K and 1 bar", "380 K", "boils at 373 K"),
        ("self-diffusion of water at 200 K", "200 K", "230 K"),
        ("lattice constant of Au with the Lennard-Jones potential", "Lennard-Jones", "Au"),
    ],
)
def test_an_implausible_state_is_refused_with_the_reason(text: str, phrase: str, why: str) -> None:
    message = refusal(text)
    assert repr(phrase) in message and why in message


def test_plausible_states_pass_and_supercooled_water_is_a_warning() -> None:
    assert resolve_request("self-diffusion of water at 380 K and 10 bar").warnings == ()
    r = resolve_request("self-diffusion of water at 250 K")
    assert r.warnings and "supercooled" in r.warnings[0]


def test_lennard_jones_argon_takes_rahmans_parameters() -> None:
    r = resolve_request("lattice constant of argon with Lennard-Jones")
    spec = r.params.calculator_spec()  # type: ignore[attr-defined]
    assert spec.kwargs["sigma"] == pytest.approx(3.405)


def test_a_missing_spec_file_is_named() -> None:
    assert refusal("/nonexistent/spec.yaml") == "no such spec file: /nonexistent/spec.yaml"


def test_a_module_without_protocol_says_how_to_proceed() -> None:
    message = refusal("GCMC adsorption of methane in a slit pore at 300 K")
    assert "simwright campaign run" in message
    assert "campaign engine" not in message


def test_a_spec_file_is_resolved_by_the_same_path(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text("protocol: lattice_constant\nparameters: {element: Cu, lattice: fcc}\n")
    r = resolve_request(str(spec))
    assert r.protocol.name == "lattice_constant" and r.source == "spec file"
    assert r.to_json()["parameters"]["element"]["source"] == "given"


def test_conditions_in_words_are_read_as_values_and_recorded() -> None:
    r = resolve_request("self-diffusion of water at ambient conditions")
    assert r.plan is not None
    assert r.plan.given()["temperature_k"] == 298.15
    assert r.plan.given()["pressure_bar"] == pytest.approx(1.01325)
    assert r.phrases[0].text == "ambient conditions"


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("diffusion coefficient of heavy water at 300 K", "heavy water"),
        ("diffusivity of water at 300 K with flexible SPC/E", "flexible"),
        ("SCF of liquid water with PBE", "liquid"),
        ("SCF of water dimer with PBE", "dimer"),
        ("SCF of fcc Al with PBE, 10 layers", "layers"),
        ("Cu lattice constant with EMT, fitting with a third-order polynomial", "polynomial"),
    ],
)
def test_words_that_would_change_the_system_are_refused_by_name(text: str, phrase: str) -> None:
    assert phrase in refusal(text)


def test_cell_and_lattice_constant_words_are_given() -> None:
    r = resolve_request("relax Si with PBE and let the cell relax")
    assert r.plan is not None and r.plan.given()["calculation"] == "vc-relax"
    r = resolve_request("SCF of Si with PBE at a lattice constant of 5.43 Å")
    assert r.protocol.name == "dft_scf"
    assert r.params.model_dump()["structure"]["a_a"] == 5.43


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("ab initio MD of water at 300 K with PBE", "ab initio MD"),
        ("H2O molecule with LDA at 300 K", "300 K"),
        ("self-diffusion of water at 300 K with PME electrostatics", "PME"),
        ("diffusion of water confined in a carbon nanotube at 300 K", "confined"),
        ("relax bulk Si with PBE with a 1e-6 Ry energy threshold", "energy threshold"),
        ("SCF of an isolated Fe atom with PBE, spin-polarized", "isolated Fe atom"),
        ("self-diffusion of water at 300 K on a GPU", "GPU"),
    ],
)
def test_requests_no_module_keyword_matches_are_read_by_the_module_or_refused(
    text: str, phrase: str
) -> None:
    assert phrase in refusal(text)


def test_a_request_claimed_by_a_protocol_parser_is_read_by_its_module() -> None:
    r = resolve_request("CO molecule with PBE")
    assert r.plan is not None and r.plan.module_id == "dft_scf"
    assert r.plan.given() == {"formula": "CO", "structure": "molecule", "functional": "pbe"}


def test_a_kpoint_mesh_is_given_and_reaches_the_input() -> None:
    r = resolve("PBE SCF of Si with an 8x8x8 Monkhorst-Pack grid", PROTOCOLS, MODULES)
    assert r.plan is not None and r.plan.given()["kpoints"] == [8, 8, 8]
    assert "kspacing_inv_a" not in r.plan.parameters
    assert r.params.model_dump()["kpoints"] == (8, 8, 8)
    message = refusal("PBE SCF of Si with 4x4x4 k-points and k-spacing 0.2 Å-1")
    assert "'4x4x4 k-points'" in message and "'0.2 Å-1'" in message


def test_a_smearing_width_is_not_taken_for_a_cutoff() -> None:
    r = resolve_request("relax MgO with PBE and Marzari-Vanderbilt smearing 0.01 Ry")
    assert r.plan is not None
    assert r.plan.given()["degauss_ry"] == 0.01 and "ecutwfc_ry" not in r.plan.given()


def test_a_named_potential_of_the_catalogue_is_honoured() -> None:
    r = resolve("Cu lattice parameter from the Mishin EAM potential", PROTOCOLS)
    assert r.protocol.name == "lattice_constant"
    assert r.params.potential == "Mishin EAM"  # type: ignore[attr-defined]


def test_a_property_goes_to_the_protocol_that_computes_it_never_to_another() -> None:
    r = resolve("elastic constants of Cu with the Mishin EAM potential", PROTOCOLS)
    assert r.protocol.name == "elastic_constants"
    r = resolve("cohesive energy of copper with PBE", PROTOCOLS)  # not a dft_scf
    assert r.protocol.name == "dft_cohesive_energy"
