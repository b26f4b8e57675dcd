"""The knowledge planner: units, phrasings, given vs assumed, refusals, ambiguity, the
integration with resolve_request and the `plan` CLI command."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
import typer
from typer.testing import CliRunner

from simwright.cli.knowledge import plan as plan_command
from simwright.errors import ParseError, SimwrightError, ValidationError
from simwright.knowledge.modules import load_modules
from simwright.knowledge.planner.plan import interpret, normalize, plan
from simwright.knowledge.planner.quantities import find_quantities
from simwright.knowledge.planner.resolver import resolve_request
from simwright.knowledge.planner.selection import NotUnderstood, rank_modules
from simwright.protocols import load_protocols
from simwright.protocols.solids.lattice_constant import PROTOCOL as LATTICE
from simwright.text import find_elements, find_formulas, find_phrases

MODULES = load_modules()
DECLARED = {m.protocol for m in MODULES if m.protocol}


def given(request: str) -> tuple[str, dict]:
    p = plan(request, MODULES, DECLARED)
    return p.protocol, p.given()


# --- quantities -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "unit", "expected"),
    [
        ("at 300 K", "K", 300.0),
        ("at 25 °C", "K", 298.15),
        ("at 25°C", "K", 298.15),
        ("at 25 degC", "K", 298.15),
        ("at 25 degrees Celsius", "K", 298.15),
        ("at 77 °F", "K", 298.15),
        ("at -40 °C", "K", 233.15),
        ("at −40 °C", "K", 233.15),
        ("1 atm", "bar", 1.01325),
        ("0.1 MPa", "bar", 1.0),
        ("101.325 kPa", "bar", 1.01325),
        ("2 GPa", "bar", 20000.0),
        ("1.5 ns", "ps", 1500.0),
        ("250 ps", "ns", 0.25),
        ("2 fs", "fs", 2.0),
        ("1 mol/kg", "mol/kg", 1.0),
        ("1.2 m", "mol/kg", 1.2),
        ("0.5 molal", "mol/kg", 0.5),
        ("1.374 g/cm3", "g/cm^3", 1.374),
        ("40 Ry", "Ry", 40.0),
        ("0.2 Å-1", "1/angstrom", 0.2),
        ("±5 %", "percent", 5.0),
        ("1e3 ps", "ns", 1.0),
    ],
)
def test_quantities_convert_with_pint(text: str, unit: str, expected: float) -> None:
    (q,) = find_quantities(normalize(text))
    assert q.to(unit) == pytest.approx(expected)


def test_ordinary_words_are_not_units() -> None:
    assert find_quantities("using 9 points, 216 molecules, SevenNet-0, H2O, D3") == []


@pytest.mark.parametrize(
    ("text", "message"),
    [("300-350 K", "range"), ("from 300 to 350 K", "range"), ("70 F", "ambiguous unit")],
)
def test_ranges_and_ambiguous_units_are_refused(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        find_quantities(text)


# --- text helpers ----------------------------------------------------------------------


def test_sentence_initial_words_are_not_elements_but_typos_are_refused() -> None:
    assert find_elements("At the surface. In copper and Ag") == ["Cu", "Ag"]
    with pytest.raises(ParseError, match="unknown element 'Xx'"):
        find_elements("lattice constant of Xx")


def test_formulas_skip_the_fields_acronyms() -> None:
    assert find_formulas("SCF of NaCl, SiO2 and H2O with PBE in NPT; Cu") == ["NaCl", "SiO2", "H2O"]


def test_phrases_match_longest_first_and_whole_words() -> None:
    found = find_phrases(
        "non-spin-polarized Au(111), not spin polarized",
        {"spin-polarized": True, "non-spin-polarized": False, "(111)": "111"},
    )
    assert [(m.text, m.meaning) for m in found] == [
        ("non-spin-polarized", False),
        ("(111)", "111"),
        ("spin polarized", True),
    ]


# --- module choice ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("request_text", "protocol", "expected"),
    [
        (
            "self-diffusion coefficient of SPC/E water at 298 K",
            "diffusivity",
            {"system": "spce_water", "temperature_k": 298.0},
        ),
        (
            "What is the self-diffusivity of liquid H2O at 25 °C and 1 atm?",
            "diffusivity",
            {"system": "spce_water", "temperature_k": 298.15, "pressure_bar": 1.01325},
        ),
        (
            "MSD of argon with 864 atoms, 5 fs timestep, 100 ps equilibration, 2 ns production",
            "diffusivity",
            {
                "system": "lj_argon",
                "n_molecules": 864,
                "timestep_fs": 5.0,
                "equilibration_ps": 100.0,
                "production_ps": 2000.0,
            },
        ),
        (
            "water diffusion 100 ps equilibration 1 ns production",
            "diffusivity",
            {"system": "spce_water", "equilibration_ps": 100.0, "production_ps": 1000.0},
        ),
        (
            "water diffusion, timestep 1 fs, seed 42, R² ≥ 0.95",
            "diffusivity",
            {"system": "spce_water", "timestep_fs": 1.0, "seed": 42, "r2_min": 0.95},
        ),
        (
            "Green-Kubo thermal conductivity of argon at 85 K, 1.4 g/cm^3, 20 ps correlation",
            "thermal_conductivity",
            {
                "system": "lj_argon",
                "temperature_k": 85.0,
                "density_g_cm3": 1.4,
                "correlation_ps": 20.0,
            },
        ),
        (
            "lattice constant of bcc Fe with EMT",
            "lattice_constant",
            {"element": "Fe", "lattice": "bcc", "calculator": "emt"},
        ),
        (
            "E-V curve of palladium, 11 points, ±3 % strain",
            "lattice_constant",
            {"element": "Pd", "n_points": 11, "strain_percent": 3.0},
        ),
        (
            "relax bulk NaCl rocksalt with LDA, 50 Ry cutoff",
            "dft_relax",
            {
                "formula": "NaCl",
                "structure": "bulk",
                "lattice": "rocksalt",
                "functional": "lda",
                "ecutwfc_ry": 50.0,
            },
        ),
        (
            "SCF of bcc Fe with PBE, spin-polarized, k-spacing 0.15 1/Å",
            "dft_scf",
            {
                "formula": "Fe",
                "lattice": "bcc",
                "functional": "pbe",
                "spin_polarized": True,
                "kspacing_inv_a": 0.15,
            },
        ),
        (
            "DFT bulk modulus of Si with PBEsol",
            "dft_eos",
            {"formula": "Si", "functional": "pbesol"},
        ),
    ],
)
def test_requests_become_protocols_and_given_values(
    request_text: str, protocol: str, expected: dict
) -> None:
    assert given(request_text) == (protocol, expected)


def test_given_and_assumed_are_marked() -> None:
    p = plan("self-diffusion of water at 25 °C", MODULES, DECLARED)
    t = p.parameters["temperature_k"]
    assert (t.value, t.unit, t.source, t.text) == (298.15, "K", "given", "25 °C")
    n = p.parameters["n_molecules"]
    assert (n.value, n.source, n.text) == (216, "assumed", None)
    assert "density_g_cm3" not in p.parameters  # water runs NPT: pressure, not density
    argon = plan("argon self-diffusion", MODULES, DECLARED).parameters
    assert argon["temperature_k"].value == 94.4 and argon["density_g_cm3"].source == "assumed"
    assert "pressure_bar" not in argon


def test_a_given_value_suppresses_its_conflicting_default() -> None:
    p = plan("argon self-diffusion at 2 bar", MODULES, DECLARED)
    assert p.parameters["pressure_bar"].source == "given" and "density_g_cm3" not in p.parameters


def test_assumed_values_come_from_the_installed_protocol() -> None:
    protocols = load_protocols()
    if "diffusivity" not in protocols:
        pytest.skip("diffusivity is not installed")
    p = plan("self-diffusion of liquid argon", MODULES, protocols)
    protocol_default = protocols["diffusivity"].validate({"system": "lj_argon"})
    assert p.parameters["n_molecules"].value == protocol_default.n_molecules
    assert p.given() == {"system": "lj_argon"}


def test_the_alternatives_are_reported() -> None:
    p = plan("relax Si with PBE and compute its equation of state", MODULES, DECLARED)
    assert p.protocol == "dft_eos"
    assert [a.module_id for a in p.alternatives] == ["dft_relaxation"]
    assert p.to_json()["alternatives"][0]["protocol"] == "dft_relax"


def test_dft_words_steer_lattice_constants_away_from_emt() -> None:
    assert given("lattice constant of Cu with PBE")[0] == "dft_eos"
    assert given("lattice constant of Cu")[0] == "lattice_constant"
    ranked = [c.module.id for c in rank_modules("lattice constant of Cu with EMT", MODULES)]
    assert ranked == ["lattice_constant_eos_ase"]


# --- refusals ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("request_text", "message"),
    [
        ("self-diffusion of water at 300 K and 350 K", "several values for temperature_k"),
        ("diffusion coefficient of water at -5 K", "temperature_k: -5 K must be greater than 0"),
        ("diffusion of water at -300 °C", "must be greater than 0"),
        ("self-diffusion of 0 water molecules", "n_molecules: 0 is below the minimum 2"),
        ("water diffusivity at -5 bar", "pressure_bar"),
        ("self-diffusion coefficient of methanol", "methanol is not available"),
        ("self-diffusion of MeOH", r"methanol \('MeOH'\) is not available"),
        ("diffusion coefficient of glycerin", "unknown substance 'glycerin'"),
        ("thermal conductivity of copper", "unknown substance 'copper'"),
        ("thermal conductivity of water", "water is not available"),
        ("diffusion coefficient at 300 K", "which system"),
        ("diffusivity of water at 1 M", "molar concentration"),
        ("lattice constant of Cu with EMT at 300 K", "'300 K' does not fit"),
        ("water diffusion, timestep 2", "needs a unit"),
        ("lattice constant of Cu and Ag", "several elements"),
        ("argon diffusion at 2 bar and 1.4 g/cm3", "give one of them"),
        ("water diffusion with 2 fs and 1 ns", "several values for production_ps"),
        ("diffusion coefficient and thermal conductivity of argon", "ambiguous"),
    ],
)
def test_bad_requests_are_refused_with_a_reason(request_text: str, message: str) -> None:
    with pytest.raises(SimwrightError, match=message):
        plan(request_text, MODULES, DECLARED)


def test_an_unknown_request_is_not_understood() -> None:
    with pytest.raises(NotUnderstood, match="did not understand"):
        plan("make me a sandwich", MODULES, DECLARED)


def test_a_module_without_protocol_is_refused_with_what_was_understood() -> None:
    request = "Li+ diffusivity in 1.2 m LiPF6 in EC/DMC 3:7 by weight at 40 °C with SevenNet"
    assert plan(request, MODULES, DECLARED).protocol == "electrolyte_diffusivity"
    electrolyte = "li_ion_diffusivity_carbonate_electrolytes"
    pending = [
        m.model_copy(update={"protocol": None, "pending": "it needs a GPU"})
        if m.id == electrolyte
        else m
        for m in MODULES
    ]
    with pytest.raises(ParseError, match=r"no executable protocol yet.*GPU.*molality_mol_kg=1\.2"):
        plan(request, pending, DECLARED)
    meaning = interpret(request, MODULES)
    assert meaning.module.id == "li_ion_diffusivity_carbonate_electrolytes"
    values = {n: p.value for n, p in meaning.parameters.items() if p.source == "given"}
    assert values == {
        "salt": "lipf6",
        "solvents": ["ec", "dmc"],
        "solvent_ratio": [3.0, 7.0],
        "ratio_basis": "mass",
        "molality_mol_kg": 1.2,
        "temperature_k": 313.15,
        "potential": "sevennet_0_d3",
    }
    assert meaning.parameters["fmax_ev_a"].value == 2.0


def test_molarity_is_not_taken_for_molality() -> None:
    with pytest.raises(ParseError, match=r"molar concentration.*molality"):
        interpret("Li diffusivity in 1 M LiPF6 in EC", MODULES)


def test_deposition_roles_come_from_cues() -> None:
    meaning = interpret("deposit 20 Cu atoms on Au(111) at 300 K", MODULES)
    values = {n: p.value for n, p in meaning.parameters.items() if p.source == "given"}
    assert values == {
        "deposit": "Cu",
        "substrate": "Au",
        "facet": "111",
        "n_deposit": 20,
        "temperature_k": 300.0,
    }


def test_a_campaign_sequence_is_read() -> None:
    meaning = interpret("desorption isotherm of water along RH 0.9 -> 0.3 -> 0.1", MODULES)
    assert meaning.parameters["relative_humidities"].value == [0.9, 0.3, 0.1]
    assert meaning.parameters["direction"].value == "desorption"


def test_a_protocol_that_is_not_installed_is_refused() -> None:
    with pytest.raises(ParseError, match="protocol 'dft_relax', which is not installed"):
        plan("relax Si with PBE", MODULES, {"lattice_constant"})


# --- integration ---------------------------------------------------------------------------


def test_resolve_request_validates_the_given_values_with_the_protocol() -> None:
    protocols = {"lattice_constant": LATTICE}
    resolved = resolve_request("lattice constant of fcc Cu with EMT using 7 points", protocols)
    assert resolved.protocol is LATTICE
    assert resolved.params.model_dump()["n_points"] == 7
    with pytest.raises(ValidationError, match="EMT has no parameters for Fe"):
        resolve_request("lattice constant of bcc Fe with EMT", protocols)


def test_protocols_without_a_module_keep_their_own_parse_request() -> None:
    toy = replace(
        LATTICE,
        name="toy",
        parse_request=lambda text: {"element": "Al"} if "toy crystal" in text else None,
    )
    protocols = {"lattice_constant": LATTICE, "toy": toy}
    assert resolve_request("build me a toy crystal", protocols).protocol is toy
    with pytest.raises(ParseError, match=r"(?s)did not understand.*toy"):
        resolve_request("make me a sandwich", protocols)


@pytest.fixture
def plan_cli():
    app = typer.Typer()
    app.command()(plan_command)
    app.command("other")(lambda: None)  # two commands, so `plan` stays a named command
    runner = CliRunner()

    def invoke(*args: str) -> tuple[int, dict]:
        result = runner.invoke(app, ["plan", *args, "--json"])
        return result.exit_code, json.loads(result.stdout)

    return invoke


def test_plan_json(plan_cli) -> None:
    code, out = plan_cli("lattice constant of fcc Cu with EMT, 11 points")
    assert code == 0
    assert out["protocol"] == "lattice_constant" and out["module"] == "lattice_constant_eos_ase"
    assert out["parameters"]["element"] == {
        "value": "Cu",
        "unit": None,
        "source": "given",
        "text": "Cu",
    }
    assert out["parameters"]["n_points"]["value"] == 11
    assert out["parameters"]["strain_percent"] == {
        "value": 5.0,
        "unit": "percent",
        "source": "assumed",
    }
    assert out["alternatives"] == []


def test_plan_json_errors_exit_2(plan_cli) -> None:
    code, out = plan_cli("make me a sandwich")
    assert code == 2 and out["status"] == "error"
    assert "did not understand" in out["error"] and "spec" in out["error"]
    code, out = plan_cli("lattice constant of Cu and Ag")
    assert code == 2 and "several elements" in out["error"]
