"""Preparation checks of a built clay system, recorded as an artifact before anything runs.

Total charge, integer cation counts, the expected partition of cations between
the interlayer and the two external surfaces, molecule ids, atom types and
charges, ClayFF's substitution neighbourhood (4 obos + 2 ohs per Mg) and the
closest contact between different molecules.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Final

import numpy as np

from simwright.builders.clay import ClaySystem
from simwright.forcefields.clayff import (
    ALL_TYPES,
    IONS,
    SUBSTITUTION_CHARGE_E,
    TET_SUBSTITUTION_CHARGE_E,
)

MAX_RESIDUAL_E: Final = 0.004
"""Largest total charge accepted (e): ClayFF's rounding leaves 0.0002 e per Mg."""

MIN_CONTACT_A: Final = 1.6
"""Closest distance accepted between atoms of different molecules (Å); the builder keeps
water H at least this far from everything (a hydrogen-bond contact is ~1.8 Å)."""


@dataclass(frozen=True)
class Check:
    """One preparation check: its name, verdict, measured and expected values."""

    name: str
    ok: bool
    value: Any
    expected: Any
    detail: str = ""


@dataclass(frozen=True)
class PreparationReport:
    """All checks of one system; ``ok`` when every check passes."""

    checks: tuple[Check, ...]

    @property
    def ok(self) -> bool:
        """True when every check passed."""
        return all(c.ok for c in self.checks)

    def failed(self) -> list[Check]:
        """The checks that failed."""
        return [c for c in self.checks if not c.ok]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (the ``preparation.json`` artifact)."""
        return {"ok": self.ok, "checks": [asdict(c) for c in self.checks]}


def _charge_checks(s: ClaySystem) -> list[Check]:
    total = float(s.charges.sum())
    n_sub = sum(s.substitutions)
    checks = [
        Check(
            "total_charge_e",
            abs(total) <= MAX_RESIDUAL_E + 1e-9,
            round(total, 6),
            f"|q| <= {MAX_RESIDUAL_E} (ClayFF rounding: ±0.0002 per substitution, {n_sub})",
        )
    ]
    types = np.array(s.types)
    for sheet in (1, 2):
        q = float(s.charges[s.sheet == sheet].sum())
        in_sheet = types[s.sheet == sheet]
        want = (
            np.count_nonzero(in_sheet == "mgo") * SUBSTITUTION_CHARGE_E
            + np.count_nonzero(in_sheet == "at") * TET_SUBSTITUTION_CHARGE_E
        )
        checks.append(
            Check(
                f"sheet{sheet}_charge_e",
                bool(abs(q - want) < 1e-6),
                round(q, 6),
                round(float(want), 6),
            )
        )
    wrong = [i for i, t in enumerate(s.types) if abs(s.charges[i] - ALL_TYPES[t].charge_e) > 1e-12]
    checks.append(Check("charges_match_types", not wrong, len(wrong), 0))
    return checks


def _count_checks(s: ClaySystem) -> list[Check]:
    p = s.parameters
    n_cells = 2 * p.cells[0] * p.cells[1]
    exact = p.layer_charge * n_cells / IONS[p.cation].charge_e
    n_cat = s.kinds.count("cation")
    z = s.positions[np.array(s.kinds) == "cation", 2]
    z1, z2 = s.sheet_mid_z
    found = {
        "interlayer": int(((z > z1) & (z < z2)).sum()),
        "below": int((z < z1).sum()),
        "above": int((z > z2).sum()),
    }
    expected = {"interlayer": n_cat // 2, "below": n_cat // 4, "above": n_cat // 4}
    n_mg = s.types.count("mgo")
    n_at = s.types.count("at")
    return [
        Check("cation_count_integer", abs(exact - round(exact)) < 1e-9, exact, round(exact)),
        Check("cation_count", n_cat == round(exact), n_cat, round(exact)),
        Check("cation_partition", found == expected, found, expected),
        Check(
            "substitutions",
            n_mg + n_at == sum(s.substitutions) == round(exact * IONS[p.cation].charge_e),
            n_mg + n_at,
            round(exact * IONS[p.cation].charge_e),
        ),
        Check(
            "obts_per_tetrahedral_al",
            s.types.count("obts") == 4 * n_at,
            s.types.count("obts"),
            4 * n_at,
        ),
        Check("obos_per_mg", s.types.count("obos") == 4 * n_mg, s.types.count("obos"), 4 * n_mg),
        Check("ohs_per_mg", s.types.count("ohs") == 2 * n_mg, s.types.count("ohs"), 2 * n_mg),
    ]


def _molecule_checks(s: ClaySystem) -> list[Check]:
    kinds = np.array(s.kinds)
    unknown = sorted({t for t in s.types if t not in ALL_TYPES})
    sheets_ok = bool(np.all(s.mol_ids[s.sheet == 1] == 1) and np.all(s.mol_ids[s.sheet == 2] == 2))
    cat_ids = s.mol_ids[kinds == "cation"]
    water_ids = s.mol_ids[kinds == "water"]
    _, per_water = np.unique(water_ids, return_counts=True)
    ids = np.unique(s.mol_ids)
    return [
        Check("atom_types_known", not unknown, unknown, []),
        Check("sheet_molecule_ids", sheets_ok, [1, 2], [1, 2]),
        Check(
            "cation_molecule_ids_unique",
            len(set(cat_ids)) == len(cat_ids),
            len(set(cat_ids)),
            len(cat_ids),
        ),
        Check(
            "water_molecules_of_three",
            bool(np.all(per_water == 3)),
            len(per_water),
            s.water_count(),
        ),
        Check(
            "molecule_ids_contiguous",
            bool(np.array_equal(ids, np.arange(1, len(ids) + 1))),
            int(ids.max()),
            len(ids),
        ),
    ]


def _contact_check(s: ClaySystem) -> Check:
    box = np.array(s.box_a)
    closest = np.inf
    for start in range(0, s.n_atoms, 256):
        block = s.positions[start : start + 256]
        d = s.positions[None, :, :] - block[:, None, :]
        d -= np.round(d / box) * box
        r = np.linalg.norm(d, axis=2)
        same = s.mol_ids[None, :] == s.mol_ids[start : start + 256, None]
        r[same] = np.inf
        closest = min(closest, float(r.min()))
    return Check(
        "closest_intermolecular_contact_a",
        closest >= MIN_CONTACT_A,
        round(closest, 3),
        f">= {MIN_CONTACT_A}",
    )


def check_clay(system: ClaySystem) -> PreparationReport:
    """Every preparation check of ``system``."""
    return PreparationReport(
        (
            *_charge_checks(system),
            *_count_checks(system),
            *_molecule_checks(system),
            _contact_check(system),
        )
    )
