"""Zeo++ through its worker on a framework whose pores are known exactly: a simple cubic
lattice of carbon atoms (Zeo++ radius 1.7 Å), and the channel search on its grid."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from helpers.engines import needs
from simwright.analysis.channels import accessible_grid, channels
from simwright.engines.zeo.run import analyse_pores
from simwright.engines.zeo.spec import ZeoSpec, field

pytestmark = needs("zeo++")

A = 6.0
R_C = 1.7


def _cubic_cif(folder: Path) -> str:
    from ase import Atoms
    from ase.io import write

    write(folder / "sc.cif", Atoms("C", [[0, 0, 0]], cell=[A, A, A], pbc=True), format="cif")
    return "sc.cif"


def test_simple_cubic_pores_match_geometry(tmp_path: Path) -> None:
    probe = 1.0
    out = analyse_pores(ZeoSpec(_cubic_cif(tmp_path), probe, 1000), tmp_path)
    g = out.geometry
    # the largest sphere sits at the cube centre; the free path crosses the face centres
    assert g.di_a == pytest.approx(A * math.sqrt(3) - 2 * R_C, abs=2e-3)
    assert g.df_a == pytest.approx(A * math.sqrt(2) - 2 * R_C, abs=2e-3)
    # the probe-centre surface is a sphere of radius r + probe around each atom
    area = 4 * math.pi * (R_C + probe) ** 2 / A**3  # 1/Å = 1e4 m²/cm³
    assert g.asa_m2_cm3 == pytest.approx(area * 1e4, rel=1e-3)
    excluded = 4 / 3 * math.pi * (R_C + probe) ** 3 / A**3
    assert g.av_fraction == pytest.approx(1 - excluded, abs=0.03)  # Monte Carlo
    assert (g.channels, g.pockets) == (1, 0)
    assert out.radii_a.tolist() == [R_C]
    assert out.call.ok and out.call.engine == "zeo++"


def test_channel_grid_sees_the_cubic_network_close_and_lose_it() -> None:
    pos, cell, radii = np.zeros((1, 3)), np.eye(3) * A, np.array([R_C])
    open_net = channels(accessible_grid(pos, radii, cell, 1.0, 0.2))
    assert open_net.dimensionalities == (3,) and open_net.pockets == 0
    # above Df/2 (2.54 Å) the face windows close: the cube centres are isolated pockets
    closed = channels(accessible_grid(pos, radii, cell, 2.8, 0.2))
    assert closed.dimensionalities == () and closed.pockets == 1


def test_field_reads_zeo_result_lines() -> None:
    line = "@ x Unitcell_volume: 216   Density: 0.09   ASA_A^2: 91.6 ASA_m^2/cm^3: 4241.15"
    assert field(line, "ASA_m^2/cm^3") == pytest.approx(4241.15)
    assert field(line, "Density") == pytest.approx(0.09)
    with pytest.raises(ValueError, match="NASA"):
        field(line, "NASA_A^2")
