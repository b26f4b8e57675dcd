"""LAMMPS files of a clay system: the data file (``atom_style full``) and the water template.

Types are numbered in a fixed order: the system's clay types, its cation, then
SPC/E ``OW`` and ``HW`` (always present, since ``fix gcmc`` inserts them). One
bond type (O–H of water) and one angle type (H–O–H), both held by SHAKE; the
clay sheets carry no bonded terms because they move as rigid bodies.
"""

from __future__ import annotations

import math
from typing import Final

import numpy as np

from simwright.builders.clay import ClaySystem
from simwright.forcefields.clayff import ALL_TYPES, CLAY_TYPES, WATER_GEOMETRY, WATER_TYPES

DATA_NAME: Final = "clay.data"
MOLECULE_NAME: Final = "h2o.mol"


def type_order(system: ClaySystem) -> tuple[str, ...]:
    """LAMMPS type names in type-number order (1-based numbering)."""
    clay = [t for t in CLAY_TYPES if t in system.types]
    return (*clay, system.parameters.cation, *WATER_TYPES)


def render_data(system: ClaySystem) -> str:
    """The ``clay.data`` file of ``system`` (real units: Å, amu, e)."""
    order = type_order(system)
    number = {t: i + 1 for i, t in enumerate(order)}
    water = np.flatnonzero(np.array(system.kinds) == "water")
    n_w = len(water) // 3
    lx, ly, lz = system.box_a
    lines = [
        "simwright clay system (ClayFF + SPC/E)",
        "",
        f"{system.n_atoms} atoms",
        f"{2 * n_w} bonds",
        f"{n_w} angles",
        "",
        f"{len(order)} atom types",
        "1 bond types",
        "1 angle types",
        "",
        f"0 {lx:.6f} xlo xhi",
        f"0 {ly:.6f} ylo yhi",
        f"0 {lz:.6f} zlo zhi",
        "",
        "Masses",
        "",
    ]
    lines += [f"{number[t]} {ALL_TYPES[t].mass_amu} # {t}" for t in order]
    lines += ["", "Atoms # full", ""]
    for i, (t, q, m, xyz) in enumerate(
        zip(system.types, system.charges, system.mol_ids, system.positions, strict=True)
    ):
        lines.append(f"{i + 1} {m} {number[t]} {q:.6f} {xyz[0]:.6f} {xyz[1]:.6f} {xyz[2]:.6f}")
    if n_w:
        lines += ["", "Bonds", ""]
        for k in range(n_w):
            o = water[3 * k] + 1
            lines += [f"{2 * k + 1} 1 {o} {o + 1}", f"{2 * k + 2} 1 {o} {o + 2}"]
        lines += ["", "Angles", ""]
        lines += [
            f"{k + 1} 1 {water[3 * k] + 2} {water[3 * k] + 1} {water[3 * k] + 3}"
            for k in range(n_w)
        ]
    return "\n".join(lines) + "\n"


def render_water_molecule(system: ClaySystem) -> str:
    """The SPC/E molecule template for ``fix gcmc`` and ``fix shake`` (centred on its COM)."""
    order = type_order(system)
    t_o, t_h = order.index("OW") + 1, order.index("HW") + 1
    r, theta = WATER_GEOMETRY
    half = math.radians(theta) / 2
    xyz = np.array(
        [
            [0, 0, 0],
            [r * math.sin(half), 0, r * math.cos(half)],
            [-r * math.sin(half), 0, r * math.cos(half)],
        ]
    )
    masses = np.array([WATER_TYPES["OW"].mass_amu, *[WATER_TYPES["HW"].mass_amu] * 2])
    xyz -= (masses[:, None] * xyz).sum(axis=0) / masses.sum()
    q_o, q_h = WATER_TYPES["OW"].charge_e, WATER_TYPES["HW"].charge_e
    lines = [
        "# SPC/E water (Berendsen et al. 1987), rigid by SHAKE",
        "",
        "3 atoms",
        "2 bonds",
        "1 angles",
        "",
        "Coords",
        "",
    ]
    lines += [f"{i + 1} {x:.6f} {y:.6f} {z:.6f}" for i, (x, y, z) in enumerate(xyz)]
    lines += [
        "",
        "Types",
        "",
        f"1 {t_o}",
        f"2 {t_h}",
        f"3 {t_h}",
        "",
        "Charges",
        "",
        f"1 {q_o}",
        f"2 {q_h}",
        f"3 {q_h}",
        "",
        "Bonds",
        "",
        "1 1 1 2",
        "2 1 1 3",
        "",
        "Angles",
        "",
        "1 1 2 1 3",
        "",
        "Shake Flags",
        "",
        "1 1",
        "2 1",
        "3 1",
        "",
        "Shake Atoms",
        "",
        "1 1 2 3",
        "2 1 2 3",
        "3 1 2 3",
        "",
        "Shake Bond Types",
        "",
        "1 1 1 1",
        "2 1 1 1",
        "3 1 1 1",
    ]
    return "\n".join(lines) + "\n"
