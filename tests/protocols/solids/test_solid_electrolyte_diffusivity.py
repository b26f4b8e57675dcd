"""Li diffusivity in a solid electrolyte (α-Li3N) with a real universal MLIP (CHGNet):
routing of requests, the vacancy cell, refusals, and a few MD steps per temperature."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from helpers.steps import run_graph
from simwright.builders.argyrodite import anion_exchange
from simwright.engines.ase.mlip import mlip_available
from simwright.errors import ParseError, ValidationError
from simwright.knowledge.planner.resolver import resolve_request
from simwright.protocols.registry import Protocol
from simwright.protocols.solids import solid_electrolyte_diffusivity as sed
from simwright.results import ProtocolResult
from simwright.settings import Settings
from simwright.store import Store

PROTOCOLS: dict[str, Protocol] = {sed.PROTOCOL.name: sed.PROTOCOL}
needs_chgnet = pytest.mark.skipif(not mlip_available("chgnet"), reason="chgnet not installed")


def test_a_request_in_words_reaches_the_protocol_with_its_temperatures() -> None:
    resolved = resolve_request(
        "Li diffusivity in Li3N with SevenNet at 500, 700 and 900 K", PROTOCOLS
    )
    assert resolved.protocol.name == "solid_electrolyte_diffusivity"
    params = resolved.params
    assert isinstance(params, sed.SolidDiffusivityParams)
    assert params.calculator == "sevennet"
    assert params.temperatures_k == (500.0, 700.0, 900.0)


def test_requests_it_cannot_honour_are_refused_by_name() -> None:
    with pytest.raises(ParseError, match=r"which solid electrolyte\? simwright holds Li3N"):
        resolve_request("lithium diffusivity in the solid electrolyte LLZO", PROTOCOLS)
    with pytest.raises(ParseError, match=r"at least two temperatures"):
        sed.parse_request("Li diffusivity in Li3N with CHGNet at 600 K")
    with pytest.raises(ValidationError, match=r"positive and distinct"):
        sed.PROTOCOL.validate({"temperatures_k": (600, 600)})
    with pytest.raises(ValidationError, match=r"41 production frames in 4 blocks leave 6 MSD"):
        sed.PROTOCOL.validate({"production_ps": 0.4, "every": 5})
    with pytest.raises(ValidationError, match=r"in-plane Li sites"):
        sed.build_cell(sed.SolidDiffusivityParams(repeat=(1, 1, 1), li_vacancies=3))


def test_the_vacancies_are_on_in_plane_li_sites() -> None:
    p = sed.SolidDiffusivityParams(repeat=(2, 2, 2), li_vacancies=2)
    cell = sed.build_cell(p)
    assert cell.symbols.count("Li") == 22 and cell.symbols.count("N") == 8
    c = 3.875
    # the Li(1) sites between the planes are all kept: 8 of them at z = c/2 (mod c)
    z = cell.positions[:, 2] / c
    li = np.array([s == "Li" for s in cell.symbols])
    assert int(np.sum(li & (np.abs(z - np.round(z)) > 0.25))) == 8
    assert p.atoms() == len(cell)


@needs_chgnet
@pytest.mark.slow
# CHGNet's MD path converts a tensor that still requires grad (its own warning)
@pytest.mark.filterwarnings("ignore:Converting a tensor with requires_grad:UserWarning")
def test_a_few_md_steps_with_chgnet_give_d_at_each_temperature(
    store: Store, settings: Settings
) -> None:
    p = sed.SolidDiffusivityParams(
        repeat=(2, 2, 1),
        temperatures_k=(600.0, 900.0),
        calculator="chgnet",
        device="cpu",
        equilibration_ps=0.01,
        production_ps=0.11,
        every=1,
        n_blocks=3,
    )
    out = run_graph(sed.GRAPH, sed.PROTOCOL.first_step(p), store, settings)
    result = out.result
    assert isinstance(result, ProtocolResult)
    for t in (600, 900):
        q = result.values[f"d_li_{t}K"]
        assert np.isfinite(q.value) and q.uncertainty is not None and q.uncertainty >= 0
    names = {Path(a.path).name for a in result.artifacts}
    assert {"arrhenius.png", "msd.png", "li_diffusion.h5", "report.md"} <= names
    assert "quick estimate" in result.summary
    assert any(r.quantity == "activation_energy" for r in result.references)


def test_argyrodite_is_one_conventional_cell_ordered_or_site_disordered() -> None:
    raw = sed.parse_request(
        "Li diffusivity in the argyrodite Li6PS5Cl with CHGNet at 600 and 900 K"
    )
    assert raw == {"material": "Li6PS5Cl", "calculator": "chgnet", "temperatures_k": (600.0, 900.0)}
    p = sed.SolidDiffusivityParams(material="Li6PS5Cl", anion_exchange=0.5)
    assert (p.repeat, p.li_vacancies, p.atoms()) == ((1, 1, 1), 0, 52)
    cell = sed.build_cell(p)
    assert len(cell) == 52 and anion_exchange(cell, p.repeat) == 0.5
    with pytest.raises(ValidationError, match="half empty already"):
        sed.PROTOCOL.validate({"material": "Li6PS5Cl", "li_vacancies": 2})
    with pytest.raises(ValidationError, match="applies to Li6PS5Cl only"):
        sed.PROTOCOL.validate({"material": "Li3N", "anion_exchange": 0.5})
