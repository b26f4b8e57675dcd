"""Requests for band structures, DOS and cohesive energies reach their protocols, and
only them: the knowledge planner (modules) and each protocol's own parser agree."""

from __future__ import annotations

from pathlib import Path

import pytest

from simwright.knowledge.planner.resolver import resolve_request
from simwright.protocols.dft import bands as dft_bands
from simwright.protocols.dft import cohesive as dft_cohesive
from simwright.protocols.dft import dos as dft_dos
from simwright.protocols.dft import eos as dft_eos
from simwright.protocols.dft import relax as dft_relax
from simwright.protocols.dft import scf as dft_scf
from simwright.protocols.dft import work_function as dft_work_function
from simwright.protocols.solids import lattice_constant

PROTOCOLS = {
    p.name: p
    for p in (
        lattice_constant.PROTOCOL,
        dft_scf.PROTOCOL,
        dft_relax.PROTOCOL,
        dft_eos.PROTOCOL,
        dft_bands.PROTOCOL,
        dft_dos.PROTOCOL,
        dft_cohesive.PROTOCOL,
        dft_work_function.PROTOCOL,
    )
}
ROUTES = [
    ("band structure of Si", "dft_bands", {"structure": {"kind": "bulk", "name": "Si"}}),
    (
        "band gap of GaAs with PBE",
        "dft_bands",
        {"structure": {"kind": "bulk", "name": "GaAs"}, "functional": "pbe"},
    ),
    (
        "density of states of bcc Fe",
        "dft_dos",
        {"structure": {"kind": "bulk", "name": "Fe", "lattice": "bcc"}},
    ),
    (
        "cohesive energy of Cu with PBE",
        "dft_cohesive_energy",
        {"structure": {"kind": "bulk", "name": "Cu"}, "functional": "pbe"},
    ),
    (
        "work function of Al(111) with LDA",
        "dft_work_function",
        {"structure": {"kind": "surface", "name": "Al", "facet": "111"}, "functional": "lda"},
    ),
]


@pytest.mark.parametrize(("text", "protocol", "given"), ROUTES)
def test_plan_routes_property_requests_to_their_protocol(
    text: str, protocol: str, given: dict[str, object]
) -> None:
    resolved = resolve_request(text, PROTOCOLS)
    assert resolved.protocol.name == protocol
    assert resolved.params.model_dump(exclude_defaults=True) == given


@pytest.mark.parametrize(("text", "protocol", "given"), ROUTES)
def test_exactly_one_parser_claims_each(text: str, protocol: str, given: object) -> None:
    claims = [p.name for p in PROTOCOLS.values() if p.parse_request(text) is not None]
    assert claims == [protocol]


def test_a_bare_scf_stays_with_dft_scf() -> None:
    assert resolve_request("SCF of bulk Si with PBE", PROTOCOLS).protocol.name == "dft_scf"
    assert resolve_request("relax bulk Si with PBE", PROTOCOLS).protocol.name == "dft_relax"


@pytest.mark.parametrize(
    ("protocol", "parameters"),
    [
        ("dft_bands", "{formula: Si, functional: lda, path_points: 120}"),
        ("dft_dos", "{formula: Fe, lattice: bcc, delta_e_ev: 0.05}"),
        ("dft_cohesive_energy", "{formula: Cu, functional: pbe, box_a: 14}"),
    ],
)
def test_yaml_specs_name_the_protocols(tmp_path: Path, protocol: str, parameters: str) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(f"protocol: {protocol}\nparameters: {parameters}\n")
    resolved = resolve_request(str(spec), PROTOCOLS)
    assert resolved.protocol.name == protocol
    assert resolved.params.structure.kind == "bulk"  # type: ignore[attr-defined]


def test_element_names_are_read_as_symbols() -> None:
    assert dft_cohesive.parse_request("cohesive energy of copper with PBE") == {
        "formula": "Cu",
        "structure": "bulk",
        "functional": "pbe",
    }
    raw = dft_dos.parse_request("projected density of states of bcc iron with PBE")
    assert raw is not None and (raw["formula"], raw["lattice"]) == ("Fe", "bcc")
