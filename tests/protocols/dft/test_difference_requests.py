"""Requests for formation, surface, adsorption and vacancy formation energies reach the
DFT energy-difference protocols when they name DFT, and only then."""

from __future__ import annotations

from pathlib import Path

import pytest

from simwright.errors import ParseError
from simwright.knowledge.planner.resolver import resolve_request
from simwright.protocols.dft import (
    adsorption,
    cohesive,
    eos,
    formation,
    relax,
    scf,
    surface,
    vacancy,
)
from simwright.protocols.solids import lattice_constant

PROTOCOLS = {
    p.name: p
    for p in (
        lattice_constant.PROTOCOL,
        scf.PROTOCOL,
        relax.PROTOCOL,
        eos.PROTOCOL,
        cohesive.PROTOCOL,
        formation.PROTOCOL,
        surface.PROTOCOL,
        adsorption.PROTOCOL,
        vacancy.PROTOCOL,
    )
}
ROUTES = [
    (
        "formation energy of MgO with LDA",
        "dft_formation_energy",
        {"structure": {"kind": "bulk", "name": "MgO"}, "functional": "lda"},
    ),
    (
        "surface energy of Cu(111) with PBE",
        "dft_surface_energy",
        {"structure": {"kind": "surface", "name": "Cu", "facet": "111"}, "functional": "pbe"},
    ),
    (
        "adsorption energy of CO on Cu(111) with PBE",
        "dft_adsorption_energy",
        {
            "structure": {"kind": "surface", "name": "Cu", "facet": "111", "size": (2, 2, 3)},
            "adsorbate": "CO",
            "functional": "pbe",
        },
    ),
    (
        "vacancy formation energy of Al with LDA",
        "dft_vacancy_formation_energy",
        {"structure": {"kind": "bulk", "name": "Al"}, "functional": "lda"},
    ),
]


@pytest.mark.parametrize(("text", "protocol", "given"), ROUTES)
def test_plan_routes_energy_differences_to_their_protocol(
    text: str, protocol: str, given: dict[str, object]
) -> None:
    resolved = resolve_request(text, PROTOCOLS)
    assert resolved.protocol.name == protocol
    assert resolved.params.model_dump(exclude_defaults=True) == given


@pytest.mark.parametrize(("text", "protocol", "given"), ROUTES)
def test_exactly_one_parser_claims_each(text: str, protocol: str, given: object) -> None:
    claims = [p.name for p in PROTOCOLS.values() if p.parse_request(text) is not None]
    assert claims == [protocol]


@pytest.mark.parametrize(
    "text",
    ["surface energy of Cu(111) with EAM", "vacancy formation energy of Cu with EMT"],
)
def test_a_classical_request_is_not_taken_by_dft(text: str) -> None:
    assert all(p.parse_request(text) is None for p in PROTOCOLS.values() if "dft" in p.name)
    with pytest.raises(ParseError, match="cannot read this request"):
        resolve_request(text, PROTOCOLS)


@pytest.mark.parametrize(
    ("protocol", "parameters"),
    [
        ("dft_formation_energy", "{formula: MgO, functional: lda, box_a: 10}"),
        (
            "dft_surface_energy",
            "{structure: {kind: surface, name: Al, facet: '111'}, slab_layers: [3, 5]}",
        ),
        (
            "dft_adsorption_energy",
            "{structure: {kind: surface, name: Cu, facet: '111', size: [2, 2, 3]}, "
            "adsorbate: CO, site: fcc}",
        ),
        ("dft_vacancy_formation_energy", "{formula: Cu, supercell: [3, 3, 3]}"),
    ],
)
def test_yaml_specs_name_the_protocols(tmp_path: Path, protocol: str, parameters: str) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(f"protocol: {protocol}\nparameters: {parameters}\n")
    resolved = resolve_request(str(spec), PROTOCOLS)
    assert resolved.protocol.name == protocol
