"""dft_adsorption_energy: the covered and clean slabs share a cell, CO on Al(111) with
real pw.x, and the request's site and cell words."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from simwright.errors import ParseError, SimwrightError, ValidationError
from simwright.graph import Runner
from simwright.protocols.dft import adsorption as dft_adsorption
from simwright.settings import Settings
from simwright.store import Store
from simwright.structure import Structure

PSEUDO = Path("/usr/share/espresso/pseudo")
needs_pw = pytest.mark.skipif(
    shutil.which("pw.x") is None or not (PSEUDO / "C.pz-rrkjus.UPF").is_file(),
    reason="pw.x and quantum-espresso-data are needed",
)
CO_AL = {
    "structure": {"kind": "surface", "name": "Al", "facet": "111", "size": (1, 1, 2)},
    "adsorbate": "CO",
    "functional": "lda",
    "ecutwfc_ry": 15.0,
    "kspacing_inv_a": 0.8,
    "box_a": 6.0,
    "force_threshold_ev_a": 0.1,
}


def test_covered_and_clean_slab_share_one_cell_with_vacuum_above_the_molecule() -> None:
    params = dft_adsorption.PROTOCOL.validate(
        {**CO_AL, "structure": {**CO_AL["structure"], "size": (2, 2, 3)}}
    )
    slab = dft_adsorption.clean_slab(params)
    clean, covered = dft_adsorption.covered_slab(slab, "CO", "fcc", 2.0, 10.0)
    assert np.allclose(clean.cell, covered.cell)
    z = covered.positions[:, 2]
    assert covered.cell[2, 2] - (z.max() - z.min()) == pytest.approx(10.0)
    assert covered.get_chemical_symbols()[-2:] == ["O", "C"] and z[-1] < z[-2]  # C down
    assert np.allclose(clean.positions, covered.positions[:-2])
    flags = dft_adsorption.fixed_flags(Structure.from_ase(clean), params.n_fixed)
    assert sum(all(f) for f in flags) == 4  # the bottom of 3 layers of a 2×2 cell


@needs_pw
@pytest.mark.slow
def test_co_on_al111_end_to_end(store: Store, settings: Settings) -> None:
    params = dft_adsorption.PROTOCOL.validate(CO_AL)
    out = Runner(store, settings).start(
        dft_adsorption.GRAPH,
        dft_adsorption.PROTOCOL.first_step(params),
        protocol="dft_adsorption_energy",
    )
    assert out.status == "completed", out.error
    values = out.result.values
    assert values["coverage"].value == 1.0 and values["adsorption_energy"].unit == "eV"
    assert -3.0 < values["adsorption_energy"].value < 0.5  # coarse settings, 1 ML
    record = json.loads(
        (
            out.run_dir / next(a for a in out.result.artifacts if a.kind == "settings").path
        ).read_text()
    )
    assert record["runs"]["slab+molecule"]["fixed_atoms"] == 1
    assert record["runs"]["slab"]["k_points"] == record["runs"]["slab+molecule"]["k_points"]
    assert record["runs"]["molecule"]["k_points"] == "Γ only"
    assert len(store.engine_calls(out.run_id)) == 3


@needs_pw
@pytest.mark.slow
def test_single_points_without_relaxation(store: Store, settings: Settings) -> None:
    params = dft_adsorption.PROTOCOL.validate({**CO_AL, "relax": False})
    out = Runner(store, settings).start(
        dft_adsorption.GRAPH,
        dft_adsorption.PROTOCOL.first_step(params),
        protocol="dft_adsorption_energy",
    )
    assert out.status == "completed", out.error
    values = out.result.values
    assert values["adsorption_energy"].value == values["adsorption_energy_unrelaxed"].value
    report = next(a for a in out.result.artifacts if a.kind == "report")
    assert "not relaxed: single points" in (out.run_dir / report.path).read_text()
    record = json.loads(
        (
            out.run_dir / next(a for a in out.result.artifacts if a.kind == "settings").path
        ).read_text()
    )
    assert record["relaxed"].startswith("nothing")
    assert len(store.engine_calls(out.run_id)) == 3


def test_requests() -> None:
    raw = dft_adsorption.parse_request(
        "adsorption energy of CO on Cu(111) at the hcp hollow with PBE"
    )
    assert raw == {
        "structure": {"kind": "surface", "name": "Cu", "facet": "111", "size": (2, 2, 3)},
        "adsorbate": "CO",
        "site": "hcp",
        "functional": "pbe",
    }
    raw = dft_adsorption.parse_request("binding energy of CO on a 3x3 Cu(111) slab, top site, PBE")
    assert raw is not None and raw["site"] == "ontop" and raw["structure"]["size"] == (3, 3, 3)
    raw = dft_adsorption.parse_request("unrelaxed adsorption energy of CO on Cu(111) with PBE")
    assert raw is not None and raw["relax"] is False
    assert dft_adsorption.parse_request("adsorption energy of CO on Cu(111)") is None
    with pytest.raises(ParseError, match="names a molecule and a surface"):
        dft_adsorption.parse_request("adsorption energy on copper with PBE")
    with pytest.raises(ValidationError, match="open-shell"):
        dft_adsorption.PROTOCOL.validate({**CO_AL, "adsorbate": "O2"})


@needs_pw
def test_the_estimate_refuses_a_molecule_without_pseudopotentials(tmp_path: Path) -> None:
    raw = dft_adsorption.parse_request("adsorption energy of HCl on Cu(111) with PBE")
    params = dft_adsorption.PROTOCOL.validate(raw or {})
    with pytest.raises(SimwrightError, match="Cl"):
        dft_adsorption.estimate(params, Settings(home=tmp_path))
    ok = dft_adsorption.PROTOCOL.validate({**(raw or {}), "adsorbate": "CO"})
    assert dft_adsorption.estimate(ok, Settings(home=tmp_path)).engine_calls == 3
