"""A lattice constant stated in a request is the structure's a_a, shown as given, in every
protocol that builds a bulk crystal; where a protocol cannot use it, the request is
refused naming the phrase; a length never becomes a vacuum or box without its word."""

from __future__ import annotations

import math

import numpy as np
import pytest

from helpers.planner import MODULES, PROTOCOLS, refusal, resolve_request
from simwright.dft.recommender import recommend
from simwright.dft.stated_lattice import stated_lattice, states_value
from simwright.engines.espresso.pseudo_library import PseudoLibrary, default_pseudo_dirs
from simwright.errors import ParseError
from simwright.knowledge.planner.resolver import resolve
from simwright.settings import Settings


@pytest.mark.parametrize(
    ("text", "a_a"),
    [
        ("a = 5.43 Å", 5.43),
        ("a=5.43Å", 5.43),
        ("with a lattice constant of 5.43 Å", 5.43),
        ("lattice parameter 5.43 Å", 5.43),
        ("the lattice constant a = 5.43 angstrom", 5.43),
        ("lattice constant of 0.543 nm", 5.43),
        ("lattice constant 10.26 bohr", 10.26 * 0.52917721),
    ],
)
def test_the_phrases_that_state_a_lattice_constant_are_read_in_angstrom(
    text: str, a_a: float
) -> None:
    found = stated_lattice(f"SCF of Si with PBE {text}")
    assert found is not None
    assert math.isclose(found.a_a, a_a, rel_tol=1e-6)


def test_the_experimental_lattice_constant_states_no_value() -> None:
    assert stated_lattice("band gap of Si at the experimental lattice constant") is None
    assert not states_value("lattice constant of Ge with PBE")


def test_a_lattice_constant_without_unit_or_with_two_values_is_refused() -> None:
    with pytest.raises(ParseError, match="unit"):
        stated_lattice("SCF of Si with PBE, lattice constant 5.43")
    with pytest.raises(ParseError, match="several lattice constants"):
        stated_lattice("SCF of Si at a = 5.43 Å and a = 5.40 Å")


@pytest.mark.parametrize(
    ("text", "protocol"),
    [
        ("band gap of Si with PBE with a lattice constant of 5.40 Å", "dft_bands"),
        ("density of states of Si with PBE at a = 5.40 Å", "dft_dos"),
        ("SCF of bulk Si with PBE with a lattice constant of 5.40 Å", "dft_scf"),
        ("cohesive energy of Si with PBE, lattice parameter 5.40 Å", "dft_cohesive_energy"),
        ("vacancy formation energy of Si with PBE at a=5.40 Å", "dft_vacancy_formation_energy"),
        ("relax the atomic positions of Si with PBE at a = 5.40 Å", "dft_relax"),
    ],
)
def test_a_stated_lattice_constant_is_given_in_every_bulk_protocol(
    text: str, protocol: str
) -> None:
    r = resolve_request(text)
    assert r.protocol.name == protocol
    structure = r.params.structure  # type: ignore[attr-defined]
    assert structure.kind == "bulk" and structure.a_a == pytest.approx(5.40)
    assert structure.vacuum_a is None and structure.box_a is None
    given = r.plan.given() if r.plan is not None else {n: True for n in r.given}
    assert "a_a" in given  # shown as *given*, not assumed


def test_the_reading_is_recorded_and_the_plan_shows_a_as_given() -> None:
    r = resolve_request("SCF of bulk Si with PBE with a lattice constant of 5.40 Å")
    out = r.to_json()
    assert out["parameters"]["a_a"]["source"] == "given"
    assert out["parameters"]["a_a"]["value"] == pytest.approx(5.40)
    assert any(p["category"] == "lattice constant" for p in out["phrases"])


def test_a_stated_lattice_constant_keeps_the_cell_of_a_plain_relax() -> None:
    r = resolve_request("relax bulk Si with PBE at a = 5.40 Å")
    assert r.params.calculation == "relax"  # type: ignore[attr-defined]


def test_without_a_value_lattice_constant_still_asks_for_an_equation_of_state() -> None:
    assert resolve_request("lattice constant of Ge with PBE").protocol.name == "dft_eos"
    r = resolve_request("band gap of Si with PBE at the experimental lattice constant")
    assert r.protocol.name == "dft_bands"
    assert r.params.structure.a_a is None  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("equation of state of Si with PBE, lattice constant 5.40 Å", "determines"),
        ("bulk modulus of Si with PBE at a = 5.40 Å", "determines"),
        ("vc-relax of Si with PBE from a = 5.40 Å", "vc-relax"),
        ("SCF of a Cu(111) slab with PBE at a = 3.61 Å", "slab"),
        ("work function of Cu(111) with PBE, lattice parameter 3.61 Å", "slab"),
        ("SCF of graphene with PBE at a = 2.46 Å", "2D layer"),
    ],
)
def test_a_protocol_that_cannot_use_a_stated_lattice_constant_refuses_naming_it(
    text: str, why: str
) -> None:
    message = refusal(text)
    assert "lattice constant" in message and why in message
    assert ("5.40" in message) or ("3.61" in message) or ("2.46" in message)


def test_a_bare_length_is_no_vacuum_box_or_lattice_constant() -> None:
    message = refusal("SCF of Si with PBE at 5.43 Å")
    assert "5.43" in message
    r = resolve_request("PBE SCF of an Al(111) slab with 15 Å of vacuum")
    assert r.params.structure.vacuum_a == pytest.approx(15.0)  # type: ignore[attr-defined]


def test_the_built_structure_has_the_stated_lattice_constant(settings: Settings) -> None:
    """The plan's build stage (resolve with settings: preflight + build, no pw.x run)
    builds diamond Si at a = 5.40 Å: 8 atoms per a³, whatever cell is chosen."""
    r = resolve(
        "SCF of bulk Si with LDA with a lattice constant of 5.40 Å",
        PROTOCOLS,
        MODULES,
        settings=settings,
    )
    assert r.inputs and r.inputs[0].startswith("structure:")
    built = recommend(r.params, PseudoLibrary(default_pseudo_dirs(settings.home)))  # type: ignore[arg-type]
    volume_per_atom = abs(float(np.linalg.det(built.structure.cell))) / len(built.structure)
    assert volume_per_atom == pytest.approx(5.40**3 / 8, rel=1e-9)


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("band structure of Ti with PBE, a = 2.95 Å and c = 4.68 Å", "c = 4.68 Å"),
        ("SCF of hcp Mg with LDA, c/a = 1.62", "c/a = 1.62"),
    ],
)
def test_another_cell_parameter_in_words_is_refused_by_name(text: str, phrase: str) -> None:
    """Only a is read from words: c or c/a would otherwise be dropped silently."""
    assert phrase in refusal(text)


def test_the_protocol_parsers_read_a_stated_lattice_constant_themselves() -> None:
    """Callers of a protocol's own parser (not the front door) get the same reading."""
    text = "SCF of bulk Si with PBE with a lattice constant of 5.40 Å"
    assert PROTOCOLS["dft_eos"].parse_request(text) is None  # a value: no EOS
    raw = PROTOCOLS["dft_scf"].parse_request(text)
    assert raw is not None and raw["structure"]["a_a"] == pytest.approx(5.40)
    bands = PROTOCOLS["dft_bands"].parse_request("band gap of Si with PBE, a = 5.40 Å")
    assert bands is not None and bands["a_a"] == pytest.approx(5.40)
    assert PROTOCOLS["dft_eos"].parse_request("lattice constant of Si with PBE") is not None
