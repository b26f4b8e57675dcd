"""mof_pores end to end with the real engines: the smallest PORMAKE MOF (pcu, one Zn4O
node and three BDC linkers, 53 atoms), the same framework read from a CIF file, and a
short CHGNet relaxation."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers.engines import needs
from simwright.graph import Runner
from simwright.protocols.mofs import pores
from simwright.protocols.mofs.params import MofParams
from simwright.results import ProtocolResult
from simwright.settings import Settings
from simwright.store import Store

pytestmark = needs("pormake", "zeo++")

FIXTURE = Path(__file__).parent / "data" / "pcu_zn4o_bdc.cif"
FAST = {"samples_per_atom": 300, "grid_spacing_a": 0.4}


def run(params: MofParams, store: Store, settings: Settings) -> ProtocolResult:
    out = Runner(store, settings).start(
        pores.GRAPH, pores.start(params), protocol="mof_pores", params=params
    )
    assert out.status == "completed", out.error
    assert isinstance(out.result, ProtocolResult)
    return out.result


def test_a_pcu_mof_from_zn4o_and_bdc_is_built_and_measured(
    store: Store, settings: Settings
) -> None:
    params = MofParams(topology="pcu", nodes=("Zn4O",), linker="BDC", **FAST)
    result = run(params, store, settings)
    v = result.values
    assert v["atoms"].value == 53  # Zn4O(CO2)6 + 3 C6H4 per primitive cubic cell
    assert v["node_fit_rmsd"].value < 1e-3  # the octahedral node fits pcu exactly
    # a 13.25 Å cubic cell: a cavity of about 12.8 Å, windows of about 9.9 Å
    assert 12.0 < v["largest_included_sphere"].value < 13.5
    assert 9.0 < v["largest_free_sphere"].value < v["largest_included_sphere"].value
    assert v["channel_dimensionality"].value == 3
    assert 3000 < v["accessible_surface_area"].value < 4500  # MOF-5-like, m²/g
    assert 0.5 < v["density"].value < 0.6
    assert any("Kaye" in r.citation for r in result.references)  # recognised as MOF-5
    calls = store.engine_calls(store.list_runs(1)[0].id)
    assert {c.engine for c in calls} == {"pormake", "zeo++"}


def test_the_same_framework_read_from_its_cif_gives_the_same_pores(
    store: Store, settings: Settings
) -> None:
    result = run(MofParams(cif=str(FIXTURE), name="pcu-Zn4O-BDC", **FAST), store, settings)
    v = result.values
    assert v["atoms"].value == 53
    assert v["largest_included_sphere"].value == pytest.approx(12.75, abs=0.02)
    assert v["largest_free_sphere"].value == pytest.approx(9.93, abs=0.02)
    assert "input.cif" in " ".join(a.path for a in result.artifacts)
    assert "node_fit_rmsd" not in v


@pytest.mark.slow
def test_a_short_chgnet_relaxation_lowers_the_energy_and_says_it_is_capped(
    store: Store, settings: Settings
) -> None:
    pytest.importorskip("chgnet")
    params = MofParams(cif=str(FIXTURE), calculator="chgnet", relax_steps=3, **FAST)
    result = run(params, store, settings)
    v = result.values
    assert v["relaxation_steps"].value <= 3
    assert v["relaxation_energy_change"].value < 0  # meV/atom, BFGS goes downhill
    report = next(a for a in result.artifacts if a.kind == "report")
    text = (Path(store.list_runs(1)[0].workdir) / report.path).read_text(encoding="utf-8")
    stopped = "WARNING: the relaxation stopped at its cap of 3 steps" in text
    assert stopped == (not v["relaxation_converged"].value)
    assert abs(v["relaxation_volume_change"].value) < 10  # a few steps move little
    assert 11.0 < v["largest_included_sphere"].value < 14.0
