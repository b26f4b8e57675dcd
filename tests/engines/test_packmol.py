"""The PACKMOL adapter: input template (golden file), validation, and real packings."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from helpers import paths
from simwright.engines.packmol import (
    ENGINE,
    PackSpec,
    box_edge_a,
    component_file_names,
    find_packmol,
    min_intermolecular_distance_a,
    pack,
    render_packmol_input,
)
from simwright.errors import EngineError, ValidationError
from simwright.molecules import get_molecule, vdw_volume_a3
from simwright.settings import Settings
from simwright.structure import Structure
from simwright.units import density_g_cm3

GOLDEN = paths.GOLDEN / "packmol"


def _min_image_intermolecular(structure: Structure) -> float:
    """Brute-force minimum-image distance between atoms of different molecules."""
    edge = np.diag(structure.cell)
    delta = structure.positions[:, None, :] - structure.positions[None, :, :]
    delta -= edge * np.round(delta / edge)
    distance = np.linalg.norm(delta, axis=-1)
    ids = np.asarray(structure.molecule_ids)
    return float(distance[ids[:, None] != ids[None, :]].min())


# --- template ------------------------------------------------------------------------


def test_input_matches_golden_file() -> None:
    spec = PackSpec(
        ((get_molecule("water"), 10), (get_molecule("argon"), 0), (get_molecule("pf6-"), 2)),
        box_a=20.0,
        tolerance_a=2.0,
        seed=7,
        nloop=40,
    )
    names = component_file_names(spec)
    assert names == ("component_1_spce_water.xyz", "component_2_argon.xyz", "component_3_pf6.xyz")
    text = render_packmol_input(spec, names, box_edge_a(spec))
    assert text == (GOLDEN / "water_pf6.inp").read_text()


@pytest.mark.parametrize(
    ("names", "output"),
    [
        (("../water.xyz",), "packed.xyz"),
        (("water x.xyz",), "packed.xyz"),
        (("water.xyz",), "/tmp/packed.xyz"),
        (("water.xyz",), "packed.xyz\nseed 1"),
    ],
)
def test_file_names_of_the_input_are_confined(names: tuple[str, ...], output: str) -> None:
    spec = PackSpec(((get_molecule("water"), 1),), box_a=10.0)
    with pytest.raises(ValidationError, match="PACKMOL input"):
        render_packmol_input(spec, names, 10.0, output_name=output)


def test_render_needs_one_file_per_component() -> None:
    spec = PackSpec(((get_molecule("water"), 1),), box_a=10.0)
    with pytest.raises(ValidationError):
        render_packmol_input(spec, ("a.xyz", "b.xyz"), 10.0)


# --- validation and box sizes --------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        {"components": ()},
        {"components": ((get_molecule("water"), 0),)},
        {"components": ((get_molecule("water"), -1),)},
        {"components": ((get_molecule("water"), True),)},
        {"components": (("water", 3),)},
        {"components": ((get_molecule("water"),),)},
        {"density_g_cm3": -1.0},
        {"density_g_cm3": 0.0},
        {"box_a": -5.0},
        {"box_a": 20.0, "density_g_cm3": 1.0},
        {"tolerance_a": 0.0},
        {"margin_a": -0.5},
        {"seed": -1},
        {"nloop": 0},
        {"vdw_box_factor": 0.0},
    ],
)
def test_invalid_specs_are_refused(kwargs: dict[str, Any]) -> None:
    arguments: dict[str, Any] = {"components": ((get_molecule("water"), 3),)}
    arguments.update(kwargs)
    with pytest.raises(ValidationError):
        PackSpec(**arguments)


def test_box_from_density() -> None:
    spec = PackSpec(((get_molecule("water"), 100),), density_g_cm3=1.0)
    edge = box_edge_a(spec)
    assert density_g_cm3(spec.mass_amu, edge**3) == pytest.approx(1.0, rel=1e-9)
    assert spec.margin == 1.0
    assert spec.n_atoms == 300


def test_box_from_vdw_volumes() -> None:
    li, pf6, dmc = get_molecule("li+"), get_molecule("pf6-"), get_molecule("dmc")
    spec = PackSpec(((li, 2), (pf6, 2), (dmc, 16)))
    v0 = 2 * vdw_volume_a3(li) + 2 * vdw_volume_a3(pf6) + 16 * vdw_volume_a3(dmc)
    assert box_edge_a(spec) == pytest.approx(1.1 * v0 ** (1 / 3))


def test_molecule_larger_than_the_box_is_refused(tmp_path: Path) -> None:
    spec = PackSpec(((get_molecule("dec"), 1),), box_a=5.0)
    with pytest.raises(ValidationError, match="does not fit"):
        pack(spec, tmp_path)


def test_packmol_is_found() -> None:
    exe = find_packmol()
    assert exe.is_file()
    assert os.access(exe, os.X_OK)
    status = ENGINE.status(Settings(home=Path.home()))
    assert ENGINE.name == "packmol" and status.available
    assert status.version.count(".") >= 1 and status.command == str(exe)


# --- real PACKMOL --------------------------------------------------------------------


def test_pack_100_spce_waters_at_unit_density(tmp_path: Path) -> None:
    water = get_molecule("water")
    result = pack(PackSpec(((water, 100),), density_g_cm3=1.0, seed=11), tmp_path)
    s = result.structure
    assert len(s) == 300
    assert s.symbols == ("O", "H", "H") * 100
    assert s.molecule_ids == tuple(i for i in range(1, 101) for _ in range(3))
    assert s.pbc == (True, True, True)
    np.testing.assert_allclose(s.cell, np.eye(3) * result.box_a)
    summary = s.check()
    assert summary.density_g_cm3 == pytest.approx(1.0, rel=0.01)
    d_min = _min_image_intermolecular(s)
    assert d_min > 1.5
    assert result.min_intermolecular_distance_a == pytest.approx(d_min, abs=1e-9)
    positions = s.positions.reshape(100, 3, 3)
    oh = np.linalg.norm(positions[:, 1:, :] - positions[:, :1, :], axis=-1)
    np.testing.assert_allclose(oh, 1.0, atol=1e-4)
    # Atoms keep the 1 Å margin from the faces, up to PACKMOL's constraint precision.
    assert s.positions.min() > 1.0 - 0.15
    assert s.positions.max() < result.box_a - 1.0 + 0.15
    assert result.call.ok and result.call.engine == "packmol"
    assert result.call.version.count(".") >= 1
    assert result.call.workdir == str(tmp_path)
    assert result.input_path == tmp_path / "packmol.inp" and result.input_path.is_file()
    assert result.output_path.is_file()
    assert "structure component_1_spce_water.xyz" in result.input_path.read_text()


def test_pack_electrolyte_mixture_in_a_box_from_vdw_volumes(tmp_path: Path) -> None:
    li, pf6, dmc = get_molecule("li+"), get_molecule("pf6-"), get_molecule("dmc")
    spec = PackSpec(((li, 2), (pf6, 2), (dmc, 16)), seed=3)
    result = pack(spec, tmp_path)
    s = result.structure
    assert result.box_a == pytest.approx(box_edge_a(spec))
    assert len(s) == 2 * 1 + 2 * 7 + 16 * 12
    assert s.symbols[:16] == ("Li", "Li", *("P", "F", "F", "F", "F", "F", "F") * 2)
    assert s.molecule_ids is not None
    assert s.molecule_ids[:4] == (1, 2, 3, 3)
    assert max(s.molecule_ids) == 20
    assert _min_image_intermolecular(s) > 1.5
    assert s.formula == "C48H96F12Li2O48P2"


def test_same_seed_gives_the_same_packing(tmp_path: Path) -> None:
    spec = PackSpec(((get_molecule("water"), 10), (get_molecule("methane"), 3)), box_a=12.0)
    first = pack(spec, tmp_path / "a").structure
    second = pack(spec, tmp_path / "b").structure
    assert first == second
    other = pack(PackSpec(spec.components, box_a=12.0, seed=2), tmp_path / "c").structure
    assert other != first


def test_impossible_packing_raises_engine_error_with_tail(tmp_path: Path) -> None:
    spec = PackSpec(((get_molecule("water"), 20),), box_a=5.0, nloop=1)
    with pytest.raises(EngineError) as info:
        pack(spec, tmp_path)
    assert "no packing" in str(info.value)
    assert "ENDED WITHOUT PERFECT PACKING" in info.value.tail
    assert (tmp_path / "packmol.stdout").is_file()


def test_missing_executable_raises_engine_error(tmp_path: Path) -> None:
    spec = PackSpec(((get_molecule("argon"), 2),), box_a=10.0)
    with pytest.raises(EngineError, match="exit code 127") as info:
        pack(spec, tmp_path, executable=tmp_path / "no-packmol")
    assert "executable not found" in info.value.tail


def test_min_intermolecular_distance_needs_molecule_ids() -> None:
    with pytest.raises(ValidationError):
        min_intermolecular_distance_a(get_molecule("water").structure)
