"""Compound prototypes that ASE's ``bulk`` does not build, from their Wyckoff positions.

- rutile (TiO₂, P4₂/mnm, No. 136): cation at 2a (0, 0, 0), anion at 4f (u, u, 0);
  default c/a = 0.644 and u = 0.305, the values of rutile TiO₂ (a = 4.594 Å,
  c = 2.959 Å, u = 0.305; S. C. Abrahams and J. L. Bernstein, J. Chem. Phys. 55,
  3206 (1971));
- cubic perovskite ABX₃ (Pm-3m, No. 221): A at 1a (0, 0, 0), B at 1b (½, ½, ½), X at
  3c (0, ½, ½) — the ideal cubic cell (SrTiO₃ above 105 K, a = 3.905 Å).
"""

from __future__ import annotations

from ase.formula import Formula

from simwright.errors import ValidationError
from simwright.structure import Structure

RUTILE_C_OVER_A = 0.644
RUTILE_U = 0.305


def _elements(formula: str, counts: tuple[int, ...], proto: str) -> list[str]:
    try:
        found = Formula(formula).count()
    except ValueError as exc:
        raise ValidationError(f"cannot read formula {formula!r}: {exc}") from exc
    if tuple(found.values()) != counts:
        shape = {(1, 2): "AX2 (e.g. TiO2)", (1, 1, 3): "ABX3 (e.g. SrTiO3)"}[counts]
        raise ValidationError(f"{proto} needs a formula {shape}, not {formula!r}")
    return list(found)


def build_prototype(
    formula: str, proto: str, a_a: float, c_over_a: float | None, u: float | None
) -> Structure:
    """The conventional cell of ``formula`` in ``proto`` (``rutile`` or ``perovskite``)."""
    # lazy: ase.spacegroup takes ~0.5 s to import
    from ase.spacegroup import crystal

    if proto == "rutile":
        cation, anion = _elements(formula, (1, 2), proto)
        c = a_a * (c_over_a if c_over_a is not None else RUTILE_C_OVER_A)
        x = u if u is not None else RUTILE_U
        if not 0 < x < 0.5:
            raise ValidationError(f"the rutile parameter u must lie in (0, 0.5), got {x}")
        atoms = crystal(
            [cation, anion],
            basis=[(0, 0, 0), (x, x, 0)],
            spacegroup=136,
            cellpar=[a_a, a_a, c, 90, 90, 90],
        )
    elif proto == "perovskite":
        a_site, b_site, x_site = _elements(formula, (1, 1, 3), proto)
        atoms = crystal(
            [a_site, b_site, x_site],
            basis=[(0, 0, 0), (0.5, 0.5, 0.5), (0, 0.5, 0.5)],
            spacegroup=221,
            cellpar=[a_a, a_a, a_a, 90, 90, 90],
        )
    else:
        raise ValidationError(f"no Wyckoff builder for {proto!r}")
    return Structure.from_ase(atoms)
