"""Requests in words for mof_pores: each stated choice taken or refused by name."""

from __future__ import annotations

from pathlib import Path

import pytest

from simwright.engines.pormake.catalogue import database_dir
from simwright.errors import ParseError, ValidationError
from simwright.knowledge.planner.resolver import prepare, resolve
from simwright.protocols import load_protocols
from simwright.protocols.mofs.params import MofParams
from simwright.protocols.mofs.words import parse_request
from simwright.settings import Settings

FIXTURE = Path(__file__).parent / "data" / "pcu_zn4o_bdc.cif"


@pytest.fixture(scope="module")
def protocols() -> dict:
    return dict(load_protocols())


def test_a_build_in_words_reaches_mof_pores_with_every_choice(protocols: dict) -> None:
    r = resolve(
        "relax a pcu MOF from Zn4O nodes and BDC linkers with CHGNet in 5 steps and give "
        "its pore size for a probe radius of 1.4 Å",
        protocols,
    )
    assert r.protocol.name == "mof_pores"
    p = r.params
    assert isinstance(p, MofParams)
    assert (p.topology, p.nodes, p.linker, p.calculator) == ("pcu", ("Zn4O",), "BDC", "chgnet")
    assert (p.relax_steps, p.probe_radius_a) == (5, 1.4)
    assert {"topology", "nodes", "linker", "calculator", "relax_steps"} <= r.given


def test_named_frameworks_and_cif_files(protocols: dict) -> None:
    hkust = resolve("surface area of HKUST-1", protocols).params
    assert (hkust.topology, hkust.nodes, hkust.name) == ("tbo", ("N10", "N409"), "HKUST-1")
    tbo = parse_request("pore size of a tbo MOF from BTC and Cu paddlewheel nodes")
    assert tbo == {"topology": "tbo", "nodes": ["BTC", "Cu paddlewheel"]}
    cif = resolve(f"largest cavity of the MOF in {FIXTURE}", protocols).params
    assert cif.cif == str(FIXTURE.resolve()) and cif.calculator is None
    assert parse_request("lattice constant of Cu with EMT") is None


@pytest.mark.parametrize(
    ("request_text", "error", "message"),
    [
        ("relax MOF-5 with EMT", ValidationError, r"calculator 'emt' cannot relax a MOF"),
        ("relax MOF-5 with the Mishin EAM potential", ParseError, r"universal MLIP only"),
        ("pore size of MOF-5 at 300 K", ParseError, r"the number 300 was not understood"),
        ("pore size of a MOF", ParseError, r"which framework\?"),
        ("pore size of a pcu MOF", ParseError, r"which building blocks\?"),
    ],
)
def test_refusals_name_the_phrase(
    protocols: dict, request_text: str, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        resolve(request_text, protocols)


@pytest.mark.parametrize(
    ("request_text", "message"),
    [
        ("pore size of a pcx MOF from Zn4O nodes and BDC linkers", r"unknown topology 'pcx'.*pcu"),
        ("pore size of a pcu MOF from Zn4X nodes and BDC linkers", r"'Zn4X'.*closest: Zn4O"),
        ("pore size of a tbo MOF from Zn4O nodes and BDC linkers", r"tbo has 2 node type"),
        ("pore size of a pcu MOF from BTC nodes and BDC linkers", r"6-connected.*BTC"),
    ],
)
def test_unknown_or_unfitting_names_are_refused_by_the_build_stage(
    protocols: dict, request_text: str, message: str, tmp_path: Path
) -> None:
    if database_dir() is None:  # never import PORMAKE here: it writes runtime.log in the cwd
        pytest.skip("needs pormake")
    resolution = resolve(request_text, protocols)
    with pytest.raises(ValidationError, match=message):
        prepare(resolution, Settings(home=tmp_path))
