"""Montmorillonite builder: the five compositions of the campaign balance their charge."""

from __future__ import annotations

import collections

import numpy as np
import pytest

from simwright.builders.clay import ClayParameters, build_clay
from simwright.builders.clay_cell import SI_O_A, dioctahedral_cell
from simwright.builders.clay_checks import MAX_RESIDUAL_E, check_clay
from simwright.errors import ValidationError

COMPOSITIONS = [("Na", 0.3, 12), ("Na", 0.4, 16), ("Na", 0.5, 20), ("K", 0.4, 16), ("Ca", 0.4, 8)]


def test_the_unit_cell_is_al4_si8_o20_oh4_with_ideal_tetrahedra() -> None:
    cell = dioctahedral_cell()
    assert collections.Counter(cell.roles) == {
        "oct": 4,
        "apical": 8,
        "hydroxyl_o": 4,
        "hydroxyl_h": 4,
        "tet": 8,
        "basal": 12,
    }
    xyz = np.column_stack([cell.frac_xy * [cell.a_a, cell.b_a], cell.z_a])
    tet = xyz[[r == "tet" for r in cell.roles]]
    oxy = xyz[[r in ("apical", "basal") for r in cell.roles]]
    d = oxy[None] - tet[:, None]
    d[..., :2] -= np.round(d[..., :2] / [cell.a_a, cell.b_a]) * [cell.a_a, cell.b_a]
    r = np.sort(np.linalg.norm(d, axis=2), axis=1)[:, :4]
    assert np.allclose(r, SI_O_A, atol=0.01)  # four O around every Si
    assert 6.3 < cell.thickness_a < 6.6


@pytest.mark.parametrize(("cation", "charge", "count"), COMPOSITIONS)
def test_each_composition_is_neutral_with_integer_cations_and_expected_partition(
    cation: str, charge: float, count: int
) -> None:
    system = build_clay(ClayParameters(cation=cation, layer_charge=charge))  # type: ignore[arg-type]
    report = check_clay(system)
    assert report.ok, report.failed()
    checks = {c.name: c for c in report.checks}
    assert system.kinds.count("cation") == count
    assert system.n_atoms == 2 * 20 * 40 + count  # 5 × 4 cells of 40 atoms, two sheets
    assert abs(system.charges.sum()) <= MAX_RESIDUAL_E + 1e-9
    assert checks["cation_partition"].value == {
        "interlayer": count // 2,
        "below": count // 4,
        "above": count // 4,
    }
    valence = {"Na": 1, "K": 1, "Ca": 2}[cation]
    assert sum(system.substitutions) == count * valence
    assert system.types.count("obos") == 4 * count * valence


def test_substitutions_follow_the_seed_and_stay_apart() -> None:
    params = ClayParameters(cation="Na", layer_charge=0.5)
    a, b = build_clay(params), build_clay(params)
    other = build_clay(params.model_copy(update={"seed": 99}))
    mg = lambda s: s.positions[np.array(s.types) == "mgo"]  # noqa: E731
    assert np.array_equal(mg(a), mg(b))
    assert not np.array_equal(mg(a), mg(other))
    box = np.array(a.box_a[:2])
    for sheet in (1, 2):
        pos = a.positions[(np.array(a.types) == "mgo") & (a.sheet == sheet), :2]
        d = pos[None] - pos[:, None]
        d -= np.round(d / box) * box
        r = np.linalg.norm(d, axis=2) + np.eye(len(pos)) * 1e9
        assert r.min() >= 5.0


def test_starting_waters_are_whole_molecules_in_the_interlayer() -> None:
    system = build_clay(
        ClayParameters(
            cation="Na", layer_charge=0.5, cells=(4, 2), basal_spacing_a=15.5, interlayer_waters=12
        )
    )
    assert check_clay(system).ok
    assert system.water_count() == 12
    z = system.positions[np.array(system.types) == "OW", 2]
    assert np.all((z > system.sheet_mid_z[0]) & (z < system.sheet_mid_z[1]))


@pytest.mark.parametrize(
    ("charge", "cells", "words"),
    [
        (0.33, (5, 4), "substitutions per sheet"),
        (0.25, (5, 4), "divisible by 4"),
    ],
)
def test_a_charge_that_cannot_be_balanced_is_refused(charge, cells, words) -> None:
    with pytest.raises(ValidationError, match=words):
        ClayParameters(cation="Na", layer_charge=charge, cells=cells).cation_count()


def test_tetrahedral_substitution_types_four_obts_and_never_doubles_an_oxygen() -> None:
    params = ClayParameters(cation="Na", layer_charge=0.4, tetrahedral_charge=0.1)
    system = build_clay(params)
    report = check_clay(system)
    assert report.ok, report.failed()
    counts = collections.Counter(system.types)
    assert counts["at"] == 4 and counts["mgo"] == 12  # 2 + 6 per sheet, 16 Na in all
    assert counts["obts"] == 16 and "obss" not in counts
    assert system.kinds.count("cation") == 16
    # ClayFF leaves -0.0002 e per Al-for-Si and +0.0002 e per Mg-for-Al
    assert system.charges.sum() == pytest.approx(12 * 0.0002 - 4 * 0.0002, abs=1e-9)
    with pytest.raises(ValidationError, match="exceeds layer_charge"):
        ClayParameters(cation="Na", layer_charge=0.2, tetrahedral_charge=0.3).cation_count()
