"""dft_surface_energy: the oriented bulk reference, a real thickness series on Al(111)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from simwright.dft.structures import StructureSpec, build_bulk
from simwright.errors import ParseError, ValidationError
from simwright.graph import Runner
from simwright.protocols.dft import surface as dft_surface
from simwright.settings import Settings
from simwright.store import Store

PSEUDO = Path("/usr/share/espresso/pseudo")
needs_pw = pytest.mark.skipif(
    shutil.which("pw.x") is None or not (PSEUDO / "Al.pz-vbc.UPF").is_file(),
    reason="pw.x and quantum-espresso-data are needed",
)


@pytest.mark.parametrize(
    ("name", "facet"), [("Cu", "111"), ("Cu", "100"), ("Fe", "110"), ("Mg", "0001")]
)
def test_the_oriented_bulk_cell_is_the_bulk(name: str, facet: str) -> None:
    lattice, facet = dft_surface.lattice_and_facet(name, None, facet)
    period = dft_surface.STACKING_PERIOD[(lattice, facet)]
    oriented = dft_surface.build_slab(name, lattice, facet, (1, 1), period, None)
    bulk = build_bulk(StructureSpec.model_validate({"kind": "bulk", "name": name})).structure
    assert oriented.volume_a3 / len(oriented) == pytest.approx(bulk.volume_a3 / len(bulk))
    assert all(oriented.pbc)
    slab = dft_surface.build_slab(name, lattice, facet, (1, 1), 4, 12.0)
    z = np.asarray(slab.positions)[:, 2]
    assert float(slab.cell[2][2]) - (z.max() - z.min()) == pytest.approx(12.0)


def test_the_line_fit_recovers_bulk_and_surface_energies() -> None:
    area, eps, gamma = 5.6, -2900.0, 0.08  # Å², eV/atom, eV/Å²
    exact = {n: n * eps + 2 * area * gamma for n in (4, 5, 6)}
    fit = dft_surface.slab_line_fit(exact, area)
    assert fit is not None
    assert fit.bulk_energy_per_atom_ev == pytest.approx(eps)
    assert fit.surface_energy_ev_a2 == pytest.approx(gamma)
    assert fit.largest_residual_ev == pytest.approx(0.0, abs=1e-6)
    # an oscillation about the line shows as a residual, not in the slope's sign
    wobbly = {n: e + 0.01 * (-1) ** n for n, e in exact.items()}
    shaken = dft_surface.slab_line_fit(wobbly, area)
    assert shaken is not None and shaken.largest_residual_ev > 0.005
    assert dft_surface.slab_line_fit({4: exact[4], 5: exact[5]}, area) is None


def test_diamond_surfaces_are_refused() -> None:
    with pytest.raises(ValidationError, match="not diamond"):
        dft_surface.lattice_and_facet("Si", None, "111")


@needs_pw
@pytest.mark.slow
def test_al111_surface_energy_end_to_end(store: Store, settings: Settings) -> None:
    raw = {
        "structure": {"kind": "surface", "name": "Al", "facet": "111"},
        "functional": "lda",
        "ecutwfc_ry": 12.0,
        "kspacing_inv_a": 0.6,
        "slab_layers": (2, 3, 4),
    }
    params = dft_surface.PROTOCOL.validate(raw)
    out = Runner(store, settings).start(
        dft_surface.GRAPH, dft_surface.PROTOCOL.first_step(params), protocol="dft_surface_energy"
    )
    assert out.status == "completed", out.error
    values = out.result.values
    # coarse settings; experiment 1.14 J/m² (Tyson & Miller, orientation average)
    assert values["surface_energy"].unit == "J/m^2" and 0.5 < values["surface_energy"].value < 1.6
    assert {"surface_energy_2_layers", "surface_energy_3_layers", "thickness_change"} <= set(values)
    # three slabs: the line fit's slope is the oriented bulk's energy per atom within the
    # thin slabs' scatter, and its γ lies near the thickest slab's
    fit_bulk = values["bulk_energy_per_atom_line_fit"].value
    assert abs(fit_bulk - values["bulk_energy_per_atom"].value) < 0.05
    assert abs(values["surface_energy_line_fit"].value - values["surface_energy"].value) < 0.3
    assert values["line_fit_largest_residual"].value >= 0.0
    record = json.loads(
        (
            out.run_dir / next(a for a in out.result.artifacts if a.kind == "settings").path
        ).read_text()
    )
    slab_mesh = record["runs"]["slab-4"]["k_points"].split("×")
    bulk_mesh = record["runs"]["bulk"]["k_points"].split("×")
    assert slab_mesh[:2] == bulk_mesh[:2] and slab_mesh[2] == "1"
    assert record["vacuum_a"] == 10.0
    assert len(store.engine_calls(out.run_id)) == 4


def test_requests() -> None:
    assert dft_surface.parse_request("surface energy of Cu(111) with PBE") == {
        "formula": "Cu",
        "structure": "surface",
        "facet": "111",
        "functional": "pbe",
    }
    assert dft_surface.parse_request("surface energy of Cu(111) with EAM") is None
    with pytest.raises(ParseError, match="surface"):
        dft_surface.parse_request("surface energy of MgO with PBE")
